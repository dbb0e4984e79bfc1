/*
 * The engine end to end on the real object store over the emulated flash: FIXED records
 * and TEXT lines straddling pages and batches, splits at odd offsets, LBAs checked against
 * the store's extents, host I/O between slices, the model's counters matching the
 * engine's, and failures (runaway loop, over budget, bad params) after which the store
 * still reads and writes and another instance runs to completion.
 */
#include "ss_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tenv.h"

/* Emits per record: offset (8), lba (8), len (4), crc32c (4). */
#define ITEM 24

static int collect_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	if (n == 4 && ss_get_le32(p) == 0xBAD) {
		return -SS_EINVAL;
	}
	return n == 0 || n == 4 ? 0 : -SS_EINVAL;
}

static int collect_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ss_record_origin o;
		uint8_t it[ITEM];
		int rc;

		if (ss_tasklet_record_origin(ctx, &r[i], &o)) {
			return -SS_EFAULT;
		}
		ss_put_le64(it, o.offset);
		ss_put_le64(it + 8, r[i].lba);
		ss_put_le32(it + 16, r[i].len);
		ss_put_le32(it + 20, ss_crc32c(0, r[i].data, r[i].len));
		ss_tasklet_dram(ctx, (r[i].len + 3) / 4);
		rc = ss_tasklet_emit(ctx, it, ITEM);
		if (rc) {
			return rc;
		}
	}
	return 0;
}

static int collect_finish(struct ss_tasklet_ctx *ctx)
{
	return 0;
}

static const struct ss_tasklet_desc collect = {
	.name = "collect", .id = 200, .init = collect_init, .on_records = collect_recs,
	.finish = collect_finish,
};

static int runaway_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	for (;;) {
		int rc = ss_tasklet_step(ctx, 1);

		if (rc) {
			return rc;
		}
	}
}

static int hog_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	return ss_tasklet_alloc(ctx, 4096) ? 0 : -SS_ENOMEM;
}

static int finish_called;

static int flag_finish(struct ss_tasklet_ctx *ctx)
{
	finish_called++;
	return 0;
}

static const struct ss_tasklet_desc runaway = {
	.name = "runaway", .id = 201, .init = collect_init, .on_records = runaway_recs,
	.finish = flag_finish,
};
static const struct ss_tasklet_desc hog = {
	.name = "hog", .id = 202, .init = collect_init, .on_records = hog_recs,
	.finish = flag_finish,
};

static struct tenv *env;
static uint32_t ps;

struct ref {
	uint64_t off;
	uint32_t len;
};

/* Check a collect output against reference records of object `oid` holding `d`. */
static void check_collect(ss_oid_t out, ss_oid_t oid, const uint8_t *d, const struct ref *ref,
			  size_t n)
{
	uint64_t len;
	uint8_t *o = tenv_read(env, out, &len);

	CHECK(len == n * ITEM);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *it = o + i * ITEM;

		CHECK(ss_get_le64(it) == ref[i].off);
		CHECK(ss_get_le64(it + 8) == tenv_page_lba(env, oid, ref[i].off / ps));
		CHECK(ss_get_le32(it + 16) == ref[i].len);
		CHECK(ss_get_le32(it + 20) == ss_crc32c(0, d + ref[i].off, ref[i].len));
	}
	free(o);
}

static struct ss_isp_progress run(uint32_t tasklet, const struct ss_layout *lay, uint32_t budget,
				  uint64_t steps, const void *prm, uint32_t plen, ss_oid_t out,
				  const struct ss_isp_input *in, uint32_t n)
{
	struct ss_isp_progress p;
	uint32_t id;

	CHECK(ss_isp_create(tenv_isp(env), tasklet, prm, plen, lay, budget, steps, out, &id) == 0);
	p = tenv_run(env, id, in, n);
	CHECK(ss_isp_destroy(tenv_isp(env), id) == 0);
	return p;
}

static size_t fixed_refs(struct ref *r, uint64_t size, uint32_t rs, uint64_t s, uint64_t e)
{
	size_t n = 0;

	for (uint64_t p = 0; p + rs <= size; p += rs) {
		if (p >= s && p < e) {
			r[n++] = (struct ref){ p, rs };
		}
	}
	return n;
}

static const struct ss_layout fixed36 = { .kind = SS_LAYOUT_FIXED, .record_size = 36 };

