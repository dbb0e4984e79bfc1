/*
 * The spare (OOB) record of every programmed page: what mount needs to rebuild the
 * mapping without trusting anything else. It carries its own CRC so a torn or foreign
 * spare is never mistaken for a page of ours.
 *
 *   0 magic  4 kind  5 stream  6 zero(2)  8 lpn  12 erase_count  16 seq(8)  24 ref(8)
 *   32 data_crc  36 zero(8)  44 crc of bytes 0..43
 */
#include "ftl_internal.h"

#define SPARE_CRC_OFF 44u

void ftl_spare_encode(uint8_t *raw, const struct ftl_spare *s)
{
	ss_memset(raw, 0, FTL_SPARE_BYTES);
	ss_put_le32(raw, FTL_SPARE_MAGIC);
	raw[4] = s->kind;
	raw[5] = s->stream;
	ss_put_le32(raw + 8, s->lpn);
	ss_put_le32(raw + 12, s->erase_count);
	ss_put_le64(raw + 16, s->seq);
	ss_put_le64(raw + 24, s->ref);
	ss_put_le32(raw + 32, s->data_crc);
	ss_put_le32(raw + SPARE_CRC_OFF, ss_crc32c(0, raw, SPARE_CRC_OFF));
}

enum ftl_spare_status ftl_spare_decode(const uint8_t *raw, struct ftl_spare *s)
{
	uint32_t i;

	for (i = 0; i < FTL_SPARE_BYTES && raw[i] == 0xFF; i++) {
	}
	if (i == FTL_SPARE_BYTES) {
		return FTL_SPARE_ERASED;
	}
	if (ss_get_le32(raw) != FTL_SPARE_MAGIC ||
	    ss_get_le32(raw + SPARE_CRC_OFF) != ss_crc32c(0, raw, SPARE_CRC_OFF)) {
		return FTL_SPARE_BAD;
	}
	s->kind = raw[4];
	s->stream = raw[5];
	s->lpn = ss_get_le32(raw + 8);
	s->erase_count = ss_get_le32(raw + 12);
	s->seq = ss_get_le64(raw + 16);
	s->ref = ss_get_le64(raw + 24);
	s->data_crc = ss_get_le32(raw + 32);
	if (s->kind < FTL_KIND_DATA || s->kind > FTL_KIND_TRIM) {
		return FTL_SPARE_BAD;
	}
	return FTL_SPARE_OK;
}
