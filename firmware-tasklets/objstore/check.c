/*
 * ss_os_check: the object store's fsck. Reads every object's extent tree and attribute page
 * and checks them against the record and against the allocator, without changing anything.
 */
#include "objstore_internal.h"

struct check_arg {
	struct ss_os_check_report *rep;
	uint64_t pages;
};

static int claim(struct ss_objstore *os, uint32_t lpn, uint32_t pages)
{
	if (lpn < os->data_first || lpn - os->data_first >= os->data_pages ||
	    pages > os->data_pages - (lpn - os->data_first)) {
		return -SS_EBADMSG;   /* outside the data region */
	}
	for (uint32_t k = 0; k < pages; k++) {
		uint32_t i = lpn + k - os->data_first;

		if ((os->check[i >> 5] >> (i & 31)) & 1u) {
			return -SS_EBADMSG;   /* claimed twice */
		}
		os->check[i >> 5] |= 1u << (i & 31);
		if (!os_alloc_is_used(os, lpn + k) || os_alloc_is_pending(os, lpn + k) ||
		    os_alloc_is_reserved(os, lpn + k)) {
			return -SS_EBADMSG;   /* live, yet the allocator could hand it out */
		}
	}
	return 0;
}

static int check_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	struct check_arg *ca = arg;

	(void)pg;
	ca->rep->extents++;
	ca->rep->data_pages += pages;
	ca->pages += pages;
	return claim(os, lpn, pages);
}

static int check_node(struct ss_objstore *os, void *arg, uint64_t start, uint64_t end, uint32_t lpn)
{
	struct check_arg *ca = arg;

	(void)start;
	(void)end;
	ca->rep->node_pages++;
	return claim(os, lpn, 1);
}

int ss_os_check(struct ss_objstore *os, struct ss_os_check_report *rep)
{
	struct check_arg ca = { rep, 0 };

	ss_memset(rep, 0, sizeof(*rep));
	for (uint32_t L = 0; L < OS_XT_MAXDEPTH; L++) {
		os->xcache_lpn[L] = OS_NOSLOT;   /* read every node from flash */
	}
	ss_memset(os->check, 0, SS_DIV_ROUND_UP(os->data_pages, 32) * sizeof(uint32_t));
	for (uint32_t s = 1; s < os->nslots; s++) {
		const struct os_rec *r = &os->recs[s];
		struct os_xt_visit v = { .from = 0, .to = UINT64_MAX, .extent = check_extent,
					 .node = check_node, .arg = &ca };
		int rc;

		if (r->type == 0) {
			continue;
		}
		rep->objects++;
		ca.pages = 0;
		rc = os_xt_walk(os, r, &v);
		if (rc) {
			return rc;
		}
		if (r->nextents != 0 && ca.pages != SS_DIV_ROUND_UP(r->size, os->page_size)) {
			return -SS_EBADMSG;
		}
		if (r->nextents == 0 && r->size > os_rec_inline_cap(r->name_len)) {
			return -SS_EBADMSG;
		}
		if (r->attr_lpn != 0) {
			rc = claim(os, r->attr_lpn, 1);
			if (rc == 0) {
				rc = os_attr_read(os, r, os->iobuf);
			}
			if (rc) {
				return rc;
			}
			rep->attr_pages++;
		}
		rep->tree_objects += r->depth > 0;
		rep->max_depth = SS_MAX(rep->max_depth, (uint32_t)r->depth);
	}
	for (uint32_t i = 0; i < os->data_pages; i++) {
		uint32_t lpn = os->data_first + i;

		if (os_alloc_is_used(os, lpn) && !((os->check[i >> 5] >> (i & 31)) & 1u) &&
		    !os_alloc_is_pending(os, lpn) && !os_alloc_is_reserved(os, lpn)) {
			rep->leaked_pages++;
		}
	}
	return 0;
}
