/*
 * Checkpoints (§4.3.2 "Checkpointing"): the block table (with each block's valid and
 * dirty bitmaps) and the page-level map, streamed into the checkpoint blocks of the slot
 * not in use, then a header page. A checkpoint counts only once its header is on flash;
 * the slot in use stays intact until then. The block-level map is rebuilt from the block
 * table; the reverse map is in the spare areas and never checkpointed.
 *
 * Body: per block  0 group(8)  8 seq(8)  16 born(8)  24 erase_count  28 wp(2)  30 state
 *                  31 zero, then the valid, dirty and layout bitmaps (bm_words * 4 bytes
 *                  each);
 *       then per page-map entry  0 lba(8)  8 ppn.
 * Header (the page after the body): 0 magic  4 version  8 epoch(8)  16 seq(8)  24 policy
 *   25 zero  26 log_permille(2)  28 group_commit_records  32 blocks  36 pages_per_block
 *   40 page_size  44 body_pages  48 body_bytes(8)  56 page-map entries  60 body crc
 *   64 first block of slot 0  68 of slot 1  72 this slot  76 the traffic counters (8 each):
 *   hits, fills, dirty writes, clean operations, cleaned blocks, evicted blocks
 *   124 crc of 0..123. Version 3 had zeros at 76..123 and no RETIRED blocks: it reads as
 *   counters at 0.
 */
#include "ssc_internal.h"

#define HDR_BYTES 128u
#define HDR_CRC_OFF 124u
#define PM_ENTRY_BYTES 12u
#define HDR_COUNTERS_OFF 76u
#define VERSION_RETIRED 4u   /* the first with RETIRED blocks */

/* The counters the header keeps, in header order. */
#define SSC_CKPT_COUNTERS(X) \
	X(hit_blocks) X(filled_blocks) X(dirty_written_blocks) X(clean_ops) X(cleaned_blocks) \
	X(evicted_blocks)

struct stream {
	struct ss_ssc *c;
	uint32_t first_ppn;
	uint32_t page;       /* pages done */
	uint32_t fill;       /* bytes in c->buf */
	uint64_t bytes;
	uint32_t crc;
	int rc;
};

static void put_page(struct stream *w)
{
	struct ssc_spare s = { .kind = SSC_KIND_CKPT, .lba = w->c->epoch + 1, .seq = w->page };

	if (w->rc == 0) {
		ss_memset(w->c->buf + w->fill, 0, w->c->page_size - w->fill);
		w->rc = ssc_program(w->c, w->first_ppn + w->page, w->c->buf, &s);
	}
	w->page++;
	w->fill = 0;
}

static void put_bytes(struct stream *w, const uint8_t *p, uint32_t n)
{
	w->crc = ss_crc32c(w->crc, p, n);
	w->bytes += n;
	while (n) {
		uint32_t k = SS_MIN(n, w->c->page_size - w->fill);

		ss_memcpy(w->c->buf + w->fill, p, k);
		w->fill += k;
		p += k;
		n -= k;
		if (w->fill == w->c->page_size) {
			put_page(w);
		}
	}
}

