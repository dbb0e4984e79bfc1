/*
 * The non-volatile merge cache [Smullen 2010, §IV]: the drive's buffer held in
 * byte-addressable non-volatile RAM, in 512-byte sectors, so a write smaller than a flash
 * page is kept (and merged with later writes to the page) instead of costing a
 * read-modify-write of the page on the flash. Three structures:
 *   - in the NVM, the sectors and the inverted index (NVM sector -> LBA) with each
 *     sector's write sequence number (§IV-B), and (ours) a CRC-32C per slot and a header
 *     naming the NVM's owner (buf_internal.h);
 *   - in DRAM, a record per cached page (which of its sectors are cached, its dirty bit,
 *     its place in the LRU): the paper's "bit in the FTL's map entry" and its dirty bit;
 *   - the controller-side cache of the inverted index: a small hash table indexed by the
 *     logical page number, whose line gives the NVM sector of each of the page's sectors;
 *     a miss is a linear search of the inverted index (§IV-B).
 *
 * What the paper leaves open, and what is chosen here:
 *   - Eviction is page LRU (§IV-C: "We use a traditional LRU policy"). A dirty victim's
 *     sectors are laid over the page as the flash holds it (a flash read, counted as a
 *     padding read, when the cache lacks some of its sectors) and written as one page; a
 *     clean victim is dropped.
 *   - "Sectors that already reside in the merge cache are simply updated": an update is
 *     written to a free sector and the index entry moved to it, the old sector freed after.
 *     Written in place, a power cut in the middle of the sector would leave neither the old
 *     nor the new data; the NVM traffic is the same.
 *   - A sector whose page was written back to the flash is reused only after the FTL's
 *     next flush: until then the flash copy may not survive a power cut (ss_ftl.h), so the
 *     NVM copy and its index entry stay. Evictions are batched (a 32nd of the sectors) so
 *     that one FTL flush frees many sectors.
 *   - Saturating sub-page writebuffer: "If a write covers all the sectors in a page in the
 *     merge cache, this policy allocates the remaining sectors to the merge cache as well"
 *     is read as: a whole-page write to a page of which the cache holds sectors is cached
 *     whole (where the sub-page policy sends it to the flash and drops those sectors); a
 *     whole-page write to a page the cache holds nothing of goes to the flash.
 *   - A page sent past the cache is durable before the command returns (the FTL is flushed
 *     once, when the request ends): the paper's baseline keeps the FTL's map in NVM, so
 *     its flash writes are durable on completion (§IV-B), and a non-volatile buffer that
 *     acknowledged writes the flash could still lose would not be one.
 *   - A request larger than the cache (Radius at 32 MB, §V-B3) is not refused: LRU evicts
 *     the request's own earlier pages; the page being written is never the victim.
 *   - Selective caching: the last page of a read request, when it was read from the flash
 *     and the request did not read the page's last sector; the sectors the cache lacks
 *     enter clean. Selective prefetching: when a request read the last sector of its last
 *     page, the next page is read when the request ends, as the hal's read-ahead (the
 *     command does not wait for it; a later read of it does), and its missing sectors
 *     enter clean: the paper's "queue processed only after the request has been handled".
 *   - The controller-side cache is direct-mapped, one line per page (the LPN and its
 *     sectors' NVM slots), sized at 256 kB per 35 MB of merge cache: the paper's 256 kB
 *     beside its 35 MB cache (§IV-B, §V-B). Lines are updated as sectors move; a miss
 *     searches the whole index and is counted (nv_index_misses). NVM accesses cost what
 *     DRAM accesses cost in the model: nothing on the I/O path ("similar access times",
 *     §IV-A).
 *   - A read is served from the NVM only when every sector it asks of a page is cached;
 *     otherwise the page is read from the flash and the cached sectors laid over it
 *     (§IV-B: "Reads are always forwarded to Flash on a miss or partial hit").
 *   - Hit ratios count pages: a write hit is a page whose every written sector was cached
 *     (a full hit, which bypasses the write policy), a read hit a page served from the NVM.
 *   - Before power-up trusts the NVM, all of it is checked (examine): its owner, and every
 *     held slot's entry and sector against their CRC. The paper's NVM is on the board, so
 *     it never belongs to another drive; ours is a file that can be copied, swapped or
 *     damaged, and a refusal is better than serving the flash's older data as if it were
 *     what was acknowledged. Reads from the NVM check the sector too.
 *   - At power-up the page records are rebuilt from the inverted index, every page dirty
 *     (the dirty bit is DRAM state); of two entries for one LBA (a power cut between an
 *     update's two index stores, or a written-back copy and a newer one) the later
 *     sequence number wins.
 */
