/*
 * Format, mount (newest intact checkpoint + roll-forward), unmount and statistics.
 *
 * Mount reads page 0's spare of every block, loads the newest checkpoint whose pages all
 * check out, and then decides per block:
 *   - page 0 older than the checkpoint: the block is as the checkpoint saw it; if it was
 *     open then, its pages from the saved write pointer on are rolled forward;
 *   - page 0 erased, newer than the checkpoint, torn, or of another checkpoint: the block
 *     was erased since, so the checkpoint's mappings into it are dropped, and whatever it
 *     holds now is rolled forward.
 * Roll-forward replays the scanned pages in global sequence order (a merge over the
 * blocks' cursors), so a later write or trim always wins. Only blocks written since the
 * checkpoint are scanned, which bounds mount time by checkpoint_interval_pages. Blocks that
 * were being written are closed, never appended to after a crash.
 */
#include "ftl_internal.h"

static int check_params(const struct ss_ftl_params *p)
{
	if ((unsigned)p->gc_policy > SS_GC_COST_BENEFIT) {
		return -SS_EINVAL;
	}
	for (uint32_t s = 0; s < SS_STREAM_COUNT; s++) {
		if (p->clean_threshold_permille[s] > 1000) {
			return -SS_EINVAL;
		}
	}
	return 0;
}

int ss_ftl_format(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
		  const struct ss_ftl_params *params)
{
	struct ss_ftl *f;
	struct ftl_spare sp;
	uint32_t need;
	int rc;

	if (out == NULL) {
		return -SS_EINVAL;
	}
	rc = ftl_layout(&f, hal, dram, dram_size);
	if (rc != 0) {
		return rc;
	}
	if (params != NULL) {
		rc = check_params(params);
		if (rc != 0) {
			return rc;
		}
		f->params = *params;
	} else {
		ss_ftl_default_params(&f->params);
	}
	if (f->params.checkpoint_interval_pages == 0) {
		struct ss_ftl_params d;

		ss_ftl_default_params(&d);
		f->params.checkpoint_interval_pages = d.checkpoint_interval_pages;
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct ftl_block *k = &f->blocks[b];

		/* A previous life's wear survives in the spare of page 0. */
		if (ss_hal_page_read(hal, ftl_ppn(f, b, 0), NULL, f->spare_raw) == 0 &&
		    ftl_spare_decode(f->spare_raw, &sp) == FTL_SPARE_OK) {
			k->erase_count = sp.erase_count;
		}
		rc = ftl_erase_free(f, b);
		if (rc == -SS_EIO) {
			continue;
		}
		if (rc != 0) {
			return rc;
		}
		k->state = FTL_BLK_FREE;
		f->free_blocks++;
	}
	ss_hal_barrier(hal);
	/* Capacity is fixed by the geometry: factory-bad blocks come out of the spare. */
	need = SS_DIV_ROUND_UP(f->capacity, f->ppb) + ftl_reserve_host(f) + f->ckpt_blocks +
	       ftl_open_blocks_max(f->width);
	if (f->free_blocks < need) {
		return -SS_EIO;
	}
	rc = ftl_checkpoint(f);
	if (rc != 0) {
		return rc;
	}
	*out = f;
	return 0;
}

/* Page-0 facts of every block into f->rf. \return the highest sequence seen. */
static uint64_t scan_page0(struct ss_ftl *f)
{
	uint64_t max_seq = 0;
	struct ftl_spare sp;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct ftl_cursor *c = &f->rf[b];

		ss_memset(c, 0, sizeof(*c));
		if (ss_hal_page_read(f->hal, ftl_ppn(f, b, 0), NULL, f->spare_raw) != 0) {
			c->status = FTL_CUR_READERR;
			continue;
		}
		f->st.nand_page_reads++;
		c->status = (uint8_t)ftl_spare_decode(f->spare_raw, &sp);
		if (c->status != FTL_SPARE_OK) {
			continue;
		}
		c->kind = sp.kind;
		c->seq = sp.seq;
		c->ref = sp.ref;
		c->lpn = sp.lpn;
		c->erase_count = sp.erase_count;
		max_seq = SS_MAX(max_seq, sp.seq);
	}
	ss_hal_barrier(f->hal);
	return max_seq;
}

