/*
 * top-N per group: per group key, the n records with the largest (or smallest) value,
 * ties to the earlier record; partial lists spill when the groups outgrow the budget
 * (builtin_tasklets.h). Each group holds a binary heap whose root is its worst entry, so a
 * record is compared with one entry unless it enters the list.
 */
#include "tasklets_internal.h"

struct topn {
	uint8_t nkeys, key1, key2, value, nproj;
	const uint8_t *proj;
	struct bt_pred where;
	uint64_t seq;
	struct bt_topn tn;
};

/* ---- the top-N table: per group a binary heap, its root the worst entry ---------------- */

BT_TOPN_API int bt_topn_init(struct ss_tasklet_ctx *ctx, struct bt_topn *t, uint32_t n, uint32_t payload,
		 uint32_t max_groups)
{
	uint32_t cap, per;

	t->n = (uint16_t)n;
	t->slot = SS_ALIGN_UP(payload, 8);
	per = 8 + t->n * (uint32_t)(sizeof(struct bt_topn_ent) + t->slot);
	cap = bt_groups_fit(ctx, per, max_groups);
	if ((uint64_t)cap * per > UINT32_MAX || bt_groups_init(ctx, &t->g, cap)) {
		return -SS_ENOMEM;
	}
	t->used = ss_tasklet_alloc(ctx, cap * 4);
	t->ent = t->used ? ss_tasklet_alloc(ctx, cap * t->n * (uint32_t)sizeof(struct bt_topn_ent))
			 : NULL;
	t->payload = t->ent ? ss_tasklet_alloc(ctx, cap * t->n * t->slot) : NULL;
	return t->payload ? 0 : -SS_ENOMEM;
}

/* a ranks below b */
static bool worse(const struct bt_topn *t, const struct bt_topn_ent *a, const struct bt_topn_ent *b)
{
	if (a->value != b->value) {
		bool lt = t->sgn ? (int64_t)a->value < (int64_t)b->value : a->value < b->value;

		return t->smallest ? !lt : lt;
	}
	return a->seq > b->seq;
}

static void swap(struct bt_topn_ent *a, struct bt_topn_ent *b)
{
	struct bt_topn_ent x = *a;

	*a = *b;
	*b = x;
}

static uint32_t sift_down(const struct bt_topn *t, struct bt_topn_ent *h, uint32_t n, uint32_t i)
{
	uint32_t moves = 0;

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && worse(t, &h[l], &h[m])) {
			m = l;
		}
		if (r < n && worse(t, &h[r], &h[m])) {
			m = r;
		}
		if (m == i) {
			return moves;
		}
		swap(&h[i], &h[m]);
		i = m;
		moves++;
	}
}

static uint32_t sift_up(const struct bt_topn *t, struct bt_topn_ent *h, uint32_t i)
{
	uint32_t moves = 0;

	while (i && worse(t, &h[i], &h[(i - 1) / 2])) {
		swap(&h[i], &h[(i - 1) / 2]);
		i = (i - 1) / 2;
		moves++;
	}
	return moves;
}

BT_TOPN_API int bt_topn_emit(struct ss_tasklet_ctx *ctx, struct bt_topn *t)
{
	uint8_t hdr[sizeof(struct ss_bt_topn_item)];

	for (uint32_t g = 0; g < t->g.n; g++) {
		struct bt_topn_ent *h = t->ent + (uint64_t)g * t->n;
		uint8_t *pl = t->payload + (uint64_t)g * t->n * t->slot;
		uint32_t n = t->used[g];

		/* heapsort on a worst-at-root heap leaves the best first */
		for (uint32_t k = n; k > 1; k--) {
			swap(&h[0], &h[k - 1]);
			if (ss_tasklet_step(ctx, 4 * (1 + sift_down(t, h, k - 1, 0)))) {
				return -SS_ETIME;
			}
		}
		for (uint32_t k = 0; k < n; k++) {
			int rc;

			ss_memset(hdr, 0, sizeof(hdr));
			ss_put_le64(hdr + offsetof(struct ss_bt_topn_item, key1), t->g.k1[g]);
			ss_put_le64(hdr + offsetof(struct ss_bt_topn_item, key2), t->g.k2[g]);
			ss_put_le64(hdr + offsetof(struct ss_bt_topn_item, value), h[k].value);
			ss_put_le32(hdr + offsetof(struct ss_bt_topn_item, payload_len), h[k].len);
			rc = ss_tasklet_emit(ctx, hdr, sizeof(hdr));
			if (!rc) {
				rc = ss_tasklet_emit(ctx, pl + (uint64_t)h[k].pslot * t->slot, h[k].len);
			}
			if (rc) {
				return rc;
			}
			t->items++;
		}
		t->used[g] = 0;
	}
	return 0;
}


