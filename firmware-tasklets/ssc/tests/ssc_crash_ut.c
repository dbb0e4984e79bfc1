/* Crash consistency (Saxena ch. 4, §4.2.5): power fails at a chosen point of the cache's
 * own writes (the k-th operation-log page, data page (host write or merge copy),
 * checkpoint page, or erase), dropped before it, torn (programmed with a flipped byte), or right after it.
 * Deterministic: each round's point comes from the round number and a fixed seed. The
 * test keeps its own model of what was acknowledged; after each recovery:
 *   - no read returns stale data (only the newest acknowledged version, or the version of
 *     the write in flight at the cut);
 *   - no acknowledged dirty block is lost, and exists() reports it;
 *   - an acknowledged evict stays evicted;
 *   - clean blocks may be missing.
 * SS_CRASH_ITERATIONS sets the rounds per policy (default 50). */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ssc_internal.h"
#include "ssc_test.h"

#define NLBA 1200u
#define DIRTY_LBAS 480u     /* dirty writes stay within these: the cache never fills */
#define OPS 500u
#define KIND_ERASE 0

/* FAIL_EIO: not a power cut: the program fails (-EIO, nothing written) and power stays */
enum mode { CUT_BEFORE = 0, CUT_TORN = 1, CUT_AFTER = 2, FAIL_EIO = 3 };
/* CLEANED: written dirty, then cleaned; the clean may be lost in a crash (the block is
 * dirty again) or have let the cache drop it. */
enum need { ABSENT = 0, DIRTY = 1, CLEAN_MAYBE = 2, CLEANED = 3 };
enum op { O_WDIRTY, O_WCLEAN, O_EVICT, O_CLEAN, O_READ, O_FLUSH };

struct cutter {
	struct ss_hal hal;
	struct ss_hal_ops ops;
	struct ss_hal *inner;
	int kind;             /* SSC_KIND_* or KIND_ERASE; -1: never cut */
	unsigned long long at;
	enum mode mode;
	unsigned long long seen[5];
	int cut;
};

static int c_read(void *ctx, uint32_t ppn, void *d, void *s)
{
	struct cutter *x = ctx;

	return ss_hal_page_read(x->inner, ppn, d, s);
}

static int c_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	static uint8_t torn[1 << 16];
	struct cutter *x = ctx;
	const uint8_t *sp = spare;
	int kind = ss_get_le32(sp) == SSC_SPARE_MAGIC && sp[4] < 5 ? sp[4] : 0;
	int rc;

	if (x->cut) {
		return 0;   /* power is gone; the firmware never learns */
	}
	/* every kind is counted, so that an uncut run can say where a cut would fall */
	if (kind == 0 || x->seen[kind]++ != x->at || x->kind != kind) {
		return ss_hal_page_program(x->inner, ppn, data, spare);
	}
	if (x->mode == FAIL_EIO) {
		return -SS_EIO;
	}
	x->cut = 1;
	switch (x->mode) {
	case CUT_BEFORE:
		return 0;
	case CUT_TORN:
		memcpy(torn, data, x->inner->geo.page_size);
		torn[x->inner->geo.page_size / 3] ^= 0x10;
		rc = ss_hal_page_program(x->inner, ppn, torn, spare);
		return rc;
	default:
		return ss_hal_page_program(x->inner, ppn, data, spare);
	}
}

static int c_erase(void *ctx, uint32_t block)
{
	struct cutter *x = ctx;

	if (x->cut) {
		return 0;
	}
	if (x->seen[0]++ == x->at && x->kind == KIND_ERASE) {
		x->cut = 1;
		return x->mode == CUT_AFTER ? ss_hal_block_erase(x->inner, block) : 0;
	}
	return ss_hal_block_erase(x->inner, block);
}

static int c_sync(void *ctx)
{
	struct cutter *x = ctx;

	return x->cut ? 0 : ss_hal_sync(x->inner);
}

static void c_barrier(void *ctx) { ss_hal_barrier(((struct cutter *)ctx)->inner); }
static void c_timeline(void *ctx, enum ss_hal_timeline tl)
{
	ss_hal_set_timeline(((struct cutter *)ctx)->inner, tl);
}
static void c_isp(void *ctx, uint64_t i, uint64_t d, uint64_t p)
{
	ss_hal_isp_account(((struct cutter *)ctx)->inner, i, d, p);
}
static uint64_t c_now(void *ctx) { return ss_hal_now_ns(((struct cutter *)ctx)->inner); }

