/* The six operations and their guarantees (Saxena ch. 4, §4.2.5, §4.3.2, Table 4.1),
 * table-driven: each row runs operations on one block, checks what a read and exists()
 * say at once, after a clean remount, and after a crash right after the last operation
 * (the image closed without unmount: what was never programmed is lost). */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ssc_test.h"

#define MISS (-2)  /* read says not present */
#define ANY_OF(a, b) { a, b }

enum op { W_DIRTY = 1, W_CLEAN, EVICT, CLEAN, FLUSH };

struct row {
	const char *name;
	enum op ops[6];          /* 0-terminated; writes carry versions 1, 2, ... in order */
	long long now;           /* read right after: a version or MISS */
	int dirty;               /* exists() bit right after */
	long long crash[2];      /* what a read may return after the crash */
	int crash_dirty;         /* exists() after the crash: 0, 1, or -1 for either */
};

static const struct row rows[] = {
	{ "write-dirty is durable", { W_DIRTY }, 1, 1, ANY_OF(1, 1), 1 },
	{ "write-clean of an absent block may be lost", { W_CLEAN }, 1, 0, ANY_OF(1, MISS), 0 },
	{ "write-clean never replaces dirty data", { W_DIRTY, W_CLEAN }, 1, 1,
	  ANY_OF(1, 1), 1 },
	{ "write-clean over cleaned data never exposes it", { W_DIRTY, CLEAN, W_CLEAN }, 2, 0,
	  ANY_OF(2, 2), 0 },
	{ "write-clean over clean data never exposes it", { W_CLEAN, FLUSH, W_CLEAN }, 2, 0,
	  ANY_OF(2, 2), 0 },
	{ "write-dirty over write-clean", { W_CLEAN, W_DIRTY }, 2, 1, ANY_OF(2, 2), 1 },
	{ "evict is durable", { W_DIRTY, EVICT }, MISS, 0, ANY_OF(MISS, MISS), 0 },
	{ "evict of a flushed clean block", { W_CLEAN, FLUSH, EVICT }, MISS, 0,
	  ANY_OF(MISS, MISS), 0 },
	{ "evict of an absent block", { EVICT }, MISS, 0, ANY_OF(MISS, MISS), 0 },
	{ "clean may revert to dirty", { W_DIRTY, CLEAN }, 1, 0, ANY_OF(1, MISS), -1 },
	{ "clean, flushed", { W_DIRTY, CLEAN, FLUSH }, 1, 0, ANY_OF(1, MISS), 0 },
	{ "rewrite dirty", { W_DIRTY, W_DIRTY }, 2, 1, ANY_OF(2, 2), 1 },
	{ "dirty, clean, evict", { W_CLEAN, W_DIRTY, CLEAN, EVICT }, MISS, 0,
	  ANY_OF(MISS, MISS), 0 },
	{ "evict then write-clean", { W_DIRTY, EVICT, W_CLEAN }, 2, 0, ANY_OF(2, MISS), 0 },
};

static long long read_version(struct ss_ssc *c, uint64_t lba)
{
	static uint8_t buf[ST_PAGE];
	int rc = ss_ssc_read(c, lba, buf);

	if (rc == SS_SSC_MISS) {
		return MISS;
	}
	return rc == 0 ? st_classify(buf, lba) : -1000 + rc;
}

static int dirty_bit(struct ss_ssc *c, uint64_t lba)
{
	uint8_t bm = 0xFF;

	return ss_ssc_exists(c, lba, 1, &bm) == 0 ? bm & 1 : -1;
}

static void run_row(const struct row *r, enum ss_ssc_policy pol, uint64_t lba)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc *c = NULL;
	uint64_t version = 0;
	struct fte e;
	long long got;
	int before = fte_failures;

	ss_ssc_default_params(&p, pol);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (int i = 0; i < 6 && r->ops[i]; i++) {
		switch (r->ops[i]) {
		case W_DIRTY:
		case W_CLEAN:
			st_fill(buf, lba, ++version);
			CHECK_EQ(r->ops[i] == W_DIRTY ? ss_ssc_write_dirty(c, lba, buf)
						      : ss_ssc_write_clean(c, lba, buf), 0);
			break;
		case EVICT:
			CHECK_EQ(ss_ssc_evict(c, lba), 0);
			break;
		case CLEAN:
			CHECK_EQ(ss_ssc_clean(c, lba), 0);
			break;
		case FLUSH:
			CHECK_EQ(ss_ssc_flush(c), 0);
			break;
		}
	}
	CHECK_EQ(read_version(c, lba), r->now);
	CHECK_EQ(dirty_bit(c, lba), r->dirty);
	/* a crash now: nothing more reaches the flash */
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	got = read_version(c, lba);
	CHECK(got == r->crash[0] || got == r->crash[1]);
	if (r->crash_dirty >= 0) {
		CHECK_EQ(dirty_bit(c, lba), got == MISS ? 0 : r->crash_dirty);
	}
	/* a clean unmount keeps exactly what the mount found */
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	CHECK_EQ(read_version(c, lba), got);
	fte_destroy(&e);
	if (fte_failures != before) {
		fprintf(stderr, "  in row \"%s\", policy %d, lba %llx (after crash: %lld)\n", r->name,
			(int)pol, (unsigned long long)lba, got);
	}
}

