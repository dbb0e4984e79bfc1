/* Free-space management (Saxena ch. 4, §4.3.3): silent eviction drops clean blocks and
 * never dirty ones; a cache full of dirty data refuses writes without dropping anything;
 * switch merges for sequential groups; the fixed (SSC) and variable (SSC-V) log share. */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ssc_test.h"

#define SPACE 5000u
#define BASE 0x0000A11CE0000000ull

struct model {
	uint64_t ver[SPACE];   /* newest version written, 0: never or evicted */
	uint8_t dirty[SPACE];
};

static void verify(struct ss_ssc *c, const struct model *m, const char *when)
{
	static uint8_t buf[ST_PAGE], bm[SPACE / 8 + 1];
	uint32_t bad = 0;

	CHECK_EQ(ss_ssc_exists(c, BASE, SPACE, bm), 0);
	for (uint32_t k = 0; k < SPACE; k++) {
		int rc = ss_ssc_read(c, BASE + k, buf);
		long long v = rc == 0 ? st_classify(buf, BASE + k) : rc == SS_SSC_MISS ? 0 : -1;
		int bit = (bm[k / 8] >> (k % 8)) & 1;

		if (m->dirty[k] ? (v != (long long)m->ver[k] || !bit)
				: ((v != 0 && v != (long long)m->ver[k]) || bit)) {
			if (bad++ < 5) {
				fprintf(stderr, "%s: block %u reads %lld (rc %d), exists %d; model v%llu "
					"%s\n", when, k, v, rc, bit, (unsigned long long)m->ver[k],
					m->dirty[k] ? "dirty" : "clean");
			}
		}
	}
	CHECK_EQ(bad, 0);
}

struct run_result {
	uint32_t max_log, min_log_after_fill;
	struct ss_ssc_stats st;
	uint32_t wa_milli;
};

/* Mostly write-clean traffic over SPACE blocks with a dirty minority, skewed to a hot
 * fifth; the cache holds well under half of SPACE. */
