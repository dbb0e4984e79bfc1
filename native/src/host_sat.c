/*
 * ATA PASS-THROUGH(16) encoding and sense decoding, after T10 SAT (ATA PASS-THROUGH(16)
 * command; ATA Status Return sense data descriptor; fixed-format sense for ATA
 * PASS-THROUGH).
 */
#include <errno.h>
#include <string.h>

#include "smartssd/sat.h"

/* CDB byte 2 */
#define CK_COND 0x20
#define T_DIR_IN 0x08
#define BYTE_BLOCK 0x04
#define T_LENGTH_COUNT 0x02

#define DESC_ATA_STATUS_RETURN 0x09
#define DESC_ATA_STATUS_RETURN_LEN 0x0C

static int check_cmd(const struct ss_sat_cmd *c)
{
	if (c->extend) {
		if (c->lba >> 48)
			return -EINVAL;
	} else if ((c->lba >> 28) || c->count > 0xFF || c->features > 0xFF) {
		return -EINVAL;
	}
	switch (c->protocol) {
	case SS_SAT_PROTO_NON_DATA:
		return c->dir == SS_SAT_DIR_NONE ? 0 : -EINVAL;
	case SS_SAT_PROTO_PIO_IN:
		return c->dir == SS_SAT_DIR_IN ? 0 : -EINVAL;
	case SS_SAT_PROTO_PIO_OUT:
		return c->dir == SS_SAT_DIR_OUT ? 0 : -EINVAL;
	case SS_SAT_PROTO_DMA:
		return c->dir != SS_SAT_DIR_NONE ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

int ss_sat_encode16(const struct ss_sat_cmd *c, uint8_t cdb[SS_SAT_CDB_LEN])
{
	int rc = check_cmd(c);

	if (rc)
		return rc;
	memset(cdb, 0, SS_SAT_CDB_LEN);
	cdb[0] = SS_SAT_PASS_THROUGH_16;
	cdb[1] = (uint8_t)((c->protocol << 1) | (c->extend ? 1 : 0));
	if (c->ck_cond)
		cdb[2] |= CK_COND;
	if (c->dir != SS_SAT_DIR_NONE) {
		cdb[2] |= BYTE_BLOCK | T_LENGTH_COUNT;
		if (c->dir == SS_SAT_DIR_IN)
			cdb[2] |= T_DIR_IN;
	}
	/* Bytes 3..12 interleave the "previous" (upper, EXT only) and current register
	 * values: features, count, then LBA low/mid/high with their upper bytes. */
	if (c->extend) {
		cdb[3] = (uint8_t)(c->features >> 8);
		cdb[5] = (uint8_t)(c->count >> 8);
		cdb[7] = (uint8_t)(c->lba >> 24);
		cdb[9] = (uint8_t)(c->lba >> 32);
		cdb[11] = (uint8_t)(c->lba >> 40);
	}
	cdb[4] = (uint8_t)c->features;
	cdb[6] = (uint8_t)c->count;
	cdb[8] = (uint8_t)c->lba;
	cdb[10] = (uint8_t)(c->lba >> 8);
	cdb[12] = (uint8_t)(c->lba >> 16);
	cdb[13] = c->extend ? c->device : (uint8_t)(c->device | ((c->lba >> 24) & 0x0F));
	cdb[14] = c->command;
	return 0;
}

static void decode_status_return(const uint8_t *d, struct ss_sat_regs *r)
{
	r->extend = d[2] & 1;
	r->error = d[3];
	r->count = d[5];
	r->lba = (uint64_t)d[7] | ((uint64_t)d[9] << 8) | ((uint64_t)d[11] << 16);
	if (r->extend) {
		r->count |= (uint16_t)(d[4] << 8);
		r->lba |= ((uint64_t)d[6] << 24) | ((uint64_t)d[8] << 32) |
			  ((uint64_t)d[10] << 40);
	}
	r->device = d[12];
	r->status = d[13];
}

static int decode_descriptor(const uint8_t *s, size_t len, struct ss_sat_sense *out)
{
	size_t end, off;

	if (len < 8)
		return -EBADMSG;
	out->key = s[1] & 0x0F;
	out->asc = s[2];
	out->ascq = s[3];
	end = 8 + (size_t)s[7];
	if (end > len)
		return -EBADMSG;
	for (off = 8; off + 2 <= end;) {
		size_t dlen = 2 + (size_t)s[off + 1];

		if (off + dlen > end)
			return -EBADMSG;
		if (s[off] == DESC_ATA_STATUS_RETURN) {
			if (s[off + 1] < DESC_ATA_STATUS_RETURN_LEN)
				return -EBADMSG;
			decode_status_return(s + off, &out->regs);
			out->has_regs = 1;
		}
		off += dlen;
	}
	return 0;
}

static int decode_fixed(const uint8_t *s, size_t len, struct ss_sat_sense *out)
{
	if (len < 14)
		return -EBADMSG;
	out->key = s[2] & 0x0F;
	out->asc = s[12];
	out->ascq = s[13];
	/* ATA PASS-THROUGH INFORMATION AVAILABLE or an ATA error: the SATL puts ERROR,
	 * STATUS, DEVICE, COUNT(7:0) in INFORMATION and the flags and LBA(23:0) in
	 * COMMAND-SPECIFIC INFORMATION; the upper bytes are not carried. */
	if (out->key == SS_SAT_KEY_RECOVERED || out->key == SS_SAT_KEY_ABORTED) {
		out->regs.error = s[3];
		out->regs.status = s[4];
		out->regs.device = s[5];
		out->regs.count = s[6];
		out->regs.extend = 0;
		out->regs.lba = (uint64_t)s[9] | ((uint64_t)s[10] << 8) | ((uint64_t)s[11] << 16);
		out->has_regs = 1;
	}
	return 0;
}

int ss_sat_decode_sense(const uint8_t *sense, size_t len, struct ss_sat_sense *out)
{
	memset(out, 0, sizeof(*out));
	if (!sense || len < 1)
		return -EBADMSG;
	out->response_code = sense[0] & 0x7F;
	switch (out->response_code) {
	case 0x72:
	case 0x73:
		return decode_descriptor(sense, len, out);
	case 0x70:
	case 0x71:
		return decode_fixed(sense, len, out);
	default:
		return -EBADMSG;
	}
}
