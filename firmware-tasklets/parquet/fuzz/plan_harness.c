/*
 * parquet-scan's plan executor under the fuzzer (harness.h, byte 0 = 2): bytes 1-2 the plan's
 * length (little-endian), then the plan (the tasklet's params), then the Parquet file. The
 * file is stored as an object of the engine's test store (isp/tests/fake_store.c) and the
 * plan run over it, as the drive runs it. Any plan and any file must end in a DONE run whose
 * output ends with a parquet-scan trailer, or a FAILED one with one of the errors the
 * tasklet documents; nothing read or written outside its buffers (ASan sees to that).
 */
#include <stdio.h>
#include <stdlib.h>

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

int pq_fuzz_plan(const uint8_t *data, size_t size)
{
	struct ss_isp_input whole;
	struct ss_isp_progress p;
	uint32_t plen, inst;
	uint64_t olen;
	uint8_t *o;

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
	if (ss_isp_create(tenv_isp(env), SS_BT_PARQUET_SCAN, data + 3, plen, NULL, PLAN_BUDGET, 0,
			  out, &inst)) {
		check(plen > SS_ISP_MAX_PARAMS, "create refused a plan that fits");
		return 0;
	}
	whole = (struct ss_isp_input){ file, 0, UINT64_MAX };
	p = tenv_run(env, inst, &whole, 1);
	check(ss_isp_destroy(tenv_isp(env), inst) == 0, "destroy");
	if (p.state == SS_ISP_FAILED) {
		if (!allowed(p.error)) {
			fprintf(stderr, "pq plan fuzz: error %d\n", p.error);
		}
		check(allowed(p.error), "a documented error");
		if (getenv("PQ_FUZZ_SHOW")) fprintf(stderr, "plan FAILED %d\n", p.error);
		return 0;
	}
	check(p.state == SS_ISP_DONE, "DONE or FAILED");
	if (getenv("PQ_FUZZ_SHOW")) fprintf(stderr, "plan DONE %llu output bytes\n", (unsigned long long)p.output_bytes);
	o = tenv_read(env, out, &olen);
	check(olen >= sizeof(struct ss_bt_trailer) && olen == p.output_bytes, "output length");
	check(ss_get_le32(o + olen - 32) == SS_BT_TRAILER_MAGIC &&
	      ss_get_le32(o + olen - 28) == SS_BT_PARQUET_SCAN, "trailer");
	free(o);
	return 0;
}
