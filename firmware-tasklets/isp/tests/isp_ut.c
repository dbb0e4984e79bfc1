/*
 * The engine over the fake store and HAL: registry and create/execute errors, records and
 * pages delivered with their LBAs and origins (records as descriptors and as runs, alike
 * in content, callbacks and counts), a tasklet's memo kept across callbacks but not runs,
 * output through page-sized writes, slices
 * and the run order (first come, first served), the batch pipeline on the modelled
 * timelines, and failure containment (steps, budget, params, output space, vanished input)
 * with the engine still serving other instances afterwards.
 */
#include "ss_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_store.h"
#include "isp_internal.h"

#define PS 512u

static struct fake_store *fs;
static struct ss_isp *isp;
static void *arena;

struct calls {
	int init, recs, pages, finish;
};
static struct calls calls;

/* ---- test tasklets ------------------------------------------------------------------- */

struct collect_item {
	uint64_t oid, off, lba;
	uint32_t len, crc;
};

static int collect_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	calls.init++;
	if (n >= 4 && ss_get_le32(p) == 0xBAD) {
		return -SS_EINVAL;
	}
	return 0;
}

static int collect_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	calls.recs++;
	for (uint32_t i = 0; i < n; i++) {
		struct ss_record_origin o;
		struct collect_item it;

		CHECK(ss_tasklet_record_origin(ctx, &r[i], &o) == 0);
		CHECK(o.page_offset == o.offset / PS * PS);
		it = (struct collect_item){ .oid = o.oid, .off = o.offset, .lba = r[i].lba,
					    .len = r[i].len, .crc = ss_crc32c(0, r[i].data, r[i].len) };
		int rc = ss_tasklet_emit(ctx, &it, sizeof(it));
		if (rc) {
			return rc;
		}
	}
	/* a record from outside the batch has no origin */
	{
		struct ss_record other = r[0];
		struct ss_record_origin o;

		CHECK(ss_tasklet_record_origin(ctx, &other, &o) == -SS_EINVAL);
	}
	return 0;
}

static int collect_finish(struct ss_tasklet_ctx *ctx)
{
	calls.finish++;
	return ss_tasklet_emit(ctx, "END!", 4);
}

static const struct ss_tasklet_desc collect = {
	.name = "collect", .id = 100, .init = collect_init, .on_records = collect_recs,
	.finish = collect_finish,
};

/* collect's items from runs: each record's descriptor and origin as on_records has them. */
static int collect_runs(struct ss_tasklet_ctx *ctx, const struct ss_record_run *runs,
			uint32_t nruns)
{
	struct ss_record r;
	struct ss_record_origin o;

	calls.recs++;
	for (uint32_t k = 0; k < nruns; k++) {
		for (uint32_t i = 0; i < runs[k].n; i++) {
			struct collect_item it;
			int rc;

			CHECK(ss_tasklet_run_record(ctx, &runs[k], i, &r, &o) == 0);
			CHECK(r.data == runs[k].data + (size_t)i * r.len);
			CHECK(o.page_offset == o.offset / PS * PS);
			it = (struct collect_item){ .oid = o.oid, .off = o.offset, .lba = r.lba,
						    .len = r.len, .crc = ss_crc32c(0, r.data, r.len) };
			rc = ss_tasklet_emit(ctx, &it, sizeof(it));
			if (rc) {
				return rc;
			}
		}
	}
	/* past a run's end, a run from outside the batch: no record; no descriptors either */
	{
		struct ss_record_run other = runs[0];

		CHECK(ss_tasklet_run_record(ctx, &runs[0], runs[0].n, &r, &o) == -SS_EINVAL);
		CHECK(ss_tasklet_run_record(ctx, &other, 0, &r, NULL) == -SS_EINVAL);
		r.data = runs[0].data;
		CHECK(ss_tasklet_record_origin(ctx, &r, &o) == -SS_EINVAL);
	}
	return 0;
}

/* TEXT records still reach on_records: this one only counts its records. */
static int collect_runs_text(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	(void)ctx;
	(void)r;
	calls.recs += (int)n;
	return 0;
}

static const struct ss_tasklet_desc collect_in_runs = {
	.name = "collect-runs", .id = 103, .init = collect_init, .on_records = collect_runs_text,
	.finish = collect_finish, .on_record_runs = collect_runs,
};

/* ss_tasklet_memo's first word counts callbacks, its last one records; finish emits them. */
static int memo_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	uint64_t *m = ss_tasklet_memo(ctx);

	(void)r;
	calls.recs++;
	m[0]++;
	m[SS_TASKLET_MEMO_BYTES / 8 - 1] += n;
	return 0;
}

