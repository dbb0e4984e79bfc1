/* Worn cache blocks are retired: with a low endurance on a tiny flash, hammered writes wear
 * blocks out; a worn block is never erased again (the emulator's own erase counts say so),
 * no acknowledged dirty block is lost, the capacity shrinks by each retired block, the
 * retired set survives a crash and an unmount, and when the blocks run out writes fail
 * with -SS_ENOSPC. */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ssc_internal.h"
#include "ssc_test.h"

#define SPACE 1200u
#define DIRTY_SPACE 48u       /* dirty writes go to the first blocks of the space */
#define ENDURANCE 30u       /* the rated endurance the cache retires blocks at */
/* What the emulated blocks really last: more than the rating, so that the cache's own
 * retiring is what is tested. */
#define FLASH_ENDURANCE 1000u
#define BASE 0x00000E0D00000000ull

struct model {
	uint64_t ver[SPACE];
	uint8_t dirty[SPACE];
};

struct wear {
	uint32_t nblocks;
	uint8_t retired[1024];
	uint32_t erases_at_retirement[1024];
};

static void verify(struct ss_ssc *c, const struct model *m, const char *when)
{
	static uint8_t buf[ST_PAGE];
	uint32_t bad = 0;

	for (uint32_t k = 0; k < SPACE; k++) {
		int rc = ss_ssc_read(c, BASE + k, buf);
		long long v = rc == 0 ? st_classify(buf, BASE + k) : rc == SS_SSC_MISS ? 0 : -1;

		if (m->dirty[k] ? v != (long long)m->ver[k]
				: (v != 0 && v != (long long)m->ver[k])) {
			if (bad++ < 5) {
				fprintf(stderr, "%s: block %u reads %lld (rc %d); model v%llu %s\n", when,
					k, v, rc, (unsigned long long)m->ver[k],
					m->dirty[k] ? "dirty" : "clean");
			}
		}
	}
	CHECK_EQ(bad, 0);
}

static uint32_t flash_erases(struct fte *e, uint32_t b)
{
	struct ss_emu_block_info bi;

	CHECK_EQ(ss_emu_flash_block_info(e->flash, b, &bi), 0);
	return bi.erase_count;
}

/* Note blocks retired since the last look, with the flash's erase count then; a block
 * retired before must still be retired and never erased since. \return retired blocks. */
static uint32_t track(struct fte *e, const struct ss_ssc *c, struct wear *w)
{
	uint32_t n = 0;

	for (uint32_t b = 0u; b < c->nblocks; b++) {
		bool now = c->blocks[b].state == SSC_BLK_RETIRED;

		if (w->retired[b]) {
			CHECK(now);
			CHECK_EQ(flash_erases(e, b), w->erases_at_retirement[b]);
		} else if (now) {
			w->retired[b] = 1;
			w->erases_at_retirement[b] = flash_erases(e, b);
			CHECK(w->erases_at_retirement[b] <= ENDURANCE);
		}
		n += now;
	}
	return n;
}

/* Write until the cache refuses or `stop_at` blocks are retired: mostly write-clean over
 * SPACE (silent eviction keeps room), a dirty minority on DIRTY_SPACE blocks which the
 * host cleans now and then. \return the status that ended it (0: retired enough). */
static int hammer(struct fte *e, struct ss_ssc *c, struct model *m, struct wear *w,
		  uint64_t *rnd, uint64_t *version, uint32_t stop_at)
{
	static uint8_t buf[ST_PAGE];

	for (uint32_t i = 0;; i++) {
		uint32_t r = (uint32_t)(fte_rand(rnd) % 100);
		uint32_t k = (uint32_t)(fte_rand(rnd) % (r < 10 ? DIRTY_SPACE : SPACE));
		int rc;

		st_fill(buf, BASE + k, ++*version);
		if (r < 10) {
			rc = ss_ssc_write_dirty(c, BASE + k, buf);
			if (rc == 0) {
				m->ver[k] = *version;
				m->dirty[k] = 1;
			}
		} else if (r < 13) {
			rc = ss_ssc_clean(c, BASE + k);
			if (rc == 0) {
				m->dirty[k] = 0;
			}
		} else if (m->dirty[k]) {
			continue;   /* the host never overwrites its dirty data with a clean copy */
		} else {
			rc = ss_ssc_write_clean(c, BASE + k, buf);
			if (rc == 0) {
				m->ver[k] = *version;
			}
		}
		if (rc) {
			return rc;
		}
		if (i % 64 == 0 && track(e, c, w) >= stop_at) {
			return 0;
		}
	}
	return 0;
}

