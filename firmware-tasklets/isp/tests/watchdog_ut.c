/*
 * The tasklet watchdog and the per-callback work budget, on the real object store over the
 * emulated flash. Runaway tasklets: a loop that calls nothing (in init and in on_records),
 * a loop on a counted service that ignores nothing it could, and a loop on
 * ss_tasklet_step that ignores its -SS_ETIME. Each must be stopped with its own error, and
 * afterwards the input reads back byte for byte, the host still writes and reads, and a
 * well-behaved tasklet on the same input gives the right answer.
 */
#include "ss_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tenv.h"

#define REC 32u
#define WATCHDOG_MS 100u
#define BUDGET_WATCHDOG_MS 600000u
#define WORK_MAX (1ull << 20)

static struct tenv *env;

static int no_params(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	(void)ctx;
	(void)p;
	return n == 0 ? 0 : -SS_EINVAL;
}

static int no_finish(struct ss_tasklet_ctx *ctx)
{
	(void)ctx;
	return 0;
}

/* Counts records and sums the first byte of each: the reference answer. */
struct sum_state {
	uint64_t records, sum;
};

static int sum_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	struct sum_state *st = ss_tasklet_alloc(ctx, sizeof(*st));

	(void)p;
	if (st == NULL || n != 0) {
		return st == NULL ? -SS_ENOMEM : -SS_EINVAL;
	}
	ss_tasklet_set_state(ctx, st);
	return 0;
}

static int sum_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct sum_state *st = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		st->records++;
		st->sum += r[i].data[0];
	}
	ss_tasklet_dram(ctx, n);
	return 0;
}

static int sum_finish(struct ss_tasklet_ctx *ctx)
{
	struct sum_state *st = ss_tasklet_state(ctx);
	uint8_t out[16];

	ss_put_le64(out, st->records);
	ss_put_le64(out + 8, st->sum);
	return ss_tasklet_emit(ctx, out, sizeof(out));
}

static volatile uint64_t spins;

static int spin(void)
{
	for (;;) {
		spins++;   /* counts nothing the engine sees: only an interrupt stops this */
	}
	return 0;
}

static int spin_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return spin();
}

static int spin_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	(void)ctx;
	(void)r;
	(void)n;
	return spin();
}

static int dram_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	(void)r;
	(void)n;
	for (;;) {
		ss_tasklet_dram(ctx, 1);   /* counted, and never looks at an error */
	}
	return 0;
}

static int step_recs(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	(void)r;
	(void)n;
	for (;;) {
		(void)ss_tasklet_step(ctx, 1);   /* ignores -SS_ETIME */
	}
	return 0;
}

static const struct ss_tasklet_desc sum = {
	.name = "sum", .id = 220, .init = sum_init, .on_records = sum_recs, .finish = sum_finish,
};
static const struct ss_tasklet_desc spin_in_init = {
	.name = "spin-init", .id = 221, .init = spin_init, .on_records = spin_recs,
	.finish = no_finish,
};
static const struct ss_tasklet_desc spin_in_records = {
	.name = "spin-records", .id = 222, .init = no_params, .on_records = spin_recs,
	.finish = no_finish,
};
static const struct ss_tasklet_desc dram_loop = {
	.name = "dram-loop", .id = 223, .init = no_params, .on_records = dram_recs,
	.finish = no_finish,
};
static const struct ss_tasklet_desc step_loop = {
	.name = "step-loop", .id = 224, .init = no_params, .on_records = step_recs,
	.finish = no_finish,
};

static const struct ss_layout fixed = { .kind = SS_LAYOUT_FIXED, .record_size = REC };

static struct ss_isp_progress run(uint32_t tasklet, uint64_t steps, ss_oid_t out,
				  const struct ss_isp_input *in)
{
	struct ss_isp_progress p;
	uint32_t id;

	CHECK(ss_isp_create(tenv_isp(env), tasklet, NULL, 0, &fixed, 4096, steps, out, &id) == 0);
	p = tenv_run(env, id, in, 1);
	CHECK(ss_isp_destroy(tenv_isp(env), id) == 0);
	return p;
}

/* The drive goes on serving: the input is intact, the host writes and reads, and a good
 * tasklet gives the answer computed here on the reference bytes. */
