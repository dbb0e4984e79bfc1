/*
 * Data-page allocator: a bitmap over the data region, rebuilt at mount from the extents.
 *
 * Objects grow in contiguous chunks: an object's next pages come first from right after its
 * last extent, then from a per-object reservation sized like the object itself (doubling,
 * up to chunk_cap), so a large sequential object keeps few extents even with several
 * writers at once. Reservations live in DRAM only and are handed back under pressure.
 *
 * Freed pages go to a pending list and are reused only after the change that freed them is
 * durable and the pages are trimmed: a crash never shows an old object over reused pages,
 * and every page the allocator hands out reads as zeros.
 */
#include "objstore_internal.h"

static bool bit_test(const struct ss_objstore *os, uint32_t i)
{
	return (os->bitmap[i >> 5] >> (i & 31)) & 1u;
}

static void bits_set(struct ss_objstore *os, uint32_t i, uint32_t n, bool v)
{
	for (; n; n--, i++) {
		if (v) {
			os->bitmap[i >> 5] |= 1u << (i & 31);
		} else {
			os->bitmap[i >> 5] &= ~(1u << (i & 31));
		}
	}
}

void os_alloc_reset(struct ss_objstore *os)
{
	ss_memset(os->bitmap, 0, SS_DIV_ROUND_UP(os->data_pages, 32) * sizeof(uint32_t));
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
		return -SS_EBADMSG;
	}
	uint32_t i = lpn - os->data_first;

	for (uint32_t k = 0; k < pages; k++) {
		if (bit_test(os, i + k)) {
			return -SS_EBADMSG;   /* two extents share a page */
		}
	}
	bits_set(os, i, pages, true);
	os->nfree -= pages;
	return 0;
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

typedef void (*page_sink)(struct ss_objstore *os, uint32_t lpn, uint32_t pages);

/* Cut r's extents down to `keep` pages, handing every cut range to `sink`. */
static void cut_tail(struct ss_objstore *os, struct os_rec *r, uint64_t keep, page_sink sink)
{
	uint64_t pos = 0;
	uint32_t i;

	for (i = 0; i < r->nextents; i++) {
		uint32_t lpn, pages;

		os_rec_ext_get(r, i, &lpn, &pages);
		if (pos + pages <= keep) {
			pos += pages;
			continue;
		}
		uint32_t kept = (uint32_t)(keep > pos ? keep - pos : 0);

		sink(os, lpn + kept, pages - kept);
		if (kept) {
			os_rec_ext_set(r, i, lpn, kept);
		}
		pos += pages;
		for (uint32_t j = i + 1; j < r->nextents; j++) {
			os_rec_ext_get(r, j, &lpn, &pages);
			sink(os, lpn, pages);
		}
		r->nextents = (uint16_t)(i + (kept ? 1 : 0));
		break;
	}
	if (r->nextents == 0) {
		ss_memset(os_rec_inline(r), 0, os_rec_inline_cap(r->name_len));
	}
}

static void sink_free(struct ss_objstore *os, uint32_t lpn, uint32_t pages)
{
	bits_set(os, lpn - os->data_first, pages, false);
	os->nfree += pages;
}

static void sink_pending(struct ss_objstore *os, uint32_t lpn, uint32_t pages)
{
	struct os_range *last = os->npending ? &os->pending[os->npending - 1] : NULL;

	if (last != NULL && last->lpn + last->pages == lpn) {
		last->pages += pages;
		return;
	}
	/* Callers make room first (os_pending_make_room); never drop a range. */
	os->pending[os->npending].lpn = lpn;
	os->pending[os->npending].pages = pages;
	os->npending++;
}

int os_alloc_extend(struct ss_objstore *os, uint32_t slot, struct os_rec *r, uint32_t want)
{
	uint32_t max_ext = os_rec_max_extents(r->name_len);
	uint64_t before = os_rec_pages(r);
	uint64_t cur = before;

	if (want > os_alloc_available(os)) {
		return -SS_ENOSPC;
	}
	while (want > 0) {
		uint32_t last_lpn = 0, last_pages = 0, hint = OS_NOSLOT, lpn, n;
		int rc;

		if (r->nextents > 0) {
			os_rec_ext_get(r, r->nextents - 1u, &last_lpn, &last_pages);
			hint = last_lpn + last_pages - os->data_first;
		}
		rc = take(os, slot, cur, hint, want, &lpn, &n);
		if (rc == 0 && r->nextents > 0 && last_lpn + last_pages == lpn) {
			os_rec_ext_set(r, r->nextents - 1u, last_lpn, last_pages + n);
		} else if (rc == 0 && r->nextents < max_ext) {
			os_rec_ext_set(r, r->nextents, lpn, n);
			r->nextents++;
		} else {
			if (rc == 0) {
				sink_free(os, lpn, n);
				rc = -SS_EFBIG;
			}
			os_alloc_unextend(os, r, before);
			return rc;
		}
		want -= n;
		cur += n;
	}
	return 0;
}

void os_alloc_unextend(struct ss_objstore *os, struct os_rec *r, uint64_t keep)
{
	cut_tail(os, r, keep, sink_free);
}

void os_alloc_release_tail(struct ss_objstore *os, struct os_rec *r, uint64_t keep)
{
	cut_tail(os, r, keep, sink_pending);
}

bool os_alloc_pending_room(const struct ss_objstore *os, uint32_t n)
{
	return os->npending + n <= OS_PENDING_CAP;
}

int os_alloc_release_pending(struct ss_objstore *os)
{
	int rc;

	if (os->npending == 0) {
		return 0;
	}
	for (uint32_t i = 0; i < os->npending; i++) {
		rc = ss_ftl_trim(os->ftl, os->pending[i].lpn, os->pending[i].pages);
		if (rc) {
			return rc;
		}
	}
	/* The trims must be durable before a page is handed out as "reads as zeros". */
	rc = ss_ftl_flush(os->ftl);
	if (rc) {
		return rc;
	}
	for (uint32_t i = 0; i < os->npending; i++) {
		sink_free(os, os->pending[i].lpn, os->pending[i].pages);
	}
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
		int rc = ss_ftl_trim(os->ftl, os->data_first + i, n);

		if (rc) {
			return rc;
		}
		i += n;
	}
	return 0;
}

static bool in_ranges_resv(const struct ss_objstore *os, uint32_t lpn)
{
	for (uint32_t i = 0; i < OS_NRESV; i++) {
		const struct os_resv *rv = &os->resv[i];

		if (rv->slot != 0 && lpn >= rv->lpn && lpn - rv->lpn < rv->pages) {
			return true;
		}
	}
	return false;
}

static bool in_ranges_pending(const struct ss_objstore *os, uint32_t lpn)
{
	for (uint32_t i = 0; i < os->npending; i++) {
		if (lpn >= os->pending[i].lpn && lpn - os->pending[i].lpn < os->pending[i].pages) {
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
		    !bit_test(os, p - os->data_first) || in_ranges_resv(os, p) ||
		    in_ranges_pending(os, p)) {
			return false;
		}
	}
	return true;
}
