/*
 * The verifier: a structural pass (opcodes, registers, reserved fields, jump targets), then
 * an abstract interpretation of the program in instruction order. Jumps go forward only, so
 * every predecessor of an instruction comes before it and one pass in index order, joining
 * the states that reach each target, covers every path. Each register is uninitialised, a
 * scalar with an unsigned range, or a pointer into the context, the record, the stack or
 * the output buffer with a signed offset range; each 8-byte stack slot is the same, plus
 * which of its bytes were written. Whatever cannot be proven is refused.
 */
#include "bpf_internal.h"
#include "ss_rt.h"

enum { T_UNINIT = 0, T_SCALAR = 1 /* pointers: 1 + REG_* */ };
#define T_PTR(region) (1 + (region))
#define IS_PTR(t) ((t) > T_SCALAR)
#define REGION(t) ((t) - 1)

#define U64_MAX (~(uint64_t)0)
#define U32_MAX 0xffffffffull
/* pointer offsets beyond this are "anywhere" */
#define OFF_LIMIT ((int64_t)1 << 40)

#define AUX_WIDE2 0x02 /* the second half of an LDDW, during the structural pass */

struct vctx {
	struct ss_bpf_prog *p;
	struct ss_bpf_verifier *ws;
	struct ss_bpf_error *err;
	uint32_t pc;
};

static int refuse(struct vctx *v, int reason)
{
	v->err->reason = reason;
	v->err->insn = v->pc;
	return reason == SS_BPF_R_TOO_BIG || reason == SS_BPF_R_TOO_COMPLEX ? -SS_E2BIG
									   : -SS_EINVAL;
}

/* the low halves of [lo, hi]: exact when the high halves agree, else anything */
static void set_low32(struct ss_bpf_vreg *r)
{
	if ((r->lo >> 32) == (r->hi >> 32)) {
		r->lo32 = (uint32_t)r->lo;
		r->hi32 = (uint32_t)r->hi;
	} else {
		r->lo32 = 0;
		r->hi32 = 0xffffffffu;
	}
}

static struct ss_bpf_vreg scalar(uint64_t lo, uint64_t hi)
{
	struct ss_bpf_vreg r = { .type = T_SCALAR, .lo = lo, .hi = hi };

	set_low32(&r);
	return r;
}

static uint64_t width_max(unsigned n)
{
	return n >= 8 ? U64_MAX : ((uint64_t)1 << (n * 8)) - 1;
}

static int is_const(const struct ss_bpf_vreg *r)
{
	return r->type == T_SCALAR && r->lo == r->hi;
}

/* ---- joins ------------------------------------------------------------------------- */

static void join_reg(struct ss_bpf_vreg *a, const struct ss_bpf_vreg *b, int slot)
{
	uint8_t init = a->init & b->init;

	if (a->type != b->type) {
		ss_memset(a, 0, sizeof(*a));
		/* a scalar on one path and a pointer on the other: neither may be read back */
		a->type = T_UNINIT;
		return;
	}
	if (a->type == T_SCALAR) {
		a->lo = SS_MIN(a->lo, b->lo);
		a->hi = SS_MAX(a->hi, b->hi);
		a->lo32 = SS_MIN(a->lo32, b->lo32);
		a->hi32 = SS_MAX(a->hi32, b->hi32);
	} else if (IS_PTR(a->type)) {
		a->lo = (uint64_t)SS_MIN((int64_t)a->lo, (int64_t)b->lo);
		a->hi = (uint64_t)SS_MAX((int64_t)a->hi, (int64_t)b->hi);
	}
	if (a->id != b->id)
		a->id = 0;
	if (slot)
		a->init = init;
}

static void join(struct ss_bpf_vstate *a, const struct ss_bpf_vstate *b)
{
	for (int i = 0; i < 11; i++)
		join_reg(&a->r[i], &b->r[i], 0);
	for (unsigned i = 0; i < SS_ARRAY_SIZE(a->slot); i++)
		join_reg(&a->slot[i], &b->slot[i], 1);
}

/* Hand a state to a later instruction: joined with what is already waiting there. */
static int push(struct vctx *v, uint32_t target, const struct ss_bpf_vstate *s)
{
	struct ss_bpf_verifier *ws = v->ws;
	int free_i = -1;

	for (unsigned i = 0; i < SS_BPF_MAX_PENDING; i++) {
		if (ws->pending_used[i] && ws->pending_pc[i] == target) {
			join(&ws->pending[i], s);
			return 0;
		}
		if (!ws->pending_used[i] && free_i < 0)
			free_i = (int)i;
	}
	if (free_i < 0)
		return refuse(v, SS_BPF_R_TOO_COMPLEX);
	ws->pending_used[free_i] = 1;
	ws->pending_pc[free_i] = target;
	ws->pending[free_i] = *s;
	return 0;
}

