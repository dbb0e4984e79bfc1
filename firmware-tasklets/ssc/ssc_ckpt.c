/*
 * Checkpoints (§4.3.2 "Checkpointing"): the block table (with each block's valid and
 * dirty bitmaps) and the page-level map, streamed into blocks taken from the free pool,
 * least erased first, then a header page listing those blocks. A checkpoint counts only
 * once its header is on flash; the previous one stays intact until then and its blocks go
 * back to the pool after. A block whose program fails is retired and the checkpoint is
 * written again on other blocks, under a new epoch (an epoch is never written twice, so a
 * torn attempt never mixes with a later one). The block-level map is rebuilt from the
 * block table; the reverse map is in the spare areas and never checkpointed.
 *
 * Every page's spare: kind CKPT, lba = epoch, seq = its index in the checkpoint; so the
 * first page of each of its blocks says which block of the checkpoint it is.
 * Body: per block  0 group(8)  8 seq(8)  16 born(8)  24 erase_count  28 wp(2)  30 state
 *                  31 zero, then the valid, dirty and layout bitmaps (bm_words * 4 bytes
 *                  each);
 *       then per page-map entry  0 lba(8)  8 ppn.
 * Header (the page after the body): 0 magic  4 version  8 epoch(8)  16 seq(8)  24 policy
 *   25 zero  26 log_permille(2)  28 group_commit_records  32 blocks  36 pages_per_block
 *   40 page_size  44 body_pages  48 body_bytes(8)  56 page-map entries  60 body crc
 *   64 blocks listed  68 zero(8)  76 the traffic counters (8 each): hits, fills, dirty
 *   writes, clean operations, cleaned blocks, evicted blocks  124 crc of 0..123 and the
 *   list  128 the list: the checkpoint's blocks, then its log's (4 each).
 * Versions 3 and 4 kept two slots in a fixed metadata window, erased at every
 * checkpoint (those blocks wore out first); mount refuses them with -SS_EPROTO and
 * ss_ssc_image_version() names the version: reformat the cache.
 */
#include "ssc_internal.h"

#define HDR_BYTES 128u
#define HDR_CRC_OFF 124u
#define PM_ENTRY_BYTES 12u
#define HDR_COUNTERS_OFF 76u
#define HDR_LIST_OFF SSC_CKPT_HDR_LIST_OFF
#define VERSION_OLDEST 3u     /* the oldest header whose CRC covers 0..123 alone */
#define CKPT_ATTEMPTS 4u      /* blocks whose program fails, before giving up */

/* The counters the header keeps, in header order. */
#define SSC_CKPT_COUNTERS(X) \
	X(hit_blocks) X(filled_blocks) X(dirty_written_blocks) X(clean_ops) X(cleaned_blocks) \
	X(evicted_blocks)

struct stream {
	struct ss_ssc *c;
	uint64_t epoch;
	uint32_t page;       /* pages done */
	uint32_t fill;       /* bytes in c->buf */
	uint64_t bytes;
	uint32_t crc;
	uint32_t failed_page;  /* where rc was set */
	int rc;
};

