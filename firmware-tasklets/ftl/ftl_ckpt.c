/*
 * Checkpoints: the L2P table and the block table written to ordinary blocks taken from the
 * free pool (so checkpoint blocks wear-level and retire like any other), header page last.
 *
 *   pages [0, l2p_pages)            L2P, 4 B per LPN
 *   pages [l2p_pages, +blk_pages)   block table, FTL_BLK_ENTRY_BYTES per block
 *   page  ckpt_pages - 1            header: geometry, params, counters, the checkpoint's
 *                                   block list and a CRC chained over every body page's CRC
 *
 * Every page's spare says kind CKPT, its index (lpn) and the checkpoint id (ref) = the last
 * sequence number the checkpoint covers. The header is programmed last, so a torn checkpoint
 * has no valid header and mount falls back to the previous one. Two checkpoints live at a
 * time (A/B): the older is released only when a newer one is about to be written, and the
 * newer one is synced before it is trusted.
 */
#include "ftl_internal.h"

#define CKPT_ATTEMPTS 4u

static void put_block_entry(uint8_t *p, const struct ftl_block *k)
{
	ss_put_le32(p, k->erase_count);
	p[4] = k->state;
	p[5] = k->stream;
	p[6] = (uint8_t)(k->flags & (FTL_BF_RETIRE | FTL_BF_STUCK | FTL_BF_DIRTY));
	p[7] = 0;
	ss_put_le16(p + 8, k->wp);
	ss_put_le16(p + 10, 0);
	ss_put_le32(p + 12, 0);
	ss_put_le64(p + 16, k->seq);
}

static void get_block_entry(const uint8_t *p, struct ftl_block *k)
{
	ss_memset(k, 0, sizeof(*k));
	k->erase_count = ss_get_le32(p);
	k->state = p[4];
	k->stream = p[5];
	k->flags = p[6];
	k->wp = ss_get_le16(p + 8);
	k->seq = ss_get_le64(p + 16);
}

/* Header fields, in order after magic and version; geometry first so a mismatch is found
 * before anything else is trusted. */
static void put_header(struct ss_ftl *f, uint8_t *p, uint64_t id, uint32_t body_crc,
		       const uint32_t *list)
{
	const struct ss_ftl_stats *st = &f->st;

	ss_memset(p, 0, f->page_size);
	ss_put_le32(p + 0, FTL_CKPT_MAGIC);
	ss_put_le32(p + 4, FTL_CKPT_VERSION);
	ss_put_le64(p + 8, id);
	ss_put_le64(p + 16, f->next_seq);
	ss_put_le32(p + 24, f->capacity);
	ss_put_le32(p + 28, f->geo.channels);
	ss_put_le32(p + 32, f->geo.ways);
	ss_put_le32(p + 36, f->geo.blocks_per_die);
	ss_put_le32(p + 40, f->geo.pages_per_block);
	ss_put_le32(p + 44, f->geo.page_size);
	ss_put_le32(p + 48, f->geo.spare_size);
	ss_put_le32(p + 52, f->geo.overprovision_permille);
	ss_put_le32(p + 56, f->ckpt_pages);
	ss_put_le32(p + 60, f->ckpt_blocks);
	ss_put_le32(p + 64, (uint32_t)f->params.gc_policy);
	ss_put_le16(p + 68, f->params.clean_threshold_permille[0]);
	ss_put_le16(p + 70, f->params.clean_threshold_permille[1]);
	ss_put_le16(p + 72, f->params.clean_threshold_permille[2]);
	ss_put_le32(p + 76, f->params.wear_level_delta);
	ss_put_le32(p + 80, f->params.checkpoint_interval_pages);
	ss_put_le32(p + 84, body_crc);
	ss_put_le64(p + 88, st->host_page_writes);
	ss_put_le64(p + 96, st->host_page_reads);
	ss_put_le64(p + 104, st->nand_page_writes);
	ss_put_le64(p + 112, st->nand_page_reads);
	ss_put_le64(p + 120, st->block_erases);
	ss_put_le64(p + 128, st->gc_runs);
	ss_put_le64(p + 136, st->gc_page_moves);
	ss_put_le64(p + 144, st->wear_level_moves);
	ss_put_le64(p + 152, st->trimmed_pages);
	ss_put_le64(p + 160, st->checkpoints + 1);
	for (uint32_t i = 0; i < f->ckpt_blocks; i++) {
		ss_put_le32(p + FTL_CKPT_HDR_FIXED + 4 * i, list[i]);
	}
}