static int memo_finish(struct ss_tasklet_ctx *ctx)
{
	const uint64_t *m = ss_tasklet_memo(ctx);
	uint64_t v[2] = { m[0], m[SS_TASKLET_MEMO_BYTES / 8 - 1] };

	return ss_tasklet_emit(ctx, v, sizeof(v));
}

static const struct ss_tasklet_desc memo_user = {
	.name = "memo", .id = 104, .init = collect_init, .on_records = memo_recs,
	.finish = memo_finish,
};

static int pages_on(struct ss_tasklet_ctx *ctx, const uint8_t *page, uint32_t len, uint64_t lba)
{
	struct collect_item it = { .lba = lba, .len = len, .crc = ss_crc32c(0, page, len) };

	calls.pages++;
	/* heavy compute per page: 200 counted loads */
	for (uint32_t i = 0; i < 200; i++) {
		(void)ss_load32(ctx, page + (i * 4) % (len & ~3u));
	}
	return ss_tasklet_emit(ctx, &it, sizeof(it));
}

static const struct ss_tasklet_desc pages = {
	.name = "pages", .id = 101, .init = collect_init, .on_page = pages_on,
	.finish = collect_finish,
};

/* Misbehaving tasklets; the param selects the misbehaviour. */
enum { BAD_RUNAWAY = 1, BAD_IGNORE_ETIME, BAD_HOG, BAD_HOG_IGNORE, BAD_CHATTY, BAD_STOP,
       BAD_FAIL_FINISH };

static uint32_t bad_mode;

static int bad_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	calls.init++;
	if (n != 4) {
		return -SS_EINVAL;
	}
	bad_mode = ss_get_le32(p);
	return 0;
}

static int bad_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	int rc;

	calls.recs++;
	switch (bad_mode) {
	case BAD_RUNAWAY:
		for (;;) {
			rc = ss_tasklet_step(ctx, 1);
			if (rc) {
				return rc;
			}
		}
	case BAD_IGNORE_ETIME:
		while (ss_tasklet_step(ctx, 7) == 0) {
		}
		return 0;
	case BAD_HOG:
		for (;;) {
			if (!ss_tasklet_alloc(ctx, 1000)) {
				return -SS_ENOMEM;
			}
		}
	case BAD_HOG_IGNORE:
		(void)ss_tasklet_alloc(ctx, 1u << 30);
		return 0;
	case BAD_CHATTY:
		for (uint32_t i = 0; i < n; i++) {
			rc = ss_tasklet_emit(ctx, r[i].data, r[i].len);
			if (rc) {
				return rc;
			}
		}
		return 0;
	case BAD_STOP:
		return calls.recs == 2 ? SS_TASKLET_DONE : 0;
	default:
		return 0;
	}
}

static int bad_finish(struct ss_tasklet_ctx *ctx)
{
	calls.finish++;
	return bad_mode == BAD_FAIL_FINISH ? -SS_EPROTO : 0;
}

static const struct ss_tasklet_desc bad = {
	.name = "bad", .id = 102, .init = bad_init, .on_records = bad_recs, .finish = bad_finish,
};

/* ---- helpers ------------------------------------------------------------------------- */

static const struct ss_layout fixed37 = { .kind = SS_LAYOUT_FIXED, .record_size = 37, .nfields = 1,
					  .fields = { { .offset = 0, .type = SS_FIELD_U32 } } };

static uint8_t *pattern(uint64_t n, uint32_t seed)
{
	uint8_t *d = malloc(n);

	for (uint64_t i = 0; i < n; i++) {
		d[i] = (uint8_t)((i * 2654435761u + seed) >> 7);
	}
	return d;
}

static void setup(void)
{
	struct ss_isp *x;
	uint64_t need;

	fs = fake_store_new(PS);
	need = ss_isp_dram_needed(&fs->hal.geo);
	CHECK(need >= SS_ISP_POOL_BYTES + 2ull * SS_ISP_BATCH_PAGES * PS);
	arena = malloc(need + 7);
	CHECK(ss_isp_init(&x, fake_store_os(fs), &fs->hal, (uint8_t *)arena + 3, need) == 0);
	isp = x;
	CHECK(ss_isp_register(isp, &collect) == 0);
	CHECK(ss_isp_register(isp, &collect_in_runs) == 0);
	CHECK(ss_isp_register(isp, &memo_user) == 0);
	CHECK(ss_isp_register(isp, &pages) == 0);
	CHECK(ss_isp_register(isp, &bad) == 0);
}

static void teardown(void)
{
	fake_store_free(fs);
	free(arena);
}

static void run_all(uint32_t slice_pages)
{
	int guard = 0;

	while (ss_isp_run_slice(isp, slice_pages)) {
		CHECK(++guard < 100000);
	}
}

static struct ss_isp_progress run_one(uint32_t inst, const struct ss_isp_input *in, uint32_t n)
{
	struct ss_isp_progress p;