static void cutter_wrap(struct cutter *x, struct ss_hal *inner)
{
	memset(x, 0, sizeof(*x));
	x->inner = inner;
	x->kind = -1;
	x->ops = (struct ss_hal_ops){ .page_read = c_read, .page_program = c_program,
				      .block_erase = c_erase, .sync = c_sync, .barrier = c_barrier,
				      .set_timeline = c_timeline, .isp_account = c_isp,
				      .now_ns = c_now };
	x->hal = *inner;
	x->hal.ops = &x->ops;
	x->hal.ctx = x;
}

static uint64_t lba_of(uint32_t k)
{
	/* 16-block groups scattered over the 64-bit space */
	return (uint64_t)(k / 16) * 0x10000000001ull + k % 16;
}

struct model {
	uint64_t ver[NLBA];
	uint8_t need[NLBA];
};

struct tally {
	unsigned rounds, cut_rounds, uncut_rounds, bad, by_kind[5], by_mode[3];
	unsigned long long replayed_max, silent, dirty_checked;
};

static const char *kind_name(int k)
{
	static const char *n[] = { "erase", "data", "-", "log", "checkpoint" };

	return k >= 0 && k < 5 ? n[k] : "?";
}

static int read_ver(struct ss_ssc *c, uint32_t k, long long *v)
{
	static uint8_t buf[ST_PAGE];
	int rc = ss_ssc_read(c, lba_of(k), buf);

	*v = rc == 0 ? st_classify(buf, lba_of(k)) : rc == SS_SSC_MISS ? 0 : -1;
	return rc;
}

/* Run operations until the cut or OPS. \return the index of the op in flight at the cut
 * (its kind in *fop, key in *fk, version in *fv), or -1 when no cut happened. */
/* The cutter's event counts before and after the n-th operation that migrated cold data
 * (static wear-levelling), seen in a run that was not cut; for erases, on to the end of
 * the later operation that erased the cold block it freed. */
struct probe {
	unsigned want;               /* which migrating operation (0: the first) */
	unsigned found;              /* migrating operations seen so far */
	unsigned long long before[5], after[5];
	int hit;
	uint32_t cold;               /* the block it freed, until its erase; else SSC_NONE */
	uint32_t cold_erases;
};

/* The block a migration freed: a data block before, free now, the least erased of those
 * (the victim is the least erased data block; a merge in the same operation may free
 * others). */
static uint32_t freed_cold_block(const struct ss_ssc *c, const uint8_t *was_data)
{
	uint32_t v = SSC_NONE;

	for (uint32_t b = 0; b < c->nblocks; b++) {
		if (was_data[b] && c->blocks[b].state == SSC_BLK_FREE &&
		    (v == SSC_NONE || c->blocks[b].erase_count < c->blocks[v].erase_count)) {
			v = b;
		}
	}
	return v;
}

static int run_ops(struct ss_ssc *c, struct cutter *x, struct model *m, uint64_t *seed,
		   uint64_t *version, enum op *fop, uint32_t *fk, uint64_t *fv, uint32_t ops,
		   struct probe *pr)
{
	static uint8_t buf[ST_PAGE];
	static uint8_t was_data[4096];

