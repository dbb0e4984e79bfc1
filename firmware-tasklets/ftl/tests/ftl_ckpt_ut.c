/* Checkpoints: a torn or corrupt newest checkpoint is detected and mount falls back to the
 * previous one plus roll-forward; with no intact checkpoint at all mount says EBADMSG. */
#include <stdlib.h>
#include <string.h>

#include "ftl_internal.h"
#include "ss_rt.h"
#include "ftl_test_env.h"

static uint8_t buf[2048], got[2048];
static long long ckpt_pages = -1;   /* programs of one checkpoint, measured in row 0 */

enum fault { NONE, CUT, CORRUPT };

static const struct {
	const char *name;
	enum fault kind;
	long long at;       /* program index within the checkpoint; < 0 counts from its end */
} rows[] = {
	{ "intact", NONE, 0 },
	{ "power cut before the header", CUT, -1 },
	{ "power cut after one page", CUT, 1 },
	{ "power cut before any page", CUT, 0 },
	{ "corrupt body page", CORRUPT, 1 },
	{ "corrupt header page", CORRUPT, -1 },
};

static uint32_t check_all(struct ss_ftl *ftl, const uint64_t *ver, uint32_t cap)
{
	uint32_t bad = 0;

	for (uint32_t l = 0; l < cap; l++) {
		bad += ss_ftl_read(ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l];
	}
	return bad;
}

static void run_row(size_t r)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ftl_params p;
	struct ss_ftl_stats st;
	unsigned long long before;
	uint32_t cap, nb = 0;
	uint64_t *ver, rnd = 5;
	struct fte e;
	long long at;

	ss_ftl_default_params(&p);
	p.checkpoint_interval_pages = 1u << 30;
	fte_create(&e, &g, 0);
	fte_wrap(&e);
	CHECK_EQ(fte_format(&e, &p), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	ver = calloc(cap, sizeof(*ver));
	for (uint32_t l = 0; l < cap; l += 2) {
		fte_fill(buf, 2048, l, ++ver[l]);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
	}
	CHECK_EQ(ss_ftl_unmount(e.ftl), 0);          /* checkpoint N */
	CHECK_EQ(fte_mount(&e), 0);
	for (uint32_t i = 0; i < 300; i++) {         /* after N: only in the roll-forward */
		uint32_t l = (uint32_t)(fte_rand(&rnd) % cap);

		fte_fill(buf, 2048, l, ++ver[l]);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_COLD, 0), 0);
		nb++;
	}
	CHECK_EQ(ss_ftl_trim(e.ftl, 0, 8), 0);
	memset(ver, 0, 8 * sizeof(*ver));
	CHECK_EQ(ss_ftl_flush(e.ftl), 0);
	at = rows[r].at < 0 ? ckpt_pages + rows[r].at : rows[r].at;
	before = e.fault.programs;
	if (rows[r].kind == CUT) {
		e.fault.cut_after = (long long)before + at;
	} else if (rows[r].kind == CORRUPT) {
		e.fault.corrupt_program = (long long)before + at;
	}
	CHECK_EQ(ss_ftl_unmount(e.ftl), 0);          /* checkpoint N+1, maybe damaged */
	if (r == 0) {
		ckpt_pages = (long long)(e.fault.programs - before);
	}
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(fte_mount(&e), 0);
	ss_ftl_get_stats(e.ftl, &st);
	printf("%s: roll-forward %u pages (checkpoint is %lld pages)\n", rows[r].name,
	       st.rollforward_pages, ckpt_pages);
	if (rows[r].kind == NONE) {
		CHECK_EQ(st.rollforward_pages, 0);
	} else {
		/* N+1 was rejected: N plus the replay of every write and the trim since */
		CHECK(st.rollforward_pages >= nb + 1);
	}
	CHECK_EQ(check_all(e.ftl, ver, cap), 0);
	free(ver);
	fte_destroy(&e);
}

