/* GC: victim choice against hand-computed tables, then random overwrites of several times
 * the capacity against a shadow copy, for both policies. */
#include <stdlib.h>
#include <string.h>

#include "../ftl_gc.c"
#include "ftl_test_env.h"
#include "ftl_internal.h"

#define PPB 32u

struct vb {
	uint8_t state, stream, flags;
	uint16_t valid;
	uint64_t seq, trim_seq;
};

static uint32_t pick(enum ss_gc_policy pol, const struct vb *v, uint32_t n, bool allow_trim)
{
	static struct ftl_block blocks[16];
	struct ss_ftl f;

	memset(&f, 0, sizeof(f));
	memset(blocks, 0, sizeof(blocks));
	ss_ftl_default_params(&f.params);
	f.params.gc_policy = pol;
	f.nblocks = n;
	f.width = 1;
	f.ppb = PPB;
	f.blocks = blocks;
	f.next_seq = 10000;
	f.ckpt_seq = 5000;
	f.ckpt_blocks = 1;
	f.free_blocks = 6;
	for (uint32_t i = 0; i < n; i++) {
		blocks[i].state = v[i].state;
		blocks[i].stream = v[i].stream;
		blocks[i].flags = v[i].flags;
		blocks[i].valid = v[i].valid;
		blocks[i].seq = v[i].seq;
		blocks[i].trim_seq = v[i].trim_seq;
		blocks[i].wp = PPB;
	}
	return pick_victim(&f, allow_trim);
}

