/*
 * The drive's DRAM buffer between the host I/O path and the FTL: logical pages are read
 * and written here, and victims are flushed to the FTL as the policy chooses them.
 *
 * Policies (chosen per drive at format):
 *   - SS_BUF_LRU:     page-level LRU, reads and writes (the plain baseline).
 *   - SS_BUF_FAB:     block-level LRU list; victim the block with the most pages, the least
 *                     recently used among equals; only dirty pages are written, clean ones
 *                     dropped [Gong 2010, §2.4.1, p. 11].
 *   - SS_BUF_BPLRU:   write buffer, block-level LRU; a victim is padded to a whole block by
 *                     reading its missing mapped pages (page padding), a block written
 *                     sequentially to its end goes to the LRU end (LRU compensation)
 *                     [Gong 2010, §2.4.2, p. 12].
 *   - SS_BUF_LBCLOCK: write buffer, blocks on a clock with reference bits; the victim is the
 *                     fullest block among those whose bit was already 0
 *                     [Gong 2010, §2.4.3, p. 14, Fig. 2.4].
 *   - SS_BUF_HBM:     hybrid: a page region (page LRU) and a block region (LAR: least block
 *                     popularity, then most pages), threshold migration from the first to the
 *                     second (static, or dynamic as in §3.6, Algorithm 3.4), selection
 *                     compensation when the block region is empty [Gong 2010, ch. 3, p. 18].
 *   - SS_BUF_NV_WB, SS_BUF_NV_SUB, SS_BUF_NV_SAT: the non-volatile merge cache of
 *                     [Smullen 2010, §IV] (buf_nv.c): 512-byte sectors in the drive's
 *                     non-volatile RAM, an inverted index (NVM sector -> LBA) with a small
 *                     controller-side cache of it, page LRU; write policies writebuffer,
 *                     sub-page writebuffer, saturating sub-page writebuffer; read policies
 *                     (nv_read) none, selective caching, selective prefetching, both.
 * [Gong 2010] is Gong's HBM thesis, [Smullen 2010] Smullen's merge cache (docs/REFERENCES.md).
 *
 * Durability of the merge cache: every write is durable when it returns, whether it went
 * into the non-volatile RAM or past it to the flash (then the FTL is flushed first).
 *
 * Durability of the others: the buffer is volatile. A write returns once its data is in the buffer; it
 * is durable only after ss_buf_flush(), or when written with SS_FTL_FUA (then written
 * through to the FTL and made durable before return). Metadata never passes through here.
 */
#ifndef SS_BUF_H
#define SS_BUF_H

#include <stdint.h>

#include "ss_ftl.h"
#include "ss_nvram.h"

struct ss_buf;

/* A build with SS_BUF_BOARD defined (the Jasmine's, firmware-tasklets/cross/, where code
 * space is 93,696 B) has only none and hbm, and no read-ahead staging area; the other
 * policies are refused as unknown. */
enum ss_buf_policy {
	SS_BUF_NONE = 0,    /* no buffer: every call goes straight to the FTL */
	SS_BUF_LRU = 1,
	SS_BUF_FAB = 2,
	SS_BUF_BPLRU = 3,
	SS_BUF_LBCLOCK = 4,
	SS_BUF_HBM = 5,
	SS_BUF_NV_WB = 6,   /* merge cache, writebuffer */
	SS_BUF_NV_SUB = 7,  /* merge cache, sub-page writebuffer */
	SS_BUF_NV_SAT = 8,  /* merge cache, saturating sub-page writebuffer */
	SS_BUF_POLICY_COUNT = 9,
};

/* The merge cache's read policy [Smullen 2010, §IV-C, "Read Policies"]: a bit set. */
enum ss_buf_nv_read {
	SS_BUF_NV_READ_NONE = 0,
	SS_BUF_NV_READ_CACHE = 1,     /* selective caching */
	SS_BUF_NV_READ_PREFETCH = 2,  /* selective prefetching */
	SS_BUF_NV_READ_BOTH = 3,
};

/* The board (SS_BUF_BOARD) has no NVRAM: no merge cache, and its code compiled out. */
static inline int ss_buf_policy_is_nv(unsigned p)
{
#ifdef SS_BUF_BOARD
	(void)p;
	return 0;
#else
	return p >= SS_BUF_NV_WB && p <= SS_BUF_NV_SAT;
#endif
}

/* Flushes by length (pages written to the FTL for one victim or one block of a FLUSH):
 * buckets 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, 65+. */
#define SS_BUF_LEN_BUCKETS 8u

