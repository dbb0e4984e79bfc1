/*
 * Each policy on the papers' worked examples, as exact victim sequences: Gong's Table 1.1
 * (page LRU, block LRU as BPLRU, the hybrid as HBM), Fig. 2.4 (LB-CLOCK) and Fig. 3.4 (LAR),
 * plus the dynamic threshold of Algorithm 3.4 and, for every policy, data against a
 * reference model across power cuts. The buffer runs on the real FTL on emulated flash.
 */
#include <stdlib.h>
#include <string.h>

#include "buf_internal.h"
#include "ftl_test_env.h"

#define MAX_EV 64

struct rec {
	uint32_t n;
	enum ss_buf_event kind[MAX_EV];
	uint32_t len[MAX_EV];
	uint32_t lpn[MAX_EV][16];
};

static void observe(void *ctx, enum ss_buf_event ev, const uint32_t *lpns, uint32_t n)
{
	struct rec *r = ctx;

	if (r->n < MAX_EV) {
		r->kind[r->n] = ev;
		r->len[r->n] = n;
		memcpy(r->lpn[r->n], lpns, SS_MIN(n, 16u) * sizeof(uint32_t));
		r->n++;
	}
}

/* Expect event i to be `kind` of exactly the LPNs listed (terminated by UINT32_MAX). */
static void expect_event(const struct rec *r, uint32_t i, enum ss_buf_event kind, ...);

#include <stdarg.h>

static void expect_event(const struct rec *r, uint32_t i, enum ss_buf_event kind, ...)
{
	va_list ap;
	uint32_t n = 0, want[16];

	va_start(ap, kind);
	for (uint32_t v = va_arg(ap, uint32_t); v != UINT32_MAX; v = va_arg(ap, uint32_t)) {
		want[n++] = v;
	}
	va_end(ap);
	CHECK(i < r->n);
	if (i >= r->n) {
		return;
	}
	CHECK_EQ(r->kind[i], kind);
	CHECK_EQ(r->len[i], n);
	for (uint32_t k = 0; k < n && k < r->len[i]; k++) {
		CHECK_EQ(r->lpn[i][k], want[k]);
	}
}

#define END UINT32_MAX

static uint8_t page[16][2048];

struct env {
	struct fte e;
	struct ss_buf *b;
	void *dram;
	struct rec rec;
};

static void env_open_ra(struct env *v, enum ss_buf_policy pol, uint32_t pages, uint32_t ppb,
			uint32_t thr, uint32_t ra)
{
	struct ss_geometry g = fte_geo(64, 16);
	struct ss_buf_params p = { pol, pages, ppb, thr, ra, 0 };
	uint64_t need = ss_buf_dram_needed(&p, 2048);

	memset(&v->rec, 0, sizeof(v->rec));
	fte_create(&v->e, &g, 0);
	CHECK_EQ(fte_format(&v->e, NULL), 0);
	CHECK(need > 0);
	v->dram = malloc(need);
	CHECK_EQ(ss_buf_init(&v->b, v->e.ftl, v->dram, need, &p), 0);
	ss_buf_set_observer(v->b, observe, &v->rec);
}

static void env_open(struct env *v, enum ss_buf_policy pol, uint32_t pages, uint32_t ppb,
		     uint32_t thr)
{
	env_open_ra(v, pol, pages, ppb, thr, 0);
}

static void env_close(struct env *v)
{
	free(v->dram);
	fte_destroy(&v->e);
}

/* One request: `n` consecutive pages from `lpn`, written (version 1) or read. */
static void wr(struct env *v, uint32_t lpn, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		fte_fill(page[i], 2048, lpn + i, 1);
	}
	CHECK_EQ(ss_buf_write(v->b, lpn, n, page, SS_STREAM_HOT, 0), 0);
}

static void rd(struct env *v, uint32_t lpn, uint32_t n)
{
	CHECK_EQ(ss_buf_read(v->b, lpn, n, page), 0);
}

