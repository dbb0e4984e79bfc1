/*
 * group-aggregate: COUNT/SUM/MIN/MAX of a value field grouped by up to four key fields (keys
 * 2..4 packed into one 64-bit key), over
 * the records a WHERE tree (if any) matches, spilling partial aggregates when the groups
 * outgrow the budget (builtin_tasklets.h).
 */
#include "tasklets_internal.h"

#define AGG_MEMO 8u    /* groups remembered (a power of 2, <= 32; in ss_tasklet_memo) */
#define AGG_BLOCK 128u /* records whose fields the fast path reads ahead (on the stack) */
#define AGG_BANKS 4u   /* copies of the fast path's per-group sums (a power of 2) */
#define AGG_OPS_ALL (SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX | \
		     SS_BT_AGG_SUM_CHECKED)

struct agg {
	uint8_t nkeys, key1, key2, value, ops;
	uint8_t key3, key4, bits3, bits4;  /* nkeys >= 3: keys packed into key2 */
	uint64_t mask2;                    /* nkeys >= 3: key2's value bits */
	bool need_value;
	bool value_signed;
	bool sum_float;           /* SUM of an F32/F64 field: in double, as Spark sums */
	bool sum_checked;         /* SS_BT_AGG_SUM_CHECKED */
	bool value_float32;
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

#ifndef SS_TASKLETS_NO_FAST_PATH   /* left out where code space binds: jasmine-features.sh */
/* The fast path's field readers, kept out of the state so that the state, and what its
 * allocation counts, stays as it was. */
struct agg_readers {
	uint32_t work;            /* counted work of one record's field reads */
	struct ss_field_reader k1, k2, v;
};

/* \return 0 when the fast path applies: FIXED records, no WHERE, at most two keys. */
static int fast_readers(struct ss_tasklet_ctx *ctx, const struct agg *a, struct agg_readers *rd)
{
	/* packed keys (nkeys >= 3), float and checked sums take agg_record's path */
	int rc = a->where.nnodes || a->nkeys > 2 || a->sum_float || a->sum_checked ?
		 -SS_EINVAL : 0;

	rd->work = 0;
	if (!rc && a->nkeys >= 1) {
		rc = ss_field_reader_init(ctx, a->key1, &rd->k1);
		rd->work += rd->k1.work;
	}
	if (!rc && a->nkeys == 2) {
		rc = ss_field_reader_init(ctx, a->key2, &rd->k2);
		rd->work += rd->k2.work;
	}
	if (!rc && a->need_value) {
		rc = ss_field_reader_init(ctx, a->value, &rd->v);
		rd->work += rd->v.work;
	}
	/* the run reads no null flags: records with a NULL take agg_record's path */
	if (!rc && ((a->nkeys >= 1 && rd->k1.null_mask) || (a->nkeys == 2 && rd->k2.null_mask) ||
		    (a->need_value && rd->v.null_mask))) {
		rc = -SS_EINVAL;
	}
	return rc;
}
#endif

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
	a->sum_float = (a->ops & SS_BT_AGG_SUM) && bt_field_is_float(l, a->value);
	a->value_float32 = a->sum_float && l->fields[a->value].type == SS_FIELD_F32;
	a->sum_checked = (a->ops & SS_BT_AGG_SUM_CHECKED) != 0;
	if (a->sum_checked && (!(a->ops & SS_BT_AGG_SUM) || !a->value_signed || a->sum_float)) {
		return -SS_EINVAL;
	}
#ifdef SS_TASKLETS_NO_FLOAT
	if (a->sum_float) {
		return -SS_EINVAL;   /* soft-float left out of this build (jasmine-features.sh) */
	}
#endif
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

static inline void update(struct agg *a, int64_t s, bool fresh, uint64_t v)
{
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
}

#ifndef SS_TASKLETS_NO_FLOAT
/* The float or double of an F32/F64 field's order key (ss_f32_key, ss_f64_key). */
static double key_value(const struct agg *a, uint64_t key)
{
	union { uint64_t u; double d; } b;
	union { uint32_t u; float f; } h;

	if (a->value_float32) {
		h.u = (uint32_t)key;
		h.u = (int32_t)h.u < 0 ? h.u ^ 0x7fffffffu : h.u;
		return h.f;
	}
	b.u = (int64_t)key < 0 ? key ^ 0x7fffffffffffffffull : key;
	return b.d;
}
#endif

/* A float sum (IEEE double bits, NaN and infinities as IEEE adds them) or a checked signed
 * one: `sum` + the value v into *out. \return 0, or -SS_EOVERFLOW past a signed 64-bit
 * value (Spark's ANSI mode fails the query there). */
static int sum_exact(const struct agg *a, uint64_t sum, uint64_t v, uint64_t *out)
{
	int64_t t;

#ifndef SS_TASKLETS_NO_FLOAT
	if (a->sum_float) {
		union { uint64_t u; double d; } b = { .u = sum };

		b.d += key_value(a, v);
		*out = b.u;
		return 0;
	}
#endif
	if (__builtin_add_overflow((int64_t)sum, (int64_t)v, &t)) {
		return -SS_EOVERFLOW;
	}
	*out = (uint64_t)t;
	return 0;
}

/* One record, counted as it goes. */
static int agg_record(struct ss_tasklet_ctx *ctx, struct agg *a, const struct ss_record *r)
{
	uint64_t k1 = 0, k2 = 0, v = 0;
	int ok = 1, ok2 = 1, ok3 = 1;
	bool fresh;
	int64_t s;
	int rc;

	a->records++;
	rc = bt_pred_eval(ctx, &a->where, r);
	if (rc <= 0) {
		return rc;
	}
	if (a->nkeys >= 1) {
		k1 = ss_field_u64(ctx, r, a->key1, &ok);
	}
	if (a->nkeys >= 2) {
		k2 = ss_field_u64(ctx, r, a->key2, &ok2);
	}
	if (a->nkeys >= 3) {
		int ok4 = 1, ok5 = 1;
		uint64_t k3 = ss_field_u64(ctx, r, a->key3, &ok4);
		uint64_t k4 = a->nkeys == 4 ? ss_field_u64(ctx, r, a->key4, &ok5) : 0;

		k2 = pack(a, k2, k3, k4);
		ok2 = ok2 && ok4 && ok5;
		rc = ss_tasklet_step(ctx, 4);
		if (rc) {
			return rc;
		}
	}
	if (a->need_value) {
		v = ss_field_u64(ctx, r, a->value, &ok3);
	}
	if (!ok || !ok2 || !ok3) {
		return 0;
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
	if (a->sum_float || a->sum_checked) {
		uint64_t sum = fresh ? 0 : a->sum[s];

		update(a, s, fresh, v);
		rc = sum_exact(a, sum, v, &a->sum[s]);
		if (rc) {
			return rc;
		}
	} else {
		update(a, s, fresh, v);
	}
	/* a load and a store of each 8-byte aggregate the query asked for */
	ss_tasklet_dram(ctx, a->update_words);
	return ss_tasklet_step(ctx, 2 + a->update_words / 2) ? -SS_ETIME : 0;
}

#ifndef SS_TASKLETS_NO_FAST_PATH
/* Count, in bulk, what agg_record would have counted for `n` records. */
static void count_bulk(struct ss_tasklet_ctx *ctx, struct agg *a, uint32_t n, uint64_t state,
		       uint64_t steps)
{
	if (a->nkeys >= 1) {
		ss_field_count(ctx, a->key1, n);
	}
	if (a->nkeys == 2) {
		ss_field_count(ctx, a->key2, n);
	}
	if (a->need_value) {
		ss_field_count(ctx, a->value, n);
	}
	for (; state > UINT32_MAX; state -= UINT32_MAX) {
		ss_tasklet_dram(ctx, UINT32_MAX);
	}
	ss_tasklet_dram(ctx, (uint32_t)state);
	for (; steps > UINT32_MAX; steps -= UINT32_MAX) {
		ss_tasklet_step(ctx, UINT32_MAX);
	}
	ss_tasklet_step(ctx, (uint32_t)steps);
}

/* Groups seen, with what one record of each counts: a group's slot and probe count stay as
 * they are until the table is cleared, which only agg_record does (the memo is then
 * forgotten). Direct-mapped by the keys' low bits. Kept from one batch to the next in
 * ss_tasklet_memo, for the table that `spills` clears have left. */
struct agg_memo {
	uint64_t epoch;           /* a->spills + 1 when the entries were found (0: never) */
	uint32_t valid;           /* bit m: entry m holds a group */
	uint32_t max_work;        /* at least what any entry counts per record */
	uint32_t max_steps;
	struct {
		uint64_t k1, k2;          /* no entry: keys that no record's index leads to */
		uint32_t slot;
		uint32_t state, steps;    /* counted per record of the group */
		uint32_t work;            /* all of its counted work: fields, state, steps */
	} e[AGG_MEMO];
};

static inline uint32_t agg_memo_index(uint64_t k1, uint64_t k2)
{
	return (uint32_t)(k1 ^ (k2 << 2)) & (AGG_MEMO - 1);
}

static void agg_memo_forget(struct agg_memo *memo, uint64_t spills)
{
	memo->epoch = spills + 1;
	memo->valid = 0;
	memo->max_work = 0;
	memo->max_steps = 0;
	for (uint32_t m = 0; m < AGG_MEMO; m++) {
		/* index m ^ 1: a record at index m never matches them */
		memo->e[m].k1 = m ^ 1;
		memo->e[m].k2 = 0;
	}
}

/* The running sums of what the records done so far count. */
struct agg_tally {
	uint64_t work, steps, state;
	uint32_t done;
};

/* Count and sum of the records taken since the last agg_flush, per memo entry, in
 * AGG_BANKS banks (record j into bank j % AGG_BANKS): with one, each record of a group
 * would wait for the store of the one before it. */
struct agg_acc {
	uint64_t n[AGG_BANKS][AGG_MEMO];
	uint64_t sum[AGG_BANKS][AGG_MEMO];
};

/* What the fast path keeps in ss_tasklet_memo from one callback to the next: the memo of
 * groups; the sums, all zero between callbacks (each callback flushes them: then none
 * needs clearing at the next); and the field readers, made at the run's first callback. */
struct agg_fast {
	struct agg_memo memo;
	struct agg_acc acc;
	struct agg_readers rd;
	int readers;              /* 0: not made yet, 1: made, -1: agg_record's path */
};

_Static_assert(sizeof(struct agg_fast) <= SS_TASKLET_MEMO_BYTES, "it fits ss_tasklet_memo");

/* Entry m's count and sum so far into its group's state. */
static void agg_flush_entry(struct agg *a, const struct agg_memo *memo, struct agg_acc *acc,
			    uint32_t m)
{
	const uint32_t s = memo->e[m].slot;

	for (uint32_t b = 0; b < AGG_BANKS; b++) {
		a->count[s] += acc->n[b][m];
		a->sum[s] += acc->sum[b][m];
		acc->n[b][m] = 0;
		acc->sum[b][m] = 0;
	}
}

static void agg_flush(struct agg *a, const struct agg_memo *memo, struct agg_acc *acc)
{
	for (uint32_t m = 0; m < AGG_MEMO; m++) {
		if (memo->valid >> m & 1) {
			agg_flush_entry(a, memo, acc, m);
		}
	}
}

/*
 * Records from j on whose groups the memo knows and whose work stays within room and
 * steps_room: their counts and sums into acc (min and max into the state, when asked),
 * their counted work into *t. With `checked` false the caller knows no limit falls in
 * [j, n): nothing is checked per record. \return the first record it did not take.
 */
static inline __attribute__((always_inline)) uint32_t
agg_known_run_impl(struct agg *a, const struct agg_memo *memo, const uint64_t *k1s,
		   const uint64_t *k2s, const uint64_t *vs, uint32_t j, uint32_t n, uint64_t room,
		   uint64_t steps_room, struct agg_acc *acc, struct agg_tally *t, const bool checked)
{
	uint64_t work = t->work, steps = t->steps, state = t->state;
	const uint32_t valid = memo->valid, start = j;
	const bool minmax = (a->ops & (SS_BT_AGG_MIN | SS_BT_AGG_MAX)) != 0;

	for (; j < n; j++) {
		const uint32_t m = agg_memo_index(k1s[j], k2s[j]);

		if (!(valid >> m & 1) || memo->e[m].k1 != k1s[j] || memo->e[m].k2 != k2s[j] ||
		    (checked && (work + memo->e[m].work > room ||
				 steps + memo->e[m].steps > steps_room))) {
			break;
		}
		work += memo->e[m].work;
		steps += memo->e[m].steps;
		state += memo->e[m].state;
		acc->n[j % AGG_BANKS][m]++;
		acc->sum[j % AGG_BANKS][m] += vs[j];
		if (minmax) {
			uint64_t *mn = &a->min[memo->e[m].slot], *mx = &a->max[memo->e[m].slot];

			*mn = less(a->value_signed, vs[j], *mn) ? vs[j] : *mn;
			*mx = less(a->value_signed, *mx, vs[j]) ? vs[j] : *mx;
		}
	}
	t->work = work;
	t->steps = steps;
	t->state = state;
	t->done += j - start;
	a->records += j - start;
	return j;
}

/* Record i into bank b of acc (+1, or -1 to take it out again); `bad` becomes non-zero
 * unless the memo holds its group. */
#define AGG_BLOCK_ONE(i, b, sign)                                                          \
	do {                                                                               \
		const uint64_t k1_ = k1s[i], k2_ = two_keys ? k2s[i] : 0;                  \
		const uint32_t m_ = agg_memo_index(k1_, k2_);                              \
                                                                                           \
		bad |= (memo->e[m_].k1 ^ k1_) | (two_keys ? memo->e[m_].k2 ^ k2_ : 0);     \
		acc->n[b][m_] += (uint64_t)(sign);                                         \
		acc->sum[b][m_] += (uint64_t)(sign) * vs[i];                               \
	} while (0)

/*
 * Records [j, n) when the caller knows no limit falls among them and the memo may know
 * all their groups: one pass without a branch per record, AGG_BANKS records at a time a
 * bank each, undone (\return false) if a group was not known. Their counted work then
 * follows from how many records each group took. With two_keys false, key 2 is 0.
 */
static inline __attribute__((always_inline)) bool
agg_block_sum(struct agg *a, const struct agg_memo *memo, const uint64_t *k1s,
	      const uint64_t *k2s, const uint64_t *vs, uint32_t j, uint32_t n, struct agg_acc *acc,
	      struct agg_tally *t, const bool two_keys)
{
	uint64_t before[AGG_MEMO], bad = 0;
	uint32_t i;

	for (uint32_t m = 0; m < AGG_MEMO; m++) {
		before[m] = 0;
		for (uint32_t b = 0; b < AGG_BANKS; b++) {
			before[m] += acc->n[b][m];
		}
	}
	for (i = j; i + AGG_BANKS <= n; i += AGG_BANKS) {
#pragma GCC unroll 4
		for (uint32_t b = 0; b < AGG_BANKS; b++) {
			AGG_BLOCK_ONE(i + b, b, 1);
		}
	}
	for (; i < n; i++) {
		AGG_BLOCK_ONE(i, 0, 1);
	}
	if (bad) {
		for (i = j; i + AGG_BANKS <= n; i += AGG_BANKS) {
			for (uint32_t b = 0; b < AGG_BANKS; b++) {
				AGG_BLOCK_ONE(i + b, b, -1);
			}
		}
		for (; i < n; i++) {
			AGG_BLOCK_ONE(i, 0, -1);
		}
		return false;
	}
	for (uint32_t m = 0; m < AGG_MEMO; m++) {
		uint64_t took = 0;

		for (uint32_t b = 0; b < AGG_BANKS; b++) {
			took += acc->n[b][m];
		}
		took -= before[m];
		t->work += took * memo->e[m].work;
		t->steps += took * memo->e[m].steps;
		t->state += took * memo->e[m].state;
	}
	t->done += n - j;
	a->records += n - j;
	return true;
}
#undef AGG_BLOCK_ONE

static uint32_t agg_known_run(struct agg *a, const struct agg_memo *memo, const uint64_t *k1s,
			      const uint64_t *k2s, const uint64_t *vs, uint32_t j, uint32_t n,
			      uint64_t room, uint64_t steps_room, struct agg_acc *acc,
			      struct agg_tally *t)
{
	const uint64_t left = n - j;
	/* no record counts more than the memo's costliest group: none can pass a limit */
	const bool unchecked = t->work + left * memo->max_work <= room &&
			       t->steps + left * memo->max_steps <= steps_room;

	if (unchecked && !(a->ops & (SS_BT_AGG_MIN | SS_BT_AGG_MAX)) &&
	    (a->nkeys == 2 ? agg_block_sum(a, memo, k1s, k2s, vs, j, n, acc, t, true) :
			     agg_block_sum(a, memo, k1s, k2s, vs, j, n, acc, t, false))) {
		return n;
	}
	if (unchecked) {
		return agg_known_run_impl(a, memo, k1s, k2s, vs, j, n, room, steps_room, acc, t,
					  false);
	}
	return agg_known_run_impl(a, memo, k1s, k2s, vs, j, n, room, steps_room, acc, t, true);
}

/*
 * The same work and counts as agg_record per record, counted once per batch: while the
 * batch's work stays within what the callback may still do, no limit can stop it part way,
 * so the order of counting changes nothing. A record that would pass a limit, or that
 * needs a spill (which writes output), is done by agg_record after the counts and updates
 * so far. AGG_BLOCK records of the run at a time: their fields are read a field at a time
 * (ss_field_read_run), then their groups found and their updates summed per group
 * (agg_acc), which reach the state before agg_record runs and at the end.
 */
static int agg_records_fast(struct ss_tasklet_ctx *ctx, struct agg *a, struct agg_fast *fast,
			    const struct ss_record_run *run, uint32_t size)
{
	const uint32_t n = run->n;
	uint64_t steps_room, room = ss_tasklet_room(ctx, &steps_room);
	struct agg_tally t = { 0, 0, 0, 0 };
	const uint32_t uw = a->update_words;
	const struct agg_readers *rd = &fast->rd;
	struct agg_memo *memo = &fast->memo;
	struct agg_acc *acc = &fast->acc;
	uint64_t k1b[AGG_BLOCK], k2b[AGG_BLOCK], vb[AGG_BLOCK];
	static const uint64_t zeros[AGG_BLOCK];
	const uint64_t *k1s = a->nkeys >= 1 ? k1b : zeros, *k2s = a->nkeys == 2 ? k2b : zeros;
	const uint64_t *vs = a->need_value ? vb : zeros;

	if (memo->epoch != a->spills + 1) {
		agg_memo_forget(memo, a->spills);
	}
	for (uint32_t base = 0; base < n; base += AGG_BLOCK) {
		uint32_t bn = SS_MIN(n - base, AGG_BLOCK), j = 0;

		/* an absent key or value reads as 0, from a block of zeros */
		if (a->nkeys >= 1) {
			ss_field_read_run(&rd->k1, run->data + (size_t)base * size, size, bn, k1b);
		}
		if (a->nkeys == 2) {
			ss_field_read_run(&rd->k2, run->data + (size_t)base * size, size, bn, k2b);
		}
		if (a->need_value) {
			ss_field_read_run(&rd->v, run->data + (size_t)base * size, size, bn, vb);
		}
		while ((j = agg_known_run(a, memo, k1s, k2s, vs, j, bn, room, steps_room, acc,
					  &t)) < bn) {
			/* a group the memo does not know, or a record past a limit */
			const uint64_t k1 = k1s[j], k2 = k2s[j];
			const uint32_t m = agg_memo_index(k1, k2);
			uint32_t pos = 0, probes, rec_state, rec_steps;
			int64_t s = bt_groups_find(&a->g, k1, k2, &pos, &probes);
			struct ss_record one;
			int rc;

			rec_state = BT_GROUPS_PROBE_DRAM * probes + uw;
			rec_steps = BT_GROUPS_PROBE_STEPS * probes + 2 + uw / 2;
			if (s == -SS_ENOSPC || t.work + rd->work + rec_state + rec_steps > room ||
			    t.steps + rec_steps > steps_room) {
				agg_flush(a, memo, acc);
				count_bulk(ctx, a, t.done, t.state, t.steps);
				t = (struct agg_tally){ 0, 0, 0, 0 };
				rc = ss_tasklet_run_record(ctx, run, base + j, &one, NULL);
				rc = rc ? rc : agg_record(ctx, a, &one);
				if (rc) {
					return rc;   /* acc is flushed: zero as the next callback needs */
				}
				room = ss_tasklet_room(ctx, &steps_room);
				agg_memo_forget(memo, a->spills);
				j++;
				continue;
			}
			if (s < 0) {
				s = bt_groups_insert(&a->g, pos, k1, k2);
				a->count[s] = 0;
				a->sum[s] = 0;
				a->min[s] = vs[j];
				a->max[s] = vs[j];
			}
			if (memo->valid >> m & 1) {
				/* entry m moves to another group: its sums so far reach the state */
				agg_flush_entry(a, memo, acc, m);
			}
			memo->e[m].k1 = k1;
			memo->e[m].k2 = k2;
			memo->e[m].slot = (uint32_t)s;
			memo->e[m].state = rec_state;
			memo->e[m].steps = rec_steps;
			memo->e[m].work = rd->work + rec_state + rec_steps;
			memo->max_work = SS_MAX(memo->max_work, memo->e[m].work);
			memo->max_steps = SS_MAX(memo->max_steps, rec_steps);
			memo->valid |= 1u << m;
			/* the memo knows the group now: agg_known_run takes this record */
		}
	}
	agg_flush(a, memo, acc);
	count_bulk(ctx, a, t.done, t.state, t.steps);
	return 0;
}
#endif

/* TEXT records, and FIXED ones where the fast path is left out (on_record_runs takes
 * them otherwise). */
static int agg_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct agg *a = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		int rc = agg_record(ctx, a, &r[i]);

		if (rc) {
			return rc;
		}
	}
	return 0;
}