	memset(&calls, 0, sizeof(calls));
	CHECK(ss_isp_execute(isp, inst, in, n) == 0);
	run_all(1000);
	CHECK(ss_isp_poll(isp, inst, &p) == 0);
	return p;
}

/* Expected collect output for FIXED records of `rs` in [s, e) of an object. */
static size_t expect_fixed(struct collect_item *out, ss_oid_t oid, const uint8_t *d,
			   uint64_t size, uint32_t rs, uint64_t s, uint64_t e, int inline_obj)
{
	size_t n = 0;

	for (uint64_t p = 0; p + rs <= size; p += rs) {
		if (p >= s && p < e) {
			out[n++] = (struct collect_item){
				.oid = oid, .off = p, .len = rs, .crc = ss_crc32c(0, d + p, rs),
				.lba = inline_obj ? SS_ISP_LBA_NONE
						  : (uint64_t)fake_store_lpn(oid, p / PS) * (PS / 512) };
		}
	}
	return n;
}

static void check_output(ss_oid_t out, const struct collect_item *exp, size_t n)
{
	uint64_t len;
	const uint8_t *d = fake_store_data(fs, out, &len);

	CHECK(len == n * sizeof(*exp) + 4);
	for (size_t i = 0; i < n; i++) {
		struct collect_item g;

		memcpy(&g, d + i * sizeof(g), sizeof(g));
		CHECK(g.oid == exp[i].oid && g.off == exp[i].off && g.lba == exp[i].lba &&
		       g.len == exp[i].len && g.crc == exp[i].crc);
	}
	CHECK(memcmp(d + n * sizeof(*exp), "END!", 4) == 0);
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_registry_and_create(void)
{
	static const struct ss_tasklet_desc dup_id = { .name = "other", .id = 100,
						       .init = collect_init, .on_records = collect_recs,
						       .finish = collect_finish };
	static const struct ss_tasklet_desc dup_name = { .name = "collect", .id = 900,
							 .init = collect_init, .on_records = collect_recs,
							 .finish = collect_finish };
	static const struct ss_tasklet_desc both = { .name = "both", .id = 901, .init = collect_init,
						     .on_records = collect_recs, .on_page = pages_on,
						     .finish = collect_finish };
	static const struct ss_tasklet_desc runs_alone = { .name = "runs", .id = 902,
							   .init = collect_init,
							   .on_record_runs = collect_runs,
							   .finish = collect_finish };
	static struct ss_tasklet_desc many[SS_ISP_MAX_TASKLETS];
	static char names[SS_ISP_MAX_TASKLETS][8];
	ss_oid_t out = fake_store_output(fs);
	ss_oid_t file = fake_store_put(fs, "x", 1, 0);
	struct ss_layout lay;
	uint32_t ids[SS_ISP_MAX_INSTANCES];
	uint32_t id;
	int rc = 0;

	CHECK(ss_isp_register(isp, &dup_id) == -SS_EEXIST);
	CHECK(ss_isp_register(isp, &dup_name) == -SS_EEXIST);
	CHECK(ss_isp_register(isp, &both) == -SS_EINVAL);
	CHECK(ss_isp_register(isp, &runs_alone) == -SS_EINVAL);   /* TEXT records need on_records */
	CHECK(ss_isp_find(isp, 100) == &collect && ss_isp_find(isp, 999) == NULL);
	CHECK(ss_isp_find_name(isp, "pages", 5) == &pages);
	CHECK(ss_isp_find_name(isp, "page", 4) == NULL);
	for (uint32_t i = 0; i < SS_ISP_MAX_TASKLETS && rc == 0; i++) {
		snprintf(names[i], sizeof(names[i]), "t%u", i);
		many[i] = (struct ss_tasklet_desc){ .name = names[i], .id = 1000 + i, .init = collect_init,
						    .on_records = collect_recs, .finish = collect_finish };
		rc = ss_isp_register(isp, &many[i]);
	}
	CHECK(rc == -SS_ENOSPC);

	CHECK(ss_isp_create(isp, 77, NULL, 0, &fixed37, 0, 0, out, &id) == -SS_ENOENT);
	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 0, 0, 200, &id) == -SS_ENOENT);
	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 0, 0, file, &id) == -SS_EINVAL);
	CHECK(ss_isp_create(isp, 100, NULL, 0, NULL, 0, 0, out, &id) == -SS_EINVAL);
	CHECK(ss_isp_create(isp, 100, "x", SS_ISP_MAX_PARAMS + 1, &fixed37, 0, 0, out, &id) ==
	       -SS_EINVAL);
	lay = fixed37;
	lay.fields[0].offset = 34;          /* u32 past the record's end */
	CHECK(ss_isp_create(isp, 100, NULL, 0, &lay, 0, 0, out, &id) == -SS_EINVAL);
	lay = fixed37;
	lay.fields[0].type = SS_FIELD_DECIMAL + 1;   /* past the last type */
	CHECK(ss_isp_create(isp, 100, NULL, 0, &lay, 0, 0, out, &id) == -SS_EINVAL);
	lay = fixed37;
	lay.kind = 3;
	CHECK(ss_isp_create(isp, 100, NULL, 0, &lay, 0, 0, out, &id) == -SS_EINVAL);
	lay = (struct ss_layout){ .kind = SS_LAYOUT_TEXT, .line_delim = ',', .field_sep = ',',
				  .record_size = 10 };
	CHECK(ss_isp_create(isp, 100, NULL, 0, &lay, 0, 0, out, &id) == -SS_EINVAL);
	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, SS_ISP_POOL_BYTES, 0, out, &id) ==
	       -SS_ENOMEM);
	/* a page tasklet may go without a layout */
	CHECK(ss_isp_create(isp, 101, NULL, 0, NULL, 0, 0, out, &id) == 0);
	CHECK(ss_isp_destroy(isp, id) == 0);
	CHECK(ss_isp_destroy(isp, id) == -SS_ENOENT);

	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 1000, 0, out, &ids[i]) == 0);
	}
	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 1000, 0, out, &id) == -SS_ENOSPC);
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		CHECK(ss_isp_destroy(isp, ids[i]) == 0);
	}
	/* with everything returned, one instance can take nearly the whole pool */
	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, SS_ISP_POOL_BYTES - 4 * PS, 0, out, &id) == 0);
	{
		struct ss_isp_input in = { .oid = file, .offset = 0, .length = 1 };

		CHECK(ss_isp_execute(isp, id, &in, 0) == -SS_EINVAL);
		in.oid = out;
		CHECK(ss_isp_execute(isp, id, &in, 1) == -SS_EINVAL);
		in.oid = 250;
		CHECK(ss_isp_execute(isp, id, &in, 1) == -SS_ENOENT);
		in.oid = SS_OID_ROOT;
		CHECK(ss_isp_execute(isp, id, &in, 1) == -SS_EINVAL);
		CHECK(ss_isp_execute(isp, 12345, &in, 1) == -SS_ENOENT);
	}
	CHECK(ss_isp_destroy(isp, id) == 0);
}

