/* Page-level LRU over reads and writes: the plain baseline [Gong 2010, §1.1, Table 1.1]. */
#include "buf_internal.h"

/* Not on the board (SS_BUF_BOARD): a baseline for the emulator's comparison. */
#ifndef SS_BUF_BOARD

static void touch(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		  bool first_in_req)
{
	(void)blk; (void)write; (void)is_new; (void)first_in_req;
	buf_plist_remove(b, &b->page_lru, pg);
	buf_plist_push_head(b, &b->page_lru, pg);
}

static void block_noop(struct ss_buf *b, uint32_t blk) { (void)b; (void)blk; }

static void page_removed(struct ss_buf *b, uint32_t pg)
{
	buf_plist_remove(b, &b->page_lru, pg);
}

static int victim(struct ss_buf *b, struct buf_victim *v)
{
	if (b->page_lru.tail == BUF_NIL) {
		return -SS_EIO;
	}
	v->page = b->page_lru.tail;
	v->blk = b->pages[v->page].blk;
	return 0;
}

const struct buf_policy_ops buf_lru_ops = {
	.read_allocates = true,
	.touch = touch,
	.block_added = block_noop,
	.block_removed = block_noop,
	.page_removed = page_removed,
	.victim = victim,
};
#endif