static void put_page(struct stream *w)
{
	struct ssc_spare s = { .kind = SSC_KIND_CKPT, .lba = w->epoch, .seq = w->page };
	const struct ss_ssc *c = w->c;

	if (w->rc == 0) {
		ss_memset(w->c->buf + w->fill, 0, w->c->page_size - w->fill);
		w->rc = ssc_program(w->c, ssc_ppn(c, c->meta_new[w->page / c->ppb], w->page % c->ppb),
				    w->c->buf, &s);
		w->failed_page = w->page;
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

static uint32_t header_crc(const uint8_t *h, uint32_t listed)
{
	return ss_crc32c(ss_crc32c(0, h, HDR_CRC_OFF), h + HDR_LIST_OFF, (size_t)listed * 4);
}

/* Stream the state into meta_new under `epoch`, header last. \return 0, or the first
 * program's error with *failed = the block it failed on. */
static int write_pages(struct ss_ssc *c, uint64_t epoch, uint32_t *failed)
{
	struct stream w = { .c = c, .epoch = epoch };
	struct ssc_spare s = { .kind = SSC_KIND_CKPT, .lba = epoch };
	uint32_t entries = 0;
	uint8_t e[SSC_BLK_ENTRY_FIXED], *h;
	int rc;

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
		*failed = c->meta_new[w.failed_page / c->ppb];
		return w.rc;
	}
	if (w.page > c->ckpt_body_pages) {
		return -SS_EOVERFLOW;  /* the layout is sized for every block and map entry */
	}
	h = c->buf;
	ss_memset(h, 0, c->page_size);
	ss_put_le32(h, SSC_CKPT_MAGIC);
	ss_put_le32(h + 4, SSC_CKPT_VERSION);
	ss_put_le64(h + 8, epoch);
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
	ss_put_le32(h + 64, c->slot_blocks);
	{
		uint8_t *at = h + HDR_COUNTERS_OFF;
#define PUT_COUNTER(name) ss_put_le64(at, c->st.name), at += 8;
		SSC_CKPT_COUNTERS(PUT_COUNTER)
#undef PUT_COUNTER
	}
	for (uint32_t i = 0; i < c->slot_blocks; i++) {
		ss_put_le32(h + HDR_LIST_OFF + 4 * i, c->meta_new[i]);
	}
	ss_put_le32(h + HDR_CRC_OFF, header_crc(h, c->slot_blocks));
	s.seq = w.page;
	rc = ssc_program(c, ssc_ppn(c, c->meta_new[w.page / c->ppb], w.page % c->ppb), h, &s);
	if (rc) {
		*failed = c->meta_new[w.page / c->ppb];
	}
	return rc;
}

/* A metadata block back to the pool: what it holds is no longer needed by any checkpoint
 * that counts, so erasing it loses nothing (seq 0: no pending record freed it). */
static void release_meta(struct ss_ssc *c, uint32_t b)
{
	c->blocks[b].state = SSC_BLK_FREE;
	c->blocks[b].flags = SSC_BF_NEED_ERASE;
	c->blocks[b].seq = 0;
	c->blocks[b].valid = c->blocks[b].dirty = c->blocks[b].wp = 0;
	c->free_count++;
}

int ssc_checkpoint(struct ss_ssc *c)
{
	uint32_t *t;
	uint64_t epoch = 0;
	int rc;

	rc = ssc_sync(c);
	if (rc) {
		return rc;
	}
	for (uint32_t attempt = 0;; attempt++) {
		uint32_t taken = 0, failed = SSC_NONE;

		epoch = c->next_epoch++;
		for (rc = 0; taken < c->slot_blocks && rc == 0; taken += rc == 0) {
			rc = ssc_take_meta_block(c, &c->meta_new[taken]);
		}
		if (rc == 0) {
			rc = write_pages(c, epoch, &failed);
		}
		if (rc == 0) {
			rc = ssc_sync(c);
		}
		if (rc == 0) {
			break;
		}
		for (uint32_t i = 0; i < taken; i++) {
			if (c->meta_new[i] == failed) {
				/* never programmed again: out of the pool, as a worn block */
				c->blocks[failed].state = SSC_BLK_RETIRED;
				c->blocks[failed].flags = 0;
				ssc_shrink_for_retired(c);
			} else {
				release_meta(c, c->meta_new[i]);
			}
		}
		if (failed == SSC_NONE || attempt + 1 == CKPT_ATTEMPTS) {
			return rc;
		}
	}
	if (c->meta_cur_valid) {
		for (uint32_t i = 0; i < c->slot_blocks; i++) {
			release_meta(c, c->meta_cur[i]);
		}
	}
	t = c->meta_cur;
	c->meta_cur = c->meta_new;
	c->meta_new = t;
	c->meta_cur_valid = true;
	c->epoch = epoch;
	c->log_page = 0;
	c->pending = 0;
	c->committed_seq = c->seq;
	c->st.checkpoints++;
	return 0;
}

/* The spare of block b's first page, when it is a checkpoint page. */
static bool ckpt_page0(struct ss_hal *hal, uint32_t b, uint8_t *spare, struct ssc_spare *s)
{
	return ss_hal_page_read(hal, b * hal->geo.pages_per_block, NULL, spare) == 0 &&
	       ssc_spare_decode(spare, s) == SSC_SPARE_OK && s->kind == SSC_KIND_CKPT;
}

/* The block holding pages [k * ppb, (k + 1) * ppb) of checkpoint `epoch`, or SSC_NONE. */
static uint32_t ckpt_block(struct ss_hal *hal, uint8_t *spare, uint64_t epoch, uint32_t k)
{
	uint32_t n = ss_geo_blocks(&hal->geo);
	struct ssc_spare s;

	for (uint32_t b = 0; b < n; b++) {
		if (ckpt_page0(hal, b, spare, &s) && s.lba == epoch &&
		    s.seq == (uint64_t)k * hal->geo.pages_per_block) {
			return b;
		}
	}
	return SSC_NONE;
}

/* The header of checkpoint `epoch` starting at block `first`: the last of its pages in
 * order, into `page`. \return 0, 1 when there is none (torn before its header, or
 * damaged), -SS_EPROTO when it is intact but of another version (*version). */
static int ckpt_header(struct ss_hal *hal, uint32_t first, uint64_t epoch, uint32_t ckpt_blocks,
		       uint32_t body_pages, uint8_t *page, uint8_t *spare, uint32_t *version)
{
	uint32_t ppb = hal->geo.pages_per_block, n = ckpt_blocks * ppb, last = SSC_NONE;
	uint32_t blk = first, last_blk = SSC_NONE, listed;
	struct ssc_spare s;

	for (uint32_t i = 0; i < n && i <= body_pages; i++) {
		if (i % ppb == 0 && i != 0 && (blk = ckpt_block(hal, spare, epoch, i / ppb)) == SSC_NONE) {
			break;
		}
		if (ss_hal_page_read(hal, blk * ppb + i % ppb, NULL, spare) != 0 ||
		    ssc_spare_decode(spare, &s) != SSC_SPARE_OK || s.kind != SSC_KIND_CKPT ||
		    s.seq != i || s.lba != epoch) {
			break;
		}
		last = i;
		last_blk = blk;
	}
	if (last == SSC_NONE ||
	    ss_hal_page_read(hal, last_blk * ppb + last % ppb, page, spare) != 0 ||
	    ssc_spare_decode(spare, &s) != SSC_SPARE_OK ||
	    ss_crc32c(0, page, hal->geo.page_size) != s.data_crc ||
	    ss_get_le32(page) != SSC_CKPT_MAGIC || ss_get_le32(page + 44) != last ||
	    ss_get_le64(page + 8) != epoch) {
		return 1;   /* interrupted before its header: not a checkpoint */
	}
	*version = ss_get_le32(page + 4);
	if (*version != SSC_CKPT_VERSION) {
		/* intact by its own format's CRC: an image of another version */
		return *version >= VERSION_OLDEST && *version < SSC_CKPT_VERSION &&
				       ss_get_le32(page + HDR_CRC_OFF) == ss_crc32c(0, page, HDR_CRC_OFF)
			       ? -SS_EPROTO
			       : 1;
	}
	listed = ss_get_le32(page + 64);
	if (listed < ckpt_blocks || (uint64_t)HDR_LIST_OFF + 4ull * listed > hal->geo.page_size ||
	    ss_get_le32(page + HDR_CRC_OFF) != header_crc(page, listed)) {
		return 1;
	}
	/* the list names the blocks the pages were found on */
	for (uint32_t k = 0; k <= last / ppb; k++) {
		uint32_t want = ss_get_le32(page + HDR_LIST_OFF + 4 * k);

		if (want != (k == 0 ? first : ckpt_block(hal, spare, epoch, k))) {
			return 1;
		}
	}
	return 0;
}

int ssc_ckpt_find(struct ss_hal *hal, uint32_t body_pages, uint32_t ckpt_blocks,
		  uint8_t *page, uint8_t *spare, struct ssc_found *f, struct ss_ssc_params *p)
{
	uint32_t n = ss_geo_blocks(&hal->geo);
	uint64_t below = UINT64_MAX;
	bool any = false;
	struct ssc_spare s;
	int rc = 1;

	ss_memset(f, 0, sizeof(*f));
	for (uint32_t b = 0; b < n; b++) {
		if (ckpt_page0(hal, b, spare, &s)) {
			any = true;
			f->max_epoch = SS_MAX(f->max_epoch, s.lba);
		}
	}
	/* Newest first: a checkpoint torn before its header is skipped, and the first intact
	 * header decides (epochs are never reused, so the newest is the one to load). */
	while (any && rc == 1) {
		uint32_t first = SSC_NONE;

		for (uint32_t b = 0; b < n; b++) {
			if (ckpt_page0(hal, b, spare, &s) && s.seq == 0 && s.lba < below &&
			    (first == SSC_NONE || s.lba > f->epoch)) {
				first = b;
				f->epoch = s.lba;
			}
		}
		if (first == SSC_NONE) {
			break;
		}
		below = f->epoch;
		f->first = first;
		rc = ckpt_header(hal, first, f->epoch, ckpt_blocks, body_pages, page, spare,
				 &f->version);
	}
	if (rc < 0) {
		return rc;
	}
	if (rc == 1) {
		for (uint32_t b = 0; b < n && !any; b++) {
			any = ss_hal_page_read(hal, b * hal->geo.pages_per_block, NULL, spare) != 0 ||
			      ssc_spare_decode(spare, &s) != SSC_SPARE_ERASED;
		}
		return any ? -SS_EBADMSG : -SS_ENODATA;
	}
	if (ss_get_le32(page + 32) != n || ss_get_le32(page + 36) != hal->geo.pages_per_block ||
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

			r->rc = ssc_read_page(r->c,
					      ssc_ppn(r->c, r->c->meta_cur[r->page / r->c->ppb],
						      r->page % r->c->ppb),
					      r->c->buf, &s);
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

/* Is b one of the newest checkpoint's blocks? */
static bool in_meta_cur(const struct ss_ssc *c, uint32_t b)
{
	for (uint32_t i = 0; i < c->slot_blocks; i++) {
		if (c->meta_cur[i] == b) {
			return true;
		}
	}
	return false;
}

int ssc_ckpt_load(struct ss_ssc *c, const struct ssc_found *f)
{
	uint32_t entries, body_crc, bad, retired, version;
	struct reader r = { .c = c };
	uint8_t hdr[HDR_BYTES], e[SSC_BLK_ENTRY_FIXED];

	/* the caller's ssc_ckpt_find() validated this header; read it again into the arena */
	if (ckpt_header(c->hal, f->first, f->epoch, c->ckpt_blocks, c->ckpt_body_pages, c->buf,
			c->spare, &version) != 0 ||
	    ss_get_le32(c->buf + 64) != c->slot_blocks) {
		return -SS_EBADMSG;
	}
	ss_memcpy(hdr, c->buf, HDR_BYTES);
	for (uint32_t i = 0; i < c->slot_blocks; i++) {
		c->meta_cur[i] = ss_get_le32(c->buf + HDR_LIST_OFF + 4 * i);
		if (c->meta_cur[i] >= c->nblocks) {
			return -SS_EBADMSG;
		}
	}
	c->meta_cur_valid = true;
	entries = ss_get_le32(hdr + 56);
	body_crc = ss_get_le32(hdr + 60);
	if (entries > c->page_map.limit) {
		return -SS_EBADMSG;
	}
	c->epoch = f->epoch;
	c->next_epoch = f->max_epoch + 1;
	c->seq = ss_get_le64(hdr + 16);
	c->committed_seq = c->seq;
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
		if (in_meta_cur(c, b) != (blk->state == SSC_BLK_META) && blk->state == SSC_BLK_META) {
			/* the previous checkpoint's, given back once this one was durable */
			blk->state = SSC_BLK_FREE;
			blk->seq = 0;
		}
		if (in_meta_cur(c, b) != (blk->state == SSC_BLK_META) ||
		    blk->state > SSC_BLK_RETIRED ||
		    (blk->state != SSC_BLK_LOG && blk->state != SSC_BLK_DATA && blk->valid)) {
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
	/* Erases since the checkpoint: a block programmed after one carries its erase count
	 * in its first page's spare (one erased and never programmed since is not counted). */
	for (uint32_t b = 0; b < c->nblocks; b++) {
		struct ssc_spare s;

		if (ss_hal_page_read(c->hal, ssc_ppn(c, b, 0), NULL, c->spare) == 0 &&
		    ssc_spare_decode(c->spare, &s) == SSC_SPARE_OK &&
		    s.erase_count > c->blocks[b].erase_count) {
			c->blocks[b].erase_count = s.erase_count;
		}
	}
	c->retired_count = 0;
	while (c->retired_count < retired) {
		ssc_shrink_for_retired(c);
	}
	return 0;
}
