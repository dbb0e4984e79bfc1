/*
 * The interpreter: a switch over verified instructions. It trusts the verifier for types
 * and bounds, and checks only what the verifier left to run time (record accesses beyond
 * rec_min, the budget). With SS_BPF_ASSERT_BOUNDS (the tests and the fuzz build) every load
 * and store is also asserted inside its buffer, so a verifier bug traps there.
 */
#include "bpf_internal.h"
#include "ss_rt.h"

#ifdef SS_BPF_ASSERT_BOUNDS
static int inside(uintptr_t a, unsigned n, const void *base, size_t len)
{
	uintptr_t b = (uintptr_t)base;

	return base && a >= b && a - b <= len && len - (a - b) >= n;
}

static void assert_bounds(const struct ss_bpf_prog *p, const struct ss_bpf_env *env,
			  uintptr_t a, unsigned n, int store)
{
	if (inside(a, n, env->stack, p->cfg.stack_size) || inside(a, n, env->out, p->cfg.out_size))
		return;
	if (!store && (inside(a, n, &env->ctx, sizeof(env->ctx)) ||
		       inside(a, n, env->rec, env->rec_len)))
		return;
	__builtin_trap();
}
#define ASSERT_BOUNDS(a, n, st) assert_bounds(prog, env, (a), (n), (st))
#else
#define ASSERT_BOUNDS(a, n, st) do { } while (0)
#endif

static void count(struct ss_bpf_stats *st, uint8_t aux)
{
	switch (AUX_REGION(aux)) {
	case REG_CTX: st->ctx_loads++; break;
	case REG_REC: st->record_loads++; break;
	case REG_STACK: st->stack_accesses++; break;
	default: st->out_accesses++; break;
	}
}

static uint64_t load(uintptr_t a, unsigned n)
{
	uint64_t v = 0;

	/* little-endian hosts only (x86, ARM): the low bytes of v */
	ss_memcpy(&v, (const void *)a, n);
	return v;
}

static void store(uintptr_t a, unsigned n, uint64_t v)
{
	ss_memcpy((void *)a, &v, n);
}

static uint64_t sext_load(uint64_t v, unsigned n)
{
	uint64_t m = (uint64_t)1 << (n * 8 - 1);

	return (v ^ m) - m;
}

int ss_bpf_run(const struct ss_bpf_prog *prog, struct ss_bpf_env *env, const void *rec,
	       uint32_t rec_len, uint64_t rec_index, uint64_t *ret)
{
	const struct ss_bpf_helpers *helpers = prog->cfg.helpers;
	uint64_t r[11] = { 0 };
	uint64_t budget = env->budget ? env->budget : prog->n_insns;
	uint64_t used = 0;
	uint32_t pc = 0;
	int rc = 0;

	if (!prog->verified || rec_len < prog->cfg.rec_min || rec_len > prog->cfg.rec_max)
		return -SS_EINVAL;
	env->rec = rec;
	env->rec_len = rec_len;
	env->ctx.rec_len = rec_len;
	env->ctx.rec_index = rec_index;
	env->stats.runs++;
	r[1] = (uintptr_t)&env->ctx;
	r[2] = (uintptr_t)rec;
	r[3] = (uintptr_t)env->out;
	r[10] = (uintptr_t)env->stack + prog->cfg.stack_size;

	for (;;) {
		const struct ss_bpf_insn *in = &prog->insns[pc];
		uint8_t op = in->opcode;
		uint8_t aux = prog->aux[pc];
		uint64_t src;
		uintptr_t a;
		unsigned n;

		if (ss_unlikely(used == budget)) {
			env->stats.budget_stops++;
			rc = -SS_ETIME;
			break;
		}
		used++;
		switch (CLASS(op)) {
		case C_ALU:
		case C_ALU64:
			src = (op & SRC_X) ? r[SRC(in)] : (uint64_t)(int64_t)in->imm;
			r[DST(in)] = ss_bpf_alu(in, r[DST(in)], src);
			pc++;
			continue;
		case C_LD: /* LDDW, the only LD the verifier accepts */
			r[DST(in)] = (uint32_t)in->imm | ((uint64_t)(uint32_t)in[1].imm << 32);
			pc += 2;
			continue;
		case C_LDX:
			n = size_bytes(op);
			a = (uintptr_t)(r[SRC(in)] + (uint64_t)(int64_t)in->off);
			if ((aux & SS_BPF_AUX_RUNTIME_CHECK) &&
			    (a < (uintptr_t)rec || a - (uintptr_t)rec > rec_len - n ||
			     rec_len < n)) {
				env->stats.faults++;
				rc = -SS_EFAULT;
				goto out;
			}
			ASSERT_BOUNDS(a, n, 0);
			count(&env->stats, aux);
			r[DST(in)] = load(a, n);
			if (MODE(op) == M_MEMSX)
				r[DST(in)] = sext_load(r[DST(in)], n);
			pc++;
			continue;
		case C_ST:
		case C_STX:
			n = size_bytes(op);
			a = (uintptr_t)(r[DST(in)] + (uint64_t)(int64_t)in->off);
			ASSERT_BOUNDS(a, n, 1);
			count(&env->stats, aux);
			store(a, n, CLASS(op) == C_ST ? (uint64_t)(int64_t)in->imm : r[SRC(in)]);
			pc++;
			continue;
		default: /* JMP, JMP32 */
			break;
		}
		switch (CODE(op)) {
		case J_EXIT:
			*ret = r[0];
			goto out;
		case J_CALL: {
			const struct ss_bpf_helper *h = &helpers->h[in->imm];
			uint64_t args[5] = { r[1], r[2], r[3], r[4], r[5] };

			env->stats.helper_calls++;
			rc = h->fn(env, args, &r[0]);
			if (rc)
				goto out;
			pc++;
			continue;
		}
		case J_JA:
			pc += 1 + (CLASS(op) == C_JMP32 ? in->imm : in->off);
			continue;
		default:
			src = (op & SRC_X) ? r[SRC(in)] : (uint64_t)(int64_t)in->imm;
			pc += 1 + (ss_bpf_cond(in, r[DST(in)], src) ? in->off : 0);
			continue;
		}
	}
out:
	env->stats.insns += used;
	return rc;
}
