/*
 * filter: a predicate tree over typed fields (builtin_tasklets.h); returns the matching
 * records, their projected fields, the pages holding a first match (Kang §6.5.3), or a
 * count. The tree is decoded once at init into nodes in prefix order, each knowing where
 * its subtree ends, and evaluated recursively with short circuits (depth is bounded).
 */
#include "tasklets_internal.h"

struct pnode {
	uint8_t op;
	uint8_t field;
	uint8_t nchild;
	bool sgn;
	uint16_t len;        /* bytes leaves */
	uint16_t next;       /* index of the node after this subtree */
	uint64_t k;          /* integer leaves */
	const uint8_t *bytes;
};

struct filter {
	uint8_t mode;
	uint8_t nproj;
	const uint8_t *proj;
	uint32_t limit;
	uint16_t nnodes;
	struct pnode *nodes;
	uint8_t *projbuf;
	uint64_t records;
	uint64_t matches;
	uint64_t items;
	uint64_t last_oid;
	uint64_t last_page;
	bool have_page;
};

struct parser {
	const struct ss_layout *l;
	const uint8_t *p;
	uint32_t len;
	uint32_t at;
	struct pnode *nodes;
	uint16_t n;
	uint32_t cap;
};

static int parse(struct parser *ps, uint32_t depth)
{
	struct pnode *nd;
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
	case SS_BT_P_BEQ:
	case SS_BT_P_PREFIX:
	case SS_BT_P_CONTAINS:
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

static int filter_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct parser ps = { .l = l };
	struct filter *f;
	uint16_t tree_len;

	if (len < sizeof(struct ss_bt_filter_params) || !l) {
		return -SS_EINVAL;
	}
	f = ss_tasklet_alloc(ctx, sizeof(*f));
	if (!f) {
		return -SS_ENOMEM;
	}
	f->mode = p[0];
	f->nproj = p[1];
	tree_len = ss_get_le16(p + 2);
	f->limit = ss_get_le32(p + 4);
	f->proj = p + sizeof(struct ss_bt_filter_params);
	if (f->mode > SS_BT_FILTER_COUNT ||
	    len != sizeof(struct ss_bt_filter_params) + f->nproj + (uint32_t)tree_len ||
	    (f->mode == SS_BT_FILTER_PROJECT) != (f->nproj != 0) || !bt_proj_valid(l, f->proj, f->nproj)) {
		return -SS_EINVAL;
	}
	if (tree_len) {
		ps.p = f->proj + f->nproj;
		ps.len = tree_len;
		/* every node takes at least one byte of the tree */
		ps.cap = SS_MIN((uint32_t)tree_len, SS_BT_FILTER_MAX_NODES);
		ps.nodes = ss_tasklet_alloc(ctx, ps.cap * (uint32_t)sizeof(struct pnode));
		if (!ps.nodes) {
			return -SS_ENOMEM;
		}
		if (parse(&ps, 1) || ps.at != ps.len) {
			return -SS_EINVAL;
		}
		f->nodes = ps.nodes;
		f->nnodes = ps.n;
	}
	if (f->nproj) {
		f->projbuf = ss_tasklet_alloc(ctx, bt_proj_max(l, f->proj, f->nproj));
		if (!f->projbuf) {
			return -SS_ENOMEM;
		}
	}
	ss_tasklet_set_state(ctx, f);
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

static bool leaf_int(const struct pnode *nd, uint64_t v)
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

/* \return 1 match, 0 no match, -SS_ETIME */
static int eval(struct ss_tasklet_ctx *ctx, const struct filter *f, uint32_t i,
		const struct ss_record *r)
{
	const struct pnode *nd = &f->nodes[i];
	uint64_t work = 1;
	int res = 0;

	switch (nd->op) {
	case SS_BT_P_AND:
	case SS_BT_P_OR: {
		bool is_and = nd->op == SS_BT_P_AND;
		uint32_t c = i + 1;

		res = is_and;
		for (uint32_t k = 0; k < nd->nchild; k++) {
			int v = eval(ctx, f, c, r);

			if (v < 0) {
				return v;
			}
			if (v != is_and) {
				res = v;
				break;
			}
			c = f->nodes[c].next;
		}
		break;
	}
	case SS_BT_P_NOT:
		res = eval(ctx, f, i + 1, r);
		if (res < 0) {
			return res;
		}
		res = !res;
		break;
	case SS_BT_P_BEQ:
	case SS_BT_P_PREFIX:
	case SS_BT_P_CONTAINS: {
		uint32_t n;
		const uint8_t *b = ss_field_bytes(ctx, r, nd->field, &n);

		if (!b) {
			break;
		}
		if (nd->op == SS_BT_P_CONTAINS) {
			res = contains(b, n, nd->bytes, nd->len, &work);
		} else if (nd->op == SS_BT_P_BEQ) {
			res = n == nd->len && ss_memcmp(b, nd->bytes, n) == 0;
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
		uint64_t v = ss_field_u64(ctx, r, nd->field, &ok);

		res = ok && leaf_int(nd, v);
		break;
	}
	}
	if (ss_tasklet_step(ctx, (uint32_t)SS_MIN(work, UINT32_MAX))) {
		return -SS_ETIME;
	}
	return res;
}

static int emit_match(struct ss_tasklet_ctx *ctx, struct filter *f, const struct ss_record *r,
		      const struct ss_record_origin *o)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	int rc = 0;

	switch (f->mode) {
	case SS_BT_FILTER_RECORDS:
		rc = ss_tasklet_emit(ctx, r->data, r->len);
		if (!rc && l->kind == SS_LAYOUT_TEXT) {
			rc = ss_tasklet_emit(ctx, &l->line_delim, 1);
		}
		break;
	case SS_BT_FILTER_PROJECT:
		rc = ss_tasklet_emit(ctx, f->projbuf, bt_proj_encode(ctx, r, f->proj, f->nproj, f->projbuf));
		break;
	case SS_BT_FILTER_PAGES: {
		uint8_t it[sizeof(struct ss_bt_page_item)];

		ss_put_le64(it + offsetof(struct ss_bt_page_item, lba), r->lba);
		ss_put_le64(it + offsetof(struct ss_bt_page_item, oid), o->oid);
		ss_put_le64(it + offsetof(struct ss_bt_page_item, page_offset), o->page_offset);
		rc = ss_tasklet_emit(ctx, it, sizeof(it));
		break;
	}
	default:
		return 0;
	}
	if (!rc) {
		f->items++;
	}
	return rc;
}

static int filter_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct filter *f = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		struct ss_record_origin o = { 0 };
		int m = 1;
		int rc;

		f->records++;
		if (f->mode == SS_BT_FILTER_PAGES) {
			rc = ss_tasklet_record_origin(ctx, &r[i], &o);
			if (rc) {
				return rc;
			}
			if (f->have_page && o.oid == f->last_oid && o.page_offset == f->last_page) {
				continue;   /* this page already matched: skip its other records */
			}
		}
		if (f->nnodes) {
			m = eval(ctx, f, 0, &r[i]);
			if (m < 0) {
				return m;
			}
		}
		if (!m) {
			continue;
		}
		f->matches++;
		if (f->mode == SS_BT_FILTER_PAGES) {
			f->have_page = true;
			f->last_oid = o.oid;
			f->last_page = o.page_offset;
		}
		rc = emit_match(ctx, f, &r[i], &o);
		if (rc) {
			return rc;
		}
		if (f->limit && f->matches >= f->limit) {
			return SS_TASKLET_DONE;
		}
	}
	return 0;
}

static int filter_finish(struct ss_tasklet_ctx *ctx)
{
	struct filter *f = ss_tasklet_state(ctx);

	return bt_emit_trailer(ctx, SS_BT_FILTER, f->records, f->items, f->matches);
}

const struct ss_tasklet_desc ss_bt_filter = {
	.name = "filter",
	.id = SS_BT_FILTER,
	.init = filter_init,
	.on_records = filter_records,
	.finish = filter_finish,
};