/* Checkpoint ids present (page 0 of their first block), newest first. */
static uint32_t find_ckpt_ids(struct ss_ftl *f, uint64_t *ids)
{
	uint32_t n = 0;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ftl_cursor *c = &f->rf[b];
		uint32_t i;

		if (c->status != FTL_SPARE_OK || c->kind != FTL_KIND_CKPT || c->lpn != 0) {
			continue;
		}
		for (i = 0; i < n && ids[i] > c->ref; i++) {
		}
		if ((i < n && ids[i] == c->ref) || i == FTL_MAX_CKPT_IDS) {
			continue;
		}
		if (n == FTL_MAX_CKPT_IDS) {
			n--;
		}
		ss_memmove(&ids[i + 1], &ids[i], (n - i) * sizeof(*ids));
		ids[i] = c->ref;
		n++;
	}
	return n;
}

static bool ckpt_blocks_of(struct ss_ftl *f, uint64_t id, uint32_t *list)
{
	for (uint32_t o = 0; o < f->ckpt_blocks; o++) {
		list[o] = FTL_NONE;
		for (uint32_t b = 0; b < f->nblocks; b++) {
			const struct ftl_cursor *c = &f->rf[b];

			if (c->status == FTL_SPARE_OK && c->kind == FTL_KIND_CKPT && c->ref == id &&
			    c->lpn == o * f->ppb) {
				list[o] = b;
				break;
			}
		}
		if (list[o] == FTL_NONE) {
			return false;
		}
	}
	return true;
}

/* Decide each block's state after the checkpoint; list blocks to scan in p2l (scratch). */
static uint32_t reconcile(struct ss_ftl *f, uint64_t id)
{
	uint32_t ncand = 0;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct ftl_block *k = &f->blocks[b];
		struct ftl_cursor *c = &f->rf[b];
		uint8_t was = k->state;
		uint32_t scan_from = FTL_NONE;

		k->valid = 0;
		k->trim_seq = 0;
		k->mark = 0;
		if (c->status == FTL_SPARE_OK && c->erase_count > k->erase_count) {
			k->erase_count = c->erase_count;
		}
		if (was == FTL_BLK_BAD) {
			k->flags = 0;
			continue;
		}
		if (c->status == FTL_CUR_READERR) {
			/* Unreadable page 0: keep the checkpoint's view, move the data out. */
			k->state = (was == FTL_BLK_FULL || was == FTL_BLK_OPEN) ? FTL_BLK_FULL :
				   FTL_BLK_BAD;
			k->flags = k->state == FTL_BLK_FULL ? FTL_BF_RETIRE : 0;
			k->wp = (uint16_t)f->ppb;
			continue;
		}
		if (c->status == FTL_SPARE_OK && c->kind == FTL_KIND_CKPT && c->ref == id) {
			/* The checkpoint's table has this block's write pointer from before the
			 * checkpoint's own pages reached it (0 for a block past the table pages):
			 * taken as written, so the checkpoint that releases it marks it dirty and
			 * it is erased before it is programmed again. */
			k->state = FTL_BLK_CKPT;
			k->flags = 0;
			k->wp = (uint16_t)f->ppb;
			continue;
		}
		if (c->status == FTL_SPARE_OK && c->kind != FTL_KIND_CKPT && c->seq <= id &&
		    (was == FTL_BLK_FULL || was == FTL_BLK_OPEN)) {
			if (was == FTL_BLK_OPEN) {
				scan_from = k->wp;
			}
			k->state = FTL_BLK_FULL;
			k->flags &= FTL_BF_RETIRE;
		} else if (c->status == FTL_SPARE_ERASED || c->kind == FTL_KIND_CKPT ||
			   (c->status == FTL_SPARE_OK && c->seq <= id)) {
			k->mark = 1;
			k->state = FTL_BLK_FREE;
			k->flags = FTL_BF_DIRTY;
		} else {
			/* Erased and rewritten since the checkpoint (or page 0 torn). */
			k->mark = 1;
			k->state = FTL_BLK_FULL;
			k->flags = 0;
			k->stream = FTL_STREAM_GC;
			scan_from = 0;
		}
		k->wp = (uint16_t)f->ppb;
		if (scan_from != FTL_NONE && scan_from < f->ppb) {
			c->page = (uint16_t)scan_from;
			c->status = 0;
			f->p2l[ncand++] = b;
		}
	}
	return ncand;
}

