/*
 * filter: a predicate tree over typed fields (builtin_tasklets.h, evaluated by pred.c);
 * returns the matching records, their projected fields, the pages holding a first match
 * (Kang §6.5.3), or a count.
 */
#include "tasklets_internal.h"

struct filter {
	uint8_t mode;
	uint8_t nproj;
	const uint8_t *proj;
	uint32_t limit;
	struct bt_pred where;
	uint8_t *projbuf;
	uint64_t records;
	uint64_t matches;
	uint64_t items;
	uint64_t last_oid;
	uint64_t last_page;
	bool have_page;
};

static int filter_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct filter *f;
	int rc;
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
	rc = bt_pred_init(ctx, l, f->proj + f->nproj, tree_len, &f->where);
	if (rc) {
		return rc;
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
		m = bt_pred_eval(ctx, &f->where, &r[i]);
		if (m < 0) {
			return m;
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