int ssc_checkpoint(struct ss_ssc *c)
{
	uint32_t target = 1 - c->cur_slot, first = ssc_slot_first(c, target);
	struct stream w = { .c = c, .first_ppn = ssc_ppn(c, first, 0) };
	struct ssc_spare s = { .kind = SSC_KIND_CKPT, .lba = c->epoch + 1 };
	uint32_t entries = 0;
	uint8_t e[SSC_BLK_ENTRY_FIXED], *h;
	int rc;

	rc = ssc_sync(c);
	if (rc) {
		return rc;
	}
	for (uint32_t b = first; b < first + c->slot_blocks; b++) {
		rc = ss_hal_block_erase(c->hal, b);
		c->st.block_erases++;
		c->blocks[b].erase_count++;
		if (rc) {
			return rc;
		}
	}
	for (uint32_t b = 0; b < c->nblocks; b++) {
		const struct ssc_block *blk = &c->blocks[b];

		ss_put_le64(e, blk->group);
		ss_put_le64(e + 8, blk->seq);
		ss_put_le64(e + 16, blk->born);
		ss_put_le32(e + 24, blk->erase_count);
		ss_put_le16(e + 28, blk->wp);
		e[30] = blk->state;
		e[31] = 0;
		put_bytes(&w, e, sizeof(e));
		for (uint32_t k = 0; k < c->bm_words; k++) {
			ss_put_le32(e, c->valid_bm[b * c->bm_words + k]);
			put_bytes(&w, e, 4);
		}
		for (uint32_t k = 0; k < c->bm_words; k++) {
			ss_put_le32(e, c->dirty_bm[b * c->bm_words + k]);
			put_bytes(&w, e, 4);
		}
		for (uint32_t k = 0; k < c->bm_words; k++) {
			ss_put_le32(e, c->layout_bm[b * c->bm_words + k]);
			put_bytes(&w, e, 4);
		}
	}
	for (uint32_t i = 0; i <= c->page_map.mask; i++) {
		if (c->page_map.keys[i] == SSC_KEY_EMPTY) {
			continue;
		}
		ss_put_le64(e, c->page_map.keys[i]);
		ss_put_le32(e + 8, c->page_map.vals[i]);
		put_bytes(&w, e, PM_ENTRY_BYTES);
		entries++;
	}
	if (w.fill) {
		put_page(&w);
	}
	if (w.rc) {
		return w.rc;
	}
	if (w.page > c->ckpt_body_pages) {
		return -SS_EOVERFLOW;  /* the layout is sized for every block and map entry */
	}
	h = c->buf;
	ss_memset(h, 0, c->page_size);
	ss_put_le32(h, SSC_CKPT_MAGIC);
	ss_put_le32(h + 4, SSC_CKPT_VERSION);
	ss_put_le64(h + 8, c->epoch + 1);
	ss_put_le64(h + 16, c->seq);
	h[24] = (uint8_t)c->params.policy;
	ss_put_le16(h + 26, c->params.log_permille);
	ss_put_le32(h + 28, c->params.group_commit_records);
	ss_put_le32(h + 32, c->nblocks);
	ss_put_le32(h + 36, c->ppb);
	ss_put_le32(h + 40, c->page_size);
	ss_put_le32(h + 44, w.page);
	ss_put_le64(h + 48, w.bytes);
	ss_put_le32(h + 56, entries);
	ss_put_le32(h + 60, w.crc);
	ss_put_le32(h + 64, c->slot_at[0]);
	ss_put_le32(h + 68, c->slot_at[1]);
	ss_put_le32(h + 72, target);
	{
		uint8_t *at = h + HDR_COUNTERS_OFF;
#define PUT_COUNTER(name) ss_put_le64(at, c->st.name), at += 8;
		SSC_CKPT_COUNTERS(PUT_COUNTER)
#undef PUT_COUNTER
	}
	ss_put_le32(h + HDR_CRC_OFF, ss_crc32c(0, h, HDR_CRC_OFF));
	s.seq = w.page;
	rc = ssc_program(c, w.first_ppn + w.page, h, &s);
	if (rc == 0) {
		rc = ssc_sync(c);
	}
	if (rc) {
		return rc;
	}
	c->cur_slot = target;
	c->epoch++;
	c->log_page = 0;
	c->pending = 0;
	c->st.checkpoints++;
	return 0;
}

/* The header of a slot: the last programmed page of its checkpoint blocks.
 * \return 0 with the header in `page`, 1 when the slot holds none, -SS_EBADMSG. */
static int slot_header(struct ss_hal *hal, uint32_t first, uint32_t ckpt_blocks,
		       uint32_t body_pages, uint8_t *page, uint8_t *spare, uint64_t *epoch)
{
	uint32_t ppb = hal->geo.pages_per_block, n = ckpt_blocks * ppb, last = SSC_NONE;
	struct ssc_spare s;

	for (uint32_t i = 0; i < n && i <= body_pages; i++) {
		if (ss_hal_page_read(hal, first * ppb + i, NULL, spare) != 0 ||
		    ssc_spare_decode(spare, &s) != SSC_SPARE_OK || s.kind != SSC_KIND_CKPT ||
		    s.seq != i) {
			break;
		}
		last = i;
	}
	if (last == SSC_NONE) {
		return 1;
	}
	if (ss_hal_page_read(hal, first * ppb + last, page, spare) != 0 ||
	    ssc_spare_decode(spare, &s) != SSC_SPARE_OK ||
	    ss_crc32c(0, page, hal->geo.page_size) != s.data_crc ||
	    ss_get_le32(page) != SSC_CKPT_MAGIC || ss_get_le32(page + 4) < SSC_CKPT_VERSION_MIN ||
	    ss_get_le32(page + 4) > SSC_CKPT_VERSION ||
	    ss_get_le32(page + HDR_CRC_OFF) != ss_crc32c(0, page, HDR_CRC_OFF) ||
	    ss_get_le32(page + 44) != last || ss_get_le64(page + 8) != s.lba) {
		return 1;   /* interrupted before its header: not a checkpoint */
	}
	*epoch = ss_get_le64(page + 8);
	return 0;
}