static void mixed_run(enum ss_ssc_policy pol, struct run_result *out)
{
	static uint8_t buf[ST_PAGE];
	static struct model m;
	struct ss_geometry g = fte_geo(32, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint64_t rnd = 99, version = 0;
	uint32_t log_cap;
	struct fte e;

	memset(&m, 0, sizeof(m));
	memset(out, 0, sizeof(*out));
	ss_ssc_default_params(&p, pol);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	ss_ssc_get_stats(c, &st);
	log_cap = SS_DIV_ROUND_UP(st.cache_blocks * p.log_permille, 1000);
	for (uint32_t i = 0; i < 30000; i++) {
		uint32_t r = (uint32_t)(fte_rand(&rnd) % 100);
		uint32_t k = (uint32_t)(fte_rand(&rnd) % (r < 80 ? SPACE / 5 : SPACE));
		int rc;

		if (r % 10 == 0 && (k % 16) < 2) {
			st_fill(buf, BASE + k, ++version);
			rc = ss_ssc_write_dirty(c, BASE + k, buf);
			CHECK_EQ(rc, 0);
			if (rc == 0) {
				m.ver[k] = version;
				m.dirty[k] = 1;
			}
		} else if (r % 10 == 1) {
			CHECK_EQ(ss_ssc_evict(c, BASE + k), 0);
			m.ver[k] = 0;
			m.dirty[k] = 0;
		} else if (r % 10 == 2 && m.dirty[k] && (fte_rand(&rnd) % 4) == 0) {
			CHECK_EQ(ss_ssc_clean(c, BASE + k), 0);
			m.dirty[k] = 0;
		} else {
			st_fill(buf, BASE + k, ++version);
			rc = ss_ssc_write_clean(c, BASE + k, buf);
			CHECK_EQ(rc, 0);
			if (rc == 0 && !m.dirty[k]) {   /* a dirty block keeps its data */
				m.ver[k] = version;
			}
		}
		ss_ssc_get_stats(c, &st);
		out->max_log = SS_MAX(out->max_log, st.log_blocks);
		CHECK(st.log_blocks <= log_cap);
		if (i % 7500 == 7499) {
			verify(c, &m, "during the run");
		}
	}
	ss_ssc_get_stats(c, &out->st);
	out->wa_milli = ss_ssc_write_amplification_milli(c);
	CHECK(out->st.silent_evicted_pages > 0);
	CHECK(out->st.full_merges > 0);
	/* a crash: every dirty block comes back; clean ones may not */
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	verify(c, &m, "after a crash");
	fte_destroy(&e);
	printf("policy %s: %llu host writes, WA %u.%03u, %llu erases, %llu silently evicted pages "
	       "(%llu blocks), %llu full / %llu switch merges, %llu copies, log blocks "
	       "max %u of cap %u, hits %llu misses %llu\n",
	       pol == SS_SSC_POLICY_SSC ? "SSC" : "SSC-V",
	       (unsigned long long)out->st.host_page_writes, out->wa_milli / 1000,
	       out->wa_milli % 1000, (unsigned long long)out->st.block_erases,
	       (unsigned long long)out->st.silent_evicted_pages,
	       (unsigned long long)out->st.silent_evicted_blocks,
	       (unsigned long long)out->st.full_merges, (unsigned long long)out->st.switch_merges,
	       (unsigned long long)out->st.merge_page_copies, out->max_log, log_cap,
	       (unsigned long long)out->st.read_hits, (unsigned long long)out->st.read_misses);
}

static void test_silent_eviction_keeps_dirty(void)
{
	struct run_result ssc, sscv;

	mixed_run(SS_SSC_POLICY_SSC, &ssc);
	mixed_run(SS_SSC_POLICY_SSC_V, &sscv);
	/* SSC's log never outgrows 7 %; SSC-V's grows past it when eviction supplies blocks */
	CHECK(sscv.max_log > ssc.max_log);
}

/* Fill with dirty data until the cache refuses: nothing acknowledged is lost, the refused
 * write changed nothing; cleaning makes room again. */
static void full_of_dirty(enum ss_ssc_policy pol)
{
	static uint8_t buf[ST_PAGE];
	static struct model m;
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint32_t n = 0;
	struct fte e;
	int rc = 0;

	memset(&m, 0, sizeof(m));
	ss_ssc_default_params(&p, pol);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	while (n < SPACE) {
		st_fill(buf, BASE + n, n + 1);
		rc = ss_ssc_write_dirty(c, BASE + n, buf);
		if (rc != 0) {
			break;
		}
		m.ver[n] = n + 1;
		m.dirty[n] = 1;
		n++;
	}
	CHECK_EQ(rc, -SS_ENOSPC);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.dirty_pages, n);
	CHECK_EQ(st.silent_evicted_pages, 0);
	CHECK(n > st.cache_blocks * 16 / 2);  /* sequential groups fill data blocks */
	verify(c, &m, "full of dirty data");
	/* rewriting a cached dirty block is refused too, and keeps the old data */
	st_fill(buf, BASE, 777777);
	rc = ss_ssc_write_dirty(c, BASE, buf);
	if (rc != 0) {
		CHECK_EQ(rc, -SS_ENOSPC);
	} else {
		m.ver[0] = 777777;
	}
	verify(c, &m, "after a refused write");
	/* the host writes half back and cleans it: the cache takes new writes again */
	for (uint32_t k = 0; k < n / 2; k++) {
		CHECK_EQ(ss_ssc_clean(c, BASE + k), 0);
		m.dirty[k] = 0;
	}
	for (uint32_t k = n; k < n + 64 && k < SPACE; k++) {
		st_fill(buf, BASE + k, k + 1);
		CHECK_EQ(ss_ssc_write_dirty(c, BASE + k, buf), 0);
		m.ver[k] = k + 1;
		m.dirty[k] = 1;
	}
	ss_ssc_get_stats(c, &st);
	CHECK(st.silent_evicted_pages > 0);
	/* silently evicted blocks are gone from the model's point of view only if clean */
	verify(c, &m, "after cleaning");
	printf("policy %d: %u dirty blocks fit %u cache blocks of 16 pages; %llu silently evicted "
	       "after cleaning\n", (int)pol, n, st.cache_blocks,
	       (unsigned long long)st.silent_evicted_pages);
	fte_destroy(&e);
}