/* Move the cursor of block b to its next page written after checkpoint `id`. */
static void advance(struct ss_ftl *f, uint32_t b, uint64_t id, uint64_t *max_seq)
{
	struct ftl_cursor *c = &f->rf[b];
	struct ftl_spare sp;

	for (; c->page < f->ppb; c->page++) {
		enum ftl_spare_status s;

		if (ss_hal_page_read(f->hal, ftl_ppn(f, b, c->page), NULL, f->spare_raw) != 0) {
			continue;
		}
		f->st.nand_page_reads++;
		s = ftl_spare_decode(f->spare_raw, &sp);
		if (s == FTL_SPARE_ERASED) {
			break;   /* pages are programmed in order: nothing after this */
		}
		if (s != FTL_SPARE_OK) {
			continue;
		}
		*max_seq = SS_MAX(*max_seq, sp.seq);
		if (f->blocks[b].seq < sp.seq) {
			f->blocks[b].seq = sp.seq;
		}
		if (sp.seq <= id || sp.kind == FTL_KIND_CKPT) {
			continue;
		}
		c->seq = sp.seq;
		c->kind = sp.kind;
		c->lpn = sp.lpn;
		c->data_crc = sp.data_crc;
		c->status = FTL_SPARE_OK;
		return;
	}
	c->status = FTL_CUR_DONE;
}

static void replay_page(struct ss_ftl *f, uint32_t b, const struct ftl_cursor *c)
{
	uint32_t ppn = ftl_ppn(f, b, c->page);

	if (ss_hal_page_read(f->hal, ppn, f->buf, NULL) != 0) {
		return;
	}
	f->st.nand_page_reads++;
	if (ss_crc32c(0, f->buf, f->page_size) != c->data_crc) {
		return;   /* torn or corrupt: never mapped */
	}
	if (c->kind == FTL_KIND_DATA) {
		if (c->lpn < f->capacity) {
			f->l2p[c->lpn] = ppn;
			f->st.rollforward_pages++;
		}
		return;
	}
	if (ss_get_le32(f->buf) != FTL_TRIM_MAGIC) {
		return;
	}
	{
		uint32_t n = SS_MIN(ss_get_le32(f->buf + 4), f->trims_per_page);

		for (uint32_t i = 0; i < n; i++) {
			uint32_t lpn = ss_get_le32(f->buf + 8 + 8 * i);
			uint32_t cnt = ss_get_le32(f->buf + 12 + 8 * i);

			for (uint32_t l = lpn; l < f->capacity && l - lpn < cnt; l++) {
				f->l2p[l] = FTL_NONE;
			}
		}
		f->blocks[b].trim_seq = c->seq;
		f->st.rollforward_pages++;
	}
}

static void roll_forward(struct ss_ftl *f, uint32_t ncand, uint64_t id, uint64_t *max_seq)
{
	for (uint32_t i = 0; i < ncand; i++) {
		advance(f, f->p2l[i], id, max_seq);
	}
	for (;;) {
		uint32_t best = FTL_NONE;

		for (uint32_t i = 0; i < ncand; i++) {
			const struct ftl_cursor *c = &f->rf[f->p2l[i]];

			if (c->status == FTL_SPARE_OK &&
			    (best == FTL_NONE || c->seq < f->rf[best].seq)) {
				best = f->p2l[i];
			}
		}
		if (best == FTL_NONE) {
			break;
		}
		replay_page(f, best, &f->rf[best]);
		f->rf[best].page++;
		advance(f, best, id, max_seq);
	}
	ss_hal_barrier(f->hal);
}

/* P2L, valid counts and pool counters from the final L2P and block states. */
static void rebuild(struct ss_ftl *f)
{
	ss_memset(f->p2l, 0xFF, f->total_pages * 4);
	for (uint32_t lpn = 0; lpn < f->capacity; lpn++) {
		uint32_t ppn = f->l2p[lpn];

		if (ppn == FTL_NONE) {
			continue;
		}
		f->p2l[ppn] = lpn;
		f->blocks[ppn / f->ppb].valid++;
	}
	f->free_blocks = 0;
	f->retiring = 0;
	f->st.retired_blocks = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct ftl_block *k = &f->blocks[b];

		if (k->state == FTL_BLK_FULL && (k->flags & FTL_BF_RETIRE) && k->valid == 0) {
			k->state = FTL_BLK_BAD;
			k->flags = 0;
		}
		f->free_blocks += k->state == FTL_BLK_FREE;
		f->st.retired_blocks += k->state == FTL_BLK_BAD || (k->flags & FTL_BF_RETIRE);
		f->retiring += (k->flags & FTL_BF_RETIRE) && !(k->flags & FTL_BF_STUCK);
	}
}