struct ss_buf_params {
	enum ss_buf_policy policy;
	uint32_t pages;             /* capacity in pages (0 with SS_BUF_NONE) */
	uint32_t pages_per_block;   /* logical block for the block-level policies */
	uint32_t hbm_threshold;     /* HBM THR_migrate: 0 = dynamic (§3.6), else static */
	uint32_t read_ahead_pages;  /* staging area for sequential object reads; 0: none */
	uint32_t nv_read;           /* merge cache: enum ss_buf_nv_read */
};

/* What the buffer sent to the FTL for one victim (or one block of a host FLUSH). */
enum ss_buf_event {
	SS_BUF_EV_WRITE = 0,    /* pages written to the FTL, in LPN order */
	SS_BUF_EV_DISCARD = 1,  /* a victim without dirty pages, dropped */
};

typedef void (*ss_buf_observer)(void *ctx, enum ss_buf_event ev, const uint32_t *lpns,
				uint32_t n);

struct ss_buf_stats {
	uint64_t read_pages, read_hits;
	uint64_t write_pages, write_hits;
	uint64_t merges;            /* write hits on a page already dirty: a program saved */
	uint64_t evictions;
	uint64_t flushed_pages;     /* pages written to the FTL, padding included */
	uint64_t discarded_pages;   /* clean pages dropped */
	uint64_t padding_reads;     /* BPLRU page padding */
	uint64_t read_ahead_pages;  /* pages fetched ahead of sequential reads */
	uint64_t read_ahead_hits;   /* reads served from them */
	uint64_t flushes_by_len[SS_BUF_LEN_BUCKETS];
	uint32_t resident_pages, dirty_pages;
	uint32_t block_region_pages; /* HBM */
	uint32_t threshold;          /* HBM THR_migrate now */
	/* the merge cache (padding_reads there: flash reads to merge a partly cached page) */
	uint64_t nv_bypass_pages;    /* whole pages a sub-page policy sent past it */
	uint64_t nv_read_cached;     /* pages cached by selective caching */
	uint64_t nv_prefetched;      /* pages fetched by selective prefetching */
	uint64_t nv_index_hits;      /* controller-side index cache lookups that hit */
	uint64_t nv_index_misses;    /* ... that missed: a linear search of the inverted index */
	uint64_t nv_ftl_flushes;     /* FTL flushes before slots were reused, or after bypass */
	uint32_t nv_slots, nv_slots_used; /* 512-byte sectors: all, holding data */
	uint32_t nv_recovered;       /* sectors found in the NVM at power-up */
};

const char *ss_buf_policy_name(enum ss_buf_policy p);
/** \return the policy for a name ("none", "lru", "fab", "bplru", "lbclock", "hbm",
 *  "nv-wb", "nv-sub", "nv-sat"), or -1. */
int ss_buf_policy_parse(const char *name, uint32_t len);

/** Parse a policy with, for the merge cache, its read policy after a '+' ("nv-wb+cache",
 *  "nv-sat+prefetch", "nv-sub+both"): sets p->policy and p->nv_read. \return 0 or -1. */
int ss_buf_parse(const char *name, uint32_t len, struct ss_buf_params *p);

/** The name ss_buf_parse reads back, into out (at least 16 bytes). */
void ss_buf_format_name(const struct ss_buf_params *p, char *out, uint32_t size);

/** Non-volatile RAM for these parameters (0 but for the merge cache). ss_buf_dram_needed
 *  counts it too: the NVM takes the place of that much of the drive's DRAM. */
uint64_t ss_buf_nvram_needed(const struct ss_buf_params *p, uint32_t page_size);

/** ss_buf_init for a merge cache: its sectors and inverted index in `nvram`
 *  (ss_buf_nvram_needed bytes), kept across power cycles. `format` starts it empty, owned
 *  by `owner` (NULL: nobody's, for tests); otherwise what the NVM holds is checked (its
 *  header, owner, and each held slot's CRC-32C) and recovered (the controller-side state
 *  rebuilt from the inverted index). `rep` (may be NULL) says what a refusal found, and
 *  how many sectors were held. \return 0, -SS_EINVAL, -SS_ENOMEM, -SS_EBADMSG (the NVM is
 *  refused: rep->problem). */
int ss_buf_init_nv(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		   void *nvram, uint64_t nvram_size, const struct ss_buf_params *p, int format,
		   const struct ss_buf_nv_owner *owner, struct ss_buf_nv_report *rep);

/** What ss_buf_init_nv would find in `nvram` for these parameters, without changing it:
 *  rep->problem, and rep->held. For a discard to say what it drops.
 *  ss_buf_nv_check: verify the running merge cache's NVM, its header and every held
 *  slot's CRC-32C (SS_BUF_NV_OK for any other buffer). */