static void test_guarantees(void)
{
	static const uint64_t lbas[] = { 0, 17, 0xFFFFFFFFFFFFFFFEull, 1ull << 40 };

	for (size_t i = 0; i < SS_ARRAY_SIZE(rows); i++) {
		for (int pol = 0; pol < 2; pol++) {
			run_row(&rows[i], (enum ss_ssc_policy)pol, lbas[(i + pol) % SS_ARRAY_SIZE(lbas)]);
		}
	}
}

static void test_unformatted_and_params(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p, bad;
	struct ss_ssc *c = NULL;
	struct fte e;

	fte_create(&e, &g, 0);
	CHECK_EQ(st_mount(&e, &c), -SS_ENODATA);
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	CHECK_EQ(p.log_permille, 70);
	CHECK(ss_ssc_dram_needed(&g, &p) > 0);
	CHECK_EQ(ss_ssc_format(&c, e.hal, e.hal->dram, ss_ssc_dram_needed(&g, &p) - 1, &p),
		 -SS_ENOMEM);
	bad = p;
	bad.log_permille = 201;
	CHECK_EQ(st_format(&e, &c, &bad), -SS_EINVAL);
	bad.log_permille = 0;
	CHECK_EQ(st_format(&e, &c, &bad), -SS_EINVAL);
	bad = p;
	bad.policy = (enum ss_ssc_policy)7;
	CHECK_EQ(st_format(&e, &c, &bad), -SS_EINVAL);
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC_V);
	CHECK_EQ(p.log_permille, 200);
	CHECK(ss_ssc_dram_needed(&g, &p) > 0);
	/* SSC-V reserves page-level map memory for 20 % of the blocks, SSC for 7 % */
	{
		struct ss_ssc_params s;

		ss_ssc_default_params(&s, SS_SSC_POLICY_SSC);
		CHECK(ss_ssc_dram_needed(&g, &p) > ss_ssc_dram_needed(&g, &s));
	}
	CHECK_EQ(st_format(&e, &c, &p), 0);
	{
		struct ss_ssc_params got;
		static uint8_t buf[ST_PAGE];
		uint8_t bm[2];

		CHECK_EQ(ss_ssc_unmount(c), 0);
		fte_close(&e);
		fte_reopen(&e);
		CHECK_EQ(st_mount(&e, &c), 0);
		ss_ssc_get_params(c, &got);
		CHECK_EQ(got.policy, SS_SSC_POLICY_SSC_V);
		CHECK_EQ(got.log_permille, 200);
		CHECK_EQ(ss_ssc_block_size(c), ST_PAGE);
		CHECK_EQ(ss_ssc_write_dirty(c, UINT64_MAX, buf), -SS_EINVAL);
		CHECK_EQ(ss_ssc_read(c, UINT64_MAX, buf), -SS_EINVAL);
		CHECK_EQ(ss_ssc_evict(c, UINT64_MAX), -SS_EINVAL);
		CHECK_EQ(ss_ssc_exists(c, 0, 0, bm), -SS_EINVAL);
		CHECK_EQ(ss_ssc_exists(c, UINT64_MAX - 3, 4, bm), -SS_EINVAL);
		CHECK_EQ(ss_ssc_exists(c, UINT64_MAX - 4, 4, bm), 0);
		CHECK_EQ(ss_ssc_exists(c, 0, SS_SSC_EXISTS_MAX + 1, bm), -SS_EINVAL);
	}
	fte_destroy(&e);
}

