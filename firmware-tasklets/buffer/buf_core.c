/*
 * The buffer's mechanism, shared by every policy: page frames and their index, block
 * nodes, making room by evicting what the policy chooses, writing victims to the FTL in
 * LPN order, FLUSH and FUA, and the counters. Policies only order and choose.
 */
#include "buf_internal.h"

#define ALIGN 64u

static const char *const names[SS_BUF_POLICY_COUNT] = {
	"none", "lru", "fab", "bplru", "lbclock", "hbm", "nv-wb", "nv-sub", "nv-sat",
};

static const char *const nv_reads[4] = { "", "+cache", "+prefetch", "+both" };

const char *ss_buf_policy_name(enum ss_buf_policy p)
{
	return (unsigned)p < SS_BUF_POLICY_COUNT ? names[p] : "?";
}

int ss_buf_policy_parse(const char *name, uint32_t len)
{
	for (int i = 0; i < (int)SS_BUF_POLICY_COUNT; i++) {
		if (ss_strnlen(names[i], 16) == len && ss_memcmp(names[i], name, len) == 0) {
			return i;
		}
	}
	return -1;
}

int ss_buf_parse(const char *name, uint32_t len, struct ss_buf_params *p)
{
	uint32_t base = 0;
	int pol;

	while (base < len && name[base] != '+') {
		base++;
	}
	pol = ss_buf_policy_parse(name, base);
	if (pol < 0) {
		return -1;
	}
	p->policy = (enum ss_buf_policy)pol;
	p->nv_read = 0;
	if (base == len) {
		return 0;
	}
	for (uint32_t i = 1; ss_buf_policy_is_nv((unsigned)pol) && i < 4; i++) {
		if (ss_strnlen(nv_reads[i], 16) == len - base &&
		    ss_memcmp(nv_reads[i], name + base, len - base) == 0) {
			p->nv_read = i;
			return 0;
		}
	}
	return -1;
}

#ifndef SS_BUF_BOARD   /* the board's info has no merge cache to name */
void ss_buf_format_name(const struct ss_buf_params *p, char *out, uint32_t size)
{
	const char *a = ss_buf_policy_name(p->policy);
	const char *b = ss_buf_policy_is_nv(p->policy) ? nv_reads[p->nv_read & 3] : "";
	uint32_t n = 0;

	for (; *a && n + 1 < size; a++) {
		out[n++] = *a;
	}
	for (; *b && n + 1 < size; b++) {
		out[n++] = *b;
	}
	if (size) {
		out[n] = 0;
	}
}
#endif

static const struct buf_policy_ops *ops_of(enum ss_buf_policy p)
{
	switch (p) {
	case SS_BUF_HBM: return &buf_hbm_ops;
#ifndef SS_BUF_BOARD
	case SS_BUF_LRU: return &buf_lru_ops;
	case SS_BUF_FAB: return &buf_fab_ops;
	case SS_BUF_BPLRU: return &buf_bplru_ops;
	case SS_BUF_LBCLOCK: return &buf_lbclock_ops;
#endif
	default: return NULL;
	}
}

uint32_t buf_hash_size(uint32_t pages)
{
	uint32_t h = 16;

	while (h < 2u * pages && h < (1u << 30)) {
		h <<= 1;
	}
	return h;
}

static bool params_ok(const struct ss_buf_params *p, uint32_t page_size)
{
	if (p->policy >= SS_BUF_POLICY_COUNT || page_size == 0) {
		return false;
	}
	if (p->read_ahead_pages > (1u << 16)) {
		return false;
	}
	if (p->policy == SS_BUF_NONE) {
		return true;
	}
#ifndef SS_BUF_BOARD   /* the board has no non-volatile RAM */
	if (ss_buf_policy_is_nv(p->policy)) {
		/* sectors of a page fit a 64-bit mask; two blocks at least, as below */
		return page_size % BUF_SECTOR == 0 && page_size / BUF_SECTOR <= 64 &&
		       p->nv_read <= SS_BUF_NV_READ_BOTH && p->pages_per_block >= 1 &&
		       p->pages_per_block <= 4096 && p->pages >= 2 * p->pages_per_block &&
		       (uint64_t)p->pages * (page_size / BUF_SECTOR) <= (1u << 26);
	}
#endif
	if (!ops_of(p->policy)) {
		return false;   /* not in this build (SS_BUF_BOARD) */
	}
	/* two whole blocks at least, so a block victim never has to take the page being
	 * inserted; the limits keep every index in 32 bits */
	return p->pages_per_block >= 1 && p->pages_per_block <= 4096 && p->pages >= 2 &&
	       p->pages >= 2 * p->pages_per_block && p->pages <= (1u << 28) &&
	       p->hbm_threshold <= p->pages_per_block + 1;
}

/* What the buffer carves from its DRAM, in order: one table for sizing and for carving.
 * \return the count of regions (2 without a policy: itself and the staging area). */