static void test_fixed(ss_oid_t *fp, uint8_t **dp, uint64_t *sizep)
{
	uint64_t size = 200ull * ps + 1000;
	uint8_t *d = malloc(size);
	ss_oid_t f, out = tenv_output(env, "fixed.out");
	struct ref *ref = malloc(sizeof(*ref) * (size / 36 + 1));
	uint64_t cuts[] = { 0, 1, 35, 36, 8191, 8192 * 3 + 7, 128ull * ps + 5, size };
	struct tenv_isp_counts c0, c1;
	struct ss_isp_progress p;
	size_t n;

	for (uint64_t i = 0; i < size; i++) {
		d[i] = (uint8_t)(i * 7 + (i >> 11));
	}
	f = tenv_put(env, "fixed.bin", d, size);

	/* whole object: counters of the model agree with the engine's */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		tenv_isp_counts(env, &c0);
		p = run(200, &fixed36, 0, 0, NULL, 0, out, &in, 1);
		tenv_isp_counts(env, &c1);
		CHECK(p.state == SS_ISP_DONE && p.error == 0);
		n = fixed_refs(ref, size, 36, 0, size);
		check_collect(out, f, d, ref, n);
		CHECK(p.records == n && p.pages_done == 201 && p.pages_total == 201);
		CHECK(c1.pages - c0.pages == p.pages_done);
		CHECK(c1.dram - c0.dram == p.dram_accesses);
		CHECK(c1.insn - c0.insn == p.instructions);
		CHECK(p.finished_ns > p.started_ns);
	}
	/* splits: each equals the reference of its range, and together they are the whole */
	{
		size_t total = 0;

		for (size_t i = 0; i + 1 < SS_ARRAY_SIZE(cuts); i++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[i], .length = cuts[i + 1] - cuts[i] };

			p = run(200, &fixed36, 0, 0, NULL, 0, out, &in, 1);
			CHECK(p.state == SS_ISP_DONE);
			n = fixed_refs(ref, size, 36, cuts[i], cuts[i + 1]);
			check_collect(out, f, d, ref, n);
			total += n;
		}
		CHECK(total == size / 36);
	}
	free(ref);
	*fp = f;
	*dp = d;
	*sizep = size;
}

static void test_text(void)
{
	uint64_t cap = 150ull * ps, size = 0;
	uint8_t *d = malloc(cap);
	struct ref *ref = malloc(sizeof(*ref) * cap);
	const struct ss_layout lay = { .kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = ' ',
				       .record_size = 3 * 8192 };
	ss_oid_t f, out = tenv_output(env, "text.out");
	size_t nl = 0;
	uint32_t seed = 1;

	while (size < cap - 1) {
		seed = seed * 1103515245 + 12345;
		uint32_t len = (seed >> 8) % 300;

		if (nl % 97 == 5) {
			len = 2 * 8192 + 100;   /* a line over more than two pages */
		}
		if (size + len + 1 > cap) {
			len = (uint32_t)(cap - size - 1);
		}
		ref[nl++] = (struct ref){ size, len };
		for (uint32_t k = 0; k < len; k++) {
			d[size++] = (uint8_t)('a' + (k + seed) % 26);
		}
		d[size++] = '\n';
	}
	f = tenv_put(env, "text.txt", d, size);
	{
		uint64_t cuts[] = { 0, 4095, 8192, 8193, 60000, 128ull * ps, size };
		size_t total = 0;

		for (size_t i = 0; i + 1 < SS_ARRAY_SIZE(cuts); i++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[i], .length = cuts[i + 1] - cuts[i] };
			struct ss_isp_progress p = run(200, &lay, 0, 0, NULL, 0, out, &in, 1);
			size_t a = 0, b;

			CHECK(p.state == SS_ISP_DONE);
			while (a < nl && ref[a].off < cuts[i]) {
				a++;
			}
			for (b = a; b < nl && ref[b].off < cuts[i + 1]; b++) {
			}
			check_collect(out, f, d, ref + a, b - a);
			CHECK(p.records == b - a);
			total += b - a;
		}
		CHECK(total == nl);
	}
	free(ref);
	free(d);
}

/* Host I/O between slices does not disturb a run. */
static void test_host_io_between_slices(ss_oid_t f, const uint8_t *d, uint64_t size)
{
	ss_oid_t out = tenv_output(env, "sliced.out");
	ss_oid_t other = tenv_put(env, "host.bin", d, 5000);
	struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	struct ref *ref = malloc(sizeof(*ref) * (size / 36 + 1));
	struct ss_isp_progress p;
	uint8_t buf[5000];
	uint32_t id, got;
	int k = 0;

	CHECK(ss_isp_create(tenv_isp(env), 200, NULL, 0, &fixed36, 0, 0, out, &id) == 0);
	CHECK(ss_isp_execute(tenv_isp(env), id, &in, 1) == 0);
	while (ss_isp_run_slice(tenv_isp(env), 16)) {
		memset(buf, k & 0xFF, sizeof(buf));
		CHECK(ss_os_write(tenv_os(env), other, 0, buf, sizeof(buf), 0, 1) == 0);
		memset(buf, 0, sizeof(buf));
		CHECK(ss_os_read(tenv_os(env), other, 0, buf, sizeof(buf), &got) == 0 && got == 5000);
		CHECK(buf[0] == (k & 0xFF) && buf[4999] == (k & 0xFF));
		k++;
	}
	CHECK(k >= 12);
	CHECK(ss_isp_poll(tenv_isp(env), id, &p) == 0 && p.state == SS_ISP_DONE);
	check_collect(out, f, d, ref, fixed_refs(ref, size, 36, 0, size));
	CHECK(ss_isp_destroy(tenv_isp(env), id) == 0);
	free(ref);
}

