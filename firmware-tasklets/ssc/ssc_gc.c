/*
 * Free space (§4.3.3): allocation, log-block recycling by merges, and silent eviction.
 *
 * Writes append to one open log block (page-mapped). A new log block comes from the free
 * pool; when the log is at its cap the oldest log block is recycled first (FAST style): a
 * switch merge when it holds exactly one group in order, else a full merge of every group
 * it holds into a fresh data block. When free blocks run short, silent eviction drops a
 * data block holding no dirty page, chosen by cost/benefit (clean valid pages against
 * age, as LFS segment cleaning); without a candidate the cache falls back to merging log
 * blocks, and when everything is dirty a write fails with -SS_ENOSPC.
 *
 *   SSC    the log is fixed at log_cap blocks; data blocks never exceed data_cap, so an
 *          evicted data block only ever becomes a data block again.
 *   SSC-V  the log may grow to log_cap while silent eviction supplies free blocks, and
 *          shrinks by merging when it cannot: a variable log share. Recycling a log block
 *          also evicts its clean pages instead of merging them ("silent eviction ... with
 *          merge operations for SSC-V when recycling log blocks", §4.4.1).
 *
 * Static wear-levelling (as the FTL's, ftl_gc.c): data the host never rewrites, cleans or
 * evicts pins its block's erase count while the pool cycles through the rest. When the
 * most erased good block is more than wl_delta ahead of the least erased data block,
 * that block's group is fully merged onto the most erased free block, and the cold block
 * goes back to the pool, where its low count makes it the next block taken.
 */
#include "ssc_internal.h"

/* Cap ages so cost * age products stay within 64 bits. */
#define AGE_MAX (1ull << 48)

/* The record that freed a block must be durable before its data is gone. A group commit:
 * in a write-clean it is made off the command's path, and the erase waits for it
 * (erase_committed), not the command. */
static int commit_before_erase(struct ss_ssc *c)
{
	return c->pending ? ssc_group_commit(c) : 0;
}

/* Erase a block whose freeing record is committed. \return the flash's answer. */
static int erase_committed(struct ss_ssc *c, uint32_t block)
{
	int rc;

	if (c->blocks[block].seq != 0) {
		ssc_wait_behind(c);   /* its record may be in a commit made off the path */
	}
	rc = ss_hal_block_erase(c->hal, block);

	c->st.block_erases++;
	c->blocks[block].erase_count++;
	if (rc == 0) {
		c->blocks[block].flags &= (uint8_t)~SSC_BF_NEED_ERASE;
	}
	return rc;
}


/* Retire free block b for good: durable before anything relies on it being gone. */
static int retire(struct ss_ssc *c, uint32_t b)
{
	struct ssc_rec r = { .type = SSC_R_RETIRE, .block = b };
	int rc = ssc_log(c, &r);

	return rc ? rc : ssc_commit(c);
}

/* Worn out: erased as often as the flash is rated for (the profile's endurance). */
static bool worn(const struct ss_ssc *c, uint32_t b)
{
	return c->hal->endurance != 0 && c->blocks[b].erase_count >= c->hal->endurance;
}

enum pick {
	PICK_LEAST_ERASED,
	PICK_MOST_ERASED,
	/* least erased among the blocks whose freeing record is committed, if any (a log
	 * block: see alloc_log_block) */
	PICK_LEAST_ERASED_SETTLED,
};

static bool better(const struct ss_ssc *c, enum pick how, uint32_t b, uint32_t best)
{
	return best == SSC_NONE ||
	       (how == PICK_MOST_ERASED ? c->blocks[b].erase_count > c->blocks[best].erase_count
					: c->blocks[b].erase_count < c->blocks[best].erase_count);
}

/* Wear-aware: the free block erased least often (most often for static wear-levelling's
 * cold data, which then wears it no further). A free block due for an erase that is
 * worn out, or whose erase fails, is retired instead (free blocks hold nothing: the
 * records that freed them moved their dirty pages or dropped clean ones). The last
 * `slot_blocks` usable free blocks are the next checkpoint's: without them no state
 * change could become durable, so the cache refuses writes first.
 * \return 0 with *out, 1 when a block was retired (the caller checks its room again),
 *         -SS_ENOSPC when no block is free, or an error. */