static void test_retire_worn_blocks(void)
{
	static struct model m;
	static struct wear w;
	struct ss_geometry g = fte_geo(24, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st0, st;
	struct ss_ssc *c = NULL;
	uint64_t rnd = 4242, version = 0;
	uint32_t retired, before;
	struct fte e;
	int rc;

	memset(&m, 0, sizeof(m));
	memset(&w, 0, sizeof(w));
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, FLASH_ENDURANCE);
	e.hal->endurance = ENDURANCE;  /* the HAL's rated figure, as a profile gives it */
	CHECK_EQ(st_format(&e, &c, &p), 0);
	CHECK(c->nblocks <= sizeof(w.retired));
	ss_ssc_get_stats(c, &st0);
	CHECK_EQ(st0.endurance, ENDURANCE);
	CHECK_EQ(st0.retired_blocks, 0);

	/* wear some blocks out, then a crash: the retired set and every dirty block survive */
	CHECK_EQ(hammer(&e, c, &m, &w, &rnd, &version, 10), 0);
	retired = track(&e, c, &w);
	CHECK(retired >= 10);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.retired_blocks, retired);
	CHECK_EQ(st.cache_blocks, st0.cache_blocks - retired);
	verify(c, &m, "after the first retirements");
	fte_close(&e);
	fte_reopen(&e);
	e.hal->endurance = ENDURANCE;
	CHECK_EQ(st_mount(&e, &c), 0);
	CHECK_EQ(track(&e, c, &w), retired);
	verify(c, &m, "after a crash");

	/* on until the cache runs out of blocks: writes fail cleanly, nothing dirty is lost */
	before = retired;
	rc = hammer(&e, c, &m, &w, &rnd, &version, UINT32_MAX);
	CHECK_EQ(rc, -SS_ENOSPC);
	retired = track(&e, c, &w);
	CHECK(retired > before);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.retired_blocks, retired);
	CHECK_EQ(st.cache_blocks, st0.cache_blocks - retired);
	verify(c, &m, "when the cache ran out of blocks");
	for (uint32_t b = 0u; b < c->nblocks; b++) {
		CHECK(flash_erases(&e, b) <= ENDURANCE);  /* never erased past the rating */
	}
	printf("%u of %u cache blocks retired at %u erases; %llu versions written; the dirty "
	       "blocks all read back\n", retired, st0.cache_blocks, ENDURANCE,
	       (unsigned long long)version);

	/* an unmount and a mount keep the retired set */
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(&e);
	fte_reopen(&e);
	e.hal->endurance = ENDURANCE;
	CHECK_EQ(st_mount(&e, &c), 0);
	CHECK_EQ(track(&e, c, &w), retired);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.retired_blocks, retired);
	verify(c, &m, "after an unmount and a mount");

	/* every mount writes a checkpoint, on usable blocks, until none is left: then the
	 * cache still mounts and serves its dirty data, and refuses what must be durable */
	{
		static uint8_t buf[ST_PAGE];
		uint32_t mounts = 0;

		while (c->log_page < c->log_area_blocks * c->ppb && mounts < 1000) {
			fte_close(&e);
			fte_reopen(&e);
			e.hal->endurance = ENDURANCE;
			REQUIRE(st_mount(&e, &c) == 0);
			mounts++;
		}
		CHECK(c->log_page >= c->log_area_blocks * c->ppb);
		verify(c, &m, "mounted with no block left for a checkpoint");
		st_fill(buf, BASE, ++version);
		CHECK_EQ(ss_ssc_write_dirty(c, BASE, buf), -SS_ENOSPC);
		verify(c, &m, "after a refused write");
		for (uint32_t b = 0; b < c->nblocks; b++) {
			CHECK(flash_erases(&e, b) <= ENDURANCE);
		}
		printf("%u more mounts until no block was left for a checkpoint; then a read-only "
		       "mount, every dirty block readable\n", mounts);
	}
	fte_destroy(&e);
}