static uint32_t regions(const struct ss_buf_params *p, uint32_t page_size, uint64_t sz[10])
{
	uint64_t n = p->pages, h = buf_hash_size(p->pages), ppb = p->pages_per_block;

#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(p->policy)) {
		return buf_nv_regions(p, page_size, sz);
	}
#endif

	sz[0] = sizeof(struct ss_buf);
	sz[1] = (uint64_t)p->read_ahead_pages * page_size;
	sz[2] = n * page_size;                   /* frames */
	sz[3] = n * sizeof(struct buf_page);
	sz[4] = n * sizeof(struct buf_block);
	sz[5] = h * 4u;                          /* page hash */
	sz[6] = h * 4u;                          /* block hash */
	sz[7] = ppb * 4u;                        /* sorted */
	sz[8] = ppb * 4u;                        /* written */
	sz[9] = page_size;                       /* padding */
	return p->policy == SS_BUF_NONE ? 2 : 10;
}

uint64_t ss_buf_dram_needed(const struct ss_buf_params *p, uint32_t page_size)
{
	uint64_t sz[10], total = ALIGN;
	uint32_t k;

	if (!p || !params_ok(p, page_size)) {
		return 0;
	}
	k = regions(p, page_size, sz);
	for (uint32_t i = 0; i < k; i++) {
		total += SS_ALIGN_UP(sz[i], ALIGN);
	}
	return total + ss_buf_nvram_needed(p, page_size);
}

uint64_t ss_buf_nvram_needed(const struct ss_buf_params *p, uint32_t page_size)
{
#ifndef SS_BUF_BOARD
	if (p && ss_buf_policy_is_nv(p->policy) && params_ok(p, page_size)) {
		return buf_nv_nvram(p, page_size);
	}
#endif
	(void)p, (void)page_size;
	return 0;
}

static void hbm_bounds(struct ss_buf *b)
{
	uint64_t bytes = (uint64_t)b->p.pages * b->page_size;
	uint32_t ppb = b->p.pages_per_block;

	/* Table 3.1 [Gong 2010, §3.6, p. 36]: alpha is 128 pages (two of its 64-page blocks:
	 * here two logical blocks), beta 10 % of a small buffer and 20 % of a large one
	 * (small: up to 8 MB, as in §4.3.4); when alpha > beta, beta is 256 pages (four
	 * blocks). */
	b->alpha_pages = 2 * ppb;
	b->beta_pages = (uint32_t)((uint64_t)b->p.pages * (bytes <= (8ull << 20) ? 10u : 20u) / 100u);
	if (b->alpha_pages > b->beta_pages) {
		b->beta_pages = 4 * ppb;
	}
}

int ss_buf_init(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		const struct ss_buf_params *p)
{
	return ss_buf_init_nv(out, ftl, dram, dram_size, NULL, 0, p, 0, NULL, NULL);
}

#ifndef SS_BUF_BOARD
void ss_buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep)
{
	if (b && ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_check(b, rep);
	} else {
		ss_memset(rep, 0, sizeof(*rep));
	}
}
#endif

int ss_buf_init_nv(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		   void *nvram, uint64_t nvram_size, const struct ss_buf_params *p, int format,
		   const struct ss_buf_nv_owner *owner, struct ss_buf_nv_report *rep)
{
	uint32_t page_size = ftl ? ss_ftl_page_size(ftl) : 0;
	uintptr_t at = SS_ALIGN_UP((uintptr_t)dram, ALIGN);
	uint64_t sz[10];
	void *r[10];
	struct ss_buf *b;
	uint32_t h, k;

	if (!out || !ftl || !dram || !p || !params_ok(p, page_size)) {
		return -SS_EINVAL;
	}
	if (ss_buf_policy_is_nv(p->policy) &&
	    (!nvram || nvram_size < ss_buf_nvram_needed(p, page_size))) {
		return -SS_EINVAL;
	}
	/* the NVM is counted in the DRAM budget (it takes DRAM's place) but is not carved */
	if (dram_size < ss_buf_dram_needed(p, page_size)) {
		return -SS_ENOMEM;
	}
	/* nothing but the state is cleared: every frame is written before it is read, every
	 * node set up as it is taken */
	k = regions(p, page_size, sz);
	for (uint32_t i = 0; i < k; i++) {
		r[i] = (void *)at;
		at += (uintptr_t)SS_ALIGN_UP(sz[i], ALIGN);
	}
	b = r[0];
	ss_memset(b, 0, sizeof(*b));
	b->p = *p;
	b->ftl = ftl;
	b->page_size = page_size;
	b->capacity = ss_ftl_capacity_pages(ftl);
	b->ops = ops_of(p->policy);
	b->ra_buf = p->read_ahead_pages ? r[1] : NULL;
	*out = b;
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(p->policy)) {
		int rc = buf_nv_init(b, r, nvram, format != 0, owner, rep);

		if (rc) {
			*out = NULL;
		}
		return rc;
	}
#else
	(void)nvram, (void)format, (void)owner, (void)rep;
