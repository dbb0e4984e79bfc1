/*
 * The six operations of the cache interface (Table 4.1) and the page program/read
 * helpers every source uses.
 */
#include "ssc_internal.h"

int ssc_program(struct ss_ssc *c, uint32_t ppn, const void *data, const struct ssc_spare *s)
{
	struct ssc_spare sp = *s;
	int rc;

	sp.erase_count = c->blocks[ppn / c->ppb].erase_count;
	sp.data_crc = ss_crc32c(0, data, c->page_size);
	ss_memset(c->spare, 0xFF, c->spare_size);
	ssc_spare_encode(c->spare, &sp);
	rc = ss_hal_page_program(c->hal, ppn, data, c->spare);
	c->st.nand_page_writes++;
	c->unsynced = true;
	return rc;
}

/* Read a page the cache programmed: its spare must decode and, when `data` is wanted,
 * match its CRC. */
int ssc_read_page(struct ss_ssc *c, uint32_t ppn, void *data, struct ssc_spare *s)
{
	int rc = ss_hal_page_read(c->hal, ppn, data, c->spare);

	c->st.nand_page_reads++;
	if (rc) {
		return rc;
	}
	if (ssc_spare_decode(c->spare, s) != SSC_SPARE_OK) {
		return -SS_EIO;
	}
	if (data != NULL && ss_crc32c(0, data, c->page_size) != s->data_crc) {
		return -SS_EIO;
	}
	return 0;
}

static uint32_t group_commit_limit(const struct ss_ssc *c)
{
	uint32_t per_page = ssc_recs_per_page(c);

	return c->params.group_commit_records == 0 ? per_page
						   : SS_MIN(c->params.group_commit_records, per_page);
}

static int maybe_group_commit(struct ss_ssc *c)
{
	return c->pending >= group_commit_limit(c) ? ssc_commit(c) : 0;
}

static int cache_write(struct ss_ssc *c, uint64_t lba, const void *buf, bool dirty)
{
	struct ssc_rec r = { .type = SSC_R_MAP, .dirty = dirty, .key = lba };
	struct ssc_spare s = { .kind = SSC_KIND_DATA, .dirty = dirty, .lba = lba };
	struct ssc_loc loc;
	bool present;
	uint32_t ppn;
	int rc;

	if (lba == SSC_KEY_EMPTY || buf == NULL) {
		return -SS_EINVAL;
	}
	present = ssc_locate(c, lba, &loc) == 0;
	rc = ssc_open_log_page(c, &ppn);
	if (rc) {
		return rc;
	}
	s.seq = c->seq + 1;
	rc = ssc_program(c, ppn, buf, &s);
	if (rc) {
		c->open = SSC_NONE;   /* never program that block again before it is erased */
		return rc;
	}
	r.block = ppn;
	rc = ssc_log(c, &r);
	if (rc) {
		return rc;
	}
	c->st.host_page_writes++;
	/* a write-clean over cached data must not let the old copy come back after a crash */
	if (dirty || present) {
		return ssc_commit(c);
	}
	return maybe_group_commit(c);
}

int ss_ssc_write_dirty(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	return cache_write(c, lba, buf, true);
}

int ss_ssc_write_clean(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	return cache_write(c, lba, buf, false);
}

int ss_ssc_read(struct ss_ssc *c, uint64_t lba, void *buf)
{
	struct ssc_spare s;
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY || buf == NULL) {
		return -SS_EINVAL;
	}
	if (ssc_locate(c, lba, &loc)) {
		c->st.read_misses++;
		return SS_SSC_MISS;
	}
	rc = ssc_read_page(c, loc.ppn, buf, &s);
	if (rc == 0 && (s.kind != SSC_KIND_DATA || s.lba != lba)) {
		rc = -SS_EIO;  /* the reverse map disagrees with the forward map */
	}
	if (rc) {
		return rc < 0 ? rc : -SS_EIO;
	}
	c->st.read_hits++;
	c->st.hit_blocks++;
	return 0;
}

int ss_ssc_evict(struct ss_ssc *c, uint64_t lba)
{
	struct ssc_rec r = { .type = SSC_R_UNMAP, .dirty = SSC_UNMAP_HOST, .key = lba };
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY) {
		return -SS_EINVAL;
	}
	if (ssc_locate(c, lba, &loc) == 0) {
		rc = ssc_log(c, &r);
		if (rc) {
			return rc;
		}
	}
	/* also when absent: a pending record may be what made it absent */
	return ssc_commit(c);
}

int ss_ssc_clean(struct ss_ssc *c, uint64_t lba)
{
	struct ssc_rec r = { .type = SSC_R_CLEAN, .key = lba };
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY) {
		return -SS_EINVAL;
	}
	if (ssc_locate(c, lba, &loc) || !loc.dirty) {
		return 0;
	}
	rc = ssc_log(c, &r);
	return rc ? rc : maybe_group_commit(c);
}

int ss_ssc_clean_range(struct ss_ssc *c, uint64_t lba, uint64_t count)
{
	if (count == 0 || lba > SSC_KEY_EMPTY - count) {
		return -SS_EINVAL;
	}
	for (uint64_t i = 0; i < count; i++) {
		int rc = ss_ssc_clean(c, lba + i);

		if (rc) {
			return rc;
		}
	}
	c->st.clean_ops++;
	return 0;
}

int ss_ssc_exists(const struct ss_ssc *c, uint64_t lba, uint32_t count, uint8_t *bitmap)
{
	if (count == 0 || count > SS_SSC_EXISTS_MAX || bitmap == NULL ||
	    lba > SSC_KEY_EMPTY - count) {
		return -SS_EINVAL;
	}
	ss_memset(bitmap, 0, SS_DIV_ROUND_UP(count, 8));
	for (uint32_t i = 0; i < count; i++) {
		struct ssc_loc loc;

		if (ssc_locate(c, lba + i, &loc) == 0 && loc.dirty) {
			bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
		}
	}
	return 0;
}

int ss_ssc_flush(struct ss_ssc *c)
{
	return ssc_commit(c);
}

uint32_t ss_ssc_block_size(const struct ss_ssc *c)
{
	return c->page_size;
}
