/*
 * Private to the solid-state cache: DRAM state, on-flash formats, and the helpers the
 * sources share.
 *
 * Flash layout (blocks of the HAL the cache owns): one pool. Every good block is a data
 * block (block-mapped: a group's cached blocks in offset order, packed; the layout bitmap
 * says which offsets it holds), a log block (page-mapped), a free block, or a metadata
 * block: a checkpoint takes `slot_blocks` blocks from the free pool, least erased first
 * (its checkpoint blocks, then its operation-log blocks), and the previous checkpoint's
 * go back to the pool once it is durable, so metadata wears no block faster than data.
 * Its header page, written last, lists its blocks; mount finds the newest header by a
 * scan of every block's first page.
 *
 * Every state change is a log record, applied by the same ssc_apply_* function live and
 * at replay, so a replayed prefix of the log rebuilds exactly the state it described.
 * Garbage collection records its decisions (merge group g into block B, switch log
 * block L, silently evict block b, free log block L), never their inputs.
 * A block freed by a record is erased only after that record is committed.
 */
#ifndef SSC_INTERNAL_H
#define SSC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ss_hal.h"
#include "ss_rt.h"
#include "ss_ssc.h"

#define SSC_NONE 0xFFFFFFFFu
#define SSC_KEY_EMPTY UINT64_MAX
#define SSC_MAX_PPB 1024u

/* ---- sparse map: 64-bit key -> 32-bit value, open addressing (ssc_map.c) ---- */
struct ssc_map {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t mask;
	uint32_t count;
	uint32_t limit;   /* entries it was sized for */
};

uint64_t ssc_map_bytes(uint32_t entries);
int ssc_map_init(struct ssc_map *m, void *mem, uint32_t entries);
void ssc_map_clear(struct ssc_map *m);
/** \return 0 with *val, or 1 when absent. */
int ssc_map_get(const struct ssc_map *m, uint64_t key, uint32_t *val);
/** \return 0, -SS_ENOSPC when full. */
int ssc_map_put(struct ssc_map *m, uint64_t key, uint32_t val);
/** \return 0, 1 when absent. */
int ssc_map_del(struct ssc_map *m, uint64_t key);

/* ---- spare (OOB) record: the reverse map (ssc_spare.c) ---- */
#define SSC_SPARE_MAGIC 0x43435353u  /* "SSCC" */
#define SSC_SPARE_BYTES 40u
enum ssc_kind {
	SSC_KIND_DATA = 1,   /* lba = backing block it caches */
	/* 2 was a filler page of an unpacked data block; never written */
	SSC_KIND_LOG = 3,    /* an operation-log page */
	SSC_KIND_CKPT = 4,   /* a checkpoint page; lba = checkpoint epoch */
};
struct ssc_spare {
	uint8_t kind;
	uint8_t dirty;
	uint64_t lba;
	uint64_t seq;
	uint32_t erase_count;
	uint32_t data_crc;
};
enum ssc_spare_status { SSC_SPARE_OK = 0, SSC_SPARE_ERASED = 1, SSC_SPARE_BAD = 2 };
void ssc_spare_encode(uint8_t *raw, const struct ssc_spare *s);
enum ssc_spare_status ssc_spare_decode(const uint8_t *raw, struct ssc_spare *s);

/* ---- operation log records (ssc_log.c) ---- */
enum ssc_rec_type {
	SSC_R_MAP = 1,     /* lba -> ppn, dirty flag: a write */
	SSC_R_UNMAP = 2,   /* lba: evict (dirty = SSC_UNMAP_HOST), or GC dropping a clean page */
	SSC_R_CLEAN = 3,   /* lba: clean */
	SSC_R_MERGE = 4,   /* key = group, block = new data block: full merge */
	SSC_R_SWITCH = 5,  /* key = group, block = log block becoming its data block */
	SSC_R_SILENT = 6,  /* block: data block silently evicted */
	SSC_R_FREE = 7,    /* block: log block with no valid page returned to the free pool */
	SSC_R_RETIRE = 8,  /* block: a free block worn out, never used again */
};
#define SSC_UNMAP_HOST 1u  /* an UNMAP's dirty byte: the host's evict, counted as one */
struct ssc_rec {
	uint8_t type;
	uint8_t dirty;
	uint32_t block;    /* ppn for MAP */
	uint64_t seq;
	uint64_t key;      /* lba or group */
};
#define SSC_REC_BYTES 24u
#define SSC_LOG_HDR_BYTES 32u
#define SSC_LOG_MAGIC 0x474C5353u     /* "SSLG" */

/* ---- checkpoint header (ssc_ckpt.c) ---- */
#define SSC_CKPT_MAGIC 0x4B435353u    /* "SSCK" */
#define SSC_CKPT_VERSION 5u            /* 2: packed data blocks, layout bitmaps;
					* 3: the slots' places in the header, BAD blocks;
					* 4: RETIRED blocks, the traffic counters;
					* 5: checkpoints on blocks of the pool, listed in
					*    the header (no fixed metadata window) */