/* Contents of checkpoint page `i`. */
static void fill_page(struct ss_ftl *f, uint32_t i, uint8_t *p)
{
	if (i < f->ckpt_l2p_pages) {
		uint32_t per = f->page_size / 4, first = i * per;

		ss_memset(p, 0xFF, f->page_size);
		for (uint32_t j = 0; j < per && first + j < f->capacity; j++) {
			ss_put_le32(p + 4 * j, f->l2p[first + j]);
		}
		return;
	}
	i -= f->ckpt_l2p_pages;
	{
		uint32_t per = f->page_size / FTL_BLK_ENTRY_BYTES, first = i * per;

		ss_memset(p, 0, f->page_size);
		for (uint32_t j = 0; j < per && first + j < f->nblocks; j++) {
			put_block_entry(p + FTL_BLK_ENTRY_BYTES * j, &f->blocks[first + j]);
		}
	}
}

static void release(struct ss_ftl *f, const uint32_t *list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ftl_block *k = &f->blocks[list[i]];

		if (k->state != FTL_BLK_CKPT) {
			continue;   /* retired meanwhile */
		}
		k->state = FTL_BLK_FREE;
		k->flags = k->wp > 0 ? FTL_BF_DIRTY : 0;
		k->valid = 0;
		f->free_blocks++;
	}
}

static int write_pages(struct ss_ftl *f, uint64_t id, const uint32_t *list)
{
	uint32_t body_crc = 0;
	struct ftl_spare sp;

	for (uint32_t i = 0; i < f->ckpt_pages; i++) {
		uint32_t b = list[i / f->ppb], dcrc;
		struct ftl_block *k = &f->blocks[b];
		uint8_t le[4];
		int rc;

		if (i + 1 < f->ckpt_pages) {
			fill_page(f, i, f->buf);
		} else {
			put_header(f, f->buf, id, body_crc, list);
		}
		dcrc = ss_crc32c(0, f->buf, f->page_size);
		ss_put_le32(le, dcrc);
		body_crc = ss_crc32c(body_crc, le, 4);
		sp.kind = FTL_KIND_CKPT;
		sp.stream = 0xFF;
		sp.lpn = i;
		sp.erase_count = k->erase_count;
		sp.seq = f->next_seq++;
		sp.ref = id;
		sp.data_crc = dcrc;
		ss_memset(f->spare_raw, 0xFF, f->geo.spare_size);
		ftl_spare_encode(f->spare_raw, &sp);
		rc = ss_hal_page_program(f->hal, ftl_ppn(f, b, k->wp), f->buf, f->spare_raw);
		if (rc != 0) {
			if (rc == -SS_EIO) {
				ftl_retire(f, b);
			}
			return rc;
		}
		k->wp++;
		k->seq = sp.seq;
		f->st.nand_page_writes++;
		f->unsynced = true;
	}
	return 0;
}

