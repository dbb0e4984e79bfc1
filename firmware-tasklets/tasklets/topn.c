/*
 * top-N per group: per group key, the n records with the largest (or smallest) value,
 * ties to the earlier record; partial lists spill when the groups outgrow the budget
 * (builtin_tasklets.h). Each group holds a binary heap whose root is its worst entry, so a
 * record is compared with one entry unless it enters the list.
 */
#include "tasklets_internal.h"

struct topn_ent {
	uint64_t value;
	uint64_t seq;       /* input order, for ties */
	uint32_t len;       /* payload bytes */
	uint32_t pslot;     /* payload slot of this entry */
};

struct topn {
	uint8_t nkeys, key1, key2, value, nproj;
	bool smallest;
	bool sgn;
	uint16_t n;
	const uint8_t *proj;
	uint32_t slot;      /* payload bytes per entry */
	struct bt_groups g;
	uint32_t *used;     /* entries per group */
	struct topn_ent *ent;   /* n per group */
	uint8_t *payload;       /* n * slot per group */
	struct bt_pred where;
	uint64_t seq;
	uint64_t items;
	uint64_t spills;
};

static int topn_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct topn *t;
	uint32_t cap, per;
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
	t->smallest = (p[4] & SS_BT_TOPN_SMALLEST) != 0;
	t->nproj = p[5];
	t->n = ss_get_le16(p + 6);
	t->proj = p + sizeof(struct ss_bt_topn_params);
	fixed = sizeof(struct ss_bt_topn_params) + t->nproj;
	if ((p[4] & SS_BT_TOPN_WHERE) && len >= fixed + 2) {
		tree_len = ss_get_le16(p + fixed);
		fixed += 2;
	}
	if (len != fixed + tree_len || (p[4] & ~(SS_BT_TOPN_SMALLEST | SS_BT_TOPN_WHERE)) ||
	    t->nkeys > 2 || t->n == 0 || t->n > SS_BT_TOPN_MAX_N ||
	    (t->nkeys >= 1 && !bt_field_is_int(l, t->key1)) ||
	    (t->nkeys == 2 && !bt_field_is_int(l, t->key2)) || !bt_field_is_int(l, t->value) ||
	    !bt_proj_valid(l, t->proj, t->nproj)) {
		return -SS_EINVAL;
	}
	t->sgn = bt_field_is_signed(l, t->value);
	rc = bt_pred_init(ctx, l, p + fixed, tree_len, &t->where);
	if (rc) {
		return rc;
	}
	t->slot = SS_ALIGN_UP(t->nproj ? bt_proj_max(l, t->proj, t->nproj) : l->record_size, 8);
	per = 8 + t->n * (uint32_t)(sizeof(struct topn_ent) + t->slot);
	cap = bt_groups_fit(ctx, per, ss_get_le32(p + 8));
	if ((uint64_t)cap * per > UINT32_MAX || bt_groups_init(ctx, &t->g, cap)) {
		return -SS_ENOMEM;
	}
	t->used = ss_tasklet_alloc(ctx, cap * 4);
	t->ent = t->used ? ss_tasklet_alloc(ctx, cap * t->n * (uint32_t)sizeof(struct topn_ent)) : NULL;
	t->payload = t->ent ? ss_tasklet_alloc(ctx, cap * t->n * t->slot) : NULL;
	if (!t->payload) {
		return -SS_ENOMEM;
	}
	ss_tasklet_set_state(ctx, t);
	return 0;
}

/* a ranks below b */
static bool worse(const struct topn *t, const struct topn_ent *a, const struct topn_ent *b)
{
	if (a->value != b->value) {
		bool lt = t->sgn ? (int64_t)a->value < (int64_t)b->value : a->value < b->value;

		return t->smallest ? !lt : lt;
	}
	return a->seq > b->seq;
}

static void swap(struct topn_ent *a, struct topn_ent *b)
{
	struct topn_ent x = *a;

	*a = *b;
	*b = x;
}

static uint32_t sift_down(const struct topn *t, struct topn_ent *h, uint32_t n, uint32_t i)
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

static uint32_t sift_up(const struct topn *t, struct topn_ent *h, uint32_t i)
{
	uint32_t moves = 0;

	while (i && worse(t, &h[i], &h[(i - 1) / 2])) {
		swap(&h[i], &h[(i - 1) / 2]);
		i = (i - 1) / 2;
		moves++;
	}
	return moves;
}

static int emit_groups(struct ss_tasklet_ctx *ctx, struct topn *t)
{
	uint8_t hdr[sizeof(struct ss_bt_topn_item)];

	for (uint32_t g = 0; g < t->g.n; g++) {
		struct topn_ent *h = t->ent + (uint64_t)g * t->n;
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

static void capture(struct ss_tasklet_ctx *ctx, struct topn *t, const struct ss_record *r,
		    struct topn_ent *e, uint8_t *pl)
{
	uint8_t *dst = pl + (uint64_t)e->pslot * t->slot;

	if (t->nproj) {
		e->len = bt_proj_encode(ctx, r, t->proj, t->nproj, dst);
	} else {
		e->len = r->len;
		ss_memcpy(dst, r->data, r->len);
		ss_tasklet_dram(ctx, 2 * SS_DIV_ROUND_UP(r->len, 4));
	}
}

static int topn_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct topn *t = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t k1 = 0, k2 = 0;
		int ok = 1, ok2 = 1, ok3 = 1;
		struct topn_ent e;
		struct topn_ent *h;
		uint8_t *pl;
		uint32_t *used;
		uint32_t moves = 0;
		bool fresh;
		int64_t s;
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
		s = bt_groups_get(ctx, &t->g, k1, k2, &fresh);
		if (s == -SS_ENOSPC) {
			rc = emit_groups(ctx, t);
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
			e.pslot = *used;
			capture(ctx, t, &r[i], &e, pl);
			h[*used] = e;
			moves = sift_up(t, h, (*used)++);
		} else if (worse(t, &h[0], &e)) {
			e.pslot = h[0].pslot;
			capture(ctx, t, &r[i], &e, pl);
			h[0] = e;
			moves = sift_down(t, h, t->n, 0);
		}
		ss_tasklet_dram(ctx, 6 + 8 * moves);
		if (ss_tasklet_step(ctx, 8 + 6 * moves)) {
			return -SS_ETIME;
		}
	}
	return 0;
}

static int topn_finish(struct ss_tasklet_ctx *ctx)
{
	struct topn *t = ss_tasklet_state(ctx);
	int rc = emit_groups(ctx, t);

	return rc ? rc : bt_emit_trailer(ctx, SS_BT_TOPN, t->seq, t->items, t->spills);
}

const struct ss_tasklet_desc ss_bt_topn = {
	.name = "top-n",
	.id = SS_BT_TOPN,
	.init = topn_init,
	.on_records = topn_records,
	.finish = topn_finish,
};