int ssc_ckpt_find(struct ss_hal *hal, uint32_t body_pages, uint32_t ckpt_blocks,
		  uint32_t log_area_blocks, uint8_t *page, uint8_t *spare, uint32_t slot_at[2],
		  uint32_t *slot, uint64_t *epoch, struct ss_ssc_params *p)
{
	uint32_t sb = ckpt_blocks + log_area_blocks, window = ssc_meta_window(ckpt_blocks,
									     log_area_blocks);
	uint32_t best_first = SSC_NONE;
	uint64_t e;

	/* A header counts only where it says it is: the slot it names starts here, and both
	 * slots it records lie in the window in order. Among those the newest epoch wins
	 * (format continues the epochs past any checkpoint it finds, so a stale one in a
	 * block that failed its erase never wins). */
	for (uint32_t first = 0; first + ckpt_blocks <= window; first++) {
		uint32_t s0, s1, k;

		if (slot_header(hal, first, ckpt_blocks, body_pages, page, spare, &e) != 0) {
			continue;
		}
		s0 = ss_get_le32(page + 64);
		s1 = ss_get_le32(page + 68);
		k = ss_get_le32(page + 72);
		if (k > 1 || s0 + sb > s1 || s1 > window - sb || (k ? s1 : s0) != first ||
		    (best_first != SSC_NONE && e <= *epoch)) {
			continue;
		}
		best_first = first;
		slot_at[0] = s0;
		slot_at[1] = s1;
		*slot = k;
		*epoch = e;
	}
	if (best_first == SSC_NONE) {
		struct ssc_spare s;

		for (uint32_t b = 0; b < window; b++) {
			if (ss_hal_page_read(hal, b * hal->geo.pages_per_block, NULL, spare) != 0 ||
			    ssc_spare_decode(spare, &s) != SSC_SPARE_ERASED) {
				return -SS_EBADMSG;
			}
		}
		return -SS_ENODATA;
	}
	/* reread the chosen header into `page` */
	slot_header(hal, best_first, ckpt_blocks, body_pages, page, spare, &e);
	if (ss_get_le32(page + 32) != ss_geo_blocks(&hal->geo) ||
	    ss_get_le32(page + 36) != hal->geo.pages_per_block ||
	    ss_get_le32(page + 40) != hal->geo.page_size) {
		return -SS_EBADMSG;
	}
	ss_memset(p, 0, sizeof(*p));
	p->policy = (enum ss_ssc_policy)page[24];
	p->log_permille = ss_get_le16(page + 26);
	p->group_commit_records = ss_get_le32(page + 28);
	return 0;
}

struct reader {
	struct ss_ssc *c;
	uint32_t first_ppn;
	uint32_t page;
	uint32_t off;
	uint32_t crc;
	int rc;
};

static void get_bytes(struct reader *r, uint8_t *p, uint32_t n)
{
	while (n && r->rc == 0) {
		uint32_t k;

		if (r->off == r->c->page_size || r->page == 0) {
			struct ssc_spare s;

			r->rc = ssc_read_page(r->c, r->first_ppn + r->page, r->c->buf, &s);
			if (r->rc == 0 && (s.kind != SSC_KIND_CKPT || s.seq != r->page)) {
				r->rc = -SS_EBADMSG;
			}
			r->page++;
			r->off = 0;
		}
		k = SS_MIN(n, r->c->page_size - r->off);
		ss_memcpy(p, r->c->buf + r->off, k);
		r->crc = ss_crc32c(r->crc, p, k);
		r->off += k;
		p += k;
		n -= k;
	}
}

