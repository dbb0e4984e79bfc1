/* The buffer's host requests: reads of three kinds, the read-ahead that streaming reads
 * start, writes, FLUSH, FUA, TRIM, the counters and sector I/O (buf_init.c says where the
 * rest of the mechanism is). */
#include "buf_internal.h"

static bool range_bad(const struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	return lpn >= b->capacity || count > b->capacity - lpn;
}

/* Pages of the request from `lpn` (`left` of them) in lpn's block that are not in the buffer.
 * Room is made for them all before the first enters, so a request never evicts the block
 * it is filling (a request is handled block by block [Gong 2010, §3.3, p. 23]). */
static uint32_t missing_in_block(const struct ss_buf *b, uint32_t lpn, uint32_t left)
{
	uint32_t ppb = b->p.pages_per_block;
	uint32_t n = SS_MIN(left, ppb - lpn % ppb), missing = 0;

	for (uint32_t i = 0; i < n; i++) {
		missing += buf_find_page(b, lpn + i) == BUF_NIL;
	}
	return missing;
}

/* What to make room for before page `i` of a request enters: its block's missing pages at
 * the request's first page in each block, and then nothing more. */
static uint32_t room_for(const struct ss_buf *b, uint32_t lpn, uint32_t i, uint32_t count)
{
	if (i == 0 || (lpn + i) % b->p.pages_per_block == 0) {
		return missing_in_block(b, lpn + i, count - i);
	}
	return 1;
}

/* The page `lpn` enters the buffer (room already made). \return its frame. */
static uint32_t enter(struct ss_buf *b, uint32_t lpn, enum ss_stream stream, bool *first)
{
	uint32_t lbn = buf_lbn(b, lpn);
	uint32_t blk = buf_find_block(b, lbn);

	if (blk == BUF_NIL) {
		blk = buf_add_block(b, lbn);
	}
	*first = b->blocks[blk].last_req != b->req;
	b->blocks[blk].last_req = b->req;
	return buf_add_page(b, lpn, blk, stream);
}

static void next_request(struct ss_buf *b)
{
	if (!b->in_request) {
		b->req++;
	}
}


void ss_buf_begin(struct ss_buf *b)
{
	if (b && b->in_request++ == 0) {
		b->req++;
	}
}

void ss_buf_end(struct ss_buf *b)
{
	if (b && b->in_request && --b->in_request == 0) {
#ifndef SS_BUF_BOARD
		if (ss_buf_policy_is_nv(b->p.policy)) {
			buf_nv_end(b);
		}
#endif
		(void)buf_read_ahead(b);   /* a failed read-ahead costs only its pages */
	}
}

void ss_buf_set_read_ahead(struct ss_buf *b, struct ss_hal *hal)
{
	b->hal = hal;
}

#ifdef SS_BUF_BOARD
int buf_read_ahead(struct ss_buf *b)
{
	b->ra_due = false;
	return 0;
}

int buf_fetch(struct ss_buf *b, uint32_t lpn, void *dst, bool *hit)
{
	*hit = false;
	return b->read_start ? ss_ftl_read_start(b->ftl, lpn, dst) : ss_ftl_read(b->ftl, lpn, dst);
}
#else
/* At the end of a streaming request that continued the previous one: unless the staging
 * area holds at least half a window past where it ended, fill it with the next window. */
int buf_read_ahead(struct ss_buf *b)
{
	uint32_t end = b->seq_end, n;
	int rc = 0;

	if (!b->ra_due || b->p.read_ahead_pages == 0 || !b->hal || end >= b->capacity) {
		b->ra_due = false;
		return 0;
	}
	b->ra_due = false;
	if (b->ra_valid && b->ra_lo <= end && b->ra_hi >= end + b->p.read_ahead_pages / 2) {
		return 0;
	}
	n = SS_MIN(b->p.read_ahead_pages, b->capacity - end);
	b->ra_valid = false;
	ss_hal_read_ahead(b->hal, 1);
	for (uint32_t i = 0; i < n && rc >= 0; i++) {
		rc = ss_ftl_read(b->ftl, end + i, b->ra_buf + (size_t)i * b->page_size);
	}
	ss_hal_read_ahead(b->hal, 0);
	if (rc < 0) {
		return rc;
	}
	b->ra_lo = end;
	b->ra_hi = end + n;
	b->ra_valid = true;
	b->ra_waited = false;
	b->st.read_ahead_pages += n;
	return 0;
}

/* A page the buffer does not hold: from the staging area, or the flash. */
int buf_fetch(struct ss_buf *b, uint32_t lpn, void *dst, bool *hit)
{
	if (buf_staged(b, lpn)) {
		if (!b->ra_waited) {
			ss_hal_read_ahead_wait(b->hal);
			b->ra_waited = true;
		}
		ss_memcpy(dst, b->ra_buf + (size_t)(lpn - b->ra_lo) * b->page_size, b->page_size);
		b->st.read_ahead_hits++;
		*hit = true;
		return 0;
	}
	*hit = false;
	return b->read_start ? ss_ftl_read_start(b->ftl, lpn, dst) : ss_ftl_read(b->ftl, lpn, dst);
}
#endif

