/*
 * Blocks: wear-aware allocation from the free pool (per stripe lane, see ftl_stripe.c),
 * erase, retirement of failed blocks, and appending a page to a stream's open blocks,
 * round-robin over its lanes (retried on a new block when a program fails, so a worn-out
 * block never costs a write).
 *
 * Wear-aware allocation follows Kang ch. 7 ([Kang 2014, §7.3.1, p. 93]): free space is
 * handed out from the lowest wear level first (§7.3.1.1) and hot data goes to younger
 * blocks while cold data is parked on older ones (§7.3.1.2). On flash an exact per-block
 * erase counter is cheap (§7.2, p. 89), so the FTL uses it instead of the chapter's
 * probabilistic counters, which exist to save counter updates on byte-addressable NVRAM.
 */
#include "ftl_internal.h"

/* Free blocks a host stream must leave: a whole checkpoint, a fresh block for every GC
 * lane (relocating one victim may open them all) and one to spare so GC can always make
 * progress. */
uint32_t ftl_reserve_host(const struct ss_ftl *f)
{
	return f->ckpt_blocks + f->width + 1;
}

static uint32_t reserve_for(const struct ss_ftl *f, enum ftl_alloc_class cls)
{
	switch (cls) {
	case FTL_ALLOC_HOST:
		return ftl_reserve_host(f);
	case FTL_ALLOC_GC:
		return f->ckpt_blocks;
	default:
		return 0;
	}
}

static bool wants_worn(uint32_t stream)
{
	return stream == SS_STREAM_COLD || stream == FTL_STREAM_GC;
}

/* The least erase count of the good blocks. */
static uint32_t min_erase(const struct ss_ftl *f)
{
	uint32_t min = UINT32_MAX;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (f->blocks[b].state != FTL_BLK_BAD) {
			min = SS_MIN(min, f->blocks[b].erase_count);
		}
	}
	return min;
}

/* Best free block among b = first, first + step, ...: least worn for hot data, most worn
 * for cold; erased before dirty at equal wear. With static wear-levelling on, "most worn"
 * for data stops at the least erase count plus wear_level_delta: GC survivors are rewritten
 * soon, so the blocks they come back to would be erased again and again and the most-worn
 * block would run away from the rest (a spread of 13 at delta 4 without this ceiling).
 * A checkpoint skips the blocks the previous one just released (FTL_BF_CKPT_OLD) while
 * others are free: taking the least worn, it would otherwise take them back each time and
 * leave them a few erases in a hundred (72 against an average of 352). */
static uint32_t pick_free_in(const struct ss_ftl *f, uint32_t stream, uint32_t first,
			     uint32_t step)
{
	bool worn = wants_worn(stream);
	uint32_t best = FTL_NONE, ceiling = UINT32_MAX;

	if (worn && f->params.wear_level_delta != 0) {
		uint32_t min = min_erase(f);

		ceiling = min > UINT32_MAX - f->params.wear_level_delta ? UINT32_MAX :
			  min + f->params.wear_level_delta;
	}
	for (uint32_t b = first; b < f->nblocks; b += step) {
		const struct ftl_block *k = &f->blocks[b];
		const struct ftl_block *cur;

		if (k->state != FTL_BLK_FREE) {
			continue;
		}
		if (stream == FTL_STREAMS && best != FTL_NONE &&
		    ((k->flags ^ f->blocks[best].flags) & FTL_BF_CKPT_OLD)) {
			if (f->blocks[best].flags & FTL_BF_CKPT_OLD) {
				best = b;
			}
			continue;
		}
		if (best != FTL_NONE && worn && (k->erase_count < ceiling) !=
					      (f->blocks[best].erase_count < ceiling)) {
			if (k->erase_count < ceiling) {
				best = b;   /* under the ceiling beats over it */
			}
			continue;
		}
		if (best == FTL_NONE) {
			best = b;
			continue;
		}
		cur = &f->blocks[best];
		if (k->erase_count != cur->erase_count) {
			bool over = cur->erase_count >= ceiling;   /* both over: least worn wins */

			if (worn && !over ? k->erase_count > cur->erase_count :
			    k->erase_count < cur->erase_count) {
				best = b;
			}
		} else if ((cur->flags & FTL_BF_DIRTY) && !(k->flags & FTL_BF_DIRTY)) {
			best = b;
		}
	}
	return best;
}

/* A free block on the dies of `lane` (block b is on die b % dies, and width divides dies,
 * so those are the blocks with b % width == lane). When the lane's dies have none left,
 * any die's block will do: striping degrades, nothing fails. FTL_NONE: any die. */
static uint32_t pick_free(const struct ss_ftl *f, uint32_t stream, uint32_t lane)
{
	uint32_t b = FTL_NONE;

	if (lane != FTL_NONE && f->width > 1) {
		b = pick_free_in(f, stream, lane, f->width);
	}
	return b != FTL_NONE ? b : pick_free_in(f, stream, 0, 1);
}

bool ftl_lane_has_free(const struct ss_ftl *f, uint32_t lane)
{
	return pick_free_in(f, SS_STREAM_HOT, lane, f->width) != FTL_NONE;
}

int ftl_sync(struct ss_ftl *f)
{
	int rc = ss_hal_sync(f->hal);

	if (rc == 0) {
		f->unsynced = false;
	}
	return rc;
}