static void test_full_of_dirty(void)
{
	full_of_dirty(SS_SSC_POLICY_SSC);
	full_of_dirty(SS_SSC_POLICY_SSC_V);
}

/* Whole groups written in order become data blocks by switch merges, without copies. */
static void test_switch_merge(void)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint32_t k = 0; k < 16 * 40; k++) {
		st_fill(buf, BASE + k, 1);
		CHECK_EQ(ss_ssc_write_clean(c, BASE + k, buf), 0);
	}
	ss_ssc_get_stats(c, &st);
	CHECK(st.switch_merges >= 30);
	CHECK_EQ(st.full_merges, 0);
	CHECK_EQ(st.merge_page_copies, 0);
	for (uint32_t k = 0; k < 16 * 40; k++) {
		int rc = ss_ssc_read(c, BASE + k, buf);

		CHECK(rc == SS_SSC_MISS || (rc == 0 && st_classify(buf, BASE + k) == 1));
	}
	fte_destroy(&e);
}

/* Victim choice by cost/benefit (clean valid pages against age, §4.3.3): block C is the
 * oldest and full, A a little younger with half its pages, B young with a quarter. Greedy
 * (fewest valid) would take B, oldest-first C; cost/benefit takes A (8 / age_A is below
 * 16 / age_C and, with age_A above twice age_B, below 4 / age_B). */
static void write_group(struct ss_ssc *c, uint64_t g, uint64_t version)
{
	static uint8_t buf[ST_PAGE];

	for (uint32_t i = 0; i < 16; i++) {
		st_fill(buf, BASE + g * 16 + i, version);
		CHECK_EQ(ss_ssc_write_clean(c, BASE + g * 16 + i, buf), 0);
	}
}

static uint32_t present(struct ss_ssc *c, uint64_t g)
{
	static uint8_t buf[ST_PAGE];
	uint32_t n = 0;

	for (uint32_t i = 0; i < 16; i++) {
		n += ss_ssc_read(c, BASE + g * 16 + i, buf) == 0;
	}
	return n;
}

static void test_cost_benefit_victim(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	const uint64_t C = 0, A = 1, B = 40;
	uint64_t next = 2;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	write_group(c, C, 1);
	write_group(c, A, 1);
	while (next < B) {
		write_group(c, next++, 1);
	}
	for (uint32_t i = 0; i < 8; i++) {
		CHECK_EQ(ss_ssc_evict(c, BASE + A * 16 + i), 0);
	}
	write_group(c, B, 1);
	next = B + 1;
	for (uint32_t k = 0; k < 6; k++) {
		write_group(c, next++, 1);   /* B becomes a data block */
	}
	for (uint32_t i = 0; i < 12; i++) {
		CHECK_EQ(ss_ssc_evict(c, BASE + B * 16 + i), 0);
	}
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.silent_evicted_blocks, 0);
	CHECK_EQ(present(c, C), 16);
	CHECK_EQ(present(c, A), 8);
	CHECK_EQ(present(c, B), 4);
	for (uint32_t k = 0; k < 100 && st.silent_evicted_blocks == 0; k++) {
		write_group(c, next++, 1);
		ss_ssc_get_stats(c, &st);
	}
	CHECK_EQ(st.silent_evicted_blocks, 1);
	CHECK_EQ(present(c, A), 0);
	CHECK_EQ(present(c, B), 4);
	CHECK_EQ(present(c, C), 16);
	fte_destroy(&e);
}

/* The top of the 64-bit space: the last group (whose last address, UINT64_MAX, is not a
 * block) merges like any other, across a remount. */