#endif
	if (!b->ops) {
		return 0;
	}
	b->frames = r[2];
	b->pages = r[3];
	b->blocks = r[4];
	b->page_hash = r[5];
	b->block_hash = r[6];
	b->sorted = r[7];
	b->written = r[8];
	b->pad_buf = r[9];
	h = buf_hash_size(p->pages);
	b->hash_mask = h - 1;
	for (uint32_t i = 0; i < h; i++) {
		b->page_hash[i] = BUF_NIL;
		b->block_hash[i] = BUF_NIL;
	}
	/* whole entries: the DRAM holds whatever it held, and a free block's counts are read
	 * (ss_buf_writeback looks at every block's npages) */
	for (uint32_t i = 0; i < p->pages; i++) {
		uint32_t next = i + 1 < p->pages ? i + 1 : BUF_NIL;

		b->pages[i] = (struct buf_page){ .hnext = next };
		b->blocks[i] = (struct buf_block){ .hnext = next };
	}
	b->free_page = 0;
	b->free_block = 0;
	b->page_lru.head = b->page_lru.tail = BUF_NIL;
	b->block_list.head = b->block_list.tail = BUF_NIL;
	b->hand = b->anchor = BUF_NIL;
	b->thr = p->hbm_threshold ? p->hbm_threshold : 1; /* Algorithm 3.4 starts at 1 */
	hbm_bounds(b);
	return 0;
}

void ss_buf_set_observer(struct ss_buf *b, ss_buf_observer fn, void *ctx)
{
	b->obs = fn;
	b->obs_ctx = ctx;
}

/* ---- lists ---------------------------------------------------------------------------- */

void buf_plist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];

	x->prev = BUF_NIL;
	x->next = l->head;
	if (l->head != BUF_NIL) {
		b->pages[l->head].prev = pg;
	} else {
		l->tail = pg;
	}
	l->head = pg;
	l->n++;
	x->on_lru = 1;
}

void buf_plist_remove(struct ss_buf *b, struct buf_list *l, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];

	if (!x->on_lru) {
		return;
	}
	if (x->prev != BUF_NIL) {
		b->pages[x->prev].next = x->next;
	} else {
		l->head = x->next;
	}
	if (x->next != BUF_NIL) {
		b->pages[x->next].prev = x->prev;
	} else {
		l->tail = x->prev;
	}
	x->prev = x->next = BUF_NIL;
	x->on_lru = 0;
	l->n--;
}

void buf_blist_insert_before(struct ss_buf *b, struct buf_list *l, uint32_t at, uint32_t blk)
{
	struct buf_block *x = &b->blocks[blk];

	if (at == BUF_NIL) {   /* at the tail end */
		x->next = BUF_NIL;
		x->prev = l->tail;
		if (l->tail != BUF_NIL) {
			b->blocks[l->tail].next = blk;
		} else {
			l->head = blk;
		}
		l->tail = blk;
	} else {
		x->next = at;
		x->prev = b->blocks[at].prev;
		if (x->prev != BUF_NIL) {
			b->blocks[x->prev].next = blk;
		} else {
			l->head = blk;
		}
		b->blocks[at].prev = blk;
	}
	x->on_list = 1;
	l->n++;
}

void buf_blist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	buf_blist_insert_before(b, l, l->head, blk);
}

void buf_blist_push_tail(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	buf_blist_insert_before(b, l, BUF_NIL, blk);
}

void buf_blist_remove(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	struct buf_block *x = &b->blocks[blk];

	if (!x->on_list) {
		return;
	}
	if (x->prev != BUF_NIL) {
		b->blocks[x->prev].next = x->next;
	} else {
		l->head = x->next;
	}
	if (x->next != BUF_NIL) {
		b->blocks[x->next].prev = x->prev;
	} else {
		l->tail = x->prev;
	}
	x->prev = x->next = BUF_NIL;
	x->on_list = 0;
	l->n--;
}

bool buf_block_sequential(struct ss_buf *b, uint32_t blk, uint32_t pg, bool is_new)
{
	struct buf_block *k = &b->blocks[blk];
	uint32_t off = b->pages[pg].lpn % b->p.pages_per_block;

	if (is_new) {
		k->seq_next = k->seq_next == off ? off + 1 : BUF_NIL;
	}
	return k->seq_next == b->p.pages_per_block;
}

/* ---- index ---------------------------------------------------------------------------- */

uint32_t buf_hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	return x;
}

static uint32_t find_page(const struct ss_buf *b, uint32_t lpn)
{
	for (uint32_t i = b->page_hash[buf_hash32(lpn) & b->hash_mask]; i != BUF_NIL;
	     i = b->pages[i].hnext) {
		if (b->pages[i].lpn == lpn) {
			return i;
		}
	}
	return BUF_NIL;
}