/* Table 1.1's accesses as writes; the number of accesses whose pages all hit. */
static uint32_t table_1_1(struct env *v)
{
	static const uint32_t acc[][4] = {
		{ 0, 1, 2, 3 }, { 5, 9, 11, 14 }, { 7 }, { 3 }, { 11 }, { 2 }, { 14 }, { 1 },
		{ 10 }, { 7 },
	};
	static const uint32_t len[] = { 4, 4, 1, 1, 1, 1, 1, 1, 1, 1 };
	uint32_t hits = 0;

	for (uint32_t a = 0; a < SS_ARRAY_SIZE(acc); a++) {
		struct ss_buf_stats before, after;

		ss_buf_get_stats(v->b, &before);
		if (a == 0) {
			wr(v, 0, 4);   /* one sequential request */
		} else {
			for (uint32_t i = 0; i < len[a]; i++) {
				wr(v, acc[a][i], 1);
			}
		}
		ss_buf_get_stats(v->b, &after);
		hits += after.write_hits - before.write_hits == len[a];
	}
	return hits;
}

/* Page-level LRU column of Table 1.1 [Gong 2010, §1.1]: flushes 0, then 5; 6 hits; the
 * buffer ends 7,10,1,14,2,11,3,9 (most recent first). */
static void test_table_1_1_page_lru(void)
{
	static const uint32_t final[] = { 7, 10, 1, 14, 2, 11, 3, 9 };
	struct env v;
	uint32_t i = 0;

	env_open(&v, SS_BUF_LRU, 8, 4, 0);
	CHECK_EQ(table_1_1(&v), 6);
	CHECK_EQ(v.rec.n, 2);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 0, END);
	expect_event(&v.rec, 1, SS_BUF_EV_WRITE, 5, END);
	for (uint32_t pg = v.b->page_lru.head; pg != BUF_NIL; pg = v.b->pages[pg].next, i++) {
		CHECK(i < 8 && v.b->pages[pg].lpn == final[i]);
	}
	CHECK_EQ(i, 8);
	env_close(&v);
}

/* Block-level LRU column of Table 1.1: BPLRU on a flash holding none of the pages, so
 * nothing can be padded: flushes [0,1,2,3] then [5,7]; 2 hits; the buffer ends
 * [7],[9,10,11],[1,2,3],[14]. LRU compensation sends the sequentially written block 0 to the
 * LRU end at once, which is where the table's block LRU has it when 7 arrives anyway. */
static void test_table_1_1_block_lru(void)
{
	static const uint32_t final_lbn[] = { 1, 2, 0, 3 };
	struct ss_buf_stats st;
	struct env v;
	uint32_t i = 0;

	env_open(&v, SS_BUF_BPLRU, 8, 4, 0);
	CHECK_EQ(table_1_1(&v), 2);
	CHECK_EQ(v.rec.n, 2);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 0, 1, 2, 3, END);
	expect_event(&v.rec, 1, SS_BUF_EV_WRITE, 5, 7, END);
	for (uint32_t k = v.b->block_list.head; k != BUF_NIL; k = v.b->blocks[k].next, i++) {
		CHECK(i < 4 && v.b->blocks[k].lbn == final_lbn[i]);
	}
	CHECK_EQ(i, 4);
	ss_buf_get_stats(v.b, &st);
	CHECK_EQ(st.padding_reads, 0);
	env_close(&v);
}

/* The same with every page already on the flash: page padding [Gong 2010, §2.4.2, Fig. 2.3]
 * reads 4 and 6 and writes block 1 whole. */
static void test_bplru_padding(void)
{
	struct ss_buf_stats st;
	struct env v;

	env_open(&v, SS_BUF_BPLRU, 8, 4, 0);
	for (uint32_t l = 0; l < 16; l++) {
		fte_fill(page[0], 2048, l, 9);
		CHECK_EQ(ss_ftl_write(v.e.ftl, l, page[0], SS_STREAM_HOT, 0), 0);
	}
	CHECK_EQ(table_1_1(&v), 2);
	CHECK_EQ(v.rec.n, 2);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 0, 1, 2, 3, END);
	expect_event(&v.rec, 1, SS_BUF_EV_WRITE, 4, 5, 6, 7, END);
	ss_buf_get_stats(v.b, &st);
	CHECK_EQ(st.padding_reads, 2);
	CHECK_EQ(st.flushes_by_len[2], 2);   /* two writes of 3-4 pages */
	/* the padded pages keep their flash contents */
	CHECK_EQ(ss_ftl_read(v.e.ftl, 4, page[0]), 0);
	CHECK_EQ(fte_classify(page[0], 2048, 4), 9);
	CHECK_EQ(ss_ftl_read(v.e.ftl, 5, page[0]), 0);
	CHECK_EQ(fte_classify(page[0], 2048, 5), 1);
	env_close(&v);
}

