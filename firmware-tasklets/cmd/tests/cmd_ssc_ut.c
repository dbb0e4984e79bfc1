/*
 * The solid-state cache's opcodes (SSC_*) through the SEND/RECV path, against the test's
 * own model of each block: every operation's guarantee at once and after a power loss,
 * their refusals, a drive without a cache (formatted with share 0, or before the cache
 * existed), and a cache full of dirty data.
 */
#include <stdlib.h>

#include "cmd_internal.h"
#include "fixture.h"

#define BS FX_PAGE_SIZE
#define BASE 0x123456789ull   /* cache block numbers above 2^32 */
#define SPAN 64               /* blocks the model tracks from BASE */

enum { MISS = -1 };

/* What each block may read as: a version, or MISS; `alt` a second possibility (a clean
 * block may be dropped), -2 when there is none. */
struct model {
	int must[SPAN];
	int alt[SPAN];
	int dirty[SPAN];
};

static uint8_t data[64 * BS];

static void fill(uint8_t *p, uint64_t block, int version)
{
	uint32_t x = (uint32_t)(block * 2654435761u) ^ (uint32_t)(version * 40503u) ^ 0x9E3779B9u;

	for (uint32_t i = 0; i < BS; i += 4) {
		x = x * 1664525u + 1013904223u;
		fx_put(p + i, x, 4);
	}
}

static int32_t call(struct fx *f, uint16_t op, uint64_t first, uint64_t count,
		    const void *payload, uint32_t payload_len, uint32_t reply_max,
		    struct fx_reply *r)
{
	struct fx_pkt p = { .opcode = op, .oid = first, .length = count, .payload = payload,
			    .payload_len = payload_len, .reply_max = reply_max };

	return fx_call(f, &p, r);
}

static int32_t write_blocks(struct fx *f, int dirty, uint64_t first, uint32_t n, int version)
{
	struct fx_reply r;
	int32_t st;

	for (uint32_t i = 0; i < n; i++) {
		fill(data + (size_t)i * BS, first + i, version);
	}
	st = call(f, dirty ? SS_OP_SSC_WRITE_DIRTY : SS_OP_SSC_WRITE_CLEAN, first, n, data,
		  n * BS, 0, &r);
	if (st == 0) {
		CHECK_EQ(r.v[0], n);
	}
	return st;
}

static void model_write(struct model *m, int dirty, uint32_t at, uint32_t n, int version)
{
	for (uint32_t i = at; i < at + n; i++) {
		m->must[i] = version;
		m->alt[i] = dirty ? -2 : MISS;
		m->dirty[i] = dirty;
	}
}

/* Read all SPAN blocks and exists over them; compare with the model. */
static void check_model(struct fx *f, const struct model *m, const char *when)
{
	static uint8_t want[BS];
	struct fx_reply r;
	uint32_t map = (uint32_t)SS_SSC_BITMAP_BYTES(SPAN);
	uint32_t hits = 0;

	CHECK_EQ(call(f, SS_OP_SSC_READ, BASE, SPAN, NULL, 0, map + SPAN * BS, &r), 0);
	CHECK_EQ(r.payload_len, map + SPAN * BS);
	for (uint32_t i = 0; i < SPAN && r.payload_len == map + SPAN * BS; i++) {
		int present = (r.payload[i / 8] >> (i % 8)) & 1;
		const uint8_t *got = r.payload + map + (size_t)i * BS;
		int ok;

		hits += (uint32_t)present;
		if (!present) {
			ok = m->must[i] == MISS || m->alt[i] == MISS;
			memset(want, 0, BS);
			ok = ok && memcmp(got, want, BS) == 0;
		} else {
			fill(want, BASE + i, m->must[i]);
			ok = m->must[i] != MISS && memcmp(got, want, BS) == 0;
			if (!ok && m->alt[i] >= 0) {
				fill(want, BASE + i, m->alt[i]);
				ok = memcmp(got, want, BS) == 0;
			}
		}
		if (!ok) {
			fprintf(stderr, "%s: block %u %s, model %d / %d\n", when, i,
				present ? "holds other data" : "is missing", m->must[i], m->alt[i]);
			fx_failures++;
		}
	}
	CHECK_EQ(r.v[0], hits);
	CHECK_EQ(call(f, SS_OP_SSC_EXISTS, BASE, SPAN, NULL, 0, SPAN / 8, &r), 0);
	CHECK_EQ(r.payload_len, SPAN / 8);
	for (uint32_t i = 0; i < SPAN && r.payload_len == SPAN / 8; i++) {
		int bit = (r.payload[i / 8] >> (i % 8)) & 1;

		/* a dirty block must show; a cleaned one may show again after a crash */
		if ((m->dirty[i] == 1 && !bit) || (m->dirty[i] == 0 && bit)) {
			fprintf(stderr, "%s: exists bit of block %u is %d, model %d\n", when, i,
				bit, m->dirty[i]);
			fx_failures++;
		}
	}
}

