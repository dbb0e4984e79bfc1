/*
 * Solid-state cache (FlashTier SSC: M. Saxena, "New Interfaces for
 * Solid-State Memory Management", PhD thesis, UW-Madison 2013, ch. 4). A cache
 * for blocks of a slower backing store, addressed by the backing store's own 64-bit block
 * numbers (a unified, sparse address space, §4.3.1). One cache block is one flash page.
 *
 * Guarantees (§4.2.5, §4.3.2, Table 4.1)
 *   - ss_ssc_write_dirty(): data and mapping are durable when it returns; a later read
 *     returns it, across crashes, until it is overwritten or evicted.
 *   - ss_ssc_write_clean(): may be group-committed. After a crash a read returns the new
 *     data or "not present", never older data: when it replaces a cached block the mapping
 *     change is durable before it returns. It never replaces a dirty block: the clean copy
 *     is dropped (as silent eviction may drop it) and the dirty data stays, so a fill that
 *     races a write cannot lose the only copy (a tightening of Table 4.1).
 *   - ss_ssc_read(): the data, or SS_SSC_MISS; a miss is not an error.
 *   - ss_ssc_evict(): durable on return; later reads miss, across crashes.
 *   - ss_ssc_clean(): asynchronous; after a crash the block may be dirty again.
 *   - ss_ssc_exists(): present-and-dirty bits of a range, from drive memory only.
 *   Clean blocks may be dropped at any time (silent eviction in garbage collection, or a
 *   crash before their group commit); dirty blocks never are.
 *
 * The cache owns the blocks of the HAL it is given, all of them: it is its own
 * log-structured hybrid FTL (data blocks mapped per erase block, log blocks per page, as
 * FAST), not a client of ftl/. Sharing one drive with the FTL means handing each a HAL
 * view of its own blocks (see README.md).
 */
#ifndef SS_SSC_H
#define SS_SSC_H

#include <stdbool.h>
#include <stdint.h>

#include "ss_hal.h"

struct ss_ssc;

/* ss_ssc_read(): the block is not in the cache. */
#define SS_SSC_MISS 1

/* ss_ssc_exists(): the most blocks one call may test. */
#define SS_SSC_EXISTS_MAX (1u << 20)

enum ss_ssc_policy {
	/* SSC: log blocks fixed at log_permille of the cache (7 %); silent eviction frees
	 * data blocks only (§4.3.3, first policy). */
	SS_SSC_POLICY_SSC = 0,
	/* SSC-V: a variable log share from 0 to log_permille (20 %); blocks freed by silent
	 * eviction become data or log blocks (§4.3.3, second policy). */
	SS_SSC_POLICY_SSC_V = 1,
};

#define SS_SSC_LOG_PERMILLE_SSC 70u    /* §4.4.1: "we fix log blocks at 7 % of capacity" */
#define SS_SSC_LOG_PERMILLE_MAX 200u   /* §4.4.1: SSC-V "range from 0-20 %" */

/*
 * What wear-levelling promises. Data, log and checkpoint blocks all come from one pool,
 * least erased first. Static wear-levelling moves the least erased data block's group onto
 * the most erased free block when the spread between it and the most erased good block
 * passes SS_SSC_WEAR_DELTA, at most once per SS_SSC_WEAR_DELTA erases (ssc_gc.c), so data
 * that is never rewritten, cleaned or evicted does not pin its block. The spread between
 * the most and the least erased good block is then within SS_SSC_WEAR_DELTA (what a block
 * may fall behind before it is moved) plus SS_SSC_WEAR_SLACK (the drift while the moves
 * are rate-limited, and the erase of the block moved to). Measured (ssc_wear_ut, 96 blocks
 * of 16 pages, a hot tenth taking 90 % of the write-dirty traffic):
 * test_checkpoint_wear_spread a worst spread of 7 to 8 over 400 checkpoints (seven seeds)
 * and 10 over 6000; test_pinned_cold_data_wear_spread, with 16 of the blocks pinned by cold
 * dirty and clean data, 10 over 1200 checkpoints (seven seeds) and 11 over 6000, where
 * without levelling it reached 67 over 1200. FlashTier's trace replays: 3 to 12
 * (benchmarks/README.md). Before version 5 the checkpoint blocks alone were
 * erased at every checkpoint: 202 erases against the cache blocks' 12 over 400 checkpoints.
 */