static uint32_t find_block(const struct ss_buf *b, uint32_t lbn)
{
	for (uint32_t i = b->block_hash[buf_hash32(lbn) & b->hash_mask]; i != BUF_NIL;
	     i = b->blocks[i].hnext) {
		if (b->blocks[i].lbn == lbn) {
			return i;
		}
	}
	return BUF_NIL;
}

static void unhash(uint32_t *bucket, uint32_t idx, uint32_t *(*next_of)(struct ss_buf *, uint32_t),
		   struct ss_buf *b)
{
	while (*bucket != idx) {
		bucket = next_of(b, *bucket);
	}
	*bucket = *next_of(b, idx);
}

static uint32_t *page_next(struct ss_buf *b, uint32_t i) { return &b->pages[i].hnext; }
static uint32_t *block_next(struct ss_buf *b, uint32_t i) { return &b->blocks[i].hnext; }

static uint8_t *frame(const struct ss_buf *b, uint32_t pg)
{
	return b->frames + (size_t)pg * b->page_size;
}

static uint32_t add_block(struct ss_buf *b, uint32_t lbn)
{
	uint32_t blk = b->free_block;
	uint32_t *bucket = &b->block_hash[buf_hash32(lbn) & b->hash_mask];
	struct buf_block *k = &b->blocks[blk];

	/* a block node per page frame at most, so there is always one when a frame is free */
	b->free_block = k->hnext;
	ss_memset(k, 0, sizeof(*k));
	k->lbn = lbn;
	k->first = BUF_NIL;
	k->prev = k->next = BUF_NIL;
	k->last_req = b->req - 1;
	k->hnext = *bucket;
	*bucket = blk;
	b->ops->block_added(b, blk);
	return blk;
}

static uint32_t add_page(struct ss_buf *b, uint32_t lpn, uint32_t blk, enum ss_stream stream)
{
	uint32_t pg = b->free_page;
	uint32_t *bucket = &b->page_hash[buf_hash32(lpn) & b->hash_mask];
	struct buf_page *x = &b->pages[pg];

	b->free_page = x->hnext;
	ss_memset(x, 0, sizeof(*x));
	x->lpn = lpn;
	x->blk = blk;
	x->stream = (uint8_t)stream;
	x->prev = x->next = BUF_NIL;
	x->hnext = *bucket;
	*bucket = pg;
	x->bnext = b->blocks[blk].first;
	b->blocks[blk].first = pg;
	b->blocks[blk].npages++;
	b->st.resident_pages++;
	return pg;
}

static void set_clean(struct ss_buf *b, uint32_t pg)
{
	if (b->pages[pg].dirty) {
		b->pages[pg].dirty = 0;
		b->blocks[b->pages[pg].blk].ndirty--;
		b->st.dirty_pages--;
	}
}

static void set_dirty(struct ss_buf *b, uint32_t pg)
{
	if (!b->pages[pg].dirty) {
		b->pages[pg].dirty = 1;
		b->blocks[b->pages[pg].blk].ndirty++;
		b->st.dirty_pages++;
	}
}

static void remove_page(struct ss_buf *b, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];
	uint32_t blk = x->blk;
	struct buf_block *k = &b->blocks[blk];
	uint32_t *link = &k->first;

	set_clean(b, pg);
	b->ops->page_removed(b, pg);
	while (*link != pg) {
		link = &b->pages[*link].bnext;
	}
	*link = x->bnext;
	k->npages--;
	b->st.resident_pages--;
	unhash(&b->page_hash[buf_hash32(x->lpn) & b->hash_mask], pg, page_next, b);
	x->hnext = b->free_page;
	b->free_page = pg;
	if (k->npages == 0) {
		b->ops->block_removed(b, blk);
		unhash(&b->block_hash[buf_hash32(k->lbn) & b->hash_mask], blk, block_next, b);
		k->hnext = b->free_block;
		b->free_block = blk;
	}
}

/* ---- writing to the FTL --------------------------------------------------------------- */

/* The board's hal has no read-ahead (SS_BUF_BOARD): a staging area would only read
 * ahead synchronously, so there is none. */
#ifdef SS_BUF_BOARD
#define staged(b, lpn) ((void)(b), (void)(lpn), false)
void buf_unstage(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	(void)b, (void)lpn, (void)count;
}
#else
static bool staged(const struct ss_buf *b, uint32_t lpn)
{
	return b->ra_valid && lpn >= b->ra_lo && lpn < b->ra_hi;
}

/* Anything written or dropped in the staged range makes the staged copy stale. */
void buf_unstage(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (b->ra_valid && lpn < b->ra_hi && lpn + count > b->ra_lo) {
		b->ra_valid = false;
	}
}
#endif

static int ftl_put(struct ss_buf *b, uint32_t lpn, const void *data, enum ss_stream st,
		   unsigned flags)
{
	buf_unstage(b, lpn, 1);
	return ss_ftl_write(b->ftl, lpn, data, st, flags);
}