static void test_fallback_table(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		int before = ss_test_failures;

		run_row(r);
		if (ss_test_failures != before) {
			fprintf(stderr, "row failed: %s\n", rows[r].name);
		}
	}
	CHECK(ckpt_pages > 2);
}

/* The only checkpoint (format's) has a corrupt page: nothing to fall back to, and the
 * mount says which part it was (pages in order: L2P, block table, header last). */
static void test_no_intact_checkpoint(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	const struct {
		long long page;
		uint32_t part;
	} cases[] = {
		{ 0, SS_FTL_CKPT_L2P },
		{ -2, SS_FTL_CKPT_BLOCK_TABLE },
		{ -1, SS_FTL_CKPT_HEADER },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		uint32_t damaged = SS_FTL_CKPT_INTACT;
		struct fte e;

		fte_create(&e, &g, 0);
		fte_wrap(&e);
		e.fault.corrupt_program = cases[i].page < 0 ? ckpt_pages + cases[i].page
							    : cases[i].page;
		CHECK_EQ(fte_format(&e, NULL), 0);
		CHECK_EQ(e.fault.programs, ckpt_pages);   /* format programs only its checkpoint */
		fte_close(&e);
		fte_reopen(&e);
		CHECK_EQ(ss_ftl_mount_report(&e.ftl, e.hal, e.hal->dram, e.hal->dram_size,
					     &damaged), -SS_EBADMSG);
		CHECK_EQ(damaged, cases[i].part);
		fte_destroy(&e);
	}
}

/* Every block's entry survives a checkpoint, also when the block count is not a multiple
 * of the entries one page holds (2048 / 24 = 85: 256 blocks need 4 pages, not 3). The
 * checkpoint is loaded into a second FTL, before mount's reconciliation changes anything. */
static void test_block_table_round_trip(void)
{
	static const struct {
		uint32_t ch, ways, bpd;
	} geos[] = { { 4, 1, 16 }, { 4, 2, 32 }, { 4, 1, 85 } };

	for (size_t r = 0; r < sizeof(geos) / sizeof(geos[0]); r++) {
		struct ss_geometry g = fte_geo(geos[r].bpd, 16);
		uint32_t nblocks = geos[r].ch * geos[r].ways * geos[r].bpd, cap, bad = 0, part;
		struct ss_ftl *f2 = NULL;
		uint64_t need;
		void *dram2;
		struct fte e;

		g.channels = geos[r].ch;
		g.ways = geos[r].ways;
		fte_create(&e, &g, 0);
		CHECK_EQ(fte_format(&e, NULL), 0);
		cap = ss_ftl_capacity_pages(e.ftl);
		for (uint32_t l = 0; l < cap; l++) {
			fte_fill(buf, 2048, l, 1);
			CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
		}
		CHECK_EQ(ss_ftl_unmount(e.ftl), 0);
		need = ss_ftl_dram_needed(&g);
		dram2 = malloc(need);
		CHECK_EQ(ftl_layout(&f2, e.hal, dram2, need), 0);
		CHECK_EQ(ftl_ckpt_load(f2, e.ftl->ckpt_seq, e.ftl->ckpt_cur, &part), 0);
		CHECK_EQ(part, SS_FTL_CKPT_INTACT);
		for (uint32_t b = 0; b < nblocks; b++) {
			bad += f2->blocks[b].erase_count != e.ftl->blocks[b].erase_count ||
			       f2->blocks[b].state != e.ftl->blocks[b].state;
		}
		CHECK_EQ(bad, 0);
		CHECK_EQ(memcmp(f2->l2p, e.ftl->l2p, (size_t)cap * 4), 0);
		free(dram2);
		fte_destroy(&e);
	}
}

int main(void)
{
	RUN(test_fallback_table);
	RUN(test_no_intact_checkpoint);
	RUN(test_block_table_round_trip);
	return ss_test_failures ? 1 : 0;
}