static void test_ops(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	struct model m;
	struct fx_reply r;
	struct fx f;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	for (int i = 0; i < SPAN; i++) {
		m.must[i] = MISS;
		m.alt[i] = -2;
		m.dirty[i] = 0;
	}
	CHECK_EQ(call(&f, SS_OP_SSC_INFO, 0, 0, NULL, 0, sizeof(struct ss_wire_ssc_info), &r), 0);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, block_size), 4), BS);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, share_permille), 4), 250);
	CHECK(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, capacity_blocks), 8) > 0);
	/* a host of the first version asks for its 112 bytes and gets exactly those */
	CHECK_EQ(call(&f, SS_OP_SSC_INFO, 0, 0, NULL, 0, SS_WIRE_SSC_INFO_V1_SIZE, &r), 0);
	CHECK_EQ(r.payload_len, SS_WIRE_SSC_INFO_V1_SIZE);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, block_size), 4), BS);
	check_model(&f, &m, "empty");

	CHECK_EQ(write_blocks(&f, 1, BASE, 20, 1), 0);
	model_write(&m, 1, 0, 20, 1);
	CHECK_EQ(write_blocks(&f, 0, BASE + 20, 20, 2), 0);
	model_write(&m, 0, 20, 20, 2);
	/* write-clean over dirty data leaves it (the only copy until written back), over
	 * clean data replaces it: never the older version after a crash */
	CHECK_EQ(write_blocks(&f, 0, BASE + 5, 3, 3), 0);
	CHECK_EQ(write_blocks(&f, 0, BASE + 21, 3, 3), 0);
	model_write(&m, 0, 21, 3, 3);
	CHECK_EQ(write_blocks(&f, 1, BASE + 25, 2, 4), 0);
	model_write(&m, 1, 25, 2, 4);
	CHECK_EQ(call(&f, SS_OP_SSC_EVICT, BASE + 10, 4, NULL, 0, 0, &r), 0);
	CHECK_EQ(r.v[0], 4);
	for (int i = 10; i < 14; i++) {
		m.must[i] = MISS;
		m.alt[i] = -2;
		m.dirty[i] = 0;
	}
	CHECK_EQ(call(&f, SS_OP_SSC_CLEAN, BASE + 14, 3, NULL, 0, 0, &r), 0);
	for (int i = 14; i < 17; i++) {
		m.alt[i] = MISS;
		m.dirty[i] = 0;
	}
	check_model(&f, &m, "live");

	/* power loss: acknowledged dirty data and evictions hold; clean may be gone; a
	 * cleaned block may be dirty again */
	fx_crash(&f);
	fx_open_session(&f);
	for (int i = 14; i < 17; i++) {
		m.dirty[i] = -1;
	}
	check_model(&f, &m, "after a power loss");
	fx_remount(&f);
	fx_open_session(&f);
	check_model(&f, &m, "after a clean remount");
	fx_destroy(&f);
}