static void count_len(struct ss_buf *b, uint32_t n)
{
	uint32_t bucket = 0;

	while (bucket + 1 < SS_BUF_LEN_BUCKETS && n > (1u << bucket)) {
		bucket++;
	}
	b->st.flushes_by_len[bucket]++;
}

/* A block's frames in LPN order into b->sorted. \return how many. */
static uint32_t sort_block(struct ss_buf *b, uint32_t blk)
{
	uint32_t n = 0;

	for (uint32_t pg = b->blocks[blk].first; pg != BUF_NIL; pg = b->pages[pg].bnext) {
		uint32_t i = n++;

		while (i > 0 && b->pages[b->sorted[i - 1]].lpn > b->pages[pg].lpn) {
			b->sorted[i] = b->sorted[i - 1];
			i--;
		}
		b->sorted[i] = pg;
	}
	return n;
}

/* Write block `blk`'s pages to the FTL in LPN order: the dirty ones, or all of them when
 * `all` (their clean copies rewritten for sequentiality), padded to the whole block when
 * `pad`. The pages written are left clean, their LPNs in b->written. */
static int write_block(struct ss_buf *b, uint32_t blk, bool all, bool pad)
{
	uint32_t n = sort_block(b, blk), written = 0, ppb = b->p.pages_per_block;
	uint32_t base = b->blocks[blk].lbn * ppb;
	enum ss_stream stream = (enum ss_stream)b->pages[b->sorted[0]].stream;
	int rc = 0;

#ifndef SS_BUF_BOARD   /* BPLRU's padding: not on the board */
	if (pad) {
		uint32_t i = 0;

		for (uint32_t off = 0; off < ppb && base + off < b->capacity; off++) {
			uint32_t lpn = base + off, ppn;

			if (i < n && b->pages[b->sorted[i]].lpn == lpn) {
				uint32_t pg = b->sorted[i++];

				rc = ftl_put(b, lpn, frame(b, pg), stream, 0);
				if (rc) {
					break;
				}
				set_clean(b, pg);
			} else if (ss_ftl_lookup(b->ftl, lpn, &ppn) == 0) {
				/* page padding [Gong 2010, §2.4.2, Fig. 2.3]: only pages the flash
				 * holds; an unmapped one stays a hole */
				rc = ss_ftl_read(b->ftl, lpn, b->pad_buf);
				b->st.padding_reads++;
				if (rc >= 0) {
					rc = ftl_put(b, lpn, b->pad_buf, stream, 0);
				}
				if (rc) {
					break;
				}
			} else {
				continue;
			}
			b->written[written++] = lpn;
		}
	} else
#else
	(void)pad, (void)base, (void)stream;
#endif
	{
		for (uint32_t i = 0; i < n; i++) {
			uint32_t pg = b->sorted[i];

			if (!b->pages[pg].dirty && !all) {
				continue;
			}
			rc = ftl_put(b, b->pages[pg].lpn, frame(b, pg),
					  (enum ss_stream)b->pages[pg].stream, 0);
			if (rc) {
				break;
			}
			set_clean(b, pg);
			b->written[written++] = b->pages[pg].lpn;
		}
	}
	if (written) {
		b->st.flushed_pages += written;
		count_len(b, written);
		if (b->obs) {
			b->obs(b->obs_ctx, SS_BUF_EV_WRITE, b->written, written);
		}
	}
	return rc;
}

static int evict(struct ss_buf *b)
{
	struct buf_victim v = { BUF_NIL, BUF_NIL };
	uint64_t before, written;
	int rc = b->ops->victim(b, &v);

	if (rc) {
		return rc;
	}
	b->st.evictions++;
#ifndef SS_BUF_BOARD   /* page LRU's victims: no page LRU on the board */
	if (v.page != BUF_NIL) {   /* one page */
		uint32_t lpn = b->pages[v.page].lpn;

		if (b->pages[v.page].dirty) {
			rc = ftl_put(b, lpn, frame(b, v.page),
					  (enum ss_stream)b->pages[v.page].stream, 0);
			if (rc) {
				return rc;
			}
			b->st.flushed_pages++;
			count_len(b, 1);
			if (b->obs) {
				b->obs(b->obs_ctx, SS_BUF_EV_WRITE, &lpn, 1);
			}
		} else {
			b->st.discarded_pages++;
			if (b->obs) {
				b->obs(b->obs_ctx, SS_BUF_EV_DISCARD, &lpn, 1);
			}
		}
		remove_page(b, v.page);
		return 0;
	}
#endif
	b->last_victim_pages = b->blocks[v.blk].npages;
	before = b->st.flushed_pages;
	if (b->blocks[v.blk].ndirty) {
		rc = write_block(b, v.blk, b->ops->write_clean, b->ops->pad);
		if (rc) {
			return rc;
		}
	} else {
		uint32_t n = sort_block(b, v.blk);

		for (uint32_t i = 0; i < n; i++) {
			b->written[i] = b->pages[b->sorted[i]].lpn;
		}
		if (b->obs) {
			b->obs(b->obs_ctx, SS_BUF_EV_DISCARD, b->written, n);
		}
	}
	/* the pages not written were clean: dropped (FAB drops a victim's clean pages) */
	written = b->st.flushed_pages - before;
	if (written < b->blocks[v.blk].npages) {
		b->st.discarded_pages += b->blocks[v.blk].npages - written;
	}
	while (b->blocks[v.blk].first != BUF_NIL) {
		remove_page(b, b->blocks[v.blk].first);
	}
	return 0;
}