static int take_free_by(struct ss_ssc *c, enum pick how, uint32_t *out)
{
	uint32_t best = SSC_NONE, settled = SSC_NONE, usable = 0, worn_out = SSC_NONE;
	int rc;

	for (uint32_t b = 0; b < c->nblocks; b++) {
		const struct ssc_block *blk = &c->blocks[b];

		if (blk->state != SSC_BLK_FREE || b == c->open) {
			continue;
		}
		if ((blk->flags & SSC_BF_NEED_ERASE) && worn(c, b)) {
			worn_out = b;
			continue;
		}
		usable++;
		if (better(c, how, b, best)) {
			best = b;
		}
		if ((!(blk->flags & SSC_BF_NEED_ERASE) || blk->seq <= c->committed_seq) &&
		    better(c, how, b, settled)) {
			settled = b;
		}
	}
	if (worn_out != SSC_NONE) {
		rc = retire(c, worn_out);
		return rc ? rc : 1;
	}
	if (how == PICK_LEAST_ERASED_SETTLED && settled != SSC_NONE) {
		best = settled;
	}
	if (best == SSC_NONE || usable <= c->slot_blocks) {
		return -SS_ENOSPC;
	}
	if (c->blocks[best].flags & SSC_BF_NEED_ERASE) {
		rc = commit_before_erase(c);
		if (rc) {
			return rc;  /* not the block's fault: an -SS_EIO here is the log's */
		}
		if (c->blocks[best].state != SSC_BLK_FREE) {
			return 1;   /* the commit wrote a checkpoint, which took the block */
		}
		rc = erase_committed(c, best);
		if (rc == -SS_EIO) {
			rc = retire(c, best);
			return rc ? rc : 1;
		}
		if (rc) {
			return rc;
		}
	}
	*out = best;
	return 0;
}

static int take_free(struct ss_ssc *c, uint32_t *out)
{
	return take_free_by(c, PICK_LEAST_ERASED, out);
}

int ssc_take_meta_block(struct ss_ssc *c, uint32_t *out)
{
	for (;;) {
		uint32_t best = SSC_NONE;
		struct ssc_block *blk;
		int rc;

		for (uint32_t b = 0; b < c->nblocks; b++) {
			blk = &c->blocks[b];
			/* not one freed by a record still pending (the durable state may need
			 * its data until this checkpoint counts), nor a worn one (the writes'
			 * path retires those, with a record) */
			if (blk->state == SSC_BLK_FREE && b != c->open &&
			    (!(blk->flags & SSC_BF_NEED_ERASE) ||
			     (blk->seq <= c->committed_seq && !worn(c, b))) &&
			    (best == SSC_NONE || blk->erase_count < c->blocks[best].erase_count)) {
				best = b;
			}
		}
		if (best == SSC_NONE) {
			return -SS_ENOSPC;
		}
		blk = &c->blocks[best];
		if (blk->flags & SSC_BF_NEED_ERASE) {
			rc = erase_committed(c, best);
			if (rc == -SS_EIO) {
				struct ssc_rec r = { .type = SSC_R_RETIRE, .block = best };

				/* no log record: the log may be what is being folded into this
				 * checkpoint, which records the block as retired */
				rc = ssc_apply(c, &r);
				if (rc) {
					return rc;
				}
				continue;
			}
			if (rc) {
				return rc;
			}
		}
		blk->state = SSC_BLK_META;
		blk->flags = 0;
		c->free_count--;
		*out = best;
		return 0;
	}
}

static uint64_t age_of(const struct ss_ssc *c, const struct ssc_block *blk)
{
	uint64_t age = c->seq - blk->seq + 1;

	return age > AGE_MAX ? AGE_MAX : age;
}

