/*
 * Extent trees: an object's extents, of any number, under the root its record holds.
 *
 * Entries are 8 bytes everywhere (lpn u32, pages u32). In a leaf (level 0), and in a root of
 * depth 0, an entry is an extent; above, it points at a node page one level down and says
 * how many object pages that subtree covers. A record holds 22 to 53 root entries and a node
 * page (page_size - 32) / 8, so depth 4 covers more pages than a 32-bit LPN can name.
 *
 * Node page: 0 magic "OSXN" | 4 crc32c over [8, page_size) | 8 oid u64 | 16 level u32 |
 * 20 entries u32 | 24 zero | 32 entries.
 *
 * Objects change only at their end (append, truncate), so a change touches one path: the
 * nodes along object page `keep` - 1. os_xt_begin loads that path into DRAM and cuts it,
 * appends go to its leaf (a full node is written out and a fresh one started beside it; a
 * full root moves into a new node, one level deeper), and os_xt_finish writes every changed
 * node to a new page, bottom up. Nothing is written in place: until the journal record
 * that points at the new root is durable, the old tree is intact on flash, and a crash at
 * any point recovers one or the other. The replaced nodes and the cut pages are freed at
 * commit, through the same pending bitmap as any freed page.
 */
#include "objstore_internal.h"

static uint32_t node_room(const struct ss_objstore *os)
{
	return (os->page_size - OS_XT_HDR) / OS_EXT_SIZE;
}

/* Level L of r's tree: the root at L == depth, a path node below. */
static uint32_t lvl_n(const struct ss_objstore *os, const struct os_rec *r, uint32_t L)
{
	return L == r->depth ? r->nextents : os->xpath[L].n;
}

static uint32_t lvl_cap(const struct ss_objstore *os, const struct os_rec *r, uint32_t L)
{
	return L == r->depth ? os_rec_root_cap(os, r) : os->node_cap;
}

static void ent_get(const struct ss_objstore *os, const struct os_rec *r, uint32_t L, uint32_t i,
		    uint32_t *lpn, uint32_t *pages)
{
	if (L == r->depth) {
		os_rec_ext_get(r, i, lpn, pages);
		return;
	}
	const uint8_t *p = os->xpath[L].buf + OS_XT_HDR + i * OS_EXT_SIZE;

	*lpn = ss_get_le32(p);
	*pages = ss_get_le32(p + 4);
}

static void ent_set(struct ss_objstore *os, struct os_rec *r, uint32_t L, uint32_t i, uint32_t lpn,
		    uint32_t pages)
{
	if (L == r->depth) {
		os_rec_ext_set(r, i, lpn, pages);
		return;
	}
	uint8_t *p = os->xpath[L].buf + OS_XT_HDR + i * OS_EXT_SIZE;

	ss_put_le32(p, lpn);
	ss_put_le32(p + 4, pages);
	os->xpath[L].dirty = true;
}

static void lvl_set_n(struct ss_objstore *os, struct os_rec *r, uint32_t L, uint32_t n)
{
	if (L == r->depth) {
		r->nextents = (uint16_t)n;
	} else {
		os->xpath[L].n = n;
		os->xpath[L].dirty = true;
	}
}

static void track(struct ss_objstore *os, uint32_t *list, uint32_t *n, uint32_t lpn)
{
	if (*n < OS_XT_LIST) {
		list[(*n)++] = lpn;
	} else {
		os->xt_leaked++;   /* stays allocated until the next mount rebuilds the bitmap */
	}
}