/* ---- the structural pass -------------------------------------------------------------- */

static int check_jump(struct vctx *v, int64_t target)
{
	if (target < 0 || target >= v->p->n_insns)
		return refuse(v, SS_BPF_R_JUMP_OUT);
	if (target <= v->pc)
		return refuse(v, SS_BPF_R_BACK_EDGE);
	if (v->p->aux[target] & AUX_WIDE2)
		return refuse(v, SS_BPF_R_JUMP_MID_LDDW);
	return 0;
}

static int structure_one(struct vctx *v, const struct ss_bpf_insn *in)
{
	uint8_t op = in->opcode;
	uint8_t c = CLASS(op);
	int rc;

	if (DST(in) > 10 || SRC(in) > 10)
		return refuse(v, SS_BPF_R_BAD_REG);
	switch (c) {
	case C_ALU:
	case C_ALU64:
		rc = ss_bpf_alu_valid(in);
		if (rc)
			return refuse(v, rc);
		if (DST(in) == 10)
			return refuse(v, SS_BPF_R_WRITE_R10);
		return 0;
	case C_LD:
		if (op != LDDW)
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if (v->pc + 1 >= v->p->n_insns)
			return refuse(v, SS_BPF_R_LDDW_TRUNCATED);
		/* pseudo sources (maps, BTF) are not supported */
		if (SRC(in) != 0)
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if (in->off || in[1].opcode || in[1].regs || in[1].off)
			return refuse(v, SS_BPF_R_BAD_FIELD);
		if (DST(in) == 10)
			return refuse(v, SS_BPF_R_WRITE_R10);
		return 0;
	case C_LDX:
		if (MODE(op) != M_MEM && !(MODE(op) == M_MEMSX && SIZE(op) != S_DW))
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if (in->imm)
			return refuse(v, SS_BPF_R_BAD_FIELD);
		if (DST(in) == 10)
			return refuse(v, SS_BPF_R_WRITE_R10);
		return 0;
	case C_ST:
	case C_STX:
		/* atomics are not supported */
		if (MODE(op) != M_MEM)
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if ((c == C_ST && SRC(in)) || (c == C_STX && in->imm))
			return refuse(v, SS_BPF_R_BAD_FIELD);
		return 0;
	default: /* C_JMP, C_JMP32 */
		break;
	}
	switch (CODE(op)) {
	case J_JA:
		if ((op & SRC_X) || in->regs || (c == C_JMP ? in->imm : in->off))
			return refuse(v, SS_BPF_R_BAD_FIELD);
		return check_jump(v, (int64_t)v->pc + 1 + (c == C_JMP ? in->off : in->imm));
	case J_CALL:
		if (c != C_JMP || (op & SRC_X))
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		/* src 1 (local calls) and 2 (helpers by BTF id) are not supported */
		if (SRC(in) != 0)
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if (DST(in) || in->off)
			return refuse(v, SS_BPF_R_BAD_FIELD);
		return 0;
	case J_EXIT:
		if (c != C_JMP || (op & SRC_X))
			return refuse(v, SS_BPF_R_BAD_OPCODE);
		if (in->regs || in->off || in->imm)
			return refuse(v, SS_BPF_R_BAD_FIELD);
		return 0;
	case 0xe0:
	case 0xf0:
		return refuse(v, SS_BPF_R_BAD_OPCODE);
	default:
		if ((op & SRC_X) ? in->imm != 0 : SRC(in) != 0)
			return refuse(v, SS_BPF_R_BAD_FIELD);
		return check_jump(v, (int64_t)v->pc + 1 + in->off);
	}
}

