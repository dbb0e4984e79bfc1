/*
 * Private to the FTL: the DRAM state, the spare-area format and the helpers the
 * sources share.
 *
 * DRAM (all carved from the arena at format/mount, see ftl_layout.c):
 *   l2p     4 B per logical page   (LPN -> PPN)
 *   p2l     4 B per physical page  (PPN -> LPN, so GC finds valid pages without reading
 *                                   every spare; also scratch for the mount's block list)
 *   blocks  sizeof(struct ftl_block) per block
 *   rf      sizeof(struct ftl_cursor) per block (mount scan and roll-forward)
 *   buffers FTL_GC_BATCH + 1 pages, trim list, checkpoint block lists
 *   open    4 B per stream and stripe lane (the open blocks)
 *
 * Striping: every stream (and GC) writes round-robin over `width` lanes, one open block
 * each, so pages written in sequence land on consecutive dies and a sequential read keeps
 * every channel busy. Lane l takes its blocks from the dies d with d % width == l; width
 * divides the die count, so with width == dies lane l is die l (channel first, then way,
 * as the hal numbers dies). Small geometries stripe over fewer dies (ftl_stripe_width).
 */
#ifndef FTL_INTERNAL_H
#define FTL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ss_ftl.h"
#include "ss_hal.h"
#include "ss_rt.h"

#define FTL_NONE 0xFFFFFFFFu          /* unmapped LPN / no PPN / no block */
#define FTL_STREAM_GC 3u              /* GC relocation, trim records */
#define FTL_STREAMS 4u
#define FTL_GC_BATCH 8u               /* pages read before their programs are issued */
#define FTL_MAX_PPB 32768u
#define FTL_MAX_CKPT_IDS 16u          /* checkpoints considered at mount, newest first */
#define FTL_MAX_CKPT_BLOCKS 255u

/* Spare (OOB) area of every programmed page, little-endian. */
#define FTL_SPARE_MAGIC 0x54465353u   /* "SSFT" */
#define FTL_SPARE_BYTES 48u
enum ftl_kind {
	FTL_KIND_DATA = 1,
	FTL_KIND_CKPT = 2,   /* lpn = page index in the checkpoint, ref = checkpoint id */
	FTL_KIND_TRIM = 3,   /* data: list of LPN ranges */
};

struct ftl_spare {
	uint8_t kind;
	uint8_t stream;
	uint32_t lpn;
	uint32_t erase_count;  /* of the block, when the page was programmed */
	uint64_t seq;          /* global program sequence number */
	uint64_t ref;
	uint32_t data_crc;     /* CRC-32C of the page data */
};

enum ftl_spare_status {
	FTL_SPARE_OK = 0,
	FTL_SPARE_ERASED = 1,  /* all 0xFF: never programmed */
	FTL_SPARE_BAD = 2,     /* wrong magic or CRC: torn or foreign, ignore the page */
};

void ftl_spare_encode(uint8_t *raw, const struct ftl_spare *s);
enum ftl_spare_status ftl_spare_decode(const uint8_t *raw, struct ftl_spare *s);

enum ftl_block_state {
	FTL_BLK_FREE = 0,
	FTL_BLK_OPEN = 1,
	FTL_BLK_FULL = 2,
	FTL_BLK_CKPT = 3,    /* holds a live checkpoint */
	FTL_BLK_BAD = 4,     /* retired for good */
};

#define FTL_BF_DIRTY 0x1u   /* free but not known erased: erase before use */
#define FTL_BF_RETIRE 0x2u  /* failed: move its data out, never erase or program it again */
#define FTL_BF_STUCK 0x4u   /* a page could not be read: GC leaves it alone */
#define FTL_BF_CKPT_OLD 0x8u /* free, released by the checkpoint being written: not for it */

struct ftl_block {
	uint64_t seq;        /* sequence of the last page programmed (age for cost-benefit) */
	uint64_t trim_seq;   /* newest trim record in the block, 0 if none */
	uint32_t erase_count;
	uint16_t valid;
	uint16_t wp;         /* next page to program */
	uint8_t state;
	uint8_t stream;
	uint8_t flags;
	uint8_t mark;        /* mount: the checkpoint's mappings into this block are stale */
};

/* Mount: page-0 facts of a block, then the roll-forward cursor of a scanned block. */
struct ftl_cursor {
	uint64_t seq;
	uint64_t ref;
	uint32_t lpn;
	uint32_t erase_count;
	uint32_t data_crc;
	uint16_t page;
	uint8_t status;      /* enum ftl_spare_status, or FTL_CUR_READERR / FTL_CUR_DONE */
	uint8_t kind;
};
#define FTL_CUR_READERR 8u
#define FTL_CUR_DONE 9u

struct ftl_trim_range {
	uint32_t lpn;
	uint32_t count;
};

/* Checkpoint header page (page T-1 of a checkpoint). */
#define FTL_CKPT_MAGIC 0x4B435346u    /* "FSCK" */
#define FTL_CKPT_VERSION 2u           /* 2: striped capacity, whole block-table entries */
#define FTL_TRIM_MAGIC 0x4D495254u    /* "TRIM" */
#define FTL_CKPT_HDR_FIXED 256u       /* header fields before its block list */
#define FTL_BLK_ENTRY_BYTES 24u       /* block-table entry in a checkpoint */

