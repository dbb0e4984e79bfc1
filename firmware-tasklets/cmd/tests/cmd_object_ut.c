/*
 * The packet protocol: every way a SEND is refused (and that a refused SEND stores no
 * reply), RECV rules (unknown tag, too small a transfer keeps the reply, framing of the
 * reply), sessions (quotas, closing), and SEND/SEND/RECV/RECV of two sessions pairing by
 * tag.
 */
#include <stdlib.h>

#include "fixture.h"

static uint8_t pkt[1 << 16];

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
}

static void recrc(uint8_t *p)
{
	uint32_t len = p[48] | (p[49] << 8) | (p[50] << 16) | ((uint32_t)p[51] << 24);

	put32(p + 60, 0);
	put32(p + 60, fx_crc32c(0, p, 64 + len));
}

static void expect_no_reply(struct fx *f, uint32_t tag)
{
	struct ss_ata_result res;

	fx_recv(f, tag, 8, NULL, &res);
	CHECK(FX_ABORTED(res, SS_R_NO_REPLY));
}

enum mut {
	M_MAGIC, M_VERSION, M_CRC, M_PAYLOAD_LEN, M_EXTRA_SECTOR, M_COUNT, M_SHORT_LEN,
	M_NO_DATA, M_TAG, M_LBA_HIGH, M_OPCODE, M_RESERVED, M_FLAGS, M_REPLY_MAX, M_READ_LEN,
	M_NO_SESSION, M_SESSION0,
};

static const struct {
	enum mut m;
	uint32_t reason;
} rejects[] = {
	{ M_MAGIC, SS_R_BAD_MAGIC },
	{ M_VERSION, SS_R_BAD_VERSION },
	{ M_CRC, SS_R_BAD_CRC },
	{ M_PAYLOAD_LEN, SS_R_BAD_LENGTH },
	{ M_EXTRA_SECTOR, SS_R_BAD_LENGTH },
	{ M_COUNT, SS_R_BAD_LENGTH },
	{ M_SHORT_LEN, SS_R_BAD_LENGTH },
	{ M_NO_DATA, SS_R_BAD_LENGTH },
	{ M_TAG, SS_R_TAG_MISMATCH },
	{ M_LBA_HIGH, SS_R_TAG_MISMATCH },
	{ M_OPCODE, SS_R_BAD_OPCODE },
	{ M_RESERVED, SS_R_BAD_FIELD },
	{ M_FLAGS, SS_R_BAD_FIELD },
	{ M_REPLY_MAX, SS_R_BAD_FIELD },
	{ M_READ_LEN, SS_R_BAD_FIELD },
	{ M_NO_SESSION, SS_R_BAD_SESSION },
	{ M_SESSION0, SS_R_BAD_SESSION },
};

static void test_rejects(struct fx *f)
{
	for (size_t i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		struct fx_pkt p = { .opcode = SS_OP_STAT, .payload = "/", .payload_len = 1,
				    .reply_max = 4096, .tag = fx_tag(f) };
		struct ss_ata_result res;
		uint32_t bytes, sectors;
		uint64_t lba;
		uint8_t *data = pkt;

		if (rejects[i].m == M_READ_LEN) {
			p = (struct fx_pkt){ .opcode = SS_OP_READ, .oid = 5, .length = 8192,
					     .reply_max = 4096, .tag = p.tag };
		}
		if (rejects[i].m == M_NO_SESSION) {
			p.tag = (0x7FF0u << 16) | 1u;
		}
		if (rejects[i].m == M_SESSION0) {
			p.tag = 0x99;
		}
		bytes = fx_encode(&p, pkt);
		sectors = bytes / 512;
		lba = p.tag;
		switch (rejects[i].m) {
		case M_MAGIC: pkt[0] ^= 1; recrc(pkt); break;
		case M_VERSION: pkt[4] = 2; recrc(pkt); break;
		case M_CRC: pkt[64] ^= 0x40; break;
		case M_PAYLOAD_LEN: put32(pkt + 48, 449); recrc(pkt); break;
		case M_EXTRA_SECTOR: bytes += 512; sectors++; break;
		case M_COUNT: sectors++; break;
		case M_SHORT_LEN: bytes = 100; break;
		case M_NO_DATA: data = NULL; break;
		case M_TAG: lba ^= 1; break;
		case M_LBA_HIGH: lba |= 1ull << 32; break;
		case M_OPCODE: pkt[6] = 0x99; recrc(pkt); break;
		case M_RESERVED: pkt[56] = 1; recrc(pkt); break;
		case M_FLAGS: pkt[13] = 1; recrc(pkt); break;
		case M_REPLY_MAX: put32(pkt + 52, 100); recrc(pkt); break;
		default: break;
		}
		fx_ata(f, SS_ATA_OBJ_SEND, 0, (uint16_t)sectors, lba, data, bytes, &res);
		if (!FX_ABORTED(res, rejects[i].reason)) {
			fprintf(stderr, "reject case %zu: status 0x%x error 0x%x lba %llu\n", i,
				res.status, res.error, (unsigned long long)res.lba);
		}
		CHECK(FX_ABORTED(res, rejects[i].reason));
		CHECK(res.status & SS_ATA_STATUS_DRDY);
		expect_no_reply(f, p.tag);
	}
}

