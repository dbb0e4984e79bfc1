/* Private state of the buffer: page frames with their nodes, block nodes, the two hash
 * indexes, and each policy's hooks. Indexes everywhere; BUF_NIL is "none". */
#ifndef BUF_INTERNAL_H
#define BUF_INTERNAL_H

#include <stdbool.h>

#include "ss_buf.h"
#include "ss_rt.h"

#define BUF_NIL UINT32_MAX

struct buf_page {
	uint32_t lpn;
	uint32_t blk;          /* its block node */
	uint32_t prev, next;   /* page LRU (LRU, HBM page region); BUF_NIL when not on it */
	uint32_t hnext;        /* hash chain, or the free list */
	uint32_t bnext;        /* next page of the same block */
	uint8_t dirty;
	uint8_t stream;
	uint8_t on_lru;
};

enum buf_region {
	BUF_REGION_PAGE = 0,
	BUF_REGION_BLOCK = 1,
};

struct buf_block {
	uint32_t lbn;
	uint32_t npages, ndirty;
	uint32_t popularity;   /* HBM: requests that touched it */
	uint32_t prev, next;   /* block list (LRU for FAB/BPLRU, the clock ring, HBM block region) */
	uint32_t hnext;        /* hash chain, or the free list */
	uint32_t first;        /* its pages */
	uint32_t last_req;     /* the request that last touched it */
	uint32_t seq_next;     /* BPLRU/LB-CLOCK: next page offset of a sequential write run */
	uint64_t order;        /* HBM: when it entered the block region */
	uint8_t on_list;
	uint8_t region;
	uint8_t ref;           /* LB-CLOCK reference bit */
	uint8_t candidate;     /* LB-CLOCK: bit was 0 when this selection began */
};

struct buf_list {
	uint32_t head, tail;   /* head: most recent */
	uint32_t n;
};

/* A victim: a whole block, or (page LRU) one page of it. */
struct buf_victim {
	uint32_t blk;
	uint32_t page;         /* BUF_NIL: the whole block */
};

#define BUF_SECTOR 512u

/* The merge cache's page record (DRAM): which of a page's sectors the NVM holds. The
 * sectors' NVM locations are in the inverted index and its controller-side cache. */
struct buf_nv_page {
	uint64_t present;      /* bit i: sector i of the page */
	uint32_t lpn;
	uint32_t prev, next;   /* page LRU */
	uint32_t hnext;        /* hash chain, or the free list */
	uint8_t dirty;
	uint8_t stream;
	uint8_t prefetched;    /* filled by read-ahead not yet waited for */
};

/*
 * The merge cache's NVM, version 2: this header, an entry per slot, then the slots' sectors.
 * Version 1 had neither the owner nor any checksum but the header's. Little-endian, as
 * every target is.
 */
#define BUF_NV_MAGIC 0x564e4353u   /* "SCNV" */
#define BUF_NV_VERSION 2u

struct buf_nv_hdr {
	uint32_t magic, version;
	uint32_t slots, spp, page_size;
	uint32_t generation;           /* ss_buf_nv_owner */
	char drive[SS_BUF_NV_DRIVE_ID];
	uint32_t reserved[4];
	uint32_t crc;                  /* CRC-32C of the bytes before it */
} __attribute__((packed));
_Static_assert(sizeof(struct buf_nv_hdr) == 64, "NVM header layout");

/* A slot's inverted-index entry. All u32, so packed by construction (the index is stored
 * with an atomic release, which a packed member would not allow). crc: CRC-32C of lba1 and
 * seq (8 bytes) and then the slot's sector, written before lba1 names the slot. */
struct buf_nv_entry {
	uint32_t lba1;                 /* LBA + 1; 0: the slot is free */
	uint32_t seq;                  /* when it was written (newest wins at recovery) */
	uint32_t crc;
};
_Static_assert(sizeof(struct buf_nv_entry) == 12, "NVM entry layout");

