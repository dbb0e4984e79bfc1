/*
 * Blocks: wear-aware allocation from the free pool, erase, retirement of failed blocks,
 * and appending a page to a stream's open block (retried on a new block when a program
 * fails, so a worn-out block never costs a write).
 *
 * Wear-aware allocation follows Kang ch. 7 (seeds/003_*.txt): free space is handed out
 * from the lowest wear level first (line 1195) and hot data goes to younger blocks while
 * cold data is parked on older ones (lines 1209-1215). On flash an exact per-block erase
 * counter is cheap (line 1140), so the FTL uses it instead of the chapter's probabilistic
 * counters, which exist to save counter updates on byte-addressable NVRAM.
 */
#include "ftl_internal.h"

/* Free blocks a host stream must leave: a whole checkpoint, GC's open block and one to
 * spare so GC can always make progress. */
uint32_t ftl_reserve_host(const struct ss_ftl *f)
{
	return f->ckpt_blocks + 2;
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

/* Least-worn free block for hot data, most-worn for cold; erased blocks before dirty. */
static uint32_t pick_free(const struct ss_ftl *f, uint32_t stream)
{
	bool worn = wants_worn(stream);
	uint32_t best = FTL_NONE;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ftl_block *k = &f->blocks[b];
		const struct ftl_block *cur;

		if (k->state != FTL_BLK_FREE) {
			continue;
		}
		if (best == FTL_NONE) {
			best = b;
			continue;
		}
		cur = &f->blocks[best];
		if (k->erase_count != cur->erase_count) {
			if (worn ? k->erase_count > cur->erase_count :
			    k->erase_count < cur->erase_count) {
				best = b;
			}
		} else if ((cur->flags & FTL_BF_DIRTY) && !(k->flags & FTL_BF_DIRTY)) {
			best = b;
		}
	}
	return best;
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
	k->flags &= (uint8_t)~FTL_BF_DIRTY;
	k->wp = 0;
	k->valid = 0;
	k->seq = 0;
	k->trim_seq = 0;
	f->st.block_erases++;
	return 0;
}

int ftl_alloc_block(struct ss_ftl *f, uint32_t stream, enum ftl_alloc_class cls,
		    uint32_t *block)
{
	uint32_t need = reserve_for(f, cls) + 1;

	for (;;) {
		uint32_t b;
		int rc;

		if (f->free_blocks < need) {
			return -SS_ENOSPC;
		}
		b = pick_free(f, stream);
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

	for (uint32_t s = 0; s < FTL_STREAMS; s++) {
		if (f->open[s] == block) {
			f->open[s] = FTL_NONE;
		}
	}
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

int ftl_append(struct ss_ftl *f, uint32_t stream, uint8_t kind, uint32_t lpn, const void *data,
	       uint32_t data_crc, uint32_t *ppn_out)
{
	struct ftl_spare sp;

	/* Each failed program retires a block, so the attempts are bounded by the pool. */
	for (uint32_t attempt = 0; attempt <= f->nblocks; attempt++) {
		uint32_t b = f->open[stream], ppn;
		struct ftl_block *k;
		int rc;

		if (b == FTL_NONE) {
			if (stream != FTL_STREAM_GC) {
				rc = ftl_make_room(f);
				if (rc != 0) {
					return rc;
				}
				b = f->open[stream];
			}
			if (b == FTL_NONE) {
				rc = ftl_alloc_block(f, stream, stream == FTL_STREAM_GC ?
						     FTL_ALLOC_GC : FTL_ALLOC_HOST, &b);
				if (rc != 0) {
					return rc;
				}
				f->open[stream] = b;
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
			f->open[stream] = FTL_NONE;
		}
		*ppn_out = ppn;
		return 0;
	}
	return -SS_EIO;
}