/* Read and check node `lpn` of object `oid` at `level` into `buf`. */
static int node_read(struct ss_objstore *os, uint32_t lpn, uint32_t level, uint64_t oid,
		     uint8_t *buf, uint32_t *n)
{
	int rc;

	if (lpn < os->data_first || lpn - os->data_first >= os->data_pages) {
		return os_problem(os, SS_OS_P_NODE_OUTSIDE, oid, lpn, level);
	}
	rc = ss_ftl_read(os->ftl, lpn, buf);
	if (rc < 0) {
		/* a node the flash cannot give back is a damaged tree, not a passing failure */
		return os_problem(os, SS_OS_P_NODE_UNREADABLE, oid, lpn, level);
	}
	*n = ss_get_le32(buf + 20);
	if (rc == 1) {
		return os_problem(os, SS_OS_P_NODE_UNREADABLE, oid, lpn, level);
	}
	if (ss_get_le32(buf) != OS_MAGIC_XNODE) {
		return os_problem(os, SS_OS_P_NODE_MAGIC, oid, lpn, level);
	}
	if (ss_get_le32(buf + 4) != ss_crc32c(0, buf + 8, os->page_size - 8)) {
		return os_problem(os, SS_OS_P_NODE_CHECKSUM, oid, lpn, level);
	}
	if (ss_get_le64(buf + 8) != oid) {
		return os_problem(os, SS_OS_P_NODE_OWNER, oid, lpn, level);
	}
	if (ss_get_le32(buf + 16) != level) {
		return os_problem(os, SS_OS_P_NODE_LEVEL, oid, lpn, level);
	}
	if (*n == 0 || *n > node_room(os)) {
		return os_problem(os, SS_OS_P_NODE_COUNT, oid, lpn, level);
	}
	return 0;
}

static void cache_forget(struct ss_objstore *os, uint32_t lpn)
{
	for (uint32_t L = 0; L < OS_XT_MAXDEPTH; L++) {
		if (os->xcache_lpn[L] == lpn) {
			os->xcache_lpn[L] = OS_NOSLOT;
		}
	}
}

/* Node `lpn` at `level` through the one-node-per-level cache (nodes never change in place). */
static int node_cached(struct ss_objstore *os, uint32_t lpn, uint32_t level, uint64_t oid,
		       const uint8_t **ents, uint32_t *n)
{
	uint8_t *buf = os->xcache[level];
	int rc;

	if (os->xcache_lpn[level] != lpn) {
		os->xcache_lpn[level] = OS_NOSLOT;
		rc = node_read(os, lpn, level, oid, buf, n);
		if (rc) {
			return rc;
		}
		os->xcache_lpn[level] = lpn;
	}
	*n = ss_get_le32(buf + 20);
	*ents = buf + OS_XT_HDR;
	return 0;
}

/* Write path node L to a new page. \return its LPN in *out. */
static int node_write(struct ss_objstore *os, const struct os_rec *r, uint32_t L, uint32_t *out)
{
	struct os_xt_level *x = &os->xpath[L];
	uint32_t lpn;
	int rc = os_alloc_one(os, &lpn);

	if (rc) {
		return rc;
	}
	ss_memset(x->buf, 0, OS_XT_HDR);
	ss_memset(x->buf + OS_XT_HDR + x->n * OS_EXT_SIZE, 0,
		  os->page_size - OS_XT_HDR - x->n * OS_EXT_SIZE);
	ss_put_le32(x->buf, OS_MAGIC_XNODE);
	ss_put_le64(x->buf + 8, r->oid);
	ss_put_le32(x->buf + 16, L);
	ss_put_le32(x->buf + 20, x->n);
	ss_put_le32(x->buf + 4, ss_crc32c(0, x->buf + 8, os->page_size - 8));
	cache_forget(os, lpn);
	rc = os_meta_write(os, lpn, x->buf);
	if (rc) {
		os_alloc_pend(os, lpn, 1);
		return rc;
	}
	os->data_dirty = true;
	if (x->lpn != OS_NOSLOT) {
		/* the old copy: the live tree's until commit, or an earlier write of this change */
		track(os, os->xold, &os->nxold, x->lpn);
	}
	track(os, os->xnew, &os->nxnew, lpn);
	x->lpn = lpn;
	x->dirty = false;
	*out = lpn;
	return 0;
}

