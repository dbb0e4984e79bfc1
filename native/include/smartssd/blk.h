/*
 * A block device over an open-channel drive, kept by the host (pblk's design, after
 * LightNVM [Bjørling 2017]): 4 KiB logical blocks, the logical-to-physical map in host
 * memory, writes buffered and striped across the parallel units a unit (ws_min) at a
 * time, channel first, trim, and host garbage collection of whole lines (the same chunk
 * on every PU) paced against the user's writes by a rate limiter.
 *
 * Durability. Every block written to flash carries its LBA and a sequence number in its
 * sectors' out-of-band metadata (ss_dev_vector_write_meta). The map is checkpointed to one
 * of two reserved lines every few lines and before a line holding data newer than the last
 * checkpoint is erased; ss_blk_open rebuilds the map from the newest whole checkpoint plus
 * the out-of-band metadata of the blocks written after it, in sequence order.
 *
 * When a write is acknowledged (durable): ss_blk_write and ss_blk_trim return once the
 * blocks are in the host's write buffer, as a block device's write without FUA; they are
 * durable -- survive a crash of this process (SIGKILL) or of the drive's daemon -- when
 * ss_blk_write with SS_BLK_FUA returns 0, or when a later ss_blk_flush or ss_blk_close
 * returns 0. A write or trim that was not acknowledged may be found after a crash or not,
 * whole for each 4 KiB block: never a block holding anything but one of the contents
 * written to that LBA.
 *
 * Every call is serialized on the target (one mutex) and returns 0 or a negative errno,
 * with the detail in ss_dev_last_reason/ss_dev_last_message.
 */
#ifndef SMARTSSD_BLK_H
#define SMARTSSD_BLK_H

#include <stdint.h>

#include "smartssd/smartssd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SS_BLK_BLOCK 4096u       /* bytes of a logical block */
#define SS_BLK_FUA 0x1u          /* ss_blk_write: durable before the call returns */

struct ss_blk; /* opaque: one open target */

struct ss_blk_opts {
	uint32_t op_permille;  /* over-provisioning: the share of the data lines' blocks not
				* given to LBAs (0: 100, 10%; at most 900) */
	uint32_t ckpt_lines;   /* checkpoint the map after this many lines filled (0: 4) */
};

struct ss_blk_info {
	uint64_t blocks;       /* LBAs, of SS_BLK_BLOCK bytes */
	uint32_t pus;          /* parallel units striped over */
	uint32_t lines;        /* data lines (two more hold the checkpoints) */
	uint32_t line_blocks;  /* blocks of a line */
	uint32_t unit_blocks;  /* blocks of one write unit on one PU */
	uint64_t map_bytes;    /* host memory of the map and the validity bitmap */
};

struct ss_blk_stats {
	uint64_t user_blocks_written;
	uint64_t user_blocks_read;
	uint64_t blocks_trimmed;
	uint64_t flash_blocks_written;  /* user, GC, padding, trim records (not checkpoints) */
	uint64_t pad_blocks;            /* written to fill a unit at a flush */
	uint64_t gc_blocks_moved;
	uint64_t gc_lines_erased;
	uint64_t gc_moves_beside_reads; /* blocks GC moved from a PU the user had read since
					 * GC's last step (each step halves that count) */
	uint64_t checkpoints;
	uint64_t checkpoint_blocks;
	uint64_t recovered_records;     /* blocks replayed from OOB at the last open */
	uint32_t free_lines;
	uint32_t valid_blocks;
	uint32_t buffered_blocks;       /* in the host's write buffer: not durable yet */
};

/** Reset every written chunk of an open-channel drive, so that ss_blk_open starts an
 *  empty target on it. Destroys what the drive holds. */
int ss_blk_format(struct ss_dev *d);

/** Open the target on d (an open-channel drive; d stays the caller's and must outlive
 *  the target), rebuilding the map after a crash. opts may be NULL.
 *  -EOPNOTSUPP: not an open-channel drive; -EINVAL: a geometry the target cannot use
 *  or options other than the checkpoint's; -EBADMSG: chunks written by something other
 *  than this target, or metadata that contradicts itself (the message names where);
 *  -EPROTO (reason SS_R_BAD_VERSION): a checkpoint of another format version (1: before
 *  the PUs were numbered channel first), named in the message -- ss_blk_format it. */
int ss_blk_open(struct ss_dev *d, const struct ss_blk_opts *opts, struct ss_blk **out);

/** Flush, checkpoint the map and free the target (freed in every case). */
int ss_blk_close(struct ss_blk *b);

int ss_blk_info(struct ss_blk *b, struct ss_blk_info *out);

/** Read blocks [lba, lba + n) into buf (n * 4096 bytes); never-written and trimmed
 *  blocks read as zeros. -ERANGE past the last LBA. */
int ss_blk_read(struct ss_blk *b, uint64_t lba, uint32_t n, void *buf);

/** Read the n blocks lbas[0..n) (in any order, repeats allowed) into buf + 4096 i, with
 *  up to `depth` (1..SS_DEV_QUEUE_DEPTH_MAX) vector reads in the drive at once, each
 *  block one read: so that reads of blocks on different parallel units overlap. Blocks
 *  never written or trimmed read as zeros and blocks still in the write buffer as
 *  buffered, as with ss_blk_read. -ERANGE (nothing read) for an LBA past the last; a read
 *  the drive fails: its errno, after the reads already in the drive are reaped (buf then
 *  holds some of the blocks). */
int ss_blk_read_many(struct ss_blk *b, const uint64_t *lbas, uint32_t n, void *buf,
		     uint32_t depth);

/** Write blocks [lba, lba + n) from buf; flags 0 or SS_BLK_FUA. */
int ss_blk_write(struct ss_blk *b, uint64_t lba, uint32_t n, const void *buf, uint32_t flags);

/** Forget blocks [lba, lba + n): they read as zeros. Durable as a write is. */
int ss_blk_trim(struct ss_blk *b, uint64_t lba, uint64_t n);

/** Make every write and trim before it durable (the last write unit padded). */
int ss_blk_flush(struct ss_blk *b);

int ss_blk_stats(struct ss_blk *b, struct ss_blk_stats *out);

#ifdef __cplusplus
}
#endif
#endif
