/*
 * Garbage collection and static wear-levelling: pick a victim block, move its valid pages
 * to the GC stream, erase it.
 *
 * Victims ([Kang 2014], ch. 4): a cleaner runs when free segments fall below a
 * watermark and orders victims per segment type (§4.2, p. 31); each type has its own
 * live-data threshold, data 80 % and metadata 60 % (§4.1, p. 27; §4.3, p. 34), because live
 * metadata dies soon and waiting leaves even less to copy, while data thresholds below 60 %
 * ran the flash out of space (§4.3.2, Fig. 4.3, p. 36). A block is eligible only at or
 * below its stream's threshold; among eligible blocks the policy (greedy or cost-benefit)
 * picks, and when none is eligible the best block overall is taken.
 *
 * Static wear-levelling: cold data pins young blocks, so when the spread of erase counts
 * passes wear_level_delta the least-worn block holding data is emptied; its data goes to
 * the GC stream, which allocates the most-worn free block ([Kang 2014, §7.2 and
 * §7.3.1.2]: swap hot and cold when a wear-level threshold is crossed). The least-worn
 * block may be a stream's open block: a stream that stopped writing (cold data written
 * once) would pin it forever, so it is closed and emptied like a full one. Free blocks go
 * to hot data least-worn first, data parked on worn blocks stops at a ceiling, and a
 * checkpoint does not take back the blocks it just released (ftl_alloc.c).
 *
 * The promise is SS_FTL_WL_SLACK (ss_ftl.h), tested by ftl_gc_ut's test_wear_spread.
 */
#include "ftl_internal.h"

#define GC_LOW_EXTRA 2u     /* foreground GC keeps the host reserve + this many blocks free */
#define GC_HIGH_EXTRA 6u    /* background GC works ahead of need up to the reserve + this */
#define WL_EVERY_GC 4u      /* foreground wear-levelling at most once per this many GCs */
#define LANE_GC_TRIES 2u    /* victims reclaimed to give a lane a block on its own dies */

static uint64_t victim_score(const struct ss_ftl *f, const struct ftl_block *k)
{
	uint64_t free_pages = f->ppb - k->valid, age;

	if (f->params.gc_policy == SS_GC_GREEDY || k->valid == 0) {
		return k->valid == 0 ? UINT64_MAX : free_pages;
	}
	/* (1 - u) * age / 2u with u = valid / ppb, scaled by ppb; age in programs. */
	age = f->next_seq > k->seq ? f->next_seq - k->seq : 1;
	if (age > (1ull << 40)) {
		age = 1ull << 40;
	}
	return free_pages * age * 16 / (2ull * k->valid);
}

/* Best victim among blocks first, first + step, ... (step = width: one lane's dies). */
static uint32_t pick_victim_in(const struct ss_ftl *f, bool allow_trim_blocks, uint32_t first,
			       uint32_t step)
{
	uint32_t best_elig = FTL_NONE, best_any = FTL_NONE;
	uint64_t score_elig = 0, score_any = 0;

	for (uint32_t b = first; b < f->nblocks; b += step) {
		const struct ftl_block *k = &f->blocks[b];
		uint32_t s, thr;
		uint64_t score;

		if (k->state != FTL_BLK_FULL || (k->flags & FTL_BF_STUCK)) {
			continue;
		}
		if (k->flags & FTL_BF_RETIRE) {
			/* Failed blocks go first; a fully valid one costs a block to empty. */
			if (k->valid < f->ppb || f->free_blocks > f->ckpt_blocks + f->width) {
				return b;
			}
			continue;
		}
		if (k->valid >= f->ppb) {
			continue;
		}
		if (!allow_trim_blocks && k->trim_seq > f->ckpt_seq) {
			continue;
		}
		score = victim_score(f, k);
		s = k->stream < SS_STREAM_COUNT ? k->stream : SS_STREAM_COLD;
		thr = f->params.clean_threshold_permille[s];
		if ((uint64_t)k->valid * 1000 <= (uint64_t)thr * f->ppb &&
		    (best_elig == FTL_NONE || score > score_elig)) {
			best_elig = b;
			score_elig = score;
		}
		if (best_any == FTL_NONE || score > score_any) {
			best_any = b;
			score_any = score;
		}
	}
	return best_elig != FTL_NONE ? best_elig : best_any;
}

static uint32_t pick_victim(const struct ss_ftl *f, bool allow_trim_blocks)
{
	return pick_victim_in(f, allow_trim_blocks, 0, 1);
}

