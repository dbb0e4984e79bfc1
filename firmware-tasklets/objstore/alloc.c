/*
 * Data-page allocator: a bitmap over the data region, rebuilt at mount from the extents.
 *
 * Objects grow in contiguous chunks: an object's next pages come first from right after its
 * last extent, then from a per-object reservation sized like the object itself (doubling,
 * up to chunk_cap), so a large sequential object keeps few extents even with several
 * writers at once. Reservations live in DRAM only and are handed back under pressure.
 *
 * Freed pages go to the pending bitmap and are reused only after the change that freed them
 * is durable and the pages are trimmed: a crash never shows an old object over reused
 * pages, and every page the allocator hands out reads as zeros. A bitmap, not a list, so
 * that removing an object of any number of extents never has to wait for room.
 *
 * Extent-tree nodes (extent.c) are data pages too, taken one at a time away from the
 * objects' runs; the `nodes` bitmap tells them apart for ss_os_lpns_owned.
 */
#include "objstore_internal.h"

static bool bit_test(const struct ss_objstore *os, uint32_t i)
{
	return (os->bitmap[i >> 5] >> (i & 31)) & 1u;
}

static void map_set(uint32_t *map, uint32_t i, uint32_t n, bool v)
{
	for (; n; n--, i++) {
		if (v) {
			map[i >> 5] |= 1u << (i & 31);
		} else {
			map[i >> 5] &= ~(1u << (i & 31));
		}
	}
}

static bool map_test(const uint32_t *map, uint32_t i)
{
	return (map[i >> 5] >> (i & 31)) & 1u;
}

static void bits_set(struct ss_objstore *os, uint32_t i, uint32_t n, bool v)
{
	map_set(os->bitmap, i, n, v);
}

void os_alloc_reset(struct ss_objstore *os)
{
	size_t words = SS_DIV_ROUND_UP(os->data_pages, 32) * sizeof(uint32_t);

	ss_memset(os->bitmap, 0, words);
	ss_memset(os->pend, 0, words);
	ss_memset(os->nodes, 0, words);
	ss_memset(os->resv, 0, sizeof(os->resv));
	os->nfree = os->data_pages;
	os->nresv = 0;
	os->npending = 0;
	os->cursor = 0;
}

int os_alloc_mark(struct ss_objstore *os, uint32_t lpn, uint32_t pages)
{
	if (pages == 0 || lpn < os->data_first || lpn - os->data_first >= os->data_pages ||
	    pages > os->data_pages - (lpn - os->data_first)) {
		return os_problem(os, pages == 0 ? SS_OS_P_EXTENT_EMPTY : SS_OS_P_OUTSIDE, 0, lpn, 0);
	}
	uint32_t i = lpn - os->data_first;

	for (uint32_t k = 0; k < pages; k++) {
		if (bit_test(os, i + k)) {
			return os_problem(os, SS_OS_P_CLAIMED_TWICE, 0, lpn + k, 0);
		}
	}
	bits_set(os, i, pages, true);
	os->nfree -= pages;
	return 0;
}

int os_alloc_mark_node(struct ss_objstore *os, uint32_t lpn)
{
	int rc = os_alloc_mark(os, lpn, 1);

	if (rc == 0) {
		map_set(os->nodes, lpn - os->data_first, 1, true);
	}
	return rc;
}

uint32_t os_alloc_available(const struct ss_objstore *os)
{
	return os->nfree + os->nresv;
}

static void resv_release(struct ss_objstore *os, struct os_resv *rv)
{
	if (rv->slot != 0 && rv->pages) {
		bits_set(os, rv->lpn - os->data_first, rv->pages, false);
		os->nfree += rv->pages;
		os->nresv -= rv->pages;
	}
	ss_memset(rv, 0, sizeof(*rv));
}

void os_alloc_drop_resv(struct ss_objstore *os, uint32_t slot)
{
	for (uint32_t i = 0; i < OS_NRESV; i++) {
		if (os->resv[i].slot == slot) {
			resv_release(os, &os->resv[i]);
		}
	}
}

static struct os_resv *resv_find(struct ss_objstore *os, uint32_t slot)
{
	for (uint32_t i = 0; i < OS_NRESV; i++) {
		if (os->resv[i].slot == slot) {
			return &os->resv[i];
		}
	}
	return NULL;
}