static void test_refusals(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	struct ss_ata_result res;
	struct fx_reply r;
	struct fx f;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	/* the data must be exactly length blocks */
	CHECK_EQ(call(&f, SS_OP_SSC_WRITE_DIRTY, 0, 2, data, BS, 0, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_LENGTH);
	/* refused at SEND: empty or wrapping ranges, a read that cannot fit its reply */
	struct fx_pkt bad[] = {
		{ .opcode = SS_OP_SSC_EVICT, .oid = 0, .length = 0 },
		{ .opcode = SS_OP_SSC_EVICT, .oid = UINT64_MAX, .length = 1 },
		{ .opcode = SS_OP_SSC_CLEAN, .oid = UINT64_MAX - 4, .length = 5 },
		{ .opcode = SS_OP_SSC_EXISTS, .oid = 0, .length = SS_SSC_RANGE_MAX + 1,
		  .reply_max = 1 << 20 },
		{ .opcode = SS_OP_SSC_EXISTS, .oid = 0, .length = 64, .reply_max = 7 },
		{ .opcode = SS_OP_SSC_READ, .oid = 0, .length = 4, .reply_max = 4 * 512 },
		{ .opcode = SS_OP_SSC_INFO, .reply_max = SS_WIRE_SSC_INFO_V1_SIZE - 1 },
	};
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(bad); i++) {
		bad[i].tag = fx_tag(&f);
		fx_send(&f, &bad[i], &res);
		CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	}
	struct fx_pkt nodata = { .opcode = SS_OP_SSC_WRITE_CLEAN, .oid = 0, .length = 1,
				 .tag = fx_tag(&f) };
	fx_send(&f, &nodata, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	/* a read whose reply_max is enough for 512-byte blocks but not for the drive's */
	CHECK_EQ(call(&f, SS_OP_SSC_READ, 0, 4, NULL, 0, 8 + 4 * 512, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_FIELD);
	fx_destroy(&f);
}

/* Share 0 (and so a drive formatted before the cache existed: the same flash, no label) */
static void test_no_cache(void)
{
	struct fx_reply r;
	struct fx f;

	fx_create(&f, 0);
	fx_open_session(&f);
	CHECK_EQ(call(&f, SS_OP_SSC_INFO, 0, 0, NULL, 0, sizeof(struct ss_wire_ssc_info), &r), 0);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, block_size), 4), 0);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, share_permille), 4), 0);
	CHECK_EQ(write_blocks(&f, 1, 0, 1, 1), -SS_ENOSYS);
	CHECK_EQ(call(&f, SS_OP_SSC_EXISTS, 0, 8, NULL, 0, 1, &r), -SS_ENOSYS);
	CHECK_EQ(r.reason, SS_R_OK);
	/* objects work as before, and stay without a cache across a remount */
	CHECK_EQ(fx_create_path(&f, "/kept", 1, 0, NULL), 0);
	fx_remount(&f);
	fx_open_session(&f);
	CHECK_EQ(call(&f, SS_OP_SSC_READ, 0, 1, NULL, 0, 8 + BS, &r), -SS_ENOSYS);
	CHECK_EQ(fx_create_path(&f, "/kept", 1, SS_CREATE_EXCL, NULL), -SS_EEXIST);
	fx_destroy(&f);
}

/* Full of dirty data: a write fails with ENOSPC / DRIVE_FULL and nothing is dropped. */
static void test_full(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	struct fx_reply r;
	uint64_t acked = 0;
	int32_t st = 0;
	struct fx f;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	while (st == 0 && acked < 100000) {
		st = write_blocks(&f, 1, acked, 8, 7);
		if (st == 0) {
			acked += 8;
		}
	}
	CHECK_EQ(st, -SS_ENOSPC);
	CHECK(acked > 0);
	struct fx_pkt p = { .opcode = SS_OP_SSC_WRITE_DIRTY, .oid = acked + 1000, .length = 1,
			    .payload = data, .payload_len = BS };
	CHECK_EQ(fx_call(&f, &p, &r), -SS_ENOSPC);
	CHECK_EQ(r.reason, SS_R_DRIVE_FULL);
	for (uint64_t b = 0; b < acked; b += 64) {
		uint32_t n = acked - b < 64 ? (uint32_t)(acked - b) : 64;

		CHECK_EQ(call(&f, SS_OP_SSC_EXISTS, b, n, NULL, 0, 8, &r), 0);
		CHECK_EQ(r.v[0], n);
	}
	for (uint64_t b = 0; b < acked; b += 37) {
		static uint8_t want[BS];

		CHECK_EQ(call(&f, SS_OP_SSC_READ, b, 1, NULL, 0, 8 + BS, &r), 0);
		fill(want, b, 7);
		CHECK(r.v[0] == 1 && memcmp(r.payload + 8, want, BS) == 0);
	}
	/* cleaning makes room again */
	CHECK_EQ(call(&f, SS_OP_SSC_CLEAN, 0, acked, NULL, 0, 0, &r), 0);
	CHECK_EQ(write_blocks(&f, 1, acked + 1000, 1, 8), 0);
	fx_destroy(&f);
}