/* The same records, batches and counts through `tasklet` (collect, 100, or collect-runs, 103);
 * *whole: the progress of a run over a whole object. */
static void records_and_splits(uint32_t tasklet, struct ss_isp_progress *whole, int *whole_calls)
{
	uint64_t size = 300 * PS + 123;     /* three batches, records straddle pages */
	uint8_t *d = pattern(size, 1);
	ss_oid_t f = fake_store_put(fs, d, size, 0);
	ss_oid_t small = fake_store_put(fs, d, 200, 1);
	ss_oid_t out = fake_store_output(fs);
	struct collect_item *exp = malloc(sizeof(*exp) * (size / 37 + 16));
	struct ss_isp_progress p;
	uint32_t id;
	size_t n;

	CHECK(ss_isp_create(isp, tasklet, NULL, 0, &fixed37, 4096, 0, out, &id) == 0);

	/* whole object */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		p = run_one(id, &in, 1);
		*whole = p;
		*whole_calls = calls.recs;
		CHECK(p.state == SS_ISP_DONE && p.error == 0);
		n = expect_fixed(exp, f, d, size, 37, 0, size, 0);
		check_output(out, exp, n);
		CHECK(p.records == n);
		CHECK(p.pages_done == p.pages_total && p.pages_total == 301);
		CHECK(p.output_bytes == n * sizeof(*exp) + 4);
		CHECK(calls.init == 1 && calls.finish == 1);
		CHECK(fs->log.max_account_pages <= SS_ISP_BATCH_PAGES);
		CHECK(fs->log.reads_off_isp == 0 && fs->log.timeline == SS_HAL_TL_HOST);
	}
	/* several inputs in one run: odd splits of the big object and an inline one */
	{
		struct ss_isp_input in[] = {
			{ .oid = f, .offset = 1000, .length = 7777 },
			{ .oid = small, .offset = 0, .length = 1000 },
			{ .oid = f, .offset = 8777, .length = 77 },
			{ .oid = f, .offset = 100000, .length = 1 << 30 },
		};

		p = run_one(id, in, 4);
		CHECK(p.state == SS_ISP_DONE);
		n = expect_fixed(exp, f, d, size, 37, 1000, 8777, 0);
		n += expect_fixed(exp + n, small, d, 200, 37, 0, 200, 1);
		n += expect_fixed(exp + n, f, d, size, 37, 8777, 8777 + 77, 0);
		n += expect_fixed(exp + n, f, d, size, 37, 100000, size, 0);
		check_output(out, exp, n);
		CHECK(p.records == n);
	}
	/* small slices: progress moves by at most the slice, the run goes on to its end */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint64_t last = 0;

		CHECK(ss_isp_busy(isp) == 0);
		CHECK(ss_isp_execute(isp, id, &in, 1) == 0);
		CHECK(ss_isp_busy(isp) == 1);           /* queued, not started */
		CHECK(ss_isp_execute(isp, id, &in, 1) == -SS_EBUSY);
		CHECK(ss_isp_set_output_limit(isp, id, 10) == -SS_EBUSY);
		while (ss_isp_run_slice(isp, 7)) {
			CHECK(ss_isp_busy(isp) == 1);
			CHECK(ss_isp_poll(isp, id, &p) == 0);
			CHECK(p.pages_done - last <= 7);
			last = p.pages_done;
		}
		CHECK(ss_isp_busy(isp) == 0);
		CHECK(ss_isp_busy(NULL) == 0);
		CHECK(ss_isp_poll(isp, id, &p) == 0 && p.state == SS_ISP_DONE);
		n = expect_fixed(exp, f, d, size, 37, 0, size, 0);
		check_output(out, exp, n);
	}
	CHECK(ss_isp_destroy(isp, id) == 0);
	free(exp);
	free(d);
}