/* The host rewrites a run's input with the same bytes between slices, so GC erases and
 * reprograms the blocks the run's prefetched batch was read from while the batch waits:
 * the run still sees the pages as read. (It guards any reading of pages in place: with
 * a loan that does not outlive the block's erase it fails; benchmarks/README.md, "Third
 * round".) FIXED records a page holds whole, the case such reading would serve. */
static void test_lent_pages_through_gc(void)
{
	static const struct ss_layout fixed32 = { .kind = SS_LAYOUT_FIXED, .record_size = 32 };
	uint64_t size = 300ull * ps;
	uint8_t *d = malloc(size);
	struct ref *ref = malloc(sizeof(*ref) * (size / 32));
	ss_oid_t f, out = tenv_output(env, "lent.out");
	struct ss_isp_input in;
	struct ss_isp_progress p;
	uint32_t id;
	int k = 0;

	for (uint64_t i = 0; i < size; i++) {
		d[i] = (uint8_t)(i * 11 + (i >> 13));
	}
	f = tenv_put(env, "lent.bin", d, size);
	in = (struct ss_isp_input){ .oid = f, .offset = 0, .length = size };
	CHECK(ss_isp_create(tenv_isp(env), 200, NULL, 0, &fixed32, 0, 0, out, &id) == 0);
	CHECK(ss_isp_execute(tenv_isp(env), id, &in, 1) == 0);
	while (ss_isp_run_slice(tenv_isp(env), 16)) {
		CHECK(ss_os_write(tenv_os(env), f, 0, d, (uint32_t)size, 0, 1) == 0);
		k++;
	}
	CHECK(k >= 18);   /* 300 pages, 16 a slice: 45 MiB rewritten on a 32 MiB drive */
	CHECK(ss_isp_poll(tenv_isp(env), id, &p) == 0 && p.state == SS_ISP_DONE);
	CHECK(p.records == size / 32);
	check_collect(out, f, d, ref, fixed_refs(ref, size, 32, 0, size));
	CHECK(ss_isp_destroy(tenv_isp(env), id) == 0);
	free(ref);
	free(d);
}

static void store_still_works(int round)
{
	uint8_t w[10000];
	uint64_t len;
	char name[32];
	uint8_t *back;
	ss_oid_t o;

	for (size_t i = 0; i < sizeof(w); i++) {
		w[i] = (uint8_t)(i * 13 + round);
	}
	snprintf(name, sizeof(name), "after-%d", round);
	o = tenv_put(env, name, w, sizeof(w));
	back = tenv_read(env, o, &len);
	CHECK(len == sizeof(w) && memcmp(back, w, len) == 0);
	free(back);
}

static void test_failures(ss_oid_t f, const uint8_t *d, uint64_t size)
{
	ss_oid_t out = tenv_output(env, "fail.out");
	struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	struct ref *ref = malloc(sizeof(*ref) * (size / 36 + 1));
	size_t n = fixed_refs(ref, size, 36, 0, size);
	uint8_t bad[4];
	struct ss_isp_progress p;

	CHECK(ss_isp_register(tenv_isp(env), &runaway) == 0);
	CHECK(ss_isp_register(tenv_isp(env), &hog) == 0);

	finish_called = 0;
	p = run(201, &fixed36, 0, 100000, NULL, 0, out, &in, 1);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME && finish_called == 0);
	store_still_works(1);
	p = run(200, &fixed36, 0, 0, NULL, 0, out, &in, 1);
	CHECK(p.state == SS_ISP_DONE);
	check_collect(out, f, d, ref, n);

	p = run(202, &fixed36, 64 << 10, 0, NULL, 0, out, &in, 1);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOMEM && finish_called == 0);
	store_still_works(2);
	p = run(200, &fixed36, 0, 0, NULL, 0, out, &in, 1);
	CHECK(p.state == SS_ISP_DONE);
	check_collect(out, f, d, ref, n);

	ss_put_le32(bad, 0xBAD);
	p = run(200, &fixed36, 0, 0, bad, 4, out, &in, 1);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_EINVAL && p.pages_done == 0);
	store_still_works(3);

	/* an output capped below its need */
	{
		uint32_t id;

		CHECK(ss_isp_create(tenv_isp(env), 200, NULL, 0, &fixed36, 0, 0, out, &id) == 0);
		CHECK(ss_isp_set_output_limit(tenv_isp(env), id, 20000) == 0);
		p = tenv_run(env, id, &in, 1);
		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ENOSPC);
		CHECK(ss_isp_destroy(tenv_isp(env), id) == 0);
	}
	store_still_works(4);
	p = run(200, &fixed36, 0, 0, NULL, 0, out, &in, 1);
	CHECK(p.state == SS_ISP_DONE);
	check_collect(out, f, d, ref, n);
	free(ref);
}

int main(void)
{
	ss_oid_t f;
	uint8_t *d;
	uint64_t size;

	env = tenv_open();
	ps = tenv_page_size(env);
	CHECK(ss_isp_register(tenv_isp(env), &collect) == 0);
	test_fixed(&f, &d, &size);
	test_text();
	test_host_io_between_slices(f, d, size);
	test_lent_pages_through_gc();
	test_failures(f, d, size);
	free(d);
	tenv_close(env);
	printf("isp_emu_ut: ok\n");
	return 0;
}