static void test_recv(struct fx *f)
{
	struct ss_ata_result res;
	struct fx_reply r;
	uint8_t data[1000];
	uint64_t oid;
	uint32_t tag;

	CHECK_EQ(fx_create_path(f, "/r", 1, 0, &oid), 0);
	memset(data, 0x3C, sizeof(data));
	CHECK_EQ(fx_write(f, oid, 0, data, sizeof(data)), 0);
	struct fx_pkt p = { .opcode = SS_OP_READ, .oid = oid, .length = 1000, .reply_max = 1000,
			    .tag = fx_tag(f) };

	tag = p.tag;
	fx_send(f, &p, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(res.count, 3);                 /* 64 + 1000 bytes: three sectors to RECV */
	/* the same tag again while its reply waits */
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_TAG_IN_USE));
	/* too small: refused, the reply stays */
	fx_recv(f, tag, 2, &r, &res);
	CHECK(FX_ABORTED(res, SS_R_REPLY_TOO_BIG));
	CHECK_EQ(res.count, 3);
	fx_recv(f, tag, 3, &r, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK(r.crc_ok);
	CHECK_EQ(r.magic, 0x52445353u);
	CHECK_EQ(r.version, 1);
	CHECK_EQ(r.opcode, SS_OP_READ);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(r.payload_len, 1000);
	CHECK(memcmp(r.payload, data, 1000) == 0);
	for (int i = 48; i < 60; i++) {
		CHECK_EQ(f->buf[i], 0);         /* reserved */
	}
	for (int i = 64 + 1000; i < 3 * 512; i++) {
		CHECK_EQ(f->buf[i], 0);         /* padding */
	}
	/* received once */
	expect_no_reply(f, tag);
	/* RECV framing */
	fx_ata(f, SS_ATA_OBJ_RECV, 0, 2, tag, f->buf, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	fx_ata(f, SS_ATA_OBJ_RECV, 0, 1, tag | (1ull << 40), f->buf, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_TAG_MISMATCH));
	/* a reply can also be an error with a reason */
	p = (struct fx_pkt){ .opcode = SS_OP_STAT, .payload = "/nope", .payload_len = 5 };
	CHECK_EQ(fx_call(f, &p, &r), -SS_ENOENT);
	CHECK_EQ(r.reason, SS_R_NO_SUCH_OBJECT);
	CHECK_EQ(r.payload_len, 0);
}

static void test_busy(struct fx *f)
{
	struct ss_ata_result res;
	struct fx_reply r;
	uint32_t tags[33];

	for (int i = 0; i < 33; i++) {
		struct fx_pkt p = { .opcode = SS_OP_FSSTAT, .reply_max = 512, .tag = fx_tag(f) };

		tags[i] = p.tag;
		fx_send(f, &p, &res);
		if (i < 32) {
			CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
		} else {
			CHECK(FX_ABORTED(res, SS_R_BUSY));
		}
	}
	expect_no_reply(f, tags[32]);
	for (int i = 0; i < 32; i++) {
		fx_recv(f, tags[i], 1, &r, &res);
		CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
		CHECK_EQ(r.tag, tags[i]);
	}
}