struct ss_ftl {
	struct ss_hal *hal;
	struct ss_geometry geo;
	struct ss_ftl_params params;
	uint32_t nblocks;
	uint32_t ppb;
	uint32_t page_size;
	uint64_t total_pages;
	uint32_t capacity;        /* logical pages */
	uint32_t ckpt_l2p_pages;  /* checkpoint layout: L2P pages, block-table pages, header */
	uint32_t ckpt_blk_pages;
	uint32_t ckpt_pages;
	uint32_t ckpt_blocks;     /* C: blocks one checkpoint occupies */

	uint32_t *l2p;
	uint32_t *p2l;
	struct ftl_block *blocks;
	struct ftl_cursor *rf;
	uint8_t *buf;             /* one page */
	uint8_t *gcbuf;           /* FTL_GC_BATCH pages */
	uint8_t *spare_raw;       /* spare_size bytes */
	uint8_t *spare_gc;        /* FTL_GC_BATCH * spare_size */

	uint32_t width;           /* stripe lanes per stream */
	uint32_t *open;           /* [stream * width + lane]: open block or FTL_NONE */
	uint32_t lane[FTL_STREAMS]; /* lane of each stream's next page */
	uint32_t free_blocks;
	uint32_t retiring;        /* RETIRE blocks still holding valid pages */
	uint64_t next_seq;
	bool unsynced;            /* pages programmed since the last sync */

	uint64_t ckpt_seq;        /* every page with seq <= this is in the current checkpoint */
	uint32_t *ckpt_cur;       /* blocks of the current checkpoint */
	uint32_t *ckpt_prev;      /* and of the one before, kept until the next completes */
	bool ckpt_cur_valid;
	bool ckpt_prev_valid;
	uint32_t programs_since_ckpt;
	bool in_ckpt;
	int read_err;             /* the first failure of ss_ftl_read_start's reads done at once */

	struct ftl_trim_range *trims;
	uint32_t ntrims;
	uint32_t trims_cap;
	uint32_t trims_per_page;

	uint32_t gc_since_wl;
	/* Bounds on the good blocks' erase counts, so that "no wear-levelling needed" takes no
	 * scan (ftl_gc.c): wear_lo <= the least, wear_hi >= the greatest, and wear_at_lo good
	 * blocks at most sit at wear_lo. Valid only while wear_known (zeroed: recount). */
	bool wear_known;
	uint32_t wear_lo, wear_hi, wear_at_lo;
	struct ss_ftl_stats st;
};

/* ftl_layout.c */
int ftl_layout(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size);
int ftl_geometry_check(const struct ss_geometry *g);

static inline uint32_t ftl_ppn(const struct ss_ftl *f, uint32_t block, uint32_t page)
{
	return block * f->ppb + page;
}

/* ftl_stripe.c */
uint32_t ftl_stripe_width(const struct ss_geometry *g);
uint32_t ftl_open_blocks_max(uint32_t width);
void ftl_close_block(struct ss_ftl *f, uint32_t block);

/* ftl_alloc.c */
enum ftl_alloc_class {
	FTL_ALLOC_HOST,   /* leaves room for GC and a checkpoint */
	FTL_ALLOC_GC,     /* leaves room for a checkpoint */
	FTL_ALLOC_CKPT,   /* may take the last free block */
};
uint32_t ftl_reserve_host(const struct ss_ftl *f);
bool ftl_lane_has_free(const struct ss_ftl *f, uint32_t lane);
int ftl_alloc_block(struct ss_ftl *f, uint32_t stream, uint32_t lane,
		    enum ftl_alloc_class cls, uint32_t *block);
void ftl_retire(struct ss_ftl *f, uint32_t block);
int ftl_erase_free(struct ss_ftl *f, uint32_t block);
int ftl_sync(struct ss_ftl *f);
void ftl_invalidate(struct ss_ftl *f, uint32_t ppn);
int ftl_append(struct ss_ftl *f, uint32_t stream, uint8_t kind, uint32_t lpn, const void *data,
	       uint32_t data_crc, uint32_t *ppn_out);

/* ftl_io.c */
int ftl_trims_write(struct ss_ftl *f);

/* ftl_gc.c */
int ftl_gc_one(struct ss_ftl *f, uint32_t budget);
int ftl_make_room(struct ss_ftl *f, uint32_t lane);
bool ftl_wear_level_needed(struct ss_ftl *f, uint32_t *victim);
void ftl_wear_erased(struct ss_ftl *f, uint32_t block);
int ftl_relocate(struct ss_ftl *f, uint32_t victim, uint64_t *moved);

/* ftl_ckpt.c */
int ftl_checkpoint(struct ss_ftl *f);
/* \return 0 or -SS_EBADMSG with the enum ss_ftl_ckpt_part that failed in *part. */
int ftl_ckpt_load(struct ss_ftl *f, uint64_t id, const uint32_t *blocks, uint32_t *part);
void ftl_stats_refresh(struct ss_ftl *f);

#endif
