/*
 * group-aggregate: COUNT/SUM/MIN/MAX of a value field grouped by up to four key fields (keys
 * 2..4 packed into one 64-bit key), over
 * the records a WHERE tree (if any) matches, spilling partial aggregates when the groups
 * outgrow the budget (builtin_tasklets.h).
 */
#include "tasklets_internal.h"

#define AGG_OPS_ALL (SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX)

struct agg {
	uint8_t nkeys, key1, key2, value, ops;
	uint8_t key3, key4, bits3, bits4;  /* nkeys >= 3: keys packed into key2 */
	uint64_t mask2;                    /* nkeys >= 3: key2's value bits */
	bool need_value;
	bool value_signed;
	uint32_t update_words;    /* 4-byte state accesses per record update */
	struct bt_pred where;
	struct bt_groups g;
	uint64_t *count, *sum, *min, *max;
	uint64_t records;
	uint64_t items;
	uint64_t spills;
};

/* Key 2..4 packed (nkeys >= 3): each in its own bits, key2 highest. */
static uint64_t pack(const struct agg *a, uint64_t k2, uint64_t k3, uint64_t k4)
{
	uint64_t m3 = a->bits3 >= 64 ? UINT64_MAX : ((uint64_t)1 << a->bits3) - 1;
	uint64_t m4 = a->bits4 >= 64 ? UINT64_MAX : ((uint64_t)1 << a->bits4) - 1;
	uint64_t k = (k2 & a->mask2) << a->bits3 | (k3 & m3);

	return a->bits4 ? k << a->bits4 | (k4 & m4) : k;
}

static int agg_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct agg *a;
	uint32_t cap;
	uint16_t tree_len;
	int rc;

	if (len < sizeof(struct ss_bt_agg_params) || !l) {
		return -SS_EINVAL;
	}
	tree_len = ss_get_le16(p + 12);
	if (len != sizeof(struct ss_bt_agg_params) + (uint32_t)tree_len || p[7] ||
	    ss_get_le16(p + 14) || (p[0] < 3 && p[5]) || (p[0] < 4 && p[6])) {
		return -SS_EINVAL;
	}
	a = ss_tasklet_alloc(ctx, sizeof(*a));
	if (!a) {
		return -SS_ENOMEM;
	}
	a->nkeys = p[0];
	a->key1 = p[1];
	a->key2 = p[2];
	a->value = p[3];
	a->ops = p[4];
	/* count always; sum, min and max when asked: 8 bytes each, loaded and stored */
	a->update_words = 4 * (1 + !!(a->ops & SS_BT_AGG_SUM) + !!(a->ops & SS_BT_AGG_MIN) +
			       !!(a->ops & SS_BT_AGG_MAX));
	a->need_value = (a->ops & (SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX)) != 0;
	a->key3 = p[5];
	a->key4 = p[6];
	if (a->nkeys > SS_BT_AGG_MAX_KEYS || !a->ops || (a->ops & ~AGG_OPS_ALL) ||
	    (a->nkeys >= 1 && !bt_field_is_int(l, a->key1)) ||
	    (a->nkeys >= 2 && !bt_field_is_int(l, a->key2)) ||
	    (a->nkeys >= 3 && !bt_field_is_int(l, a->key3)) ||
	    (a->nkeys == 4 && !bt_field_is_int(l, a->key4)) ||
	    (a->need_value && !bt_field_is_int(l, a->value))) {
		return -SS_EINVAL;
	}
	if (a->nkeys >= 3) {
		uint32_t b2 = bt_field_bits(l, a->key2);

		a->bits3 = (uint8_t)bt_field_bits(l, a->key3);
		a->bits4 = a->nkeys == 4 ? (uint8_t)bt_field_bits(l, a->key4) : 0;
		if (b2 + a->bits3 + a->bits4 > 64) {
			return -SS_EINVAL;
		}
		a->mask2 = b2 >= 64 ? UINT64_MAX : ((uint64_t)1 << b2) - 1;
	}
	a->value_signed = a->need_value && bt_field_is_signed(l, a->value);
	rc = bt_pred_init(ctx, l, p + sizeof(struct ss_bt_agg_params), tree_len, &a->where);
	if (rc) {
		return rc;
	}
	cap = bt_groups_fit(ctx, 4 * sizeof(uint64_t), ss_get_le32(p + 8));
	if (bt_groups_init(ctx, &a->g, cap)) {
		return -SS_ENOMEM;
	}
	a->count = ss_tasklet_alloc(ctx, cap * 8);
	a->sum = ss_tasklet_alloc(ctx, cap * 8);
	a->min = ss_tasklet_alloc(ctx, cap * 8);
	a->max = ss_tasklet_alloc(ctx, cap * 8);
	if (!a->max) {
		return -SS_ENOMEM;
	}
	ss_tasklet_set_state(ctx, a);
	return 0;
}