static void test_top_of_address_space(void)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	const uint64_t top = UINT64_MAX - 1;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint64_t k = 0; k < 40; k++) {
		st_fill(buf, top - k, 3);
		CHECK_EQ(ss_ssc_write_dirty(c, top - k, buf), 0);
	}
	/* scattered writes elsewhere recycle the log blocks holding the top groups */
	for (uint64_t k = 0; k < 200; k++) {
		st_fill(buf, BASE + k * 16, 1);
		CHECK_EQ(ss_ssc_write_clean(c, BASE + k * 16, buf), 0);
	}
	ss_ssc_get_stats(c, &st);
	CHECK(st.full_merges > 0);
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	for (uint64_t k = 0; k < 40 && c != NULL; k++) {
		CHECK_EQ(ss_ssc_read(c, top - k, buf), 0);
		CHECK_EQ(st_classify(buf, top - k), 3);
	}
	fte_destroy(&e);
}

/* A read cache's cold scan and warm scans (sscache://, benchmarks/run-sscache-scan.sh):
 * files whose blocks are consecutive from a group-aligned base (CacheBlock.Addresses),
 * lengths not a multiple of a group, filled by write-clean in file order on their misses,
 * then read again. Silent eviction is free-space management (FlashTier, Saxena, Swift,
 * Zhang, EuroSys 2012, §4.3; Saxena 2013 §4.3.3): with free blocks beyond the reserve it
 * has no reason to drop a clean block. Before, SSC-V dropped the clean pages of every log
 * block it recycled that was not switchable, so a data set larger than its 20 % log kept
 * about a log's worth: a warm hit ratio of 0.25 at 80 % of the capacity. */
static void scan_run(enum ss_ssc_policy pol, uint32_t percent)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(64, 32);
	const uint32_t files = 5;
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint64_t total, hits = 0, per_file;
	struct fte e;

	ss_ssc_default_params(&p, pol);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	ss_ssc_get_stats(c, &st);
	total = (uint64_t)st.cache_blocks * g.pages_per_block * percent / 100;
	/* a file's last group is partial (not a multiple of a group) */
	per_file = total / files - 7;
	for (uint32_t pass = 0; pass < 3; pass++) {
		hits = 0;
		for (uint32_t f = 0; f < files; f++) {
			uint64_t base = BASE + ((uint64_t)(f * 7 + 3) << 24);
			uint64_t len = per_file + (f == files - 1 ? total - files * per_file : 0);

			for (uint64_t k = 0; k < len; k++) {
				int rc = ss_ssc_read(c, base + k, buf);

				if (rc == 0) {
					CHECK_EQ(st_classify(buf, base + k), 1);
					hits++;
					continue;
				}
				CHECK_EQ(rc, SS_SSC_MISS);
				st_fill(buf, base + k, 1);
				CHECK_EQ(ss_ssc_write_clean(c, base + k, buf), 0);
			}
		}
		ss_ssc_get_stats(c, &st);
		fprintf(stderr, "%s %u %%: pass %u: %llu of %llu hits, silent evictions %llu pages,"
			" %llu blocks; merges %llu full, %llu switch, %llu copies; cached %u, free %u,"
			" log %u, data %u\n", pol == SS_SSC_POLICY_SSC ? "SSC" : "SSC-V", percent,
			pass, (unsigned long long)hits, (unsigned long long)total,
			(unsigned long long)st.silent_evicted_pages,
			(unsigned long long)st.silent_evicted_blocks,
			(unsigned long long)st.full_merges, (unsigned long long)st.switch_merges,
			(unsigned long long)st.merge_page_copies, st.cached_pages, st.free_blocks,
			st.log_blocks, st.data_blocks);
	}
	/* warm: at least 99 % hits, and nothing dropped while the cache had room */
	CHECK(hits * 100 >= total * 99);
	CHECK_EQ(st.silent_evicted_pages, 0);
	CHECK_EQ(st.silent_evicted_blocks, 0);
	fte_destroy(&e);
}

/* Read-ahead (ssc_io.c) never serves an older copy: a sequential read of cached groups
 * reads the groups after it ahead, and a write-clean, write-dirty or eviction of a block
 * read ahead, or a merge moving it, is what a later read returns. Every block is checked
 * against the model; the read-ahead must have served blocks (fewer page reads than hits). */