#define SS_SSC_WEAR_DELTA 8u
#define SS_SSC_WEAR_SLACK 8u

struct ss_ssc_params {
	enum ss_ssc_policy policy;
	/* SSC: the fixed log share; SSC-V: its ceiling. Permille, at most
	 * SS_SSC_LOG_PERMILLE_MAX. DRAM for page-level mappings is reserved for it. */
	uint16_t log_permille;
	/* Buffered operations (write-clean of an absent block, clean) are committed once this
	 * many are pending, or earlier by a synchronous operation or ss_ssc_flush(). 0: one
	 * log page's worth. */
	uint32_t group_commit_records;
};

/** Defaults of a policy: 7 % log for SSC, 0-20 % for SSC-V, group commit per log page. */
void ss_ssc_default_params(struct ss_ssc_params *p, enum ss_ssc_policy policy);

/** DRAM the cache needs on a geometry with these parameters.
 *  \return bytes, or 0 when the cache cannot run on the geometry or parameters. */
uint64_t ss_ssc_dram_needed(const struct ss_geometry *geo, const struct ss_ssc_params *p);

/** DRAM beyond ss_ssc_dram_needed() for the read-ahead of sequential reads (two halves
 *  of SSC_RA_HALF + SSC_RA_PARTIAL groups, and the successor hints it follows from one file to the next):
 *  a cache given at least this much more reads ahead; less, fewer groups; less than two
 *  groups, none. */
uint64_t ss_ssc_dram_read_ahead(const struct ss_geometry *geo);

/**
 * Erase every block of `hal` and start an empty cache. The parameters are stored on flash
 * and used by every later mount.
 * \return 0, -SS_EINVAL on a geometry or parameters the cache cannot use, -SS_ENOMEM when
 *         `dram_size` < ss_ssc_dram_needed(), -SS_EIO.
 */
int ss_ssc_format(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
		  const struct ss_ssc_params *p);

/**
 * Mount: the newest intact checkpoint, then roll forward over the operation log.
 * \return 0, -SS_ENODATA when the flash holds no cache, -SS_EPROTO when the newest
 *         checkpoint has another format version (ss_ssc_image_version() names it; images
 *         before version 5 kept checkpoints in a fixed window: reformat the cache),
 *         -SS_EBADMSG when the log or a checkpoint contradicts itself, -SS_ENOMEM, -SS_EIO.
 */
int ss_ssc_mount(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size);

/** The format version of the newest intact checkpoint on `hal` (the one this firmware
 *  writes is 5), with `dram` as scratch (a page and a spare).
 *  \return 0 with *version, -SS_ENODATA when the flash holds no cache, -SS_EBADMSG. */
int ss_ssc_image_version(struct ss_hal *hal, void *dram, uint64_t dram_size, uint32_t *version);

/** Commit the log and write a checkpoint, so the next mount replays nothing.
 *  \return 0 or -SS_EIO. The cache stays usable either way. */
int ss_ssc_unmount(struct ss_ssc *c);

/** The cache block size: one flash page. */
uint32_t ss_ssc_block_size(const struct ss_ssc *c);

/**
 * Cache `buf` (one block) as the dirty copy of backing block `lba`.
 * \return 0 once data and mapping are durable; -SS_EINVAL for lba UINT64_MAX;
 *         -SS_ENOSPC when the cache is full of dirty data (nothing was changed); -SS_EIO.
 */
int ss_ssc_write_dirty(struct ss_ssc *c, uint64_t lba, const void *buf);

/**
 * Cache `buf` as a clean copy of `lba` (the backing store holds the same data).
 * \return 0; the same errors as ss_ssc_write_dirty().
 */
int ss_ssc_write_clean(struct ss_ssc *c, uint64_t lba, const void *buf);

/**
 * Read block `lba` into `buf`.
 * \return 0 with the data, SS_SSC_MISS when not cached (buf untouched), -SS_EINVAL,
 *         -SS_EIO when the flash cannot return the page intact.
 */
int ss_ssc_read(struct ss_ssc *c, uint64_t lba, void *buf);

/** Drop `lba` from the cache. \return 0 once durable (also when it was not cached),
 *  -SS_EINVAL, -SS_EIO. */
int ss_ssc_evict(struct ss_ssc *c, uint64_t lba);