int ftl_erase_free(struct ss_ftl *f, uint32_t block)
{
	struct ftl_block *k = &f->blocks[block];
	int rc = ss_hal_block_erase(f->hal, block);

	if (rc == -SS_EIO) {
		k->state = FTL_BLK_BAD;
		k->flags = 0;
		f->st.retired_blocks++;
		return rc;
	}
	if (rc != 0) {
		return rc;
	}
	k->erase_count++;
	ftl_wear_erased(f, block);
	k->flags &= (uint8_t)~FTL_BF_DIRTY;
	k->wp = 0;
	k->valid = 0;
	k->seq = 0;
	k->trim_seq = 0;
	f->st.block_erases++;
	return 0;
}

int ftl_alloc_block(struct ss_ftl *f, uint32_t stream, uint32_t lane,
		    enum ftl_alloc_class cls, uint32_t *block)
{
	uint32_t need = reserve_for(f, cls) + 1;

	for (;;) {
		uint32_t b;
		int rc;

		if (f->free_blocks < need) {
			return -SS_ENOSPC;
		}
		b = pick_free(f, stream, lane);
		if (b == FTL_NONE) {
			return -SS_ENOSPC;
		}
		if (f->blocks[b].flags & FTL_BF_DIRTY) {
			rc = ftl_erase_free(f, b);
			if (rc == -SS_EIO) {
				f->free_blocks--;   /* retired, try the next one */
				continue;
			}
			if (rc != 0) {
				return rc;
			}
		}
		f->free_blocks--;
		f->blocks[b].state = FTL_BLK_OPEN;
		f->blocks[b].stream = (uint8_t)stream;
		f->blocks[b].wp = 0;
		f->blocks[b].valid = 0;
		f->blocks[b].trim_seq = 0;
		*block = b;
		return 0;
	}
}

/* A block failed a program or read: it leaves the pool for good once its valid pages
 * have moved (GC takes retiring blocks first). */
void ftl_retire(struct ss_ftl *f, uint32_t block)
{
	struct ftl_block *k = &f->blocks[block];

	ftl_close_block(f, block);
	if (k->state == FTL_BLK_BAD || (k->flags & FTL_BF_RETIRE)) {
		return;
	}
	f->st.retired_blocks++;
	if (k->valid == 0) {
		k->state = FTL_BLK_BAD;
		k->flags = 0;
		return;
	}
	k->state = FTL_BLK_FULL;
	k->flags |= FTL_BF_RETIRE;
	f->retiring++;
}

void ftl_invalidate(struct ss_ftl *f, uint32_t ppn)
{
	struct ftl_block *k = &f->blocks[ppn / f->ppb];

	if (f->p2l[ppn] == FTL_NONE) {
		return;
	}
	f->p2l[ppn] = FTL_NONE;
	k->valid--;
	if (k->valid == 0 && (k->flags & FTL_BF_RETIRE)) {
		k->state = FTL_BLK_BAD;
		if (!(k->flags & FTL_BF_STUCK)) {
			f->retiring--;
		}
		k->flags = 0;
	}
}

/* Program the next page of `stream` on its current lane, then move to the next lane. */
int ftl_append(struct ss_ftl *f, uint32_t stream, uint8_t kind, uint32_t lpn, const void *data,
	       uint32_t data_crc, uint32_t *ppn_out)
{
	uint32_t lane = f->lane[stream];
	uint32_t *slot = &f->open[stream * f->width + lane];
	struct ftl_spare sp;

	/* Each failed program retires a block, so the attempts are bounded by the pool. */
	for (uint32_t attempt = 0; attempt <= f->nblocks; attempt++) {
		uint32_t b = *slot, ppn;
		struct ftl_block *k;
		int rc;

		if (b == FTL_NONE) {
			if (stream != FTL_STREAM_GC) {
				rc = ftl_make_room(f, lane);
				if (rc != 0) {
					return rc;
				}
				b = *slot;
			}
			if (b == FTL_NONE) {
				rc = ftl_alloc_block(f, stream, lane, stream == FTL_STREAM_GC ?
						     FTL_ALLOC_GC : FTL_ALLOC_HOST, &b);
				if (rc != 0) {
					return rc;
				}
				*slot = b;
			}
		}
		k = &f->blocks[b];
		ppn = ftl_ppn(f, b, k->wp);
		sp.kind = kind;
		sp.stream = (uint8_t)stream;
		sp.lpn = lpn;
		sp.erase_count = k->erase_count;
		sp.seq = f->next_seq++;
		sp.ref = 0;
		sp.data_crc = data_crc;
		ss_memset(f->spare_raw, 0xFF, f->geo.spare_size);
		ftl_spare_encode(f->spare_raw, &sp);
		rc = ss_hal_page_program(f->hal, ppn, data, f->spare_raw);
		if (rc == -SS_EIO) {
			ftl_retire(f, b);
			continue;
		}
		if (rc != 0) {
			return rc;
		}
		k->wp++;
		k->seq = sp.seq;
		if (kind == FTL_KIND_TRIM) {
			k->trim_seq = sp.seq;
		}
		f->st.nand_page_writes++;
		f->programs_since_ckpt++;
		f->unsynced = true;
		if (k->wp == f->ppb) {
			k->state = FTL_BLK_FULL;
			*slot = FTL_NONE;
		}
		f->lane[stream] = lane + 1 < f->width ? lane + 1 : 0;
		*ppn_out = ppn;
		return 0;
	}
	return -SS_EIO;
}