/* Two host processes: SEND, SEND, RECV, RECV with equal sequence numbers. */
static void test_interleave(struct fx *f)
{
	struct fx a = *f, b = *f;
	struct ss_ata_result res;
	struct fx_reply ra, rb;
	uint64_t oa, ob;

	CHECK_EQ(fx_create_path(f, "/a", 2, 0, &oa), 0);
	CHECK_EQ(fx_create_path(f, "/b", 1, 0, &ob), 0);
	fx_open_session(&a);
	fx_open_session(&b);
	CHECK(a.session != b.session);
	a.seq = b.seq = 7;
	struct fx_pkt pa = { .opcode = SS_OP_LOOKUP, .payload = "/a", .payload_len = 2,
			     .reply_max = 4096, .tag = fx_tag(&a) };
	struct fx_pkt pb = { .opcode = SS_OP_LOOKUP, .payload = "/b", .payload_len = 2,
			     .reply_max = 4096, .tag = fx_tag(&b) };

	CHECK_EQ(pa.tag & 0xFFFF, pb.tag & 0xFFFF);
	fx_send(&a, &pa, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_send(&b, &pb, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_recv(&b, pb.tag, 8, &rb, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(rb.v[0], ob);
	CHECK_EQ(rb.v[2], 1);
	fx_recv(&a, pa.tag, 8, &ra, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(ra.v[0], oa);
	CHECK_EQ(ra.v[2], 2);

	/* closing a session drops its waiting replies; its tags are refused afterwards */
	struct fx_pkt p1 = { .opcode = SS_OP_FSSTAT, .reply_max = 512, .tag = fx_tag(&a) };
	struct fx_pkt pc = { .opcode = SS_OP_CLOSE_SESSION, .tag = fx_tag(&a) };

	fx_send(&a, &p1, &res);
	fx_send(&a, &pc, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_recv(&a, pc.tag, 1, &ra, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(ra.status, 0);
	expect_no_reply(&a, p1.tag);
	p1.tag = fx_tag(&a);
	fx_send(&a, &p1, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_SESSION));
	/* b is untouched */
	p1.tag = fx_tag(&b);
	CHECK_EQ(fx_call(&b, &p1, &rb), 0);
}

static void test_sessionless(struct fx *f)
{
	struct fx_reply r;
	struct fx_pkt p = { .opcode = SS_OP_DRIVE_INFO, .tag = 0x42 };

	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.payload_len, sizeof(struct ss_drive_info));
	/* queue depth 32 and the batch of Kang §6.5.1 */
	CHECK_EQ(r.payload[16] | (r.payload[17] << 8), 32);
	CHECK_EQ(r.payload[20] | (r.payload[21] << 8), 128);
	/* OPEN_SESSION and DRIVE_INFO only: payload on OPEN is refused */
	p = (struct fx_pkt){ .opcode = SS_OP_OPEN_SESSION, .tag = 0x43, .payload = "x",
			     .payload_len = 1 };
	struct ss_ata_result res;

	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
}

/* The byte vectors of PROTOCOL.md section 8: the encoder matches them, the drive takes them. */
static void test_vectors(struct fx *f)
{
	static const uint8_t open7[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x01, 0x00, 0x07, [60] = 0xba, 0xac, 0xe8, 0xc8,
	};
	static const uint8_t stat5[65] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x17, 0x00, 0x02, 0x00, 0x05, 0x00,
		[48] = 0x01, [52] = 0x48, 0x01, [60] = 0x12, 0x1f, 0x98, 0xc0, 0x2f,
	};
	static const uint8_t exists5[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x46, 0x00, 0x03, 0x00, 0x05, 0x00,
		[16] = 0x89, 0x67, 0x45, 0x23, 0x01, [32] = 0x40, [52] = 0x08,
		[60] = 0x4a, 0x6e, 0x3f, 0xdb,
	};
	static const uint8_t info5[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x40, 0x00, 0x05, 0x00, 0x05, 0x00,
		[52] = 0xa8, [60] = 0x10, 0x0d, 0x07, 0xcd,
	};
	static const uint8_t setattr5[72] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x50, 0x00, 0x04, 0x00, 0x05, 0x00, 0x01,
		[16] = 0x02, [20] = 0x01, [32] = 0x06, [48] = 0x08,
		[60] = 0x71, 0xb9, 0xe0, 0x53, 'u', 's', 'e', 'r', '.', 'k', 'v', '1',
	};
	static const uint8_t counters5[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x30, 0x00, 0x05, 0x00, 0x05, 0x00,
		[52] = 0x20, 0x01, [60] = 0xc8, 0xd0, 0x82, 0x5a,
	};
	static const uint8_t scan5[88] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x47, 0x00, 0x05, 0x00, 0x05, 0x00,
		[16] = 0x01, 0x01, [25] = 0x50, [48] = 0x18, [53] = 0x08,
		[60] = 0x3e, 0x23, 0x28, 0xf5, 0x89, 0x67, 0x45, 0x23, 0x01, [72] = 0x03,
	};
	static const uint8_t queue6[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x24, 0x00, 0x06, 0x00, 0x05, 0x00,
		[52] = 0x20, [60] = 0x19, 0x62, 0xc5, 0xc2,
	};
	static const uint8_t remove7[73] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x27, 0x00, 0x07, 0x00, 0x05, 0x00,
		[48] = 0x09, [60] = 0x2c, 0x5d, 0xec, 0x19,
		'i', 's', 'p', '-', 'g', 'r', 'o', 'u', 'p',
	};
	static const uint8_t scan_range[24] = { 0x89, 0x67, 0x45, 0x23, 0x01, [8] = 0x03 };
	struct fx_pkt p = { .opcode = SS_OP_OPEN_SESSION, .tag = 7 };
	struct ss_ata_result res;
	struct fx_reply r;

	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, open7, 64) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_STAT, .tag = 0x00050002, .reply_max = 328,
			     .payload = "/", .payload_len = 1 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, stat5, 65) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_SSC_EXISTS, .tag = 0x00050003,
			     .oid = 0x123456789ull, .length = 64, .reply_max = 8 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, exists5, 64) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_SET_ATTR, .tag = 0x00050004, .flags = SS_ATTR_CREATE,
			     .oid = 0x100000002ull, .length = 6, .payload = "user.kv1",
			     .payload_len = 8 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, setattr5, 72) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_SSC_INFO, .tag = 0x00050005, .reply_max = 168 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, info5, 64) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_COUNTERS, .tag = 0x00050005,
			     .reply_max = sizeof(struct ss_wire_counters) };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, counters5, 64) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_SSC_SCAN, .tag = 0x00050005, .oid = 0x101,
			     .offset = 0x5000, .reply_max = 2048, .payload = scan_range,
			     .payload_len = 24 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, scan5, 88) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_ISP_QUEUE, .tag = 0x00050006, .reply_max = 32 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, queue6, 64) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_TASKLET_REMOVE, .tag = 0x00050007,
			     .payload = (const uint8_t *)"isp-group", .payload_len = 9 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, remove7, 73) == 0);
	memset(pkt, 0, 512);
	memcpy(pkt, open7, 64);
	fx_send_raw(f, 7, pkt, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(res.count, 1);
	fx_recv(f, 7, 1, &r, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK(r.crc_ok);
	CHECK_EQ(r.status, 0);
	CHECK(r.v[0] >= 1 && r.v[0] <= 0xFFFF);
}

int main(void)
{
	struct fx f;

	fx_create(&f, 0);
	test_vectors(&f);
	fx_open_session(&f);
	test_rejects(&f);
	test_recv(&f);
	test_busy(&f);
	test_interleave(&f);
	test_sessionless(&f);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