/* \return 0 when a block was evicted, 1 when no data block is free of dirty pages. */
static int silent_evict_one(struct ss_ssc *c)
{
	uint32_t best = SSC_NONE;
	struct ssc_rec r = { .type = SSC_R_SILENT };

	for (uint32_t b = 0; b < c->nblocks; b++) {
		const struct ssc_block *blk = &c->blocks[b];

		if (blk->state != SSC_BLK_DATA || blk->dirty != 0) {
			continue;
		}
		/* minimum cost/benefit: valid/age below the best's, cross-multiplied */
		if (best == SSC_NONE ||
		    (uint64_t)blk->valid * age_of(c, &c->blocks[best]) <
			    (uint64_t)c->blocks[best].valid * age_of(c, blk)) {
			best = b;
		}
	}
	if (best == SSC_NONE) {
		return 1;
	}
	r.block = best;
	return ssc_log(c, &r);
}

static int alloc_data_block(struct ss_ssc *c, uint64_t group, uint32_t *out)
{
	for (;;) {
		uint32_t old, replaces = ssc_map_get(&c->block_map, group, &old) == 0;
		int rc;

		if (c->free_count >= 1 + ssc_meta_free_reserve(c) &&
		    c->data_count - replaces < c->data_cap) {
			rc = take_free(c, out);
			if (rc != 1) {
				return rc;
			}
			continue;
		}
		rc = silent_evict_one(c);
		if (rc) {
			return rc > 0 ? -SS_ENOSPC : rc;
		}
	}
}

/* Full merge of `group` into free block nb, taken and erased: its cached blocks are
 * copied in offset order, then the SSC_R_MERGE record maps the group to nb and frees its
 * old data block (erased only once the record is committed). A crash before the record is
 * durable leaves the group where it was and nb free, erased again before use.
 * \return 0 (also when nothing of the group is cached: nb stays free), or an error. */
static int full_merge_into(struct ss_ssc *c, uint64_t group, uint32_t nb)
{
	struct ssc_rec r = { .type = SSC_R_MERGE, .key = group };
	uint64_t first = group * c->ppb;
	uint32_t page = 0;
	bool any = false;
	int rc;

	for (uint32_t i = 0; i < c->ppb; i++) {
		struct ssc_loc loc;

		any |= ssc_locate(c, first + i, &loc) == 0;
	}
	if (!any) {
		return 0;
	}
	for (uint32_t i = 0; i < c->ppb; i++) {
		struct ssc_spare s;
		struct ssc_loc loc;

		if (ssc_locate(c, first + i, &loc)) {
			continue;
		}
		rc = ssc_read_page(c, loc.ppn, c->buf, &s);
		if (rc == 0 && s.lba != first + i) {
			rc = -SS_EIO;
		}
		if (rc) {
			return rc;
		}
		s.kind = SSC_KIND_DATA;
		s.dirty = loc.dirty;
		s.seq = c->seq + 1;
		c->st.merge_page_copies++;
		rc = ssc_program(c, ssc_ppn(c, nb, page++), c->buf, &s);
		if (rc) {
			/* nb is still free but partly programmed: erase it before any use */
			c->blocks[nb].flags |= SSC_BF_NEED_ERASE;
			return rc;
		}
	}
	r.block = nb;
	c->st.full_merges++;
	return ssc_log(c, &r);
}

static int full_merge(struct ss_ssc *c, uint64_t group)
{
	uint32_t nb;
	int rc;

	/* locate after allocating (full_merge_into does): allocation may have evicted part of
	 * the group */
	rc = alloc_data_block(c, group, &nb);
	return rc ? rc : full_merge_into(c, group, nb);
}

/* Static wear-levelling, as the FTL's ftl_wear_level_needed() decides it: the spread
 * between the most erased good block and the least erased block holding data. Only data
 * blocks can be cold: log blocks are recycled in FIFO order, checkpoint blocks go back to
 * the pool at the next checkpoint. \return true with *victim when it passes wl_delta. */
