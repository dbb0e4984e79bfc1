/*
 * Every change to the cache's DRAM state, as the application of one log record. Live
 * operations do their flash work, then log (and so apply) a record; mount replays the
 * committed records through the same functions. A record that does not fit the state it
 * is applied to is a corrupt log: -SS_EBADMSG.
 */
#include "ssc_internal.h"

int ssc_locate(const struct ss_ssc *c, uint64_t lba, struct ssc_loc *loc)
{
	uint32_t v;

	if (ssc_map_get(&c->page_map, lba, &v) == 0) {
		loc->ppn = v;
		loc->dirty = ssc_bit(c->dirty_bm, c, v / c->ppb, v % c->ppb);
		return 0;
	}
	if (ssc_map_get(&c->block_map, lba / c->ppb, &v) == 0 &&
	    ssc_bit(c->layout_bm, c, v, (uint32_t)(lba % c->ppb))) {
		uint32_t p = ssc_rank(c, v, (uint32_t)(lba % c->ppb));

		if (ssc_bit(c->valid_bm, c, v, p)) {
			loc->ppn = ssc_ppn(c, v, p);
			loc->dirty = ssc_bit(c->dirty_bm, c, v, p);
			return 0;
		}
	}
	return 1;
}

static void page_drop(struct ss_ssc *c, uint32_t ppn)
{
	uint32_t b = ppn / c->ppb, i = ppn % c->ppb;

	if (ssc_bit(c->dirty_bm, c, b, i)) {
		ssc_bit_clear(c->dirty_bm, c, b, i);
		c->blocks[b].dirty--;
		c->dirty--;
	}
	ssc_bit_clear(c->valid_bm, c, b, i);
	c->blocks[b].valid--;
	c->cached--;
}

static void page_add(struct ss_ssc *c, uint32_t ppn, bool dirty)
{
	uint32_t b = ppn / c->ppb, i = ppn % c->ppb;

	ssc_bit_set(c->valid_bm, c, b, i);
	c->blocks[b].valid++;
	c->cached++;
	if (dirty) {
		ssc_bit_set(c->dirty_bm, c, b, i);
		c->blocks[b].dirty++;
		c->dirty++;
	}
}

/* Forget where lba is cached. \return 1 when it was not. */
static int unlink_lba(struct ss_ssc *c, uint64_t lba)
{
	struct ssc_loc loc;

	if (ssc_locate(c, lba, &loc)) {
		return 1;
	}
	if (c->blocks[loc.ppn / c->ppb].state == SSC_BLK_LOG) {
		ssc_map_del(&c->page_map, lba);
	}
	page_drop(c, loc.ppn);
	return 0;
}

/* Block b freed by the record with sequence number seq: it may be erased once that
 * record is committed (seq, which a free block keeps, says when). */
static void block_free(struct ss_ssc *c, uint32_t b, uint64_t seq)
{
	struct ssc_block *blk = &c->blocks[b];

	if (blk->state == SSC_BLK_LOG) {
		c->log_count--;
	} else if (blk->state == SSC_BLK_DATA) {
		ssc_map_del(&c->block_map, blk->group);
		c->data_count--;
	}
	if (c->open == b) {
		c->open = SSC_NONE;
	}
	blk->state = SSC_BLK_FREE;
	blk->flags |= SSC_BF_NEED_ERASE;
	blk->seq = seq;
	blk->valid = 0;
	blk->dirty = 0;
	blk->wp = 0;
	ss_memset(&c->valid_bm[b * c->bm_words], 0, c->bm_words * 4);
	ss_memset(&c->dirty_bm[b * c->bm_words], 0, c->bm_words * 4);
	ss_memset(&c->layout_bm[b * c->bm_words], 0, c->bm_words * 4);
	c->free_count++;
}

