/*
 * Predicate trees over typed fields (builtin_tasklets.h, "filter"), shared by filter and
 * by the WHERE stage of group-aggregate and top-N. The tree is decoded once at init into
 * nodes in prefix order, each knowing where its subtree ends, and evaluated recursively
 * with short circuits (depth is bounded).
 */
#include "tasklets_internal.h"

struct parser {
	const struct ss_layout *l;
	const uint8_t *p;
	uint32_t len;
	uint32_t at;
	struct bt_pnode *nodes;
	uint16_t n;
	uint32_t cap;
};

static int parse(struct parser *ps, uint32_t depth)
{
	struct bt_pnode *nd;
	uint8_t op;

	if (depth > SS_BT_FILTER_MAX_DEPTH || ps->n == ps->cap || ps->at >= ps->len) {
		return -SS_EINVAL;
	}
	nd = &ps->nodes[ps->n++];
	op = ps->p[ps->at++];
	nd->op = op;
	switch (op) {
	case SS_BT_P_AND:
	case SS_BT_P_OR:
		if (ps->at >= ps->len || ps->p[ps->at] == 0) {
			return -SS_EINVAL;
		}
		nd->nchild = ps->p[ps->at++];
		for (uint32_t i = 0; i < nd->nchild; i++) {
			if (parse(ps, depth + 1)) {
				return -SS_EINVAL;
			}
		}
		break;
	case SS_BT_P_NOT:
		nd->nchild = 1;
		if (parse(ps, depth + 1)) {
			return -SS_EINVAL;
		}
		break;
	case SS_BT_P_EQ:
	case SS_BT_P_NE:
	case SS_BT_P_LT:
	case SS_BT_P_LE:
	case SS_BT_P_GT:
	case SS_BT_P_GE:
		if (ps->len - ps->at < 9 || !bt_field_is_int(ps->l, ps->p[ps->at])) {
			return -SS_EINVAL;
		}
		nd->field = ps->p[ps->at];
		nd->sgn = bt_field_is_signed(ps->l, nd->field);
		nd->k = ss_get_le64(ps->p + ps->at + 1);
		ps->at += 9;
		break;
	case SS_BT_P_ISNULL:
		if (ps->at >= ps->len || ps->p[ps->at] >= ps->l->nfields) {
			return -SS_EINVAL;
		}
		nd->field = ps->p[ps->at++];
		nd->sgn = bt_field_is_bytes(ps->l, nd->field);
		break;
	case SS_BT_P_BEQ:
	case SS_BT_P_PREFIX:
	case SS_BT_P_CONTAINS:
	case SS_BT_P_SUFFIX:
		if (ps->len - ps->at < 3 || !bt_field_is_bytes(ps->l, ps->p[ps->at])) {
			return -SS_EINVAL;
		}
		nd->field = ps->p[ps->at];
		nd->len = ss_get_le16(ps->p + ps->at + 1);
		ps->at += 3;
		if (ps->len - ps->at < nd->len) {
			return -SS_EINVAL;
		}
		nd->bytes = ps->p + ps->at;
		ps->at += nd->len;
		break;
	default:
		return -SS_EINVAL;
	}
	nd->next = ps->n;
	return 0;
}

int bt_pred_init(struct ss_tasklet_ctx *ctx, const struct ss_layout *l, const uint8_t *tree,
		 uint32_t len, struct bt_pred *pred)
{
	struct parser ps = { .l = l, .p = tree, .len = len };

	pred->nnodes = 0;
	pred->nodes = NULL;
	if (!len) {
		return 0;
	}
	/* every node takes at least one byte of the tree */
	ps.cap = SS_MIN(len, SS_BT_FILTER_MAX_NODES);
	ps.nodes = ss_tasklet_alloc(ctx, ps.cap * (uint32_t)sizeof(struct bt_pnode));
	if (!ps.nodes) {
		return -SS_ENOMEM;
	}
	if (parse(&ps, 1) || ps.at != ps.len) {
		return -SS_EINVAL;
	}
	pred->nodes = ps.nodes;
	pred->nnodes = ps.n;
	return 0;
}

static bool contains(const uint8_t *h, uint32_t hn, const uint8_t *nd, uint32_t nn, uint64_t *work)
{
	if (nn == 0) {
		return true;
	}
	for (uint32_t i = 0; i + nn <= hn; i++) {
		(*work)++;
		if (h[i] == nd[0] && ss_memcmp(h + i, nd, nn) == 0) {
			*work += nn;
			return true;
		}
	}
	return false;
}

static bool leaf_int(const struct bt_pnode *nd, uint64_t v)
{
	bool lt = nd->sgn ? (int64_t)v < (int64_t)nd->k : v < nd->k;

	switch (nd->op) {
	case SS_BT_P_EQ:
		return v == nd->k;
	case SS_BT_P_NE:
		return v != nd->k;
	case SS_BT_P_LT:
		return lt;
	case SS_BT_P_LE:
		return lt || v == nd->k;
	case SS_BT_P_GT:
		return !lt && v != nd->k;
	default:
		return !lt;
	}
}