/* Blocks that wear out below the rating (the profile's endurance spread lets a block last
 * 10 % less): their erase fails, and the cache retires them on the spot instead of
 * failing the write. Every fourth cache block here dies after WEAK_LIFE erases. */
#define WEAK_LIFE 4u
static struct {
	int (*erase)(void *ctx, uint32_t block);
	uint32_t first_cache;
	uint32_t erases[1024];
	uint32_t attempts_after_failure[1024];
} weak;

static bool is_weak(uint32_t b)
{
	return b >= weak.first_cache && (b - weak.first_cache) % 4 == 0;
}

static int weak_erase(void *ctx, uint32_t block)
{
	if (is_weak(block) && weak.erases[block] >= WEAK_LIFE) {
		weak.attempts_after_failure[block] += weak.erases[block] > WEAK_LIFE;
		weak.erases[block] = WEAK_LIFE + 1;
		return -SS_EIO;
	}
	weak.erases[block]++;
	return weak.erase(ctx, block);
}

static void test_retire_failed_erase(void)
{
	static struct model m;
	static struct wear w;
	struct ss_geometry g = fte_geo(24, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint64_t rnd = 77, version = 0;
	uint32_t weak_blocks = 0, retired_weak = 0;
	struct fte e;

	memset(&m, 0, sizeof(m));
	memset(&w, 0, sizeof(w));
	memset(&weak, 0, sizeof(weak));
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC_V);
	fte_create(&e, &g, FLASH_ENDURANCE);
	fte_wrap(&e);
	e.hal->endurance = ENDURANCE;
	weak.erase = e.fault.ops.block_erase;
	e.fault.ops.block_erase = weak_erase;
	CHECK_EQ(st_format(&e, &c, &p), 0);
	weak.first_cache = 0;
	for (uint32_t b = 0u; b < c->nblocks; b++) {
		weak_blocks += is_weak(b);
	}
	/* until every weak block has failed an erase and been retired */
	CHECK_EQ(hammer(&e, c, &m, &w, &rnd, &version, weak_blocks), 0);
	for (uint32_t b = 0u; b < c->nblocks; b++) {
		if (w.retired[b]) {
			CHECK(is_weak(b));   /* nothing else reached the rating */
			retired_weak++;
		}
		CHECK_EQ(weak.attempts_after_failure[b], 0);
	}
	CHECK_EQ(retired_weak, weak_blocks);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.retired_blocks, weak_blocks);
	verify(c, &m, "after the weak blocks failed");
	fte_close(&e);
	fte_reopen(&e);
	fte_wrap(&e);
	e.hal->endurance = ENDURANCE;
	weak.erase = e.fault.ops.block_erase;
	e.fault.ops.block_erase = weak_erase;
	CHECK_EQ(st_mount(&e, &c), 0);
	CHECK_EQ(track(&e, c, &w), weak_blocks);
	verify(c, &m, "after a crash");
	/* on to the rating: wear-levelled, the other blocks reach it together and run out */
	CHECK_EQ(hammer(&e, c, &m, &w, &rnd, &version, UINT32_MAX), -SS_ENOSPC);
	for (uint32_t b = 0u; b < c->nblocks; b++) {
		CHECK_EQ(weak.attempts_after_failure[b], 0);
	}
	verify(c, &m, "writing on after the crash");
	fte_destroy(&e);
}