/* exists() over a range spanning groups against a model; hit and miss counters. */
static void test_exists_and_counters(void)
{
	static uint8_t buf[ST_PAGE], bm[64];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint8_t model[400] = { 0 };
	const uint64_t base = 0x123456789000ull;
	uint64_t rnd = 5;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint32_t i = 0; i < 300; i++) {
		uint32_t k = (uint32_t)(fte_rand(&rnd) % 400);
		uint32_t op = (uint32_t)(fte_rand(&rnd) % 4);

		st_fill(buf, base + k, i + 1);
		if (op == 0) {
			CHECK_EQ(ss_ssc_write_dirty(c, base + k, buf), 0);
			model[k] = 1;
		} else if (op == 1) {
			CHECK_EQ(ss_ssc_write_clean(c, base + k, buf), 0);
			/* a dirty block stays dirty */
		} else if (op == 2) {
			CHECK_EQ(ss_ssc_clean(c, base + k), 0);
			model[k] = 0;
		} else {
			CHECK_EQ(ss_ssc_evict(c, base + k), 0);
			model[k] = 0;
		}
	}
	memset(bm, 0xA5, sizeof(bm));
	CHECK_EQ(ss_ssc_exists(c, base, 400, bm), 0);
	for (uint32_t k = 0; k < 400; k++) {
		CHECK_EQ((bm[k / 8] >> (k % 8)) & 1, model[k]);
	}
	CHECK_EQ(bm[50], 0xA5);  /* ceil(400 / 8) bytes written, no more */
	ss_ssc_get_stats(c, &st);
	{
		uint32_t dirty = 0;

		for (uint32_t k = 0; k < 400; k++) {
			dirty += model[k];
		}
		CHECK_EQ(st.dirty_pages, dirty);
	}
	CHECK_EQ(ss_ssc_read(c, 7, buf), SS_SSC_MISS);
	CHECK_EQ(ss_ssc_evict(c, base + 1), 0);
	CHECK_EQ(ss_ssc_read(c, base + 1, buf), SS_SSC_MISS);
	st_fill(buf, base + 1, 999);
	CHECK_EQ(ss_ssc_write_dirty(c, base + 1, buf), 0);
	CHECK_EQ(ss_ssc_read(c, base + 1, buf), 0);
	CHECK_EQ(st_classify(buf, base + 1), 999);
	{
		struct ss_ssc_stats st2;

		ss_ssc_get_stats(c, &st2);
		CHECK_EQ(st2.read_misses, st.read_misses + 2);
		CHECK_EQ(st2.read_hits, st.read_hits + 1);
		CHECK_EQ(st2.host_page_writes, st.host_page_writes + 1);
		CHECK(st2.nand_page_writes > st2.host_page_writes);
		CHECK(ss_ssc_write_amplification_milli(c) > 1000);
	}
	fte_destroy(&e);
}

/* Many operations, then a crash after a flush: the mount replays the log (records
 * counted) and every block reads as the model says. */
static void test_replay(void)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	static uint64_t ver[300];
	uint64_t rnd = 11;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC_V);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint32_t i = 0; i < 60; i++) {
		uint32_t k = (uint32_t)(fte_rand(&rnd) % 300);

		st_fill(buf, 5000 + k, i + 1);
		CHECK_EQ(ss_ssc_write_dirty(c, 5000 + k, buf), 0);
		ver[k] = i + 1;
	}
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	ss_ssc_get_stats(c, &st);
	CHECK(st.replayed_records > 0);
	for (uint32_t k = 0; k < 300; k++) {
		long long v = read_version(c, 5000 + k);

		CHECK_EQ(v, ver[k] ? (long long)ver[k] : MISS);
	}
	fte_destroy(&e);
}

/* Group commit: buffered operations reach the log once group_commit_records are pending
 * (or at the next synchronous operation), not before. */
static void test_group_commit(void)
{
	static const struct {
		uint32_t group, writes;
		int then_evict;        /* a synchronous operation on another block follows */
		uint32_t survive;      /* write-cleans present after the crash */
	} table[] = {
		{ 4, 3, 0, 0 },
		{ 4, 4, 0, 4 },
		{ 4, 7, 0, 4 },
		{ 4, 3, 1, 3 },
		{ 1, 5, 0, 5 },
	};

	for (size_t t = 0; t < SS_ARRAY_SIZE(table); t++) {
		static uint8_t buf[ST_PAGE];
		struct ss_geometry g = fte_geo(16, 16);
		struct ss_ssc_params p;
		struct ss_ssc *c = NULL;
		uint32_t n = 0;
		struct fte e;

		ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
		p.group_commit_records = table[t].group;
		fte_create(&e, &g, 0);
		CHECK_EQ(st_format(&e, &c, &p), 0);
		for (uint32_t k = 0; k < table[t].writes; k++) {
			st_fill(buf, 100 + k, 1);
			CHECK_EQ(ss_ssc_write_clean(c, 100 + k, buf), 0);
		}
		if (table[t].then_evict) {
			CHECK_EQ(ss_ssc_evict(c, 99), 0);
		}
		fte_close(&e);
		fte_reopen(&e);
		CHECK_EQ(st_mount(&e, &c), 0);
		for (uint32_t k = 0; k < table[t].writes; k++) {
			n += ss_ssc_read(c, 100 + k, buf) == 0 && st_classify(buf, 100 + k) == 1;
		}
		CHECK_EQ(n, table[t].survive);
		fte_destroy(&e);
	}
}

/* The traffic counters (hits, fills, dirty writes, clean operations, cleaned and evicted
 * blocks) against a model's own count of the same workload; kept across an unmount and,
 * for the logged ones, across a crash. */