static void still_serving(ss_oid_t f, const uint8_t *d, uint64_t size, ss_oid_t out, int round)
{
	const struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
	uint64_t len, records = 0, total = 0;
	uint8_t *back = tenv_read(env, f, &len);
	uint8_t w[3000];
	char name[32];
	struct ss_isp_progress p;

	CHECK(len == size && memcmp(back, d, size) == 0);
	free(back);
	memset(w, 0x40 + round, sizeof(w));
	snprintf(name, sizeof(name), "host%d.bin", round);
	ss_oid_t o = tenv_put(env, name, w, sizeof(w));

	back = tenv_read(env, o, &len);
	CHECK(len == sizeof(w) && memcmp(back, w, len) == 0);
	free(back);
	for (uint64_t off = 0; off + REC <= size; off += REC) {
		records++;
		total += d[off];
	}
	p = run(220, 0, out, &in);
	CHECK(p.state == SS_ISP_DONE);
	back = tenv_read(env, out, &len);
	CHECK(len >= 16 && ss_get_le64(back) == records && ss_get_le64(back + 8) == total);
	free(back);
}

int main(void)
{
	uint32_t ps;
	uint64_t size;
	uint8_t *d;
	ss_oid_t f, out;
	struct ss_isp_progress p, p2;

	env = tenv_open();
	ps = tenv_page_size(env);
	size = 40ull * ps;
	d = malloc(size);
	for (uint64_t i = 0; i < size; i++) {
		d[i] = (uint8_t)(i * 2654435761u >> 13);
	}
	f = tenv_put(env, "in.bin", d, size);
	out = tenv_output(env, "out");
	const struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

	CHECK(ss_isp_register(tenv_isp(env), &sum) == 0);
	CHECK(ss_isp_register(tenv_isp(env), &spin_in_init) == 0);
	CHECK(ss_isp_register(tenv_isp(env), &spin_in_records) == 0);
	CHECK(ss_isp_register(tenv_isp(env), &dram_loop) == 0);
	CHECK(ss_isp_register(tenv_isp(env), &step_loop) == 0);
	CHECK(ss_isp_set_limits(tenv_isp(env), 0, WORK_MAX) == -SS_EINVAL);
	CHECK(ss_isp_set_limits(tenv_isp(env), WATCHDOG_MS, WORK_MAX) == 0);
	still_serving(f, d, size, out, 0);

	/* Loops that call nothing: the watchdog, in init and in on_records. */
	p = run(221, 0, out, &in);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIMEDOUT && p.pages_done == 0);
	still_serving(f, d, size, out, 1);
	spins = 0;
	p = run(222, 0, out, &in);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIMEDOUT);
	CHECK(spins > 0);
	still_serving(f, d, size, out, 2);

	/* A loop on a counted service: the work budget, at the same point every time. The
	 * watchdog waits far longer here, so that the budget decides however slowly the
	 * machine runs the loop (Valgrind runs it some 30 times slower). */
	CHECK(ss_isp_set_limits(tenv_isp(env), BUDGET_WATCHDOG_MS, WORK_MAX) == 0);
	p = run(223, 0, out, &in);
	fprintf(stderr, "dram loop: state %u error %d, %llu instructions, %llu DRAM accesses\n",
		p.state, p.error, (unsigned long long)p.instructions,
		(unsigned long long)p.dram_accesses);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME);
	CHECK(p.instructions + p.dram_accesses > WORK_MAX);
	CHECK(p.instructions + p.dram_accesses < WORK_MAX + 4096);
	p2 = run(223, 0, out, &in);
	CHECK(p2.state == SS_ISP_FAILED && p2.error == -SS_ETIME);
	CHECK(p2.instructions == p.instructions && p2.dram_accesses == p.dram_accesses);
	still_serving(f, d, size, out, 3);

	/* A loop that ignores the step limit's -SS_ETIME is stopped at the limit itself. */
	p = run(224, 5000, out, &in);
	CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME);
	CHECK(p.instructions < 5000 + 4096);
	still_serving(f, d, size, out, 4);

	free(d);
	tenv_close(env);
	printf("watchdog_ut: ok\n");
	return 0;
}
