/*
 * Format, mount (newest intact checkpoint + roll-forward over the operation log, §4.3.2
 * "Recovery"), unmount, statistics.
 *
 * After a crash a free block may hold pages of operations whose records never reached the
 * log, and the last log block may hold pages past its last record: mount marks every
 * free block for erasure before use, never reopens a log block, and starts a new
 * checkpoint, so the log it appends to is fresh.
 */
#include "ssc_internal.h"

int ss_ssc_format(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
		  const struct ss_ssc_params *p)
{
	struct ss_ssc_params old;
	struct ssc_found found;
	uint32_t bad = 0;
	struct ss_ssc *c;
	int rc;

	if (out == NULL || hal == NULL || p == NULL) {
		return -SS_EINVAL;
	}
	rc = ssc_layout(&c, hal, dram, dram_size, p);
	if (rc) {
		return rc;
	}
	/* Epochs go on past any checkpoint page an earlier format left, so that one, should it
	 * survive in a block that now fails its erase, is never the newest at mount. */
	ssc_ckpt_find(hal, c->ckpt_body_pages, c->ckpt_blocks, c->buf, c->spare, &found, &old);
	c->next_epoch = found.max_epoch + 1;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		rc = ss_hal_block_erase(hal, b);
		c->st.block_erases++;
		c->blocks[b].erase_count = 1;
		/* A block that cannot be erased (factory bad, or worn out in an earlier life) is
		 * left out for good, as the FTL retires one: marked BAD, which the checkpoint
		 * keeps. */
		if (rc == -SS_EIO) {
			c->blocks[b].state = SSC_BLK_BAD;
			c->free_count--;
			bad++;
			continue;
		}
		if (rc) {
			return rc;
		}
	}
	rc = ssc_exclude_bad(c, bad);
	if (rc) {
		return rc;
	}
	rc = ssc_checkpoint(c);
	if (rc) {
		return rc;
	}
	*out = c;
	return 0;
}

/* Find the newest checkpoint with the arena as scratch until the layout is known. */
static int find_newest(struct ss_hal *hal, void *dram, uint64_t dram_size, struct ssc_found *f,
		       struct ss_ssc_params *p)
{
	uint32_t body, ck, la;

	if (hal == NULL || dram == NULL) {
		return -SS_EINVAL;
	}
	if (hal->geo.page_size < 512 || hal->geo.spare_size < SSC_SPARE_BYTES ||
	    dram_size < (uint64_t)hal->geo.page_size + hal->geo.spare_size) {
		return hal->geo.page_size < 512 || hal->geo.spare_size < SSC_SPARE_BYTES ? -SS_EINVAL
											  : -SS_ENOMEM;
	}
	ssc_meta_layout(&hal->geo, &body, &ck, &la);
	return ssc_ckpt_find(hal, body, ck, dram, (uint8_t *)dram + hal->geo.page_size, f, p);
}

int ss_ssc_image_version(struct ss_hal *hal, void *dram, uint64_t dram_size, uint32_t *version)
{
	struct ss_ssc_params p;
	struct ssc_found f;
	int rc = find_newest(hal, dram, dram_size, &f, &p);

	if (rc == 0 || rc == -SS_EPROTO) {
		*version = f.version;
		return 0;
	}
	return rc;
}

int ss_ssc_mount(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size)
{
	struct ss_ssc_params p;
	struct ssc_found f;
	struct ss_ssc *c;
	int rc;

	if (out == NULL) {
		return -SS_EINVAL;
	}
	rc = find_newest(hal, dram, dram_size, &f, &p);
	if (rc) {
		return rc;
	}
	rc = ssc_layout(&c, hal, dram, dram_size, &p);
	if (rc) {
		return rc == -SS_EINVAL ? -SS_EBADMSG : rc;
	}
	rc = ssc_ckpt_load(c, &f);
	if (rc == 0) {
		rc = ssc_replay(c);
	}
	if (rc) {
		return rc;
	}
	for (uint32_t b = 0; b < c->nblocks; b++) {
		if (c->blocks[b].state == SSC_BLK_FREE) {
			c->blocks[b].flags |= SSC_BF_NEED_ERASE;
		}
	}
	c->open = SSC_NONE;
	rc = ssc_checkpoint(c);
	if (rc == -SS_ENOSPC) {
		/* Worn out: no free block left for a checkpoint. The cache still serves reads
		 * (the dirty data must be readable to be written back); its log is closed, as
		 * its end may be torn, so anything that must become durable fails. */
		c->log_page = c->log_area_blocks * c->ppb;
		rc = 0;
	}
	if (rc) {
		return rc;
	}
	*out = c;
	return 0;
}

int ss_ssc_unmount(struct ss_ssc *c)
{
	int rc = ssc_sync(c);

	return rc ? rc : ssc_checkpoint(c);
}

void ss_ssc_get_stats(const struct ss_ssc *c, struct ss_ssc_stats *st)
{
	*st = c->st;
	st->cached_pages = c->cached;
	st->dirty_pages = c->dirty;
	st->log_blocks = c->log_count;
	st->data_blocks = c->data_count;
	st->free_blocks = c->free_count;
	st->cache_blocks = c->cache_blocks - c->bad_count - c->retired_count;
	st->bad_blocks = c->bad_count;
	st->retired_blocks = c->retired_count;
	st->endurance = c->hal->endurance;
	st->map_dram_bytes = c->map_dram;
	st->min_erase_count = UINT32_MAX;
	st->max_erase_count = 0;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		if (c->blocks[b].state == SSC_BLK_BAD || c->blocks[b].state == SSC_BLK_RETIRED) {
			continue;
		}
		st->min_erase_count = SS_MIN(st->min_erase_count, c->blocks[b].erase_count);
		st->max_erase_count = SS_MAX(st->max_erase_count, c->blocks[b].erase_count);
	}
}

uint32_t ss_ssc_write_amplification_milli(const struct ss_ssc *c)
{
	if (c->st.host_page_writes == 0) {
		return 0;
	}
	return (uint32_t)SS_MIN(c->st.nand_page_writes * 1000 / c->st.host_page_writes,
				(uint64_t)UINT32_MAX);
}

void ss_ssc_get_params(const struct ss_ssc *c, struct ss_ssc_params *p)
{
	*p = c->params;
}