static int emit_groups(struct ss_tasklet_ctx *ctx, struct agg *a)
{
	uint8_t it[sizeof(struct ss_bt_agg_item)];

	for (uint32_t i = 0; i < a->g.n; i++) {
		int rc;

		ss_put_le64(it + offsetof(struct ss_bt_agg_item, key1), a->g.k1[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, key2), a->g.k2[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, count), a->count[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, sum),
			    a->ops & SS_BT_AGG_SUM ? a->sum[i] : 0);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, min),
			    a->ops & SS_BT_AGG_MIN ? a->min[i] : 0);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, max),
			    a->ops & SS_BT_AGG_MAX ? a->max[i] : 0);
		ss_tasklet_dram(ctx, 12);
		rc = ss_tasklet_emit(ctx, it, sizeof(it));
		if (rc) {
			return rc;
		}
		a->items++;
	}
	return 0;
}

static bool less(bool sgn, uint64_t x, uint64_t y)
{
	return sgn ? (int64_t)x < (int64_t)y : x < y;
}

static int agg_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct agg *a = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t k1 = 0, k2 = 0, v = 0;
		int ok = 1, ok2 = 1, ok3 = 1;
		bool fresh;
		int64_t s;
		int rc;

		a->records++;
		rc = bt_pred_eval(ctx, &a->where, &r[i]);
		if (rc <= 0) {
			if (rc < 0) {
				return rc;
			}
			continue;
		}
		if (a->nkeys >= 1) {
			k1 = ss_field_u64(ctx, &r[i], a->key1, &ok);
		}
		if (a->nkeys >= 2) {
			k2 = ss_field_u64(ctx, &r[i], a->key2, &ok2);
		}
		if (a->nkeys >= 3) {
			int ok4 = 1, ok5 = 1;
			uint64_t k3 = ss_field_u64(ctx, &r[i], a->key3, &ok4);
			uint64_t k4 = a->nkeys == 4 ? ss_field_u64(ctx, &r[i], a->key4, &ok5) : 0;

			k2 = pack(a, k2, k3, k4);
			ok2 = ok2 && ok4 && ok5;
			rc = ss_tasklet_step(ctx, 4);
			if (rc) {
				return rc;
			}
		}
		if (a->need_value) {
			v = ss_field_u64(ctx, &r[i], a->value, &ok3);
		}
		if (!ok || !ok2 || !ok3) {
			continue;
		}
		s = bt_groups_get(ctx, &a->g, k1, k2, &fresh);
		if (s == -SS_ENOSPC) {
			rc = emit_groups(ctx, a);
			if (rc) {
				return rc;
			}
			bt_groups_clear(ctx, &a->g);
			a->spills++;
			s = bt_groups_get(ctx, &a->g, k1, k2, &fresh);
		}
		if (s < 0) {
			return (int)s;
		}
		if (fresh) {
			a->count[s] = 0;
			a->sum[s] = 0;
			a->min[s] = v;
			a->max[s] = v;
		}
		a->count[s]++;
		a->sum[s] += v;
		if (less(a->value_signed, v, a->min[s])) {
			a->min[s] = v;
		}
		if (less(a->value_signed, a->max[s], v)) {
			a->max[s] = v;
		}
		/* a load and a store of each 8-byte aggregate the query asked for */
		ss_tasklet_dram(ctx, a->update_words);
		if (ss_tasklet_step(ctx, 2 + a->update_words / 2)) {
			return -SS_ETIME;
		}
	}
	return 0;
}

static int agg_finish(struct ss_tasklet_ctx *ctx)
{
	struct agg *a = ss_tasklet_state(ctx);
	int rc = emit_groups(ctx, a);

	return rc ? rc : bt_emit_trailer(ctx, SS_BT_GROUP_AGG, a->records, a->items, a->spills);
}

const struct ss_tasklet_desc ss_bt_group_agg = {
	.name = "group-aggregate",
	.id = SS_BT_GROUP_AGG,
	.init = agg_init,
	.on_records = agg_records,
	.finish = agg_finish,
};