#include "buf_internal.h"

#ifndef SS_BUF_BOARD   /* the board has no non-volatile RAM */

#define ALIGN 64u
#define NV_CACHE_RATIO 140u    /* merge-cache bytes per byte of index cache: 35 MB / 256 kB */

static uint32_t spp_of(uint32_t page_size)
{
	return page_size / BUF_SECTOR;
}

static uint32_t slots_of(const struct ss_buf_params *p, uint32_t page_size)
{
	return p->pages * spp_of(page_size);
}

static uint32_t cache_lines(uint32_t slots, uint32_t spp)
{
	uint64_t bytes = (uint64_t)slots * BUF_SECTOR / NV_CACHE_RATIO;
	uint64_t line = (1u + spp) * 4u;
	uint32_t n = 16;

	while ((uint64_t)n * 2 * line <= bytes && n < (1u << 24)) {
		n <<= 1;
	}
	return n;
}

uint32_t buf_nv_regions(const struct ss_buf_params *p, uint32_t page_size, uint64_t sz[10])
{
	uint32_t slots = slots_of(p, page_size), spp = spp_of(page_size);

	sz[0] = sizeof(struct ss_buf);
	sz[1] = (uint64_t)p->read_ahead_pages * page_size;
	/* a record per slot, and one for the page a write is bringing in while every slot
	 * holds a sector of another page */
	sz[2] = ((uint64_t)slots + 1) * sizeof(struct buf_nv_page);
	sz[3] = (uint64_t)buf_hash_size(slots) * 4u;
	sz[4] = (uint64_t)slots * 4u;                         /* free slots */
	sz[5] = (uint64_t)slots * 4u;                         /* pending slots */
	sz[6] = (uint64_t)cache_lines(slots, spp) * (1u + spp) * 4u;
	sz[7] = 2ull * page_size;
	return 8;
}

static uint64_t nv_layout(uint32_t slots, uint64_t *ent_off, uint64_t *data_off)
{
	*ent_off = SS_ALIGN_UP(sizeof(struct buf_nv_hdr), ALIGN);
	*data_off = *ent_off + SS_ALIGN_UP((uint64_t)slots * sizeof(struct buf_nv_entry), ALIGN);
	return *data_off + (uint64_t)slots * BUF_SECTOR;
}

uint64_t buf_nv_nvram(const struct ss_buf_params *p, uint32_t page_size)
{
	uint64_t a, b;

	return nv_layout(slots_of(p, page_size), &a, &b);
}

static uint64_t full_mask(uint32_t spp)
{
	return spp == 64 ? ~0ull : (1ull << spp) - 1;
}

static uint64_t bits(uint32_t in, uint32_t n)
{
	return (n == 64 ? ~0ull : (1ull << n) - 1) << in;
}

/* ---- page records --------------------------------------------------------------------- */

static uint32_t find_rec(const struct ss_buf *b, uint32_t lpn)
{
	const struct buf_nv *nv = &b->nv;

	for (uint32_t r = nv->rec_hash[buf_hash32(lpn) & nv->rec_mask]; r != BUF_NIL;
	     r = nv->recs[r].hnext) {
		if (nv->recs[r].lpn == lpn) {
			return r;
		}
	}
	return BUF_NIL;
}

static void lru_unlink(struct buf_nv *nv, uint32_t r)
{
	struct buf_nv_page *x = &nv->recs[r];

	if (x->prev != BUF_NIL) {
		nv->recs[x->prev].next = x->next;
	} else {
		nv->lru_head = x->next;
	}
	if (x->next != BUF_NIL) {
		nv->recs[x->next].prev = x->prev;
	} else {
		nv->lru_tail = x->prev;
	}
}

static void lru_push_head(struct buf_nv *nv, uint32_t r)
{
	struct buf_nv_page *x = &nv->recs[r];

	x->prev = BUF_NIL;
	x->next = nv->lru_head;
	if (nv->lru_head != BUF_NIL) {
		nv->recs[nv->lru_head].prev = r;
	} else {
		nv->lru_tail = r;
	}
	nv->lru_head = r;
}

static void touch(struct buf_nv *nv, uint32_t r)
{
	if (nv->lru_head != r) {
		lru_unlink(nv, r);
		lru_push_head(nv, r);
	}
}

static uint32_t rec_new(struct ss_buf *b, uint32_t lpn, enum ss_stream stream)
{
	struct buf_nv *nv = &b->nv;
	uint32_t r = nv->free_rec;   /* never short: see buf_nv_regions */
	uint32_t *bucket = &nv->rec_hash[buf_hash32(lpn) & nv->rec_mask];
	struct buf_nv_page *x = &nv->recs[r];

	nv->free_rec = x->hnext;
	ss_memset(x, 0, sizeof(*x));
	x->lpn = lpn;
	x->stream = (uint8_t)stream;
	x->hnext = *bucket;
	*bucket = r;
	lru_push_head(nv, r);
	b->st.resident_pages++;
	return r;
}

