/*
 * HBM, hybrid buffer management [Gong 2010, ch. 3, p. 18]. Reads and writes are both
 * cached. A page lives in the page region (one page LRU) until its block holds
 * THR_migrate pages; then all the block's pages move to the block region (§3.4, Fig. 3.5),
 * for good. The block region is replaced by LAR (§3.3, Algorithms 3.1-3.3): the victim is
 * the block of least popularity (requests that touched it: a request counts once per
 * block, read misses included), then the one with the most pages. When the block region
 * is empty, the page region's LRU page is the victim together with every page of its
 * block (selection compensation). A victim with a dirty page is written whole, its clean
 * pages too, in LPN order; a clean one is dropped.
 *
 * THR_migrate is static (params) or dynamic (§3.6, Algorithm 3.4, p. 36): starting at 1,
 * raised by one while the block region holds more than beta of the buffer and lowered by
 * one while it holds less than alpha, each time N_block changes, at most once per 100
 * requests, within [1, pages_per_block + 1].
 *
 * Where the text is vague or contradicts itself, chosen here:
 *   - Algorithm 3.3 breaks a popularity tie by the most pages, §3.5.2 by the least; Fig.
 *     3.4(b) agrees with the algorithm, so the most pages it is;
 *   - the last tie is "random" in Algorithm 3.3; here the block that entered the block
 *     region first, so runs repeat exactly;
 *   - a page joining a block already in the block region joins it there (Algorithm 3.2's
 *     "LBN found" case);
 *   - the victim is found by a scan of the block region, not the B+ tree of §3.5.1: the
 *     same choice, and the region holds at most beta of the buffer.
 */
#include "buf_internal.h"

#define HBM_CHANGE_EVERY 100u  /* requests between threshold changes (Algorithm 3.4) */

static void adjust_threshold(struct ss_buf *b)
{
	if (b->p.hbm_threshold != 0 || b->req - b->thr_changed_req < HBM_CHANGE_EVERY) {
		return;
	}
	if (b->block_pages > b->beta_pages && b->thr <= b->p.pages_per_block) {
		b->thr++;
		b->thr_changed_req = b->req;
	} else if (b->block_pages < b->alpha_pages && b->thr >= 2) {
		b->thr--;
		b->thr_changed_req = b->req;
	}
}

static void migrate(struct ss_buf *b, uint32_t blk)
{
	struct buf_block *k = &b->blocks[blk];

	for (uint32_t pg = k->first; pg != BUF_NIL; pg = b->pages[pg].bnext) {
		buf_plist_remove(b, &b->page_lru, pg);
	}
	k->region = BUF_REGION_BLOCK;
	k->order = ++b->order;
	buf_blist_push_tail(b, &b->block_list, blk);
	b->block_pages += k->npages;
	adjust_threshold(b);
}

static void touch(struct ss_buf *b, uint32_t blk, uint32_t pg, bool write, bool is_new,
		  bool first_in_req)
{
	struct buf_block *k = &b->blocks[blk];

	(void)write;
	if (first_in_req) {
		k->popularity++;
	}
	if (k->region == BUF_REGION_BLOCK) {
		if (is_new) {
			b->block_pages++;
			adjust_threshold(b);
		}
		return;
	}
	buf_plist_remove(b, &b->page_lru, pg);
	buf_plist_push_head(b, &b->page_lru, pg);
	if (k->npages >= b->thr) {
		migrate(b, blk);
	}
}

static void block_added(struct ss_buf *b, uint32_t blk)
{
	b->blocks[blk].region = BUF_REGION_PAGE;
}

static void block_removed(struct ss_buf *b, uint32_t blk)
{
	buf_blist_remove(b, &b->block_list, blk);
}

static void page_removed(struct ss_buf *b, uint32_t pg)
{
	if (b->blocks[b->pages[pg].blk].region == BUF_REGION_BLOCK) {
		b->block_pages--;
		adjust_threshold(b);
	} else {
		buf_plist_remove(b, &b->page_lru, pg);
	}
}

static bool lar_before(const struct buf_block *x, const struct buf_block *y)
{
	if (x->popularity != y->popularity) {
		return x->popularity < y->popularity;
	}
	if (x->npages != y->npages) {
		return x->npages > y->npages;
	}
	return x->order < y->order;
}

static int victim(struct ss_buf *b, struct buf_victim *v)
{
	uint32_t best = BUF_NIL;

	for (uint32_t k = b->block_list.head; k != BUF_NIL; k = b->blocks[k].next) {
		if (best == BUF_NIL || lar_before(&b->blocks[k], &b->blocks[best])) {
			best = k;
		}
	}
	if (best == BUF_NIL) {
		if (b->page_lru.tail == BUF_NIL) {
			return -SS_EIO;
		}
		best = b->pages[b->page_lru.tail].blk;   /* selection compensation */
	}
	v->blk = best;
	v->page = BUF_NIL;
	return 0;
}

const struct buf_policy_ops buf_hbm_ops = {
	.read_allocates = true,
	.touch = touch,
	.block_added = block_added,
	.block_removed = block_removed,
	.page_removed = page_removed,
	.victim = victim,
	.write_clean = true,
};