struct buf_nv {
	/* in the NVM */
	struct buf_nv_hdr *hdr;
	struct buf_nv_entry *ent;      /* slot -> its entry: the inverted index */
	uint8_t *data;         /* slots x 512 B */
	/* in DRAM */
	struct buf_nv_page *recs;
	uint32_t *rec_hash, rec_mask, free_rec;
	uint32_t lru_head, lru_tail;
	uint32_t *free_slots, nfree;
	uint32_t *pend_slots, npend; /* written back, reusable after the next FTL flush */
	uint32_t *cache;       /* controller-side index cache: lines of 1 + spp words */
	uint32_t cache_mask;
	uint8_t *page_a, *page_b; /* page scratch */
	uint32_t slots, spp, next_seq, batch;
	uint32_t pf_lpn;       /* selective prefetching: the page queued, BUF_NIL: none */
	bool pf_unwaited;
	bool need_flush;       /* a page went past the cache: flush the FTL before return */
};

struct buf_policy_ops {
	bool read_allocates;
	/* A request touched page `pg` of block `blk`; `is_new` when the page just entered,
	 * `first_in_req` when it is the request's first page of this block. */
	void (*touch)(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		      bool first_in_req);
	/* The block just got its first page / is about to leave the buffer. */
	void (*block_added)(struct ss_buf *b, uint32_t blk);
	void (*block_removed)(struct ss_buf *b, uint32_t blk);
	void (*page_removed)(struct ss_buf *b, uint32_t pg);
	int (*victim)(struct ss_buf *b, struct buf_victim *v);
	bool pad;              /* BPLRU: pad victims to whole blocks */
	bool write_clean;      /* flush a victim's clean pages with its dirty ones (HBM) */
};

struct ss_buf {
	struct ss_buf_params p;
	const struct buf_policy_ops *ops;
	struct ss_ftl *ftl;
	uint32_t page_size;
	uint32_t capacity;     /* FTL logical pages */

	uint8_t *frames;       /* p.pages * page_size */
	struct buf_page *pages;
	struct buf_block *blocks;
	uint32_t *page_hash, *block_hash;
	uint32_t hash_mask;
	uint32_t free_page, free_block;
	uint32_t *sorted;      /* pages_per_block scratch: a victim's frames in LPN order */
	uint32_t *written;     /* pages_per_block scratch: the LPNs a flush wrote */
	uint8_t *pad_buf;      /* one page for padding reads */

	struct buf_list page_lru;
	struct buf_list block_list;
	uint32_t hand;         /* LB-CLOCK */
	uint32_t anchor;       /* LB-CLOCK: where the hand began the last selection */
	uint32_t last_victim_pages;

	uint32_t req;          /* request counter */
	uint32_t in_request;   /* ss_buf_begin() depth */
	struct ss_hal *hal;    /* read-ahead; NULL: none */
	uint8_t *ra_buf;       /* staging area: p.read_ahead_pages pages */
	uint32_t ra_lo, ra_hi; /* the LPNs it holds */
	bool ra_valid, ra_waited;
	bool read_start;        /* ss_buf_read_scan_start: flash reads may finish later */
	uint32_t seq_end;      /* where the last streaming read ended */
	bool ra_due;           /* a sequential read asked for read-ahead at the request's end */
	uint32_t thr;          /* HBM THR_migrate */
	uint32_t thr_changed_req;
	uint32_t alpha_pages, beta_pages; /* HBM §3.6 bounds on the block region, in pages */
	uint32_t block_pages;  /* HBM N_block */
	uint64_t order;

	struct buf_nv nv;      /* the merge cache (SS_BUF_NV_*) */

	struct ss_buf_stats st;
	ss_buf_observer obs;
	void *obs_ctx;
};

extern const struct buf_policy_ops buf_lru_ops, buf_fab_ops, buf_bplru_ops, buf_lbclock_ops,
	buf_hbm_ops;

/* For the merge cache too: a page from the read-ahead staging area or the flash (buf_io.c);
 * the staged copy made stale (buf_ftl.c); the staging area filled at a request's end
 * (buf_io.c); the hash (buf_index.c) and its table size (buf_init.c). */