static void rec_free(struct ss_buf *b, uint32_t r)
{
	struct buf_nv *nv = &b->nv;
	struct buf_nv_page *x = &nv->recs[r];
	uint32_t *link = &nv->rec_hash[buf_hash32(x->lpn) & nv->rec_mask];
	uint32_t *line = nv->cache + (buf_hash32(x->lpn) & nv->cache_mask) * (1u + nv->spp);

	if (line[0] == x->lpn + 1) {
		line[0] = 0;
	}
	while (*link != r) {
		link = &nv->recs[*link].hnext;
	}
	*link = x->hnext;
	lru_unlink(nv, r);
	if (x->dirty) {
		b->st.dirty_pages--;
	}
	b->st.resident_pages--;
	x->hnext = nv->free_rec;
	nv->free_rec = r;
}

static void set_dirty(struct ss_buf *b, struct buf_nv_page *x, bool dirty)
{
	if (x->dirty != dirty) {
		x->dirty = dirty;
		if (dirty) {
			b->st.dirty_pages++;
		} else {
			b->st.dirty_pages--;
		}
	}
}

/* ---- the inverted index and its controller-side cache ---------------------------------- */

/* The slot holding sector `i` of page record `x`, from the index cache; a miss rebuilds
 * the page's line by a linear search of the inverted index. Only cached sectors are taken
 * (a written-back copy awaiting the FTL's flush is not), the newest where there are two. */
static uint32_t *line_of(struct ss_buf *b, const struct buf_nv_page *x)
{
	struct buf_nv *nv = &b->nv;
	uint32_t spp = nv->spp, lpn = x->lpn;
	uint32_t *l = nv->cache + (buf_hash32(lpn) & nv->cache_mask) * (1u + spp);
	uint64_t base = (uint64_t)lpn * spp;

	if (l[0] == lpn + 1) {
		b->st.nv_index_hits++;
		return l;
	}
	b->st.nv_index_misses++;
	l[0] = lpn + 1;
	for (uint32_t i = 0; i < spp; i++) {
		l[1 + i] = BUF_NIL;
	}
	for (uint32_t s = 0; s < nv->slots; s++) {
		uint32_t v = nv->ent[s].lba1;
		uint32_t i;

		if (v == 0 || v - 1 < base || v - 1 >= base + spp) {
			continue;
		}
		i = (uint32_t)(v - 1 - base);
		if (!(x->present >> i & 1)) {
			continue;
		}
		if (l[1 + i] == BUF_NIL || (int32_t)(nv->ent[s].seq - nv->ent[l[1 + i]].seq) > 0) {
			l[1 + i] = s;
		}
	}
	return l;
}

static void index_set(struct buf_nv *nv, uint32_t slot, uint32_t v)
{
	/* the sector's data and sequence number are in the NVM before the entry naming them */
	__atomic_store_n(&nv->ent[slot].lba1, v, __ATOMIC_RELEASE);
}

static uint8_t *sector(const struct buf_nv *nv, uint32_t slot)
{
	return nv->data + (size_t)slot * BUF_SECTOR;
}

static uint32_t entry_crc(uint32_t lba1, uint32_t seq, const uint8_t *data)
{
	uint32_t e[2] = { lba1, seq };

	return ss_crc32c(ss_crc32c(0, e, sizeof(e)), data, BUF_SECTOR);
}

/* Whether held slot `slot` is as it was written: entry and sector against their CRC. */
static bool slot_ok(const struct buf_nv_entry *ent, const uint8_t *data, uint32_t slot)
{
	const struct buf_nv_entry *e = &ent[slot];

	return e->crc == entry_crc(e->lba1, e->seq, data + (size_t)slot * BUF_SECTOR);
}

/* Sector `slot` into dst, or -SS_EBADMSG when it no longer matches its CRC. */
static int sector_get(const struct buf_nv *nv, uint32_t slot, uint8_t *dst)
{
	if (!slot_ok(nv->ent, nv->data, slot)) {
		return -SS_EBADMSG;
	}
	ss_memcpy(dst, sector(nv, slot), BUF_SECTOR);
	return 0;
}

/* ---- room ------------------------------------------------------------------------------- */

