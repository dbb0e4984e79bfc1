/*
 * The verifier against hand-assembled hostile programs: each refused with its reason and
 * the index of the offending instruction; and the near misses (the same programs with the
 * guard a correct program has) accepted and run.
 */
#include "bpf_test.h"

#define ARG0(r) LDX_MEM(DW, r, 1, 16) /* r = ctx->arg[0]: a scalar nobody bounded */

struct refusal {
	const char *what;
	const struct ss_bpf_insn *p;
	size_t n;
	int reason;
	uint32_t insn;
};

#define P(...) (const struct ss_bpf_insn[]){ __VA_ARGS__ }, \
	sizeof((const struct ss_bpf_insn[]){ __VA_ARGS__ }) / sizeof(struct ss_bpf_insn)


static void test_refusals(void)
{
	const struct refusal refusals[] = {
		/* memory not proven inside its buffer */
		{ "record read past rec_max", P(LDX_MEM(DW, 0, 2, 25), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 0 },
		{ "record read before it", P(LDX_MEM(B, 0, 2, -1), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 0 },
		{ "record indexed by an unchecked scalar",
		  P(ARG0(4), ALU64_X(ADD, 2, 4), LDX_MEM(B, 0, 2, 0), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 2 },
		{ "record indexed, bound one too loose",
		  P(ARG0(4), MOV64_K(0, 0), JMP_K(JGT, 4, 32, 2), ALU64_X(ADD, 2, 4),
		    LDX_MEM(B, 0, 2, 0), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 4 },
		{ "record indexed by a negative scalar", P(MOV64_K(4, -4), ALU64_X(ADD, 2, 4),
		  LDX_MEM(W, 0, 2, 0), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 2 },
		{ "context read past its end", P(LDX_MEM(DW, 0, 1, 64), EXIT()), SS_BPF_R_OUT_OF_BOUNDS, 0 },
		{ "output written past its end", P(ST_MEM(W, 3, 62, 1), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_OUT_OF_BOUNDS, 0 },
		{ "stack above the frame pointer", P(ST_MEM(DW, 10, 0, 1), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_OUT_OF_BOUNDS, 0 },
		{ "stack at a variable offset", P(ARG0(4), ALU64_K(AND, 4, 7), MOV64_X(5, 10),
		  ALU64_K(ADD, 5, -16), ALU64_X(ADD, 5, 4), ST_MEM(B, 5, 0, 1), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_OUT_OF_BOUNDS, 5 },
		{ "store into the record", P(ST_MEM(B, 2, 0, 1), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_READ_ONLY, 0 },
		{ "store into the context", P(MOV64_K(0, 0), STX_MEM(DW, 1, 0, 0), EXIT()),
		  SS_BPF_R_READ_ONLY, 1 },
		{ "load through a scalar", P(MOV64_K(0, 4096), LDX_MEM(DW, 0, 0, 0), EXIT()),
		  SS_BPF_R_NOT_POINTER, 1 },
		{ "read of stack never written", P(LDX_MEM(DW, 0, 10, -8), EXIT()),
		  SS_BPF_R_UNINIT_STACK, 0 },
		{ "read of a stack byte never written", P(ST_MEM(B, 10, -8, 1), LDX_MEM(H, 0, 10, -8),
		  EXIT()), SS_BPF_R_UNINIT_STACK, 1 },
		/* stack over the limit */
		{ "stack below 512 bytes", P(ST_MEM(DW, 10, -520, 1), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_STACK_LIMIT, 0 },
		/* jumps */
		{ "jump past the end", P(MOV64_K(0, 0), JA(5), EXIT()), SS_BPF_R_JUMP_OUT, 1 },
		{ "jump before the start", P(MOV64_K(0, 0), JA(-5), EXIT()), SS_BPF_R_JUMP_OUT, 1 },
		{ "jump into an LDDW", P(JA(1), LDDW_LO(0, 1), LDDW_HI(1), EXIT()),
		  SS_BPF_R_JUMP_MID_LDDW, 0 },
		{ "conditional jump into an LDDW", P(MOV64_K(0, 0), JMP_K(JEQ, 0, 0, 1), LDDW_LO(0, 1),
		  LDDW_HI(1), EXIT()), SS_BPF_R_JUMP_MID_LDDW, 1 },
		{ "loop", P(MOV64_K(0, 0), ALU64_K(ADD, 0, 1), JMP_K(JLT, 0, 10, -2), EXIT()),
		  SS_BPF_R_BACK_EDGE, 2 },
		{ "jump to itself", P(MOV64_K(0, 0), JA(-1), EXIT()), SS_BPF_R_BACK_EDGE, 1 },
		{ "falls off the end", P(MOV64_K(0, 0), MOV64_K(1, 0)), SS_BPF_R_FALL_OFF, 1 },
		{ "LDDW cut off", P(MOV64_K(0, 0), LDDW_LO(0, 1)), SS_BPF_R_LDDW_TRUNCATED, 1 },
		/* helpers */
		{ "unknown helper", P(CALL(99), EXIT()), SS_BPF_R_UNKNOWN_HELPER, 0 },
		{ "helper 0", P(CALL(0), EXIT()), SS_BPF_R_UNKNOWN_HELPER, 0 },
		{ "the ISP's empty slot", P(MOV64_K(1, 0), CALL(SS_BPF_H_LAYOUT_FIELD), EXIT()),
		  SS_BPF_R_UNKNOWN_HELPER, 1 },
		{ "local call", P(I(JMP | 0x80, 0, 1, 0, 1), EXIT(), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_BAD_OPCODE, 0 },
		{ "emit of an unbounded length", P(ARG0(2), MOV64_X(1, 3), CALL(SS_BPF_H_EMIT), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "emit of 0 bytes", P(MOV64_K(2, 0), MOV64_X(1, 3), CALL(SS_BPF_H_EMIT), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "emit past the output buffer", P(MOV64_K(2, 8), MOV64_X(1, 3), ALU64_K(ADD, 1, 60),
		  CALL(SS_BPF_H_EMIT), EXIT()), SS_BPF_R_HELPER_ARG, 3 },
		{ "emit of unwritten stack", P(MOV64_K(2, 8), MOV64_X(1, 10), ALU64_K(ADD, 1, -8),
		  CALL(SS_BPF_H_EMIT), EXIT()), SS_BPF_R_HELPER_ARG, 3 },
		{ "emit of a spilled pointer", P(STX_MEM(DW, 10, 2, -8), MOV64_K(2, 8), MOV64_X(1, 10),
		  ALU64_K(ADD, 1, -8), CALL(SS_BPF_H_EMIT), EXIT()), SS_BPF_R_HELPER_ARG, 4 },
		{ "emit from a scalar", P(MOV64_K(2, 8), MOV64_K(1, 4096), CALL(SS_BPF_H_EMIT), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "field of width 3", P(MOV64_K(1, 0), MOV64_K(2, 3), CALL(SS_BPF_H_FIELD), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "field at an unbounded offset", P(ARG0(1), MOV64_K(2, 8), CALL(SS_BPF_H_FIELD), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "field past rec_max", P(MOV64_K(1, 25), MOV64_K(2, 8), CALL(SS_BPF_H_FIELD), EXIT()),
		  SS_BPF_R_HELPER_ARG, 2 },
		{ "group key a pointer", P(MOV64_K(2, 1), CALL(SS_BPF_H_GROUP_ADD), EXIT()),
		  SS_BPF_R_POINTER_LEAK, 1 },
		{ "argument registers are clobbered", P(MOV64_K(1, 1), MOV64_K(2, 1),
		  CALL(SS_BPF_H_GROUP_ADD), MOV64_X(0, 1), EXIT()), SS_BPF_R_UNINIT_REG, 3 },
		/* division */
		{ "division by immediate 0", P(MOV64_K(0, 1), ALU64_K(DIV, 0, 0), EXIT()),
		  SS_BPF_R_DIV_BY_ZERO, 1 },
		{ "modulo by immediate 0", P(MOV64_K(0, 1), ALU32_K(MOD, 0, 0), EXIT()),
		  SS_BPF_R_DIV_BY_ZERO, 1 },
		{ "division by an unchecked scalar", P(ARG0(4), MOV64_K(0, 1), ALU64_X(DIV, 0, 4), EXIT()),
		  SS_BPF_R_DIV_BY_ZERO, 2 },
		{ "div32 by a scalar whose low half may be 0", P(ARG0(4), MOV64_K(0, 1),
		  JMP_K(JEQ, 4, 0, 1), ALU32_X(DIV, 0, 4), EXIT()), SS_BPF_R_DIV_BY_ZERO, 3 },
		/* size */
		{ "empty", P(EXIT()), SS_BPF_R_EMPTY, 0 }, /* n forced to 0 below */
		/* encoding */
		{ "opcode 0xff", P(I(0xff, 0, 0, 0, 0), EXIT()), SS_BPF_R_BAD_OPCODE, 0 },
		{ "atomic add", P(MOV64_K(0, 0), STX_MEM(DW, 10, 0, -8), I(STX | 0xc0 | DW, 10, 0, -8, 0),
		  EXIT()), SS_BPF_R_BAD_OPCODE, 2 },
		{ "legacy packet load", P(I(LD | 0x20 | W, 0, 0, 0, 0), EXIT()), SS_BPF_R_BAD_OPCODE, 0 },
		{ "LDDW of a map", P(I(LD | DW, 0, 1, 0, 1), LDDW_HI(0), EXIT()), SS_BPF_R_BAD_OPCODE, 0 },
		{ "register 11", P(MOV64_K(11, 0), EXIT()), SS_BPF_R_BAD_REG, 0 },
		{ "write to r10", P(MOV64_K(10, 0), MOV64_K(0, 0), EXIT()), SS_BPF_R_WRITE_R10, 0 },
		{ "reserved imm of a load", P(I(LDX | MEM | DW, 0, 2, 0, 1), EXIT()), SS_BPF_R_BAD_FIELD, 0 },
		/* registers */
		{ "exit with r0 unset", P(EXIT()), SS_BPF_R_UNINIT_REG, 0 },
		{ "add of an unset register", P(MOV64_K(0, 0), ALU64_X(ADD, 0, 5), EXIT()),
		  SS_BPF_R_UNINIT_REG, 1 },
		{ "pointer or scalar after a join", P(ARG0(4), MOV64_X(5, 2), JMP_K(JEQ, 4, 0, 1),
		  MOV64_K(5, 0), LDX_MEM(B, 0, 5, 0), EXIT()), SS_BPF_R_UNINIT_REG, 4 },
		/* pointers never become data */
		{ "return a pointer", P(MOV64_X(0, 2), EXIT()), SS_BPF_R_POINTER_LEAK, 1 },
		{ "store a pointer in the output", P(STX_MEM(DW, 3, 2, 0), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_LEAK, 0 },
		{ "store half a pointer on the stack", P(STX_MEM(W, 10, 2, -8), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_LEAK, 0 },
		{ "read half a spilled pointer", P(STX_MEM(DW, 10, 2, -8), LDX_MEM(W, 0, 10, -8), EXIT()),
		  SS_BPF_R_POINTER_LEAK, 1 },
		{ "overwrite half a spilled pointer", P(STX_MEM(DW, 10, 2, -8), ST_MEM(B, 10, -8, 0),
		  MOV64_K(0, 0), EXIT()), SS_BPF_R_POINTER_LEAK, 1 },
		{ "compare a pointer", P(MOV64_K(0, 0), JMP_K(JGT, 2, 0, 0), EXIT()),
		  SS_BPF_R_POINTER_LEAK, 1 },
		{ "mov32 of a pointer", P(ALU32_X(MOV, 0, 2), EXIT()), SS_BPF_R_POINTER_LEAK, 0 },
		{ "multiply a pointer", P(ALU64_K(MUL, 2, 2), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_ARITH, 0 },
		{ "32-bit add to a pointer", P(ALU32_K(ADD, 2, 2), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_ARITH, 0 },
		{ "pointer plus pointer", P(ALU64_X(ADD, 2, 3), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_ARITH, 0 },
		{ "pointer minus pointer", P(ALU64_X(SUB, 2, 3), MOV64_K(0, 0), EXIT()),
		  SS_BPF_R_POINTER_ARITH, 0 },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(refusals); i++) {
		const struct refusal *r = &refusals[i];
		int rc = t_load(r->p, r->reason == SS_BPF_R_EMPTY ? 0 : r->n);

		if (rc != -SS_EINVAL || t_err.reason != r->reason || t_err.insn != r->insn) {
			fprintf(stderr, "%s: rc %d, %s at %u; want %s at %u\n", r->what, rc,
				ss_bpf_reason_str(t_err.reason), t_err.insn,
				ss_bpf_reason_str(r->reason), r->insn);
			ss_test_failures++;
		}
		CHECK(!t_prog.verified);
	}
}

/* oversized: the limit, and the configuration's lower one */
static void test_too_big(void)
{
	static struct ss_bpf_insn p[SS_BPF_MAX_INSNS + 1];
	struct ss_bpf_config c = t_cfg();

	for (size_t i = 0; i < SS_ARRAY_SIZE(p); i++)
		p[i] = MOV64_K(0, (int32_t)i);
	p[SS_BPF_MAX_INSNS - 1] = EXIT();
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_BPF_MAX_INSNS, &t_ws, &t_err), 0);
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_BPF_MAX_INSNS + 1, &t_ws, &t_err), -SS_E2BIG);
	CHECK_EQ(t_err.reason, SS_BPF_R_TOO_BIG);
	CHECK_EQ(t_err.insn, SS_BPF_MAX_INSNS);
	c.max_insns = 10;
	p[10] = EXIT();
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, 11, &t_ws, &t_err), -SS_E2BIG);
	CHECK_EQ(t_err.reason, SS_BPF_R_TOO_BIG);
	CHECK_EQ(t_err.insn, 10);
	c.max_insns = 11;
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, 11, &t_ws, &t_err), 0);
}

/* a smaller stack than the most: the limit is the configuration's */
static void test_stack_limit(void)
{
	struct ss_bpf_insn p[] = { ST_MEM(DW, 10, -72, 1), MOV64_K(0, 0), EXIT() };
	struct ss_bpf_config c = t_cfg();

	c.stack_size = 64;
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_ARRAY_SIZE(p), &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_STACK_LIMIT);
	CHECK_EQ(t_err.insn, 0);
	p[0] = ST_MEM(DW, 10, -64, 1);
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_ARRAY_SIZE(p), &t_ws, &t_err), 0);
	c.stack_size = 513;
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_ARRAY_SIZE(p), &t_ws, &t_err), -SS_EINVAL);
}

/* more forward jumps waiting at once than the workspace holds */
static void test_too_complex(void)
{
	enum { J = SS_BPF_MAX_PENDING + 8 };
	static struct ss_bpf_insn p[1 + J + J + 1];
	size_t n = 0;

	p[n++] = ARG0(4);
	for (int i = 0; i < J; i++) /* jump i lands on its own instruction of the tail */
		p[n++] = JMP_K(JEQ, 4, i, J);
	for (int i = 0; i < J; i++)
		p[n++] = MOV64_K(0, i);
	p[n++] = EXIT();
	CHECK_EQ(t_load(p, n), -SS_E2BIG);
	CHECK_EQ(t_err.reason, SS_BPF_R_TOO_COMPLEX);
	CHECK_EQ(t_err.insn, 1 + SS_BPF_MAX_PENDING);
}

/* the guards a correct program has make the same accesses pass */
static void test_guards_accepted(void)
{
	uint8_t rec[T_REC_MAX];
	uint64_t r = 0;

	for (unsigned i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(i + 1);
	{
		/* rec[arg0] for arg0 <= 31: proven below rec_max, checked at run time against
		 * the record, through a copy of the bounded register */
		struct ss_bpf_insn p[] = {
			ARG0(4), MOV64_X(5, 4), MOV64_K(0, 0), JMP_K(JGT, 5, 31, 2),
			ALU64_X(ADD, 2, 4), LDX_MEM(B, 0, 2, 0), EXIT(),
		};

		REQUIRE(T_LOAD(p) == 0);
		t_env_reset();
		t_env.ctx.arg[0] = 20;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MAX, 0, &r), 0);
		CHECK_EQ(r, 21);
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), -SS_EFAULT);
		CHECK_EQ(t_env.stats.faults, 1);
		t_env.ctx.arg[0] = 15;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 16);
		t_env.ctx.arg[0] = 40;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 0);
	}
	{
		/* a JMP32 bound on a 64-bit unknown, then the zero-extending shift pair (clang's
		 * code for BPF v3): the low half's range carries through the shifts */
		struct ss_bpf_insn p[] = {
			ARG0(4), MOV64_K(0, 0), JMP32_K(JGT, 4, 15, 4), ALU64_K(LSH, 4, 32),
			ALU64_K(RSH, 4, 32), ALU64_X(ADD, 2, 4), LDX_MEM(B, 0, 2, 0), EXIT(),
		};

		REQUIRE(T_LOAD(p) == 0);
		t_env_reset();
		t_env.ctx.arg[0] = 0x700000000ull | 9;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 10);
		/* without the bound, or with the 64-bit shift count wrong, refused */
		p[2] = MOV64_K(5, 0);
		CHECK_EQ(T_LOAD(p), -SS_EINVAL);
		CHECK_EQ(t_err.reason, SS_BPF_R_OUT_OF_BOUNDS);
		p[2] = JMP32_K(JGT, 4, 15, 4);
		p[3] = ALU64_K(LSH, 4, 31);
		CHECK_EQ(T_LOAD(p), -SS_EINVAL);
		CHECK_EQ(t_err.insn, 6);
	}
	{
		/* within rec_min: no run-time check needed or made */
		struct ss_bpf_insn p[] = { LDX_MEM(DW, 0, 2, 8), EXIT() };

		REQUIRE(T_LOAD(p) == 0);
		CHECK_EQ(t_prog.aux[0] & SS_BPF_AUX_RUNTIME_CHECK, 0);
	}
	{
		/* division guarded by a test against 0 */
		struct ss_bpf_insn p[] = {
			ARG0(4), MOV64_K(0, 0), JMP_K(JEQ, 4, 0, 2), MOV64_K(0, 100),
			ALU64_X(DIV, 0, 4), EXIT(),
		};

		REQUIRE(T_LOAD(p) == 0);
		t_env_reset();
		t_env.ctx.arg[0] = 7;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 14);
		t_env.ctx.arg[0] = 0;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 0);
	}
	{
		/* a pointer spilled and filled keeps its type; a scalar spilled keeps its range */
		struct ss_bpf_insn p[] = {
			STX_MEM(DW, 10, 2, -8), ARG0(4), ALU64_K(AND, 4, 15), STX_MEM(DW, 10, 4, -16),
			LDX_MEM(DW, 5, 10, -8), LDX_MEM(DW, 6, 10, -16), ALU64_X(ADD, 5, 6),
			LDX_MEM(B, 0, 5, 0), EXIT(),
		};

		REQUIRE(T_LOAD(p) == 0);
		t_env_reset();
		t_env.ctx.arg[0] = 0x13;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN, 0, &r), 0);
		CHECK_EQ(r, 4);
	}
	{
		/* unreachable code after a constant branch is not proven, and never runs */
		struct ss_bpf_insn p[] = {
			MOV64_K(0, 1), JMP_K(JEQ, 0, 1, 1), LDX_MEM(DW, 0, 0, 0), EXIT(),
		};

		CHECK_EQ(T_LOAD(p), 0);
	}
}

int main(void)
{
	RUN(test_refusals);
	RUN(test_too_big);
	RUN(test_stack_limit);
	RUN(test_too_complex);
	RUN(test_guards_accepted);
	return ss_test_status();
}