static bool first_touch(struct ss_buf *b, uint32_t pg)
{
	struct buf_block *k = &b->blocks[b->pages[pg].blk];
	bool first = k->last_req != b->req;

	k->last_req = b->req;
	return first;
}

enum read_kind {
	READ_ONE,      /* a host read: cached as the policy says */
	READ_STREAM,   /* the same, and sequential streams are read ahead */
	READ_SCAN,     /* served from the buffer when there, never cached (tasklet input) */
};
_Static_assert(READ_SCAN == 2, "buf_nv.c's KIND_SCAN");

static int do_read(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out,
		   enum read_kind kind)
{
	uint8_t *dst = out;
	int rc;

	if (!b || (!out && count)) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	if (b->ops && kind != READ_SCAN) {
		next_request(b);
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		uint32_t spp = b->page_size / BUF_SECTOR;

		rc = buf_nv_read(b, (uint64_t)lpn * spp, count * spp, out, (int)kind);
		if (rc || kind != READ_STREAM) {
			return rc;
		}
		if (lpn == b->seq_end) {
			b->ra_due = true;
		}
		b->seq_end = lpn + count;
		return b->in_request ? 0 : buf_read_ahead(b);
	}
#endif
	for (uint32_t i = 0; i < count; i++, dst += b->page_size) {
		uint32_t pg = b->ops ? buf_find_page(b, lpn + i) : BUF_NIL;
		bool first, hit;

		if (kind != READ_SCAN) {
			b->st.read_pages++;
		}
		if (pg != BUF_NIL) {
			ss_memcpy(dst, buf_frame(b, pg), b->page_size);
			if (kind != READ_SCAN) {
				b->st.read_hits++;
				first = first_touch(b, pg);
				b->ops->touch(b, b->pages[pg].blk, pg, false, false, first);
			}
			continue;
		}
		/* buf_staged read-ahead is a sequential stream's: served, not cached */
		if (!b->ops || !b->ops->read_allocates || kind == READ_SCAN || buf_staged(b, lpn + i)) {
			rc = buf_fetch(b, lpn + i, dst, &hit);
			if (rc < 0) {
				return rc;
			}
			b->st.read_hits += hit && kind != READ_SCAN;
			continue;
		}
		rc = buf_make_room(b, room_for(b, lpn, i, count));
		if (rc) {
			return rc;
		}
		pg = enter(b, lpn + i, SS_STREAM_COLD, &first);
		rc = ss_ftl_read(b->ftl, lpn + i, buf_frame(b, pg));
		if (rc < 0) {
			buf_remove_page(b, pg);
			return rc;
		}
		ss_memcpy(dst, buf_frame(b, pg), b->page_size);
		b->ops->touch(b, b->pages[pg].blk, pg, false, true, first);
	}
	if (kind == READ_STREAM) {
		/* issued when the request ends: the hal waits for all read-ahead at once, so
		 * one issued mid-request would be waited for by the request's own later reads */
		if (lpn == b->seq_end) {
			b->ra_due = true;
		}
		b->seq_end = lpn + count;
		return b->in_request ? 0 : buf_read_ahead(b);
	}
	return 0;
}

int ss_buf_read(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_ONE);
}

int ss_buf_read_stream(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_STREAM);
}

int ss_buf_read_scan(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	return do_read(b, lpn, count, out, READ_SCAN);
}

int ss_buf_read_scan_start(struct ss_buf *b, uint32_t lpn, uint32_t count, void *out)
{
	int rc;

	if (!b) {
		return -SS_EINVAL;
	}
	b->read_start = true;
	rc = do_read(b, lpn, count, out, READ_SCAN);
	b->read_start = false;
	return rc;
}

int ss_buf_write(struct ss_buf *b, uint32_t lpn, uint32_t count, const void *data,
		 enum ss_stream stream, unsigned flags)
{
	const uint8_t *src = data;
	int rc;

	if (!b || (!data && count) || (unsigned)stream >= SS_STREAM_COUNT) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	buf_unstage(b, lpn, count);
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		uint32_t spp = b->page_size / BUF_SECTOR;

		next_request(b);
		/* FUA adds nothing: every write to the merge cache is durable on return */
		return buf_nv_write(b, (uint64_t)lpn * spp, count * spp, data, stream);
	}