int os_xt_begin(struct ss_objstore *os, struct os_rec *r, uint64_t keep)
{
	uint64_t rel = keep;

	os->nxold = os->nxnew = 0;
	os->xfinished = false;
	for (uint32_t L = 0; L < OS_XT_MAXDEPTH; L++) {
		os->xpath[L].n = 0;
		os->xpath[L].lpn = OS_NOSLOT;
		os->xpath[L].dirty = false;
	}
	if (r->nextents == 0 || keep == 0) {
		r->nextents = 0;
		r->depth = 0;
		return 0;
	}
	for (uint32_t L = r->depth;; L--) {
		uint32_t n = lvl_n(os, r, L), i, lpn = 0, pages = 0;
		uint64_t pos = 0;

		for (i = 0; i < n; i++) {
			ent_get(os, r, L, i, &lpn, &pages);
			if (pos + pages >= rel) {
				break;
			}
			pos += pages;
		}
		if (i == n) {
			return -SS_EBADMSG;   /* the tree covers fewer pages than the record says */
		}
		uint32_t kept = (uint32_t)(rel - pos);

		if (i + 1 != n || kept != pages) {
			lvl_set_n(os, r, L, i + 1);
			ent_set(os, r, L, i, lpn, kept);
		}
		if (L == 0) {
			return 0;
		}
		int rc = node_read(os, lpn, L - 1, r->oid, os->xpath[L - 1].buf, &os->xpath[L - 1].n);

		if (rc) {
			return rc;
		}
		os->xpath[L - 1].lpn = lpn;
		rel = kept;
	}
}

bool os_xt_last(struct ss_objstore *os, const struct os_rec *r, uint32_t *lpn, uint32_t *pages)
{
	uint32_t n = lvl_n(os, r, 0);

	if (r->nextents == 0 || n == 0) {
		return false;
	}
	ent_get(os, r, 0, n - 1, lpn, pages);
	return true;
}

/* The root is full: move its entries into a new node, one level deeper. */
static int push_down(struct ss_objstore *os, struct os_rec *r)
{
	uint32_t D = r->depth, n = r->nextents;
	struct os_xt_level *x = &os->xpath[D];
	uint64_t total = os_rec_pages(r);

	if (D >= OS_XT_MAXDEPTH || total > UINT32_MAX) {
		return -SS_ENOSPC;   /* unreachable at the default fan-outs: see OS_XT_MAXDEPTH */
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lpn, pages;

		os_rec_ext_get(r, i, &lpn, &pages);
		ss_put_le32(x->buf + OS_XT_HDR + i * OS_EXT_SIZE, lpn);
		ss_put_le32(x->buf + OS_XT_HDR + i * OS_EXT_SIZE + 4, pages);
	}
	x->n = n;
	x->lpn = OS_NOSLOT;
	x->dirty = true;
	ss_memset(os_rec_inline(r), 0, os_rec_inline_cap(r->name_len));
	r->depth = (uint8_t)(D + 1);
	r->nextents = 1;
	os_rec_ext_set(r, 0, OS_NOSLOT, (uint32_t)total);
	return 0;
}

/* Add an entry at level L (its pages are added to the ancestors by the caller). */
static int add_entry(struct ss_objstore *os, struct os_rec *r, uint32_t L, uint32_t lpn,
		     uint32_t pages)
{
	uint32_t n = lvl_n(os, r, L), plpn, ppages, wl;
	int rc;

	if (n < lvl_cap(os, r, L)) {
		ent_set(os, r, L, n, lpn, pages);
		lvl_set_n(os, r, L, n + 1);
		return 0;
	}
	if (L == r->depth) {
		rc = push_down(os, r);
		if (rc) {
			return rc;
		}
		return add_entry(os, r, L, lpn, pages);
	}
	/* Node L is full and leaves the path: write it, start a fresh one beside it. */
	rc = node_write(os, r, L, &wl);
	if (rc) {
		return rc;
	}
	n = lvl_n(os, r, L + 1);
	ent_get(os, r, L + 1, n - 1, &plpn, &ppages);
	ent_set(os, r, L + 1, n - 1, wl, ppages);
	rc = add_entry(os, r, L + 1, OS_NOSLOT, 0);
	if (rc) {
		return rc;
	}
	os->xpath[L].n = 0;
	os->xpath[L].lpn = OS_NOSLOT;
	ent_set(os, r, L, 0, lpn, pages);
	os->xpath[L].n = 1;
	return 0;
}