	REQUIRE(c->nblocks <= sizeof(was_data));
	for (uint32_t i = 0; i < ops; i++) {
		uint64_t migrations = c->st.wear_level_migrations;
		unsigned long long seen[5];
		uint32_t r = (uint32_t)(fte_rand(seed) % 100);
		enum op op = r < 35 ? O_WCLEAN : r < 60 ? O_WDIRTY : r < 70 ? O_EVICT :
			     r < 80 ? O_CLEAN : r < 95 ? O_READ : O_FLUSH;
		uint32_t k = (uint32_t)(fte_rand(seed) % (op == O_WDIRTY ? DIRTY_LBAS : NLBA));
		uint64_t v = *version + 1;
		long long got;
		int rc = 0;

		memcpy(seen, x->seen, sizeof(seen));
		if (pr && !pr->hit) {
			for (uint32_t b = 0; b < c->nblocks && b < sizeof(was_data); b++) {
				was_data[b] = c->blocks[b].state == SSC_BLK_DATA;
			}
		}
		switch (op) {
		case O_WDIRTY:
		case O_WCLEAN:
			*version = v;
			st_fill(buf, lba_of(k), v);
			rc = op == O_WDIRTY ? ss_ssc_write_dirty(c, lba_of(k), buf)
					    : ss_ssc_write_clean(c, lba_of(k), buf);
			break;
		case O_EVICT:
			rc = ss_ssc_evict(c, lba_of(k));
			break;
		case O_CLEAN:
			rc = ss_ssc_clean(c, lba_of(k));
			break;
		case O_READ:
			rc = read_ver(c, k, &got);
			if (!x->cut) {
				int ok = m->need[k] == DIRTY ? got == (long long)m->ver[k]
					 : m->need[k] == ABSENT ? got == 0
					 : got == 0 || got == (long long)m->ver[k];

				if (!ok) {
					fprintf(stderr, "read of %u during the run: %lld, model v%llu "
						"need %d\n", k, got, (unsigned long long)m->ver[k],
						m->need[k]);
					fte_failures++;
				}
				rc = 0;
			}
			break;
		case O_FLUSH:
			rc = ss_ssc_flush(c);
			break;
		}
		if (x->cut) {
			*fop = op;
			*fk = k;
			*fv = v;
			return (int)i;
		}
		if (pr && !pr->hit && c->st.wear_level_migrations != migrations &&
		    pr->found++ == pr->want) {
			memcpy(pr->before, seen, sizeof(seen));
			memcpy(pr->after, x->seen, sizeof(seen));
			pr->hit = 1;
			pr->cold = freed_cold_block(c, was_data);
			if (pr->cold != SSC_NONE) {
				pr->cold_erases = c->blocks[pr->cold].erase_count;
			}
		} else if (pr && pr->hit && pr->cold != SSC_NONE &&
			   c->blocks[pr->cold].erase_count != pr->cold_erases) {
			pr->after[KIND_ERASE] = x->seen[KIND_ERASE];
			pr->cold = SSC_NONE;
		}
		if (rc == -SS_ENOSPC && (op == O_WDIRTY || op == O_WCLEAN)) {
			continue;   /* refused: nothing changed */
		}
		if (rc < 0) {
			fprintf(stderr, "op %d on %u failed: %d\n", (int)op, k, rc);
			fte_failures++;
			return -2;
		}
		if (op == O_WDIRTY) {
			m->ver[k] = v;
			m->need[k] = DIRTY;
		} else if (op == O_WCLEAN && m->need[k] != DIRTY) {
			m->ver[k] = v;
			m->need[k] = CLEAN_MAYBE;
		} else if (op == O_EVICT) {
			m->ver[k] = 0;
			m->need[k] = ABSENT;
		} else if (op == O_CLEAN && m->need[k] == DIRTY) {
			m->need[k] = CLEANED;
		}
	}
	return -1;
}

/* Check every block after recovery from the cut `where` x made (at a write of `kind`);
 * the observed state becomes the next round's base, and bad blocks count in t->bad. */
static void check_recovered(struct ss_ssc *c, struct model *m, int inflight, enum op fop,
			    uint32_t fk, uint64_t fv, unsigned round, struct tally *t,
			    const char *where, const struct cutter *x, int kind)
{
	static uint8_t bm[NLBA / 8 + 1];
	unsigned bad = 0;

	for (uint32_t k = 0; k < NLBA; k++) {
		long long got;
		int bit, ok, touched = inflight >= 0 && k == fk &&
				       (fop == O_WDIRTY || fop == O_WCLEAN || fop == O_EVICT ||
					fop == O_CLEAN);
		int rc = read_ver(c, k, &got);

		CHECK_EQ(ss_ssc_exists(c, lba_of(k), 1, bm), 0);
		bit = bm[0] & 1;
		ok = rc >= 0 && got >= 0;
		if (ok) {
			switch (m->need[k]) {
			case DIRTY:
				ok = got == (long long)m->ver[k] && bit;
				t->dirty_checked++;
				break;
			case ABSENT:
				ok = got == 0 && !bit;
				break;
			case CLEANED:
				ok = got == (long long)m->ver[k] || (got == 0 && !bit);
				break;
			default:
				ok = (got == 0 || got == (long long)m->ver[k]) && !bit;
				break;
			}
		}
		if (!ok && touched) {
			/* the operation in flight may have happened, wholly */
			ok = (fop == O_WDIRTY && got == (long long)fv && bit) ||
			     (fop == O_WCLEAN && (got == (long long)fv || got == 0) && !bit) ||
			     (fop == O_EVICT && got == 0 && !bit) ||
			     (fop == O_CLEAN && got == (long long)m->ver[k]);
		}
		if (!ok) {
			if (bad < 5) {
				fprintf(stderr, "round %u: block %u reads %lld (rc %d) exists %d; "
					"model v%llu need %d; in flight op %d on %u v%llu\n", round, k,
					got, rc, bit, (unsigned long long)m->ver[k], m->need[k],
					inflight >= 0 ? (int)fop : -1, fk, (unsigned long long)fv);
			}
			bad++;
			continue;
		}
		m->ver[k] = got > 0 ? (uint64_t)got : 0;
		m->need[k] = got == 0 ? ABSENT : bit ? DIRTY : CLEAN_MAYBE;
	}
	if (bad) {
		fprintf(stderr, "round %u: %s at %s #%llu mode %d: %u bad blocks\n", round, where,
			kind_name(kind), x->at, (int)x->mode, bad);
	}
	t->bad += bad;
}

