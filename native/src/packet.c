/*
 * Packet codec. Fields are written at their ss_proto.h offsets byte by byte, so the
 * encoding does not depend on the host's byte order or on struct packing.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "packet.h"

/* Request header offsets (struct ss_pkt_hdr). */
#define RQ_MAGIC 0
#define RQ_VERSION 4
#define RQ_OPCODE 6
#define RQ_TAG 8
#define RQ_FLAGS 12
#define RQ_OID 16
#define RQ_OFFSET 24
#define RQ_LENGTH 32
#define RQ_TIME 40
#define RQ_PAYLOAD_LEN 48
#define RQ_REPLY_MAX 52
#define RQ_CRC 60

/* Reply header offsets (struct ss_reply_hdr). */
#define RP_MAGIC 0
#define RP_VERSION 4
#define RP_OPCODE 6
#define RP_TAG 8
#define RP_STATUS 12
#define RP_REASON 16
#define RP_PAYLOAD_LEN 20
#define RP_VALUE0 24
#define RP_VALUE1 32
#define RP_VALUE2 40
#define RP_CRC 60

_Static_assert(offsetof(struct ss_pkt_hdr, reply_max) == RQ_REPLY_MAX, "request layout");
_Static_assert(offsetof(struct ss_pkt_hdr, crc32c) == RQ_CRC, "request layout");
_Static_assert(offsetof(struct ss_reply_hdr, value2) == RP_VALUE2, "reply layout");
_Static_assert(offsetof(struct ss_reply_hdr, crc32c) == RP_CRC, "reply layout");

uint32_t ss_pkt_crc32c(uint32_t crc, const void *data, size_t len)
{
	/* the protocol's CRC-32C (ss_wire.h): one implementation for both ends of the link */
	return ss_crc32c(crc, data, len);
}

size_t ss_pkt_wire_size(size_t payload_len)
{
	size_t n = SS_PKT_HDR_SIZE + payload_len;

	return (n + SS_SECTOR - 1) / SS_SECTOR * SS_SECTOR;
}

long ss_pkt_encode(uint8_t *buf, size_t cap, const struct ss_pkt_req *req,
		   const struct ss_pkt_seg *segs, int nseg)
{
	size_t payload = 0, wire, off;
	uint32_t crc;

	for (int i = 0; i < nseg; i++)
		payload += segs[i].len;
	if (payload > SS_PKT_MAX_PAYLOAD)
		return -E2BIG;
	wire = ss_pkt_wire_size(payload);
	if (wire > cap)
		return -E2BIG;

	memset(buf, 0, SS_PKT_HDR_SIZE);
	ss_put_le32(buf + RQ_MAGIC, SS_PKT_MAGIC);
	ss_put_le16(buf + RQ_VERSION, SS_PROTO_VERSION);
	ss_put_le16(buf + RQ_OPCODE, req->opcode);
	ss_put_le32(buf + RQ_TAG, req->tag);
	ss_put_le32(buf + RQ_FLAGS, req->flags);
	ss_put_le64(buf + RQ_OID, req->oid);
	ss_put_le64(buf + RQ_OFFSET, req->offset);
	ss_put_le64(buf + RQ_LENGTH, req->length);
	ss_put_le64(buf + RQ_TIME, req->host_time_ns);
	ss_put_le32(buf + RQ_PAYLOAD_LEN, (uint32_t)payload);
	ss_put_le32(buf + RQ_REPLY_MAX, req->reply_max);

	off = SS_PKT_HDR_SIZE;
	for (int i = 0; i < nseg; i++) {
		if (segs[i].len)
			memcpy(buf + off, segs[i].data, segs[i].len);
		off += segs[i].len;
	}
	memset(buf + off, 0, wire - off);
	crc = ss_pkt_crc32c(0, buf, SS_PKT_HDR_SIZE + payload);
	ss_put_le32(buf + RQ_CRC, crc);
	return (long)wire;
}

int ss_pkt_decode_reply(const uint8_t *buf, size_t len, uint16_t opcode, uint32_t tag,
			struct ss_pkt_reply *out, const char **why)
{
	uint8_t hdr[SS_PKT_HDR_SIZE];
	uint32_t crc, want;
	const char *dummy;

	if (!why)
		why = &dummy;
	if (len < SS_PKT_HDR_SIZE) {
		*why = "reply shorter than its header";
		return -EBADMSG;
	}
	if (ss_get_le32(buf + RP_MAGIC) != SS_REPLY_MAGIC) {
		*why = "reply has a bad magic";
		return -EBADMSG;
	}
	out->payload_len = ss_get_le32(buf + RP_PAYLOAD_LEN);
	if (out->payload_len > len - SS_PKT_HDR_SIZE) {
		*why = "reply payload_len exceeds the transfer";
		return -EBADMSG;
	}
	memcpy(hdr, buf, SS_PKT_HDR_SIZE);
	memset(hdr + RP_CRC, 0, 4);
	crc = ss_pkt_crc32c(0, hdr, SS_PKT_HDR_SIZE);
	crc = ss_pkt_crc32c(crc, buf + SS_PKT_HDR_SIZE, out->payload_len);
	want = ss_get_le32(buf + RP_CRC);
	if (crc != want) {
		*why = "reply CRC-32C mismatch";
		return -EBADMSG;
	}
	if (ss_get_le16(buf + RP_VERSION) != SS_PROTO_VERSION) {
		*why = "reply has an unsupported protocol version";
		return -EPROTO;
	}
	out->opcode = ss_get_le16(buf + RP_OPCODE);
	out->tag = ss_get_le32(buf + RP_TAG);
	if (out->opcode != opcode) {
		*why = "reply opcode is not the request's";
		return -EPROTO;
	}
	if (out->tag != tag) {
		*why = "reply tag is not the request's";
		return -EPROTO;
	}
	out->status = (int32_t)ss_get_le32(buf + RP_STATUS);
	out->reason = ss_get_le32(buf + RP_REASON);
	out->value0 = ss_get_le64(buf + RP_VALUE0);
	out->value1 = ss_get_le64(buf + RP_VALUE1);
	out->value2 = ss_get_le64(buf + RP_VALUE2);
	out->payload = buf + SS_PKT_HDR_SIZE;
	return 0;
}