int ftl_relocate(struct ss_ftl *f, uint32_t victim, uint64_t *moved)
{
	struct ftl_block *k = &f->blocks[victim];
	uint32_t slot[FTL_GC_BATCH];
	uint32_t ss = f->geo.spare_size;
	uint32_t p = 0;

	while (p < k->wp && k->valid > 0) {
		uint32_t n = 0;

		for (; p < k->wp && n < FTL_GC_BATCH; p++) {
			uint32_t ppn = ftl_ppn(f, victim, p);
			int rc;

			if (f->p2l[ppn] == FTL_NONE) {
				continue;
			}
			rc = ss_hal_page_read(f->hal, ppn, f->gcbuf + (size_t)n * f->page_size,
					      f->spare_gc + (size_t)n * ss);
			f->st.nand_page_reads++;
			if (rc != 0) {
				/* Cannot move it: leave the block and its data alone for good. */
				if ((k->flags & FTL_BF_RETIRE) && !(k->flags & FTL_BF_STUCK)) {
					f->retiring--;
				}
				k->flags |= FTL_BF_STUCK;
				return rc;
			}
			slot[n++] = ppn;
		}
		/* The programs carry the data just read. */
		ss_hal_barrier(f->hal);
		for (uint32_t i = 0; i < n; i++) {
			uint8_t *data = f->gcbuf + (size_t)i * f->page_size;
			uint32_t lpn = f->p2l[slot[i]], nppn, crc;
			struct ftl_spare sp;
			int rc;

			/* Keep the original CRC: a page corrupted on flash must not be laundered
			 * into a fresh, valid-looking copy. */
			if (ftl_spare_decode(f->spare_gc + (size_t)i * ss, &sp) == FTL_SPARE_OK) {
				crc = sp.data_crc;
			} else {
				crc = ~ss_crc32c(0, data, f->page_size);
			}
			rc = ftl_append(f, FTL_STREAM_GC, FTL_KIND_DATA, lpn, data, crc, &nppn);
			if (rc != 0) {
				return rc;
			}
			ftl_invalidate(f, slot[i]);
			f->l2p[lpn] = nppn;
			f->p2l[nppn] = lpn;
			f->blocks[nppn / f->ppb].valid++;
			(*moved)++;
		}
	}
	return 0;
}

/* Empty `victim` and erase it. \return 0 or negative errno. */
static int reclaim(struct ss_ftl *f, uint32_t victim, uint64_t *moved)
{
	struct ftl_block *k = &f->blocks[victim];
	int rc;

	/* Erasing a block that holds a trim record not yet in a checkpoint would let the
	 * trimmed pages come back: checkpoint first. */
	if (k->trim_seq > f->ckpt_seq) {
		rc = ftl_checkpoint(f);
		if (rc != 0) {
			return rc;
		}
	}
	rc = ftl_relocate(f, victim, moved);
	if (rc != 0) {
		return rc;
	}
	if (k->state == FTL_BLK_BAD || (k->flags & FTL_BF_RETIRE)) {
		return 0;
	}
	/* Once erased, the old copies are gone: the pages that replaced them and every trim
	 * must be durable first. */
	if (f->ntrims > 0) {
		rc = ftl_trims_write(f);
		if (rc != 0) {
			return rc;
		}
	}
	if (f->unsynced) {
		rc = ftl_sync(f);
		if (rc != 0) {
			return rc;
		}
	}
	ss_hal_barrier(f->hal);
	rc = ftl_erase_free(f, victim);
	if (rc == -SS_EIO) {
		return 0;   /* retired by ftl_erase_free; its data had moved */
	}
	if (rc != 0) {
		return rc;
	}
	k->state = FTL_BLK_FREE;
	k->flags = 0;
	f->free_blocks++;
	return 0;
}

/* GC one victim on the dies of `lane` (FTL_NONE: any die). */
static int gc_one_in(struct ss_ftl *f, uint32_t budget, uint32_t lane)
{
	uint32_t first = lane == FTL_NONE ? 0 : lane, step = lane == FTL_NONE ? 1 : f->width;
	uint64_t moved = 0;
	uint32_t v;
	int rc;

	v = pick_victim_in(f, false, first, step);
	if (v == FTL_NONE) {
		v = pick_victim_in(f, true, first, step);
	}
	if (v == FTL_NONE || f->blocks[v].valid > budget) {
		return 0;
	}
	rc = reclaim(f, v, &moved);
	f->st.gc_page_moves += moved;
	f->st.gc_runs++;
	f->gc_since_wl++;
	return rc != 0 ? rc : 1;
}