/* Hybrid column of Table 1.1 run by HBM with THR_migrate 4 (only full blocks in the block
 * region, as the table's hybrid LRU): block 0 is the first victim. The second differs from
 * the table: the block region is empty, and HBM's selection compensation [Gong 2010, §3.3,
 * p. 25] flushes page 5 with its block's page 7, where the table's hybrid LRU flushes 5
 * alone. So the last access, 7, misses: 2 hits, not the table's 3. */
static void test_table_1_1_hbm(void)
{
	struct env v;

	env_open(&v, SS_BUF_HBM, 8, 4, 4);
	CHECK_EQ(table_1_1(&v), 2);
	CHECK_EQ(v.rec.n, 2);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 0, 1, 2, 3, END);
	expect_event(&v.rec, 1, SS_BUF_EV_WRITE, 5, 7, END);
	env_close(&v);
}

/* FAB on Table 1.1's accesses, derived from §2.4.1's rules (the paper gives no table for
 * it): the fullest block goes, block 0 at 7 and block 0 again ([1,2,3]) at 10; 3 hits. */
static void test_table_1_1_fab(void)
{
	struct env v;

	env_open(&v, SS_BUF_FAB, 8, 4, 0);
	CHECK_EQ(table_1_1(&v), 3);
	CHECK_EQ(v.rec.n, 2);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 0, 1, 2, 3, END);
	expect_event(&v.rec, 1, SS_BUF_EV_WRITE, 1, 2, 3, END);
	env_close(&v);
}

/* Fig. 3.4(a) [Gong 2010, §3.3], LAR alone (THR_migrate 1: every block in the block
 * region), 12 pages of 4-page blocks. Block 4 has the least popularity (2) and is written
 * whole, its clean page 19 with its dirty 16-18. */
static void test_fig_3_4a(void)
{
	struct env v;

	env_open(&v, SS_BUF_HBM, 12, 4, 1);
	wr(&v, 0, 3);
	rd(&v, 3, 1);
	wr(&v, 8, 2);
	wr(&v, 10, 1);
	rd(&v, 19, 1);
	wr(&v, 11, 1);
	wr(&v, 1, 2);
	wr(&v, 16, 3);
	CHECK_EQ(v.rec.n, 0);
	CHECK_EQ(v.b->blocks[v.b->pages[0].blk].popularity, 3);
	wr(&v, 24, 1);
	CHECK_EQ(v.rec.n, 1);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 16, 17, 18, 19, END);
	env_close(&v);
}

/* Fig. 3.4(b): blocks 2 and 4 tie on popularity (2); block 4 has more pages and goes, and
 * as all its pages are clean it is dropped, not written. */
static void test_fig_3_4b(void)
{
	struct ss_buf_stats st;
	struct env v;

	env_open(&v, SS_BUF_HBM, 11, 4, 1);
	wr(&v, 0, 3);
	rd(&v, 3, 1);
	wr(&v, 8, 2);
	wr(&v, 10, 1);
	rd(&v, 19, 1);
	wr(&v, 1, 2);
	rd(&v, 16, 3);
	CHECK_EQ(v.rec.n, 0);
	wr(&v, 24, 1);
	CHECK_EQ(v.rec.n, 1);
	expect_event(&v.rec, 0, SS_BUF_EV_DISCARD, 16, 17, 18, 19, END);
	ss_buf_get_stats(v.b, &st);
	CHECK_EQ(st.flushed_pages, 0);
	CHECK_EQ(st.discarded_pages, 4);
	env_close(&v);
}