static void test_records_and_splits(void)
{
	struct ss_isp_progress recs, runs;
	int recs_calls, runs_calls;

	records_and_splits(100, &recs, &recs_calls);
	records_and_splits(103, &runs, &runs_calls);
	/* the runs came in the same callbacks, charged alike */
	CHECK(runs_calls == recs_calls && runs.records == recs.records);
	CHECK(runs.instructions == recs.instructions && runs.dram_accesses == recs.dram_accesses);
	CHECK(runs.finished_ns - runs.started_ns == recs.finished_ns - recs.started_ns);
}

/* What a tasklet keeps in ss_tasklet_memo lasts from one callback to the next, not from
 * one run to the next: a second run of the same instance starts from zeros. */
static void test_memo(void)
{
	uint64_t size = 300 * PS + 123;
	uint8_t *d = pattern(size, 5);
	ss_oid_t f = fake_store_put(fs, d, size, 0);
	ss_oid_t out = fake_store_output(fs);
	struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	uint32_t id;

	CHECK(ss_isp_create(isp, 104, NULL, 0, &fixed37, 4096, 0, out, &id) == 0);
	for (int run = 0; run < 2; run++) {
		struct ss_isp_progress p = run_one(id, &in, 1);
		uint64_t len, v[2];
		const uint8_t *o = fake_store_data(fs, out, &len);

		CHECK(p.state == SS_ISP_DONE && len == sizeof(v));
		memcpy(v, o, sizeof(v));
		CHECK(calls.recs > 1 && v[0] == (uint64_t)calls.recs);
		CHECK(v[1] == size / 37 && v[1] == p.records);
	}
	CHECK(ss_isp_destroy(isp, id) == 0);
	free(d);
}

static void test_pages_pipeline(void)
{
	uint64_t size = 640 * PS + 100;
	uint8_t *d = pattern(size, 9);
	ss_oid_t f = fake_store_put(fs, d, size, 0);
	ss_oid_t out = fake_store_output(fs);
	struct ss_isp_input in = { .oid = f, .offset = PS + 1, .length = size };
	struct ss_isp_progress p;
	uint64_t t_read, t_isp, t, reads0;
	uint64_t len;
	const uint8_t *o;
	uint32_t id;

	CHECK(ss_isp_create(isp, 101, NULL, 0, NULL, 0, 0, out, &id) == 0);
	memset(&fs->log, 0, sizeof(fs->log));
	fs->log.timeline = SS_HAL_TL_HOST;
	reads0 = fs->reads;
	p = run_one(id, &in, 1);
	CHECK(p.state == SS_ISP_DONE);
	/* pages whose first byte is in the range: 2..640 */
	CHECK(p.pages_done == 639 && calls.pages == 639 && p.records == 639);
	o = fake_store_data(fs, out, &len);
	CHECK(len == 639 * sizeof(struct collect_item) + 4);
	for (uint32_t i = 0; i < 639; i++) {
		struct collect_item g;
		uint64_t pg = i + 2, off = pg * PS;
		uint32_t plen = (uint32_t)SS_MIN((uint64_t)PS, size - off);

		memcpy(&g, o + i * sizeof(g), sizeof(g));
		CHECK(g.lba == (uint64_t)fake_store_lpn(f, pg) * (PS / 512));
		CHECK(g.len == plen && g.crc == ss_crc32c(0, d + off, plen));
	}
	/* counts charged equal counts reported; the probe's loads are all there */
	CHECK(fs->log.insn == p.instructions && fs->log.dram == p.dram_accesses);
	CHECK(fs->log.pages == 639);
	CHECK(p.dram_accesses >= 639ull * 200);
	/* the pipeline: batch reads overlap the compute of the batch before */
	t_read = (fs->reads - reads0) * FAKE_READ_NS;
	t_isp = fs->log.insn * FAKE_INSN_NS + fs->log.dram * FAKE_DRAM_NS;
	t = p.finished_ns - p.started_ns;
	CHECK(t >= SS_MAX(t_read, t_isp));
	CHECK(t < t_read + t_isp - SS_MIN(t_read, t_isp) / 2);
	CHECK(fs->log.reads_off_isp == 0);
	CHECK(ss_isp_destroy(isp, id) == 0);
	free(d);
}