struct traffic {
	uint64_t hits, fills, dirty_writes, clean_ops, cleaned, evicted;
};

static void traffic_workload(struct ss_ssc *c, uint64_t base, uint8_t *state, uint32_t n,
			     uint64_t *rnd, uint32_t ops, struct traffic *t)
{
	static uint8_t buf[ST_PAGE];

	/* state: 0 absent, 1 clean, 2 dirty */
	for (uint32_t i = 0; i < ops; i++) {
		uint32_t k = (uint32_t)(fte_rand(rnd) % n), op = (uint32_t)(fte_rand(rnd) % 5);

		st_fill(buf, base + k, i + 1);
		if (op == 0) {
			CHECK_EQ(ss_ssc_write_dirty(c, base + k, buf), 0);
			t->dirty_writes++;
			state[k] = 2;
		} else if (op == 1) {
			CHECK_EQ(ss_ssc_write_clean(c, base + k, buf), 0);
			if (state[k] != 2) {   /* a dirty block keeps its data: no fill */
				t->fills++;
				state[k] = 1;
			}
		} else if (op == 2) {
			uint32_t len = 1 + (uint32_t)(fte_rand(rnd) % 8);

			len = SS_MIN(len, n - k);
			CHECK_EQ(ss_ssc_clean_range(c, base + k, len), 0);
			t->clean_ops++;
			for (uint32_t j = k; j < k + len; j++) {
				t->cleaned += state[j] == 2;
				state[j] = state[j] ? 1 : 0;
			}
		} else if (op == 3) {
			CHECK_EQ(ss_ssc_evict(c, base + k), 0);
			t->evicted += state[k] != 0;
			state[k] = 0;
		} else {
			int rc = ss_ssc_read(c, base + k, buf);

			CHECK_EQ(rc, state[k] ? 0 : SS_SSC_MISS);
			t->hits += rc == 0;
		}
	}
}

static void check_traffic(struct ss_ssc *c, const struct traffic *t, const char *when)
{
	struct ss_ssc_stats st;

	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.silent_evicted_pages, 0);  /* the model's presence is exact */
	if (st.hit_blocks != t->hits || st.filled_blocks != t->fills ||
	    st.dirty_written_blocks != t->dirty_writes || st.clean_ops != t->clean_ops ||
	    st.cleaned_blocks != t->cleaned || st.evicted_blocks != t->evicted) {
		fprintf(stderr, "%s: counters %llu %llu %llu %llu %llu %llu, model %llu %llu %llu "
			"%llu %llu %llu\n", when, (unsigned long long)st.hit_blocks,
			(unsigned long long)st.filled_blocks,
			(unsigned long long)st.dirty_written_blocks,
			(unsigned long long)st.clean_ops, (unsigned long long)st.cleaned_blocks,
			(unsigned long long)st.evicted_blocks, (unsigned long long)t->hits,
			(unsigned long long)t->fills, (unsigned long long)t->dirty_writes,
			(unsigned long long)t->clean_ops, (unsigned long long)t->cleaned,
			(unsigned long long)t->evicted);
		CHECK(0);
	}
}

static void test_traffic_counters(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	static uint8_t state[300];
	const uint64_t base = 0x7000000000ull;
	struct traffic t = { 0 }, at_mount;
	uint64_t rnd = 11;
	struct fte e;

	memset(state, 0, sizeof(state));
	/* SSC: SSC-V drops clean log pages when it recycles, which a model cannot foresee */
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	check_traffic(c, &t, "after format");
	traffic_workload(c, base, state, 300, &rnd, 2000, &t);
	CHECK(t.hits > 0 && t.fills > 0 && t.dirty_writes > 0 && t.cleaned > 0 && t.evicted > 0);
	check_traffic(c, &t, "live");
	ss_ssc_get_stats(c, &st);
	CHECK(st.checkpoints > 1);  /* the counters went through checkpoints on the way */
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	check_traffic(c, &t, "after an unmount and a mount");
	/* a crash after a flush: the logged counters come back by replay; hits and clean
	 * operations since the mount's checkpoint are lost */
	at_mount = t;
	traffic_workload(c, base, state, 300, &rnd, 20, &t);
	CHECK_EQ(ss_ssc_flush(c), 0);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.checkpoints, 1);  /* the mount's own, no later one */
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	t.hits = at_mount.hits;
	t.clean_ops = at_mount.clean_ops;
	check_traffic(c, &t, "after a crash");
	fte_destroy(&e);
}

int main(void)
{
	RUN(test_unformatted_and_params);
	RUN(test_guarantees);
	RUN(test_exists_and_counters);
	RUN(test_replay);
	RUN(test_group_commit);
	RUN(test_traffic_counters);
	return fte_failures ? 1 : 0;
}