/*
 * Checkpoints wear no block faster than the rest: a skewed write-dirty workload (a hot
 * tenth of the space takes 90 % of the writes; the host writes back, i.e. cleans, its
 * oldest dirty blocks past a dirty ceiling, as the cache manager does) runs for
 * CKPT_ROUNDS checkpoints. Every write-dirty commits a log page, so checkpoints come every
 * log area's worth of commits (SS_WEAR_CHECKPOINTS sets another count). The spread between the most and the least erased good block
 * of the whole cache (checkpoint and cache blocks alike, by the emulator's own counts) must
 * stay within SS_SSC_WEAR_DELTA + SS_SSC_WEAR_SLACK (ss_ssc.h).
 */
#define CKPT_ROUNDS 400u
#define SKEW_SPACE 600u
#define SKEW_HOT 60u
#define SKEW_DIRTY_MAX 24u

struct spread {
	uint32_t min, max;
	uint64_t ckpt_sum, cache_sum;
	uint32_t ckpt_n, cache_n, ckpt_max, cache_max;
};

/* Erase counts by the emulator; "checkpoint blocks" are the ones holding metadata now. */
static void measure(struct fte *e, const struct ss_ssc *c, struct spread *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT32_MAX;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		uint32_t n = flash_erases(e, b);

		if (c->blocks[b].state == SSC_BLK_BAD || c->blocks[b].state == SSC_BLK_RETIRED) {
			continue;
		}
		s->min = SS_MIN(s->min, n);
		s->max = SS_MAX(s->max, n);
		if (c->blocks[b].state == SSC_BLK_META) {
			s->ckpt_sum += n;
			s->ckpt_n++;
			s->ckpt_max = SS_MAX(s->ckpt_max, n);
		} else {
			s->cache_sum += n;
			s->cache_n++;
			s->cache_max = SS_MAX(s->cache_max, n);
		}
	}
}

/* The skewed write-dirty workload until `rounds` more checkpoints; the host cleans its
 * oldest dirty block past SKEW_DIRTY_MAX. \return the first failing status, else 0. */
static int skewed_dirty(struct ss_ssc *c, struct model *m, uint64_t *rnd, uint64_t *version,
			uint32_t rounds, uint32_t *worst_spread, struct fte *e)
{
	static uint8_t buf[ST_PAGE];
	static uint32_t fifo[SPACE];
	uint32_t head = 0, tail = 0, dirty = 0;
	struct ss_ssc_stats st;
	uint64_t until;

	for (uint32_t k = 0; k < SKEW_SPACE; k++) {
		REQUIRE(!m->dirty[k]);   /* the host's write-back queue starts empty */
	}
	ss_ssc_get_stats(c, &st);
	until = st.checkpoints + rounds;
	while (st.checkpoints < until) {
		uint32_t r = (uint32_t)(fte_rand(rnd) % 100);
		uint32_t k = (uint32_t)(r < 90 ? fte_rand(rnd) % SKEW_HOT
					       : SKEW_HOT + fte_rand(rnd) % (SKEW_SPACE - SKEW_HOT));
		struct spread s;
		int rc;

		st_fill(buf, BASE + k, ++*version);
		rc = ss_ssc_write_dirty(c, BASE + k, buf);
		if (rc) {
			return rc;
		}
		m->ver[k] = *version;
		if (!m->dirty[k]) {
			m->dirty[k] = 1;
			fifo[tail++ % SPACE] = k;
			dirty++;
		}
		while (dirty > SKEW_DIRTY_MAX) {
			uint32_t old = fifo[head++ % SPACE];

			rc = ss_ssc_clean(c, BASE + old);
			if (rc) {
				return rc;
			}
			m->dirty[old] = 0;
			dirty--;
		}
		ss_ssc_get_stats(c, &st);
		if (st.checkpoints % 16 == 0) {
			measure(e, c, &s);
			*worst_spread = SS_MAX(*worst_spread, s.max - s.min);
		}
	}
	return 0;
}

