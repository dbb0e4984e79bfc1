/*
 * Request and reply packets of the object protocol (ss_proto.h): 64-byte header, payload,
 * zero padding to whole sectors, CRC-32C over header (crc as zero) and payload.
 */
#ifndef SS_NATIVE_PACKET_H
#define SS_NATIVE_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "ss_proto.h"

/* Request header fields the caller chooses (magic, version, payload_len, crc are set by
 * the encoder). */
struct ss_pkt_req {
	uint16_t opcode;
	uint32_t tag;
	uint32_t flags;
	uint64_t oid;
	uint64_t offset;
	uint64_t length;
	uint64_t host_time_ns;
	uint32_t reply_max;
};

/* One piece of a payload; pieces are concatenated. */
struct ss_pkt_seg {
	const void *data;
	size_t len;
};

/* Decoded reply header. */
struct ss_pkt_reply {
	uint16_t opcode;
	uint32_t tag;
	int32_t status;
	uint32_t reason;
	uint32_t payload_len;
	uint64_t value0;
	uint64_t value1;
	uint64_t value2;
	const uint8_t *payload; /* points into the decoded buffer */
};

/** Bytes a packet with this payload occupies on the wire (header + payload, padded). */
size_t ss_pkt_wire_size(size_t payload_len);

/**
 * Encode a request into buf.
 * \return the padded packet length (a multiple of 512), or -E2BIG when the payload
 *         exceeds SS_PKT_MAX_PAYLOAD or cap.
 */
long ss_pkt_encode(uint8_t *buf, size_t cap, const struct ss_pkt_req *req,
		   const struct ss_pkt_seg *segs, int nseg);

/**
 * Decode and check the reply in buf[0..len) to the request (opcode, tag).
 * \return 0, or -EBADMSG (bad magic, CRC or length), -EPROTO (version, opcode or tag not
 *         the request's). `why` (may be NULL) names the problem.
 */
int ss_pkt_decode_reply(const uint8_t *buf, size_t len, uint16_t opcode, uint32_t tag,
			struct ss_pkt_reply *out, const char **why);

/** CRC-32C (Castagnoli, reflected, init/final xor 0xFFFFFFFF), continuing from crc
 *  (0 to start). */
uint32_t ss_pkt_crc32c(uint32_t crc, const void *data, size_t len);

#endif