static bool cache_block(const struct ss_ssc *c, uint32_t b)
{
	return b < c->nblocks && c->blocks[b].state != SSC_BLK_BAD &&
	       c->blocks[b].state != SSC_BLK_RETIRED && c->blocks[b].state != SSC_BLK_META;
}

static int apply_map(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t b = r->block / c->ppb, page = r->block % c->ppb;
	struct ssc_block *blk;
	int rc;

	if (!cache_block(c, b) || r->key == SSC_KEY_EMPTY) {
		return -SS_EBADMSG;
	}
	blk = &c->blocks[b];
	if (blk->state == SSC_BLK_FREE) {
		if (c->log_count >= c->log_cap) {
			return -SS_EBADMSG;
		}
		blk->state = SSC_BLK_LOG;
		blk->flags &= (uint8_t)~SSC_BF_NEED_ERASE;
		blk->born = r->seq;
		c->free_count--;
		c->log_count++;
	} else if (blk->state != SSC_BLK_LOG) {
		return -SS_EBADMSG;
	}
	if (page < blk->wp && ssc_bit(c->valid_bm, c, b, page)) {
		return -SS_EBADMSG;
	}
	unlink_lba(c, r->key);
	rc = ssc_map_put(&c->page_map, r->key, r->block);
	if (rc) {
		return rc == -SS_ENOSPC ? -SS_EBADMSG : rc;
	}
	page_add(c, r->block, r->dirty != 0);
	if (r->dirty) {
		c->st.dirty_written_blocks++;
	} else {
		c->st.filled_blocks++;
	}
	blk->seq = r->seq;
	if (page + 1u > blk->wp) {
		blk->wp = (uint16_t)(page + 1);
	}
	return 0;
}

static int apply_clean(struct ss_ssc *c, const struct ssc_rec *r)
{
	struct ssc_loc loc;
	uint32_t b, i;

	if (ssc_locate(c, r->key, &loc) || !loc.dirty) {
		return 0;
	}
	b = loc.ppn / c->ppb;
	i = loc.ppn % c->ppb;
	ssc_bit_clear(c->dirty_bm, c, b, i);
	c->blocks[b].dirty--;
	c->dirty--;
	c->st.cleaned_blocks++;
	return 0;
}

/* Full merge: the group's cached blocks move to block B, packed in offset order (no
 * holes: flash pages are programmed in order, and a hole would cost a filler page). The
 * group's old data block is freed; log pages of the group become invalid. */
static int apply_merge(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t nb = r->block, old;
	struct ssc_block *blk;
	uint64_t first = r->key * c->ppb;

	if (!cache_block(c, nb) || c->blocks[nb].state != SSC_BLK_FREE ||
	    r->key > (UINT64_MAX - (c->ppb - 1)) / c->ppb) {
		return -SS_EBADMSG;
	}
	blk = &c->blocks[nb];
	blk->state = SSC_BLK_DATA;
	blk->flags &= (uint8_t)~SSC_BF_NEED_ERASE;
	blk->group = r->key;
	blk->seq = r->seq;
	blk->wp = 0;
	c->free_count--;
	c->data_count++;
	for (uint32_t i = 0; i < c->ppb; i++) {
		struct ssc_loc loc;

		if (ssc_locate(c, first + i, &loc)) {
			continue;
		}
		unlink_lba(c, first + i);
		page_add(c, ssc_ppn(c, nb, blk->wp), loc.dirty);
		ssc_bit_set(c->layout_bm, c, nb, i);
		blk->wp++;
	}
	if (ssc_map_get(&c->block_map, r->key, &old) == 0) {
		if (c->blocks[old].valid != 0) {
			return -SS_EBADMSG;
		}
		block_free(c, old, r->seq);
	}
	return ssc_map_put(&c->block_map, r->key, nb) ? -SS_EBADMSG : 0;
}

/* Switch merge: log block L holds exactly the group in order, so it becomes the data
 * block without copying. */