int ftl_gc_one(struct ss_ftl *f, uint32_t budget)
{
	return gc_one_in(f, budget, FTL_NONE);
}

/* An erase raised one block's count by one. A block that goes bad leaves the bounds valid
 * (it leaves the set); counts loaded at mount come before any check, with the bounds
 * still zeroed (unknown) by ftl_layout. */
void ftl_wear_erased(struct ss_ftl *f, uint32_t block)
{
	uint32_t now = f->blocks[block].erase_count;

	if (!f->wear_known) {
		return;
	}
	f->wear_hi = SS_MAX(f->wear_hi, now);
	if (now - 1 == f->wear_lo && --f->wear_at_lo == 0) {
		f->wear_known = false;   /* the least went up: recount at the next check */
	}
}

bool ftl_wear_level_needed(struct ss_ftl *f, uint32_t *victim)
{
	uint32_t max = 0, min = FTL_NONE, v = FTL_NONE, lo = UINT32_MAX, at_lo = 0;

	if (f->params.wear_level_delta == 0) {
		return false;
	}
	/* The spread a victim could show is within the bounds': no scan while they say so. */
	if (f->wear_known && f->wear_hi - f->wear_lo <= f->params.wear_level_delta) {
		return false;
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ftl_block *k = &f->blocks[b];

		if (k->state == FTL_BLK_BAD) {
			continue;
		}
		max = SS_MAX(max, k->erase_count);
		if (k->erase_count < lo) {
			lo = k->erase_count;
			at_lo = 0;
		}
		at_lo += k->erase_count == lo;
		if ((k->state == FTL_BLK_FULL || k->state == FTL_BLK_OPEN) && k->flags == 0 &&
		    k->erase_count < min) {
			min = k->erase_count;
			v = b;
		}
	}
	f->wear_known = at_lo > 0;
	f->wear_lo = lo;
	f->wear_hi = max;
	f->wear_at_lo = at_lo;
	if (v == FTL_NONE || max - min <= f->params.wear_level_delta) {
		return false;
	}
	*victim = v;
	return true;
}

static int wear_level_one(struct ss_ftl *f, uint32_t budget, uint64_t *moved)
{
	uint32_t v;
	int rc;

	if (f->free_blocks < ftl_reserve_host(f) + 1 || !ftl_wear_level_needed(f, &v) ||
	    f->blocks[v].valid > budget) {
		return 0;
	}
	if (f->blocks[v].state == FTL_BLK_OPEN) {
		ftl_close_block(f, v);   /* its stream starts a fresh block when it writes again */
		f->blocks[v].state = FTL_BLK_FULL;
	}
	rc = reclaim(f, v, moved);
	f->st.wear_level_moves += *moved;
	f->gc_since_wl = 0;
	return rc != 0 ? rc : 1;
}

/* A retiring block whose data can move now, or FTL_NONE. */
static uint32_t pick_retiring(const struct ss_ftl *f)
{
	for (uint32_t b = 0; b < f->nblocks && f->retiring > 0; b++) {
		const struct ftl_block *k = &f->blocks[b];

		if (k->state == FTL_BLK_FULL && (k->flags & FTL_BF_RETIRE) &&
		    !(k->flags & FTL_BF_STUCK) &&
		    (k->valid < f->ppb || f->free_blocks > f->ckpt_blocks + f->width)) {
			return b;
		}
	}
	return FTL_NONE;
}

static int move_retiring(struct ss_ftl *f)
{
	uint32_t v;

	for (uint32_t i = 0; i < f->nblocks && (v = pick_retiring(f)) != FTL_NONE; i++) {
		uint64_t moved = 0;
		int rc = reclaim(f, v, &moved);

		f->st.gc_page_moves += moved;
		if (rc != 0) {
			return rc;
		}
	}
	return 0;
}

/* GC is global, so a lane's dies can run out of free blocks while others have plenty:
 * reclaim a block on the lane's own dies before its stream has to leave them. */
static int lane_room(struct ss_ftl *f, uint32_t lane)
{
	for (uint32_t i = 0; i < LANE_GC_TRIES && !ftl_lane_has_free(f, lane); i++) {
		int rc = gc_one_in(f, UINT32_MAX, lane);

		if (rc <= 0) {
			return rc;
		}
	}
	return 0;
}