int ftl_checkpoint(struct ss_ftl *f)
{
	uint32_t n = 0;
	uint64_t id = 0;
	int rc = -SS_EIO;
	bool released = f->ckpt_prev_valid;

	if (f->in_ckpt) {
		return 0;
	}
	f->in_ckpt = true;
	/* The current checkpoint stays intact until the new one is synced. */
	if (f->ckpt_prev_valid) {
		release(f, f->ckpt_prev, f->ckpt_blocks);
		for (uint32_t i = 0; i < f->ckpt_blocks; i++) {
			if (f->blocks[f->ckpt_prev[i]].state == FTL_BLK_FREE) {
				f->blocks[f->ckpt_prev[i]].flags |= FTL_BF_CKPT_OLD;
			}
		}
		f->ckpt_prev_valid = false;
	}
	for (uint32_t attempt = 0; attempt < CKPT_ATTEMPTS; attempt++) {
		for (n = 0; n < f->ckpt_blocks; n++) {
			uint32_t b;

			/* on the lane of the block it replaces: the lanes' free pools stay as
			 * they were, and sequential writes go on striping */
			uint32_t lane = released && attempt == 0 && f->width > 1 ?
					f->ckpt_prev[n] % f->width : FTL_NONE;

			rc = ftl_alloc_block(f, FTL_STREAMS, lane, FTL_ALLOC_CKPT, &b);
			if (rc != 0) {
				break;
			}
			f->blocks[b].state = FTL_BLK_CKPT;
			f->blocks[b].stream = 0xFF;
			f->ckpt_prev[n] = b;   /* prev is free: use it as the new list */
		}
		if (rc == 0) {
			id = f->next_seq - 1;
			rc = write_pages(f, id, f->ckpt_prev);
		}
		if (rc == 0) {
			break;
		}
		release(f, f->ckpt_prev, n);
		if (rc != -SS_EIO) {
			goto out;
		}
	}
	if (rc != 0) {
		goto out;
	}
	rc = ftl_sync(f);
	if (rc != 0) {
		release(f, f->ckpt_prev, f->ckpt_blocks);
		goto out;
	}
	/* Swap: the new list becomes current, the old current becomes prev. */
	for (uint32_t i = 0; i < f->ckpt_blocks; i++) {
		uint32_t t = f->ckpt_cur[i];

		f->ckpt_cur[i] = f->ckpt_prev[i];
		f->ckpt_prev[i] = t;
	}
	f->ckpt_prev_valid = f->ckpt_cur_valid;
	f->ckpt_cur_valid = true;
	f->ckpt_seq = id;
	f->programs_since_ckpt = 0;
	f->ntrims = 0;
	f->st.checkpoints++;
out:
	for (uint32_t b = 0; b < f->nblocks; b++) {
		f->blocks[b].flags &= (uint8_t)~FTL_BF_CKPT_OLD;
	}
	f->in_ckpt = false;
	return rc;
}

static int read_ckpt_page(struct ss_ftl *f, uint64_t id, const uint32_t *list, uint32_t i,
			  uint32_t *dcrc)
{
	uint32_t ppn = ftl_ppn(f, list[i / f->ppb], i % f->ppb);
	struct ftl_spare sp;
	int rc;

	rc = ss_hal_page_read(f->hal, ppn, f->buf, f->spare_raw);
	f->st.nand_page_reads++;
	if (rc != 0) {
		return -SS_EBADMSG;
	}
	if (ftl_spare_decode(f->spare_raw, &sp) != FTL_SPARE_OK || sp.kind != FTL_KIND_CKPT ||
	    sp.ref != id || sp.lpn != i || sp.data_crc != ss_crc32c(0, f->buf, f->page_size)) {
		return -SS_EBADMSG;
	}
	*dcrc = sp.data_crc;
	return 0;
}