BT_TOPN_API int bt_topn_add(struct ss_tasklet_ctx *ctx, struct bt_topn *t, uint64_t k1,
			    uint64_t k2, struct bt_topn_ent *e, bt_topn_capture_fn capture,
			    void *arg)
{
	struct bt_topn_ent *h;
	uint8_t *pl;
	uint32_t *used;
	uint32_t moves = 0;
	bool fresh;
	int64_t s;
	int rc;

	s = bt_groups_get(ctx, &t->g, k1, k2, &fresh);
	if (s == -SS_ENOSPC) {
		rc = bt_topn_emit(ctx, t);
		if (rc) {
			return rc;
		}
		bt_groups_clear(ctx, &t->g);
		t->spills++;
		s = bt_groups_get(ctx, &t->g, k1, k2, &fresh);
	}
	if (s < 0) {
		return (int)s;
	}
	h = t->ent + (uint64_t)s * t->n;
	pl = t->payload + (uint64_t)s * t->n * t->slot;
	used = &t->used[s];
	if (fresh) {
		*used = 0;
	}
	if (*used < t->n) {
		e->pslot = *used;
		capture(ctx, arg, e, pl + (uint64_t)e->pslot * t->slot);
		h[*used] = *e;
		moves = sift_up(t, h, (*used)++);
	} else if (worse(t, &h[0], e)) {
		e->pslot = h[0].pslot;
		capture(ctx, arg, e, pl + (uint64_t)e->pslot * t->slot);
		h[0] = *e;
		moves = sift_down(t, h, t->n, 0);
	}
	ss_tasklet_dram(ctx, 6 + 8 * moves);
	return ss_tasklet_step(ctx, 8 + 6 * moves) ? -SS_ETIME : 0;
}

/* ---- the top-n tasklet ---------------------------------------------------------------- */

static int topn_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct topn *t;
	uint32_t fixed, tree_len = 0;
	int rc;

	if (len < sizeof(struct ss_bt_topn_params) || !l) {
		return -SS_EINVAL;
	}
	t = ss_tasklet_alloc(ctx, sizeof(*t));
	if (!t) {
		return -SS_ENOMEM;
	}
	t->nkeys = p[0];
	t->key1 = p[1];
	t->key2 = p[2];
	t->value = p[3];
	t->tn.smallest = (p[4] & SS_BT_TOPN_SMALLEST) != 0;
	t->nproj = p[5];
	t->tn.n = ss_get_le16(p + 6);
	t->proj = p + sizeof(struct ss_bt_topn_params);
	fixed = sizeof(struct ss_bt_topn_params) + t->nproj;
	if ((p[4] & SS_BT_TOPN_WHERE) && len >= fixed + 2) {
		tree_len = ss_get_le16(p + fixed);
		fixed += 2;
	}
	if (len != fixed + tree_len || (p[4] & ~(SS_BT_TOPN_SMALLEST | SS_BT_TOPN_WHERE)) ||
	    t->nkeys > 2 || t->tn.n == 0 || t->tn.n > SS_BT_TOPN_MAX_N ||
	    (t->nkeys >= 1 && !bt_field_is_int(l, t->key1)) ||
	    (t->nkeys == 2 && !bt_field_is_int(l, t->key2)) || !bt_field_is_int(l, t->value) ||
	    !bt_proj_valid(l, t->proj, t->nproj)) {
		return -SS_EINVAL;
	}
	t->tn.sgn = bt_field_is_signed(l, t->value);
	rc = bt_pred_init(ctx, l, p + fixed, tree_len, &t->where);
	if (rc) {
		return rc;
	}
	rc = bt_topn_init(ctx, &t->tn, t->tn.n,
			  t->nproj ? bt_proj_max(l, t->proj, t->nproj) : l->record_size,
			  ss_get_le32(p + 8));
	if (rc) {
		return rc;
	}
	ss_tasklet_set_state(ctx, t);
	return 0;
}

struct capture_arg {
	struct topn *t;
	const struct ss_record *r;
};

static void capture(struct ss_tasklet_ctx *ctx, void *arg, struct bt_topn_ent *e, uint8_t *dst)
{
	const struct capture_arg *c = arg;

	if (c->t->nproj) {
		e->len = bt_proj_encode(ctx, c->r, c->t->proj, c->t->nproj, dst);
	} else {
		e->len = c->r->len;
		ss_memcpy(dst, c->r->data, c->r->len);
		ss_tasklet_dram(ctx, 2 * SS_DIV_ROUND_UP(c->r->len, 4));
	}
}

static int topn_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct topn *t = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t k1 = 0, k2 = 0;
		int ok = 1, ok2 = 1, ok3 = 1;
		struct capture_arg c = { t, &r[i] };
		struct bt_topn_ent e;
		int rc;

		e.seq = t->seq++;
		rc = bt_pred_eval(ctx, &t->where, &r[i]);
		if (rc <= 0) {
			if (rc < 0) {
				return rc;
			}
			continue;
		}
		if (t->nkeys >= 1) {
			k1 = ss_field_u64(ctx, &r[i], t->key1, &ok);
		}
		if (t->nkeys == 2) {
			k2 = ss_field_u64(ctx, &r[i], t->key2, &ok2);
		}
		e.value = ss_field_u64(ctx, &r[i], t->value, &ok3);
		if (!ok || !ok2 || !ok3) {
			continue;
		}
		rc = bt_topn_add(ctx, &t->tn, k1, k2, &e, capture, &c);
		if (rc < 0) {
			return rc;
		}
	}
	return 0;
}

static int topn_finish(struct ss_tasklet_ctx *ctx)
{
	struct topn *t = ss_tasklet_state(ctx);
	int rc = bt_topn_emit(ctx, &t->tn);

	return rc ? rc : bt_emit_trailer(ctx, SS_BT_TOPN, t->seq, t->tn.items, t->tn.spills);
}

const struct ss_tasklet_desc ss_bt_topn = {
	.name = "top-n",
	.id = SS_BT_TOPN,
	.init = topn_init,
	.on_records = topn_records,
	.finish = topn_finish,
};
