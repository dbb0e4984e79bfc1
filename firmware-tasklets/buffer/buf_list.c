/* The buffer's doubly linked lists over the page and block arrays (buf_init.c says where
 * the rest of the mechanism is). */
#include "buf_internal.h"

void buf_plist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];

	x->prev = BUF_NIL;
	x->next = l->head;
	if (l->head != BUF_NIL) {
		b->pages[l->head].prev = pg;
	} else {
		l->tail = pg;
	}
	l->head = pg;
	l->n++;
	x->on_lru = 1;
}

void buf_plist_remove(struct ss_buf *b, struct buf_list *l, uint32_t pg)
{
	struct buf_page *x = &b->pages[pg];

	if (!x->on_lru) {
		return;
	}
	if (x->prev != BUF_NIL) {
		b->pages[x->prev].next = x->next;
	} else {
		l->head = x->next;
	}
	if (x->next != BUF_NIL) {
		b->pages[x->next].prev = x->prev;
	} else {
		l->tail = x->prev;
	}
	x->prev = x->next = BUF_NIL;
	x->on_lru = 0;
	l->n--;
}

void buf_blist_insert_before(struct ss_buf *b, struct buf_list *l, uint32_t at, uint32_t blk)
{
	struct buf_block *x = &b->blocks[blk];

	if (at == BUF_NIL) {   /* at the tail end */
		x->next = BUF_NIL;
		x->prev = l->tail;
		if (l->tail != BUF_NIL) {
			b->blocks[l->tail].next = blk;
		} else {
			l->head = blk;
		}
		l->tail = blk;
	} else {
		x->next = at;
		x->prev = b->blocks[at].prev;
		if (x->prev != BUF_NIL) {
			b->blocks[x->prev].next = blk;
		} else {
			l->head = blk;
		}
		b->blocks[at].prev = blk;
	}
	x->on_list = 1;
	l->n++;
}

void buf_blist_push_head(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	buf_blist_insert_before(b, l, l->head, blk);
}

void buf_blist_push_tail(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	buf_blist_insert_before(b, l, BUF_NIL, blk);
}

void buf_blist_remove(struct ss_buf *b, struct buf_list *l, uint32_t blk)
{
	struct buf_block *x = &b->blocks[blk];

	if (!x->on_list) {
		return;
	}
	if (x->prev != BUF_NIL) {
		b->blocks[x->prev].next = x->next;
	} else {
		l->head = x->next;
	}
	if (x->next != BUF_NIL) {
		b->blocks[x->next].prev = x->prev;
	} else {
		l->tail = x->prev;
	}
	x->prev = x->next = BUF_NIL;
	x->on_list = 0;
	l->n--;
}

bool buf_block_sequential(struct ss_buf *b, uint32_t blk, uint32_t pg, bool is_new)
{
	struct buf_block *k = &b->blocks[blk];
	uint32_t off = b->pages[pg].lpn % b->p.pages_per_block;

	if (is_new) {
		k->seq_next = k->seq_next == off ? off + 1 : BUF_NIL;
	}
	return k->seq_next == b->p.pages_per_block;
}
