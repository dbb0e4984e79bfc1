/*
 * The interpreter, one instruction class at a time, against values worked out by hand from
 * RFC 9669 (the expected column is written out, not computed by the module's code).
 */
#include "bpf_test.h"

#define BIG(v) LDDW_LO(1, v), LDDW_HI(v)

struct alu_case {
	const char *what;
	uint64_t a, b; /* r1, r2 before */
	struct ss_bpf_insn insn;
	uint64_t want; /* r1 after */
};

static const struct alu_case alu_cases[] = {
	{ "add64 wraps", ~0ull, 2, ALU64_X(ADD, 1, 2), 1 },
	{ "add32 zero-extends", 0x1ffffffffull, 2, ALU32_X(ADD, 1, 2), 1 },
	{ "sub64", 1, 2, ALU64_X(SUB, 1, 2), ~0ull },
	{ "sub32", 1, 2, ALU32_X(SUB, 1, 2), 0xffffffffull },
	{ "mul32 truncates", 0x10000, 0x10000, ALU32_X(MUL, 1, 2), 0 },
	{ "mul64", 0x10000, 0x10000, ALU64_X(MUL, 1, 2), 0x100000000ull },
	{ "div64", 100, 7, ALU64_X(DIV, 1, 2), 14 },
	{ "div32 ignores the upper half", 0x100000064ull, 7, ALU32_X(DIV, 1, 2), 14 },
	{ "div64 imm -1 is 2^64-1", 100, 0, ALU64_K(DIV, 1, -1), 0 },
	{ "div32 imm -1 is 2^32-1", 0xffffffffull, 0, ALU32_K(DIV, 1, -1), 1 },
	{ "sdiv64", (uint64_t)-100, 7, I(ALU64 | X | DIV, 1, 2, 1, 0), (uint64_t)-14 },
	{ "smod64 takes the dividend's sign", (uint64_t)-100, 7, I(ALU64 | X | MOD, 1, 2, 1, 0),
	  (uint64_t)-2 },
	{ "sdiv32", 0xffffff9cull, 7, I(ALU | X | DIV, 1, 2, 1, 0), 0xfffffff2ull },
	{ "sdiv64 LLONG_MIN / -1 wraps", 0x8000000000000000ull, ~0ull,
	  I(ALU64 | X | DIV, 1, 2, 1, 0), 0x8000000000000000ull },
	{ "smod64 LLONG_MIN % -1", 0x8000000000000000ull, ~0ull, I(ALU64 | X | MOD, 1, 2, 1, 0),
	  0 },
	{ "mod64", 100, 7, ALU64_X(MOD, 1, 2), 2 },
	{ "or", 0xf0, 0x0f, ALU64_X(OR, 1, 2), 0xff },
	{ "and32", 0xffffffffffull, 0xff00ff00ffull, ALU32_X(AND, 1, 2), 0x00ff00ffull },
	{ "xor64", 0xff00, 0x0ff0, ALU64_X(XOR, 1, 2), 0xf0f0 },
	{ "lsh64", 1, 63, ALU64_X(LSH, 1, 2), 0x8000000000000000ull },
	{ "lsh64 masks the count", 1, 64, ALU64_X(LSH, 1, 2), 1 },
	{ "lsh32 masks the count", 1, 32, ALU32_X(LSH, 1, 2), 1 },
	{ "rsh64", 0x8000000000000000ull, 63, ALU64_X(RSH, 1, 2), 1 },
	{ "rsh32", 0xff80000000ull, 31, ALU32_X(RSH, 1, 2), 1 },
	{ "arsh64", 0x8000000000000000ull, 4, ALU64_X(ARSH, 1, 2), 0xf800000000000000ull },
	{ "arsh32", 0x80000000ull, 4, ALU32_X(ARSH, 1, 2), 0xf8000000ull },
	{ "arsh64 of a positive", 0x4000, 4, ALU64_K(ARSH, 1, 4), 0x400 },
	{ "neg64", 5, 0, ALU64_K(NEG, 1, 0), (uint64_t)-5 },
	{ "neg32", 5, 0, ALU32_K(NEG, 1, 0), 0xfffffffbull },
	{ "mov32 zero-extends", 0, 0xffffffff12345678ull, ALU32_X(MOV, 1, 2), 0x12345678 },
	{ "mov64 imm sign-extends", 0, 0, MOV64_K(1, -2), (uint64_t)-2 },
	{ "mov32 imm", 0, 0, ALU32_K(MOV, 1, -2), 0xfffffffeull },
	{ "movsx64 8", 0, 0x80, I(ALU64 | X | MOV, 1, 2, 8, 0), 0xffffffffffffff80ull },
	{ "movsx64 16", 0, 0x17fff, I(ALU64 | X | MOV, 1, 2, 16, 0), 0x7fff },
	{ "movsx64 32", 0, 0x80000000ull, I(ALU64 | X | MOV, 1, 2, 32, 0),
	  0xffffffff80000000ull },
	{ "movsx32 16", 0, 0x8000, I(ALU | X | MOV, 1, 2, 16, 0), 0xffff8000ull },
	{ "le16", 0x1122334455667788ull, 0, I(ALU | K | END, 1, 0, 0, 16), 0x7788 },
	{ "le32", 0x1122334455667788ull, 0, I(ALU | K | END, 1, 0, 0, 32), 0x55667788 },
	{ "le64", 0x1122334455667788ull, 0, I(ALU | K | END, 1, 0, 0, 64), 0x1122334455667788ull },
	{ "be16", 0x1122334455667788ull, 0, I(ALU | X | END, 1, 0, 0, 16), 0x8877 },
	{ "be32", 0x1122334455667788ull, 0, I(ALU | X | END, 1, 0, 0, 32), 0x88776655 },
	{ "be64", 0x1122334455667788ull, 0, I(ALU | X | END, 1, 0, 0, 64), 0x8877665544332211ull },
	{ "bswap16", 0x1122334455667788ull, 0, I(ALU64 | K | END, 1, 0, 0, 16), 0x8877 },
	{ "bswap32", 0x1122334455667788ull, 0, I(ALU64 | K | END, 1, 0, 0, 32), 0x88776655 },
	{ "bswap64", 0x1122334455667788ull, 0, I(ALU64 | K | END, 1, 0, 0, 64),
	  0x8877665544332211ull },
};