static int structure(struct vctx *v)
{
	struct ss_bpf_prog *p = v->p;
	int rc;

	for (uint32_t i = 0; i + 1 < p->n_insns; i++) {
		if (p->insns[i].opcode == LDDW && !(p->aux[i] & AUX_WIDE2))
			p->aux[i + 1] = AUX_WIDE2;
	}
	for (v->pc = 0; v->pc < p->n_insns; v->pc++) {
		if (p->aux[v->pc] & AUX_WIDE2)
			continue;
		rc = structure_one(v, &p->insns[v->pc]);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- scalar arithmetic on ranges ------------------------------------------------------ */

static uint64_t spread(uint64_t m)
{
	m |= m >> 1;
	m |= m >> 2;
	m |= m >> 4;
	m |= m >> 8;
	m |= m >> 16;
	m |= m >> 32;
	return m;
}

/* the range of op on [al, ah] and [bl, bh], 64-bit unsigned; bl >= 1 for DIV and MOD */
static struct ss_bpf_vreg range_op(const struct ss_bpf_insn *in, uint64_t al, uint64_t ah,
				   uint64_t bl, uint64_t bh, int bconst, int bits)
{
	uint64_t x, y;

	switch (CODE(in->opcode)) {
	case A_ADD:
		if (!__builtin_add_overflow(ah, bh, &y))
			return scalar(al + bl, y);
		break;
	case A_SUB:
		if (al >= bh)
			return scalar(al - bh, ah - bl);
		break;
	case A_MUL:
		if (!__builtin_mul_overflow(ah, bh, &y))
			return scalar(al * bl, y);
		break;
	case A_DIV:
		if (in->off == 0)
			return scalar(al / bh, ah / bl);
		break;
	case A_MOD:
		if (in->off == 0)
			return scalar(0, SS_MIN(ah, bh - 1));
		break;
	case A_MOV:
		return scalar(bl, bh);
	case A_AND:
		return scalar(0, SS_MIN(ah, bh));
	case A_OR:
	case A_XOR:
		return scalar(0, spread(ah | bh));
	case A_LSH:
		if (bconst) {
			unsigned k = bl & (bits - 1);

			x = ah << k;
			if (k == 0 || (x >> k) == ah)
				return scalar(al << k, x);
		}
		break;
	case A_ARSH:
		if (ah > (bits == 64 ? (U64_MAX >> 1) : (U32_MAX >> 1)))
			break;
		/* a non-negative value shifts as RSH */
		/* fall through */
	case A_RSH:
		if (bconst)
			return scalar(al >> (bl & (bits - 1)), ah >> (bl & (bits - 1)));
		return scalar(0, ah);
	default:
		break;
	}
	return scalar(0, bits == 64 ? U64_MAX : U32_MAX);
}

static int ptr_add(struct ss_bpf_vreg *p, int64_t lo, int64_t hi)
{
	int64_t a, b;

	if ((int64_t)p->lo <= -OFF_LIMIT || (int64_t)p->hi >= OFF_LIMIT ||
	    __builtin_add_overflow((int64_t)p->lo, lo, &a) ||
	    __builtin_add_overflow((int64_t)p->hi, hi, &b) || a <= -OFF_LIMIT || b >= OFF_LIMIT) {
		p->lo = (uint64_t)-OFF_LIMIT;
		p->hi = (uint64_t)OFF_LIMIT;
		return 0;
	}
	p->lo = (uint64_t)a;
	p->hi = (uint64_t)b;
	return 0;
}

static int scalar_as_offset(const struct ss_bpf_vreg *s, int64_t *lo, int64_t *hi)
{
	if (s->hi >= (uint64_t)OFF_LIMIT) {
		/* a negative constant (an immediate sign-extended) is a fine offset too */
		if (s->lo == s->hi && (int64_t)s->lo > -OFF_LIMIT) {
			*lo = *hi = (int64_t)s->lo;
			return 0;
		}
		*lo = -OFF_LIMIT;
		*hi = OFF_LIMIT;
		return 0;
	}
	*lo = (int64_t)s->lo;
	*hi = (int64_t)s->hi;
	return 0;
}

static int do_alu(struct vctx *v, const struct ss_bpf_insn *in)
{
	struct ss_bpf_vstate *st = &v->ws->cur;
	struct ss_bpf_vreg *d = &st->r[DST(in)];
	struct ss_bpf_vreg s;
	int is64 = CLASS(in->opcode) == C_ALU64;
	int bits = is64 ? 64 : 32;
	uint8_t code = CODE(in->opcode);
	int64_t lo, hi;

	if (code == A_END) {
		s = scalar(0, 0); /* the source bit is the byte order, not a register */
	} else if (in->opcode & SRC_X) {
		s = st->r[SRC(in)];
		if (s.type == T_UNINIT)
			return refuse(v, SS_BPF_R_UNINIT_REG);
	} else {
		s = scalar((uint64_t)(int64_t)in->imm, (uint64_t)(int64_t)in->imm);
	}
	if (code == A_MOV) {
		if (IS_PTR(s.type)) {
			if (!is64 || in->off)
				return refuse(v, SS_BPF_R_POINTER_LEAK);
			*d = s;
			return 0;
		}
		if (is64 && in->off == 0) {
			if (in->opcode & SRC_X) {
				if (st->r[SRC(in)].id == 0)
					st->r[SRC(in)].id = ++v->ws->next_id;
				*d = st->r[SRC(in)];
			} else {
				*d = s;
			}
			return 0;
		}
		/* fall through to the generic scalar case, with d's old value unused */
		*d = scalar(0, 0);
	}
	if (d->type == T_UNINIT)
		return refuse(v, SS_BPF_R_UNINIT_REG);
	/* ALU32 divides by the low half only */
	if ((code == A_DIV || code == A_MOD) && s.type == T_SCALAR &&
	    (is64 ? s.lo == 0 : s.lo32 == 0))
		return refuse(v, SS_BPF_R_DIV_BY_ZERO);
	if (IS_PTR(d->type)) {
		if (!is64 || IS_PTR(s.type) || (code != A_ADD && code != A_SUB))
			return refuse(v, SS_BPF_R_POINTER_ARITH);
		scalar_as_offset(&s, &lo, &hi);
		if (code == A_ADD)
			return ptr_add(d, lo, hi);
		return ptr_add(d, -hi, -lo);
	}
	if (IS_PTR(s.type)) {
		if (!is64 || code != A_ADD)
			return refuse(v, SS_BPF_R_POINTER_ARITH);
		scalar_as_offset(d, &lo, &hi);
		*d = s;
		d->id = 0;
		return ptr_add(d, lo, hi);
	}
	/* scalar op scalar */
	if (is_const(d) && s.lo == s.hi) {
		uint64_t r = ss_bpf_alu(in, d->lo, s.lo);

		*d = scalar(r, r);
		return 0;
	}
	if (code == A_END) {
		uint64_t m = width_max((unsigned)in->imm / 8);
		int to_le = !is64 && !(in->opcode & SRC_X);

		/* to little-endian on a little-endian drive only truncates */
		*d = to_le && d->hi <= m ? *d : scalar(0, m);
		d->id = 0;
		return 0;
	}
	if (code == A_NEG || (code == A_MOV && in->off)) {
		*d = scalar(0, bits == 64 ? U64_MAX : U32_MAX);
		return 0;
	}
	if (!is64) {
		*d = range_op(in, d->lo32, d->hi32, s.lo32, s.hi32, s.lo32 == s.hi32, 32);
		if (d->hi > U32_MAX)
			*d = scalar(0, U32_MAX);
		return 0;
	}
	if (code == A_LSH && s.lo == s.hi && (s.lo & 63) >= 32) {
		/* x << k for k >= 32 depends on x's low half only: how clang zero-extends */
		unsigned k = s.lo & 63;
		uint64_t h32 = d->hi32;

		*d = (h32 >> (64 - k)) == 0 ? scalar((uint64_t)d->lo32 << k, h32 << k)
					    : scalar(0, U64_MAX);
		return 0;
	}
	*d = range_op(in, d->lo, d->hi, s.lo, s.hi, s.lo == s.hi, 64);
	return 0;
}

/* ---- memory ----------------------------------------------------------------------------- */

static uint64_t region_size(struct vctx *v, int region)
{
	switch (region) {
	case REG_CTX: return sizeof(struct ss_bpf_ctx);
	case REG_REC: return v->p->cfg.rec_max;
	case REG_OUT: return v->p->cfg.out_size;
	default: return 0;
	}
}

/* Check [ptr + off, ptr + off + n) lies in its region for every offset ptr may have. */
static int check_access(struct vctx *v, const struct ss_bpf_vreg *ptr, int64_t off, uint64_t n,
			int store)
{
	int region = REGION(ptr->type);
	int64_t lo = (int64_t)ptr->lo + off, hi = (int64_t)ptr->hi + off + (int64_t)n;

	if ((int64_t)ptr->lo <= -OFF_LIMIT || (int64_t)ptr->hi >= OFF_LIMIT)
		return refuse(v, SS_BPF_R_OUT_OF_BOUNDS);
	if (store && (region == REG_CTX || region == REG_REC))
		return refuse(v, SS_BPF_R_READ_ONLY);
	if (region == REG_STACK) {
		if (lo != hi - (int64_t)n)
			return refuse(v, SS_BPF_R_OUT_OF_BOUNDS); /* variable stack offsets */
		if (hi > 0)
			return refuse(v, SS_BPF_R_OUT_OF_BOUNDS);
		if (lo < -(int64_t)v->p->cfg.stack_size)
			return refuse(v, SS_BPF_R_STACK_LIMIT);
	} else if (lo < 0 || hi > (int64_t)region_size(v, region)) {
		return refuse(v, SS_BPF_R_OUT_OF_BOUNDS);
	}
	return 0;
}

/* the slot index and byte of a stack offset (negative, from r10) */
static unsigned slot_of(struct vctx *v, int64_t off)
{
	return (unsigned)((off + (int64_t)SS_BPF_STACK_MAX) / 8);
}

static int stack_read(struct vctx *v, int64_t off, unsigned n, struct ss_bpf_vreg *out)
{
	struct ss_bpf_vstate *st = &v->ws->cur;

	if (n == 8 && ((off + SS_BPF_STACK_MAX) & 7) == 0) {
		struct ss_bpf_vreg *s = &st->slot[slot_of(v, off)];

		if (s->type == T_UNINIT || s->init != 0xff)
			return refuse(v, SS_BPF_R_UNINIT_STACK);
		*out = *s;
		out->init = 0;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		int64_t b = off + i;
		struct ss_bpf_vreg *s = &st->slot[slot_of(v, b)];

		if (!(s->init & (1u << ((b + SS_BPF_STACK_MAX) & 7))) || s->type == T_UNINIT)
			return refuse(v, SS_BPF_R_UNINIT_STACK);
		if (IS_PTR(s->type))
			return refuse(v, SS_BPF_R_POINTER_LEAK);
	}
	*out = scalar(0, width_max(n));
	return 0;
}

static int stack_write(struct vctx *v, int64_t off, unsigned n, const struct ss_bpf_vreg *val)
{
	struct ss_bpf_vstate *st = &v->ws->cur;

	if (n == 8 && ((off + SS_BPF_STACK_MAX) & 7) == 0) {
		struct ss_bpf_vreg *s = &st->slot[slot_of(v, off)];

		*s = *val;
		s->init = 0xff;
		return 0;
	}
	if (IS_PTR(val->type))
		return refuse(v, SS_BPF_R_POINTER_LEAK);
	for (unsigned i = 0; i < n; i++) {
		int64_t b = off + i;
		struct ss_bpf_vreg *s = &st->slot[slot_of(v, b)];

		/* half a pointer overwritten would leave the other half readable */
		if (IS_PTR(s->type))
			return refuse(v, SS_BPF_R_POINTER_LEAK);
		if (s->type != T_SCALAR || s->lo != 0 || s->hi != U64_MAX || s->id) {
			uint8_t init = s->type == T_UNINIT ? 0 : s->init;

			*s = scalar(0, U64_MAX);
			s->init = init;
		}
		s->init |= (uint8_t)(1u << ((b + SS_BPF_STACK_MAX) & 7));
	}
	return 0;
}

static int do_mem(struct vctx *v, const struct ss_bpf_insn *in)
{
	struct ss_bpf_vstate *st = &v->ws->cur;
	uint8_t c = CLASS(in->opcode);
	int load = c == C_LDX;
	unsigned n = size_bytes(in->opcode);
	const struct ss_bpf_vreg *base = &st->r[load ? SRC(in) : DST(in)];
	struct ss_bpf_vreg val;
	int region, rc;

	if (base->type == T_UNINIT)
		return refuse(v, SS_BPF_R_UNINIT_REG);
	if (!IS_PTR(base->type))
		return refuse(v, SS_BPF_R_NOT_POINTER);
	region = REGION(base->type);
	rc = check_access(v, base, in->off, n, !load);
	if (rc)
		return rc;
	v->p->aux[v->pc] = (uint8_t)(region << 4);
	if (region == REG_REC && (int64_t)base->hi + in->off + (int64_t)n > (int64_t)v->p->cfg.rec_min)
		v->p->aux[v->pc] |= SS_BPF_AUX_RUNTIME_CHECK;
	if (load) {
		if (region == REG_STACK) {
			rc = stack_read(v, (int64_t)base->lo + in->off, n, &val);
			if (rc)
				return rc;
			if (MODE(in->opcode) == M_MEMSX || (n < 8 && val.hi > width_max(n)))
				val = scalar(0, MODE(in->opcode) == M_MEMSX ? U64_MAX : width_max(n));
		} else if (region == REG_CTX && in->off == 0 && base->lo == 0 && base->hi == 0 &&
			   n == 8) {
			val = scalar(v->p->cfg.rec_min, v->p->cfg.rec_max); /* ctx->rec_len */
		} else {
			val = scalar(0, MODE(in->opcode) == M_MEMSX ? U64_MAX : width_max(n));
		}
		st->r[DST(in)] = val;
		return 0;
	}
	if (c == C_ST) {
		val = scalar((uint64_t)(int64_t)in->imm, (uint64_t)(int64_t)in->imm);
		if (n < 8)
			val = scalar(val.lo & width_max(n), val.lo & width_max(n));
	} else {
		val = st->r[SRC(in)];
		if (val.type == T_UNINIT)
			return refuse(v, SS_BPF_R_UNINIT_REG);
	}
	if (region == REG_STACK)
		return stack_write(v, (int64_t)base->lo + in->off, n, &val);
	if (IS_PTR(val.type))
		return refuse(v, SS_BPF_R_POINTER_LEAK);
	return 0;
}

/* ---- calls ---------------------------------------------------------------------------- */

static int check_mem_arg(struct vctx *v, const struct ss_bpf_vreg *p, const struct ss_bpf_vreg *len)
{
	if (!IS_PTR(p->type) || len->type != T_SCALAR || len->lo < 1 ||
	    len->hi > SS_BPF_EMIT_MAX)
		return refuse(v, SS_BPF_R_HELPER_ARG);
	if ((int64_t)p->lo <= -OFF_LIMIT || (int64_t)p->hi >= OFF_LIMIT)
		return refuse(v, SS_BPF_R_HELPER_ARG);
	if (REGION(p->type) == REG_STACK) {
		struct ss_bpf_vreg dummy;

		if (p->lo != p->hi || len->lo != len->hi)
			return refuse(v, SS_BPF_R_HELPER_ARG);
		if ((int64_t)p->lo < -(int64_t)v->p->cfg.stack_size ||
		    (int64_t)p->lo + (int64_t)len->hi > 0)
			return refuse(v, SS_BPF_R_HELPER_ARG);
		/* every byte written, none a pointer's */
		for (uint64_t i = 0; i < len->hi; i++) {
			if (stack_read(v, (int64_t)p->lo + (int64_t)i, 1, &dummy))
				return refuse(v, SS_BPF_R_HELPER_ARG);
		}
		return 0;
	}
	if ((int64_t)p->lo < 0 ||
	    (int64_t)p->hi + (int64_t)len->hi >
		    (int64_t)(REGION(p->type) == REG_REC ? v->p->cfg.rec_min
							 : region_size(v, REGION(p->type))))
		return refuse(v, SS_BPF_R_HELPER_ARG);
	return 0;
}

static int do_call(struct vctx *v, const struct ss_bpf_insn *in)
{
	struct ss_bpf_vstate *st = &v->ws->cur;
	const struct ss_bpf_helpers *t = v->p->cfg.helpers;
	const struct ss_bpf_helper *h;
	uint64_t ret_max;
	int rc;

	if (in->imm <= 0 || (uint32_t)in->imm >= SS_BPF_MAX_HELPERS || !t->h[in->imm].fn)
		return refuse(v, SS_BPF_R_UNKNOWN_HELPER);
	h = &t->h[in->imm];
	ret_max = h->ret_max;
	for (int i = 0; i < 5; i++) {
		const struct ss_bpf_vreg *a = &st->r[1 + i];

		switch (h->arg[i]) {
		case SS_BPF_ARG_NONE:
			break;
		case SS_BPF_ARG_SCALAR:
			if (a->type != T_SCALAR)
				return refuse(v, IS_PTR(a->type) ? SS_BPF_R_POINTER_LEAK
								 : SS_BPF_R_HELPER_ARG);
			break;
		case SS_BPF_ARG_MEM:
			if (i == 4 || h->arg[i + 1] != SS_BPF_ARG_MEM_LEN)
				return refuse(v, SS_BPF_R_HELPER_ARG);
			rc = check_mem_arg(v, a, a + 1);
			if (rc)
				return rc;
			i++;
			break;
		case SS_BPF_ARG_REC_OFF:
			if (i == 4 || h->arg[i + 1] != SS_BPF_ARG_WIDTH || a->type != T_SCALAR ||
			    !is_const(a + 1) ||
			    (a[1].lo != 1 && a[1].lo != 2 && a[1].lo != 4 && a[1].lo != 8) ||
			    a->hi > v->p->cfg.rec_max || a->hi + a[1].lo > v->p->cfg.rec_max)
				return refuse(v, SS_BPF_R_HELPER_ARG);
			ret_max = SS_MIN(ret_max, width_max((unsigned)a[1].lo));
			i++;
			break;
		default: /* a lone MEM_LEN or WIDTH */
			return refuse(v, SS_BPF_R_HELPER_ARG);
		}
	}
	for (int i = 1; i <= 5; i++)
		ss_memset(&st->r[i], 0, sizeof(st->r[i]));
	st->r[0] = scalar(0, ret_max);
	return 0;
}

/* ---- jumps ---------------------------------------------------------------------------- */

/* narrow [lo, hi] by "r op k" being `taken`; \return 0 when no value satisfies it */
static int refine(uint8_t code, uint64_t *lo, uint64_t *hi, uint64_t k, int taken)
{
	/* express every test as taken-form: JNE not taken is JEQ taken, and so on */
	static const uint8_t negate[16] = {
		[J_JEQ >> 4] = J_JNE, [J_JNE >> 4] = J_JEQ, [J_JGT >> 4] = J_JLE,
		[J_JLE >> 4] = J_JGT, [J_JGE >> 4] = J_JLT, [J_JLT >> 4] = J_JGE,
	};

	if (!taken)
		code = negate[code >> 4];
	switch (code) {
	case J_JEQ:
		if (k < *lo || k > *hi)
			return 0;
		*lo = *hi = k;
		break;
	case J_JNE:
		if (*lo == k && *hi == k)
			return 0;
		if (*lo == k)
			(*lo)++;
		else if (*hi == k)
			(*hi)--;
		break;
	case J_JGT:
		if (k == U64_MAX)
			return 0;
		*lo = SS_MAX(*lo, k + 1);
		break;
	case J_JGE:
		*lo = SS_MAX(*lo, k);
		break;
	case J_JLT:
		if (k == 0)
			return 0;
		*hi = SS_MIN(*hi, k - 1);
		break;
	case J_JLE:
		*hi = SS_MIN(*hi, k);
		break;
	default:
		break;
	}
	return *lo <= *hi;
}

/* narrow one register to [lo, hi], of its 64 bits or (is32) of its low half */
static void narrow(struct ss_bpf_vreg *r, uint64_t lo, uint64_t hi, int is32)
{
	if (!is32) {
		r->lo = lo;
		r->hi = hi;
		/* the old low-half range stays true when the new one is not exact */
		if ((lo >> 32) == (hi >> 32))
			set_low32(r);
		return;
	}
	r->lo32 = (uint32_t)lo;
	r->hi32 = (uint32_t)hi;
	if (r->hi <= U32_MAX) {
		r->lo = lo;
		r->hi = hi;
	}
}

/* apply the refined range to the register and every copy of it (same id) */
static void set_range(struct ss_bpf_vstate *s, int reg, uint64_t lo, uint64_t hi, int is32)
{
	uint32_t id = s->r[reg].id;

	narrow(&s->r[reg], lo, hi, is32);
	if (!id)
		return;
	for (int i = 0; i < 11; i++) {
		if (i != reg && s->r[i].type == T_SCALAR && s->r[i].id == id)
			narrow(&s->r[i], lo, hi, is32);
	}
	for (unsigned i = 0; i < SS_ARRAY_SIZE(s->slot); i++) {
		if (s->slot[i].type == T_SCALAR && s->slot[i].id == id)
			narrow(&s->slot[i], lo, hi, is32);
	}
}

static int do_cond(struct vctx *v, const struct ss_bpf_insn *in, uint32_t target)
{
	struct ss_bpf_vstate *st = &v->ws->cur;
	struct ss_bpf_vstate *taken = &v->ws->scratch;
	const struct ss_bpf_vreg *d = &st->r[DST(in)];
	struct ss_bpf_vreg s;
	uint8_t code = CODE(in->opcode);
	int is32 = CLASS(in->opcode) == C_JMP32;
	uint64_t k, lo, hi, dlo, dhi, slo, shi;
	int can_take = 1, can_fall = 1, rc;

	if (in->opcode & SRC_X) {
		s = st->r[SRC(in)];
	} else {
		k = is32 ? (uint32_t)in->imm : (uint64_t)(int64_t)in->imm;
		s = scalar(k, k);
	}
	if (d->type == T_UNINIT || s.type == T_UNINIT)
		return refuse(v, SS_BPF_R_UNINIT_REG);
	if (IS_PTR(d->type) || IS_PTR(s.type))
		return refuse(v, SS_BPF_R_POINTER_LEAK);
	/* JMP32 compares the low halves */
	dlo = is32 ? d->lo32 : d->lo;
	dhi = is32 ? d->hi32 : d->hi;
	slo = is32 ? s.lo32 : s.lo;
	shi = is32 ? s.hi32 : s.hi;
	/* the ranges decide JSGT and friends too when both sides are non-negative */
	if (code == J_JSGT || code == J_JSGE || code == J_JSLT || code == J_JSLE) {
		uint64_t smax = is32 ? (U32_MAX >> 1) : (U64_MAX >> 1);

		if (dhi <= smax && shi <= smax)
			code = code == J_JSGT ? J_JGT : code == J_JSGE ? J_JGE
			     : code == J_JSLT ? J_JLT : J_JLE;
	}
	if (slo == shi && code != J_JSET && code != J_JSGT && code != J_JSGE &&
	    code != J_JSLT && code != J_JSLE) {
		/* the taken side into the scratch state, the fall-through side in place */
		lo = dlo;
		hi = dhi;
		can_take = refine(code, &lo, &hi, slo, 1);
		if (can_take) {
			ss_memcpy(taken, st, sizeof(*st));
			set_range(taken, DST(in), lo, hi, is32);
		}
		lo = dlo;
		hi = dhi;
		can_fall = refine(code, &lo, &hi, slo, 0);
		if (can_take) {
			rc = push(v, target, taken);
			if (rc)
				return rc;
		}
		if (can_fall)
			set_range(st, DST(in), lo, hi, is32);
		return can_fall;
	}
	rc = push(v, target, st);
	return rc ? rc : 1;
}

/* ---- the walk ------------------------------------------------------------------------- */

static int step(struct vctx *v, const struct ss_bpf_insn *in)
{
	struct ss_bpf_vstate *st = &v->ws->cur;
	uint8_t c = CLASS(in->opcode);
	uint64_t k;
	int rc;

	switch (c) {
	case C_ALU:
	case C_ALU64:
		rc = do_alu(v, in);
		return rc ? rc : 1;
	case C_LD:
		k = (uint32_t)in->imm | ((uint64_t)(uint32_t)in[1].imm << 32);
		st->r[DST(in)] = scalar(k, k);
		return 1;
	case C_LDX:
	case C_ST:
	case C_STX:
		rc = do_mem(v, in);
		return rc ? rc : 1;
	default:
		break;
	}
	switch (CODE(in->opcode)) {
	case J_EXIT:
		if (st->r[0].type == T_UNINIT)
			return refuse(v, SS_BPF_R_UNINIT_REG);
		if (IS_PTR(st->r[0].type))
			return refuse(v, SS_BPF_R_POINTER_LEAK);
		return 0;
	case J_CALL:
		rc = do_call(v, in);
		return rc ? rc : 1;
	case J_JA:
		rc = push(v, v->pc + 1 + (c == C_JMP ? in->off : in->imm), st);
		return rc ? rc : 0;
	default:
		return do_cond(v, in, v->pc + 1 + in->off);
	}
}

static int take_pending(struct ss_bpf_verifier *ws, uint32_t pc, int live)
{
	for (unsigned i = 0; i < SS_BPF_MAX_PENDING; i++) {
		if (!ws->pending_used[i] || ws->pending_pc[i] != pc)
			continue;
		if (live)
			join(&ws->cur, &ws->pending[i]);
		else
			ws->cur = ws->pending[i];
		ws->pending_used[i] = 0;
		return 1;
	}
	return live;
}

int ss_bpf_verify(struct ss_bpf_prog *p, struct ss_bpf_verifier *ws, struct ss_bpf_error *err)
{
	struct vctx v = { .p = p, .ws = ws, .err = err };
	const struct ss_bpf_config *cfg = &p->cfg;
	uint32_t max = cfg->max_insns && cfg->max_insns < SS_BPF_MAX_INSNS ? cfg->max_insns
									     : SS_BPF_MAX_INSNS;
	int live = 1, rc;

	p->verified = 0;
	err->reason = SS_BPF_R_NONE;
	err->insn = 0;
	if (!cfg->helpers || cfg->rec_min > cfg->rec_max || cfg->stack_size > SS_BPF_STACK_MAX ||
	    cfg->stack_size % 8)
		return refuse(&v, SS_BPF_R_BAD_FIELD);
	if (p->n_insns == 0)
		return refuse(&v, SS_BPF_R_EMPTY);
	if (p->n_insns > max) {
		v.pc = max;
		return refuse(&v, SS_BPF_R_TOO_BIG);
	}
	ss_memset(p->aux, 0, p->n_insns);
	rc = structure(&v);
	if (rc)
		return rc;

	ss_memset(&ws->cur, 0, sizeof(ws->cur));
	ss_memset(ws->pending_used, 0, sizeof(ws->pending_used));
	ws->next_id = 0;
	ws->cur.r[1].type = T_PTR(REG_CTX);
	ws->cur.r[2].type = T_PTR(REG_REC);
	ws->cur.r[3].type = T_PTR(REG_OUT);
	ws->cur.r[10].type = T_PTR(REG_STACK);

	for (v.pc = 0; v.pc < p->n_insns; v.pc++) {
		const struct ss_bpf_insn *in = &p->insns[v.pc];

		if (p->aux[v.pc] & AUX_WIDE2) {
			p->aux[v.pc] = 0;
			continue;
		}
		live = take_pending(ws, v.pc, live);
		if (!live)
			continue; /* dead code: never run, nothing to prove */
		rc = step(&v, in);
		if (rc < 0)
			return rc;
		live = rc;
		if (live && v.pc + (in->opcode == LDDW ? 2u : 1u) >= p->n_insns)
			return refuse(&v, SS_BPF_R_FALL_OFF);
	}
	p->verified = 1;
	return 0;
}

int ss_bpf_load(struct ss_bpf_prog *prog, const struct ss_bpf_config *cfg, const void *insns,
		size_t n, struct ss_bpf_verifier *ws, struct ss_bpf_error *err)
{
	prog->cfg = *cfg;
	prog->verified = 0;
	prog->n_insns = 0;
	if (n > SS_BPF_MAX_INSNS) {
		err->reason = SS_BPF_R_TOO_BIG;
		err->insn = SS_BPF_MAX_INSNS;
		return -SS_E2BIG;
	}
	ss_memcpy(prog->insns, insns, n * sizeof(struct ss_bpf_insn));
	prog->n_insns = (uint32_t)n;
	return ss_bpf_verify(prog, ws, err);
}
