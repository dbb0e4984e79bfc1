/*
 * LB-CLOCK, large block CLOCK [Gong 2010, §2.4.3, p. 14, Fig. 2.4]: a write buffer whose
 * blocks sit on a clock with a reference bit each, set when one of the block's pages is
 * written. To choose a victim the hand clears set bits and moves on until it meets a block
 * whose bit is 0; the victim is the block with the most pages among those whose bit was
 * already 0 when the selection began (the blocks the hand just cleared do not count). A new
 * block goes just before where the hand began, with its bit set.
 *
 * Where the text is vague, chosen here:
 *   - the heuristics ("the last page written and the block full, or fuller than the last
 *     victim"; "written sequentially") make a block a candidate by clearing its bit;
 *   - when no block had its bit at 0 (every bit was set), the block where the hand stops
 *     is the victim, as in CLOCK;
 *   - among equally full candidates, the first the hand would reach wins;
 *   - read hits are served but do not set the bit (it is a write buffer).
 */
#include "buf_internal.h"

/* Not on the board (SS_BUF_BOARD): the baselines are for the emulator's comparison. */
#ifndef SS_BUF_BOARD

static uint32_t ring_next(const struct ss_buf *b, uint32_t k)
{
	return b->blocks[k].next != BUF_NIL ? b->blocks[k].next : b->block_list.head;
}

static void touch(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		  bool first_in_req)
{
	struct buf_block *k = &b->blocks[blk];
	uint32_t ppb = b->p.pages_per_block;

	(void)first_in_req;
	if (!write) {
		return;
	}
	k->ref = 1;
	if (is_new && b->pages[pg].lpn % ppb == ppb - 1 &&
	    (k->npages == ppb || k->npages > b->last_victim_pages)) {
		k->ref = 0;
	}
	if (buf_block_sequential(b, blk, pg, is_new)) {
		k->ref = 0;
	}
}

static void block_added(struct ss_buf *b, uint32_t blk)
{
	uint32_t at = b->anchor != BUF_NIL ? b->anchor : b->hand;

	/* before `at` on the ring; before the head is the same place as after the tail */
	if (at == BUF_NIL || at == b->block_list.head) {
		buf_blist_push_tail(b, &b->block_list, blk);
	} else {
		buf_blist_insert_before(b, &b->block_list, at, blk);
	}
	if (b->hand == BUF_NIL) {
		b->hand = blk;
	}
	b->blocks[blk].ref = 1;
}

static void block_removed(struct ss_buf *b, uint32_t blk)
{
	uint32_t next = b->block_list.n > 1 ? ring_next(b, blk) : BUF_NIL;

	if (b->hand == blk) {
		b->hand = next;
	}
	if (b->anchor == blk) {
		b->anchor = next;
	}
	buf_blist_remove(b, &b->block_list, blk);
}

static void page_noop(struct ss_buf *b, uint32_t pg) { (void)b; (void)pg; }

static int victim(struct ss_buf *b, struct buf_victim *v)
{
	uint32_t best = BUF_NIL, k, n = b->block_list.n;

	if (b->hand == BUF_NIL) {
		return -SS_EIO;
	}
	for (k = b->block_list.head; k != BUF_NIL; k = b->blocks[k].next) {
		b->blocks[k].candidate = b->blocks[k].ref == 0;
	}
	b->anchor = b->hand;
	while (b->blocks[b->hand].ref) {
		b->blocks[b->hand].ref = 0;
		b->hand = ring_next(b, b->hand);
	}
	k = b->hand;
	for (uint32_t i = 0; i < n; i++, k = ring_next(b, k)) {
		if (b->blocks[k].candidate &&
		    (best == BUF_NIL || b->blocks[k].npages > b->blocks[best].npages)) {
			best = k;
		}
	}
	v->blk = best != BUF_NIL ? best : b->hand;
	v->page = BUF_NIL;
	return 0;
}

const struct buf_policy_ops buf_lbclock_ops = {
	.read_allocates = false,
	.touch = touch,
	.block_added = block_added,
	.block_removed = block_removed,
	.page_removed = page_noop,
	.victim = victim,
};
#endif
