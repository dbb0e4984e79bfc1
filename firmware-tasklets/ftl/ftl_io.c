/*
 * Host I/O: read, write, trim and flush of logical pages. A trim unmaps at once in DRAM;
 * it becomes durable when its range is written as a trim-record page, at flush (or when
 * the pending list fills, or before GC erases a block), so a flushed trim can never be
 * undone by a roll-forward over older copies.
 */
#include "ftl_internal.h"

uint32_t ss_ftl_capacity_pages(const struct ss_ftl *ftl)
{
	return ftl->capacity;
}

uint32_t ss_ftl_page_size(const struct ss_ftl *ftl)
{
	return ftl->page_size;
}

int ss_ftl_lookup(const struct ss_ftl *ftl, uint32_t lpn, uint32_t *ppn)
{
	if (ftl == NULL || ppn == NULL) {
		return -SS_EINVAL;
	}
	if (lpn >= ftl->capacity) {
		return -SS_ERANGE;
	}
	*ppn = ftl->l2p[lpn];
	return *ppn == FTL_NONE ? 1 : 0;
}

/* The spare's CRC turns silent corruption into an error instead of wrong data. Touches
 * only its arguments: the hal may run it on another thread (ss_ftl_read_start). */
static int check_data(const void *data, uint32_t len, const void *spare, uint32_t lpn)
{
	struct ftl_spare sp;

	if (ftl_spare_decode(spare, &sp) != FTL_SPARE_OK || sp.kind != FTL_KIND_DATA ||
	    sp.lpn != lpn || sp.data_crc != ss_crc32c(0, data, len)) {
		return -SS_EIO;
	}
	return 0;
}

/* The page `lpn` maps to: 0 with *ppn set; 1 (buf zeroed) when unmapped; < 0. */
static int read_lookup(struct ss_ftl *ftl, uint32_t lpn, void *buf, uint32_t *ppn)
{
	if (ftl == NULL || buf == NULL) {
		return -SS_EINVAL;
	}
	if (lpn >= ftl->capacity) {
		return -SS_ERANGE;
	}
	ftl->st.host_page_reads++;
	*ppn = ftl->l2p[lpn];
	if (*ppn == FTL_NONE) {
		ss_memset(buf, 0, ftl->page_size);
		return 1;
	}
	return 0;
}

int ss_ftl_read(struct ss_ftl *ftl, uint32_t lpn, void *buf)
{
	uint32_t ppn;
	int rc = read_lookup(ftl, lpn, buf, &ppn);

	if (rc != 0) {
		return rc;
	}
	rc = ss_hal_page_read(ftl->hal, ppn, buf, ftl->spare_raw);
	ftl->st.nand_page_reads++;
	if (rc != 0) {
		return rc == -SS_EIO ? -SS_EIO : rc;
	}
	return check_data(buf, ftl->page_size, ftl->spare_raw, lpn);
}

int ss_ftl_read_start(struct ss_ftl *ftl, uint32_t lpn, void *buf)
{
	uint32_t ppn;
	int rc;

	if (ftl != NULL && !ss_hal_can_read_start(ftl->hal)) {
		/* read now; a failure still waits for ss_ftl_read_wait, as it would with DMA */
		rc = ss_ftl_read(ftl, lpn, buf);
		if (rc == -SS_EIO) {
			ftl->read_err = ftl->read_err ? ftl->read_err : rc;
			rc = 0;
		}
		return rc;
	}
	rc = read_lookup(ftl, lpn, buf, &ppn);
	if (rc != 0) {
		return rc;
	}
	rc = ss_hal_page_read_start(ftl->hal, ppn, buf, check_data, lpn);
	ftl->st.nand_page_reads++;
	return rc;
}

int ss_ftl_read_wait(struct ss_ftl *ftl)
{
	int rc, err;

	if (ftl == NULL) {
		return -SS_EINVAL;
	}
	rc = ss_hal_read_wait(ftl->hal);
	err = ftl->read_err;
	ftl->read_err = 0;
	return err ? err : (rc ? -SS_EIO : 0);
}

static bool trim_pending(const struct ss_ftl *f, uint32_t lpn)
{
	for (uint32_t i = 0; i < f->ntrims; i++) {
		if (lpn >= f->trims[i].lpn && lpn - f->trims[i].lpn < f->trims[i].count) {
			return true;
		}
	}
	return false;
}