int buf_fetch(struct ss_buf *b, uint32_t lpn, void *dst, bool *hit);
void buf_unstage(struct ss_buf *b, uint32_t lpn, uint32_t count);
int buf_read_ahead(struct ss_buf *b);
uint32_t buf_hash32(uint32_t x);
uint32_t buf_hash_size(uint32_t n);

/* buf_index.c: the page frames and block nodes; find returns BUF_NIL when not held. */
uint32_t buf_find_page(const struct ss_buf *b, uint32_t lpn);
uint32_t buf_find_block(const struct ss_buf *b, uint32_t lbn);
uint32_t buf_add_block(struct ss_buf *b, uint32_t lbn);
uint32_t buf_add_page(struct ss_buf *b, uint32_t lpn, uint32_t blk, enum ss_stream stream);
void buf_set_clean(struct ss_buf *b, uint32_t pg);
void buf_set_dirty(struct ss_buf *b, uint32_t pg);
void buf_remove_page(struct ss_buf *b, uint32_t pg);

static inline uint8_t *buf_frame(const struct ss_buf *b, uint32_t pg)
{
	return b->frames + (size_t)pg * b->page_size;
}

/* buf_ftl.c: writing to the FTL and making room. The board's hal has no read-ahead
 * (SS_BUF_BOARD), so nothing is ever staged there. */
#ifdef SS_BUF_BOARD
#define buf_staged(b, lpn) ((void)(b), (void)(lpn), false)
#else
bool buf_staged(const struct ss_buf *b, uint32_t lpn);
#endif
int buf_ftl_put(struct ss_buf *b, uint32_t lpn, const void *data, enum ss_stream st,
		unsigned flags);
int buf_write_block(struct ss_buf *b, uint32_t blk, bool all, bool pad);
int buf_make_room(struct ss_buf *b, uint32_t n);

/* buf_nv.c: the merge cache behind the ss_buf_* calls when the policy is SS_BUF_NV_*. */
uint32_t buf_nv_regions(const struct ss_buf_params *p, uint32_t page_size, uint64_t sz[10]);
uint64_t buf_nv_nvram(const struct ss_buf_params *p, uint32_t page_size);
int buf_nv_init(struct ss_buf *b, void *const r[10], void *nvram, bool format,
		const struct ss_buf_nv_owner *owner, struct ss_buf_nv_report *rep);
void buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep);
int buf_nv_read(struct ss_buf *b, uint64_t lba, uint32_t count, void *out, int kind);
int buf_nv_write(struct ss_buf *b, uint64_t lba, uint32_t count, const void *data,
		 enum ss_stream stream);
void buf_nv_end(struct ss_buf *b);
void buf_nv_invalidate(struct ss_buf *b, uint32_t lpn, uint32_t count);
bool buf_nv_cached(const struct ss_buf *b, uint32_t lpn);
int buf_nv_writeback(struct ss_buf *b);
int buf_nv_flush(struct ss_buf *b);
void buf_nv_stats(const struct ss_buf *b, struct ss_buf_stats *st);

/* Doubly linked lists over the page and block arrays. */
void buf_plist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t pg);
void buf_plist_remove(struct ss_buf *b, struct buf_list *l, uint32_t pg);
void buf_blist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t blk);
void buf_blist_push_tail(struct ss_buf *b, struct buf_list *l, uint32_t blk);
void buf_blist_insert_before(struct ss_buf *b, struct buf_list *l, uint32_t at, uint32_t blk);
void buf_blist_remove(struct ss_buf *b, struct buf_list *l, uint32_t blk);

static inline uint32_t buf_lbn(const struct ss_buf *b, uint32_t lpn)
{
	return lpn / b->p.pages_per_block;
}

/* BPLRU/LB-CLOCK: whether a write run has covered the block from its first to its last page
 * in order ("written sequentially"). */
bool buf_block_sequential(struct ss_buf *b, uint32_t blk, uint32_t pg, bool is_new);

#endif
