/*
 * The "bpf" tasklet kind (smartssd/builtin_tasklets.h, SS_BT_BPF): a verified eBPF program
 * run once per record by the ISP engine, like any tasklet. Its params are the host's
 * struct ss_bt_bpf_params followed by the program's instructions, which the command layer
 * read from the drive's store (cmd/cmd_bpf.c); init verifies them again against this
 * instance's layout before anything runs, so no byte reaches the interpreter unverified,
 * whatever wrote the store.
 *
 * Time: every interpreted instruction is charged as SS_BPF_CORE_INSNS_PER_INSN of the ISP
 * core's instructions and every helper call's own work as SS_BPF_CORE_INSNS_PER_HELPER more
 * (both measured, ss_bpf_tasklet.h), every load from the record as a DRAM access;
 * both are counted work, so the engine's per-callback work budget and the watchdog stand
 * above the per-record instruction budget.
 */
#include "smartssd/builtin_tasklets.h"
#include "ss_bpf.h"
#include "ss_bpf_tasklet.h"
#include "ss_isp.h"
#include "ss_proto.h"
#include "ss_rt.h"

#define P_OFF(f) offsetof(struct ss_bt_bpf_params, f)
#define P_SIZE ((uint32_t)sizeof(struct ss_bt_bpf_params))

struct bpf_state {
	struct ss_bpf_prog prog;
	struct ss_bpf_helpers helpers;
	struct ss_bpf_env env;
	struct ss_bpf_groups groups;
	struct ss_bpf_topn topn;
	struct ss_tasklet_ctx *ctx;
	struct ss_record rec;        /* the record being run, for ss_layout_field */
	uint64_t records;
	uint64_t charged_insns;      /* stats already charged to the engine */
	uint64_t charged_loads;
	uint64_t charged_calls;
	uint64_t emitted;
	int helper_err;              /* a helper's failure that stops the run */
};

static int h_emit(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	struct bpf_state *s = env->isp;
	int rc = ss_tasklet_emit(s->ctx, (const void *)(uintptr_t)a[0], (uint32_t)a[1]);

	if (rc) {
		return rc;
	}
	s->emitted += a[1];
	env->stats.emitted_bytes += a[1];
	*ret = 0;
	return 0;
}

/* A full table fails the run rather than drop a value the program may not check for. */
static int h_group_add(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	if (!env->groups || ss_bpf_groups_add(env->groups, a[0], (int64_t)a[1])) {
		return -SS_ENOMEM;
	}
	*ret = 0;
	return 0;
}

static int h_layout_field(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	struct bpf_state *s = env->isp;
	const struct ss_layout *l = ss_tasklet_layout(s->ctx);

	if (!l || a[0] >= l->nfields || l->fields[a[0]].type == SS_FIELD_BYTES) {
		return -SS_EINVAL;
	}
	*ret = ss_field_u64(s->ctx, &s->rec, (unsigned)a[0], NULL);
	return 0;
}

int ss_bpf_tasklet_config(const struct ss_layout *l, const void *params, uint32_t params_len,
			  const struct ss_bpf_helpers *helpers, struct ss_bpf_config *cfg)
{
	const uint8_t *p = params;
	uint32_t out, slots, topn;

	if (!l || params_len < P_SIZE) {
		return -SS_EINVAL;
	}
	out = ss_get_le32(p + P_OFF(out_size));
	slots = ss_get_le32(p + P_OFF(group_slots));
	topn = ss_get_le32(p + P_OFF(topn));
	if (p[P_OFF(name_len)] == 0 || p[P_OFF(name_len)] > SS_TASKLET_NAME_MAX ||
	    out > SS_BT_BPF_MAX_OUT || slots > SS_BT_BPF_MAX_GROUPS || (slots & (slots - 1)) ||
	    topn > SS_BT_BPF_MAX_TOPN) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < sizeof(((struct ss_bt_bpf_params *)0)->reserved); i++) {
		if (p[P_OFF(reserved) + i]) {
			return -SS_EINVAL;
		}
	}
	ss_memset(cfg, 0, sizeof(*cfg));
	cfg->rec_min = l->kind == SS_LAYOUT_FIXED ? l->record_size : 0;
	cfg->rec_max = l->record_size;
	cfg->out_size = out;
	cfg->stack_size = SS_BPF_STACK_MAX;
	cfg->helpers = helpers;
	return 0;
}

