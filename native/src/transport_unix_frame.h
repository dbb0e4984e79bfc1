/*
 * Client side of smartssd-devd's socket framing (firmware-tasklets/emu/README.md,
 * "Daemon socket framing"): a 32-byte request header (magic "SSDQ", tag, CDB, dir,
 * data_len) followed by data-out; a 48-byte reply header (magic "SSDA", tag, SCSI status,
 * sense) followed by data-in. Little-endian.
 */
#ifndef SS_NATIVE_TRANSPORT_UNIX_FRAME_H
#define SS_NATIVE_TRANSPORT_UNIX_FRAME_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "packet.h"
#include "transport.h"

#define SS_UX_REQUEST_MAGIC 0x51445353u /* "SSDQ" */
#define SS_UX_REPLY_MAGIC 0x41445353u   /* "SSDA" */
#define SS_UX_REQUEST_HDR_SIZE 32u
#define SS_UX_REPLY_HDR_SIZE 48u
#define SS_UX_SENSE_MAX 32u
#define SS_UX_DATA_MAX 33554432u

/* dir on the socket */
#define SS_UX_DIR_NONE 0u
#define SS_UX_DIR_TO_DRIVE 1u
#define SS_UX_DIR_FROM_DRIVE 2u

struct ss_ux_reply_hdr {
	uint32_t tag;
	uint8_t scsi_status;
	uint8_t sense_len;
	uint8_t sense[SS_UX_SENSE_MAX];
	uint32_t data_len;
};

static inline void ss_ux_encode_request(uint8_t *h, uint32_t tag, const struct ss_xfer *x)
{
	uint32_t dir = x->dir == SS_SAT_DIR_OUT  ? SS_UX_DIR_TO_DRIVE
		       : x->dir == SS_SAT_DIR_IN ? SS_UX_DIR_FROM_DRIVE
						 : SS_UX_DIR_NONE;

	ss_put_le32(h, SS_UX_REQUEST_MAGIC);
	ss_put_le32(h + 4, tag);
	memcpy(h + 8, x->cdb, 16);
	ss_put_le32(h + 24, dir);
	ss_put_le32(h + 28, dir == SS_UX_DIR_NONE ? 0 : x->len);
}

/* \return 0, or -EBADMSG when the header is not a reply header. */
static inline int ss_ux_decode_reply(const uint8_t *h, struct ss_ux_reply_hdr *r)
{
	if (ss_le32(h) != SS_UX_REPLY_MAGIC)
		return -EBADMSG;
	r->tag = ss_le32(h + 4);
	r->scsi_status = h[8];
	r->sense_len = h[9];
	if (r->sense_len > SS_UX_SENSE_MAX)
		return -EBADMSG;
	memcpy(r->sense, h + 12, SS_UX_SENSE_MAX);
	r->data_len = ss_le32(h + 44);
	return 0;
}

#endif