static struct ss_isp_progress run_bad(uint32_t mode, uint64_t steps, uint32_t budget,
				      ss_oid_t f, uint64_t size, ss_oid_t out, uint32_t *idp)
{
	uint8_t prm[4];
	struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	uint32_t id;

	ss_put_le32(prm, mode);
	CHECK(ss_isp_create(isp, 102, prm, 4, &fixed37, budget, steps, out, &id) == 0);
	*idp = id;
	return run_one(id, &in, 1);
}

/* After a failure the engine still runs other work exactly. */
static void check_still_serves(ss_oid_t f, const uint8_t *d, uint64_t size)
{
	ss_oid_t out = fake_store_output(fs);
	struct collect_item *exp = malloc(sizeof(*exp) * (size / 37 + 1));
	struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	struct ss_isp_progress p;
	uint32_t id;
	size_t n;

	CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 64, 0, out, &id) == 0);
	p = run_one(id, &in, 1);
	CHECK(p.state == SS_ISP_DONE);
	n = expect_fixed(exp, f, d, size, 37, 0, size, 0);
	check_output(out, exp, n);
	CHECK(ss_isp_destroy(isp, id) == 0);
	free(exp);
}

static void test_failures(void)
{
	uint64_t size = 200 * PS;
	uint8_t *d = pattern(size, 3);
	ss_oid_t f = fake_store_put(fs, d, size, 0);
	ss_oid_t out = fake_store_output(fs);
	struct ss_isp_progress p;
	uint32_t id;

	/* runaway loop stopped by the step limit; finish never called */
	p = run_bad(BAD_RUNAWAY, 5000, 0, f, size, out, &id);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME);
	CHECK(calls.recs == 1 && calls.finish == 0);
	CHECK(ss_isp_destroy(isp, id) == 0);
	check_still_serves(f, d, size);

	/* a tasklet that swallows -SS_ETIME is stopped all the same */
	p = run_bad(BAD_IGNORE_ETIME, 5000, 0, f, size, out, &id);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME && calls.recs == 1 &&
	       calls.finish == 0);
	CHECK(ss_isp_destroy(isp, id) == 0);

	/* allocation past the budget */
	p = run_bad(BAD_HOG, 0, 10000, f, size, out, &id);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOMEM && calls.finish == 0);
	CHECK(ss_isp_destroy(isp, id) == 0);
	p = run_bad(BAD_HOG_IGNORE, 0, 10000, f, size, out, &id);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOMEM && calls.recs == 1);
	/* the same instance runs again from scratch once its input is sane */
	{
		uint8_t prm[4];

		ss_put_le32(prm, 0);
		CHECK(ss_isp_destroy(isp, id) == 0);
		CHECK(ss_isp_create(isp, 102, prm, 4, &fixed37, 10000, 0, out, &id) == 0);
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		p = run_one(id, &in, 1);
		CHECK(p.state == SS_ISP_DONE && calls.finish == 1);
		CHECK(ss_isp_destroy(isp, id) == 0);
	}
	check_still_serves(f, d, size);

	/* bad params: init's -SS_EINVAL fails the instance before any input */
	{
		uint8_t prm[4];
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		ss_put_le32(prm, 0xBAD);
		CHECK(ss_isp_create(isp, 100, prm, 4, &fixed37, 0, 0, out, &id) == 0);
		p = run_one(id, &in, 1);
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_EINVAL);
		CHECK(calls.init == 1 && calls.recs == 0 && calls.finish == 0 && p.pages_done == 0);
		CHECK(ss_isp_destroy(isp, id) == 0);
	}

	/* output cap */
	{
		uint8_t prm[4];
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		ss_put_le32(prm, BAD_CHATTY);
		CHECK(ss_isp_create(isp, 102, prm, 4, &fixed37, 0, 0, out, &id) == 0);
		CHECK(ss_isp_set_output_limit(isp, id, 3 * PS + 5) == 0);
		p = run_one(id, &in, 1);
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOSPC && calls.finish == 0);
		CHECK(p.output_bytes <= 3 * PS + 5);
		/* store full */
		CHECK(ss_isp_set_output_limit(isp, id, UINT64_MAX) == 0);
		fs->fail_writes = 1;
		p = run_one(id, &in, 1);
		fs->fail_writes = 0;
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOSPC);
		CHECK(ss_isp_destroy(isp, id) == 0);
	}

	/* finish failing, and early stop */
	p = run_bad(BAD_FAIL_FINISH, 0, 0, f, size, out, &id);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_EPROTO && calls.finish == 1);
	CHECK(ss_isp_destroy(isp, id) == 0);
	p = run_bad(BAD_STOP, 0, 0, f, size, out, &id);
	CHECK(p.state == SS_ISP_DONE && calls.recs == 2 && calls.finish == 1);
	CHECK(p.pages_done < p.pages_total);
	CHECK(ss_isp_destroy(isp, id) == 0);

	/* A page that fails its read fails the run after the batch before it is computed
	 * (its read overlaps that compute), and a run that ends before needing it does not
	 * fail. Slices of 10 pages: batches of 10, the next read while one is computed. */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint8_t prm[4];

		fs->bad_page = 1 + 25;
		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 0, 0, out, &id) == 0);
		CHECK(ss_isp_execute(isp, id, &in, 1) == 0);
		run_all(10);
		CHECK(ss_isp_poll(isp, id, &p) == 0);
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_EIO);
		CHECK(p.pages_done == 20 && p.records == 20 * PS / 37);
		CHECK(ss_isp_destroy(isp, id) == 0);

		/* BAD_STOP ends at its second call: the end of batch 0 (138 records) */
		fs->bad_page = 1 + 15;
		ss_put_le32(prm, BAD_STOP);
		memset(&calls, 0, sizeof(calls));
		CHECK(ss_isp_create(isp, 102, prm, 4, &fixed37, 0, 0, out, &id) == 0);
		CHECK(ss_isp_execute(isp, id, &in, 1) == 0);
		run_all(10);
		CHECK(ss_isp_poll(isp, id, &p) == 0);
		CHECK(p.state == SS_ISP_DONE && calls.recs == 2 && p.pages_done == 10);
		CHECK(ss_isp_destroy(isp, id) == 0);
		fs->bad_page = 0;
		check_still_serves(f, d, size);
	}

	/* the input vanishes mid-run */
	{
		ss_oid_t g = fake_store_put(fs, d, size, 0);
		struct ss_isp_input in = { .oid = g, .offset = 0, .length = size };

		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 0, 0, out, &id) == 0);
		CHECK(ss_isp_execute(isp, id, &in, 1) == 0);
		CHECK(ss_isp_run_slice(isp, 10) == 1);
		fake_store_remove(fs, g);
		run_all(10);
		CHECK(ss_isp_poll(isp, id, &p) == 0);
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOENT);
		CHECK(ss_isp_destroy(isp, id) == 0);
	}

	/* destroying a running instance stops it; another completes */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 0, 0, out, &id) == 0);
		CHECK(ss_isp_execute(isp, id, &in, 1) == 0);
		CHECK(ss_isp_run_slice(isp, 10) == 1);
		CHECK(ss_isp_destroy(isp, id) == 0);
		CHECK(ss_isp_run_slice(isp, 10) == 0);
		check_still_serves(f, d, size);
	}
	free(d);
}