static void print_spread(const char *when, struct fte *e, const struct ss_ssc *c,
			 uint32_t worst)
{
	struct ss_ssc_stats st;
	struct spread s;

	measure(e, c, &s);
	ss_ssc_get_stats(c, &st);
	printf("%s: %llu checkpoints, %llu erases; checkpoint blocks (%u) avg %llu max %u, cache "
	       "blocks (%u) avg %llu max %u; whole cache min %u max %u, worst spread %u (bound "
	       "%u)\n", when, (unsigned long long)st.checkpoints,
	       (unsigned long long)st.block_erases, s.ckpt_n,
	       (unsigned long long)(s.ckpt_n ? s.ckpt_sum / s.ckpt_n : 0), s.ckpt_max, s.cache_n,
	       (unsigned long long)(s.cache_n ? s.cache_sum / s.cache_n : 0), s.cache_max, s.min,
	       s.max, worst, SS_SSC_WEAR_DELTA + SS_SSC_WEAR_SLACK);
}

/* Run skewed_dirty for SS_WEAR_CHECKPOINTS (else `rounds`) checkpoints; the whole cache's
 * worst spread must stay within the bound and every block read back. */
static void skewed_within_bound(struct fte *e, struct ss_ssc *c, struct model *m,
				    uint64_t *rnd, uint64_t *version, uint32_t rounds,
				    const char *what)
{
	const char *env = getenv("SS_WEAR_CHECKPOINTS");
	uint32_t worst = 0;
	struct spread s;

	CHECK_EQ(skewed_dirty(c, m, rnd, version, env ? (uint32_t)atoi(env) : rounds, &worst, e),
		 0);
	measure(e, c, &s);
	worst = SS_MAX(worst, s.max - s.min);
	print_spread(what, e, c, worst);
	CHECK(s.min > 0);
	CHECK(worst <= SS_SSC_WEAR_DELTA + SS_SSC_WEAR_SLACK);
	verify(c, m, what);
}

/* An unmount and a mount: every block reads back. */
static void remount_verify(struct fte *e, struct ss_ssc *c, const struct model *m)
{
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(e);
	fte_reopen(e);
	REQUIRE(st_mount(e, &c) == 0);
	verify(c, m, "after a remount");
}

static void test_checkpoint_wear_spread(void)
{
	static struct model m;
	struct ss_geometry g = fte_geo(24, 16);
	struct ss_ssc_params p;
	struct ss_ssc *c = NULL;
	uint64_t rnd = ss_test_seed(9191), version = 0;
	struct fte e;

	memset(&m, 0, sizeof(m));
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 100000);   /* nothing wears out: the spread alone is measured */
	REQUIRE(st_format(&e, &c, &p) == 0);
	skewed_within_bound(&e, c, &m, &rnd, &version, CKPT_ROUNDS, "skewed write-dirty");
	remount_verify(&e, c, &m);
	fte_destroy(&e);
}

/*
 * Static wear-levelling: cold data pinned in the cache must not pin its blocks' erase
 * counts. Before the skewed write-dirty traffic, the host fills PINNED_DIRTY_GROUPS whole
 * groups with dirty data it never rewrites, cleans or evicts, and PINNED_CLEAN_GROUPS
 * with clean data it never evicts; then PINNED_ROUNDS checkpoints of the hot workload.
 * Without levelling the pinned blocks stay at an erase or two while the rest climb to
 * 60 and more; with it the spread of the whole cache stays within
 * SS_SSC_WEAR_DELTA + SS_SSC_WEAR_SLACK, and every pinned block reads back as written.
 */
#define PINNED_ROUNDS 1200u
#define PINNED_FIRST 608u           /* past SKEW_SPACE, group-aligned for 16-page blocks */
#define PINNED_DIRTY_GROUPS 8u
#define PINNED_CLEAN_GROUPS 8u

