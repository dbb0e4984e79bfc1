/* The bpf tests' fixture: one program, its verifier workspace and a run environment. */
#ifndef BPF_TEST_H
#define BPF_TEST_H

#include <string.h>

#include "bpf_asm.h"
#include "ss_bpf.h"
#include "ss_rt.h"
#include "ss_test.h"

#define T_REC_MIN 16u
#define T_REC_MAX 32u
#define T_OUT 64u
#define T_EMIT 1024u

static struct ss_bpf_helpers t_helpers;
static struct ss_bpf_verifier t_ws;
static struct ss_bpf_prog t_prog;
static uint8_t t_stack[SS_BPF_STACK_MAX], t_out[T_OUT], t_emit[T_EMIT];
static struct ss_bpf_env t_env;
static struct ss_bpf_error t_err;

static inline struct ss_bpf_config t_cfg(void)
{
	struct ss_bpf_config c = { .rec_min = T_REC_MIN, .rec_max = T_REC_MAX, .out_size = T_OUT,
				   .stack_size = SS_BPF_STACK_MAX, .helpers = &t_helpers };

	ss_bpf_helpers_builtin(&t_helpers);
	return c;
}

static inline void t_env_reset(void)
{
	memset(&t_env, 0, sizeof(t_env));
	memset(t_out, 0, sizeof(t_out));
	t_env.stack = t_stack;
	t_env.out = t_out;
	t_env.emit = t_emit;
	t_env.emit_cap = T_EMIT;
}

/** Load n instructions with the default configuration: \return as ss_bpf_load() */
static inline int t_load(const struct ss_bpf_insn *p, size_t n)
{
	struct ss_bpf_config c = t_cfg();

	memset(&t_err, 0xff, sizeof(t_err));
	return ss_bpf_load(&t_prog, &c, p, n, &t_ws, &t_err);
}

#define T_LOAD(p) t_load((p), sizeof(p) / sizeof((p)[0]))

/* Load and run over a zero record of T_REC_MIN bytes: \return r0 (REQUIREs success). */
static inline uint64_t t_run_ok(const struct ss_bpf_insn *p, size_t n, const char *what)
{
	static uint8_t rec[T_REC_MAX];
	uint64_t r0 = 0xdeadbeef;
	int rc = t_load(p, n);

	if (rc) {
		fprintf(stderr, "%s: refused: %s at %u\n", what, ss_bpf_reason_str(t_err.reason),
			t_err.insn);
		ss_test_failures++;
		return 0xdeadbeef;
	}
	t_env_reset();
	rc = ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r0);
	if (rc) {
		fprintf(stderr, "%s: run failed %d\n", what, rc);
		ss_test_failures++;
	}
	return r0;
}

#endif