/* Flush the FTL, then free the slots whose pages it has now made durable. */
static int release(struct ss_buf *b)
{
	struct buf_nv *nv = &b->nv;
	int rc = ss_ftl_flush(b->ftl);

	if (rc) {
		return rc;
	}
	b->st.nv_ftl_flushes++;
	for (uint32_t i = 0; i < nv->npend; i++) {
		index_set(nv, nv->pend_slots[i], 0);
		nv->free_slots[nv->nfree++] = nv->pend_slots[i];
	}
	nv->npend = 0;
	nv->need_flush = false;
	return 0;
}

/* Page `x` as it is now: the flash's copy with the cached sectors laid over it, into dst.
 * \return 0 or what the flash read returned. */
static int merged_page(struct ss_buf *b, struct buf_nv_page *x, uint8_t *dst, bool count)
{
	struct buf_nv *nv = &b->nv;
	uint32_t *l;

	if (x->present != full_mask(nv->spp)) {
		int rc = ss_ftl_read(b->ftl, x->lpn, dst);

		if (rc < 0) {
			return rc;
		}
		b->st.padding_reads += count;
	}
	l = line_of(b, x);
	for (uint32_t i = 0; i < nv->spp; i++) {
		if (x->present >> i & 1) {
			int rc = sector_get(nv, l[1 + i], dst + (size_t)i * BUF_SECTOR);

			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

static int write_back(struct ss_buf *b, struct buf_nv_page *x)
{
	int rc = merged_page(b, x, b->nv.page_b, true);

	if (rc) {
		return rc;
	}
	buf_unstage(b, x->lpn, 1);
	rc = ss_ftl_write(b->ftl, x->lpn, b->nv.page_b, (enum ss_stream)x->stream, 0);
	if (rc) {
		return rc;
	}
	b->st.flushed_pages++;
	b->st.flushes_by_len[0]++;
	set_dirty(b, x, false);
	if (b->obs) {
		b->obs(b->obs_ctx, SS_BUF_EV_WRITE, &x->lpn, 1);
	}
	return 0;
}

/* Drop record r; its slots wait for the FTL's next flush (`pend`) or are free at once. */
static void drop(struct ss_buf *b, uint32_t r, bool pend)
{
	struct buf_nv *nv = &b->nv;
	struct buf_nv_page *x = &nv->recs[r];
	uint32_t *l = line_of(b, x);

	for (uint32_t i = 0; i < nv->spp; i++) {
		if (!(x->present >> i & 1)) {
			continue;
		}
		if (pend) {
			nv->pend_slots[nv->npend++] = l[1 + i];
		} else {
			index_set(nv, l[1 + i], 0);
			nv->free_slots[nv->nfree++] = l[1 + i];
		}
	}
	rec_free(b, r);
}

static int evict(struct ss_buf *b, uint32_t r)
{
	struct buf_nv_page *x = &b->nv.recs[r];

	b->st.evictions++;
	if (x->dirty) {
		int rc = write_back(b, x);

		if (rc) {
			return rc;
		}
	} else {
		b->st.discarded_pages++;
		if (b->obs) {
			b->obs(b->obs_ctx, SS_BUF_EV_DISCARD, &x->lpn, 1);
		}
	}
	drop(b, r, true);
	return 0;
}

/* A free slot, evicting from the LRU end (never record `pin`) while there is none. */
static int slot_alloc(struct ss_buf *b, uint32_t pin, uint32_t *slot)
{
	struct buf_nv *nv = &b->nv;

	while (nv->nfree == 0) {
		uint32_t victim = nv->lru_tail;
		int rc;

		if (victim == pin) {
			victim = nv->recs[victim].prev;
		}
		if (nv->npend >= nv->batch || victim == BUF_NIL) {
			if (nv->npend == 0) {
				return -SS_ENOSPC;
			}
			rc = release(b);
		} else {
			rc = evict(b, victim);
		}
		if (rc) {
			return rc;
		}
	}
	*slot = nv->free_slots[--nv->nfree];
	return 0;
}

/* Store sectors [in, in + n) of record r from src, each in a fresh slot. */
static int store(struct ss_buf *b, uint32_t r, uint32_t in, uint32_t n, const uint8_t *src)
{
	struct buf_nv *nv = &b->nv;
	struct buf_nv_page *x = &nv->recs[r];
	uint64_t base = (uint64_t)x->lpn * nv->spp;

	for (uint32_t i = in; i < in + n; i++, src += BUF_SECTOR) {
		uint32_t s, old, *l;
		int rc = slot_alloc(b, r, &s);

		if (rc) {
			return rc;
		}
		l = line_of(b, x);
		old = x->present >> i & 1 ? l[1 + i] : BUF_NIL;
		ss_memcpy(sector(nv, s), src, BUF_SECTOR);
		nv->ent[s].seq = nv->next_seq++;
		nv->ent[s].crc = entry_crc((uint32_t)(base + i + 1), nv->ent[s].seq, src);
		index_set(nv, s, (uint32_t)(base + i + 1));
		l[1 + i] = s;
		x->present |= 1ull << i;
		if (old != BUF_NIL) {
			index_set(nv, old, 0);
			nv->free_slots[nv->nfree++] = old;
		}
	}
	return 0;
}

/* The sectors of `page` (the page's current contents) that record r lacks enter, clean
 * unless the record was dirty already. */
static int fill(struct ss_buf *b, uint32_t lpn, const uint8_t *page)
{
	struct buf_nv *nv = &b->nv;
	uint32_t r = find_rec(b, lpn);

	if (r == BUF_NIL) {
		r = rec_new(b, lpn, SS_STREAM_COLD);
	} else {
		touch(nv, r);
	}
	for (uint32_t i = 0; i < nv->spp; i++) {
		if (!(nv->recs[r].present >> i & 1)) {
			int rc = store(b, r, i, 1, page + (size_t)i * BUF_SECTOR);

			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

/* ---- requests --------------------------------------------------------------------------- */

enum { KIND_SCAN = 2 };   /* buf_io.c's READ_SCAN: served, never cached nor counted */

/* Sectors [in, in + n) of page lpn into dst. *from_flash: the page was read from the
 * flash, and nv->page_a holds it whole as it is now. */
static int get(struct ss_buf *b, uint32_t lpn, uint32_t in, uint32_t n, uint8_t *dst,
	       int kind, bool *from_flash)
{
	struct buf_nv *nv = &b->nv;
	uint32_t r = find_rec(b, lpn);
	uint64_t mask = bits(in, n);
	bool hit = false;
	int rc;

	*from_flash = false;
	if (kind != KIND_SCAN) {
		b->st.read_pages++;
	}
	if (r != BUF_NIL && (nv->recs[r].present & mask) == mask) {
		uint32_t *l;

		if (nv->recs[r].prefetched && nv->pf_unwaited && b->hal) {
			ss_hal_read_ahead_wait(b->hal);
			nv->pf_unwaited = false;
		}
		l = line_of(b, &nv->recs[r]);
		for (uint32_t i = in; i < in + n; i++) {
			rc = sector_get(nv, l[1 + i], dst + (size_t)(i - in) * BUF_SECTOR);
			if (rc) {
				return rc;
			}
		}
		if (kind != KIND_SCAN) {
			b->st.read_hits++;
			touch(nv, r);
		}
		return 0;
	}
	rc = buf_fetch(b, lpn, nv->page_a, &hit);
	if (rc < 0) {
		return rc;
	}
	if (r != BUF_NIL) {
		uint32_t *l = line_of(b, &nv->recs[r]);

		for (uint32_t i = 0; i < nv->spp; i++) {
			if (nv->recs[r].present >> i & 1) {
				rc = sector_get(nv, l[1 + i], nv->page_a + (size_t)i * BUF_SECTOR);
				if (rc) {
					return rc;
				}
			}
		}
		if (kind != KIND_SCAN) {
			touch(nv, r);
		}
	}
	ss_memcpy(dst, nv->page_a + (size_t)in * BUF_SECTOR, (size_t)n * BUF_SECTOR);
	b->st.read_hits += hit && kind != KIND_SCAN;
	*from_flash = true;
	return 0;
}

int buf_nv_read(struct ss_buf *b, uint64_t lba, uint32_t count, void *out, int kind)
{
	struct buf_nv *nv = &b->nv;
	uint8_t *dst = out;
	uint64_t end = lba + count;
	bool from_flash = false;
	uint32_t last_lpn = 0, last_in = 0;

	while (lba < end) {
		uint32_t lpn = (uint32_t)(lba / nv->spp), in = (uint32_t)(lba % nv->spp);
		uint32_t n = (uint32_t)SS_MIN((uint64_t)(nv->spp - in), end - lba);
		int rc = get(b, lpn, in, n, dst, kind, &from_flash);

		if (rc) {
			return rc;
		}
		last_lpn = lpn;
		last_in = in + n;   /* one past the last sector read of the last page */
		lba += n;
		dst += (size_t)n * BUF_SECTOR;
	}
	if (kind == KIND_SCAN || count == 0) {
		return 0;
	}
	if ((b->p.nv_read & SS_BUF_NV_READ_CACHE) && from_flash && last_in < nv->spp) {
		int rc = fill(b, last_lpn, nv->page_a);

		if (rc) {
			return rc;
		}
		b->st.nv_read_cached++;
	}
	if ((b->p.nv_read & SS_BUF_NV_READ_PREFETCH) && last_in == nv->spp &&
	    last_lpn + 1 < b->capacity) {
		nv->pf_lpn = last_lpn + 1;
		if (!b->in_request) {
			buf_nv_end(b);
		}
	}
	return 0;
}

static bool bypasses(const struct ss_buf *b, uint32_t r, uint32_t n)
{
	if (n != b->nv.spp) {
		return false;   /* every policy caches sub-page writes */
	}
	switch (b->p.policy) {
	case SS_BUF_NV_SUB: return true;
	case SS_BUF_NV_SAT: return r == BUF_NIL;
	default: return false;
	}
}

static int put(struct ss_buf *b, uint32_t lpn, uint32_t in, uint32_t n, const uint8_t *src,
	       enum ss_stream stream)
{
	struct buf_nv *nv = &b->nv;
	uint32_t r = find_rec(b, lpn);
	uint64_t mask = bits(in, n);
	int rc;

	b->st.write_pages++;
	if (r != BUF_NIL && nv->recs[r].dirty) {
		b->st.merges++;
	}
	if (r != BUF_NIL && (nv->recs[r].present & mask) == mask) {
		b->st.write_hits++;   /* a full hit: no write policy */
	} else if (bypasses(b, r, n)) {
		buf_unstage(b, lpn, 1);
		rc = ss_ftl_write(b->ftl, lpn, src, stream, 0);
		if (rc) {
			return rc;
		}
		b->st.nv_bypass_pages++;
		nv->need_flush = true;
		if (r != BUF_NIL) {
			drop(b, r, true);   /* older than the flash's copy once it is flushed */
		}
		return 0;
	}
	if (r == BUF_NIL) {
		r = rec_new(b, lpn, stream);
	} else {
		touch(nv, r);
	}
	rc = store(b, r, in, n, src);
	if (rc) {
		return rc;
	}
	nv->recs[r].stream = (uint8_t)stream;
	set_dirty(b, &nv->recs[r], true);
	return 0;
}

int buf_nv_write(struct ss_buf *b, uint64_t lba, uint32_t count, const void *data,
		 enum ss_stream stream)
{
	struct buf_nv *nv = &b->nv;
	const uint8_t *src = data;
	uint64_t end = lba + count;

	while (lba < end) {
		uint32_t lpn = (uint32_t)(lba / nv->spp), in = (uint32_t)(lba % nv->spp);
		uint32_t n = (uint32_t)SS_MIN((uint64_t)(nv->spp - in), end - lba);
		int rc = put(b, lpn, in, n, src, stream);

		if (rc) {
			return rc;
		}
		lba += n;
		src += (size_t)n * BUF_SECTOR;
	}
	/* what went past the cache is durable before the request returns */
	return nv->need_flush && !b->in_request ? release(b) : 0;
}

void buf_nv_end(struct ss_buf *b)
{
	struct buf_nv *nv = &b->nv;
	uint32_t lpn = nv->pf_lpn, r;

	if (nv->need_flush) {
		(void)release(b);   /* failing, the next flush tries again; the slots stay */
	}
	if (lpn == BUF_NIL) {
		return;
	}
	nv->pf_lpn = BUF_NIL;
	r = find_rec(b, lpn);
	if (r != BUF_NIL && nv->recs[r].present == full_mask(nv->spp)) {
		return;
	}
	if (b->hal) {
		ss_hal_read_ahead(b->hal, 1);
	}
	int rc = ss_ftl_read(b->ftl, lpn, nv->page_a);

	if (b->hal) {
		ss_hal_read_ahead(b->hal, 0);
	}
	if (rc < 0 || fill(b, lpn, nv->page_a) != 0) {
		return;   /* a prefetch that failed costs only itself */
	}
	r = find_rec(b, lpn);
	if (b->hal) {
		nv->recs[r].prefetched = 1;
		nv->pf_unwaited = true;
	}
	b->st.nv_prefetched++;
}

void buf_nv_invalidate(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	for (uint32_t i = 0; i < count && b->st.resident_pages; i++) {
		uint32_t r = find_rec(b, lpn + i);

		if (r != BUF_NIL) {
			drop(b, r, false);
		}
	}
}

bool buf_nv_cached(const struct ss_buf *b, uint32_t lpn)
{
	return find_rec(b, lpn) != BUF_NIL;
}

int buf_nv_writeback(struct ss_buf *b)
{
	struct buf_nv *nv = &b->nv;

	for (uint32_t r = nv->lru_head; r != BUF_NIL && b->st.dirty_pages; r = nv->recs[r].next) {
		if (nv->recs[r].dirty) {
			int rc = write_back(b, &nv->recs[r]);

			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

int buf_nv_flush(struct ss_buf *b)
{
	/* the cached sectors are durable already: FLUSH CACHE makes the flash's writes so */
	return release(b);
}

void buf_nv_stats(const struct ss_buf *b, struct ss_buf_stats *st)
{
	st->nv_slots = b->nv.slots;
	st->nv_slots_used = b->nv.slots - b->nv.nfree;
}

/* ---- power-up --------------------------------------------------------------------------- */

static void hdr_write(struct buf_nv *nv, uint32_t page_size,
		      const struct ss_buf_nv_owner *owner)
{
	struct buf_nv_hdr h;

	ss_memset(&h, 0, sizeof(h));
	h.magic = BUF_NV_MAGIC;
	h.version = BUF_NV_VERSION;
	h.slots = nv->slots;
	h.spp = nv->spp;
	h.page_size = page_size;
	if (owner) {
		h.generation = owner->generation;
		ss_memcpy(h.drive, owner->drive, sizeof(h.drive));
	}
	h.crc = ss_crc32c(0, &h, offsetof(struct buf_nv_hdr, crc));
	*nv->hdr = h;
}

/* The first problem of an NVM for these dimensions and owner; rep->held counts the slots
 * its index names once the header can be trusted. Reads only. */
static void examine(const void *nvram, uint64_t size, uint32_t slots, uint32_t spp,
		    uint32_t page_size, const struct ss_buf_nv_owner *owner,
		    struct ss_buf_nv_report *rep)
{
	static const struct ss_buf_nv_owner nobody;
	const struct buf_nv_entry *ent;
	const uint8_t *data;
	struct buf_nv_hdr h;
	uint64_t ent_off, data_off;

	ss_memset(rep, 0, sizeof(*rep));
	rep->held = UINT32_MAX;
	rep->slot = rep->lba = UINT32_MAX;
	owner = owner ? owner : &nobody;
	if (size < sizeof(h)) {
		rep->problem = SS_BUF_NV_NOT_NVRAM;
		return;
	}
	ss_memcpy(&h, nvram, sizeof(h));
	rep->found_version = h.version;
	if (h.magic != BUF_NV_MAGIC) {
		rep->problem = SS_BUF_NV_NOT_NVRAM;
		return;
	}
	if (h.version != BUF_NV_VERSION) {
		rep->problem = SS_BUF_NV_VERSION;
		return;
	}
	if (h.crc != ss_crc32c(0, &h, offsetof(struct buf_nv_hdr, crc))) {
		rep->problem = SS_BUF_NV_CORRUPT;
		return;
	}
	rep->found_generation = h.generation;
	ss_memcpy(rep->found_drive, h.drive, sizeof(h.drive));
	if (h.slots != slots || h.spp != spp || h.page_size != page_size ||
	    size != nv_layout(slots, &ent_off, &data_off)) {
		rep->problem = SS_BUF_NV_PARAMS;
		return;
	}
	ent = (const struct buf_nv_entry *)((const uint8_t *)nvram + ent_off);
	data = (const uint8_t *)nvram + data_off;
	rep->held = 0;
	for (uint32_t s = 0; s < slots; s++) {
		if (ent[s].lba1 == 0) {
			continue;
		}
		rep->held++;
		if (rep->slot == UINT32_MAX && !slot_ok(ent, data, s)) {
			rep->slot = s;
			rep->lba = ent[s].lba1 - 1;
		}
	}
	if (ss_memcmp(h.drive, owner->drive, sizeof(h.drive)) != 0) {
		rep->problem = SS_BUF_NV_FOREIGN;
	} else if (h.generation != owner->generation) {
		rep->problem = SS_BUF_NV_GENERATION;
	} else if (rep->slot != UINT32_MAX) {
		rep->problem = SS_BUF_NV_CORRUPT;
	}
}

void ss_buf_nv_examine(const void *nvram, uint64_t nvram_size, const struct ss_buf_params *p,
		       uint32_t page_size, const struct ss_buf_nv_owner *owner,
		       struct ss_buf_nv_report *rep)
{
	examine(nvram, nvram_size, slots_of(p, page_size), spp_of(page_size), page_size, owner,
		rep);
}

void buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep)
{
	const struct buf_nv *nv = &b->nv;
	struct ss_buf_nv_owner self;

	/* the owner it was started with is the header's own, once that passes its CRC */
	self.generation = nv->hdr->generation;
	ss_memcpy(self.drive, nv->hdr->drive, sizeof(self.drive));
	examine(nv->hdr, buf_nv_nvram(&b->p, b->page_size), nv->slots, nv->spp, b->page_size,
		&self, rep);
}

/* Of two index entries for one LBA, the older is cleared. */
static void resolve_duplicate(struct buf_nv *nv, uint32_t s)
{
	for (uint32_t t = 0; t < s; t++) {
		if (nv->ent[t].lba1 == nv->ent[s].lba1) {
			index_set(nv, (int32_t)(nv->ent[s].seq - nv->ent[t].seq) > 0 ? t : s, 0);
			return;
		}
	}
}

static void recover(struct ss_buf *b)
{
	struct buf_nv *nv = &b->nv;
	uint64_t limit = (uint64_t)b->capacity * nv->spp;
	bool have_seq = false;

	for (uint32_t s = 0; s < nv->slots; s++) {
		uint32_t v = nv->ent[s].lba1, r, i;

		if (v == 0) {
			continue;
		}
		if (v - 1 >= limit) {
			index_set(nv, s, 0);   /* not an LBA of this drive */
			continue;
		}
		if (!have_seq || (int32_t)(nv->ent[s].seq - nv->next_seq) >= 0) {
			nv->next_seq = nv->ent[s].seq + 1;
			have_seq = true;
		}
		r = find_rec(b, (v - 1) / nv->spp);
		i = (v - 1) % nv->spp;
		if (r == BUF_NIL) {
			r = rec_new(b, (v - 1) / nv->spp, SS_STREAM_HOT);
			set_dirty(b, &nv->recs[r], true);
		}
		if (nv->recs[r].present >> i & 1) {
			resolve_duplicate(nv, s);
			continue;
		}
		nv->recs[r].present |= 1ull << i;
	}
	for (uint32_t s = 0; s < nv->slots; s++) {
		if (nv->ent[s].lba1 != 0) {
			b->st.nv_recovered++;
		}
	}
}

int buf_nv_init(struct ss_buf *b, void *const r[10], void *nvram, bool format,
		const struct ss_buf_nv_owner *owner, struct ss_buf_nv_report *rep)
{
	struct buf_nv *nv = &b->nv;
	struct ss_buf_nv_report found;
	uint64_t ent_off, data_off;
	uint32_t h;

	nv->spp = spp_of(b->page_size);
	nv->slots = slots_of(&b->p, b->page_size);
	if ((uint64_t)b->capacity * nv->spp >= UINT32_MAX) {
		return -SS_EINVAL;   /* an index entry holds an LBA + 1 in 32 bits */
	}
	(void)nv_layout(nv->slots, &ent_off, &data_off);
	nv->hdr = nvram;
	nv->ent = (struct buf_nv_entry *)((uint8_t *)nvram + ent_off);
	nv->data = (uint8_t *)nvram + data_off;
	nv->recs = r[2];
	nv->rec_hash = r[3];
	nv->free_slots = r[4];
	nv->pend_slots = r[5];
	nv->cache = r[6];
	nv->page_a = r[7];
	nv->page_b = (uint8_t *)r[7] + b->page_size;
	h = buf_hash_size(nv->slots);
	nv->rec_mask = h - 1;
	for (uint32_t i = 0; i < h; i++) {
		nv->rec_hash[i] = BUF_NIL;
	}
	for (uint32_t i = 0; i <= nv->slots; i++) {
		nv->recs[i].hnext = i < nv->slots ? i + 1 : BUF_NIL;
	}
	nv->free_rec = 0;
	nv->lru_head = nv->lru_tail = BUF_NIL;
	nv->cache_mask = cache_lines(nv->slots, nv->spp) - 1;
	ss_memset(nv->cache, 0, (size_t)(nv->cache_mask + 1) * (1u + nv->spp) * 4u);
	nv->batch = SS_MAX(nv->spp, nv->slots / 32);
	nv->pf_lpn = BUF_NIL;
	rep = rep ? rep : &found;
	if (format) {
		ss_memset(rep, 0, sizeof(*rep));
		ss_memset(nv->ent, 0, (size_t)nv->slots * sizeof(*nv->ent));
		hdr_write(nv, b->page_size, owner);
	} else {
		/* every held slot is checked before any is trusted: a refusal changes nothing */
		examine(nvram, buf_nv_nvram(&b->p, b->page_size), nv->slots, nv->spp,
			b->page_size, owner, rep);
		if (rep->problem != SS_BUF_NV_OK) {
			return -SS_EBADMSG;
		}
		recover(b);
	}
	nv->nfree = 0;
	for (uint32_t s = nv->slots; s-- > 0;) {
		if (nv->ent[s].lba1 == 0) {
			nv->free_slots[nv->nfree++] = s;
		}
	}
	return 0;
}

#endif /* SS_BUF_BOARD */