#define FULL FTL_BLK_FULL
static void test_victim_table(void)
{
	static const struct {
		const char *name;
		enum ss_gc_policy pol;
		struct vb b[4];
		uint32_t n;
		uint32_t want;
	} rows[] = {
		{ "greedy takes fewest valid", SS_GC_GREEDY,
		  { { FULL, 1, 0, 20, 1, 0 }, { FULL, 1, 0, 10, 1, 0 }, { FULL, 1, 0, 25, 1, 0 } },
		  3, 1 },
		/* META 22/32 = 687 permille > 600: not eligible; HOT 24/32 = 750 <= 800 is */
		{ "meta threshold defers meta", SS_GC_GREEDY,
		  { { FULL, 0, 0, 22, 1, 0 }, { FULL, 1, 0, 24, 1, 0 } }, 2, 1 },
		/* META 25/32 = 781 > 600, HOT 28/32 = 875 > 800: none eligible, best overall */
		{ "fallback to best overall", SS_GC_GREEDY,
		  { { FULL, 0, 0, 25, 1, 0 }, { FULL, 1, 0, 28, 1, 0 } }, 2, 0 },
		/* A: 16 valid, age 100 -> 16*100/32 = 50; B: 20 valid, age 9900 -> 12*9900/40 */
		{ "cost-benefit prefers old", SS_GC_COST_BENEFIT,
		  { { FULL, 1, 0, 16, 9900, 0 }, { FULL, 1, 0, 20, 100, 0 } }, 2, 1 },
		{ "greedy ignores age", SS_GC_GREEDY,
		  { { FULL, 1, 0, 16, 9900, 0 }, { FULL, 1, 0, 20, 100, 0 } }, 2, 0 },
		{ "open, checkpoint, bad and fully valid blocks are never victims", SS_GC_GREEDY,
		  { { FTL_BLK_OPEN, 1, 0, 1, 1, 0 }, { FTL_BLK_CKPT, 0, 0, 0, 1, 0 },
		    { FTL_BLK_BAD, 1, 0, 0, 1, 0 }, { FULL, 1, 0, PPB, 1, 0 } }, 4, FTL_NONE },
		{ "retiring block first", SS_GC_GREEDY,
		  { { FULL, 1, 0, 2, 1, 0 }, { FULL, 1, FTL_BF_RETIRE, 30, 1, 0 } }, 2, 1 },
		{ "stuck block never", SS_GC_GREEDY,
		  { { FULL, 1, FTL_BF_STUCK | FTL_BF_RETIRE, 2, 1, 0 }, { FULL, 1, 0, 30, 1, 0 } },
		  2, 1 },
		/* a block with a trim record newer than the checkpoint (5000) waits */
		{ "trim record not yet checkpointed", SS_GC_GREEDY,
		  { { FULL, 1, 0, 0, 1, 6000 }, { FULL, 1, 0, 30, 1, 0 } }, 2, 1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t got = pick(rows[i].pol, rows[i].b, rows[i].n, false);

		if (got != rows[i].want) {
			fprintf(stderr, "%s: victim %u, want %u\n", rows[i].name, got, rows[i].want);
			ss_test_failures++;
		}
	}
	{
		static const struct vb b[2] = { { FULL, 1, 0, 0, 1, 6000 }, { FULL, 1, 0, 32, 1, 0 } };

		CHECK_EQ(pick(SS_GC_GREEDY, b, 2, true), 0);   /* the fallback pass may take it */
	}
}

static void overwrite(enum ss_gc_policy pol, int skewed)
{
	struct ss_geometry g = fte_geo(16, 32);
	static uint8_t buf[2048], got[2048];
	struct ss_ftl_params p;
	struct ss_ftl_stats st;
	uint64_t rnd = 7 + pol, *ver;
	uint32_t cap, writes, bad = 0;
	struct fte e;

	ss_ftl_default_params(&p);
	p.gc_policy = pol;
	fte_create(&e, &g, 0);
	CHECK_EQ(fte_format(&e, &p), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	ver = calloc(cap, sizeof(*ver));
	writes = cap * 4;
	for (uint32_t l = 0; skewed && l < cap; l++) {   /* cold data everywhere first */
		fte_fill(buf, 2048, l, ++ver[l]);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_COLD, 0), 0);
	}
	for (uint32_t i = 0; i < writes; i++) {
		uint32_t l;
		enum ss_stream s;

		if (skewed && fte_rand(&rnd) % 10 < 8) {
			l = (uint32_t)(fte_rand(&rnd) % (cap / 5));   /* 80 % of writes, 20 % of LPNs */
		} else {
			l = (uint32_t)(fte_rand(&rnd) % cap);
		}
		s = l < cap / 20 ? SS_STREAM_META : l < cap / 5 ? SS_STREAM_HOT : SS_STREAM_COLD;
		fte_fill(buf, 2048, l, ++ver[l]);
		if (ss_ftl_write(e.ftl, l, buf, s, 0) != 0) {
			bad++;
			break;
		}
		l = (uint32_t)(fte_rand(&rnd) % cap);
		if (ss_ftl_read(e.ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l]) {
			bad++;
		}
		if (i % 1000 == 999) {
			CHECK(ss_ftl_background(e.ftl, 64) >= 0);
		}
	}
	for (uint32_t l = 0; l < cap; l++) {
		bad += ss_ftl_read(e.ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l];
	}
	ss_ftl_get_stats(e.ftl, &st);
	printf("%s %s: %u writes over %u pages, WA %u.%03u, gc runs %llu, moves %llu, "
	       "wl moves %llu, erases %llu (min %u max %u), checkpoints %llu\n",
	       pol == SS_GC_GREEDY ? "greedy" : "cost-benefit", skewed ? "80/20" : "uniform",
	       writes, cap, ss_ftl_write_amplification_milli(e.ftl) / 1000,
	       ss_ftl_write_amplification_milli(e.ftl) % 1000, (unsigned long long)st.gc_runs,
	       (unsigned long long)st.gc_page_moves, (unsigned long long)st.wear_level_moves,
	       (unsigned long long)st.block_erases, st.min_erase_count, st.max_erase_count,
	       (unsigned long long)st.checkpoints);
	CHECK_EQ(bad, 0);
	CHECK(ss_ftl_write_amplification_milli(e.ftl) > 1000);
	CHECK(st.gc_runs > 0 && st.gc_page_moves > 0);
	CHECK_EQ(st.host_page_writes, writes + (skewed ? cap : 0));
	/* every mapped page is counted once: the shadow's written pages */
	{
		uint32_t mapped = 0;

		for (uint32_t l = 0; l < cap; l++) {
			mapped += ver[l] != 0;
		}
		CHECK_EQ(st.mapped_pages, mapped);
	}
	CHECK_EQ(ss_ftl_unmount(e.ftl), 0);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(fte_mount(&e), 0);
	ss_ftl_get_stats(e.ftl, &st);
	CHECK_EQ(st.rollforward_pages, 0);
	bad = 0;
	for (uint32_t l = 0; l < cap; l++) {
		bad += ss_ftl_read(e.ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l];
	}
	CHECK_EQ(bad, 0);
	free(ver);
	fte_destroy(&e);
}