/* Three runs executed in the order 2, 0, 1 (not their slots' order) are computed in that
 * order, each to its end before the next starts, and read each page of theirs once; none
 * is reported done before the last is computed, as all three share the core (their
 * shared times: test_shared_times). */
static void test_concurrent(void)
{
	uint64_t size = 150 * PS + 3;
	uint8_t *d = pattern(size, 5);
	ss_oid_t f = fake_store_put(fs, d, size, 0);
	ss_oid_t out[3];
	uint32_t id[3];
	const int order[3] = { 2, 0, 1 };
	struct collect_item *exp = malloc(sizeof(*exp) * (size / 37 + 1));
	uint64_t cuts[4] = { 0, 999, 50 * PS + 17, size };
	uint64_t reads0, pages_run = 0;
	int guard = 0, more;

	for (int i = 0; i < 3; i++) {
		out[i] = fake_store_output(fs);
		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 128, 0, out[i], &id[i]) == 0);
	}
	for (int k = 0; k < 3; k++) {
		int i = order[k];
		struct ss_isp_input in = { .oid = f, .offset = cuts[i], .length = cuts[i + 1] - cuts[i] };

		CHECK(ss_isp_execute(isp, id[i], &in, 1) == 0);
	}
	reads0 = fs->reads;
	do {
		struct ss_isp_progress p;

		more = ss_isp_run_slice(isp, 5);
		CHECK(++guard < 100000);
		for (int k = 0; k < 3; k++) {
			CHECK(ss_isp_poll(isp, id[order[k]], &p) == 0);
			CHECK(p.state == (more ? SS_ISP_RUNNING : SS_ISP_DONE));
			for (int j = 0; j < k && p.pages_done; j++) {
				struct ss_isp_progress e;

				CHECK(ss_isp_poll(isp, id[order[j]], &e) == 0);
				CHECK(e.pages_done == e.pages_total);
			}
		}
	} while (more);
	for (int i = 0; i < 3; i++) {
		struct ss_isp_progress p;
		size_t n = expect_fixed(exp, f, d, size, 37, cuts[i], cuts[i + 1], 0);

		CHECK(ss_isp_poll(isp, id[i], &p) == 0 && p.state == SS_ISP_DONE);
		pages_run += p.pages_done;
		check_output(out[i], exp, n);
		CHECK(ss_isp_destroy(isp, id[i]) == 0);
	}
	CHECK(fs->reads - reads0 == pages_run);
	free(exp);
	free(d);
}