#define SSC_CKPT_HDR_LIST_OFF 128u    /* the header's list of the checkpoint's blocks */
#define SSC_BLK_ENTRY_FIXED 32u       /* group, seq, born, erase count, wp, state */

enum ssc_block_state {
	SSC_BLK_FREE = 0,
	SSC_BLK_LOG = 1,
	SSC_BLK_DATA = 2,
	SSC_BLK_META = 3,   /* a checkpoint's blocks and its log's, taken from the pool */
	SSC_BLK_BAD = 4,    /* a cache block that failed its erase at format: never used */
	SSC_BLK_RETIRED = 5,/* worn out in use (erase count at the endurance, or a failed
			     * erase): its data had moved, never erased or used again */
};
#define SSC_BF_NEED_ERASE 0x1u

struct ssc_block {
	uint64_t group;      /* DATA: the group it maps */
	uint64_t seq;        /* record seq of its last write: age for cost/benefit */
	uint64_t born;       /* LOG: seq when it became a log block (FIFO order) */
	uint32_t erase_count;
	uint16_t valid;
	uint16_t dirty;
	uint16_t wp;         /* pages programmed (LOG: next page) */
	uint8_t state;
	uint8_t flags;
};

struct ss_ssc {
	struct ss_hal *hal;
	struct ss_ssc_params params;
	uint32_t nblocks;
	uint32_t ppb;
	uint32_t page_size;
	uint32_t spare_size;
	uint32_t bm_words;        /* u32 words per block bitmap */

	/* metadata layout */
	uint32_t ckpt_body_pages;
	uint32_t ckpt_blocks;     /* per checkpoint, header included */
	uint32_t log_area_blocks; /* per checkpoint */
	uint32_t slot_blocks;     /* both: the blocks one checkpoint takes from the pool */
	uint32_t *meta_cur;       /* the newest checkpoint's blocks, then its log's */
	uint32_t *meta_new;       /* the one being written */
	bool meta_cur_valid;
	uint32_t cache_blocks;    /* blocks for data and log: the pool less the checkpoints'
				   * reserve */
	uint32_t log_cap;         /* log blocks allowed (SSC: fixed share; SSC-V: ceiling) */
	uint32_t data_cap;        /* data blocks allowed */

	struct ssc_block *blocks;
	uint32_t *valid_bm;       /* [block * bm_words], by page */
	uint32_t *dirty_bm;       /* by page */
	uint32_t *layout_bm;      /* DATA: by offset in the group, the offsets programmed at
				   * merge; offset i is on page rank(i) = layout bits below i */
	struct ssc_map page_map;  /* lba -> ppn, pages in log blocks */
	struct ssc_map block_map; /* group -> data block */
	uint8_t *buf;             /* one page: merges, reads of spares */
	uint8_t *logbuf;          /* one page: the log page being filled */
	uint8_t *spare;           /* spare_size */
	uint64_t map_dram;

	uint32_t open;            /* log block receiving writes, or SSC_NONE */
	uint32_t free_count;
	uint32_t log_count;
	uint32_t data_count;
	uint32_t bad_count;       /* SSC_BLK_BAD blocks, out of the pool and the data cap */
	uint32_t retired_count;   /* SSC_BLK_RETIRED blocks, out of the pool and the caps */
	uint32_t cached;
	uint32_t dirty;

	uint64_t seq;             /* last record seq issued */
	uint32_t pending;         /* records in logbuf not yet committed */
	uint64_t committed_seq;   /* records up to here are durable */
	uint32_t log_page;        /* next page in the newest checkpoint's log blocks */
	uint64_t epoch;           /* of the newest checkpoint */
	uint64_t next_epoch;      /* for the next one: past every epoch seen on the flash */
	bool unsynced;            /* data programmed since the last sync */
	bool commit_behind;       /* the operation under way needs no durable record: a full
				   * log page is committed on the background timeline */
	uint64_t behind_end;      /* modelled end of the last such commit: what a later step
				   * that depends on it waits for (ssc_wait_behind) */
	uint32_t wl_delta;        /* static wear-levelling threshold (SS_SSC_WEAR_DELTA; tests
				   * lower it to make migrations frequent) */
	uint32_t wl_every;        /* at most one migration per this many erases (SSC_WL_EVERY) */
	uint64_t wl_last_erases;  /* st.block_erases at the last migration */
	bool replaying;