static unsigned crash_iterations(void)
{
	const char *env = getenv("SS_CRASH_ITERATIONS");

	return env ? (unsigned)strtoul(env, NULL, 10) : 50;
}

static void crash_series(enum ss_ssc_policy pol)
{
	unsigned iterations = crash_iterations();
	struct ss_geometry g = fte_geo(16, 16);
	static struct model m;
	struct ss_ssc_params p;
	struct ss_ssc *c = NULL;
	struct tally t;
	uint64_t rnd = 0x5EED0000u + (unsigned)pol, version = 0;
	struct fte e;

	memset(&m, 0, sizeof(m));
	memset(&t, 0, sizeof(t));
	ss_ssc_default_params(&p, pol);
	fte_create(&e, &g, 0);
	CHECK_EQ(st_format(&e, &c, &p), 0);
	fte_close(&e);
	for (unsigned it = 0; it < iterations; it++) {
		static const int kinds[10] = { SSC_KIND_LOG, SSC_KIND_LOG, SSC_KIND_LOG,
					       SSC_KIND_LOG, SSC_KIND_LOG, SSC_KIND_DATA,
					       SSC_KIND_DATA, SSC_KIND_CKPT, SSC_KIND_DATA,
					       KIND_ERASE };
		static const unsigned long long range[5] = { 60, 300, 200, 300, 40 };
		struct cutter x;
		struct ss_ssc_stats st;
		uint64_t seed = fte_rand(&rnd), fv = 0;
		enum op fop = O_READ;
		uint32_t fk = 0;
		int inflight;

		fte_reopen(&e);
		cutter_wrap(&x, e.hal);
		if (ss_ssc_mount(&c, &x.hal, e.hal->dram, e.hal->dram_size) != 0) {
			CHECK(0);
			break;
		}
		x.kind = kinds[it % 10];
		x.mode = (enum mode)((it / 10 + it) % 3);
		x.at = fte_rand(&rnd) % range[x.kind];
		memset(x.seen, 0, sizeof(x.seen));
		inflight = run_ops(c, &x, &m, &seed, &version, &fop, &fk, &fv, OPS, NULL);
		if (inflight == -2) {
			break;
		}
		ss_ssc_get_stats(c, &st);
		t.silent += st.silent_evicted_pages;
		if (inflight >= 0) {
			t.cut_rounds++;
			t.by_kind[x.kind]++;
			t.by_mode[x.mode]++;
		} else {
			t.uncut_rounds++;
		}
		fte_close(&e);   /* power off: what the flash holds is what stays */
		fte_reopen(&e);
		if (st_mount(&e, &c) != 0) {
			fprintf(stderr, "round %u: mount failed after a cut at %s #%llu mode %d\n", it,
				kind_name(x.kind), x.at, (int)x.mode);
			CHECK(0);
			break;
		}
		ss_ssc_get_stats(c, &st);
		t.replayed_max = SS_MAX(t.replayed_max, st.replayed_records);
		check_recovered(c, &m, inflight, fop, fk, fv, it, &t, "cut", &x, x.kind);
		t.rounds++;
		fte_close(&e);
		if (t.bad) {
			break;
		}
	}
	printf("crash consistency, policy %s: %u of %u rounds (%u cut: log %u, data %u, "
	       "checkpoint %u, erase %u; before %u, torn %u, after %u; %u ran out uncut), "
	       "%llu dirty blocks checked, %llu silently evicted pages, max replay %llu records, "
	       "%u bad blocks\n", pol == SS_SSC_POLICY_SSC ? "SSC" : "SSC-V", t.rounds,
	       iterations, t.cut_rounds, t.by_kind[SSC_KIND_LOG], t.by_kind[SSC_KIND_DATA],
	       t.by_kind[SSC_KIND_CKPT], t.by_kind[KIND_ERASE],
	       t.by_mode[0], t.by_mode[1], t.by_mode[2], t.uncut_rounds, t.dirty_checked, t.silent,
	       t.replayed_max, t.bad);
	CHECK_EQ(t.rounds, iterations);
	CHECK_EQ(t.bad, 0);
	CHECK(iterations == 0 || t.cut_rounds >= iterations / 2);
	CHECK(iterations < 10 || t.dirty_checked > 0);
	fte_destroy(&e);
}

