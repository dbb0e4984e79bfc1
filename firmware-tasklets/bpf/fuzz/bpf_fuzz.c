#include "bpf_fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ss_bpf.h"
#include "ss_rt.h"

#define FZB_ASSERT(cond)                                                                 \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "bpf fuzz invariant broken at %s:%d: %s\n", __FILE__, \
				__LINE__, #cond);                                        \
			abort();                                                         \
		}                                                                        \
	} while (0)

static struct {
	struct ss_bpf_helpers helpers;
	struct ss_bpf_verifier ws;
	struct ss_bpf_prog prog;
	struct ss_bpf_insn gen[SS_BPF_MAX_INSNS];
	uint8_t stack[SS_BPF_STACK_MAX];
	uint8_t out[128];
	uint8_t emit[512];
	uint8_t rec[130];
	struct ss_bpf_group slots[16];
	struct ss_bpf_top top[4];
	struct fzb_stats st;
} g;

const struct fzb_stats *fzb_stats(void)
{
	return &g.st;
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static struct ss_bpf_insn ins(uint8_t op, unsigned dst, unsigned src, int off, int32_t imm)
{
	struct ss_bpf_insn i = { op, (uint8_t)((dst & 15) | ((src & 15) << 4)), (int16_t)off, imm };

	return i;
}

/*
 * The recipe: 4 bytes an instruction, steered towards what the verifier accepts (valid
 * opcodes, registers that are set, offsets near the buffers, forward jumps) so that the
 * interpreter sees many accepted programs, while staying free to go wrong.
 */
static size_t generate(const uint8_t *p, size_t len)
{
	static const uint8_t alu[] = { 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80,
				       0x90, 0xa0, 0xb0, 0xc0, 0xd0 };
	static const uint8_t jmp[] = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0xa0, 0xb0,
				       0xc0, 0xd0 };
	static const uint8_t base[] = { 1, 2, 3, 10 };
	size_t n = 0, max = SS_BPF_MAX_INSNS - 2;

	/* r0 and r4..r9 start as small constants */
	g.gen[n++] = ins(0xb7, 0, 0, 0, 0);
	for (unsigned r = 4; r <= 9; r++)
		g.gen[n++] = ins(0xb7, r, 0, 0, (int32_t)r);
	for (size_t i = 0; i + 4 <= len && n < max; i += 4) {
		uint8_t a = p[i], b = p[i + 1], c = p[i + 2], d = p[i + 3];
		unsigned dst = c % 10, src = (c >> 4) % 11;
		unsigned sz = (b & 3) << 3;
		int off;

		switch (a % 10) {
		case 0: case 1: case 2: case 3: {
			uint8_t cls = (a & 0x10) ? 0x07 : 0x04;
			uint8_t code = alu[b % sizeof(alu)];
			int x = (a & 0x20) != 0;
			int32_t imm = (int8_t)d;

			if (code == 0xd0) /* END: imm is the width */
				imm = 16 << (d % 3);
			g.gen[n++] = ins((uint8_t)(cls | code | (x ? 8 : 0)), dst,
					 x && code != 0xd0 ? src : 0,
					 (code == 0x30 || code == 0x90) ? (a >> 6) & 1 : 0,
					 x && code != 0xd0 ? 0 : imm);
			break;
		}
		case 4: /* LDX */
			src = base[(c >> 4) & 3];
			off = src == 10 ? -(int)(d % 72) : (int)(d % 72) - 4;
			g.gen[n++] = ins((uint8_t)(((a & 0x40) ? 0x80 : 0x60) | sz | 0x01), dst, src,
					 off, 0);
			break;
		case 5: /* ST, STX */
			dst = base[(c >> 4) & 3];
			off = dst == 10 ? -(int)(d % 72) : (int)(d % 72) - 4;
			if (a & 0x40)
				g.gen[n++] = ins((uint8_t)(0x60 | sz | 0x03), dst, c % 11, off, 0);
			else
				g.gen[n++] = ins((uint8_t)(0x60 | sz | 0x02), dst, 0, off, (int8_t)b);
			break;
		case 6: { /* conditional jump, forward */
			uint8_t cls = (a & 0x10) ? 0x06 : 0x05;
			int x = (a & 0x20) != 0;

			g.gen[n++] = ins((uint8_t)(cls | jmp[b % sizeof(jmp)] | (x ? 8 : 0)), dst,
					 x ? src : 0, d % 8, x ? 0 : (int8_t)(b ^ d));
			break;
		}
		case 7: /* helper call, arguments set up from r4..r9 and pointers */
			g.gen[n++] = ins(0xbf, 1, (a & 0x20) ? 2 : 4 + (d % 6), 0, 0);
			g.gen[n++] = ins(0xb7, 2, 0, 0, (int32_t)(d % 10));
			g.gen[n++] = ins(0x85, 0, 0, 0, b % 7);
			break;
		case 8: /* LDDW */
			g.gen[n++] = ins(0x18, dst, 0, 0, (int32_t)le(p + i, 4));
			g.gen[n++] = ins(0, 0, 0, 0, (int32_t)(b * 0x01010101u));
			break;
		default: /* pointer arithmetic on a copy of a buffer pointer */
			g.gen[n++] = ins(0xbf, dst, base[b & 3], 0, 0);
			g.gen[n++] = ins(0x07, dst, 0, 0, (int8_t)d);
			break;
		}
	}
	g.gen[n++] = ins(0x95, 0, 0, 0, 0);
	return n;
}