	/* Read-ahead of a sequential read (ssc_io.c), in the DRAM the cache was given beyond
	 * ss_ssc_dram_needed(): two halves of ra_half slots of a group each, each half read
	 * up to ra_budget pages. Dropped by every record. */
	uint8_t *ra_mem;          /* ra_half * 2 groups of ppb pages */
	uint32_t *ra_held;        /* per slot, bm_words: the pages read into it */
	uint64_t *ra_group;       /* per slot: the group, or SSC_KEY_EMPTY */
	uint32_t ra_half;         /* slots per half; 0: no read-ahead */
	uint32_t ra_budget;       /* pages a half reads at most */
	uint64_t ra_tail[2];      /* per half: the last group read into it, or SSC_KEY_EMPTY */
	int ra_cur;               /* the half being served, -1: none */
	bool ra_inflight;         /* read-ahead issued and not yet waited for */
	uint64_t ra_next_lba;     /* the block a sequential run reads next */
	uint32_t ra_run;          /* blocks read in that run */
	/* Where a run of blocks went on (ssc_io.c, Successors): ra_succ_n slots by a hash of
	 * the group a run of reads or writes left, each with the group it jumped to. DRAM
	 * only, part of the read-ahead's DRAM; a hint, never data. */
	struct ssc_succ *ra_succ;
	uint32_t ra_succ_n;
	uint64_t last_read;       /* the block read last, SSC_KEY_EMPTY: none */
	uint64_t last_write;      /* the block written last (reads and fills interleave) */

	struct ss_ssc_stats st;
};

struct ssc_succ {
	uint64_t from;            /* SSC_KEY_EMPTY: an unused slot */
	uint64_t to;
};
/* Successor hints' slots: a data set of a few hundred files scanned in one order is
 * followed from most files to the next (two files whose last groups hash alike keep the
 * later one's hint). */
#define SSC_SUCC_HINTS 256u

/* Groups per read-ahead half: with a group on one die, SSC_RA_HALF groups read at once
 * usually spread over that many dies and channels, enough to keep the link busy: 8 x 41
 * MB/s on kang-smartssd (README.md, Read-ahead). */
#define SSC_RA_HALF 8u
/* Slots per half beyond SSC_RA_HALF: a half reads SSC_RA_HALF groups' worth of pages, and
 * a group only partly cached (a file's last) takes a slot of its own; with fewer pages the
 * link moves the half in less time than the next half's reads take (ssc_io.c, Read-ahead) */
#define SSC_RA_PARTIAL 2u

/* ssc_io.c */
/** Forget what was read ahead: a record may have changed any block. */
void ssc_ra_drop(struct ss_ssc *c);
/** Bytes of the read-ahead for ssc_layout's arena, per slot. */
uint64_t ssc_ra_slot_bytes(const struct ss_geometry *g);

/* ssc_layout.c */
/** Take `bad` failed cache blocks out of the data cap. \return 0, -SS_EIO when too few
 *  good blocks remain for the log and one data block. */
int ssc_exclude_bad(struct ss_ssc *c, uint32_t bad);
/** Count one more retired block and take it out of the data cap (down to 0; the log keeps
 *  its cap, and free blocks running out then makes writes fail with -SS_ENOSPC). */
void ssc_shrink_for_retired(struct ss_ssc *c);
int ssc_layout(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
	       const struct ss_ssc_params *p);
int ssc_params_check(const struct ss_geometry *g, const struct ss_ssc_params *p);
void ssc_meta_layout(const struct ss_geometry *g, uint32_t *body_pages, uint32_t *ckpt_blocks,
		     uint32_t *log_area_blocks);

/* Checkpoints' blocks kept out of the caps, in checkpoints (slot_blocks each): the newest,
 * the one being written, and one for checkpoint blocks that fail and are retired. The
 * capacity is the one version 4 reported with its metadata window of three slots. */
#define SSC_META_RESERVE 3u

/* Free blocks the writes leave alone: the next checkpoint's and one checkpoint's worth for
 * blocks that fail. With the newest checkpoint's blocks, data and log blocks then stay
 * within cache_blocks, as if the reserve were not in the pool (a switch merge turns a
 * log block into a data block past the data cap: only the free blocks bound them). */
static inline uint32_t ssc_meta_free_reserve(const struct ss_ssc *c)
{
	return (SSC_META_RESERVE - 1) * c->slot_blocks;
}

static inline uint32_t ssc_ppn(const struct ss_ssc *c, uint32_t block, uint32_t page)
{
	return block * c->ppb + page;
}
/* Page `page` of the newest checkpoint's operation log. */
static inline uint32_t ssc_log_ppn(const struct ss_ssc *c, uint32_t page)
{
	return ssc_ppn(c, c->meta_cur[c->ckpt_blocks + page / c->ppb], page % c->ppb);
}
static inline bool ssc_bit(const uint32_t *bm, const struct ss_ssc *c, uint32_t b, uint32_t i)
{
	return (bm[b * c->bm_words + i / 32] >> (i % 32)) & 1u;
}
static inline void ssc_bit_set(uint32_t *bm, const struct ss_ssc *c, uint32_t b, uint32_t i)
{
	bm[b * c->bm_words + i / 32] |= 1u << (i % 32);
}
static inline void ssc_bit_clear(uint32_t *bm, const struct ss_ssc *c, uint32_t b, uint32_t i)
{
	bm[b * c->bm_words + i / 32] &= ~(1u << (i % 32));
}