/*
 * Static wear-levelling keeps its promise (ss_ftl.h): under a skewed workload (cold data
 * everywhere, then every write to a hot quarter, 200 drive writes) the spread between the
 * most and the least erased good block, free and checkpoint blocks included, is checked
 * after every background call (busy) and every 16th time after background work has run
 * out (idle), not just on average. SS_WL_SWEEP=1 also runs deltas 2 to 16 with three seeds
 * each; SS_WL_DUMP=1 prints the blocks.
 */
static void wear_spread(uint32_t delta, uint64_t seed, uint32_t *worst_spread,
			uint32_t *busy_spread, uint32_t *avg_out)
{
	struct ss_geometry g = fte_geo(16, 16);
	static uint8_t buf[2048];
	struct ss_ftl_params p;
	struct ss_ftl_stats st;
	uint64_t rnd = seed, *ver;
	uint32_t cap, worst = 0, busy_worst = 0, idle_checks = 0;
	struct fte e;

	ss_ftl_default_params(&p);
	p.wear_level_delta = delta;
	fte_create(&e, &g, 100000);   /* no block wears out: wear-levelling alone is measured */
	CHECK_EQ(fte_format(&e, &p), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	ver = calloc(cap, sizeof(*ver));
	for (uint32_t l = 0; l < cap; l++) {
		fte_fill(buf, 2048, l, ++ver[l]);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_COLD, 0), 0);
	}
	for (uint32_t i = 0; i < 200u * cap; i++) {
		uint32_t l = (uint32_t)(fte_rand(&rnd) % (cap / 4));

		fte_fill(buf, 2048, l, ++ver[l]);
		if (ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0) != 0) {
			CHECK(0);
			break;
		}
		if (i % 256 == 255) {
			int more = 1;

			CHECK(ss_ftl_background(e.ftl, 256) >= 0);
			ss_ftl_get_stats(e.ftl, &st);
			if (st.min_erase_count > 0) {
				busy_worst = SS_MAX(busy_worst, st.max_erase_count - st.min_erase_count);
			}
			/* every 16th stop, let the drive go idle: background work until none is left */
			for (uint32_t k = 0; (i / 256) % 16 == 15 && more > 0 && k < 1000; k++) {
				more = ss_ftl_background(e.ftl, 256);
				CHECK(more >= 0);
			}
			ss_ftl_get_stats(e.ftl, &st);
			if (more == 0 && st.min_erase_count > 0) {
				if (getenv("SS_WL_DUMP") && st.max_erase_count - st.min_erase_count > delta + 2) {
					for (uint32_t b = 0; b < e.ftl->nblocks; b++) {
						const struct ftl_block *k = &e.ftl->blocks[b];

						if (k->erase_count <= st.min_erase_count + 1 ||
						    k->erase_count >= st.max_erase_count - 1)
							printf("  idle: block %u state %u stream %u erases %u valid %u\n",
							       b, k->state, k->stream, k->erase_count, k->valid);
					}
				}
				worst = SS_MAX(worst, st.max_erase_count - st.min_erase_count);
				idle_checks++;
			}
		}
	}
	ss_ftl_get_stats(e.ftl, &st);
	printf("wear spread, delta %u: erase min %u max %u avg %u, worst spread %u at idle (%u "
	       "checks), %u while busy, wl moves %llu\n", delta, st.min_erase_count,
	       st.max_erase_count, st.avg_erase_count, worst, idle_checks, busy_worst,
	       (unsigned long long)st.wear_level_moves);
	for (uint32_t l = 0; l < cap; l++) {
		uint8_t got[2048];

		if (ss_ftl_read(e.ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l]) {
			CHECK(0);
			break;
		}
	}
	if (getenv("SS_WL_DUMP")) {
		for (uint32_t b = 0; b < e.ftl->nblocks; b++) {
			const struct ftl_block *k = &e.ftl->blocks[b];

			printf("  block %u: state %u stream %u flags %u erases %u valid %u\n", b, k->state,
			       k->stream, k->flags, k->erase_count, k->valid);
		}
	}
	*worst_spread = worst;
	*busy_spread = busy_worst;
	*avg_out = st.avg_erase_count;
	free(ver);
	fte_destroy(&e);
}