static void pin_cold(struct ss_ssc *c, struct model *m, uint64_t *version)
{
	static uint8_t buf[ST_PAGE];
	uint32_t ppb = c->ppb;

	REQUIRE(PINNED_FIRST % ppb == 0);
	REQUIRE(PINNED_FIRST + (PINNED_DIRTY_GROUPS + PINNED_CLEAN_GROUPS) * ppb <= SPACE);
	for (uint32_t i = 0; i < (PINNED_DIRTY_GROUPS + PINNED_CLEAN_GROUPS) * ppb; i++) {
		uint32_t k = PINNED_FIRST + i;
		bool dirty = i < PINNED_DIRTY_GROUPS * ppb;

		st_fill(buf, BASE + k, ++*version);
		REQUIRE((dirty ? ss_ssc_write_dirty : ss_ssc_write_clean)(c, BASE + k, buf) == 0);
		m->ver[k] = *version;
		m->dirty[k] = dirty;
	}
	REQUIRE(ss_ssc_flush(c) == 0);
}

static void test_pinned_cold_data_wear_spread(void)
{
	static struct model m;
	struct ss_geometry g = fte_geo(24, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st;
	struct ss_ssc *c = NULL;
	uint64_t rnd = ss_test_seed(5150), version = 0;
	uint32_t pinned_clean_left = 0;
	struct fte e;

	memset(&m, 0, sizeof(m));
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 100000);
	REQUIRE(st_format(&e, &c, &p) == 0);
	pin_cold(c, &m, &version);
	skewed_within_bound(&e, c, &m, &rnd, &version, PINNED_ROUNDS,
			    "pinned cold data under skewed write-dirty");
	ss_ssc_get_stats(c, &st);
	for (uint32_t i = PINNED_DIRTY_GROUPS * c->ppb;
	     i < (PINNED_DIRTY_GROUPS + PINNED_CLEAN_GROUPS) * c->ppb; i++) {
		pinned_clean_left += ss_ssc_present(c, BASE + PINNED_FIRST + i);
	}
	printf("wear-levelling migrations %llu (pages copied by them %llu), write amplification "
	       "%u.%03u; pinned clean blocks still cached %u of %u\n",
	       (unsigned long long)st.wear_level_migrations,
	       (unsigned long long)st.wear_level_copies, ss_ssc_write_amplification_milli(c) / 1000,
	       ss_ssc_write_amplification_milli(c) % 1000, pinned_clean_left,
	       PINNED_CLEAN_GROUPS * c->ppb);
	remount_verify(&e, c, &m);
	fte_destroy(&e);
}

/*
 * A checkpoint block that fails: its erase, or the program of a checkpoint page, fails
 * once, in the middle of the write-dirty whose commit folds the full log into a checkpoint.
 * The block is retired, the checkpoint goes to other blocks, the write-dirty succeeds,
 * and after a crash and a mount every dirty block reads back equal.
 */
static struct {
	int (*erase)(void *ctx, uint32_t block);
	int (*program)(void *ctx, uint32_t ppn, const void *data, const void *spare);
	int fail_erases;          /* erases still to fail */
	long long fail_program;   /* programs to let through before one fails; < 0: none */
	uint32_t ppb;
	uint32_t failed_block;
} inject;

static int inject_erase(void *ctx, uint32_t block)
{
	if (inject.fail_erases > 0) {
		inject.fail_erases--;
		inject.failed_block = block;
		return -SS_EIO;
	}
	return inject.erase(ctx, block);
}

static int inject_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	if (inject.fail_program == 0) {
		inject.fail_program = -1;
		inject.failed_block = ppn / inject.ppb;
		return -SS_EIO;
	}
	if (inject.fail_program > 0) {
		inject.fail_program--;
	}
	return inject.program(ctx, ppn, data, spare);
}

/* Dirty writes until the log is full and the open log block has room: the next
 * write-dirty programs its data page, then its commit writes a checkpoint. */