static inline uint32_t ssc_popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0F0F0F0Fu;
	return (x * 0x01010101u) >> 24;
}
/* The page of data block b holding offset i (whose layout bit must be set). */
static inline uint32_t ssc_rank(const struct ss_ssc *c, uint32_t b, uint32_t i)
{
	const uint32_t *w = &c->layout_bm[b * c->bm_words];
	uint32_t n = 0;

	for (uint32_t k = 0; k < i / 32; k++) {
		n += ssc_popcount32(w[k]);
	}
	return n + (i % 32 ? ssc_popcount32(w[i / 32] & ((1u << (i % 32)) - 1)) : 0);
}

/* ssc_apply.c: the state changes, live and at replay */
struct ssc_loc {
	uint32_t ppn;
	bool dirty;
};
/** \return 0 with *loc, or 1 when lba is not cached. */
int ssc_locate(const struct ss_ssc *c, uint64_t lba, struct ssc_loc *loc);
int ssc_apply(struct ss_ssc *c, const struct ssc_rec *r);

/* ssc_log.c */
void ssc_rec_encode(uint8_t *raw, const struct ssc_rec *r);
void ssc_rec_decode(const uint8_t *raw, struct ssc_rec *r);
/** Apply a new record and append it to the log buffer (committing a full page). */
int ssc_log(struct ss_ssc *c, struct ssc_rec *r);
/** Program the buffered records and sync. */
int ssc_commit(struct ss_ssc *c);
/** The group commit: ssc_commit, charged off the command's path while commit_behind. */
int ssc_group_commit(struct ss_ssc *c);
/** Later work on the current timeline starts after the last commit made off the path. */
void ssc_wait_behind(struct ss_ssc *c);
int ssc_sync(struct ss_ssc *c);
int ssc_replay(struct ss_ssc *c);
uint32_t ssc_recs_per_page(const struct ss_ssc *c);

/* ssc_gc.c */
/* Static wear-levelling runs at most once per this many erases. A block that holds data
 * falls behind the pool's average by one erase per (good blocks) erases; migrating M such
 * blocks once at one per SSC_WL_EVERY erases takes M x SSC_WL_EVERY erases, while the
 * average rises M x SSC_WL_EVERY / blocks <= SSC_WL_EVERY (M <= blocks). Equal to
 * SS_SSC_WEAR_DELTA, so even a cache full of cold data is levelled within one more delta;
 * the cost is at most one block of copies per SSC_WL_EVERY erases (each erase frees a
 * block of pages for the host): at most 1/8 of the pages programmed. */
#define SSC_WL_EVERY SS_SSC_WEAR_DELTA
int ssc_open_log_page(struct ss_ssc *c, uint32_t *ppn);
/** A block for the checkpoint being written: the least erased free block that is not
 *  worn out and that nothing uncommitted freed, erased, state META. One whose erase fails
 *  is retired in DRAM only (the checkpoint records it). \return 0, -SS_ENOSPC, or an
 *  error. */
int ssc_take_meta_block(struct ss_ssc *c, uint32_t *out);

/* ssc_ckpt.c */
int ssc_checkpoint(struct ss_ssc *c);
struct ssc_found {
	uint32_t first;      /* the block holding the checkpoint's first page */
	uint64_t epoch;
	uint64_t max_epoch;  /* the highest epoch on any checkpoint page, torn ones too */
	uint32_t version;    /* of the newest header (an older version is refused) */
};
/** The newest intact checkpoint on the flash, by a scan of every block's first page, and
 *  its parameters. \return 0, -SS_ENODATA when the flash holds no cache metadata at all,
 *  -SS_EPROTO when the newest header has another version (f->version), -SS_EBADMSG when
 *  there is metadata but no intact checkpoint. */
int ssc_ckpt_find(struct ss_hal *hal, uint32_t body_pages, uint32_t ckpt_blocks,
		  uint8_t *page, uint8_t *spare, struct ssc_found *f, struct ss_ssc_params *p);
int ssc_ckpt_load(struct ss_ssc *c, const struct ssc_found *f);

/* ssc_io.c */
int ssc_program(struct ss_ssc *c, uint32_t ppn, const void *data, const struct ssc_spare *s);
int ssc_read_page(struct ss_ssc *c, uint32_t ppn, void *data, struct ssc_spare *s);

#endif