int ss_ftl_mount(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size)
{
	uint32_t damaged;

	return ss_ftl_mount_report(out, hal, dram, dram_size, &damaged);
}

int ss_ftl_mount_report(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
			uint32_t *damaged)
{
	uint64_t ids[FTL_MAX_CKPT_IDS], id = 0, max_seq;
	struct ss_ftl *f;
	uint32_t nids, ncand, part;
	int rc = -SS_EBADMSG;

	*damaged = SS_FTL_CKPT_INTACT;
	if (out == NULL) {
		return -SS_EINVAL;
	}
	rc = ftl_layout(&f, hal, dram, dram_size);
	if (rc != 0) {
		return rc;
	}
	max_seq = scan_page0(f);
	nids = find_ckpt_ids(f, ids);
	if (nids == 0) {
		return -SS_ENODATA;
	}
	rc = -SS_EBADMSG;
	for (uint32_t i = 0; i < nids && rc != 0; i++) {
		part = SS_FTL_CKPT_BLOCKS;
		if (ckpt_blocks_of(f, ids[i], f->ckpt_cur)) {
			id = ids[i];
			rc = ftl_ckpt_load(f, id, f->ckpt_cur, &part);
		}
		if (i == 0) {
			*damaged = part;
		}
	}
	if (rc != 0) {
		return rc;
	}
	*damaged = SS_FTL_CKPT_INTACT;
	/* Mappings into blocks erased since the checkpoint are stale. */
	ncand = reconcile(f, id);
	for (uint32_t lpn = 0; lpn < f->capacity; lpn++) {
		uint32_t ppn = f->l2p[lpn];

		if (ppn != FTL_NONE && (ppn >= f->total_pages || f->blocks[ppn / f->ppb].mark ||
					f->blocks[ppn / f->ppb].state != FTL_BLK_FULL)) {
			f->l2p[lpn] = FTL_NONE;
		}
	}
	f->st.rollforward_pages = 0;
	roll_forward(f, ncand, id, &max_seq);
	rebuild(f);
	/* Above every sequence on flash, including unscanned pages of torn checkpoints. */
	f->next_seq = SS_MAX(f->next_seq, max_seq) + f->total_pages + 1;
	f->ckpt_seq = id;
	f->ckpt_cur_valid = true;
	f->ckpt_prev_valid = false;
	f->programs_since_ckpt = (uint32_t)f->st.rollforward_pages;
	/* Fold the replay into a checkpoint; without room it stays replayable as it is. */
	if (ncand > 0) {
		rc = ftl_checkpoint(f);
		if (rc != 0 && rc != -SS_ENOSPC) {
			return rc;
		}
	}
	*out = f;
	return 0;
}

int ss_ftl_unmount(struct ss_ftl *ftl)
{
	if (ftl == NULL) {
		return -SS_EINVAL;
	}
	return ftl_checkpoint(ftl);
}

void ss_ftl_get_stats(const struct ss_ftl *ftl, struct ss_ftl_stats *st)
{
	uint64_t sum = 0;
	uint32_t good = 0, mapped = 0;

	*st = ftl->st;
	st->min_erase_count = FTL_NONE;
	st->max_erase_count = 0;
	for (uint32_t b = 0; b < ftl->nblocks; b++) {
		const struct ftl_block *k = &ftl->blocks[b];

		mapped += k->valid;
		if (k->state == FTL_BLK_BAD) {
			continue;
		}
		good++;
		sum += k->erase_count;
		st->min_erase_count = SS_MIN(st->min_erase_count, k->erase_count);
		st->max_erase_count = SS_MAX(st->max_erase_count, k->erase_count);
	}
	if (good == 0) {
		st->min_erase_count = 0;
	}
	st->avg_erase_count = good ? (uint32_t)(sum / good) : 0;
	st->free_blocks = ftl->free_blocks;
	st->total_blocks = ftl->nblocks;
	st->mapped_pages = mapped;
}

uint32_t ss_ftl_write_amplification_milli(const struct ss_ftl *ftl)
{
	uint64_t h = ftl->st.host_page_writes;

	if (h == 0) {
		return 0;
	}
	return (uint32_t)SS_MIN(ftl->st.nand_page_writes * 1000 / h, UINT32_MAX);
}