/*
 * Power cuts inside a static wear-levelling migration: at one of its copies (data pages),
 * at the log page that commits its SSC_R_MERGE record, or at an erase of its operation
 * (the most erased free block it moves to, the cold block it frees), dropped, torn or
 * right after. Each round formats a fresh cache with levelling forced often (threshold
 * WL_FORCED_DELTA, one migration per WL_FORCED_EVERY erases), runs the workload once
 * uncut to find the events of its n-th migrating operation (for erases, up to the erase of
 * the cold block it freed, usually in a later operation), then runs the same workload
 * again from a fresh format and cuts at one of those events (the runs are deterministic:
 * same flash, same seed). After the mount the model of what was acknowledged holds.
 */
#define WL_FORCED_DELTA 2u
#define WL_FORCED_EVERY 2u
#define WL_OPS 2000u

static struct ss_ssc *fresh_cache(struct fte *e, struct cutter *x, struct ss_geometry *g,
				  enum ss_ssc_policy pol)
{
	struct ss_ssc_params p;
	struct ss_ssc *c = NULL;

	ss_ssc_default_params(&p, pol);
	fte_create(e, g, 0);
	cutter_wrap(x, e->hal);
	REQUIRE(ss_ssc_format(&c, &x->hal, e->hal->dram, e->hal->dram_size, &p) == 0);
	c->wl_delta = WL_FORCED_DELTA;
	c->wl_every = WL_FORCED_EVERY;
	return c;
}