#ifndef SS_TASKLETS_NO_FAST_PATH
/* FIXED records a run at a time: no descriptor per record, except for agg_record. */
static int agg_record_runs(struct ss_tasklet_ctx *ctx, const struct ss_record_run *runs,
			   uint32_t nruns)
{
	struct agg *a = ss_tasklet_state(ctx);
	const uint32_t size = ss_tasklet_layout(ctx)->record_size;
	struct agg_fast *fast = ss_tasklet_memo(ctx);

	if (fast->readers == 0) {
		fast->readers = fast_readers(ctx, a, &fast->rd) == 0 ? 1 : -1;
	}
	for (uint32_t k = 0; k < nruns; k++) {
		int rc = 0;

		if (fast->readers > 0) {
			rc = agg_records_fast(ctx, a, fast, &runs[k], size);
		} else {
			for (uint32_t i = 0; !rc && i < runs[k].n; i++) {
				struct ss_record one;

				rc = ss_tasklet_run_record(ctx, &runs[k], i, &one, NULL);
				rc = rc ? rc : agg_record(ctx, a, &one);
			}
		}
		if (rc) {
			return rc;
		}
	}
	return 0;
}
#endif

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
#ifndef SS_TASKLETS_NO_FAST_PATH
	.on_record_runs = agg_record_runs,
#endif
};