/* Room for `n` more pages (at most one block's worth). */
static int make_room(struct ss_buf *b, uint32_t n)
{
	while (b->p.pages - b->st.resident_pages < n) {
		int rc = evict(b);

		if (rc) {
			return rc;
		}
	}
	return 0;
}

/* ---- host requests -------------------------------------------------------------------- */

static bool range_bad(const struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	return lpn >= b->capacity || count > b->capacity - lpn;
}

/* Pages of the request from `lpn` (`left` of them) in lpn's block that are not in the buffer.
 * Room is made for them all before the first enters, so a request never evicts the block
 * it is filling (a request is handled block by block [Gong 2010, §3.3, p. 23]). */
static uint32_t missing_in_block(const struct ss_buf *b, uint32_t lpn, uint32_t left)
{
	uint32_t ppb = b->p.pages_per_block;
	uint32_t n = SS_MIN(left, ppb - lpn % ppb), missing = 0;

	for (uint32_t i = 0; i < n; i++) {
		missing += find_page(b, lpn + i) == BUF_NIL;
	}
	return missing;
}

/* What to make room for before page `i` of a request enters: its block's missing pages at
 * the request's first page in each block, and then nothing more. */
static uint32_t room_for(const struct ss_buf *b, uint32_t lpn, uint32_t i, uint32_t count)
{
	if (i == 0 || (lpn + i) % b->p.pages_per_block == 0) {
		return missing_in_block(b, lpn + i, count - i);
	}
	return 1;
}

/* The page `lpn` enters the buffer (room already made). \return its frame. */
static uint32_t enter(struct ss_buf *b, uint32_t lpn, enum ss_stream stream, bool *first)
{
	uint32_t lbn = buf_lbn(b, lpn);
	uint32_t blk = find_block(b, lbn);

	if (blk == BUF_NIL) {
		blk = add_block(b, lbn);
	}
	*first = b->blocks[blk].last_req != b->req;
	b->blocks[blk].last_req = b->req;
	return add_page(b, lpn, blk, stream);
}

static void next_request(struct ss_buf *b)
{
	if (!b->in_request) {
		b->req++;
	}
}


void ss_buf_begin(struct ss_buf *b)
{
	if (b && b->in_request++ == 0) {
		b->req++;
	}
}

void ss_buf_end(struct ss_buf *b)
{
	if (b && b->in_request && --b->in_request == 0) {
#ifndef SS_BUF_BOARD
		if (ss_buf_policy_is_nv(b->p.policy)) {
			buf_nv_end(b);
		}
#endif
		(void)buf_read_ahead(b);   /* a failed read-ahead costs only its pages */
	}
}

void ss_buf_set_read_ahead(struct ss_buf *b, struct ss_hal *hal)
{
	b->hal = hal;
}

#ifdef SS_BUF_BOARD
int buf_read_ahead(struct ss_buf *b)
{
	b->ra_due = false;
	return 0;
}

int buf_fetch(struct ss_buf *b, uint32_t lpn, void *dst, bool *hit)
{
	*hit = false;
	return b->read_start ? ss_ftl_read_start(b->ftl, lpn, dst) : ss_ftl_read(b->ftl, lpn, dst);
}
#else
/* At the end of a streaming request that continued the previous one: unless the staging
 * area holds at least half a window past where it ended, fill it with the next window. */
int buf_read_ahead(struct ss_buf *b)
{
	uint32_t end = b->seq_end, n;
	int rc = 0;

	if (!b->ra_due || b->p.read_ahead_pages == 0 || !b->hal || end >= b->capacity) {
		b->ra_due = false;
		return 0;
	}
	b->ra_due = false;
	if (b->ra_valid && b->ra_lo <= end && b->ra_hi >= end + b->p.read_ahead_pages / 2) {
		return 0;
	}
	n = SS_MIN(b->p.read_ahead_pages, b->capacity - end);
	b->ra_valid = false;
	ss_hal_read_ahead(b->hal, 1);
	for (uint32_t i = 0; i < n && rc >= 0; i++) {
		rc = ss_ftl_read(b->ftl, end + i, b->ra_buf + (size_t)i * b->page_size);
	}
	ss_hal_read_ahead(b->hal, 0);
	if (rc < 0) {
		return rc;
	}
	b->ra_lo = end;
	b->ra_hi = end + n;
	b->ra_valid = true;
	b->ra_waited = false;
	b->st.read_ahead_pages += n;
	return 0;
}