static void test_alu(void)
{
	for (size_t i = 0; i < SS_ARRAY_SIZE(alu_cases); i++) {
		const struct alu_case *c = &alu_cases[i];
		struct ss_bpf_insn p[] = {
			LDDW_LO(1, c->a), LDDW_HI(c->a), LDDW_LO(2, c->b), LDDW_HI(c->b), c->insn,
			MOV64_X(0, 1), EXIT(),
		};
		uint64_t r = t_run_ok(p, SS_ARRAY_SIZE(p), c->what);

		if (r != c->want) {
			fprintf(stderr, "%s: got %#llx, want %#llx\n", c->what,
				(unsigned long long)r, (unsigned long long)c->want);
			ss_test_failures++;
		}
	}
}

/* Division and modulo by zero are refused by the verifier; the interpreter still gives
 * RFC 9669's values if one ever ran (a program marked verified by hand). */
static void test_div_by_zero_semantics(void)
{
	static const struct alu_case cases[] = {
		{ "div64 by 0 is 0", 100, 0, ALU64_X(DIV, 1, 2), 0 },
		{ "div32 by 0 is 0", 100, 0x100000000ull, ALU32_X(DIV, 1, 2), 0 },
		{ "mod64 by 0 keeps dst", 100, 0, ALU64_X(MOD, 1, 2), 100 },
		{ "mod32 by 0 keeps dst's low half", 0x100000005ull, 0, ALU32_X(MOD, 1, 2), 5 },
		{ "sdiv64 by 0 is 0", (uint64_t)-100, 0, I(ALU64 | X | DIV, 1, 2, 1, 0), 0 },
		{ "smod64 by 0 keeps dst", (uint64_t)-100, 0, I(ALU64 | X | MOD, 1, 2, 1, 0),
		  (uint64_t)-100 },
	};
	uint8_t rec[T_REC_MIN] = { 0 };

	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		const struct alu_case *c = &cases[i];
		struct ss_bpf_insn p[] = {
			LDDW_LO(1, c->a), LDDW_HI(c->a), LDDW_LO(2, c->b), LDDW_HI(c->b), c->insn,
			MOV64_X(0, 1), EXIT(),
		};
		uint64_t r = 0;

		CHECK_EQ(T_LOAD(p), -SS_EINVAL);
		CHECK_EQ(t_err.reason, SS_BPF_R_DIV_BY_ZERO);
		CHECK_EQ(t_err.insn, 4);
		memcpy(t_prog.insns, p, sizeof(p));
		t_prog.n_insns = SS_ARRAY_SIZE(p);
		memset(t_prog.aux, 0, sizeof(t_prog.aux));
		t_prog.verified = 1;
		t_env_reset();
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), 0);
		if (r != c->want) {
			fprintf(stderr, "%s: got %#llx, want %#llx\n", c->what,
				(unsigned long long)r, (unsigned long long)c->want);
			ss_test_failures++;
		}
	}
}