static bool wear_level_needed(const struct ss_ssc *c, uint32_t *victim)
{
	uint32_t max = 0, min = UINT32_MAX, v = SSC_NONE;

	for (uint32_t b = 0; b < c->nblocks; b++) {
		const struct ssc_block *blk = &c->blocks[b];

		if (blk->state == SSC_BLK_BAD || blk->state == SSC_BLK_RETIRED) {
			continue;
		}
		max = SS_MAX(max, blk->erase_count);
		if (blk->state == SSC_BLK_DATA && blk->erase_count < min) {
			min = blk->erase_count;
			v = b;
		}
	}
	if (v == SSC_NONE || max - min <= c->wl_delta) {
		return false;
	}
	*victim = v;
	return true;
}

/* Move the coldest data block's group onto the most erased free block (a full merge, the
 * one record SSC_R_MERGE: atomic and durable as any merge), returning the cold block to
 * the pool, where its low count makes it the next block taken. At most one per wl_every
 * erases, and only with a free block beyond the checkpoints' reserve, as any merge:
 * levelling never evicts cached data to make room (it runs after a log block's allocation,
 * which did). \return 0 (also when nothing was done) or an error of the flash or the log. */
static int wear_level_step(struct ss_ssc *c)
{
	uint64_t copies = c->st.merge_page_copies;
	uint32_t v, nb;
	int rc;

	if (c->st.block_erases - c->wl_last_erases < c->wl_every ||
	    c->free_count < 1 + ssc_meta_free_reserve(c) || !wear_level_needed(c, &v)) {
		return 0;
	}
	c->wl_last_erases = c->st.block_erases;
	if (c->blocks[v].valid == 0) {
		/* every page of it was evicted or rewritten: nothing to move, only to free
		 * (the group's log pages, if any, stay where they are) */
		struct ssc_rec r = { .type = SSC_R_SILENT, .block = v };

		rc = ssc_log(c, &r);
		c->st.wear_level_migrations += rc == 0;
		return rc;
	}
	rc = take_free_by(c, PICK_MOST_ERASED, &nb);
	if (rc) {
		return rc == 1 || rc == -SS_ENOSPC ? 0 : rc;
	}
	if (c->blocks[v].state != SSC_BLK_DATA) {
		return 0;   /* the commit before nb's erase wrote a checkpoint, or so: next time */
	}
	rc = full_merge_into(c, c->blocks[v].group, nb);
	if (rc == 0) {
		c->st.wear_level_migrations++;
		c->st.wear_level_copies += c->st.merge_page_copies - copies;
	}
	return rc;
}

/* Silent eviction is free-space management (FlashTier, Saxena, Swift, Zhang, EuroSys 2012,
 * §4.3; Saxena 2013, §4.3.3): it drops clean data to make free blocks, so it drops none
 * while a merge can take a free block beyond the reserve alloc_log_block keeps (a merge
 * target and the checkpoints') and the data cap has room. Recycling SSC-V's log block by
 * evicting its clean pages regardless kept about a log's worth (20 %) of a read cache's
 * data set whose files do not end on a group: such log blocks are never switchable. */
static bool short_of_free(const struct ss_ssc *c)
{
	return c->free_count < 2 + ssc_meta_free_reserve(c) || c->data_count >= c->data_cap;
}

/* Does log block L hold exactly one group, page i at offset i, every page valid? */
static int switchable(struct ss_ssc *c, uint32_t L, uint64_t *group)
{
	struct ssc_spare s;
	uint64_t first;
	int rc;

	if (c->blocks[L].valid != c->ppb) {
		return 0;
	}
	rc = ssc_read_page(c, ssc_ppn(c, L, 0), NULL, &s);
	if (rc) {
		return rc;
	}
	if (s.lba % c->ppb != 0 || s.lba / c->ppb > (UINT64_MAX - (c->ppb - 1)) / c->ppb) {
		return 0;
	}
	first = s.lba;
	for (uint32_t i = 0; i < c->ppb; i++) {
		uint32_t v;

		if (ssc_map_get(&c->page_map, first + i, &v) || v != ssc_ppn(c, L, i)) {
			return 0;
		}
	}
	*group = first / c->ppb;
	return 1;
}