/* SSC_READ with TRIM: the payload stops after the last present block, so a window that
 * misses moves the bitmap alone; without the flag every block is sent. */
static void test_read_trim(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	static uint8_t want[BS];
	uint32_t map = (uint32_t)SS_SSC_BITMAP_BYTES(16);
	struct fx_reply r;
	struct fx f;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	CHECK_EQ(write_blocks(&f, 0, BASE + 2, 1, 3), 0);
	CHECK_EQ(write_blocks(&f, 0, BASE + 5, 1, 4), 0);
	for (int trim = 0; trim < 2; trim++) {
		struct fx_pkt p = { .opcode = SS_OP_SSC_READ, .oid = BASE, .length = 16,
				    .flags = trim ? SS_SSC_READ_TRIM : 0,
				    .reply_max = map + 16 * BS };

		CHECK_EQ(fx_call(&f, &p, &r), 0);
		CHECK_EQ(r.v[0], 2);
		CHECK_EQ(r.payload_len, map + (trim ? 6 : 16) * BS);
		CHECK_EQ(r.payload[0], 0x24);
		fill(want, BASE + 5, 4);
		CHECK(r.payload_len >= map + 6 * BS && memcmp(r.payload + map + 5 * BS, want, BS) == 0);
		p.oid = BASE + 100;   /* nothing cached there */
		CHECK_EQ(fx_call(&f, &p, &r), 0);
		CHECK_EQ(r.v[0], 0);
		CHECK_EQ(r.payload_len, map + (trim ? 0 : 16) * BS);
	}
	fx_destroy(&f);
}

/* Factory-bad cache blocks in the emulator's failed-block table (independent of the
 * cache), and the emulator's count of refused erases and programs. */
static uint32_t bad_in_part(struct fx *f)
{
	uint32_t n = 0, first = f->fw->ssc_view.block_offset;

	for (uint32_t b = 0; b < ss_geo_blocks(&f->fw->ssc_view.hal.geo); b++) {
		struct ss_emu_block_info bi;

		CHECK_EQ(ss_emu_flash_block_info(f->flash, first + b, &bi), 0);
		n += bi.factory_bad != 0;
	}
	return n;
}

static uint64_t refused(struct fx *f)
{
	struct ss_emu_counters c;

	ss_emu_flash_get_counters(f->flash, &c);
	return c.erase_failures + c.program_failures;
}

static uint32_t cache_bad_blocks(struct fx *f)
{
	struct ss_ssc_stats st;

	ss_ssc_get_stats(f->fw->ssc, &st);
	return st.bad_blocks;
}

/*
 * The jasmine-openssd profile has factory-bad blocks (1 %). Its own geometry with the
 * default cache share puts five of them in the cache's part: format used to fail with
 * -EIO there. The bad blocks are left out (and stay out across a remount), everything
 * else works.
 */