struct jmp_case {
	const char *what;
	uint64_t a, b;
	uint8_t opcode; /* JMP or JMP32 class | X | code */
	int taken;
};

static const struct jmp_case jmp_cases[] = {
	{ "jeq", 5, 5, JMP | X | JEQ, 1 },
	{ "jeq not", 5, 6, JMP | X | JEQ, 0 },
	{ "jne", 5, 6, JMP | X | JNE, 1 },
	{ "jgt unsigned", ~0ull, 1, JMP | X | JGT, 1 },
	{ "jsgt signed", ~0ull, 1, JMP | X | JSGT, 0 },
	{ "jge equal", 7, 7, JMP | X | JGE, 1 },
	{ "jsge", (uint64_t)-3, (uint64_t)-3, JMP | X | JSGE, 1 },
	{ "jlt", 1, 2, JMP | X | JLT, 1 },
	{ "jle", 3, 2, JMP | X | JLE, 0 },
	{ "jslt", (uint64_t)-1, 0, JMP | X | JSLT, 1 },
	{ "jsle", 0, (uint64_t)-1, JMP | X | JSLE, 0 },
	{ "jset", 0x10, 0x30, JMP | X | JSET, 1 },
	{ "jset not", 0x10, 0x20, JMP | X | JSET, 0 },
	{ "jeq32 sees the low halves", 0x100000005ull, 5, JMP32 | X | JEQ, 1 },
	{ "jeq64 sees it all", 0x100000005ull, 5, JMP | X | JEQ, 0 },
	{ "jslt32 -1 < 0", 0xffffffffull, 0, JMP32 | X | JSLT, 1 },
	{ "jslt64 2^32-1 > 0", 0xffffffffull, 0, JMP | X | JSLT, 0 },
	{ "jgt32", 0x200000001ull, 0x100000002ull, JMP32 | X | JGT, 0 },
};

static void test_jumps(void)
{
	for (size_t i = 0; i < SS_ARRAY_SIZE(jmp_cases); i++) {
		const struct jmp_case *c = &jmp_cases[i];
		struct ss_bpf_insn p[] = {
			LDDW_LO(1, c->a), LDDW_HI(c->a), LDDW_LO(2, c->b), LDDW_HI(c->b),
			MOV64_K(0, 0), I(c->opcode, 1, 2, 1, 0), EXIT(), MOV64_K(0, 1), EXIT(),
		};

		if (t_run_ok(p, SS_ARRAY_SIZE(p), c->what) != (uint64_t)c->taken) {
			fprintf(stderr, "%s: wrong branch\n", c->what);
			ss_test_failures++;
		}
	}
	/* immediates: JMP32 compares with the u32 immediate, JMP with it sign-extended */
	{
		struct ss_bpf_insn p[] = {
			BIG(0xffffffffull), MOV64_K(0, 0), JMP32_K(JEQ, 1, -1, 1), EXIT(),
			MOV64_K(0, 1), EXIT(),
		};

		CHECK_EQ(t_run_ok(p, SS_ARRAY_SIZE(p), "jeq32 imm -1"), 1);
		p[3] = JMP_K(JEQ, 1, -1, 1);
		CHECK_EQ(t_run_ok(p, SS_ARRAY_SIZE(p), "jeq64 imm -1"), 0);
	}
	/* ja, and the 32-bit-offset ja of the JMP32 class */
	{
		struct ss_bpf_insn p[] = {
			MOV64_K(0, 1), JA(1), MOV64_K(0, 2), I(JMP32 | 0x00, 0, 0, 0, 1),
			MOV64_K(0, 3), EXIT(),
		};

		CHECK_EQ(t_run_ok(p, SS_ARRAY_SIZE(p), "ja"), 1);
	}
}

/* stores and loads of each size through the stack and the output buffer, and sign
 * extension on load */