/* A page the buffer does not hold: from the staging area, or the flash. */
int buf_fetch(struct ss_buf *b, uint32_t lpn, void *dst, bool *hit)
{
	if (staged(b, lpn)) {
		if (!b->ra_waited) {
			ss_hal_read_ahead_wait(b->hal);
			b->ra_waited = true;
		}
		ss_memcpy(dst, b->ra_buf + (size_t)(lpn - b->ra_lo) * b->page_size, b->page_size);
		b->st.read_ahead_hits++;
		*hit = true;
		return 0;
	}
	*hit = false;
	return b->read_start ? ss_ftl_read_start(b->ftl, lpn, dst) : ss_ftl_read(b->ftl, lpn, dst);
}
#endif

static bool first_touch(struct ss_buf *b, uint32_t pg)
{
	struct buf_block *k = &b->blocks[b->pages[pg].blk];
	bool first = k->last_req != b->req;

	k->last_req = b->req;
	return first;
}

enum read_kind {
	READ_ONE,      /* a host read: cached as the policy says */
	READ_STREAM,   /* the same, and sequential streams are read ahead */
	READ_SCAN,     /* served from the buffer when there, never cached (tasklet input) */
};
_Static_assert(READ_SCAN == 2, "buf_nv.c's KIND_SCAN");

static int do_read(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out,
		   enum read_kind kind)
{
	uint8_t *dst = out;
	int rc;

	if (!b || (!out && count)) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	if (b->ops && kind != READ_SCAN) {
		next_request(b);
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		uint32_t spp = b->page_size / BUF_SECTOR;

		rc = buf_nv_read(b, (uint64_t)lpn * spp, count * spp, out, (int)kind);
		if (rc || kind != READ_STREAM) {
			return rc;
		}
		if (lpn == b->seq_end) {
			b->ra_due = true;
		}
		b->seq_end = lpn + count;
		return b->in_request ? 0 : buf_read_ahead(b);
	}
#endif
	for (uint32_t i = 0; i < count; i++, dst += b->page_size) {
		uint32_t pg = b->ops ? find_page(b, lpn + i) : BUF_NIL;
		bool first, hit;

		if (kind != READ_SCAN) {
			b->st.read_pages++;
		}
		if (pg != BUF_NIL) {
			ss_memcpy(dst, frame(b, pg), b->page_size);
			if (kind != READ_SCAN) {
				b->st.read_hits++;
				first = first_touch(b, pg);
				b->ops->touch(b, b->pages[pg].blk, pg, false, false, first);
			}
			continue;
		}
		/* staged read-ahead is a sequential stream's: served, not cached */
		if (!b->ops || !b->ops->read_allocates || kind == READ_SCAN || staged(b, lpn + i)) {
			rc = buf_fetch(b, lpn + i, dst, &hit);
			if (rc < 0) {
				return rc;
			}
			b->st.read_hits += hit && kind != READ_SCAN;
			continue;
		}
		rc = make_room(b, room_for(b, lpn, i, count));
		if (rc) {
			return rc;
		}
		pg = enter(b, lpn + i, SS_STREAM_COLD, &first);
		rc = ss_ftl_read(b->ftl, lpn + i, frame(b, pg));
		if (rc < 0) {
			remove_page(b, pg);
			return rc;
		}
		ss_memcpy(dst, frame(b, pg), b->page_size);
		b->ops->touch(b, b->pages[pg].blk, pg, false, true, first);
	}
	if (kind == READ_STREAM) {
		/* issued when the request ends: the hal waits for all read-ahead at once, so
		 * one issued mid-request would be waited for by the request's own later reads */
		if (lpn == b->seq_end) {
			b->ra_due = true;
		}
		b->seq_end = lpn + count;
		return b->in_request ? 0 : buf_read_ahead(b);
	}
	return 0;
}

int ss_buf_read(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_ONE);
}

int ss_buf_read_stream(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_STREAM);
}

int ss_buf_read_scan(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_SCAN);
}

int ss_buf_read_scan_start(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	int rc;

	if (!b) {
		return -SS_EINVAL;
	}
	b->read_start = true;
	rc = do_read(b, lpn, count, out, READ_SCAN);
	b->read_start = false;
	return rc;
}

int ss_buf_write(struct ss_buf *b, uint32_t lpn, uint32_t count, const void *data,
		 enum ss_stream stream, unsigned flags)
{
	const uint8_t *src = data;
	int rc;

	if (!b || (!data && count) || (unsigned)stream >= SS_STREAM_COUNT) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	buf_unstage(b, lpn, count);
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		uint32_t spp = b->page_size / BUF_SECTOR;

		next_request(b);
		/* FUA adds nothing: every write to the merge cache is durable on return */
		return buf_nv_write(b, (uint64_t)lpn * spp, count * spp, data, stream);
	}