/* Three runs reaching the core at different times share it, as worked out by hand from
 * their spans alone (a, b, c) and arrivals (T0, T0 + d1, T0 + d2): A alone until B arrives;
 * A and B halves until B ends at T0 + d1 + 2b; A alone until C arrives; A and C halves
 * until C ends at T0 + d2 + 2c; A alone to T0 + a + b + c. A computed run is not reported
 * done while a run still to compute arrives before its end. */
static void test_shared_times(void)
{
	const uint64_t sizes[3] = { 400 * PS, 10 * PS, 60 * PS };
	ss_oid_t f[3], out[3];
	uint32_t id[3];
	uint64_t span[3], t0, arrive[3];
	struct ss_isp_progress p;
	int guard = 0;

	for (int i = 0; i < 3; i++) {
		uint8_t *d = pattern(sizes[i], 11 + i);
		struct ss_isp_input in = { .offset = 0, .length = sizes[i] };

		f[i] = fake_store_put(fs, d, sizes[i], 0);
		free(d);
		out[i] = fake_store_output(fs);
		CHECK(ss_isp_create(isp, 100, NULL, 0, &fixed37, 128, 0, out[i], &id[i]) == 0);
		in.oid = f[i];
		p = run_one(id[i], &in, 1);
		CHECK(p.state == SS_ISP_DONE);
		span[i] = p.finished_ns - p.started_ns;
	}
	t0 = fs->log.issue;
	arrive[0] = t0;
	arrive[1] = t0 + span[0] / 4;
	arrive[2] = t0 + span[0] / 2;
	CHECK(arrive[2] >= arrive[1] + 2 * span[1] && t0 + span[0] - (arrive[2] - span[1]) > span[2]);
	for (int i = 0; i < 3; i++) {
		struct ss_isp_input in = { .oid = f[i], .offset = 0, .length = sizes[i] };

		CHECK(ss_isp_execute(isp, id[i], &in, 1) == 0);
		ss_isp_not_before(isp, arrive[i]);
	}
	/* A computed (B has begun): B and C, still to compute, arrive before A's end */
	do {
		CHECK(ss_isp_run_slice(isp, 8) == 1);
		CHECK(++guard < 100000);
		CHECK(ss_isp_poll(isp, id[1], &p) == 0);
	} while (p.pages_done == 0);
	CHECK(ss_isp_poll(isp, id[0], &p) == 0);
	CHECK(p.state == SS_ISP_RUNNING && p.finished_ns == 0 && p.pages_done == p.pages_total);
	run_all(8);

	CHECK(ss_isp_poll(isp, id[1], &p) == 0 && p.state == SS_ISP_DONE);
	CHECK(p.started_ns == arrive[1] && p.finished_ns == arrive[1] + 2 * span[1]);
	CHECK(ss_isp_poll(isp, id[0], &p) == 0 && p.state == SS_ISP_DONE);
	CHECK(p.started_ns == t0 && p.finished_ns == t0 + span[0] + span[1] + span[2]);
	CHECK(ss_isp_poll(isp, id[2], &p) == 0 && p.state == SS_ISP_DONE);
	CHECK(p.started_ns == arrive[2] && p.finished_ns == arrive[2] + 2 * span[2]);
	/* the core's time is the spans' sum: the last end is the first start plus all three */
	CHECK(fs->log.issue == t0 + span[0] + span[1] + span[2]);
	for (int i = 0; i < 3; i++) {
		CHECK(ss_isp_destroy(isp, id[i]) == 0);
	}
}

int main(void)
{
	setup();
	/* first: test_pages_pipeline sets the fake hal's clock back to 0, which a hal's clock
	 * never does, and the shared schedule is fixed up to where it was */
	test_shared_times();
	test_registry_and_create();
	test_records_and_splits();
	test_memo();
	test_pages_pipeline();
	test_failures();
	test_concurrent();
	teardown();
	printf("isp_ut: ok\n");
	return 0;
}