static void test_read_ahead_never_stale(void)
{
	static uint8_t buf[ST_PAGE];
	static uint64_t ver[1024];
	static uint8_t dirty[1024];
	struct ss_geometry g = fte_geo(64, 32);
	struct ss_ssc_params p;
	struct ss_ssc_stats a, b;
	struct ss_ssc *c = NULL;
	const uint32_t n = 32 * 30;  /* 30 groups */
	uint64_t rnd = 7;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC_V);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint32_t k = 0; k < n; k++) {
		st_fill(buf, BASE + k, ver[k] = 1);
		CHECK_EQ(ss_ssc_write_clean(c, BASE + k, buf), 0);
	}
	/* an undisturbed scan: each page read once, all but the first group
	 * served from read-ahead */
	ss_ssc_get_stats(c, &a);
	for (uint32_t k = 0; k < n; k++) {
		CHECK_EQ(ss_ssc_read(c, BASE + k, buf), 0);
		CHECK_EQ(st_classify(buf, BASE + k), 1);
	}
	ss_ssc_get_stats(c, &b);
	fprintf(stderr, "scan of %u blocks: %llu page reads, %llu read ahead, %llu served from"
		" read-ahead\n", n, (unsigned long long)(b.nand_page_reads - a.nand_page_reads),
		(unsigned long long)(b.read_ahead_pages - a.read_ahead_pages),
		(unsigned long long)(b.read_ahead_hits - a.read_ahead_hits));
	CHECK_EQ(b.nand_page_reads - a.nand_page_reads, n);
	CHECK_EQ(b.read_ahead_hits - a.read_ahead_hits, n - 32);
	for (uint32_t round = 0; round < 40; round++) {
		for (uint32_t k = 0; k < n; k++) {
			int rc = ss_ssc_read(c, BASE + k, buf);
			uint32_t j = (uint32_t)(fte_rand(&rnd) % n);

			CHECK_EQ(ver[k] ? rc : rc == SS_SSC_MISS, ver[k] ? 0 : 1);
			if (rc == 0 && st_classify(buf, BASE + k) != (long long)ver[k]) {
				fprintf(stderr, "round %u: block %u reads v%lld, model v%llu\n", round,
					k, st_classify(buf, BASE + k), (unsigned long long)ver[k]);
				CHECK(0);
			}
			/* now and then, change a block ahead of the reader */
			if (fte_rand(&rnd) % 97 == 0 && j > k) {
				switch (fte_rand(&rnd) % 3) {
				case 0:
					st_fill(buf, BASE + j, ver[j] + 1 + 1000 * round);
					CHECK_EQ(ss_ssc_write_clean(c, BASE + j, buf), 0);
					if (!dirty[j]) {   /* a dirty block keeps its data */
						ver[j] += 1 + 1000 * round;
					}
					break;
				case 1:
					st_fill(buf, BASE + j, ++ver[j] + 1000 * round);
					ver[j] += 1000 * round;
					CHECK_EQ(ss_ssc_write_dirty(c, BASE + j, buf), 0);
					dirty[j] = 1;
					break;
				default:
					CHECK_EQ(ss_ssc_evict(c, BASE + j), 0);
					ver[j] = 0;
					dirty[j] = 0;
				}
			}
		}
	}
	ss_ssc_get_stats(c, &a);
	fprintf(stderr, "40 disturbed scans: %llu served from read-ahead\n",
		(unsigned long long)(a.read_ahead_hits - b.read_ahead_hits));
	fte_destroy(&e);
}

/* Successors (ssc_io.c): files at bases of their own, filled one after the other and
 * scanned in that order. Read-ahead by address stops at a file's end; it goes on at the
 * group the fills jumped to, so every block of every file but the first is served from
 * read-ahead, each page read once. A hint is never data: once a file's blocks are
 * rewritten, evicted or cached anew behind the reader, the scan returns what the model
 * holds. */
