/*
 * ss_os_check: the object store's fsck. Reads every object's extent tree, attribute page and
 * data page and checks them against the record and against the allocator, without changing
 * anything.
 */
#include "objstore_internal.h"

struct check_arg {
	struct ss_os_check_report *rep;
	uint64_t pages;
	uint64_t oid;
};

static const char *const problem_names[] = {
	[SS_OS_CONSISTENT] = "consistent",
	[SS_OS_P_NODE_OUTSIDE] = "extent-tree node outside the data region",
	[SS_OS_P_NODE_UNREADABLE] = "extent-tree node unreadable (its flash page fails its CRC) or never written",
	[SS_OS_P_NODE_MAGIC] = "extent-tree node with a bad magic number",
	[SS_OS_P_NODE_CHECKSUM] = "extent-tree node checksum mismatch",
	[SS_OS_P_NODE_OWNER] = "extent-tree node owned by another object",
	[SS_OS_P_NODE_LEVEL] = "extent-tree node at the wrong level",
	[SS_OS_P_NODE_COUNT] = "extent-tree node with a bad entry count",
	[SS_OS_P_EXTENT_EMPTY] = "extent of zero pages",
	[SS_OS_P_COUNT_MISMATCH] = "extent-tree parent's page count disagrees with its child",
	[SS_OS_P_DEPTH] = "extent tree deeper than allowed",
	[SS_OS_P_SIZE] = "extents do not cover the object's size",
	[SS_OS_P_OUTSIDE] = "extent outside the data region",
	[SS_OS_P_CLAIMED_TWICE] = "page claimed by two extents",
	[SS_OS_P_ALLOCATOR] = "live page that the allocator holds free",
	[SS_OS_P_RECORD] = "object record contradicts itself",
	[SS_OS_P_NAMESPACE] = "namespace broken (parent, duplicate name or cycle)",
	[SS_OS_P_METADATA] = "store metadata (superblock, object table, journal) inconsistent",
	[SS_OS_P_SUPERBLOCK] = "no intact superblock (neither copy reads and checks out)",
	[SS_OS_P_TABLE_UNREADABLE] = "object-table page unreadable (its flash page fails its CRC)",
	[SS_OS_P_JOURNAL_UNREADABLE] = "journal page unreadable (its flash page fails its CRC)",
	[SS_OS_P_DATA_UNREADABLE] = "data page unreadable (its flash page fails its CRC)",
};

const char *ss_os_problem_name(uint32_t p)
{
	return p < SS_ARRAY_SIZE(problem_names) && problem_names[p] ? problem_names[p]
								     : "unknown problem";
}

int os_problem(struct ss_objstore *os, uint32_t code, uint64_t oid, uint32_t lpn, uint32_t level)
{
	if (os->problem.code == SS_OS_CONSISTENT) {
		os->problem.code = code;
		os->problem.oid = oid;
		os->problem.lpn = lpn;
		os->problem.level = level;
	}
	return -SS_EBADMSG;
}

static int claim(struct ss_objstore *os, uint64_t oid, uint32_t lpn, uint32_t pages)
{
	if (lpn < os->data_first || lpn - os->data_first >= os->data_pages ||
	    pages > os->data_pages - (lpn - os->data_first)) {
		return os_problem(os, SS_OS_P_OUTSIDE, oid, lpn, 0);
	}
	for (uint32_t k = 0; k < pages; k++) {
		uint32_t i = lpn + k - os->data_first;

		if ((os->check[i >> 5] >> (i & 31)) & 1u) {
			return os_problem(os, SS_OS_P_CLAIMED_TWICE, oid, lpn + k, 0);
		}
		os->check[i >> 5] |= 1u << (i & 31);
		if (!os_alloc_is_used(os, lpn + k) || os_alloc_is_pending(os, lpn + k) ||
		    os_alloc_is_reserved(os, lpn + k)) {
			return os_problem(os, SS_OS_P_ALLOCATOR, oid, lpn + k, 0);
		}
	}
	return 0;
}

static void report_problem(const struct ss_objstore *os, struct ss_os_check_report *rep)
{
	rep->problem = os->problem.code;
	rep->problem_oid = os->problem.oid;
	rep->problem_lpn = os->problem.lpn;
	rep->problem_level = os->problem.level;
}

static int check_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	struct check_arg *ca = arg;
	int rc;

	(void)pg;
	ca->rep->extents++;
	ca->rep->data_pages += pages;
	ca->pages += pages;
	rc = claim(os, ca->oid, lpn, pages);
	for (uint32_t k = 0; rc == 0 && k < pages; k++) {
		os->scan = true;   /* read through the buffer without filling it */
		rc = os_io_read(os, lpn + k, os->iobuf);
		os->scan = false;
		if (rc == -SS_EIO) {
			return os_problem(os, SS_OS_P_DATA_UNREADABLE, ca->oid, lpn + k, 0);
		}
		rc = rc < 0 ? rc : 0;
	}
	return rc;
}

static int check_node(struct ss_objstore *os, void *arg, uint64_t start, uint64_t end, uint32_t lpn)
{
	struct check_arg *ca = arg;

	(void)start;
	(void)end;
	ca->rep->node_pages++;
	return claim(os, ca->oid, lpn, 1);
}

static int check_all(struct ss_objstore *os, struct ss_os_check_report *rep)
{
	struct check_arg ca = { rep, 0, 0 };

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
		ca.oid = r->oid;
		rc = os_xt_walk(os, r, &v);
		if (rc) {
			return rc;
		}
		if (r->nextents != 0 && ca.pages != SS_DIV_ROUND_UP(r->size, os->page_size)) {
			return os_problem(os, SS_OS_P_SIZE, r->oid, UINT32_MAX, 0);
		}
		if (r->nextents == 0 && r->size > os_rec_inline_cap(r->name_len)) {
			return os_problem(os, SS_OS_P_SIZE, r->oid, UINT32_MAX, 0);
		}
		if (r->attr_lpn != 0) {
			rc = claim(os, r->oid, r->attr_lpn, 1);
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

int ss_os_check(struct ss_objstore *os, struct ss_os_check_report *rep)
{
	int rc;

	ss_memset(rep, 0, sizeof(*rep));
	os->problem.code = SS_OS_CONSISTENT;
	rc = check_all(os, rep);
	if (rc == -SS_EBADMSG && os->problem.code == SS_OS_CONSISTENT) {
		os_problem(os, SS_OS_P_METADATA, 0, UINT32_MAX, 0);
	}
	if (rc) {
		report_problem(os, rep);
	} else {
		rep->problem_lpn = UINT32_MAX;
	}
	return rc;
}