int ftl_make_room(struct ss_ftl *f, uint32_t lane)
{
	uint32_t target = ftl_reserve_host(f) + GC_LOW_EXTRA;
	int rc;

	rc = move_retiring(f);
	if (rc < 0 && rc != -SS_ENOSPC) {
		return rc;
	}
	/* The lane's GC and wear-levelling come first: moving a block's pages may open a
	 * fresh block on every GC lane, and the loop below restores the pool after them. */
	if (lane != FTL_NONE && f->width > 1) {
		rc = lane_room(f, lane);
		if (rc < 0 && rc != -SS_ENOSPC) {
			return rc;
		}
	}
	if (f->gc_since_wl >= WL_EVERY_GC) {
		uint64_t moved = 0;

		f->gc_since_wl = 0;
		rc = wear_level_one(f, UINT32_MAX, &moved);
		if (rc < 0 && rc != -SS_ENOSPC) {
			return rc;
		}
	}
	for (uint32_t i = 0; f->free_blocks < target && i < 2 * f->nblocks; i++) {
		rc = ftl_gc_one(f, UINT32_MAX);
		if (rc <= 0) {
			if (rc < 0 && rc != -SS_ENOSPC) {
				return rc;
			}
			break;
		}
	}
	return f->free_blocks > ftl_reserve_host(f) ? 0 : -SS_ENOSPC;
}

/* GC ahead of need or a retiring block to empty; the scans run only when either is
 * possible, so this is cheap on a drive with free blocks and nothing retiring. */
static bool gc_pending(const struct ss_ftl *ftl)
{
	return (ftl->free_blocks < ftl_reserve_host(ftl) + GC_HIGH_EXTRA &&
		pick_victim(ftl, true) != FTL_NONE) ||
	       (ftl->retiring > 0 && pick_retiring(ftl) != FTL_NONE);
}

static bool ckpt_due(const struct ss_ftl *ftl)
{
	return ftl->programs_since_ckpt > 0 &&
	       ftl->programs_since_ckpt >= ftl->params.checkpoint_interval_pages / 2;
}

int ss_ftl_background(struct ss_ftl *ftl, uint32_t max_page_moves)
{
	uint32_t high, v;
	uint64_t spent = 0;
	int rc = 0, more;

	if (ftl == NULL) {
		return -SS_EINVAL;
	}
	high = ftl_reserve_host(ftl) + GC_HIGH_EXTRA;
	ss_hal_set_timeline(ftl->hal, SS_HAL_TL_BACKGROUND);
	for (uint32_t i = 0; i < 2 * ftl->nblocks; i++) {
		uint64_t before = ftl->st.gc_page_moves + ftl->st.wear_level_moves;
		uint32_t budget = (uint32_t)SS_MIN(max_page_moves - spent, UINT32_MAX);

		if (ftl->retiring > 0 && pick_retiring(ftl) != FTL_NONE &&
		    ftl->blocks[pick_retiring(ftl)].valid <= budget) {
			uint64_t moved = 0;

			rc = reclaim(ftl, pick_retiring(ftl), &moved);
			ftl->st.gc_page_moves += moved;
			rc = rc != 0 ? rc : 1;
		} else if (ftl->free_blocks < high) {
			rc = ftl_gc_one(ftl, budget);
		} else {
			uint64_t moved = 0;

			rc = wear_level_one(ftl, budget, &moved);
		}
		spent += ftl->st.gc_page_moves + ftl->st.wear_level_moves - before;
		if (rc <= 0 || spent >= max_page_moves) {
			break;
		}
	}
	if (rc == -SS_ENOSPC) {
		rc = 0;
	}
	if (rc == 0 && ckpt_due(ftl)) {
		rc = ftl_checkpoint(ftl);
		if (rc == -SS_ENOSPC) {
			rc = 0;
		}
	}
	more = gc_pending(ftl) ||
	       (ftl->free_blocks > ftl_reserve_host(ftl) && ftl_wear_level_needed(ftl, &v));
	ss_hal_set_timeline(ftl->hal, SS_HAL_TL_HOST);
	return rc < 0 ? rc : more;
}

int ss_ftl_background_pending(const struct ss_ftl *ftl)
{
	if (ftl == NULL) {
		return 0;
	}
	return gc_pending(ftl) || ckpt_due(ftl);
}