/* Fig. 2.4 [Gong 2010, §2.4.3]: the hand is on block 0 (bit 1), then block 5 (bit 0), block 7
 * (bit 0, two pages), block 9 (bit 1). Writing page 48 clears block 0's bit, stops at 5,
 * and takes 7, the fuller of the candidates 5 and 7; block 12 enters just before block 0
 * with its bit set. Bits of 0 come from the last-page heuristic (23 and 31 are their
 * blocks' last pages, and no block has been evicted yet). */
static void test_fig_2_4(void)
{
	static const uint32_t ring[] = { 0, 5, 9, 12 };
	static const uint8_t ref[] = { 0, 0, 1, 1 };
	struct env v;
	uint32_t i = 0;

	env_open(&v, SS_BUF_LBCLOCK, 8, 4, 0);
	wr(&v, 0, 1);
	wr(&v, 23, 1);
	wr(&v, 30, 1);
	wr(&v, 31, 1);
	wr(&v, 36, 2);
	wr(&v, 1, 2);
	CHECK_EQ(v.rec.n, 0);
	wr(&v, 48, 1);
	CHECK_EQ(v.rec.n, 1);
	expect_event(&v.rec, 0, SS_BUF_EV_WRITE, 30, 31, END);
	for (uint32_t k = v.b->block_list.head; k != BUF_NIL; k = v.b->blocks[k].next, i++) {
		CHECK(i < 4 && v.b->blocks[k].lbn == ring[i] && v.b->blocks[k].ref == ref[i]);
	}
	CHECK_EQ(i, 4);
	CHECK_EQ(v.b->blocks[v.b->hand].lbn, 5);
	env_close(&v);
}

/* Algorithm 3.4 [Gong 2010, §3.6, p. 36]: THR_migrate starts at 1; with 64 pages of 4-page
 * blocks (alpha 8 pages; beta 16, as 10 % is below alpha: Table 3.1's exception) and
 * one-page writes to new blocks, every block enters the block region, which holds the whole
 * buffer, and the first change allowed (request 100) raises the threshold to 2. The block
 * region then drains (it is replaced first) and stays empty, as one-page blocks now stay in
 * the page region: N_block no longer changes, so 2 stays. The first whole-block write
 * (request 251) changes N_block to 4 pages, below alpha: back to 1. */
static void test_dynamic_threshold(void)
{
	struct env v;

	env_open(&v, SS_BUF_HBM, 64, 4, 0);
	CHECK_EQ(v.b->alpha_pages, 8);
	CHECK_EQ(v.b->beta_pages, 16);
	for (uint32_t r = 1; r <= 400; r++) {
		if (r <= 250) {
			wr(&v, (r * 4) % 2000, 1);
		} else {
			wr(&v, 2000 + (r - 250) * 4, 4);
		}
		CHECK_EQ(v.b->thr, r < 100 ? 1 : r < 251 ? 2 : 1);
	}
	env_close(&v);
}

/* Every policy against a reference model: random reads, writes (some FUA), trims and
 * flushes over 96 pages through a 16-page buffer; every read returns the newest data; a
 * power cut then keeps everything flushed or written FUA, and a page never reads as
 * anything but a version it was written with. */
