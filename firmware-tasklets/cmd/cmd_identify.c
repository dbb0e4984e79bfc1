/*
 * IDENTIFY DEVICE data (ACS-2 layout; words not set here are zero).
 */
#include "cmd_internal.h"

#define LBA28_MAX 0x0FFFFFFFull

static void put_word(uint8_t *sector, uint32_t word, uint16_t v)
{
	ss_put_le16(sector + word * 2, v);
}

/* ATA strings: space padded, two characters per word with the first in the high byte. */
void fw_ata_string(uint8_t *dst, const char *src, uint32_t bytes)
{
	uint32_t n = (uint32_t)ss_strnlen(src, bytes);

	for (uint32_t i = 0; i < bytes; i++) {
		uint8_t c = i < n ? (uint8_t)src[i] : ' ';

		if (c < 0x20 || c > 0x7E) {
			c = ' ';
		}
		dst[i ^ 1] = c;
	}
}

/* log2 of logical sectors per physical sector (the flash page), 0 if not a power of 2. */
static uint16_t sectors_log2(uint32_t spp)
{
	uint16_t l = 0;

	if (spp == 0 || (spp & (spp - 1))) {
		return 0;
	}
	while ((1u << l) < spp && l < 15) {
		l++;
	}
	return l;
}

void fw_identify(struct ss_fw *fw, uint8_t *s)
{
	uint64_t cap = fw->capacity_sectors;
	uint64_t cap28 = cap > LBA28_MAX ? LBA28_MAX : cap;
	uint16_t smart_on = fw->life.smart_disabled ? 0 : 1;
	uint16_t l2 = sectors_log2(fw->sectors_per_page);
	uint8_t sum = 0;

	ss_memset(s, 0, SS_SECTOR);
	put_word(s, 0, 0x0040);                /* ATA device, fixed (not removable) */
	put_word(s, 1, 16383);                 /* obsolete CHS, as large drives report */
	put_word(s, 2, 0xC837);                /* specific configuration: complete */
	put_word(s, 3, 16);
	put_word(s, 6, 63);
	fw_ata_string(s + 10 * 2, fw->hal->serial, 20);
	fw_ata_string(s + 23 * 2, fw->hal->firmware_rev, 8);
	fw_ata_string(s + 27 * 2, fw->hal->model, 40);
	put_word(s, 47, 0x8000);               /* READ/WRITE MULTIPLE not supported */
	put_word(s, 49, 0x0300);               /* LBA, DMA */
	put_word(s, 50, 0x4000);
	put_word(s, 53, 0x0006);               /* words 64-70 and 88 valid */
	put_word(s, 60, (uint16_t)cap28);
	put_word(s, 61, (uint16_t)(cap28 >> 16));
	put_word(s, 63, 0x0007);               /* multiword DMA 0-2 */
	put_word(s, 64, 0x0003);               /* PIO 3-4 */
	put_word(s, 65, 120);
	put_word(s, 66, 120);
	put_word(s, 67, 120);
	put_word(s, 68, 120);
	put_word(s, 69, 0x4020);               /* trimmed sectors: deterministic, zeroed */
	put_word(s, 76, 0x0006);               /* SATA 1.5 and 3.0 Gb/s */
	put_word(s, 80, 0x03F0);               /* ATA/ATAPI-4 .. ACS-2 */
	put_word(s, 82, 0x0029);               /* SMART, power management, write cache */
	put_word(s, 83, 0x7400);               /* FLUSH CACHE (EXT), 48-bit */
	put_word(s, 84, 0x4000);
	put_word(s, 85, (uint16_t)(0x0028 | smart_on));
	put_word(s, 86, 0x3400);
	put_word(s, 87, 0x4000);
	put_word(s, 88, 0x407F);               /* UDMA 0-6, mode 6 selected */
	put_word(s, 100, (uint16_t)cap);
	put_word(s, 101, (uint16_t)(cap >> 16));
	put_word(s, 102, (uint16_t)(cap >> 32));
	put_word(s, 103, (uint16_t)(cap >> 48));
	put_word(s, 105, FW_DSM_MAX_BLOCKS);   /* DSM range blocks per command */
	/* a flash page holds 2^l2 sectors: partial-page writes cost a read-modify-write */
	put_word(s, 106, (uint16_t)(0x4000 | (l2 ? 0x2000 | l2 : 0)));
	put_word(s, 169, 0x0001);              /* DATA SET MANAGEMENT: TRIM */
	put_word(s, 217, 0x0001);              /* non-rotating medium */
	put_word(s, 222, 0x101F);              /* serial transport, SATA up to 2.6 */
	for (uint32_t i = 0; i < SS_SECTOR - 2; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	s[510] = 0xA5;
	sum = (uint8_t)(sum + 0xA5);
	s[511] = (uint8_t)(0x100 - sum);
}