int ss_ftl_write(struct ss_ftl *ftl, uint32_t lpn, const void *buf, enum ss_stream stream,
		 unsigned flags)
{
	uint32_t ppn, old, crc;
	int rc;

	if (ftl == NULL || buf == NULL || (unsigned)stream >= SS_STREAM_COUNT) {
		return -SS_EINVAL;
	}
	if (lpn >= ftl->capacity) {
		return -SS_ERANGE;
	}
	/* A trim record replays after every page older than it: log a pending trim of this
	 * page before the new data, or the replay would trim the new data too. */
	if (trim_pending(ftl, lpn)) {
		rc = ftl_trims_write(ftl);
		if (rc != 0) {
			return rc;
		}
	}
	crc = ss_crc32c(0, buf, ftl->page_size);
	rc = ftl_append(ftl, (uint32_t)stream, FTL_KIND_DATA, lpn, buf, crc, &ppn);
	if (rc != 0) {
		return rc;
	}
	/* Read the old mapping only now: GC run by the append may have moved it. */
	old = ftl->l2p[lpn];
	if (old != FTL_NONE) {
		ftl_invalidate(ftl, old);
	}
	ftl->l2p[lpn] = ppn;
	ftl->p2l[ppn] = lpn;
	ftl->blocks[ppn / ftl->ppb].valid++;
	ftl->st.host_page_writes++;
	if (flags & SS_FTL_FUA) {
		rc = ftl_sync(ftl);
		if (rc != 0) {
			return rc;
		}
	}
	if (ftl->programs_since_ckpt >= ftl->params.checkpoint_interval_pages &&
	    ftl_checkpoint(ftl) != 0) {
		/* The write itself is done; try the checkpoint again a while later. */
		ftl->programs_since_ckpt = ftl->params.checkpoint_interval_pages / 2;
	}
	return 0;
}

static int add_trim(struct ss_ftl *f, uint32_t lpn, uint32_t count)
{
	struct ftl_trim_range *last = f->ntrims ? &f->trims[f->ntrims - 1] : NULL;
	int rc;

	if (last != NULL && lpn >= last->lpn && lpn <= last->lpn + last->count) {
		uint32_t end = SS_MAX(last->lpn + last->count, lpn + count);

		last->count = end - last->lpn;
		return 0;
	}
	if (f->ntrims == f->trims_cap) {
		rc = ftl_trims_write(f);
		if (rc != 0) {
			return rc;
		}
	}
	f->trims[f->ntrims].lpn = lpn;
	f->trims[f->ntrims].count = count;
	f->ntrims++;
	return 0;
}

int ss_ftl_trim(struct ss_ftl *ftl, uint32_t lpn, uint32_t count)
{
	int rc;

	if (ftl == NULL) {
		return -SS_EINVAL;
	}
	if (lpn >= ftl->capacity || count > ftl->capacity - lpn) {
		return -SS_ERANGE;
	}
	if (count == 0) {
		return 0;
	}
	/* Log the range first: a trim that cannot be made durable changes nothing. */
	rc = add_trim(ftl, lpn, count);
	if (rc != 0) {
		return rc;
	}
	for (uint32_t i = lpn; i < lpn + count; i++) {
		uint32_t ppn = ftl->l2p[i];

		if (ppn != FTL_NONE) {
			ftl_invalidate(ftl, ppn);
			ftl->l2p[i] = FTL_NONE;
			ftl->st.trimmed_pages++;
		}
	}
	return 0;
}

/* Write every pending trim range as trim-record pages (GC stream). */
int ftl_trims_write(struct ss_ftl *f)
{
	uint32_t done = 0;
	int rc = 0;

	while (done < f->ntrims) {
		uint32_t n = SS_MIN(f->ntrims - done, f->trims_per_page), ppn;
		uint8_t *p = f->buf;

		ss_memset(p, 0, f->page_size);
		ss_put_le32(p, FTL_TRIM_MAGIC);
		ss_put_le32(p + 4, n);
		for (uint32_t i = 0; i < n; i++) {
			ss_put_le32(p + 8 + 8 * i, f->trims[done + i].lpn);
			ss_put_le32(p + 12 + 8 * i, f->trims[done + i].count);
		}
		rc = ftl_append(f, FTL_STREAM_GC, FTL_KIND_TRIM, FTL_NONE, p,
				ss_crc32c(0, p, f->page_size), &ppn);
		if (rc != 0) {
			break;
		}
		done += n;
	}
	if (done > 0) {
		ss_memmove(f->trims, f->trims + done, (f->ntrims - done) * sizeof(*f->trims));
		f->ntrims -= done;
	}
	return rc;
}

int ss_ftl_flush(struct ss_ftl *ftl)
{
	int rc;

	if (ftl == NULL) {
		return -SS_EINVAL;
	}
	rc = ftl_trims_write(ftl);
	if (rc != 0) {
		return rc;
	}
	return ftl->unsynced ? ftl_sync(ftl) : 0;
}
