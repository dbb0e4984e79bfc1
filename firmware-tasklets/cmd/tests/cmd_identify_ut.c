/*
 * IDENTIFY DEVICE, decoded here per ACS word by word: strings, capacities (checked
 * against what READ accepts), feature bits, sector-size word, the signature/checksum.
 */
#include "fixture.h"

static uint16_t w(const uint8_t *s, int i)
{
	return (uint16_t)(s[2 * i] | (s[2 * i + 1] << 8));
}

/* ATA string: each word holds two characters, the first in bits 15:8. */
static void ata_string(const uint8_t *s, int first_word, int words, char *out)
{
	for (int i = 0; i < words; i++) {
		uint16_t v = w(s, first_word + i);

		out[2 * i] = (char)(v >> 8);
		out[2 * i + 1] = (char)(v & 0xFF);
	}
	out[2 * words] = 0;
}

static void padded(const char *src, int len, char *out)
{
	int n = (int)strnlen(src, (size_t)len);

	memset(out, ' ', (size_t)len);
	memcpy(out, src, (size_t)n);
	out[len] = 0;
}

static void identify(struct fx *f, uint8_t *s)
{
	struct ss_ata_result res;

	fx_ata(f, 0xEC, 0, 1, 0, s, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(res.error, 0);
}

static void check_checksum(const uint8_t *s)
{
	uint8_t sum = 0;

	for (int i = 0; i < 512; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	CHECK_EQ(s[510], 0xA5);
	CHECK_EQ(sum, 0);
}

int main(void)
{
	struct fx f;
	struct ss_ata_result res;
	uint8_t s[512], big[1024], sector[512];
	char got[64], want[64];
	uint64_t cap48, cap28;

	fx_create(&f, 0);
	identify(&f, s);
	check_checksum(s);

	CHECK_EQ(w(s, 0) & 0x8000, 0);            /* ATA device */
	ata_string(s, 10, 10, got);
	padded(f.hal->serial, 20, want);
	CHECK(strcmp(got, want) == 0);
	ata_string(s, 23, 4, got);
	padded(f.hal->firmware_rev, 8, want);
	CHECK(strcmp(got, want) == 0);
	ata_string(s, 27, 20, got);
	padded(f.hal->model, 40, want);
	CHECK(strcmp(got, want) == 0);
	CHECK(f.hal->model[0] != 0);

	CHECK(w(s, 49) & (1 << 9));                /* LBA */
	CHECK(w(s, 49) & (1 << 8));                /* DMA */
	CHECK_EQ(w(s, 83) & 0xC000, 0x4000);       /* words 82-84 valid */
	CHECK(w(s, 83) & (1 << 10));               /* 48-bit supported */
	CHECK(w(s, 83) & (1 << 13));               /* FLUSH CACHE EXT */
	CHECK(w(s, 83) & (1 << 12));               /* FLUSH CACHE */
	CHECK(w(s, 86) & (1 << 10));               /* 48-bit enabled */
	CHECK(w(s, 86) & (1 << 13));
	CHECK_EQ(w(s, 84) & 0xC000, 0x4000);
	CHECK_EQ(w(s, 87) & 0xC000, 0x4000);
	CHECK(w(s, 82) & 1);                       /* SMART supported */
	CHECK(w(s, 85) & 1);                       /* and enabled */
	CHECK(w(s, 169) & 1);                      /* TRIM */
	CHECK(w(s, 105) >= 1);                     /* DSM blocks per command */
	CHECK(w(s, 69) & (1 << 14));               /* deterministic after TRIM */
	CHECK(w(s, 69) & (1 << 5));                /* zeroes after TRIM */
	CHECK_EQ(w(s, 217), 1);                    /* non-rotating */
	/* physical sector = flash page = 8 KiB = 2^4 logical sectors */
	CHECK_EQ(w(s, 106) & 0xC000, 0x4000);
	CHECK(w(s, 106) & (1 << 13));
	CHECK_EQ(w(s, 106) & 0xF, 4);

	cap48 = (uint64_t)w(s, 100) | ((uint64_t)w(s, 101) << 16) | ((uint64_t)w(s, 102) << 32) |
		((uint64_t)w(s, 103) << 48);
	cap28 = (uint64_t)w(s, 60) | ((uint64_t)w(s, 61) << 16);
	CHECK(cap48 > 0);
	CHECK(cap48 % 16 == 0);                    /* whole pages */
	CHECK(cap48 * 512 <= (uint64_t)FX_CHANNELS * FX_BLOCKS_PER_DIE * FX_PAGES_PER_BLOCK * FX_PAGE_SIZE);
	CHECK_EQ(cap28, cap48 < 0x0FFFFFFF ? cap48 : 0x0FFFFFFF);
	/* the last LBA reads, the one past it is out of range */
	fx_ata(&f, 0x25, 0, 1, cap48 - 1, sector, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_ata(&f, 0x25, 0, 1, cap48, sector, 512, &res);
	CHECK(res.status & SS_ATA_STATUS_ERR);
	CHECK(res.error & SS_ATA_ERROR_IDNF);
	CHECK_EQ(res.lba, SS_R_LBA_RANGE);

	/* a transfer longer than a sector gets the data and zeros */
	memset(big, 0xAB, sizeof(big));
	fx_ata(&f, 0xEC, 0, 2, 0, big, sizeof(big), &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK(memcmp(big, s, 512) == 0);
	for (int i = 512; i < 1024; i++) {
		CHECK_EQ(big[i], 0);
	}
	/* too short a transfer is refused */
	fx_ata(&f, 0xEC, 0, 0, 0, big, 256, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	fx_ata(&f, 0xEC, 0, 0, 0, NULL, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));

	/* SMART disabled shows in word 85, and the checksum still holds */
	fx_ata(&f, 0xB0, 0xD9, 0, 0xC24F00, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	identify(&f, s);
	CHECK(w(s, 82) & 1);
	CHECK_EQ(w(s, 85) & 1, 0);
	check_checksum(s);
	fx_ata(&f, 0xB0, 0xD8, 0, 0xC24F00, NULL, 0, &res);
	identify(&f, s);
	CHECK(w(s, 85) & 1);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