int os_xt_append(struct ss_objstore *os, struct os_rec *r, uint32_t lpn, uint32_t pages)
{
	uint32_t n = lvl_n(os, r, 0), l, p;
	int rc = 0;

	if (r->nextents > 0 && n > 0) {
		ent_get(os, r, 0, n - 1, &l, &p);
	}
	if (r->nextents > 0 && n > 0 && l + p == lpn && p <= UINT32_MAX - pages) {
		ent_set(os, r, 0, n - 1, l, p + pages);
	} else {
		rc = add_entry(os, r, 0, lpn, pages);
	}
	if (rc) {
		return rc;
	}
	for (uint32_t L = 1; L <= r->depth; L++) {
		n = lvl_n(os, r, L);
		ent_get(os, r, L, n - 1, &l, &p);
		ent_set(os, r, L, n - 1, l, p + pages);
	}
	return 0;
}

int os_xt_fit_root(struct ss_objstore *os, struct os_rec *r, uint32_t max)
{
	while (r->nextents > max) {
		int rc = push_down(os, r);

		if (rc) {
			return rc;
		}
	}
	return 0;
}

int os_xt_finish(struct ss_objstore *os, struct os_rec *r)
{
	for (uint32_t L = 0; L < r->depth; L++) {
		uint32_t wl, n, l, p;
		int rc;

		if (!os->xpath[L].dirty && os->xpath[L].lpn != OS_NOSLOT) {
			continue;
		}
		rc = node_write(os, r, L, &wl);
		if (rc) {
			return rc;
		}
		n = lvl_n(os, r, L + 1);
		ent_get(os, r, L + 1, n - 1, &l, &p);
		ent_set(os, r, L + 1, n - 1, wl, p);
	}
	os->xfinished = true;
	return 0;
}

static int walk_level(struct ss_objstore *os, const struct os_rec *r, struct os_xt_visit *v,
		      uint32_t L, const uint8_t *ents, uint32_t n, uint64_t base, uint64_t expect)
{
	uint64_t pos = base;

	for (uint32_t i = 0; i < n && pos < v->to; i++) {
		uint32_t lpn = ss_get_le32(ents + i * OS_EXT_SIZE);
		uint32_t pages = ss_get_le32(ents + i * OS_EXT_SIZE + 4);
		const uint8_t *child;
		uint32_t cn;
		int rc;

		if (pages == 0) {
			return os_problem(os, SS_OS_P_EXTENT_EMPTY, r->oid, lpn, L);
		}
		if (pos + pages <= v->from) {
			pos += pages;
			continue;
		}
		if (L == 0) {
			if (v->extent != NULL) {
				uint64_t lo = SS_MAX(pos, v->from), hi = SS_MIN(pos + pages, v->to);

				rc = v->extent(os, v->arg, lo, lpn + (uint32_t)(lo - pos), (uint32_t)(hi - lo));
				if (rc) {
					return rc;
				}
			}
			pos += pages;
			continue;
		}
		if (v->node != NULL) {
			rc = v->node(os, v->arg, pos, pos + pages, lpn);
			if (rc) {
				return rc;
			}
		}
		rc = node_cached(os, lpn, L - 1, r->oid, &child, &cn);
		if (rc == 0) {
			rc = walk_level(os, r, v, L - 1, child, cn, pos, pages);
		}
		if (rc) {
			return rc;
		}
		pos += pages;
	}
	if (expect != 0 && v->from == 0 && v->to == UINT64_MAX && pos - base != expect) {
		return os_problem(os, SS_OS_P_COUNT_MISMATCH, r->oid, UINT32_MAX, L);
	}
	return 0;
}