#endif
	if (!b->ops) {
		for (uint32_t i = 0; i < count; i++) {
			rc = ftl_put(b, lpn + i, src + (size_t)i * b->page_size, stream,
					  i + 1 == count ? flags : 0);
			if (rc) {
				return rc;
			}
		}
		return 0;
	}
	next_request(b);
	for (uint32_t i = 0; i < count; i++, src += b->page_size) {
		uint32_t pg = find_page(b, lpn + i);
		bool first, is_new = pg == BUF_NIL;

		b->st.write_pages++;
		if (!is_new) {
			b->st.write_hits++;
			if (b->pages[pg].dirty) {
				b->st.merges++;
			}
			first = first_touch(b, pg);
		} else {
			rc = make_room(b, room_for(b, lpn, i, count));
			if (rc) {
				return rc;
			}
			pg = enter(b, lpn + i, stream, &first);
		}
		ss_memcpy(frame(b, pg), src, b->page_size);
		b->pages[pg].stream = (uint8_t)stream;
		set_dirty(b, pg);
		b->ops->touch(b, b->pages[pg].blk, pg, true, is_new, first);
	}
	if (flags & SS_FTL_FUA) {
		/* written through: the pages stay cached, clean */
		for (uint32_t i = 0; i < count; i++) {
			uint32_t pg = find_page(b, lpn + i);

			if (pg == BUF_NIL || !b->pages[pg].dirty) {
				continue;   /* already written out as a victim */
			}
			rc = ftl_put(b, lpn + i, frame(b, pg), stream, 0);
			if (rc) {
				return rc;
			}
			set_clean(b, pg);
		}
		return ss_ftl_flush(b->ftl);
	}
	return 0;
}

void ss_buf_invalidate(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (!b || range_bad(b, lpn, count)) {
		return;
	}
	buf_unstage(b, lpn, count);
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_invalidate(b, lpn, count);
		return;
	}
#endif
	for (uint32_t i = 0; b->ops && b->st.resident_pages && i < count; i++) {
		uint32_t pg = find_page(b, lpn + i);

		if (pg != BUF_NIL) {
			remove_page(b, pg);
		}
	}
}

int ss_buf_cached(const struct ss_buf *b, uint32_t lpn)
{
	if (!b || lpn >= b->capacity) {
		return 0;
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_cached(b, lpn);
	}
#endif
	return b->ops && find_page(b, lpn) != BUF_NIL;
}

int ss_buf_trim(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (!b) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	ss_buf_invalidate(b, lpn, count);
	return ss_ftl_trim(b->ftl, lpn, count);
}

int ss_buf_writeback(struct ss_buf *b)
{
	if (!b) {
		return -SS_EINVAL;
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_writeback(b);
	}
#endif
	if (!b->ops || b->st.dirty_pages == 0) {
		return 0;
	}
	for (uint32_t blk = 0; blk < b->p.pages; blk++) {
		struct buf_block *k = &b->blocks[blk];

		if (k->npages && k->ndirty) {   /* a free node has no pages */
			int rc = write_block(b, blk, false, false);

			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

int ss_buf_flush(struct ss_buf *b)
{
	int rc;

#ifndef SS_BUF_BOARD
	if (b && ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_flush(b);
	}
#endif
	rc = ss_buf_writeback(b);

	return rc ? rc : ss_ftl_flush(b->ftl);
}

void ss_buf_get_stats(const struct ss_buf *b, struct ss_buf_stats *st)
{
	*st = b->st;
	st->block_region_pages = b->block_pages;
	st->threshold = b->p.policy == SS_BUF_HBM ? b->thr : 0;
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_stats(b, st);
	}
#endif
}

#ifndef SS_BUF_BOARD
int ss_buf_sector_io(const struct ss_buf *b)
{
	return b && ss_buf_policy_is_nv(b->p.policy);
}
#endif

static bool sectors_bad(const struct ss_buf *b, uint64_t lba, uint32_t count)
{
	uint64_t cap = (uint64_t)b->capacity * (b->page_size / BUF_SECTOR);

	return lba > cap || count > cap - lba;
}

int ss_buf_read_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, void *out)
{
	if (!ss_buf_sector_io(b) || (!out && count)) {
		return -SS_EINVAL;
	}
	if (sectors_bad(b, lba, count)) {
		return -SS_ERANGE;
	}
	next_request(b);
#ifndef SS_BUF_BOARD
	return buf_nv_read(b, lba, count, out, READ_ONE);
#else
	return -SS_EINVAL;
#endif
}

int ss_buf_write_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, const void *data)
{
	if (!ss_buf_sector_io(b) || (!data && count)) {
		return -SS_EINVAL;
	}
	if (sectors_bad(b, lba, count)) {
		return -SS_ERANGE;
	}
	next_request(b);
#ifndef SS_BUF_BOARD
	return buf_nv_write(b, lba, count, data, SS_STREAM_HOT);
#else
	return -SS_EINVAL;
#endif
}

const struct ss_buf_params *ss_buf_get_params(const struct ss_buf *b)
{
	return &b->p;
}

struct ss_ftl *ss_buf_ftl(struct ss_buf *b)
{
	return b->ftl;
}
