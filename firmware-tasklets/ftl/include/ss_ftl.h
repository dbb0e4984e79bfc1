/*
 * Page-mapping flash translation layer: logical pages (LPNs) of one flash page each,
 * written out of place, garbage collected, wear-levelled, with bad and worn-out blocks
 * retired. Every mapping survives a crash: mount rebuilds it from the last checkpoint plus
 * a roll-forward over the reverse map and sequence numbers kept in each page's spare area.
 *
 * Durability contract
 *   - ss_ftl_write() returns once the page is programmed; after ss_ftl_flush(), or for a
 *     write with SS_FTL_FUA, it also survives power loss.
 *   - A write is atomic per logical page: after a crash a page reads as its old or its new
 *     contents, never a mix.
 *   - ss_ftl_trim() is durable after the next flush; before that a trimmed page may come back.
 */
#ifndef SS_FTL_H
#define SS_FTL_H

#include <stdint.h>

#include "ss_hal.h"

struct ss_ftl;

/* Write streams: each has its own open blocks, so data of one kind shares blocks. A stream
 * writes round-robin over the dies (channel first, then way: one open block per die), so
 * pages written in sequence can be read back in parallel. */
enum ss_stream {
	SS_STREAM_META = 0,  /* object-store metadata */
	SS_STREAM_HOT = 1,   /* short-lived or often rewritten data */
	SS_STREAM_COLD = 2,  /* written once, read many */
	SS_STREAM_COUNT = 3,
};

enum ss_gc_policy {
	SS_GC_GREEDY = 0,        /* fewest valid pages */
	SS_GC_COST_BENEFIT = 1,  /* (1-u)*age / 2u, Rosenblum & Ousterhout */
};

#define SS_FTL_FUA 0x1u  /* durable before return */

/*
 * What static wear-levelling promises: once background work has run out, the spread of
 * erase counts (most minus least erased good block, free and checkpoint blocks included)
 * is at most wear_level_delta + SS_FTL_WL_SLACK(delta), and while the host writes at most
 * 4 more. Levelling starts only past delta; its victim is erased once more and waits in
 * the free pool for the next hot allocation; the block its data goes to is erased once
 * more; and checkpoint blocks, held for two checkpoint intervals on their stripe lane, fall
 * behind by what the others are erased meanwhile. Measured (ftl_gc_ut, SS_WL_SWEEP=1,
 * deltas 2 to 16, three seeds each, 64 blocks of 16 pages, a hot quarter): at most
 * delta + 8 (delta 2 and 4) and delta + 11 (delta 16) at idle.
 */
#define SS_FTL_WL_SLACK(delta) ((delta) > 8u ? (delta) : 8u)

struct ss_ftl_params {
	enum ss_gc_policy gc_policy;
	/* A block becomes a GC victim only when its live share is at or below its stream's
	 * threshold (Kang ch. 4: data 80 %, metadata 60 %); GC falls back to the overall
	 * best victim when no block qualifies. Permille. */
	uint16_t clean_threshold_permille[SS_STREAM_COUNT];
	/* Static wear-levelling: move cold data when max - min erase count exceeds this.
	 * 0 disables static wear-levelling (allocation stays wear-aware). Once background work
	 * has run out, the spread between the most and the least erased good block is within
	 * this plus SS_FTL_WL_SLACK(this). */
	uint32_t wear_level_delta;
	/* Write a checkpoint after this many page programs, bounding roll-forward on mount.
	 * 0 selects the default. */
	uint32_t checkpoint_interval_pages;
};

void ss_ftl_default_params(struct ss_ftl_params *p);

/** DRAM the FTL needs for a geometry (mapping tables, block table, buffers).
 *  \return bytes, or 0 when the FTL cannot run on the geometry. */
uint64_t ss_ftl_dram_needed(const struct ss_geometry *geo);

/**
 * Erase the whole flash and start an empty FTL. Blocks that fail to erase are recorded
 * as bad. `dram` must hold ss_ftl_dram_needed() bytes.
 * \return 0, -SS_ENOMEM when dram is too small, -SS_EIO (also: too many bad blocks for
 *         the capacity), -SS_EINVAL on a bad geometry or parameters.
 */
int ss_ftl_format(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
		  const struct ss_ftl_params *params);

/**
 * Mount a formatted flash: load the newest valid checkpoint, roll forward every page
 * written after it.
 * \return 0, -SS_ENODATA when the flash was never formatted (no checkpoint), -SS_EBADMSG
 *         when no checkpoint is intact, -SS_ENOMEM, -SS_EIO.
 */
int ss_ftl_mount(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size);

/** What a mount that found no intact checkpoint found wrong with the newest one. */
enum ss_ftl_ckpt_part {
	SS_FTL_CKPT_INTACT = 0,
	SS_FTL_CKPT_BLOCKS = 1,       /* a block of it is missing (erased or reused since) */
	SS_FTL_CKPT_HEADER = 2,       /* its header page, or the pages disagree with it */
	SS_FTL_CKPT_L2P = 3,          /* a page of its logical-to-physical table */
	SS_FTL_CKPT_BLOCK_TABLE = 4,  /* a page of its block table */
};