/** Mark `lba` clean: the backing store has its data, the cache may drop it.
 *  \return 0 (also when it was not cached or already clean), -SS_EINVAL, -SS_EIO. */
int ss_ssc_clean(struct ss_ssc *c, uint64_t lba);

/**
 * Bit i of `bitmap` (LSB first, ceil(count / 8) bytes) is set when block lba + i is cached
 * and dirty. Reads drive memory only.
 * \return 0, -SS_EINVAL when count is 0 or above SS_SSC_EXISTS_MAX or the range wraps.
 */
int ss_ssc_exists(const struct ss_ssc *c, uint64_t lba, uint32_t count, uint8_t *bitmap);

/** ss_ssc_clean() of blocks [lba, lba + count), counted as one clean operation (a
 *  write-back the host completed) once every block is done. \return as ss_ssc_clean(). */
int ss_ssc_clean_range(struct ss_ssc *c, uint64_t lba, uint64_t count);

/** True when block `lba` is cached (clean or dirty). Reads drive memory only; counts
 *  neither a hit nor a miss (ssc_present.c). */
bool ss_ssc_present(const struct ss_ssc *c, uint64_t lba);

/** Commit every buffered operation now. \return 0 or -SS_EIO. */
int ss_ssc_flush(struct ss_ssc *c);

struct ss_ssc_stats {
	uint64_t read_hits;
	uint64_t read_misses;
	uint64_t host_page_writes;     /* write-dirty and write-clean calls that wrote */
	uint64_t nand_page_writes;     /* every program: data, merge copies, log, checkpoint */
	uint64_t nand_page_reads;
	uint64_t block_erases;
	uint64_t silent_evicted_pages; /* clean blocks dropped by garbage collection */
	uint64_t silent_evicted_blocks;/* erase blocks freed by silent eviction */
	uint64_t full_merges;
	uint64_t switch_merges;
	uint64_t merge_page_copies;
	uint64_t wear_level_migrations; /* cold data blocks moved onto worn blocks (ssc_gc.c) */
	uint64_t wear_level_copies;     /* pages those migrations copied (in merge_page_copies too) */
	uint64_t log_commits;          /* operation-log pages programmed */
	uint64_t checkpoints;
	uint64_t replayed_records;     /* by the last mount */
	uint32_t cached_pages;
	uint32_t dirty_pages;          /* "dirty blocks" of the cache */
	uint32_t log_blocks;
	uint32_t data_blocks;
	uint32_t free_blocks;
	uint32_t cache_blocks;         /* good blocks for data and log (the pool less three
					* checkpoints' blocks) */
	uint32_t bad_blocks;           /* cache blocks left out: their erase failed at format */
	uint32_t min_erase_count;      /* over every good block, checkpoint blocks included */
	uint32_t max_erase_count;
	uint64_t map_dram_bytes;       /* the sparse maps and block table */
	/* The cache manager's traffic since format, kept in every checkpoint. Those counted
	 * from log records (fills, dirty writes, cleaned and evicted blocks) survive a crash
	 * for every record that did; hits and clean operations are not logged, and a crash
	 * loses the ones since the last checkpoint (an unmount writes one). */
	uint64_t hit_blocks;           /* reads served from the cache */
	uint64_t filled_blocks;        /* written by write-clean */
	uint64_t dirty_written_blocks; /* written by write-dirty */
	uint64_t clean_ops;            /* ss_ssc_clean_range() calls completed */
	uint64_t cleaned_blocks;       /* blocks turned from dirty to clean */
	uint64_t evicted_blocks;       /* cached blocks dropped by ss_ssc_evict() */
	uint64_t clean_over_dirty_dropped; /* write-clean calls that found the block dirty */
	uint32_t retired_blocks;       /* cache blocks retired worn out, never used again */
	uint32_t endurance;            /* erases after which a block is retired (0: never) */
	uint64_t read_ahead_pages;     /* pages read ahead (in nand_page_reads too) */
	uint64_t read_ahead_hits;      /* reads served from them (in read_hits too) */
};

void ss_ssc_get_stats(const struct ss_ssc *c, struct ss_ssc_stats *st);

/** Write amplification so far, thousandths (nand_page_writes / host_page_writes). */
uint32_t ss_ssc_write_amplification_milli(const struct ss_ssc *c);

/** The parameters the cache was formatted with. */
void ss_ssc_get_params(const struct ss_ssc *c, struct ss_ssc_params *p);

#endif