static struct os_resv *resv_new(struct ss_objstore *os)
{
	struct os_resv *victim = &os->resv[0];

	for (uint32_t i = 0; i < OS_NRESV; i++) {
		if (os->resv[i].slot == 0) {
			return &os->resv[i];
		}
		if (os->resv[i].stamp < victim->stamp) {
			victim = &os->resv[i];
		}
	}
	resv_release(os, victim);
	return victim;
}

/* Length of the clear run at index i, at most max. */
static uint32_t run_at(const struct ss_objstore *os, uint32_t i, uint32_t max)
{
	uint32_t n = 0;

	while (n < max && i + n < os->data_pages && !bit_test(os, i + n)) {
		n++;
	}
	return n;
}

/* First clear run at or after the cursor (wrapping), at most max pages; 0 when full. */
static uint32_t find_run(struct ss_objstore *os, uint32_t hint, uint32_t max, uint32_t *start)
{
	uint32_t words = SS_DIV_ROUND_UP(os->data_pages, 32);
	uint32_t i = os->cursor < os->data_pages ? os->cursor : 0;
	uint32_t n;

	if (hint < os->data_pages && (n = run_at(os, hint, max)) > 0) {
		*start = hint;
		return n;
	}
	for (uint32_t seen = 0; seen <= os->data_pages + 32;) {
		if (i >= os->data_pages) {
			i = 0;
		}
		if ((i & 31) == 0 && i / 32 < words && os->bitmap[i / 32] == 0xffffffffu) {
			i += 32;
			seen += 32;
			continue;
		}
		if (!bit_test(os, i)) {
			n = run_at(os, i, max);
			*start = i;
			os->cursor = i + n;
			return n;
		}
		i++;
		seen++;
	}
	return 0;
}

static void drop_all_resv(struct ss_objstore *os)
{
	for (uint32_t i = 0; i < OS_NRESV; i++) {
		resv_release(os, &os->resv[i]);
	}
}

/* Take up to `want` pages for `slot` whose object has `cur` pages ending before `hint`. */
static int take(struct ss_objstore *os, uint32_t slot, uint64_t cur, uint32_t hint, uint32_t want,
		uint32_t *lpn, uint32_t *n)
{
	struct os_resv *rv = resv_find(os, slot);
	uint32_t chunk, start, run;

	if (rv != NULL && rv->lpn - os->data_first == hint) {
		*n = SS_MIN(want, rv->pages);
		*lpn = rv->lpn;
		rv->lpn += *n;
		rv->pages -= *n;
		os->nresv -= *n;
		rv->stamp = ++os->resv_clock;
		if (rv->pages == 0) {
			rv->slot = 0;
		}
		return 0;
	}
	if (rv != NULL) {
		resv_release(os, rv);  /* no longer contiguous with the object */
	}
	chunk = (uint32_t)SS_MIN((uint64_t)os->chunk_cap, SS_MAX(cur, 1u));
	chunk = SS_MAX(chunk, want);
	run = find_run(os, hint, chunk, &start);
	if (run == 0) {
		drop_all_resv(os);
		run = find_run(os, hint, chunk, &start);
		if (run == 0) {
			return -SS_ENOSPC;
		}
	}
	bits_set(os, start, run, true);
	os->nfree -= run;
	*lpn = os->data_first + start;
	*n = SS_MIN(want, run);
	if (run > *n) {
		rv = resv_new(os);
		rv->slot = slot;
		rv->lpn = *lpn + *n;
		rv->pages = run - *n;
		rv->stamp = ++os->resv_clock;
		os->nresv += rv->pages;
	}
	return 0;
}

void os_alloc_pend(struct ss_objstore *os, uint32_t lpn, uint32_t pages)
{
	uint32_t i = lpn - os->data_first;

	for (uint32_t k = 0; k < pages; k++) {
		os->npending += !map_test(os->pend, i + k);
	}
	map_set(os->pend, i, pages, true);
	map_set(os->nodes, i, pages, false);
}

bool os_alloc_is_used(const struct ss_objstore *os, uint32_t lpn)
{
	return bit_test(os, lpn - os->data_first);
}

bool os_alloc_is_pending(const struct ss_objstore *os, uint32_t lpn)
{
	return map_test(os->pend, lpn - os->data_first);
}

/* An object whose root can take one extent per new page needs no node; otherwise count
 * every node a full one leaves behind, plus the rewritten path and new levels. */