/* Recycle the oldest log block. \return 0, 1 when there is no log block, or an error. */
static int recycle_oldest(struct ss_ssc *c)
{
	uint32_t L = SSC_NONE;
	struct ssc_rec r;
	uint64_t group = 0;
	int rc;

	for (uint32_t b = 0; b < c->nblocks; b++) {
		if (c->blocks[b].state == SSC_BLK_LOG &&
		    (L == SSC_NONE || c->blocks[b].born < c->blocks[L].born)) {
			L = b;
		}
	}
	if (L == SSC_NONE) {
		return 1;
	}
	if (c->open == L) {
		c->open = SSC_NONE;
	}
	rc = switchable(c, L, &group);
	if (rc < 0) {
		return rc;
	}
	if (rc == 1) {
		r = (struct ssc_rec){ .type = SSC_R_SWITCH, .key = group, .block = L };
		c->st.switch_merges++;
		return ssc_log(c, &r);
	}
	for (uint32_t i = 0; i < c->blocks[L].wp && c->blocks[L].valid != 0; i++) {
		struct ssc_spare s;

		if (!ssc_bit(c->valid_bm, c, L, i)) {
			continue;
		}
		/* the reverse map in the spare names the block this page caches */
		rc = ssc_read_page(c, ssc_ppn(c, L, i), NULL, &s);
		if (rc) {
			return rc;
		}
		if (c->params.policy == SS_SSC_POLICY_SSC_V && !ssc_bit(c->dirty_bm, c, L, i) &&
		    short_of_free(c)) {
			/* SSC-V evicts the victim's clean pages instead of merging them (§4.4.1),
			 * when free blocks are short: with room, a merge keeps them */
			r = (struct ssc_rec){ .type = SSC_R_UNMAP, .key = s.lba };
			rc = ssc_log(c, &r);
			if (rc) {
				return rc;
			}
			if (ssc_bit(c->valid_bm, c, L, i)) {
				return -SS_EBADMSG;
			}
			c->st.silent_evicted_pages++;
			continue;
		}
		rc = full_merge(c, s.lba / c->ppb);
		if (rc) {
			return rc;
		}
		if (ssc_bit(c->valid_bm, c, L, i)) {
			return -SS_EBADMSG;  /* the spare named a block this page does not hold */
		}
	}
	r = (struct ssc_rec){ .type = SSC_R_FREE, .block = L };
	return ssc_log(c, &r);
}

static int alloc_log_block(struct ss_ssc *c, uint32_t *out)
{
	int rc;

	if (c->log_count >= c->log_cap) {
		rc = recycle_oldest(c);
		if (rc) {
			return rc > 0 ? -SS_ENOSPC : rc;
		}
	}
	do {
		/* keep one free block for the target of a merge, and the checkpoints' */
		while (c->free_count < 2 + ssc_meta_free_reserve(c) || c->log_count >= c->log_cap) {
			rc = c->log_count < c->log_cap ? silent_evict_one(c) : 1;
			if (rc == 1) {
				rc = recycle_oldest(c);
			}
			if (rc) {
				return rc > 0 ? -SS_ENOSPC : rc;
			}
		}
		/* Not the log block just recycled, whose freeing record is pending, while
		 * another is free: taking it back at once kept the log on the same few blocks,
		 * erased once per turn of the log while data blocks churn through merges (the
		 * homes trace: log blocks at 117 erases, data blocks at 174-184). Left free, the
		 * next merge takes it; and no commit is forced. */
		rc = take_free_by(c, PICK_LEAST_ERASED_SETTLED, out);
	} while (rc == 1);
	return rc;
}

int ssc_open_log_page(struct ss_ssc *c, uint32_t *ppn)
{
	int rc;

	if (c->open == SSC_NONE || c->blocks[c->open].wp >= c->ppb) {
		uint32_t b;

		c->open = SSC_NONE;
		rc = alloc_log_block(c, &b);
		if (rc) {
			return rc;
		}
		c->open = b;
		c->blocks[b].wp = 0;
		/* after the allocation, which made room: a full cache levels too */
		rc = wear_level_step(c);
		if (rc) {
			return rc;
		}
	}
	*ppn = ssc_ppn(c, c->open, c->blocks[c->open].wp);
	return 0;
}