static void test_wear_spread(void)
{
	uint32_t worst, busy, avg, worst_off, busy_off, avg_off;

	if (getenv("SS_WL_SWEEP")) {
		for (uint32_t d = 2; d <= 16; d *= 2) {
			for (uint64_t sd = 1; sd <= 3; sd++) {
				wear_spread(d, sd * 1000003, &worst, &busy, &avg);
				CHECK(worst <= d + SS_FTL_WL_SLACK(d));
				CHECK(busy <= d + SS_FTL_WL_SLACK(d) + 4);
			}
		}
	}
	wear_spread(4, 4242, &worst, &busy, &avg);
	CHECK(avg >= 100);
	CHECK(worst <= 4 + SS_FTL_WL_SLACK(4));
	CHECK(busy <= 4 + SS_FTL_WL_SLACK(4) + 4);
	/* without static wear-levelling the cold blocks stay young: the check can fail */
	wear_spread(0, 4242, &worst_off, &busy_off, &avg_off);
	CHECK(worst_off > 4 + SS_FTL_WL_SLACK(4));
}

/* The wear-levelling decision as a scan of every block, as it was before the bounds. */
static bool wear_needed_by_scan(const struct ss_ftl *f, uint32_t *victim)
{
	uint32_t max = 0, min = FTL_NONE, v = FTL_NONE;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ftl_block *k = &f->blocks[b];

		if (k->state == FTL_BLK_BAD) {
			continue;
		}
		max = SS_MAX(max, k->erase_count);
		if ((k->state == FTL_BLK_FULL || k->state == FTL_BLK_OPEN) && k->flags == 0 &&
		    k->erase_count < min) {
			min = k->erase_count;
			v = b;
		}
	}
	if (f->params.wear_level_delta == 0 || v == FTL_NONE ||
	    max - min <= f->params.wear_level_delta) {
		return false;
	}
	*victim = v;
	return true;
}

/* Random erases, retirements and state changes: the check that skips its scan while the
 * erase-count bounds allow must decide as the full scan does, every time. */
static void test_wear_bounds_decide_as_scan(void)
{
	static struct ftl_block blocks[24];
	static const uint8_t states[] = { FTL_BLK_FREE, FTL_BLK_OPEN, FTL_BLK_FULL, FTL_BLK_CKPT };
	struct ss_ftl f;
	uint64_t rng = 77;
	uint32_t needed = 0, skipped = 0;

	memset(&f, 0, sizeof(f));
	memset(blocks, 0, sizeof(blocks));
	ss_ftl_default_params(&f.params);
	f.params.wear_level_delta = 3;
	f.nblocks = 24;
	f.blocks = blocks;
	for (uint32_t i = 0; i < 200000; i++) {
		uint32_t b, op, want_v = FTL_NONE, got_v = FTL_NONE;
		bool want, got;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		b = (uint32_t)(rng >> 33) % f.nblocks;
		op = (uint32_t)(rng >> 20) % 100;
		if (blocks[b].state != FTL_BLK_BAD) {
			if (op < 70) {
				/* erase the least worn more often, so the spread stays near delta */
				uint32_t c = (uint32_t)(rng >> 40) % f.nblocks;

				b = blocks[c].erase_count < blocks[b].erase_count &&
				    blocks[c].state != FTL_BLK_BAD ? c : b;
				blocks[b].erase_count++;
				ftl_wear_erased(&f, b);
			} else if (op < 71) {
				blocks[b].state = FTL_BLK_BAD;
			} else if (op < 90) {
				blocks[b].state = states[(rng >> 45) % 4];
			} else {
				blocks[b].flags = (uint8_t)((rng >> 50) % 4 == 0 ? FTL_BF_DIRTY : 0);
			}
		}
		skipped += f.wear_known && f.wear_hi - f.wear_lo <= f.params.wear_level_delta;
		want = wear_needed_by_scan(&f, &want_v);
		got = ftl_wear_level_needed(&f, &got_v);
		needed += want;
		if (want != got || want_v != got_v) {
			fprintf(stderr, "step %u: needed %d victim %u, want %d victim %u\n", i, got,
				got_v, want, want_v);
			ss_test_failures++;
			return;
		}
	}
	/* both ways were taken many times: the test can fail */
	CHECK(needed > 1000);
	CHECK(skipped > 1000);
}