static void until_checkpoint_due(struct ss_ssc *c, struct model *m, uint64_t *rnd,
				 uint64_t *version)
{
	static uint8_t buf[ST_PAGE];

	for (uint32_t i = 0; i < 100000; i++) {
		uint32_t k = (uint32_t)(fte_rand(rnd) % DIRTY_SPACE);

		if (c->log_page >= c->log_area_blocks * c->ppb && c->open != SSC_NONE &&
		    c->blocks[c->open].wp + 1u < c->ppb) {
			return;
		}
		st_fill(buf, BASE + k, ++*version);
		REQUIRE(ss_ssc_write_dirty(c, BASE + k, buf) == 0);
		m->ver[k] = *version;
		m->dirty[k] = 1;
	}
	REQUIRE(!"no checkpoint came due");
}

static void checkpoint_block_fails(bool erase)
{
	static struct model m;
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(24, 16);
	struct ss_ssc_params p;
	struct ss_ssc_stats st0, st;
	struct ss_ssc *c = NULL;
	uint64_t rnd = erase ? 515 : 616, version = 0;
	uint32_t k = 7, worst = 0;
	struct fte e;

	memset(&m, 0, sizeof(m));
	memset(&inject, 0, sizeof(inject));
	inject.fail_program = -1;
	inject.ppb = g.pages_per_block;
	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 100000);
	fte_wrap(&e);
	inject.erase = e.fault.ops.block_erase;
	inject.program = e.fault.ops.page_program;
	e.fault.ops.block_erase = inject_erase;
	e.fault.ops.page_program = inject_program;
	REQUIRE(st_format(&e, &c, &p) == 0);
	/* traffic first, so that the checkpoint's blocks come from a used pool (they need an
	 * erase), then a few checkpoints of dirty writes */
	CHECK_EQ(skewed_dirty(c, &m, &rnd, &version, 60, &worst, &e), 0);
	for (uint32_t round = 0; round < 3; round++) {
		until_checkpoint_due(c, &m, &rnd, &version);
		st_fill(buf, BASE + k, ++version);
		REQUIRE(ss_ssc_write_dirty(c, BASE + k, buf) == 0);
		m.ver[k] = version;
		m.dirty[k] = 1;
	}
	until_checkpoint_due(c, &m, &rnd, &version);
	ss_ssc_get_stats(c, &st0);
	if (erase) {
		inject.fail_erases = 1;
	} else {
		inject.fail_program = 1;   /* the data page goes through, the first checkpoint page fails */
	}
	inject.failed_block = SSC_NONE;
	st_fill(buf, BASE + k, ++version);
	CHECK_EQ(ss_ssc_write_dirty(c, BASE + k, buf), 0);
	m.ver[k] = version;
	m.dirty[k] = 1;
	ss_ssc_get_stats(c, &st);
	REQUIRE(inject.failed_block != SSC_NONE);
	CHECK_EQ(c->blocks[inject.failed_block].state, SSC_BLK_RETIRED);
	CHECK_EQ(st.checkpoints, st0.checkpoints + 1);
	CHECK_EQ(st.retired_blocks, st0.retired_blocks + 1);
	CHECK_EQ(st.cache_blocks, st0.cache_blocks - 1);
	for (uint32_t i = 0; i < c->slot_blocks; i++) {
		CHECK(c->meta_cur[i] != inject.failed_block);
	}
	verify(c, &m, erase ? "after a checkpoint block's erase failed"
			    : "after a checkpoint page's program failed");
	printf("checkpoint block %u failed its %s: retired, the checkpoint went to blocks %u..%u "
	       "(listed), the write-dirty succeeded\n", inject.failed_block,
	       erase ? "erase" : "program", c->meta_cur[0], c->meta_cur[c->slot_blocks - 1]);
	/* a crash: the newest checkpoint is the one written elsewhere; nothing dirty lost */
	fte_close(&e);
	fte_reopen(&e);
	REQUIRE(st_mount(&e, &c) == 0);
	CHECK_EQ(c->blocks[inject.failed_block].state, SSC_BLK_RETIRED);
	ss_ssc_get_stats(c, &st);
	CHECK_EQ(st.retired_blocks, st0.retired_blocks + 1);
	verify(c, &m, "after a crash and a mount");
	/* and on: writes, an unmount, a mount */
	for (uint32_t i = 0; i < 200; i++) {
		k = (uint32_t)(fte_rand(&rnd) % DIRTY_SPACE);
		st_fill(buf, BASE + k, ++version);
		REQUIRE(ss_ssc_write_dirty(c, BASE + k, buf) == 0);
		m.ver[k] = version;
		m.dirty[k] = 1;
	}
	CHECK_EQ(ss_ssc_unmount(c), 0);
	fte_close(&e);
	fte_reopen(&e);
	REQUIRE(st_mount(&e, &c) == 0);
	verify(c, &m, "after an unmount and a mount");
	fte_destroy(&e);
}

