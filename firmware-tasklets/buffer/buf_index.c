/* The buffer's index: page frames and block nodes in their hash tables (buf_init.c says
 * where the rest of the mechanism is). */
#include "buf_internal.h"

uint32_t buf_hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	return x;
}

uint32_t buf_find_page(const struct ss_buf *b, uint32_t lpn)
{
	for (uint32_t i = b->page_hash[buf_hash32(lpn) & b->hash_mask]; i != BUF_NIL;
	     i = b->pages[i].hnext) {
		if (b->pages[i].lpn == lpn) {
			return i;
		}
	}
	return BUF_NIL;
}

uint32_t buf_find_block(const struct ss_buf *b, uint32_t lbn)
{
	for (uint32_t i = b->block_hash[buf_hash32(lbn) & b->hash_mask]; i != BUF_NIL;
	     i = b->blocks[i].hnext) {
		if (b->blocks[i].lbn == lbn) {
			return i;
		}
	}
	return BUF_NIL;
}

static void unhash(uint32_t *bucket, uint32_t idx, uint32_t *(*next_of)(struct ss_buf *, uint32_t),
		   struct ss_buf *b)
{
	while (*bucket != idx) {
		bucket = next_of(b, *bucket);
	}
	*bucket = *next_of(b, idx);
}

static uint32_t *page_next(struct ss_buf *b, uint32_t i) { return &b->pages[i].hnext; }
static uint32_t *block_next(struct ss_buf *b, uint32_t i) { return &b->blocks[i].hnext; }

uint32_t buf_add_block(struct ss_buf *b, uint32_t lbn)
{
	uint32_t blk = b->free_block;
	uint32_t *bucket = &b->block_hash[buf_hash32(lbn) & b->hash_mask];
	struct buf_block *k = &b->blocks[blk];

	/* a block node per page frame at most, so there is always one when a frame is free */
	b->free_block = k->hnext;
	ss_memset(k, 0, sizeof(*k));
	k->lbn = lbn;
	k->first = BUF_NIL;
	k->prev = k->next = BUF_NIL;
	k->last_req = b->req - 1;
	k->hnext = *bucket;
	*bucket = blk;
	b->ops->block_added(b, blk);
	return blk;
}

uint32_t buf_add_page(struct ss_buf *b, uint32_t lpn, uint32_t blk, enum ss_stream stream)
{
	uint32_t pg = b->free_page;
	uint32_t *bucket = &b->page_hash[buf_hash32(lpn) & b->hash_mask];
	struct buf_page *x = &b->pages[pg];

	b->free_page = x->hnext;
	ss_memset(x, 0, sizeof(*x));
	x->lpn = lpn;
	x->blk = blk;
	x->stream = (uint8_t)stream;
	x->prev = x->next = BUF_NIL;
	x->hnext = *bucket;
	*bucket = pg;
	x->bnext = b->blocks[blk].first;
	b->blocks[blk].first = pg;
	b->blocks[blk].npages++;
	b->st.resident_pages++;
	return pg;
}

void buf_set_clean(struct ss_buf *b, uint32_t pg)
{
	if (b->pages[pg].dirty) {
		b->pages[pg].dirty = 0;
		b->blocks[b->pages[pg].blk].ndirty--;
		b->st.dirty_pages--;
	}
}

void buf_set_dirty(struct ss_buf *b, uint32_t pg)
{
	if (!b->pages[pg].dirty) {
		b->pages[pg].dirty = 1;
		b->blocks[b->pages[pg].blk].ndirty++;
		b->st.dirty_pages++;
	}
}

void buf_remove_page(struct ss_buf *b, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];
	uint32_t blk = x->blk;
	struct buf_block *k = &b->blocks[blk];
	uint32_t *link = &k->first;

	buf_set_clean(b, pg);
	b->ops->page_removed(b, pg);
	while (*link != pg) {
		link = &b->pages[*link].bnext;
	}
	*link = x->bnext;
	k->npages--;
	b->st.resident_pages--;
	unhash(&b->page_hash[buf_hash32(x->lpn) & b->hash_mask], pg, page_next, b);
	x->hnext = b->free_page;
	b->free_page = pg;
	if (k->npages == 0) {
		b->ops->block_removed(b, blk);
		unhash(&b->block_hash[buf_hash32(k->lbn) & b->hash_mask], blk, block_next, b);
		k->hnext = b->free_block;
		b->free_block = blk;
	}
}
