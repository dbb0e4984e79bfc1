/*
 * The spare (OOB) record of every page the cache programs: the reverse map (§4.3.1), so
 * garbage collection learns which backing block a log page caches without a DRAM table.
 * It carries its own CRC so a torn or foreign spare is never taken for one of ours; its
 * magic differs from the FTL's, so neither mistakes the other's pages.
 *
 *   0 magic  4 kind  5 dirty  6 zero(2)  8 lba(8)  16 seq(8)  24 erase_count  28 data_crc
 *   32 zero(4)  36 crc of bytes 0..35
 */
#include "ssc_internal.h"

#define SPARE_CRC_OFF 36u

_Static_assert(SPARE_CRC_OFF + 4 == SSC_SPARE_BYTES, "spare record size");

void ssc_spare_encode(uint8_t *raw, const struct ssc_spare *s)
{
	ss_memset(raw, 0, SSC_SPARE_BYTES);
	ss_put_le32(raw, SSC_SPARE_MAGIC);
	raw[4] = s->kind;
	raw[5] = s->dirty;
	ss_put_le64(raw + 8, s->lba);
	ss_put_le64(raw + 16, s->seq);
	ss_put_le32(raw + 24, s->erase_count);
	ss_put_le32(raw + 28, s->data_crc);
	ss_put_le32(raw + SPARE_CRC_OFF, ss_crc32c(0, raw, SPARE_CRC_OFF));
}

enum ssc_spare_status ssc_spare_decode(const uint8_t *raw, struct ssc_spare *s)
{
	uint32_t i;

	for (i = 0; i < SSC_SPARE_BYTES && raw[i] == 0xFF; i++) {
	}
	if (i == SSC_SPARE_BYTES) {
		return SSC_SPARE_ERASED;
	}
	if (ss_get_le32(raw) != SSC_SPARE_MAGIC ||
	    ss_get_le32(raw + SPARE_CRC_OFF) != ss_crc32c(0, raw, SPARE_CRC_OFF)) {
		return SSC_SPARE_BAD;
	}
	s->kind = raw[4];
	s->dirty = raw[5];
	s->lba = ss_get_le64(raw + 8);
	s->seq = ss_get_le64(raw + 16);
	s->erase_count = ss_get_le32(raw + 24);
	s->data_crc = ss_get_le32(raw + 28);
	if ((s->kind != SSC_KIND_DATA && s->kind != SSC_KIND_LOG && s->kind != SSC_KIND_CKPT) ||
	    s->dirty > 1) {
		return SSC_SPARE_BAD;
	}
	return SSC_SPARE_OK;
}