static void test_checkpoint_erase_fails(void) { checkpoint_block_fails(true); }
static void test_checkpoint_program_fails(void) { checkpoint_block_fails(false); }

/* An image of checkpoint version 4 (a fixed metadata window, before checkpoints moved into
 * the pool): mount refuses it with -SS_EPROTO, and ss_ssc_image_version() names 4. The
 * header is the version-4 layout: magic, version, epoch, ..., body pages at 44, a CRC of
 * bytes 0..123 at 124 (an empty body here). */
static void test_old_version_refused(void)
{
	struct ss_geometry g = fte_geo(24, 16);
	static uint8_t page[ST_PAGE];
	uint8_t spare[64];
	struct ssc_spare s = { .kind = SSC_KIND_CKPT, .lba = 3, .seq = 0 };
	struct ss_ssc *c = NULL;
	uint32_t version = 0;
	struct fte e;

	fte_create(&e, &g, 100000);
	memset(page, 0, sizeof(page));
	ss_put_le32(page, SSC_CKPT_MAGIC);
	ss_put_le32(page + 4, 4);
	ss_put_le64(page + 8, 3);
	ss_put_le32(page + 32, ss_geo_blocks(&g));
	ss_put_le32(page + 36, g.pages_per_block);
	ss_put_le32(page + 40, ST_PAGE);
	ss_put_le32(page + 44, 0);
	ss_put_le32(page + 124, ss_crc32c(0, page, 124));
	s.data_crc = ss_crc32c(0, page, ST_PAGE);
	memset(spare, 0xFF, sizeof(spare));
	ssc_spare_encode(spare, &s);
	REQUIRE(ss_hal_page_program(e.hal, 0, page, spare) == 0);
	CHECK_EQ(st_mount(&e, &c), -SS_EPROTO);
	CHECK_EQ(ss_ssc_image_version(e.hal, e.hal->dram, e.hal->dram_size, &version), 0);
	CHECK_EQ(version, 4);
	/* a format starts a version-5 cache on it */
	{
		struct ss_ssc_params p;

		ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
		REQUIRE(st_format(&e, &c, &p) == 0);
		CHECK_EQ(ss_ssc_unmount(c), 0);
		CHECK_EQ(st_mount(&e, &c), 0);
		CHECK_EQ(ss_ssc_image_version(e.hal, e.hal->dram, e.hal->dram_size, &version), 0);
		CHECK_EQ(version, SSC_CKPT_VERSION);
	}
	fte_destroy(&e);
}

int main(void)
{
	RUN(test_checkpoint_erase_fails);
	RUN(test_checkpoint_program_fails);
	RUN(test_old_version_refused);
	RUN(test_checkpoint_wear_spread);
	RUN(test_pinned_cold_data_wear_spread);
	RUN(test_retire_worn_blocks);
	RUN(test_retire_failed_erase);
	return fte_failures ? 1 : 0;
}