void ss_bpf_tasklet_helpers(struct ss_bpf_helpers *t)
{
	ss_bpf_helpers_builtin(t);
	t->h[SS_BPF_H_EMIT].fn = h_emit;
	t->h[SS_BPF_H_GROUP_ADD].fn = h_group_add;
	t->h[SS_BPF_H_LAYOUT_FIELD].fn = h_layout_field;
}

static int bpf_init(struct ss_tasklet_ctx *ctx, const uint8_t *params, uint32_t params_len)
{
	struct ss_bpf_verifier *ws;
	struct ss_bpf_config cfg;
	struct ss_bpf_error err;
	struct bpf_state *s;
	uint32_t slots, topn;
	int rc;

	if (params_len <= P_SIZE || (params_len - P_SIZE) % sizeof(struct ss_bpf_insn)) {
		return -SS_EINVAL;
	}
	s = ss_tasklet_alloc(ctx, sizeof(*s));
	ws = ss_tasklet_alloc(ctx, sizeof(*ws));
	if (!s || !ws) {
		return -SS_ENOMEM;
	}
	ss_bpf_tasklet_helpers(&s->helpers);
	rc = ss_bpf_tasklet_config(ss_tasklet_layout(ctx), params, params_len, &s->helpers, &cfg);
	if (rc) {
		return rc;
	}
	rc = ss_bpf_load(&s->prog, &cfg, params + P_SIZE,
			 (params_len - P_SIZE) / sizeof(struct ss_bpf_insn), ws, &err);
	if (rc) {
		return -SS_EINVAL;
	}
	slots = ss_get_le32(params + P_OFF(group_slots));
	topn = ss_get_le32(params + P_OFF(topn));
	s->env.stack = ss_tasklet_alloc(ctx, SS_BPF_STACK_MAX);
	s->env.out = ss_tasklet_alloc(ctx, cfg.out_size ? cfg.out_size : 1);
	if (!s->env.stack || !s->env.out) {
		return -SS_ENOMEM;
	}
	if (slots) {
		struct ss_bpf_group *g = ss_tasklet_alloc(ctx, slots * sizeof(*g));

		if (!g) {
			return -SS_ENOMEM;
		}
		ss_bpf_groups_init(&s->groups, g, slots);
		s->env.groups = &s->groups;
	}
	if (topn) {
		struct ss_bpf_top *h = ss_tasklet_alloc(ctx, topn * sizeof(*h));

		if (!h) {
			return -SS_ENOMEM;
		}
		ss_bpf_topn_init(&s->topn, h, topn);
		s->env.topn = &s->topn;
	}
	for (uint32_t i = 0; i < 6; i++) {
		s->env.ctx.arg[i] = ss_get_le64(params + P_OFF(arg) + 8 * i);
	}
	s->env.budget = ss_get_le32(params + P_OFF(insn_budget));
	s->env.isp = s;
	s->ctx = ctx;
	/* verifying is the drive's work too: a pass over the program per its instruction */
	rc = ss_tasklet_step(ctx, s->prog.n_insns * SS_BPF_CORE_INSNS_PER_INSN);
	if (rc) {
		return rc;
	}
	ss_tasklet_set_state(ctx, s);
	return 0;
}

/* Charge what the interpreter did since the last charge. */
static int charge(struct bpf_state *s)
{
	const struct ss_bpf_stats *st = &s->env.stats;
	uint64_t calls = st->helper_calls - s->charged_calls;
	uint64_t insns = st->insns - s->charged_insns +
			 SS_DIV_ROUND_UP(calls * SS_BPF_CORE_INSNS_PER_HELPER,
					 SS_BPF_CORE_INSNS_PER_INSN);
	uint64_t loads = st->record_loads - s->charged_loads;

	s->charged_insns = st->insns;
	s->charged_loads = st->record_loads;
	s->charged_calls = st->helper_calls;
	while (loads) {
		uint32_t n = loads > UINT32_MAX ? UINT32_MAX : (uint32_t)loads;

		ss_tasklet_dram(s->ctx, n);
		loads -= n;
	}
	while (insns) {
		uint64_t n = SS_MIN(insns, (uint64_t)UINT32_MAX / SS_BPF_CORE_INSNS_PER_INSN);
		int rc = ss_tasklet_step(s->ctx, (uint32_t)(n * SS_BPF_CORE_INSNS_PER_INSN));

		if (rc) {
			return rc;
		}
		insns -= n;
	}
	return 0;
}