#endif
	if (!b->ops) {
		for (uint32_t i = 0; i < count; i++) {
			rc = buf_ftl_put(b, lpn + i, src + (size_t)i * b->page_size, stream,
					  i + 1 == count ? flags : 0);
			if (rc) {
				return rc;
			}
		}
		return 0;
	}
	next_request(b);
	for (uint32_t i = 0; i < count; i++, src += b->page_size) {
		uint32_t pg = buf_find_page(b, lpn + i);
		bool first, is_new = pg == BUF_NIL;

		b->st.write_pages++;
		if (!is_new) {
			b->st.write_hits++;
			if (b->pages[pg].dirty) {
				b->st.merges++;
			}
			first = first_touch(b, pg);
		} else {
			rc = buf_make_room(b, room_for(b, lpn, i, count));
			if (rc) {
				return rc;
			}
			pg = enter(b, lpn + i, stream, &first);
		}
		ss_memcpy(buf_frame(b, pg), src, b->page_size);
		b->pages[pg].stream = (uint8_t)stream;
		buf_set_dirty(b, pg);
		b->ops->touch(b, b->pages[pg].blk, pg, true, is_new, first);
	}
	if (flags & SS_FTL_FUA) {
		/* written through: the pages stay cached, clean */
		for (uint32_t i = 0; i < count; i++) {
			uint32_t pg = buf_find_page(b, lpn + i);

			if (pg == BUF_NIL || !b->pages[pg].dirty) {
				continue;   /* already written out as a victim */
			}
			rc = buf_ftl_put(b, lpn + i, buf_frame(b, pg), stream, 0);
			if (rc) {
				return rc;
			}
			buf_set_clean(b, pg);
		}
		return ss_ftl_flush(b->ftl);
	}
	return 0;
}

void ss_buf_invalidate(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (!b || range_bad(b, lpn, count)) {
		return;
	}
	buf_unstage(b, lpn, count);
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_invalidate(b, lpn, count);
		return;
	}
#endif
	for (uint32_t i = 0; b->ops && b->st.resident_pages && i < count; i++) {
		uint32_t pg = buf_find_page(b, lpn + i);

		if (pg != BUF_NIL) {
			buf_remove_page(b, pg);
		}
	}
}

int ss_buf_cached(const struct ss_buf *b, uint32_t lpn)
{
	if (!b || lpn >= b->capacity) {
		return 0;
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_cached(b, lpn);
	}
#endif
	return b->ops && buf_find_page(b, lpn) != BUF_NIL;
}

int ss_buf_trim(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (!b) {
		return -SS_EINVAL;
	}
	if (range_bad(b, lpn, count)) {
		return -SS_ERANGE;
	}
	ss_buf_invalidate(b, lpn, count);
	return ss_ftl_trim(b->ftl, lpn, count);
}

int ss_buf_writeback(struct ss_buf *b)
{
	if (!b) {
		return -SS_EINVAL;
	}
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_writeback(b);
	}
#endif
	if (!b->ops || b->st.dirty_pages == 0) {
		return 0;
	}
	for (uint32_t blk = 0; blk < b->p.pages; blk++) {
		struct buf_block *k = &b->blocks[blk];

		if (k->npages && k->ndirty) {   /* a free node has no pages */
			int rc = buf_write_block(b, blk, false, false);

			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

int ss_buf_flush(struct ss_buf *b)
{
	int rc;

#ifndef SS_BUF_BOARD
	if (b && ss_buf_policy_is_nv(b->p.policy)) {
		return buf_nv_flush(b);
	}
#endif
	rc = ss_buf_writeback(b);

	return rc ? rc : ss_ftl_flush(b->ftl);
}

void ss_buf_get_stats(const struct ss_buf *b, struct ss_buf_stats *st)
{
	*st = b->st;
	st->block_region_pages = b->block_pages;
	st->threshold = b->p.policy == SS_BUF_HBM ? b->thr : 0;
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_stats(b, st);
	}
#endif
}

#ifndef SS_BUF_BOARD
int ss_buf_sector_io(const struct ss_buf *b)
{
	return b && ss_buf_policy_is_nv(b->p.policy);
}
#endif

static bool sectors_bad(const struct ss_buf *b, uint64_t lba, uint32_t count)
{
	uint64_t cap = (uint64_t)b->capacity * (b->page_size / BUF_SECTOR);

	return lba > cap || count > cap - lba;
}

int ss_buf_read_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, void *out)
{
	if (!ss_buf_sector_io(b) || (!out && count)) {
		return -SS_EINVAL;
	}
	if (sectors_bad(b, lba, count)) {
		return -SS_ERANGE;
	}
	next_request(b);
#ifndef SS_BUF_BOARD
	return buf_nv_read(b, lba, count, out, READ_ONE);
#else
	return -SS_EINVAL;
#endif
}

int ss_buf_write_sectors(struct ss_buf *b, uint64_t lba, uint32_t count, const void *data)
{
	if (!ss_buf_sector_io(b) || (!data && count)) {
		return -SS_EINVAL;
	}
	if (sectors_bad(b, lba, count)) {
		return -SS_ERANGE;
	}
	next_request(b);
#ifndef SS_BUF_BOARD
	return buf_nv_write(b, lba, count, data, SS_STREAM_HOT);
#else
	return -SS_EINVAL;
#endif
}

const struct ss_buf_params *ss_buf_get_params(const struct ss_buf *b)
{
	return &b->p;
}

struct ss_ftl *ss_buf_ftl(struct ss_buf *b)
{
	return b->ftl;
}