static void migration_crash_series(enum ss_ssc_policy pol)
{
	unsigned iterations = crash_iterations();
	struct ss_geometry g = fte_geo(16, 16);
	static struct model m;
	struct tally t;
	uint64_t rnd = 0x3161u + (unsigned)pol;
	unsigned cut_copies = 0, cut_logs = 0, cut_erases = 0, no_migration = 0;
	unsigned long long migrations = 0;

	memset(&t, 0, sizeof(t));
	for (unsigned it = 0; it < iterations; it++) {
		static const int kinds[3] = { SSC_KIND_DATA, SSC_KIND_LOG, KIND_ERASE };
		struct probe pr = { .want = it % 8, .cold = SSC_NONE };
		uint64_t seed = fte_rand(&rnd), s2 = seed, version = 0, fv = 0;
		unsigned long long span;
		enum op fop = O_READ;
		struct ss_ssc *c;
		struct cutter x;
		uint32_t fk = 0;
		int inflight, kind;
		struct fte e;

		/* the uncut run: where is the migration? */
		memset(&m, 0, sizeof(m));
		c = fresh_cache(&e, &x, &g, pol);
		inflight = run_ops(c, &x, &m, &seed, &version, &fop, &fk, &fv, WL_OPS, &pr);
		REQUIRE(inflight == -1);
		migrations += c->st.wear_level_migrations;
		fte_destroy(&e);
		if (!pr.hit) {
			no_migration++;
			continue;
		}
		/* the same run, cut at one of that operation's events */
		/* a migration of an emptied data block copies nothing: another kind then */
		for (unsigned j = 0; j < 3; j++) {
			kind = kinds[(it + j) % 3];
			span = pr.after[kind] - pr.before[kind];
			if (span > 0) {
				break;
			}
		}
		REQUIRE(span > 0);
		memset(&m, 0, sizeof(m));
		version = 0;
		c = fresh_cache(&e, &x, &g, pol);
		x.kind = kind;
		x.mode = (enum mode)((it / 3 + it) % 3);
		x.at = pr.before[kind] + fte_rand(&rnd) % span;
		inflight = run_ops(c, &x, &m, &s2, &version, &fop, &fk, &fv, WL_OPS, NULL);
		REQUIRE(inflight >= 0);
		cut_copies += kind == SSC_KIND_DATA;
		cut_logs += kind == SSC_KIND_LOG;
		cut_erases += kind == KIND_ERASE;
		t.by_mode[x.mode]++;
		fte_close(&e);
		fte_reopen(&e);
		if (st_mount(&e, &c) != 0) {
			fprintf(stderr, "round %u: mount failed after a cut in a migration at %s #%llu "
				"mode %d\n", it, kind_name(kind), x.at, (int)x.mode);
			CHECK(0);
			fte_destroy(&e);
			break;
		}
		check_recovered(c, &m, inflight, fop, fk, fv, it, &t, "cut in a migration", &x, kind);
		t.cut_rounds++;
		fte_destroy(&e);
		if (t.bad) {
			break;
		}
	}
	printf("crashes inside migrations, policy %s: %u of %u rounds cut in a migrating "
	       "operation (at a data page %u, a log page %u, an erase %u; before %u, torn %u, "
	       "after %u), %u without a migration, %llu migrations in the uncut runs, %llu dirty "
	       "blocks checked, %u bad blocks\n", pol == SS_SSC_POLICY_SSC ? "SSC" : "SSC-V",
	       t.cut_rounds, iterations, cut_copies, cut_logs, cut_erases, t.by_mode[0],
	       t.by_mode[1], t.by_mode[2], no_migration, migrations, t.dirty_checked, t.bad);
	CHECK_EQ(t.bad, 0);
	CHECK(iterations == 0 || t.cut_rounds >= iterations * 3 / 4);
	CHECK(iterations < 10 || (cut_copies > 0 && cut_logs > 0 && cut_erases > 0));
}

/* A log page that fails to program must not hide the records committed after it: every
 * write-dirty acknowledged after the failure survives a remount. */
static void test_log_program_failure(void)
{
	static uint8_t buf[ST_PAGE];
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ssc_params p;
	struct ss_ssc *c = NULL;
	struct cutter x;
	struct fte e;
	uint32_t acked = 0;

	ss_ssc_default_params(&p, SS_SSC_POLICY_SSC);
	fte_create(&e, &g, 0);
	cutter_wrap(&x, e.hal);
	CHECK_EQ(ss_ssc_format(&c, &x.hal, e.hal->dram, e.hal->dram_size, &p), 0);
	x.kind = SSC_KIND_LOG;
	x.mode = FAIL_EIO;
	x.at = 3;
	memset(x.seen, 0, sizeof(x.seen));
	for (uint32_t k = 0; k < 40; k++) {
		st_fill(buf, lba_of(k), 7);
		if (ss_ssc_write_dirty(c, lba_of(k), buf) == 0) {
			acked++;
		} else {
			CHECK(0);
		}
	}
	CHECK_EQ(acked, 40);
	CHECK(x.seen[SSC_KIND_LOG] > 3);   /* the failure happened, and logging went on */
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(st_mount(&e, &c), 0);
	for (uint32_t k = 0; k < 40 && c != NULL; k++) {
		long long v;

		CHECK_EQ(read_ver(c, k, &v), 0);
		CHECK_EQ(v, 7);
	}
	fte_destroy(&e);
}

static void test_crash_ssc(void) { crash_series(SS_SSC_POLICY_SSC); }
static void test_crash_sscv(void) { crash_series(SS_SSC_POLICY_SSC_V); }
static void test_crash_in_migration_ssc(void) { migration_crash_series(SS_SSC_POLICY_SSC); }
static void test_crash_in_migration_sscv(void) { migration_crash_series(SS_SSC_POLICY_SSC_V); }

int main(void)
{
	RUN(test_log_program_failure);
	RUN(test_crash_ssc);
	RUN(test_crash_sscv);
	RUN(test_crash_in_migration_ssc);
	RUN(test_crash_in_migration_sscv);
	return fte_failures ? 1 : 0;
}
