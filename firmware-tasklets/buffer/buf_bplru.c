/*
 * BPLRU, block padding LRU [Gong 2010, §2.4.2, p. 12]: a write buffer. Read misses are not
 * cached and read hits do not reorder. A written block goes to the head of a block LRU;
 * one written sequentially to its last page goes to the tail instead (LRU compensation:
 * it is the least likely to be written again). The victim, the tail block, is padded to a
 * whole block with the pages the flash holds (page padding) and written in order.
 */
#include "buf_internal.h"

/* Not on the board (SS_BUF_BOARD): the baselines are for the emulator's comparison. */
#ifndef SS_BUF_BOARD

static void touch(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		  bool first_in_req)
{
	(void)first_in_req;
	if (!write) {
		return;
	}
	buf_blist_remove(b, &b->block_list, blk);
	if (buf_block_sequential(b, blk, pg, is_new)) {
		buf_blist_push_tail(b, &b->block_list, blk);
	} else {
		buf_blist_push_head(b, &b->block_list, blk);
	}
}

static void block_noop(struct ss_buf *b, uint32_t blk) { (void)b; (void)blk; }

static void block_removed(struct ss_buf *b, uint32_t blk)
{
	buf_blist_remove(b, &b->block_list, blk);
}

static void page_noop(struct ss_buf *b, uint32_t pg) { (void)b; (void)pg; }

static int victim(struct ss_buf *b, struct buf_victim *v)
{
	if (b->block_list.tail == BUF_NIL) {
		return -SS_EIO;
	}
	v->blk = b->block_list.tail;
	v->page = BUF_NIL;
	return 0;
}

const struct buf_policy_ops buf_bplru_ops = {
	.read_allocates = false,
	.touch = touch,
	.block_added = block_noop,   /* listed by its first write's touch */
	.block_removed = block_removed,
	.page_removed = page_noop,
	.victim = victim,
	.pad = true,
};
#endif