static void test_read_ahead_follows_successors(void)
{
	static uint8_t buf[ST_PAGE];
	static uint64_t ver[4][128];
	struct ss_geometry g = fte_geo(64, 32);
	struct ss_ssc_params p;
	struct ss_ssc_stats a, b;
	struct ss_ssc *c = NULL;
	const uint32_t files = 4, len = 3 * 32 + 5;   /* not ending on a group */
	const uint64_t stride = 1ull << 24;            /* sscache://'s per-file bases */
	uint64_t rnd = 11;
	struct fte e;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC_V);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	for (uint32_t f = 0; f < files; f++) {
		for (uint32_t k = 0; k < len; k++) {
			st_fill(buf, BASE + f * stride + k, ver[f][k] = 1);
			CHECK_EQ(ss_ssc_write_clean(c, BASE + f * stride + k, buf), 0);
		}
	}
	ss_ssc_get_stats(c, &a);
	for (uint32_t f = 0; f < files; f++) {
		for (uint32_t k = 0; k < len; k++) {
			CHECK_EQ(ss_ssc_read(c, BASE + f * stride + k, buf), 0);
			CHECK_EQ(st_classify(buf, BASE + f * stride + k), 1);
		}
	}
	ss_ssc_get_stats(c, &b);
	fprintf(stderr, "scan of %u files of %u blocks: %llu page reads, %llu served from "
		"read-ahead\n", files, len,
		(unsigned long long)(b.nand_page_reads - a.nand_page_reads),
		(unsigned long long)(b.read_ahead_hits - a.read_ahead_hits));
	CHECK_EQ(b.nand_page_reads - a.nand_page_reads, files * len);
	CHECK_EQ(b.read_ahead_hits - a.read_ahead_hits, files * len - 32);
	for (uint32_t round = 0; round < 30; round++) {
		for (uint32_t f = 0; f < files; f++) {
			for (uint32_t k = 0; k < len; k++) {
				uint64_t lba = BASE + f * stride + k;
				uint32_t nf = (uint32_t)(fte_rand(&rnd) % files);
				uint32_t nk = (uint32_t)(fte_rand(&rnd) % len);
				int rc = ss_ssc_read(c, lba, buf);

				CHECK_EQ(ver[f][k] ? rc : rc == SS_SSC_MISS, ver[f][k] ? 0 : 1);
				if (rc == 0 && st_classify(buf, lba) != (long long)ver[f][k]) {
					fprintf(stderr, "round %u: file %u block %u reads v%lld, model "
						"v%llu\n", round, f, k, st_classify(buf, lba),
						(unsigned long long)ver[f][k]);
					CHECK(0);
				}
				/* now and then, change a block of a later file, read ahead or not */
				if (fte_rand(&rnd) % 53 != 0 || nf <= f) {
					continue;
				}
				lba = BASE + nf * stride + nk;
				switch (fte_rand(&rnd) % 3) {
				case 0:
					st_fill(buf, lba, ver[nf][nk] = 2 + round);
					CHECK_EQ(ss_ssc_write_clean(c, lba, buf), 0);
					break;
				case 1:
					st_fill(buf, lba, ver[nf][nk] = 2 + round);
					CHECK_EQ(ss_ssc_write_dirty(c, lba, buf), 0);
					break;
				default:
					CHECK_EQ(ss_ssc_evict(c, lba), 0);
					ver[nf][nk] = 0;
				}
			}
		}
	}
	fte_destroy(&e);
}

static void test_scan_fits_no_silent_eviction(void)
{
	static const uint32_t percents[] = { 20, 50, 80 };

	for (uint32_t i = 0; i < SS_ARRAY_SIZE(percents); i++) {
		scan_run(SS_SSC_POLICY_SSC, percents[i]);
		scan_run(SS_SSC_POLICY_SSC_V, percents[i]);
	}
}

int main(void)
{
	RUN(test_scan_fits_no_silent_eviction);
	RUN(test_read_ahead_never_stale);
	RUN(test_read_ahead_follows_successors);
	RUN(test_switch_merge);
	RUN(test_top_of_address_space);
	RUN(test_cost_benefit_victim);
	RUN(test_full_of_dirty);
	RUN(test_silent_eviction_keeps_dirty);
	return fte_failures ? 1 : 0;
}