/* Where the leaves read their fields: a record of the layout, or (the Parquet scan) a row
 * of the tasklet's own decoded columns. The board's build has only records. */
#ifdef SS_TASKLETS_NO_PARQUET
#define ROW_U64(src, ctx, row, f, ok) ss_field_u64(ctx, row, f, ok)
#define ROW_BYTES(src, ctx, row, f, n) ss_field_bytes(ctx, row, f, n)
#define SRC_PARAM
#define SRC_ARG
#else
#define SRC_PARAM const struct bt_row_src *src,
#define SRC_ARG src,
#define ROW_U64(src, ctx, row, f, ok) (src)->u64(ctx, row, f, ok)
#define ROW_BYTES(src, ctx, row, f, n) (src)->bytes(ctx, row, f, n)
#endif

/* SQL's third truth value: a comparison with NULL, and what AND, OR and NOT make of it */
#define UNKNOWN 2

/* \return 1 true, 0 false, UNKNOWN, -SS_ETIME */
static int eval(struct ss_tasklet_ctx *ctx, const struct bt_pred *f, uint32_t i,
		SRC_PARAM const void *r)
{
	const struct bt_pnode *nd = &f->nodes[i];
	uint64_t work = 1;
	int res = 0;

	switch (nd->op) {
	case SS_BT_P_AND:
	case SS_BT_P_OR: {
		int is_and = nd->op == SS_BT_P_AND;
		uint32_t c = i + 1;

		res = is_and;
		for (uint32_t k = 0; k < nd->nchild; k++) {
			int v = eval(ctx, f, c, SRC_ARG r);

			if (v < 0) {
				return v;
			}
			if (v == !is_and) {
				res = v;
				break;
			}
			if (v == UNKNOWN) {
				res = UNKNOWN;
			}
			c = f->nodes[c].next;
		}
		break;
	}
	case SS_BT_P_NOT:
		res = eval(ctx, f, i + 1, SRC_ARG r);
		if (res < 0) {
			return res;
		}
		res = res == UNKNOWN ? UNKNOWN : !res;
		break;
	case SS_BT_P_ISNULL: {
		uint32_t n;
		int ok;

		if (nd->sgn) {   /* a BYTES field */
			res = !ROW_BYTES(src, ctx, r, nd->field, &n);
		} else {
			ROW_U64(src, ctx, r, nd->field, &ok);
			res = !ok;
		}
		break;
	}
	case SS_BT_P_BEQ:
	case SS_BT_P_PREFIX:
	case SS_BT_P_CONTAINS:
	case SS_BT_P_SUFFIX: {
		uint32_t n;
		const uint8_t *b = ROW_BYTES(src, ctx, r, nd->field, &n);

		if (!b) {
			res = UNKNOWN;
			break;
		}
		if (nd->op == SS_BT_P_CONTAINS) {
			res = contains(b, n, nd->bytes, nd->len, &work);
		} else if (nd->op == SS_BT_P_BEQ) {
			res = n == nd->len && ss_memcmp(b, nd->bytes, n) == 0;
			work += nd->len;
		} else if (nd->op == SS_BT_P_SUFFIX) {
			res = n >= nd->len && ss_memcmp(b + (n - nd->len), nd->bytes, nd->len) == 0;
			work += nd->len;
		} else {
			res = n >= nd->len && ss_memcmp(b, nd->bytes, nd->len) == 0;
			work += nd->len;
		}
		ss_tasklet_dram(ctx, (uint32_t)SS_DIV_ROUND_UP(work, 4));
		break;
	}
	default: {
		int ok;
		uint64_t v = ROW_U64(src, ctx, r, nd->field, &ok);

		res = ok ? leaf_int(nd, v) : UNKNOWN;
		break;
	}
	}
	if (ss_tasklet_step(ctx, (uint32_t)SS_MIN(work, UINT32_MAX))) {
		return -SS_ETIME;
	}
	return res;
}

#ifndef SS_TASKLETS_NO_PARQUET
static uint64_t rec_u64(struct ss_tasklet_ctx *ctx, const void *row, unsigned field, int *ok)
{
	return ss_field_u64(ctx, row, field, ok);
}

static const uint8_t *rec_bytes(struct ss_tasklet_ctx *ctx, const void *row, unsigned field,
				uint32_t *len)
{
	return ss_field_bytes(ctx, row, field, len);
}

static const struct bt_row_src records = { rec_u64, rec_bytes };

int bt_pred_eval_row(struct ss_tasklet_ctx *ctx, const struct bt_pred *pred,
		     const struct bt_row_src *src, const void *row)
{
	int res = pred->nnodes ? eval(ctx, pred, 0, src, row) : 1;

	return res == UNKNOWN ? 0 : res;
}
#define RECORDS &records,
#else
#define RECORDS
#endif

int bt_pred_eval(struct ss_tasklet_ctx *ctx, const struct bt_pred *pred, const struct ss_record *r)
{
	int res = pred->nnodes ? eval(ctx, pred, 0, RECORDS r) : 1;

	return res == UNKNOWN ? 0 : res;
}