static int apply_switch(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t L = r->block, old;
	uint64_t first = r->key * c->ppb;

	if (!cache_block(c, L) || c->blocks[L].state != SSC_BLK_LOG ||
	    r->key > (UINT64_MAX - (c->ppb - 1)) / c->ppb) {
		return -SS_EBADMSG;
	}
	for (uint32_t i = 0; i < c->ppb; i++) {
		uint32_t v;

		if (ssc_map_get(&c->page_map, first + i, &v) || v != ssc_ppn(c, L, i)) {
			return -SS_EBADMSG;
		}
	}
	if (ssc_map_get(&c->block_map, r->key, &old) == 0) {
		if (c->blocks[old].valid != 0) {
			return -SS_EBADMSG;
		}
		block_free(c, old, r->seq);
	}
	for (uint32_t i = 0; i < c->ppb; i++) {
		ssc_map_del(&c->page_map, first + i);
	}
	if (c->open == L) {
		c->open = SSC_NONE;
	}
	c->blocks[L].state = SSC_BLK_DATA;
	c->blocks[L].group = r->key;
	for (uint32_t i = 0; i < c->ppb; i++) {
		ssc_bit_set(c->layout_bm, c, L, i);   /* page i holds offset i */
	}
	c->log_count--;
	c->data_count++;
	return ssc_map_put(&c->block_map, r->key, L) ? -SS_EBADMSG : 0;
}

/* Silent eviction (§4.3.3): drop the mappings of a data block holding no dirty page. */
static int apply_silent(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t b = r->block;
	struct ssc_block *blk;

	if (!cache_block(c, b) || c->blocks[b].state != SSC_BLK_DATA || c->blocks[b].dirty != 0) {
		return -SS_EBADMSG;
	}
	blk = &c->blocks[b];
	if (!c->replaying) {
		c->st.silent_evicted_pages += blk->valid;
		c->st.silent_evicted_blocks++;
	}
	c->cached -= blk->valid;
	blk->valid = 0;
	block_free(c, b, r->seq);
	return 0;
}

static int apply_free(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t b = r->block;

	if (!cache_block(c, b) || c->blocks[b].state != SSC_BLK_LOG || c->blocks[b].valid != 0) {
		return -SS_EBADMSG;
	}
	block_free(c, b, r->seq);
	return 0;
}

/* A free block worn out: out of the pool and the data cap for good. Its last contents
 * were dropped (clean) or moved (dirty) by the records that freed it. */
static int apply_retire(struct ss_ssc *c, const struct ssc_rec *r)
{
	uint32_t b = r->block;

	if (!cache_block(c, b) || c->blocks[b].state != SSC_BLK_FREE || c->open == b) {
		return -SS_EBADMSG;
	}
	c->blocks[b].state = SSC_BLK_RETIRED;
	c->blocks[b].flags = 0;
	c->free_count--;
	ssc_shrink_for_retired(c);
	return 0;
}

static void apply_unmap(struct ss_ssc *c, const struct ssc_rec *r)
{
	if (unlink_lba(c, r->key) == 0 && r->dirty == SSC_UNMAP_HOST) {
		c->st.evicted_blocks++;
	}
}

int ssc_apply(struct ss_ssc *c, const struct ssc_rec *r)
{
	ssc_ra_drop(c);
	switch (r->type) {
	case SSC_R_MAP:
		return apply_map(c, r);
	case SSC_R_UNMAP:
		apply_unmap(c, r);
		return 0;
	case SSC_R_CLEAN:
		return apply_clean(c, r);
	case SSC_R_MERGE:
		return apply_merge(c, r);
	case SSC_R_SWITCH:
		return apply_switch(c, r);
	case SSC_R_SILENT:
		return apply_silent(c, r);
	case SSC_R_FREE:
		return apply_free(c, r);
	case SSC_R_RETIRE:
		return apply_retire(c, r);
	default:
		return -SS_EBADMSG;
	}
}