uint32_t os_alloc_need(const struct ss_objstore *os, const struct os_rec *r, uint32_t want)
{
	if (r->depth == 0 && (uint64_t)r->nextents + want <= os_rec_root_cap(os, r)) {
		return want;
	}
	uint64_t nodes = 2u * OS_XT_MAXDEPTH + 2u * ((uint64_t)want / SS_MAX(os->node_cap / 2u, 1u) + 1u);

	return (uint32_t)SS_MIN((uint64_t)want + nodes, (uint64_t)UINT32_MAX);
}

int os_alloc_one(struct ss_objstore *os, uint32_t *lpn)
{
	uint32_t start, run = find_run(os, OS_NOSLOT, 1, &start);

	if (run == 0) {
		drop_all_resv(os);
		run = find_run(os, OS_NOSLOT, 1, &start);
		if (run == 0) {
			return -SS_ENOSPC;
		}
	}
	bits_set(os, start, 1, true);
	map_set(os->nodes, start, 1, true);
	os->nfree--;
	*lpn = os->data_first + start;
	return 0;
}

int os_alloc_extend(struct ss_objstore *os, uint32_t slot, struct os_rec *r, uint32_t want)
{
	uint64_t cur = os_rec_pages(r);

	if (os_alloc_need(os, r, want) > os_alloc_available(os)) {
		return -SS_ENOSPC;
	}
	while (want > 0) {
		uint32_t last_lpn = 0, last_pages = 0, hint = OS_NOSLOT, lpn, n;
		int rc;

		if (os_xt_last(os, r, &last_lpn, &last_pages)) {
			hint = last_lpn + last_pages - os->data_first;
		}
		rc = take(os, slot, cur, hint, want, &lpn, &n);
		if (rc) {
			return rc;   /* the operation aborts: os_xt_abort frees what r was given */
		}
		rc = os_xt_append(os, r, lpn, n);
		if (rc) {
			os_alloc_pend(os, lpn, n);   /* not in r's tree: free it here */
			return rc;
		}
		want -= n;
		cur += n;
	}
	return 0;
}

int os_alloc_release_pending(struct ss_objstore *os)
{
	uint32_t i;
	int rc;

	if (os->npending == 0) {
		return 0;
	}
	for (i = 0; i < os->data_pages;) {
		uint32_t n = 0;

		if ((i & 31) == 0 && os->pend[i >> 5] == 0) {
			i += 32;
			continue;
		}
		while (i + n < os->data_pages && map_test(os->pend, i + n)) {
			n++;
		}
		if (n == 0) {
			i++;
			continue;
		}
		rc = os_io_trim(os, os->data_first + i, n);
		if (rc) {
			return rc;
		}
		i += n;
	}
	/* The trims must be durable before a page is handed out as "reads as zeros". */
	rc = os_io_flush(os);
	if (rc) {
		return rc;
	}
	for (i = 0; i < SS_DIV_ROUND_UP(os->data_pages, 32); i++) {
		os->bitmap[i] &= ~os->pend[i];
		os->pend[i] = 0;
	}
	os->nfree += os->npending;
	os->npending = 0;
	return 0;
}

int os_alloc_trim_free(struct ss_objstore *os)
{
	uint32_t i = 0;

	while (i < os->data_pages) {
		if (bit_test(os, i)) {
			i++;
			continue;
		}
		uint32_t n = run_at(os, i, os->data_pages);
		int rc = os_io_trim(os, os->data_first + i, n);

		if (rc) {
			return rc;
		}
		i += n;
	}
	return 0;
}

bool os_alloc_is_reserved(const struct ss_objstore *os, uint32_t lpn)
{
	for (uint32_t i = 0; i < OS_NRESV; i++) {
		const struct os_resv *rv = &os->resv[i];

		if (rv->slot != 0 && lpn >= rv->lpn && lpn - rv->lpn < rv->pages) {
			return true;
		}
	}
	return false;
}

bool ss_os_lpns_owned(const struct ss_objstore *os, uint32_t lpn, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		uint32_t p = lpn + i;

		if (p < os->data_first || p - os->data_first >= os->data_pages ||
		    !bit_test(os, p - os->data_first) || os_alloc_is_reserved(os, p) ||
		    map_test(os->pend, p - os->data_first) || map_test(os->nodes, p - os->data_first)) {
			return false;
		}
	}
	return true;
}