int os_xt_walk(struct ss_objstore *os, const struct os_rec *r, struct os_xt_visit *v)
{
	uint8_t root[OS_REC_VAR];
	uint32_t n = r->nextents;

	if (n == 0) {
		return 0;
	}
	if (r->depth > OS_XT_MAXDEPTH) {
		return os_problem(os, SS_OS_P_DEPTH, r->oid, UINT32_MAX, r->depth);
	}
	v->depth_seen = SS_MAX(v->depth_seen, r->depth);
	ss_memcpy(root, os_rec_inline(r), n * OS_EXT_SIZE);
	return walk_level(os, r, v, r->depth, root, n, 0, 0);
}

int os_xt_lpn(struct ss_objstore *os, const struct os_rec *r, uint64_t pg, uint32_t *lpn)
{
	const uint8_t *ents = os_rec_inline(r);
	uint32_t n = r->nextents;

	*lpn = OS_NOSLOT;
	for (uint32_t L = r->depth;; L--) {
		uint32_t i, l = 0, p = 0;
		int rc;

		for (i = 0; i < n; i++) {
			l = ss_get_le32(ents + i * OS_EXT_SIZE);
			p = ss_get_le32(ents + i * OS_EXT_SIZE + 4);
			if (pg < p) {
				break;
			}
			pg -= p;
		}
		if (i == n) {
			return 0;
		}
		if (L == 0) {
			*lpn = l + (uint32_t)pg;
			return 0;
		}
		rc = node_cached(os, l, L - 1, r->oid, &ents, &n);
		if (rc) {
			return rc;
		}
	}
}

struct release_arg {
	uint64_t keep;
};

static int release_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	(void)arg;
	(void)pg;
	os_alloc_pend(os, lpn, pages);
	return 0;
}

static int release_node(struct ss_objstore *os, void *arg, uint64_t start, uint64_t end, uint32_t lpn)
{
	const struct release_arg *ra = arg;

	(void)end;
	if (start >= ra->keep) {
		os_alloc_pend(os, lpn, 1);
	}
	return 0;
}

void os_xt_release(struct ss_objstore *os, const struct os_rec *r, uint64_t keep)
{
	struct release_arg ra = { keep };
	struct os_xt_visit v = { .from = keep, .to = UINT64_MAX, .extent = release_extent,
				 .node = release_node, .arg = &ra };

	if (os_xt_walk(os, r, &v) != 0) {
		os->xt_leaked++;   /* an unreadable node: its pages wait for the next mount */
	}
}

void os_xt_commit(struct ss_objstore *os, const struct os_rec *old, uint64_t keep)
{
	for (uint32_t i = 0; i < os->nxold; i++) {
		os_alloc_pend(os, os->xold[i], 1);
	}
	os_xt_release(os, old, keep);
	os->nxold = os->nxnew = 0;
}

void os_xt_abort(struct ss_objstore *os, struct os_rec *r, uint64_t keep)
{
	struct release_arg ra = { UINT64_MAX };
	struct os_xt_visit v = { .from = keep, .to = UINT64_MAX, .extent = release_extent,
				 .node = release_node, .arg = &ra };

	/* The pages r was given are found through its tree, so write the tree out first; when
	 * even that fails they wait for the next mount, which rebuilds the bitmap. */
	if (!os->xfinished && r->depth != 0 && os_xt_finish(os, r) != 0) {
		os->xt_leaked++;
	} else if (keep != UINT64_MAX && os_xt_walk(os, r, &v) != 0) {
		os->xt_leaked++;
	}
	for (uint32_t i = 0; i < os->nxnew; i++) {
		os_alloc_pend(os, os->xnew[i], 1);
	}
	os->nxold = os->nxnew = 0;
}

static int count_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	(void)os;
	(void)pg;
	(void)lpn;
	(void)pages;
	(*(int64_t *)arg)++;
	return 0;
}

int64_t os_xt_count(struct ss_objstore *os, const struct os_rec *r)
{
	int64_t n = 0;
	struct os_xt_visit v = { .from = 0, .to = UINT64_MAX, .extent = count_extent, .arg = &n };
	int rc = os_xt_walk(os, r, &v);

	return rc ? rc : n;
}
