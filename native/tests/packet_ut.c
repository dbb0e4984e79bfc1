/*
 * Packet codec against hand-written byte vectors (ss_proto.h layout). The CRC-32C used
 * to build the expected bytes is the bit-at-a-time definition below, independent of the
 * codec's table-driven one; its own check value comes from the CRC-32C standard.
 */
#include <errno.h>

#include "packet.h"
#include "ut.h"

static uint32_t ref_crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
	}
	return ~c;
}

static void test_crc(void)
{
	/* The published CRC-32C check value of "123456789". */
	CHECK_EQ(ref_crc32c((const uint8_t *)"123456789", 9), 0xE3069283u);
	CHECK_EQ(ss_pkt_crc32c(0, "123456789", 9), 0xE3069283u);
	/* Continuing a running CRC equals one pass. */
	CHECK_EQ(ss_pkt_crc32c(ss_pkt_crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
}

static void test_encode_lookup(void)
{
	/* LOOKUP "/a", tag 0x00010002, reply_max 336, host time 0x1122334455667788. */
	uint8_t want[512] = {
		0x53, 0x53, 0x44, 0x31,                         /* magic "SSD1" */
		0x01, 0x00,                                     /* version 1 */
		0x10, 0x00,                                     /* opcode LOOKUP */
		0x02, 0x00, 0x01, 0x00,                         /* tag */
		0x00, 0x00, 0x00, 0x00,                         /* flags */
		0, 0, 0, 0, 0, 0, 0, 0,                         /* oid */
		0, 0, 0, 0, 0, 0, 0, 0,                         /* offset */
		0, 0, 0, 0, 0, 0, 0, 0,                         /* length */
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* host_time_ns */
		0x02, 0x00, 0x00, 0x00,                         /* payload_len */
		0x50, 0x01, 0x00, 0x00,                         /* reply_max 336 */
		0x00, 0x00, 0x00, 0x00,                         /* reserved */
		0x00, 0x00, 0x00, 0x00,                         /* crc (filled below) */
		'/', 'a',
	};
	struct ss_pkt_req req = {
		.opcode = SS_OP_LOOKUP,
		.tag = 0x00010002,
		.host_time_ns = 0x1122334455667788ull,
		.reply_max = 336,
	};
	struct ss_pkt_seg seg = {"/a", 2};
	uint8_t buf[1024];
	uint32_t crc;

	crc = ref_crc32c(want, 66);
	want[60] = (uint8_t)crc;
	want[61] = (uint8_t)(crc >> 8);
	want[62] = (uint8_t)(crc >> 16);
	want[63] = (uint8_t)(crc >> 24);
	memset(buf, 0xEE, sizeof(buf));
	CHECK_EQ(ss_pkt_encode(buf, sizeof(buf), &req, &seg, 1), 512);
	CHECK_MEM(buf, want, 512);
}

static void test_encode_write_segments(void)
{
	/* WRITE oid 0x0102030405060708 at offset 0x1000, FUA, 448 payload bytes from two
	 * segments: fills exactly one sector. */
	uint8_t data[448], want[512], buf[1024];
	struct ss_pkt_req req = {
		.opcode = SS_OP_WRITE,
		.tag = 0xFFFF0001u,
		.flags = SS_WRITE_FUA,
		.oid = 0x0102030405060708ull,
		.offset = 0x1000,
		.length = 448,
	};
	struct ss_pkt_seg segs[2] = {{data, 100}, {data + 100, 348}};
	uint32_t crc;

	for (int i = 0; i < 448; i++)
		data[i] = (uint8_t)(i * 7 + 1);
	memset(want, 0, sizeof(want));
	memcpy(want, "\x53\x53\x44\x31\x01\x00\x12\x00\x01\x00\xFF\xFF\x01\x00\x00\x00", 16);
	memcpy(want + 16, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
	memcpy(want + 24, "\x00\x10\x00\x00\x00\x00\x00\x00", 8);
	memcpy(want + 32, "\xC0\x01\x00\x00\x00\x00\x00\x00", 8);
	memcpy(want + 48, "\xC0\x01\x00\x00", 4);
	memcpy(want + 64, data, 448);
	crc = ref_crc32c(want, 512);
	want[60] = (uint8_t)crc;
	want[61] = (uint8_t)(crc >> 8);
	want[62] = (uint8_t)(crc >> 16);
	want[63] = (uint8_t)(crc >> 24);
	CHECK_EQ(ss_pkt_encode(buf, sizeof(buf), &req, segs, 2), 512);
	CHECK_MEM(buf, want, 512);
}

static void test_sizes(void)
{
	static uint8_t big[SS_PKT_MAX_BYTES + 512], src[SS_PKT_MAX_BYTES];
	struct ss_pkt_req req = {.opcode = SS_OP_WRITE};
	struct ss_pkt_seg seg = {src, 449};

	CHECK_EQ(ss_pkt_wire_size(0), 512);
	CHECK_EQ(ss_pkt_wire_size(448), 512);
	CHECK_EQ(ss_pkt_wire_size(449), 1024);
	memset(big, 0xEE, 2048);
	CHECK_EQ(ss_pkt_encode(big, 1024, &req, &seg, 1), 1024);
	/* the padding is zero */
	for (int i = 64 + 449; i < 1024; i++)
		CHECK_EQ(big[i], 0);
	CHECK_EQ(ss_pkt_encode(big, 512, &req, &seg, 1), -E2BIG);
	seg.len = SS_PKT_MAX_PAYLOAD + 1;
	CHECK_EQ(ss_pkt_encode(big, sizeof(big), &req, &seg, 1), -E2BIG);
	seg.len = SS_PKT_MAX_PAYLOAD;
	CHECK_EQ(ss_pkt_encode(big, sizeof(big), &req, &seg, 1), (long)SS_PKT_MAX_BYTES);
}

/* A STAT reply: status 0, value0 = 7, 3 payload bytes, tag 0x00020005. */
static void make_reply(uint8_t *r, int32_t status, uint32_t reason)
{
	static const uint8_t hdr[64] = {
		0x53, 0x53, 0x44, 0x52, 0x01, 0x00, 0x17, 0x00, /* magic "SSDR", v1, STAT */
		0x05, 0x00, 0x02, 0x00,                         /* tag */
		0, 0, 0, 0,                                     /* status */
		0, 0, 0, 0,                                     /* reason */
		0x03, 0x00, 0x00, 0x00,                         /* payload_len */
		0x07, 0, 0, 0, 0, 0, 0, 0,                      /* value0 */
		0x00, 0x01, 0, 0, 0, 0, 0, 0,                   /* value1 = 256 */
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* value2 */
	};
	uint32_t crc;

	memset(r, 0, 512);
	memcpy(r, hdr, 64);
	r[12] = (uint8_t)status;
	r[13] = (uint8_t)((uint32_t)status >> 8);
	r[14] = (uint8_t)((uint32_t)status >> 16);
	r[15] = (uint8_t)((uint32_t)status >> 24);
	r[16] = (uint8_t)reason;
	r[64] = 'x';
	r[65] = 'y';
	r[66] = 'z';
	crc = ref_crc32c(r, 67);
	r[60] = (uint8_t)crc;
	r[61] = (uint8_t)(crc >> 8);
	r[62] = (uint8_t)(crc >> 16);
	r[63] = (uint8_t)(crc >> 24);
}

static void test_decode(void)
{
	struct ss_pkt_reply rep;
	const char *why = NULL;
	uint8_t r[512];

	make_reply(r, 0, 0);
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_STAT, 0x00020005, &rep, &why), 0);
	CHECK_EQ(rep.status, 0);
	CHECK_EQ(rep.payload_len, 3);
	CHECK_EQ(rep.value0, 7);
	CHECK_EQ(rep.value1, 256);
	CHECK(rep.value2 == UINT64_MAX);
	CHECK(rep.payload == r + 64);
	CHECK_MEM(rep.payload, "xyz", 3);

	make_reply(r, -2, SS_R_NO_SUCH_OBJECT);
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_STAT, 0x00020005, &rep, &why), 0);
	CHECK_EQ(rep.status, -2);
	CHECK_EQ(rep.reason, SS_R_NO_SUCH_OBJECT);

	/* a flipped payload byte */
	make_reply(r, 0, 0);
	r[65] ^= 1;
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_STAT, 0x00020005, &rep, &why), -EBADMSG);
	CHECK(why && strstr(why, "CRC"));
	/* another request's tag, or opcode */
	make_reply(r, 0, 0);
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_STAT, 0x00020006, &rep, &why), -EPROTO);
	CHECK(why && strstr(why, "tag"));
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_LOOKUP, 0x00020005, &rep, &why), -EPROTO);
	/* payload_len beyond the transfer */
	CHECK_EQ(ss_pkt_decode_reply(r, 66, SS_OP_STAT, 0x00020005, &rep, &why), -EBADMSG);
	/* request magic instead of reply magic */
	r[3] = 0x31;
	CHECK_EQ(ss_pkt_decode_reply(r, 512, SS_OP_STAT, 0x00020005, &rep, &why), -EBADMSG);
	CHECK_EQ(ss_pkt_decode_reply(r, 10, SS_OP_STAT, 0x00020005, &rep, &why), -EBADMSG);
}

int main(void)
{
	test_crc();
	test_encode_lookup();
	test_encode_write_segments();
	test_sizes();
	test_decode();
	return ut_report("packet_ut");
}