int ssc_ckpt_load(struct ss_ssc *c, uint32_t slot)
{
	uint32_t first = ssc_slot_first(c, slot), entries, body_crc, bad, retired;
	struct reader r = { .c = c, .first_ppn = ssc_ppn(c, first, 0) };
	uint8_t hdr[HDR_BYTES], e[SSC_BLK_ENTRY_FIXED];
	uint64_t epoch;

	/* the caller's ssc_ckpt_find() validated this header; read it again into the arena */
	if (slot_header(c->hal, first, c->ckpt_blocks, c->ckpt_body_pages, c->buf, c->spare,
			&epoch) != 0) {
		return -SS_EBADMSG;
	}
	ss_memcpy(hdr, c->buf, HDR_BYTES);
	entries = ss_get_le32(hdr + 56);
	body_crc = ss_get_le32(hdr + 60);
	if (entries > c->page_map.limit) {
		return -SS_EBADMSG;
	}
	c->epoch = epoch;
	c->seq = ss_get_le64(hdr + 16);
	c->cur_slot = slot;
	{
		const uint8_t *at = hdr + HDR_COUNTERS_OFF;
#define GET_COUNTER(name) c->st.name = ss_get_le64(at), at += 8;
		SSC_CKPT_COUNTERS(GET_COUNTER)
#undef GET_COUNTER
	}
	c->free_count = c->log_count = c->data_count = c->cached = c->dirty = 0;
	bad = retired = 0;
	for (uint32_t b = 0; b < c->nblocks && r.rc == 0; b++) {
		struct ssc_block *blk = &c->blocks[b];

		get_bytes(&r, e, sizeof(e));
		blk->group = ss_get_le64(e);
		blk->seq = ss_get_le64(e + 8);
		blk->born = ss_get_le64(e + 16);
		blk->erase_count = ss_get_le32(e + 24);
		blk->wp = ss_get_le16(e + 28);
		blk->state = e[30];
		blk->flags = 0;
		blk->valid = blk->dirty = 0;
		for (uint32_t k = 0; k < c->bm_words; k++) {
			get_bytes(&r, e, 4);
			c->valid_bm[b * c->bm_words + k] = ss_get_le32(e);
		}
		for (uint32_t k = 0; k < c->bm_words; k++) {
			get_bytes(&r, e, 4);
			c->dirty_bm[b * c->bm_words + k] = ss_get_le32(e);
		}
		for (uint32_t k = 0; k < c->bm_words; k++) {
			get_bytes(&r, e, 4);
			c->layout_bm[b * c->bm_words + k] = ss_get_le32(e);
		}
		for (uint32_t i = 0; i < c->ppb; i++) {
			bool v = ssc_bit(c->valid_bm, c, b, i), d = ssc_bit(c->dirty_bm, c, b, i);

			blk->valid += v;
			blk->dirty += d;
			if ((d && !v) || (v && blk->state == SSC_BLK_DATA &&
					  i >= ssc_rank(c, b, c->ppb - 1) +
						       ssc_bit(c->layout_bm, c, b, c->ppb - 1))) {
				r.rc = -SS_EBADMSG;  /* a valid page past the data block's packing */
			}
		}
		c->cached += blk->valid;
		c->dirty += blk->dirty;
		if ((b < c->first_cache_block) != (blk->state == SSC_BLK_META) ||
		    blk->state > SSC_BLK_RETIRED ||
		    (blk->state == SSC_BLK_RETIRED && ss_get_le32(hdr + 4) < VERSION_RETIRED) ||
		    ((blk->state == SSC_BLK_FREE || blk->state == SSC_BLK_BAD ||
		      blk->state == SSC_BLK_RETIRED) && blk->valid)) {
			r.rc = -SS_EBADMSG;
		} else if (blk->state == SSC_BLK_BAD) {
			bad++;
		} else if (blk->state == SSC_BLK_RETIRED) {
			retired++;
		} else if (blk->state == SSC_BLK_FREE) {
			c->free_count++;
		} else if (blk->state == SSC_BLK_LOG) {
			c->log_count++;
		} else if (blk->state == SSC_BLK_DATA) {
			c->data_count++;
			if (ssc_map_put(&c->block_map, blk->group, b) != 0) {
				r.rc = -SS_EBADMSG;
			}
		}
	}
	for (uint32_t i = 0; i < entries && r.rc == 0; i++) {
		uint32_t ppn;

		get_bytes(&r, e, PM_ENTRY_BYTES);
		ppn = ss_get_le32(e + 8);
		if (ppn / c->ppb >= c->nblocks || c->blocks[ppn / c->ppb].state != SSC_BLK_LOG ||
		    !ssc_bit(c->valid_bm, c, ppn / c->ppb, ppn % c->ppb) ||
		    ssc_map_put(&c->page_map, ss_get_le64(e), ppn) != 0) {
			r.rc = -SS_EBADMSG;
		}
	}
	if (r.rc) {
		return r.rc;
	}
	if (r.crc != body_crc || c->log_count > c->log_cap || ssc_exclude_bad(c, bad) != 0) {
		return -SS_EBADMSG;
	}
	c->retired_count = 0;
	while (c->retired_count < retired) {
		ssc_shrink_for_retired(c);
	}
	return 0;
}