int fzb_run(const uint8_t *data, size_t size)
{
	struct ss_bpf_config cfg;
	struct ss_bpf_error err = { -1, 0xffffffffu };
	struct ss_bpf_groups groups;
	struct ss_bpf_topn topn;
	struct ss_bpf_env env;
	const uint8_t *prog, *pool;
	size_t prog_len, pool_len, n, pos = 0;
	uint8_t mode;
	int rc;

	g.st.inputs++;
	if (size < FZB_HDR)
		return 0;
	if (!g.helpers.h[SS_BPF_H_EMIT].fn)
		ss_bpf_helpers_builtin(&g.helpers);
	mode = data[0] % 3;
	memset(&cfg, 0, sizeof(cfg));
	cfg.rec_min = data[1] % 65;
	cfg.rec_max = cfg.rec_min + data[2] % 65;
	cfg.out_size = data[3] % 129;
	cfg.stack_size = 8u * (data[4] % 65);
	cfg.helpers = &g.helpers;
	prog_len = (size_t)le(data + 24, 2);
	if (prog_len > size - FZB_HDR)
		prog_len = size - FZB_HDR;
	prog = data + FZB_HDR;
	pool = prog + prog_len;
	pool_len = size - FZB_HDR - prog_len;

	switch (mode) {
	case 0:
		n = prog_len / sizeof(struct ss_bpf_insn);
		rc = ss_bpf_load(&g.prog, &cfg, prog, n, &g.ws, &err);
		break;
	case 1:
		n = 0;
		rc = ss_bpf_load_elf(&g.prog, &cfg, prog, prog_len, NULL, &g.ws, &err);
		break;
	default:
		n = generate(prog, prog_len);
		rc = ss_bpf_load(&g.prog, &cfg, g.gen, n, &g.ws, &err);
		break;
	}
	if (rc) {
		FZB_ASSERT(rc == -SS_EINVAL || rc == -SS_E2BIG);
		FZB_ASSERT(err.reason > SS_BPF_R_NONE && err.reason < SS_BPF_R_COUNT);
		FZB_ASSERT(err.insn <= SS_BPF_MAX_INSNS);
		FZB_ASSERT(!g.prog.verified);
		return 0;
	}
	FZB_ASSERT(g.prog.verified && err.reason == SS_BPF_R_NONE);
	g.st.accepted++;

	memset(&env, 0, sizeof(env));
	memset(g.out, 0, sizeof(g.out));
	/* stale bytes in the stack must never be readable: fill it with a pattern */
	memset(g.stack, 0xa5, sizeof(g.stack));
	env.stack = g.stack;
	env.out = g.out;
	env.emit = g.emit;
	env.emit_cap = sizeof(g.emit);
	env.budget = data[5];
	ss_bpf_groups_init(&groups, g.slots, SS_ARRAY_SIZE(g.slots));
	ss_bpf_topn_init(&topn, g.top, SS_ARRAY_SIZE(g.top));
	env.groups = &groups;
	env.topn = (data[7] & 1) ? &topn : NULL;
	env.ctx.arg[0] = le(data + 8, 8);
	env.ctx.arg[1] = le(data + 16, 8);

	for (unsigned r = 0; r < data[6] % 9u; r++) {
		uint32_t span = cfg.rec_max - cfg.rec_min + 1;
		uint32_t len = cfg.rec_min + (pool_len ? pool[pos % pool_len] % span : 0);
		uint64_t ret = 0, before = env.stats.insns;

		/* the record exactly len bytes long in a buffer of its own size region */
		for (uint32_t i = 0; i < len; i++)
			g.rec[i] = pool_len ? pool[(pos + 1 + i) % pool_len] : 0;
		pos += 1 + len;
		g.st.runs++;
		rc = ss_bpf_run(&g.prog, &env, g.rec, len, r, &ret);
		FZB_ASSERT(rc == 0 || rc == -SS_EFAULT || rc == -SS_ETIME);
		if (rc == 0)
			g.st.runs_ok++;
		/* no loops: a run never executes more instructions than the program has */
		FZB_ASSERT(env.stats.insns - before <= g.prog.n_insns);
		FZB_ASSERT(!env.budget || env.stats.insns - before <= env.budget);
		FZB_ASSERT(env.emit_len <= env.emit_cap);
		FZB_ASSERT(groups.used < groups.cap && (!env.topn || topn.n <= topn.cap));
	}
	g.st.insns += env.stats.insns;
	return 0;
}

size_t fzb_input(uint8_t *out, uint8_t mode, uint8_t rec_min, uint8_t rec_span, uint8_t out_size,
		 uint8_t stack, uint8_t nrec, uint64_t arg0, uint64_t arg1, const void *prog,
		 uint16_t prog_len, const void *recs, size_t rec_len)
{
	memset(out, 0, FZB_HDR);
	out[0] = mode;
	out[1] = rec_min;
	out[2] = rec_span;
	out[3] = out_size;
	out[4] = stack;
	out[5] = 0;
	out[6] = nrec;
	out[7] = 1;
	for (int i = 0; i < 8; i++) {
		out[8 + i] = (uint8_t)(arg0 >> (8 * i));
		out[16 + i] = (uint8_t)(arg1 >> (8 * i));
	}
	out[24] = (uint8_t)prog_len;
	out[25] = (uint8_t)(prog_len >> 8);
	memcpy(out + FZB_HDR, prog, prog_len);
	memcpy(out + FZB_HDR + prog_len, recs, rec_len);
	return FZB_HDR + prog_len + rec_len;
}
