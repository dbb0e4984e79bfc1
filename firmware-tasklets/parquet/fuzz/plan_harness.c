/*
 * parquet-scan's plan executor under the fuzzer (harness.h, byte 0 = 2): bytes 1-2 the plan's
 * length (little-endian), then the plan (the tasklet's params), then the Parquet file. The
 * file is stored as an object of the engine's test store (isp/tests/fake_store.c) and the
 * plan run over it, as the drive runs it. Any plan and any file must end in a DONE run whose
 * output ends with a parquet-scan trailer, or a FAILED one with one of the errors the
 * tasklet documents; nothing read or written outside its buffers (ASan sees to that). A
 * COUNT by two keys (counted per pair of dictionary indices where the keys allow) is run
 * again a row at a time (ROW_EVAL): where both are DONE, each pair's count is the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_isp.h"
#include "tenv.h"

#define PLAN_BUDGET (512u * 1024u)

static struct tenv *env;
static ss_oid_t file, out;

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "pq plan fuzz: invariant broken: %s\n", what);
		abort();
	}
}

static int allowed(int err)
{
	return err == -SS_EINVAL || err == -SS_ENOSYS || err == -SS_EILSEQ ||
	       err == -SS_ENODATA || err == -SS_ENOMEM;
}

/* Run plan over the file: its output (NULL when FAILED, its error in *err). */
static uint8_t *run_plan(const uint8_t *plan, uint32_t plen, uint64_t *olen, int *err)
{
	struct ss_isp_input whole = { file, 0, UINT64_MAX };
	struct ss_isp_progress p;
	uint32_t inst;
	uint8_t *o;

	*err = 0;
	if (ss_isp_create(tenv_isp(env), SS_BT_PARQUET_SCAN, plan, plen, NULL, PLAN_BUDGET, 0,
			  out, &inst)) {
		check(plen > SS_ISP_MAX_PARAMS, "create refused a plan that fits");
		*err = -SS_EINVAL;
		return NULL;
	}
	p = tenv_run(env, inst, &whole, 1);
	check(ss_isp_destroy(tenv_isp(env), inst) == 0, "destroy");
	if (p.state == SS_ISP_FAILED) {
		if (!allowed(p.error)) {
			fprintf(stderr, "pq plan fuzz: error %d\n", p.error);
		}
		check(allowed(p.error), "a documented error");
		*err = p.error;
		return NULL;
	}
	check(p.state == SS_ISP_DONE, "DONE or FAILED");
	o = tenv_read(env, out, olen);
	check(*olen >= sizeof(struct ss_bt_trailer) && *olen == p.output_bytes, "output length");
	check(ss_get_le32(o + *olen - 32) == SS_BT_TRAILER_MAGIC &&
	      ss_get_le32(o + *olen - 28) == SS_BT_PARQUET_SCAN, "trailer");
	return o;
}

/* Each (key1, key2) of items a's counts summed, less b's: all zero when they agree (spills
 * may split a group in either). */
static int same_counts(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb)
{
	const uint64_t item = sizeof(struct ss_bt_agg_item);

	for (uint64_t i = 0; i < na + nb; i += item) {
		const uint8_t *k = i < na ? a + i : b + (i - na);
		int64_t sum = 0;

		for (uint64_t j = 0; j < na + nb; j += item) {
			const uint8_t *x = j < na ? a + j : b + (j - na);

			if (!memcmp(x, k, 16)) {
				sum += (j < na ? 1 : -1) * (int64_t)ss_get_le64(x + 16);
			}
		}
		if (sum) {
			return 0;
		}
	}
	return 1;
}

/* A COUNT by two keys, counted by pairs where it can, against ROW_EVAL's row path. */
static void pairs_against_rows(const uint8_t *plan, uint32_t plen, const uint8_t *o,
			       uint64_t olen)
{
	uint8_t *rp, *ro;
	uint64_t rlen;
	int err;

	if (plen < sizeof(struct ss_bt_pq_params) || plan[1] != SS_BT_PQ_AGGREGATE ||
	    plan[3] != 2 || plan[15] != SS_BT_AGG_COUNT || (plan[16] & SS_BT_PQ_ROW_EVAL) ||
	    olen > 512 * sizeof(struct ss_bt_agg_item)) {
		return;
	}
	rp = malloc(plen);
	memcpy(rp, plan, plen);
	rp[16] |= SS_BT_PQ_ROW_EVAL;
	ro = run_plan(rp, plen, &rlen, &err);
	if (ro) {
		check(same_counts(o, olen - 32, ro, rlen - 32), "pairs counted as the rows' path");
		check(ss_get_le64(o + olen - 24) == ss_get_le64(ro + rlen - 24), "rows in");
	}
	free(ro);
	free(rp);
}

int pq_fuzz_plan(const uint8_t *data, size_t size)
{
	uint32_t plen;
	uint64_t olen;
	uint8_t *o;
	int err;

	if (size < 3) {
		return 0;
	}
	plen = (uint32_t)data[1] | (uint32_t)data[2] << 8;
	if (plen > size - 3) {
		return 0;
	}
	if (!env) {
		env = tenv_open();
		check(ss_builtin_tasklets_register(tenv_isp(env)) == 0, "register");
		file = tenv_put(env, "file", "", 0);
		out = tenv_output(env, "out");
	}
	check(ss_os_truncate(tenv_os(env), file, 0, 0) == 0, "truncate");
	if (size - 3 - plen) {
		check(ss_os_write(tenv_os(env), file, 0, data + 3 + plen,
				  (uint32_t)(size - 3 - plen), 0, 0) == 0, "write");
	}
	o = run_plan(data + 3, plen, &olen, &err);
	if (getenv("PQ_FUZZ_SHOW")) {
		if (o) {
			fprintf(stderr, "plan DONE %llu output bytes\n", (unsigned long long)olen);
		} else {
			fprintf(stderr, "plan FAILED %d\n", err);
		}
	}
	if (o) {
		pairs_against_rows(data + 3, plen, o, olen);
	}
	free(o);
	return 0;
}
