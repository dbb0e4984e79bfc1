/*
 * The helpers' allow-list and the built-in helpers that need nothing from the ISP: emit,
 * the group table, the top-N heap and the fixed-width field reader. The verifier has
 * checked each argument against its enum ss_bpf_arg before any of these runs.
 */
#include "bpf_internal.h"
#include "ss_rt.h"

#define REASON_TEXT(name, text) text,
static const char *const reason_text[] = { SS_BPF_REASONS(REASON_TEXT) };

const char *ss_bpf_reason_str(int reason)
{
	if (reason < 0 || reason >= SS_BPF_R_COUNT)
		return "unknown reason";
	return reason_text[reason];
}

/* ---- group table -------------------------------------------------------------------- */

void ss_bpf_groups_init(struct ss_bpf_groups *g, struct ss_bpf_group *slot, uint32_t cap)
{
	g->slot = slot;
	g->cap = cap;
	g->used = 0;
	ss_memset(slot, 0, (size_t)cap * sizeof(*slot));
}

static uint32_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (uint32_t)k;
}

static struct ss_bpf_group *lookup(const struct ss_bpf_groups *g, uint64_t key)
{
	uint32_t m = g->cap - 1;

	for (uint32_t i = hash64(key) & m, n = 0; n < g->cap; i = (i + 1) & m, n++) {
		struct ss_bpf_group *e = &g->slot[i];

		if (e->count == 0 || e->key == key)
			return e;
	}
	return NULL;
}

int ss_bpf_groups_add(struct ss_bpf_groups *g, uint64_t key, int64_t value)
{
	struct ss_bpf_group *e = g->cap ? lookup(g, key) : NULL;

	if (!e)
		return -SS_ENOSPC;
	if (e->count == 0) {
		/* keep one slot free so that lookups of absent keys end */
		if (g->used + 1 >= g->cap)
			return -SS_ENOSPC;
		g->used++;
		e->key = key;
		e->sum = 0;
		e->min = value;
		e->max = value;
	}
	e->count++;
	e->sum = (int64_t)((uint64_t)e->sum + (uint64_t)value);
	e->min = SS_MIN(e->min, value);
	e->max = SS_MAX(e->max, value);
	return 0;
}

const struct ss_bpf_group *ss_bpf_groups_find(const struct ss_bpf_groups *g, uint64_t key)
{
	const struct ss_bpf_group *e = g->cap ? lookup(g, key) : NULL;

	return e && e->count ? e : NULL;
}

/* ---- top-N -------------------------------------------------------------------------- */

void ss_bpf_topn_init(struct ss_bpf_topn *t, struct ss_bpf_top *heap, uint32_t cap)
{
	t->heap = heap;
	t->cap = cap;
	t->n = 0;
}

static void swap(struct ss_bpf_top *a, struct ss_bpf_top *b)
{
	struct ss_bpf_top x = *a;

	*a = *b;
	*b = x;
}

int ss_bpf_topn_push(struct ss_bpf_topn *t, int64_t score, uint64_t value)
{
	struct ss_bpf_top *h = t->heap;
	uint32_t i;

	if (t->cap == 0)
		return 0;
	if (t->n < t->cap) {
		i = t->n++;
		h[i].score = score;
		h[i].value = value;
		while (i > 0 && h[(i - 1) / 2].score > h[i].score) {
			swap(&h[(i - 1) / 2], &h[i]);
			i = (i - 1) / 2;
		}
		return 1;
	}
	if (score <= h[0].score)
		return 0;
	h[0].score = score;
	h[0].value = value;
	for (i = 0;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < t->n && h[l].score < h[m].score)
			m = l;
		if (r < t->n && h[r].score < h[m].score)
			m = r;
		if (m == i)
			break;
		swap(&h[m], &h[i]);
		i = m;
	}
	return 1;
}

/* ---- the helpers -------------------------------------------------------------------- */

static int h_emit(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	uint32_t len = (uint32_t)a[1];

	if (!env->emit || env->emit_cap - env->emit_len < len) {
		env->stats.emit_refused++;
		*ret = (uint64_t)-SS_ENOSPC;
		return 0;
	}
	ss_memcpy(env->emit + env->emit_len, (const void *)(uintptr_t)a[0], len);
	env->emit_len += len;
	env->stats.emitted_bytes += len;
	*ret = 0;
	return 0;
}

static int h_group_add(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	*ret = env->groups ? (uint64_t)(int64_t)ss_bpf_groups_add(env->groups, a[0], (int64_t)a[1])
			   : (uint64_t)-SS_ENOSPC;
	return 0;
}

static int h_topn_push(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	*ret = env->topn ? (uint64_t)ss_bpf_topn_push(env->topn, (int64_t)a[0], a[1])
			 : (uint64_t)-SS_ENOSPC;
	return 0;
}

static int h_field(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	uint64_t off = a[0], width = a[1];

	/* the verifier proved off + width <= rec_max; this record may be shorter */
	if (off > env->rec_len || env->rec_len - off < width) {
		env->stats.faults++;
		return -SS_EFAULT;
	}
	*ret = 0;
	ss_memcpy(ret, env->rec + off, (size_t)width);
	env->stats.record_loads++;
	return 0;
}

void ss_bpf_helpers_builtin(struct ss_bpf_helpers *t)
{
	static const struct ss_bpf_helper builtin[] = {
		[SS_BPF_H_EMIT] = { "ss_emit", h_emit,
				    { SS_BPF_ARG_MEM, SS_BPF_ARG_MEM_LEN }, (uint64_t)-1 },
		[SS_BPF_H_GROUP_ADD] = { "ss_group_add", h_group_add,
					 { SS_BPF_ARG_SCALAR, SS_BPF_ARG_SCALAR }, (uint64_t)-1 },
		[SS_BPF_H_TOPN_PUSH] = { "ss_topn_push", h_topn_push,
					 { SS_BPF_ARG_SCALAR, SS_BPF_ARG_SCALAR }, (uint64_t)-1 },
		[SS_BPF_H_FIELD] = { "ss_field", h_field,
				     { SS_BPF_ARG_REC_OFF, SS_BPF_ARG_WIDTH }, (uint64_t)-1 },
		[SS_BPF_H_LAYOUT_FIELD] = { "ss_layout_field", NULL, { SS_BPF_ARG_SCALAR },
					    (uint64_t)-1 },
	};

	ss_memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < SS_ARRAY_SIZE(builtin); i++)
		t->h[i] = builtin[i];
}