static void test_factory_bad_jasmine(void)
{
	struct fx_opts o = { .profile = "jasmine-openssd",
			     .cache_share_permille = SS_FW_CACHE_SHARE_DEFAULT };
	struct fx_reply r;
	struct fx f;
	uint32_t bad;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	bad = bad_in_part(&f);
	CHECK(bad > 0);
	CHECK_EQ(cache_bad_blocks(&f), bad);
	CHECK_EQ(call(&f, SS_OP_SSC_INFO, 0, 0, NULL, 0, sizeof(struct ss_wire_ssc_info), &r), 0);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, share_permille), 4),
		 SS_SSC_SHARE_DEFAULT_PERMILLE);
	CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, bad_blocks), 4), bad);
	fx_remount(&f);
	fx_open_session(&f);
	CHECK_EQ(cache_bad_blocks(&f), bad);
	fx_destroy(&f);
}

/*
 * Small flashes on the same profile, 8 KiB pages, each filled with dirty data until the
 * cache refuses (every block acknowledged reads back, also after a power loss, and no
 * erase or program is refused after format: the bad blocks were never touched again):
 * a factory-bad block among the cache blocks; the part's first block bad (checkpoints
 * have no fixed place: it is left out of the pool like any other); a factory-bad first
 * label block (the label goes to the next good one).
 */
static void test_factory_bad_small(void)
{
	static const struct {
		uint32_t channels, bpd;
		uint32_t part_bad, cache_bad;
		int label_bad;
	} table[] = {
		{ 32, 12, 1, 1, 0 },   /* the cache part's block 48 is factory bad */
		{ 8, 56, 2, 2, 0 },    /* its blocks 0 and 24 are */
		{ 4, 44, 0, 0, 1 },    /* the label row's first block is */
	};

	for (size_t t = 0; t < SS_ARRAY_SIZE(table); t++) {
		struct fx_opts o = { .profile = "jasmine-openssd",
				     .geo = { table[t].channels, 1, table[t].bpd, 32, BS, 256, 70 },
				     .cache_share_permille = 250 };
		struct ss_emu_block_info bi;
		struct fx_reply r;
		uint64_t acked = 0, refused_after_format;
		int32_t st = 0;
		struct fx f;

		fx_create_with(&f, &o);
		fx_open_session(&f);
		CHECK_EQ(bad_in_part(&f), table[t].part_bad);
		CHECK_EQ(cache_bad_blocks(&f), table[t].cache_bad);
		CHECK_EQ(ss_emu_flash_block_info(f.flash, (table[t].bpd - 1) * table[t].channels,
						 &bi), 0);
		CHECK_EQ(bi.factory_bad != 0, table[t].label_bad);
		refused_after_format = refused(&f);
		while (st == 0 && acked < 100000) {
			st = write_blocks(&f, 1, acked, 8, 9);
			if (st == 0) {
				acked += 8;
			}
		}
		CHECK_EQ(st, -SS_ENOSPC);
		CHECK_EQ(refused(&f), refused_after_format);
		fx_crash(&f);
		fx_open_session(&f);
		CHECK_EQ(call(&f, SS_OP_SSC_INFO, 0, 0, NULL, 0, sizeof(struct ss_wire_ssc_info),
			      &r), 0);
		CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, share_permille), 4),
			 250);
		CHECK_EQ(fx_get(r.payload + offsetof(struct ss_wire_ssc_info, dirty_blocks), 8),
			 acked);
		for (uint64_t b = 0; b < acked; b += 13) {
			static uint8_t want[BS];

			CHECK_EQ(call(&f, SS_OP_SSC_READ, b, 1, NULL, 0, 8 + BS, &r), 0);
			fill(want, b, 9);
			CHECK(r.v[0] == 1 && memcmp(r.payload + 8, want, BS) == 0);
		}
		CHECK_EQ(cache_bad_blocks(&f), table[t].cache_bad);
		fx_remount(&f);
		fx_open_session(&f);
		CHECK_EQ(call(&f, SS_OP_SSC_EXISTS, 0, acked, NULL, 0, (uint32_t)(acked + 7) / 8,
			      &r), 0);
		CHECK_EQ(r.v[0], acked);
		fx_destroy(&f);
	}
}

int main(void)
{
	test_ops();
	test_refusals();
	test_no_cache();
	test_full();
	test_read_trim();
	test_factory_bad_jasmine();
	test_factory_bad_small();
	return fx_failures ? 1 : 0;
}