static void test_greedy_uniform(void) { overwrite(SS_GC_GREEDY, 0); }
static void test_greedy_skewed(void) { overwrite(SS_GC_GREEDY, 1); }
static void test_cost_benefit_uniform(void) { overwrite(SS_GC_COST_BENEFIT, 0); }
static void test_cost_benefit_skewed(void) { overwrite(SS_GC_COST_BENEFIT, 1); }

/* ss_ftl_background_pending against hand-made states: GC ahead of need below the high
 * watermark (the host reserve, ckpt_blocks + width + 1, plus GC_HIGH_EXTRA = 6: 9 free
 * blocks here) when a victim exists, a retiring
 * block to empty, a checkpoint due at half the interval. */
static void test_background_pending_table(void)
{
	static const struct {
		const char *name;
		uint32_t free_blocks, retiring, programs;
		uint8_t flags;
		uint16_t valid;
		int want;
	} rows[] = {
		{ "idle: free blocks, nothing due", 40, 0, 0, 0, 10, 0 },
		{ "checkpoint due at half the interval", 40, 0, 2048, 0, 10, 1 },
		{ "checkpoint not yet due", 40, 0, 2047, 0, 10, 0 },
		{ "below the high watermark with a victim", 8, 0, 0, 0, 10, 1 },
		{ "at the high watermark", 9, 0, 0, 0, 10, 0 },
		{ "below the watermark, nothing to collect", 8, 0, 0, 0, PPB, 0 },
		{ "a retiring block to empty", 40, 1, 0, FTL_BF_RETIRE, 10, 1 },
		{ "a stuck retiring block cannot move", 40, 1, 0, FTL_BF_RETIRE | FTL_BF_STUCK, 10, 0 },
	};
	static struct ftl_block blocks[2];
	struct ss_ftl f;

	CHECK_EQ(ss_ftl_background_pending(NULL), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got;

		memset(&f, 0, sizeof(f));
		memset(blocks, 0, sizeof(blocks));
		ss_ftl_default_params(&f.params);
		f.params.checkpoint_interval_pages = 4096;
		f.nblocks = 2;
		f.width = 1;
		f.ppb = PPB;
		f.blocks = blocks;
		f.next_seq = 10000;
		f.ckpt_seq = 5000;
		f.ckpt_blocks = 1;
		f.free_blocks = rows[i].free_blocks;
		f.retiring = rows[i].retiring;
		f.programs_since_ckpt = rows[i].programs;
		for (uint32_t b = 0; b < 2; b++) {
			blocks[b].state = FTL_BLK_FULL;
			blocks[b].stream = 1;
			blocks[b].flags = rows[i].flags;
			blocks[b].valid = rows[i].valid;
			blocks[b].seq = 1;
			blocks[b].wp = PPB;
		}
		got = ss_ftl_background_pending(&f);
		if (got != rows[i].want) {
			fprintf(stderr, "%s: pending %d, want %d\n", rows[i].name, got, rows[i].want);
			ss_test_failures++;
		}
	}
}

int main(void)
{
	RUN(test_victim_table);
	RUN(test_background_pending_table);
	RUN(test_wear_spread);
	RUN(test_wear_bounds_decide_as_scan);
	RUN(test_greedy_uniform);
	RUN(test_greedy_skewed);
	RUN(test_cost_benefit_uniform);
	RUN(test_cost_benefit_skewed);
	return ss_test_failures ? 1 : 0;
}
