/*
 * parquet-scan's counted work by phase, in a build whose pq_scan.c marks its phases
 * (PQS_PROFILE): not a test, a measuring tool for files too large to commit.
 *
 *     pq_scan_profile [-g N] FILE.parquet PLAN [EXPECT]
 *
 * Runs PLAN as the connector does, a run per N consecutive row groups (default 1; the plan
 * cut to them; the runs' answers together checked against EXPECT when given), and prints
 * each phase's instructions and DRAM accesses summed over those runs; the decoder's share
 * broken down by what it counted (struct ss_pq_stats, charged as pq_scan.c's charge()).
 */
#include "bt_test.h"

#include "isp_internal.h"
#include "pq_items.h"
#include "pq_plan_cut.h"
#include "ss_parquet.h"
#include "ss_test_file.h"
#include "tasklets_internal.h"

#define BUDGET (2u << 20)

static const char *const phase_names[PQS_NPHASES] = {
	[PQS_OTHER] = "params, checks, trailer",
	[PQS_ALLOC_COLUMNS] = "column buffers (allocation)",
	[PQS_ALLOC_GROUPS] = "group table (allocation)",
	[PQS_GATHER] = "chunk bytes gathered from pages",
	[PQS_DECODE] = "decoder (charged stats)",
	[PQS_FILTER] = "filter evaluation",
	[PQS_AGGREGATE] = "aggregation",
	[PQS_OUTPUT] = "output rows",
	[PQS_EMIT_GROUPS] = "group items emitted",
};

static struct {
	int cur;
	uint64_t insn0, dram0;
	uint64_t insn[PQS_NPHASES], dram[PQS_NPHASES];
	struct ss_pq_stats st;
} prof;

void pqs_mark(struct ss_tasklet_ctx *ctx, int phase)
{
	if (phase != PQS_ENTER) {
		prof.insn[prof.cur] += ctx->insn - prof.insn0;
		prof.dram[prof.cur] += ctx->dram - prof.dram0;
	}
	prof.insn0 = ctx->insn;
	prof.dram0 = ctx->dram;
	prof.cur = phase < 0 ? PQS_OTHER : phase;
}

void pqs_decoder(const struct ss_pq_stats *st)
{
	prof.st.pages += st->pages;
	prof.st.header_bytes += st->header_bytes;
	prof.st.bytes_in += st->bytes_in;
	prof.st.bytes_decompressed += st->bytes_decompressed;
	prof.st.levels_decoded += st->levels_decoded;
	prof.st.values_decoded += st->values_decoded;
	prof.st.dict_lookups += st->dict_lookups;
	prof.st.bytes_copied += st->bytes_copied;
}

static uint8_t *slurp(const char *path, uint64_t *len)
{
	size_t n;
	uint8_t *b = ss_test_read_file(path, &n);

	*len = n;
	return b;
}

/* The runs' answers together: rows concatenated, group items merged by key (count and sum
 * added, min and max kept as signed), in first-seen order. */
static uint8_t *got;
static uint64_t got_len;

static void collect(uint8_t mode, const uint8_t *o, uint64_t len)
{
	if (mode == SS_BT_PQ_AGGREGATE) {
		pq_items_merge(&got, &got_len, o, len);
		return;
	}
	got = realloc(got, got_len + len);
	memcpy(got + got_len, o, len);
	got_len += len;
}

int main(int argc, char **argv)
{
	struct tenv *e;
	ss_oid_t out, oid;
	uint64_t flen, plen, olen, wlen, insn = 0, dram = 0, pi = 0, pd = 0;
	uint8_t *file, *plan, *o;
	struct ss_isp_progress p;
	uint32_t ps;
	uint32_t nrg, per_run = 1, runs = 0;

	if (argc > 2 && !strcmp(argv[1], "-g")) {
		per_run = (uint32_t)strtoul(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || per_run == 0) {
		fprintf(stderr, "usage: pq_scan_profile [-g N] FILE.parquet PLAN [EXPECT]\n");
		return 2;
	}
	e = bt_env();
	out = tenv_output(e, "pq-out");
	file = slurp(argv[1], &flen);
	oid = tenv_put(e, "pq", file, flen);
	free(file);
	plan = slurp(argv[2], &plen);
	nrg = ss_get_le16(plan + 4);
	ps = tenv_page_size(e);
	memset(&prof, 0, sizeof(prof));
	for (uint32_t r = 0; r < nrg; r += per_run, runs++) {
		uint32_t clen;
		uint8_t *c = pq_plan_cut_n(plan, plen, r, SS_MIN(per_run, nrg - r), &clen);
		struct ss_isp_input in = pq_plan_pages(c, oid, ps);

		o = bt_run(e, SS_BT_PARQUET_SCAN, c, clen, NULL, BUDGET, out, &in, 1, &olen, &p);
		CHECK(p.state == SS_ISP_DONE && olen >= 32);
		collect(plan[1], o, olen - 32);
		insn += p.instructions;
		dram += p.dram_accesses;
		free(o);
		free(c);
	}
	if (argc > 3) {
		uint8_t *want = slurp(argv[3], &wlen);

		CHECK(wlen >= 32);
		if (got_len != wlen - 32 || memcmp(got, want, got_len)) {
			fprintf(stderr, "pq_scan_profile: the runs' answer differs from %s\n", argv[3]);
			return 1;
		}
		printf("the runs' answer is %s's\n", argv[3]);
		free(want);
	}
	printf("a run per %u row groups (%u runs of %u row groups): %llu instructions, %llu DRAM "
	       "accesses\n", per_run, runs, nrg, (unsigned long long)insn,
	       (unsigned long long)dram);
	printf("%-34s %14s %14s\n", "phase", "instructions", "DRAM");
	for (int ph = 0; ph < PQS_NPHASES; ph++) {
		printf("%-34s %14llu %14llu\n", phase_names[ph], (unsigned long long)prof.insn[ph],
		       (unsigned long long)prof.dram[ph]);
		pi += prof.insn[ph];
		pd += prof.dram[ph];
	}
	printf("%-34s %14llu %14llu\n", "engine, outside the callbacks", (unsigned long long)(insn - pi),
	       (unsigned long long)(dram - pd));
	{
		const struct ss_pq_stats *s = &prof.st;

		printf("decoder: %llu pages; bytes: header %llu, stored %llu, decompressed %llu, "
		       "copied %llu; levels %llu, values %llu, dictionary lookups %llu\n",
		       (unsigned long long)s->pages, (unsigned long long)s->header_bytes,
		       (unsigned long long)s->bytes_in, (unsigned long long)s->bytes_decompressed,
		       (unsigned long long)s->bytes_copied, (unsigned long long)s->levels_decoded,
		       (unsigned long long)s->values_decoded, (unsigned long long)s->dict_lookups);
	}
	tenv_close(e);
	return 0;
}