/** ss_ftl_mount, and when it fails with -SS_EBADMSG, the enum ss_ftl_ckpt_part of the newest
 *  checkpoint in *damaged (SS_FTL_CKPT_INTACT otherwise). */
int ss_ftl_mount_report(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
			uint32_t *damaged);

/** Write a checkpoint so the next mount needs no roll-forward. */
int ss_ftl_unmount(struct ss_ftl *ftl);

uint32_t ss_ftl_capacity_pages(const struct ss_ftl *ftl); /* logical pages offered */
uint32_t ss_ftl_page_size(const struct ss_ftl *ftl);

/** Dies a stream's consecutive pages are striped over: every die, or on a geometry too
 *  small for an open block per die and stream, a divisor of the die count. */
uint32_t ss_ftl_stripe_dies(const struct ss_ftl *ftl);

/**
 * Where logical page `lpn` lives now (read-only; changes when the page is rewritten or
 * moved by GC). Block ppn / pages_per_block is on die block % (channels * ways).
 * \return 0 with *ppn set, 1 when the page is unmapped, -SS_ERANGE, -SS_EINVAL.
 */
int ss_ftl_lookup(const struct ss_ftl *ftl, uint32_t lpn, uint32_t *ppn);

/**
 * Read logical page `lpn` into `buf` (page_size bytes). A never-written or trimmed page
 * reads as zeros.
 * \return 0, or 1 when the page is unmapped (buf zeroed), -SS_ERANGE, -SS_EIO.
 */
int ss_ftl_read(struct ss_ftl *ftl, uint32_t lpn, void *buf);

/**
 * ss_ftl_read, except that the page may still be on its way into `buf` when this returns
 * (the hal's page_read_start: a transfer that overlaps the caller's next work), and a
 * failure to read it, or of its check, is reported by ss_ftl_read_wait instead. Leave
 * `buf` alone until then.
 * \return 0, or 1 when the page is unmapped (buf zeroed), -SS_ERANGE, -SS_EINVAL.
 */
int ss_ftl_read_start(struct ss_ftl *ftl, uint32_t lpn, void *buf);

/** Wait for the pages ss_ftl_read_start started. \return 0, or the first failure among
 *  them (-SS_EIO). */
int ss_ftl_read_wait(struct ss_ftl *ftl);

/**
 * Write logical page `lpn` from `buf` (page_size bytes) into `stream`.
 * \return 0, -SS_ERANGE, -SS_ENOSPC when no free block remains even after GC, -SS_EIO.
 */
int ss_ftl_write(struct ss_ftl *ftl, uint32_t lpn, const void *buf, enum ss_stream stream,
		 unsigned flags);

/** Unmap `count` pages from `lpn`.
 *  \return 0, -SS_ERANGE; -SS_ENOSPC or -SS_EIO when the trim cannot be logged for
 *          durability (then nothing is unmapped). */
int ss_ftl_trim(struct ss_ftl *ftl, uint32_t lpn, uint32_t count);

/** Make every completed write and trim durable. \return 0 or -SS_EIO. */
int ss_ftl_flush(struct ss_ftl *ftl);

/**
 * Idle-time work: garbage collection ahead of need, static wear-levelling, checkpoints.
 * Does at most `max_page_moves` page copies. Work is charged to SS_HAL_TL_BACKGROUND;
 * the timeline is left at SS_HAL_TL_HOST.
 * \return 1 when more background work remains, 0 when idle, negative errno on failure.
 */
int ss_ftl_background(struct ss_ftl *ftl, uint32_t max_page_moves);

/**
 * Whether ss_ftl_background() has work due now: garbage collection ahead of need, a
 * retiring block to empty, or a checkpoint. Static wear-levelling is not counted (finding
 * out scans every block; ss_ftl_background() checks it itself). Constant time unless the
 * drive is short of free blocks or has blocks retiring.
 * \return 1 when work is due, 0 otherwise.
 */
int ss_ftl_background_pending(const struct ss_ftl *ftl);

struct ss_ftl_stats {
	uint64_t host_page_writes;   /* ss_ftl_write calls that programmed a page */
	uint64_t host_page_reads;
	uint64_t nand_page_writes;   /* all programs: host, GC, wear-levelling, checkpoints */
	uint64_t nand_page_reads;
	uint64_t block_erases;
	uint64_t gc_runs;
	uint64_t gc_page_moves;
	uint64_t wear_level_moves;
	uint64_t trimmed_pages;
	uint64_t checkpoints;
	uint32_t retired_blocks;     /* bad at format plus retired since */
	uint32_t free_blocks;
	uint32_t total_blocks;
	uint32_t min_erase_count;
	uint32_t max_erase_count;
	uint32_t avg_erase_count;
	uint32_t mapped_pages;
	uint32_t rollforward_pages;  /* pages replayed by the last mount */
};

void ss_ftl_get_stats(const struct ss_ftl *ftl, struct ss_ftl_stats *st);

/** Write amplification so far, in thousandths (nand_page_writes / host_page_writes). */
uint32_t ss_ftl_write_amplification_milli(const struct ss_ftl *ftl);

#endif