static int bpf_records(struct ss_tasklet_ctx *ctx, const struct ss_record *recs, uint32_t n)
{
	struct bpf_state *s = ss_tasklet_state(ctx);
	int rc = 0;

	for (uint32_t i = 0; i < n && !rc; i++) {
		uint64_t ret;

		s->rec = recs[i];
		rc = ss_bpf_run(&s->prog, &s->env, recs[i].data, recs[i].len, s->records, &ret);
		s->records++;
	}
	if (rc == 0) {
		rc = charge(s);
	} else {
		(void)charge(s);
	}
	return rc;
}

static void put_group(uint8_t *b, const struct ss_bpf_group *g)
{
	ss_put_le64(b + offsetof(struct ss_bt_bpf_group, key), g->key);
	ss_put_le64(b + offsetof(struct ss_bt_bpf_group, sum), (uint64_t)g->sum);
	ss_put_le64(b + offsetof(struct ss_bt_bpf_group, count), g->count);
	ss_put_le64(b + offsetof(struct ss_bt_bpf_group, min), (uint64_t)g->min);
	ss_put_le64(b + offsetof(struct ss_bt_bpf_group, max), (uint64_t)g->max);
}

static int bpf_finish(struct ss_tasklet_ctx *ctx)
{
	struct bpf_state *s = ss_tasklet_state(ctx);
	uint8_t b[sizeof(struct ss_bt_bpf_group)];
	uint8_t sum[sizeof(struct ss_bt_bpf_summary)];
	uint8_t t[sizeof(struct ss_bt_trailer)];
	uint32_t groups = 0;
	int rc = 0;

	if (s->prog.cfg.out_size) {
		rc = ss_tasklet_emit(ctx, s->env.out, s->prog.cfg.out_size);
	}
	for (uint32_t i = 0; s->env.groups && i < s->groups.cap && !rc; i++) {
		if (s->groups.slot[i].count) {
			put_group(b, &s->groups.slot[i]);
			rc = ss_tasklet_emit(ctx, b, sizeof(struct ss_bt_bpf_group));
			groups++;
		}
	}
	for (uint32_t i = 0; s->env.topn && i < s->topn.n && !rc; i++) {
		ss_put_le64(b + offsetof(struct ss_bt_bpf_top, score), (uint64_t)s->topn.heap[i].score);
		ss_put_le64(b + offsetof(struct ss_bt_bpf_top, value), s->topn.heap[i].value);
		rc = ss_tasklet_emit(ctx, b, sizeof(struct ss_bt_bpf_top));
	}
	if (rc) {
		return rc;
	}
	ss_memset(sum, 0, sizeof(sum));
	ss_put_le64(sum + offsetof(struct ss_bt_bpf_summary, emitted_bytes), s->emitted);
	ss_put_le32(sum + offsetof(struct ss_bt_bpf_summary, out_size), s->prog.cfg.out_size);
	ss_put_le32(sum + offsetof(struct ss_bt_bpf_summary, groups), groups);
	ss_put_le32(sum + offsetof(struct ss_bt_bpf_summary, topn), s->env.topn ? s->topn.n : 0);
	ss_put_le32(sum + offsetof(struct ss_bt_bpf_summary, program_insns), s->prog.n_insns);
	ss_put_le64(sum + offsetof(struct ss_bt_bpf_summary, faults), s->env.stats.faults);
	rc = ss_tasklet_emit(ctx, sum, sizeof(sum));
	if (rc) {
		return rc;
	}
	ss_put_le32(t + offsetof(struct ss_bt_trailer, magic), SS_BT_TRAILER_MAGIC);
	ss_put_le32(t + offsetof(struct ss_bt_trailer, tasklet_id), SS_BT_BPF);
	ss_put_le64(t + offsetof(struct ss_bt_trailer, records_in), s->records);
	ss_put_le64(t + offsetof(struct ss_bt_trailer, items_out),
		    (uint64_t)groups + (s->env.topn ? s->topn.n : 0));
	ss_put_le64(t + offsetof(struct ss_bt_trailer, aux), s->env.stats.insns);
	return ss_tasklet_emit(ctx, t, sizeof(t));
}

const struct ss_tasklet_desc ss_bpf_tasklet = {
	.name = "bpf",
	.id = SS_BT_BPF,
	.init = bpf_init,
	.on_records = bpf_records,
	.finish = bpf_finish,
	.params_max = SS_BPF_TASKLET_PARAMS_MAX,
};