static void test_memory(void)
{
	struct ss_bpf_insn p[] = {
		BIG(0x8182838485868788ull),
		STX_MEM(DW, 10, 1, -8),
		STX_MEM(W, 10, 1, -16),
		STX_MEM(H, 10, 1, -24),
		STX_MEM(B, 10, 1, -32),
		ST_MEM(DW, 3, 0, -2),
		ST_MEM(W, 3, 8, 0x11223344),
		ST_MEM(H, 3, 12, 0x5566),
		ST_MEM(B, 3, 14, 0x77),
		LDX_MEM(DW, 4, 10, -8),
		LDX_MEM(W, 5, 10, -16),
		LDX_MEM(H, 6, 10, -24),
		LDX_MEM(B, 7, 10, -32),
		STX_MEM(DW, 3, 4, 16),
		STX_MEM(DW, 3, 5, 24),
		STX_MEM(DW, 3, 6, 32),
		STX_MEM(DW, 3, 7, 40),
		LDX_MEMSX(B, 8, 10, -32),
		STX_MEM(DW, 3, 8, 48),
		LDX_MEMSX(H, 8, 10, -24),
		LDX_MEMSX(W, 9, 10, -16),
		ALU64_X(ADD, 8, 9),
		STX_MEM(DW, 3, 8, 56),
		LDX_MEM(W, 0, 3, 8),
		EXIT(),
	};
	uint8_t want[T_OUT] = { 0 };
	uint64_t v;

	CHECK_EQ(t_run_ok(p, SS_ARRAY_SIZE(p), "memory"), 0x11223344);
	memset(want, 0xfe, 1);
	memset(want + 1, 0xff, 7);
	want[8] = 0x44, want[9] = 0x33, want[10] = 0x22, want[11] = 0x11;
	want[12] = 0x66, want[13] = 0x55, want[14] = 0x77;
	v = 0x8182838485868788ull;
	memcpy(want + 16, &v, 8);
	v = 0x85868788ull;
	memcpy(want + 24, &v, 8);
	v = 0x8788;
	memcpy(want + 32, &v, 8);
	v = 0x88;
	memcpy(want + 40, &v, 8);
	v = 0xffffffffffffff88ull;
	memcpy(want + 48, &v, 8);
	v = 0xffffffffffff8788ull + 0xffffffff85868788ull;
	memcpy(want + 56, &v, 8);
	CHECK(memcmp(t_out, want, sizeof(want)) == 0);
	/* stack: 4 stores, 4 loads, 3 sign-extending loads; output: 4 + 6 stores, 1 load */
	CHECK_EQ(t_env.stats.stack_accesses, 4 + 4 + 3);
	CHECK_EQ(t_env.stats.out_accesses, 4 + 6 + 1);
}

/* the record and the context are read; stats count instructions and DRAM loads */
static void test_record_and_ctx(void)
{
	struct ss_bpf_insn p[] = {
		LDX_MEM(DW, 0, 2, 8),   /* the record's u64 at 8 */
		LDX_MEM(DW, 4, 1, 0),   /* ctx->rec_len */
		ALU64_X(ADD, 0, 4),
		LDX_MEM(DW, 4, 1, 8),   /* ctx->rec_index */
		ALU64_X(ADD, 0, 4),
		LDX_MEM(DW, 4, 1, 16),  /* ctx->arg[0] */
		ALU64_X(ADD, 0, 4),
		EXIT(),
	};
	uint8_t rec[T_REC_MIN] = { 0 };
	uint64_t r = 0;

	rec[8] = 100;
	REQUIRE(T_LOAD(p) == 0);
	t_env_reset();
	t_env.ctx.arg[0] = 1000;
	CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 7, &r), 0);
	CHECK_EQ(r, 100 + 16 + 7 + 1000);
	CHECK_EQ(t_env.stats.insns, 8);
	CHECK_EQ(t_env.stats.record_loads, 1);
	CHECK_EQ(t_env.stats.ctx_loads, 3);
	/* a record outside [rec_min, rec_max] is not run */
	CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, T_REC_MIN - 1, 0, &r), -SS_EINVAL);
}

/* the per-record budget stops a run below the program's length */
static void test_budget(void)
{
	struct ss_bpf_insn p[] = {
		MOV64_K(0, 1), ALU64_K(ADD, 0, 1), ALU64_K(ADD, 0, 1), ALU64_K(ADD, 0, 1), EXIT(),
	};
	uint8_t rec[T_REC_MIN] = { 0 };
	uint64_t r = 0;

	REQUIRE(T_LOAD(p) == 0);
	t_env_reset();
	t_env.budget = 3;
	CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), -SS_ETIME);
	CHECK_EQ(t_env.stats.budget_stops, 1);
	CHECK_EQ(t_env.stats.insns, 3);
	t_env.budget = 5;
	CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), 0);
	CHECK_EQ(r, 4);
}

int main(void)
{
	RUN(test_alu);
	RUN(test_div_by_zero_semantics);
	RUN(test_jumps);
	RUN(test_memory);
	RUN(test_record_and_ctx);
	RUN(test_budget);
	return ss_test_status();
}
