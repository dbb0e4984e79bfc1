/*
 * FAB, the flash-aware buffer [Gong 2010, §2.4.1, p. 11]: one LRU list of blocks, moved to
 * the head on any access to one of their pages (reads allocate, as in FAB); the victim is
 * the block with the most pages, the least recently used among equals. Only its dirty
 * pages are written; the clean ones are dropped.
 */
#include "buf_internal.h"

/* Not on the board (SS_BUF_BOARD): the baselines are for the emulator's comparison. */
#ifndef SS_BUF_BOARD

static void touch(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		  bool first_in_req)
{
	(void)pg; (void)write; (void)is_new; (void)first_in_req;
	buf_blist_remove(b, &b->block_list, blk);
	buf_blist_push_head(b, &b->block_list, blk);
}

static void block_added(struct ss_buf *b, uint32_t blk)
{
	buf_blist_push_head(b, &b->block_list, blk);
}

static void block_removed(struct ss_buf *b, uint32_t blk)
{
	buf_blist_remove(b, &b->block_list, blk);
}

static void page_noop(struct ss_buf *b, uint32_t pg) { (void)b; (void)pg; }

static int victim(struct ss_buf *b, struct buf_victim *v)
{
	uint32_t best = BUF_NIL;

	/* from the LRU end: a later block wins only with strictly more pages */
	for (uint32_t k = b->block_list.tail; k != BUF_NIL; k = b->blocks[k].prev) {
		if (best == BUF_NIL || b->blocks[k].npages > b->blocks[best].npages) {
			best = k;
		}
	}
	if (best == BUF_NIL) {
		return -SS_EIO;
	}
	v->blk = best;
	v->page = BUF_NIL;
	return 0;
}

const struct buf_policy_ops buf_fab_ops = {
	.read_allocates = true,
	.touch = touch,
	.block_added = block_added,
	.block_removed = block_removed,
	.page_removed = page_noop,
	.victim = victim,
};
#endif