static void test_model(void)
{
	/* the merge cache (SS_BUF_NV_*) has its own model test, buffer_nv_ut.c */
	for (int pol = SS_BUF_NONE; pol < SS_BUF_NV_WB; pol++) {
		uint32_t pages = pol == SS_BUF_NONE ? 0 : 16;
		struct env v;
		uint64_t ver[96] = { 0 }, durable[96] = { 0 }, seed = 7 + (uint64_t)pol, n = 0;
		uint32_t last_end = 0;
		uint8_t buf[4][2048];

		env_open_ra(&v, (enum ss_buf_policy)pol, pages, 4, 0, 4);
		ss_buf_set_read_ahead(v.b, v.e.hal);
		for (int op = 0; op < 3000; op++) {
			uint32_t k = (uint32_t)(fte_rand(&seed) % 100);
			/* a third of the reads continue the last one: read-ahead */
			uint32_t lpn = k >= 45 && k < 60 && last_end < 93 ? last_end
								: (uint32_t)(fte_rand(&seed) % 93);
			uint32_t cnt = 1 + (uint32_t)(fte_rand(&seed) % 3);

			if (k < 45) {
				unsigned fua = fte_rand(&seed) % 10 == 0 ? SS_FTL_FUA : 0;

				n++;
				for (uint32_t i = 0; i < cnt; i++) {
					fte_fill(buf[i], 2048, lpn + i, n);
				}
				CHECK_EQ(ss_buf_write(v.b, lpn, cnt, buf, SS_STREAM_HOT, fua), 0);
				for (uint32_t i = 0; i < cnt; i++) {
					ver[lpn + i] = n;
				}
				if (fua) {
					/* FUA makes this command durable (and, as the FTL flushes
					 * everything, whatever reached it before) */
					for (uint32_t i = 0; i < cnt; i++) {
						durable[lpn + i] = n;
					}
				}
			} else if (k < 90) {
				/* streaming reads (read-ahead), plain ones, and scans */
				if (k < 60) {
					CHECK_EQ(ss_buf_read_stream(v.b, lpn, cnt, buf), 0);
				} else if (k < 80) {
					CHECK_EQ(ss_buf_read(v.b, lpn, cnt, buf), 0);
				} else {
					CHECK_EQ(ss_buf_read_scan(v.b, lpn, cnt, buf), 0);
				}
				last_end = lpn + cnt;
				for (uint32_t i = 0; i < cnt; i++) {
					CHECK_EQ(fte_classify(buf[i], 2048, lpn + i),
						 (long long)ver[lpn + i]);
				}
			} else if (k < 95) {
				CHECK_EQ(ss_buf_trim(v.b, lpn, cnt), 0);
				for (uint32_t i = 0; i < cnt; i++) {
					ver[lpn + i] = 0;
				}
			} else {
				CHECK_EQ(ss_buf_flush(v.b), 0);
				memcpy(durable, ver, sizeof(ver));
			}
		}
		if (pol != SS_BUF_NONE) {
			struct ss_buf_stats st;

			ss_buf_get_stats(v.b, &st);
			CHECK(st.read_ahead_hits > 0);   /* the staging area was used */
			CHECK(st.evictions > 0);
		}
		/* power cut: what was flushed or FUA-written survives; anything else reads as
		 * the durable version or a newer one written since, never garbage */
		fte_close(&v.e);
		fte_reopen(&v.e);
		CHECK_EQ(fte_mount(&v.e), 0);
		for (uint32_t l = 0; l < 96; l++) {
			long long got;

			CHECK(ss_ftl_read(v.e.ftl, l, buf[0]) >= 0);
			got = fte_classify(buf[0], 2048, l);
			CHECK(got >= 0);
			if (durable[l] == ver[l]) {
				CHECK_EQ(got, (long long)ver[l]);
			} else if (durable[l] != 0) {
				CHECK(got >= (long long)durable[l] || got == 0);
			}
		}
		env_close(&v);
	}
}

static void test_params(void)
{
	struct ss_buf_params bad = { SS_BUF_HBM, 7, 4, 0, 0, 0 };   /* less than two blocks */

	CHECK_EQ(ss_buf_dram_needed(&bad, 2048), 0);
	bad.pages = 64;
	bad.hbm_threshold = 6;  /* beyond pages_per_block + 1 */
	CHECK_EQ(ss_buf_dram_needed(&bad, 2048), 0);
	CHECK_EQ(ss_buf_policy_parse("hbm", 3), SS_BUF_HBM);
	CHECK_EQ(ss_buf_policy_parse("lbclock", 7), SS_BUF_LBCLOCK);
	CHECK_EQ(ss_buf_policy_parse("lru2", 4), -1);
	CHECK(strcmp(ss_buf_policy_name(SS_BUF_BPLRU), "bplru") == 0);
}

int main(void)
{
	RUN(test_params);
	RUN(test_table_1_1_page_lru);
	RUN(test_table_1_1_block_lru);
	RUN(test_bplru_padding);
	RUN(test_table_1_1_hbm);
	RUN(test_table_1_1_fab);
	RUN(test_fig_3_4a);
	RUN(test_fig_3_4b);
	RUN(test_fig_2_4);
	RUN(test_dynamic_threshold);
	RUN(test_model);
	return fte_failures ? 1 : 0;
}