void ss_buf_nv_examine(const void *nvram, uint64_t nvram_size, const struct ss_buf_params *p,
		       uint32_t page_size, const struct ss_buf_nv_owner *owner,
		       struct ss_buf_nv_report *rep);   /* not on the board: never called there */
#ifdef SS_BUF_BOARD
static inline void ss_buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep)
{
	(void)b;
	rep->problem = SS_BUF_NV_OK;
}
#else
void ss_buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep);
#endif

/** Whether the buffer takes sector-granular requests (the merge cache): then the block
 *  commands call ss_buf_read_sectors / ss_buf_write_sectors instead of read-modify-write. */
#ifdef SS_BUF_BOARD
static inline int ss_buf_sector_io(const struct ss_buf *b)
{
	(void)b;
	return 0;
}
#else
int ss_buf_sector_io(const struct ss_buf *b);
#endif

/** Read / write `count` 512-byte sectors from `lba` (the merge cache only; one request). */
int ss_buf_read_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, void *out);
int ss_buf_write_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, const void *data);

/** DRAM for a buffer of these parameters and page size (0 for SS_BUF_NONE). */
uint64_t ss_buf_dram_needed(const struct ss_buf_params *p, uint32_t page_size);

/** \return 0, -SS_EINVAL on bad parameters, -SS_ENOMEM when dram is too small. */
int ss_buf_init(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		const struct ss_buf_params *p);

/** Test hook: told of every victim flush or discard. */
void ss_buf_set_observer(struct ss_buf *b, ss_buf_observer fn, void *ctx);

/**
 * Read `count` pages from `lpn` into `out` (one host request: a block's popularity grows by
 * one however many of its pages it touches). Unwritten pages read as zeros.
 * \return 0, -SS_ERANGE, -SS_EIO, or what making room returned.
 */
int ss_buf_read(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out);

/** Write `count` pages from `lpn`. flags: SS_FTL_FUA writes them through and makes the drive
 *  durable before return. \return 0, -SS_ERANGE, -SS_ENOSPC, -SS_EIO. */
int ss_buf_write(struct ss_buf *b, uint32_t lpn, uint32_t count, const void *data,
		 enum ss_stream stream, unsigned flags);

/** Group the calls up to ss_buf_end() into one host request (a block's popularity grows
 *  once per request; a command's read-modify-write and its pages are one request). */
void ss_buf_begin(struct ss_buf *b);
void ss_buf_end(struct ss_buf *b);

/** The hal whose read-ahead mode the staging area uses (NULL: no read-ahead). A streaming
 *  read (ss_buf_read_stream) that starts where the previous one ended has the next
 *  read_ahead_pages pages fetched into a staging area as hal read-ahead when its request
 *  ends: that command does not wait for them, the one that reads them does. Staged pages
 *  are served, not cached: a sequential stream is the unpopular data every policy here
 *  would evict first. Policies never see the staging area. */
void ss_buf_set_read_ahead(struct ss_buf *b, struct ss_hal *hal);

/** ss_buf_read for sequential streams (object READ commands): read ahead as above. */
int ss_buf_read_stream(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out);

/** Read what the buffer holds from it and the rest from the flash, caching nothing and
 *  counting nothing: tasklet input, which would otherwise flush the host's working set. */
int ss_buf_read_scan(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out);

/** ss_buf_read_scan, but pages read from the flash come as ss_ftl_read_start's do: they
 *  may arrive, and fail, only by ss_ftl_read_wait. */
int ss_buf_read_scan_start(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out);

/** Drop the pages from the buffer, dirty or not, without writing them: the caller is about
 *  to write them past the buffer (metadata pages) or they are being freed. */
void ss_buf_invalidate(struct ss_buf *b, uint32_t lpn, uint32_t count);

/** Whether page `lpn` is in the buffer. */
int ss_buf_cached(const struct ss_buf *b, uint32_t lpn);

/** Drop the pages from the buffer and trim them in the FTL. */
int ss_buf_trim(struct ss_buf *b, uint32_t lpn, uint32_t count);

/** Write every dirty page to the FTL (block by block, in LPN order), then flush the FTL. */
int ss_buf_flush(struct ss_buf *b);

/** Write every dirty page to the FTL without the FTL flush (before a metadata commit that
 *  flushes the FTL itself). */
int ss_buf_writeback(struct ss_buf *b);

void ss_buf_get_stats(const struct ss_buf *b, struct ss_buf_stats *st);
const struct ss_buf_params *ss_buf_get_params(const struct ss_buf *b);
struct ss_ftl *ss_buf_ftl(struct ss_buf *b);

#endif