static int check_header(struct ss_ftl *f, const uint8_t *p, uint64_t id, const uint32_t *list)
{
	const uint32_t want[] = { f->capacity, f->geo.channels, f->geo.ways,
				  f->geo.blocks_per_die, f->geo.pages_per_block, f->geo.page_size,
				  f->geo.spare_size, f->geo.overprovision_permille, f->ckpt_pages,
				  f->ckpt_blocks };

	if (ss_get_le32(p) != FTL_CKPT_MAGIC || ss_get_le32(p + 4) != FTL_CKPT_VERSION ||
	    ss_get_le64(p + 8) != id) {
		return -SS_EBADMSG;
	}
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(want); i++) {
		if (ss_get_le32(p + 24 + 4 * i) != want[i]) {
			return -SS_EBADMSG;
		}
	}
	for (uint32_t i = 0; i < f->ckpt_blocks; i++) {
		if (ss_get_le32(p + FTL_CKPT_HDR_FIXED + 4 * i) != list[i]) {
			return -SS_EBADMSG;
		}
	}
	if (ss_get_le32(p + 64) > SS_GC_COST_BENEFIT) {
		return -SS_EBADMSG;
	}
	return 0;
}

static void load_header(struct ss_ftl *f, const uint8_t *p)
{
	struct ss_ftl_stats *st = &f->st;

	f->next_seq = ss_get_le64(p + 16);
	f->params.gc_policy = (enum ss_gc_policy)ss_get_le32(p + 64);
	f->params.clean_threshold_permille[0] = ss_get_le16(p + 68);
	f->params.clean_threshold_permille[1] = ss_get_le16(p + 70);
	f->params.clean_threshold_permille[2] = ss_get_le16(p + 72);
	f->params.wear_level_delta = ss_get_le32(p + 76);
	f->params.checkpoint_interval_pages = ss_get_le32(p + 80);
	st->host_page_writes = ss_get_le64(p + 88);
	st->host_page_reads = ss_get_le64(p + 96);
	st->nand_page_writes = ss_get_le64(p + 104);
	st->nand_page_reads = ss_get_le64(p + 112);
	st->block_erases = ss_get_le64(p + 120);
	st->gc_runs = ss_get_le64(p + 128);
	st->gc_page_moves = ss_get_le64(p + 136);
	st->wear_level_moves = ss_get_le64(p + 144);
	st->trimmed_pages = ss_get_le64(p + 152);
	st->checkpoints = ss_get_le64(p + 160);
}

int ftl_ckpt_load(struct ss_ftl *f, uint64_t id, const uint32_t *list, uint32_t *part)
{
	uint32_t body_crc = 0, dcrc, want_crc;
	uint8_t le[4];
	int rc;

	*part = SS_FTL_CKPT_HEADER;
	rc = read_ckpt_page(f, id, list, f->ckpt_pages - 1, &dcrc);
	if (rc != 0) {
		return rc;
	}
	rc = check_header(f, f->buf, id, list);
	if (rc != 0) {
		return rc;
	}
	want_crc = ss_get_le32(f->buf + 84);
	load_header(f, f->buf);
	for (uint32_t i = 0; i + 1 < f->ckpt_pages; i++) {
		*part = i < f->ckpt_l2p_pages ? SS_FTL_CKPT_L2P : SS_FTL_CKPT_BLOCK_TABLE;
		rc = read_ckpt_page(f, id, list, i, &dcrc);
		if (rc != 0) {
			return rc;
		}
		ss_put_le32(le, dcrc);
		body_crc = ss_crc32c(body_crc, le, 4);
		if (i < f->ckpt_l2p_pages) {
			uint32_t per = f->page_size / 4, first = i * per;

			for (uint32_t j = 0; j < per && first + j < f->capacity; j++) {
				f->l2p[first + j] = ss_get_le32(f->buf + 4 * j);
			}
		} else {
			uint32_t per = f->page_size / FTL_BLK_ENTRY_BYTES;
			uint32_t first = (i - f->ckpt_l2p_pages) * per;

			for (uint32_t j = 0; j < per && first + j < f->nblocks; j++) {
				get_block_entry(f->buf + FTL_BLK_ENTRY_BYTES * j,
						&f->blocks[first + j]);
			}
		}
	}
	ss_hal_barrier(f->hal);
	*part = body_crc == want_crc ? SS_FTL_CKPT_INTACT : SS_FTL_CKPT_HEADER;
	return body_crc == want_crc ? 0 : -SS_EBADMSG;
}
