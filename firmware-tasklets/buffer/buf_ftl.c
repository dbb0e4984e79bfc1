/* Writing to the FTL: the read-ahead staging area made stale by writes, victims written
 * in LPN order (padding for BPLRU, clean pages too for HBM), making room by evicting what
 * the policy chooses (buf_init.c says where the rest of the mechanism is). */
#include "buf_internal.h"

/* The board's hal has no read-ahead (SS_BUF_BOARD): a staging area would only read
 * ahead synchronously, so there is none. */
#ifdef SS_BUF_BOARD
void buf_unstage(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	(void)b, (void)lpn, (void)count;
}
#else
bool buf_staged(const struct ss_buf *b, uint32_t lpn)
{
	return b->ra_valid && lpn >= b->ra_lo && lpn < b->ra_hi;
}

/* Anything written or dropped in the buf_staged range makes the buf_staged copy stale. */
void buf_unstage(struct ss_buf *b, uint32_t lpn, uint32_t count)
{
	if (b->ra_valid && lpn < b->ra_hi && lpn + count > b->ra_lo) {
		b->ra_valid = false;
	}
}
#endif

int buf_ftl_put(struct ss_buf *b, uint32_t lpn, const void *data, enum ss_stream st,
		unsigned flags)
{
	buf_unstage(b, lpn, 1);
	return ss_ftl_write(b->ftl, lpn, data, st, flags);
}


static void count_len(struct ss_buf *b, uint32_t n)
{
	uint32_t bucket = 0;

	while (bucket + 1 < SS_BUF_LEN_BUCKETS && n > (1u << bucket)) {
		bucket++;
	}
	b->st.flushes_by_len[bucket]++;
}

/* A block's frames in LPN order into b->sorted. \return how many. */
static uint32_t sort_block(struct ss_buf *b, uint32_t blk)
{
	uint32_t n = 0;

	for (uint32_t pg = b->blocks[blk].first; pg != BUF_NIL; pg = b->pages[pg].bnext) {
		uint32_t i = n++;

		while (i > 0 && b->pages[b->sorted[i - 1]].lpn > b->pages[pg].lpn) {
			b->sorted[i] = b->sorted[i - 1];
			i--;
		}
		b->sorted[i] = pg;
	}
	return n;
}

/* Write block `blk`'s pages to the FTL in LPN order: the dirty ones, or all of them when
 * `all` (their clean copies rewritten for sequentiality), padded to the whole block when
 * `pad`. The pages written are left clean, their LPNs in b->written. */
int buf_write_block(struct ss_buf *b, uint32_t blk, bool all, bool pad)
{
	uint32_t n = sort_block(b, blk), written = 0, ppb = b->p.pages_per_block;
	uint32_t base = b->blocks[blk].lbn * ppb;
	enum ss_stream stream = (enum ss_stream)b->pages[b->sorted[0]].stream;
	int rc = 0;

#ifndef SS_BUF_BOARD   /* BPLRU's padding: not on the board */
	if (pad) {
		uint32_t i = 0;

		for (uint32_t off = 0; off < ppb && base + off < b->capacity; off++) {
			uint32_t lpn = base + off, ppn;

			if (i < n && b->pages[b->sorted[i]].lpn == lpn) {
				uint32_t pg = b->sorted[i++];

				rc = buf_ftl_put(b, lpn, buf_frame(b, pg), stream, 0);
				if (rc) {
					break;
				}
				buf_set_clean(b, pg);
			} else if (ss_ftl_lookup(b->ftl, lpn, &ppn) == 0) {
				/* page padding [Gong 2010, §2.4.2, Fig. 2.3]: only pages the flash
				 * holds; an unmapped one stays a hole */
				rc = ss_ftl_read(b->ftl, lpn, b->pad_buf);
				b->st.padding_reads++;
				if (rc >= 0) {
					rc = buf_ftl_put(b, lpn, b->pad_buf, stream, 0);
				}
				if (rc) {
					break;
				}
			} else {
				continue;
			}
			b->written[written++] = lpn;
		}
	} else
#else
	(void)pad, (void)base, (void)stream;
#endif
	{
		for (uint32_t i = 0; i < n; i++) {
			uint32_t pg = b->sorted[i];

			if (!b->pages[pg].dirty && !all) {
				continue;
			}
			rc = buf_ftl_put(b, b->pages[pg].lpn, buf_frame(b, pg),
					  (enum ss_stream)b->pages[pg].stream, 0);
			if (rc) {
				break;
			}
			buf_set_clean(b, pg);
			b->written[written++] = b->pages[pg].lpn;
		}
	}
	if (written) {
		b->st.flushed_pages += written;
		count_len(b, written);
		if (b->obs) {
			b->obs(b->obs_ctx, SS_BUF_EV_WRITE, b->written, written);
		}
	}
	return rc;
}

static int evict(struct ss_buf *b)
{
	struct buf_victim v = { BUF_NIL, BUF_NIL };
	uint64_t before, written;
	int rc = b->ops->victim(b, &v);

	if (rc) {
		return rc;
	}
	b->st.evictions++;
#ifndef SS_BUF_BOARD   /* page LRU's victims: no page LRU on the board */
	if (v.page != BUF_NIL) {   /* one page */
		uint32_t lpn = b->pages[v.page].lpn;

		if (b->pages[v.page].dirty) {
			rc = buf_ftl_put(b, lpn, buf_frame(b, v.page),
					  (enum ss_stream)b->pages[v.page].stream, 0);
			if (rc) {
				return rc;
			}
			b->st.flushed_pages++;
			count_len(b, 1);
			if (b->obs) {
				b->obs(b->obs_ctx, SS_BUF_EV_WRITE, &lpn, 1);
			}
		} else {
			b->st.discarded_pages++;
			if (b->obs) {
				b->obs(b->obs_ctx, SS_BUF_EV_DISCARD, &lpn, 1);
			}
		}
		buf_remove_page(b, v.page);
		return 0;
	}
#endif
	b->last_victim_pages = b->blocks[v.blk].npages;
	before = b->st.flushed_pages;
	if (b->blocks[v.blk].ndirty) {
		rc = buf_write_block(b, v.blk, b->ops->write_clean, b->ops->pad);
		if (rc) {
			return rc;
		}
	} else {
		uint32_t n = sort_block(b, v.blk);

		for (uint32_t i = 0; i < n; i++) {
			b->written[i] = b->pages[b->sorted[i]].lpn;
		}
		if (b->obs) {
			b->obs(b->obs_ctx, SS_BUF_EV_DISCARD, b->written, n);
		}
	}
	/* the pages not written were clean: dropped (FAB drops a victim's clean pages) */
	written = b->st.flushed_pages - before;
	if (written < b->blocks[v.blk].npages) {
		b->st.discarded_pages += b->blocks[v.blk].npages - written;
	}
	while (b->blocks[v.blk].first != BUF_NIL) {
		buf_remove_page(b, b->blocks[v.blk].first);
	}
	return 0;
}

/* Room for `n` more pages (at most one block's worth). */
int buf_make_room(struct ss_buf *b, uint32_t n)
{
	while (b->p.pages - b->st.resident_pages < n) {
		int rc = evict(b);

		if (rc) {
			return rc;
		}
	}
	return 0;
}
