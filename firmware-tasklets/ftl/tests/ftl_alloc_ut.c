/* Block allocation and bad blocks: wear-aware choice of free blocks, then a whole drive
 * worn out under writes until it reports ENOSPC, without losing a byte. */
#include <stdlib.h>
#include <string.h>

#include "../ftl_alloc.c"
#include "ftl_test_env.h"

static void test_pick_free_table(void)
{
	/* width 1: one lane, every block; width 2: lane 0 has blocks 0 and 2, lane 1 has 1
	 * and 3 (block b is on die b % dies, and a lane takes the dies d % width == lane) */
	static const struct {
		const char *name;
		uint32_t stream, width, lane;
		uint8_t state[4];
		uint32_t erase[4];
		uint8_t flags[4];
		uint32_t want;
	} rows[] = {
		{ "hot takes least worn", SS_STREAM_HOT, 1, 0, { 0, 0, 0, 0 }, { 9, 3, 7, 5 }, { 0 }, 1 },
		{ "meta takes least worn", SS_STREAM_META, 1, 0, { 0, 0, 0, 0 }, { 9, 3, 7, 5 }, { 0 },
		  1 },
		{ "cold takes most worn", SS_STREAM_COLD, 1, 0, { 0, 0, 0, 0 }, { 9, 3, 7, 5 }, { 0 },
		  0 },
		{ "gc takes most worn", FTL_STREAM_GC, 1, 0, { 0, 0, 0, 0 }, { 9, 3, 12, 5 }, { 0 }, 2 },
		{ "only free blocks", SS_STREAM_HOT, 1, 0, { FTL_BLK_FULL, FTL_BLK_BAD, 0, FTL_BLK_OPEN },
		  { 1, 0, 7, 2 }, { 0 }, 2 },
		{ "erased before dirty at equal wear", SS_STREAM_HOT, 1, 0, { 0, 0, 0, 0 },
		  { 4, 4, 4, 9 }, { FTL_BF_DIRTY, FTL_BF_DIRTY, 0, 0 }, 2 },
		{ "none free", SS_STREAM_HOT, 1, 0, { 1, 2, 3, 4 }, { 0 }, { 0 }, FTL_NONE },
		{ "hot lane 1 keeps to its dies", SS_STREAM_HOT, 2, 1, { 0, 0, 0, 0 }, { 1, 9, 0, 5 },
		  { 0 }, 3 },
		{ "cold lane 0 keeps to its dies", SS_STREAM_COLD, 2, 0, { 0, 0, 0, 0 }, { 1, 9, 0, 5 },
		  { 0 }, 0 },
		{ "lane's dies full: any die, still wear-aware", SS_STREAM_HOT, 2, 1,
		  { 0, FTL_BLK_FULL, 0, FTL_BLK_OPEN }, { 4, 0, 2, 0 }, { 0 }, 2 },
		{ "no lane (checkpoint): any die", FTL_STREAMS, 2, FTL_NONE, { 0, 0, 0, 0 },
		  { 6, 9, 2, 5 }, { 0 }, 2 },
		{ "checkpoint skips the blocks it just released", FTL_STREAMS, 1, FTL_NONE,
		  { 0, 0, 0, 0 }, { 6, 9, 2, 5 }, { 0, 0, FTL_BF_CKPT_OLD, 0 }, 3 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ftl_block blocks[4];
		struct ss_ftl f;
		uint32_t got;

		memset(&f, 0, sizeof(f));
		memset(blocks, 0, sizeof(blocks));
		f.nblocks = 4;
		f.width = rows[i].width;
		f.blocks = blocks;
		for (int b = 0; b < 4; b++) {
			blocks[b].state = rows[i].state[b];
			blocks[b].erase_count = rows[i].erase[b];
			blocks[b].flags = rows[i].flags[b];
		}
		got = pick_free(&f, rows[i].stream, rows[i].lane);
		if (got != rows[i].want) {
			fprintf(stderr, "%s: got %u want %u\n", rows[i].name, got, rows[i].want);
			ss_test_failures++;
		}
	}
}

static uint32_t verify_all(struct ss_ftl *ftl, const uint64_t *ver, uint32_t cap)
{
	static uint8_t got[2048];
	uint32_t bad = 0;

	for (uint32_t l = 0; l < cap; l++) {
		bad += ss_ftl_read(ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)ver[l];
	}
	return bad;
}

/* Endurance 40 P/E (+-10 % per block): write hot/cold data until the drive is out of
 * spare blocks. Every acknowledged write must read back, before and after a remount. */
static void wear_out(uint32_t wl_delta)
{
	struct ss_geometry g = fte_geo(16, 16);
	static uint8_t buf[2048];
	struct ss_ftl_params p;
	struct ss_ftl_stats st;
	uint64_t rnd = 99, *ver, writes = 0;
	uint32_t cap, emu_failed = 0, bad;
	int rc = 0;
	struct fte e;

	ss_ftl_default_params(&p);
	p.wear_level_delta = wl_delta;
	p.checkpoint_interval_pages = 512;
	g.overprovision_permille = 250;   /* room for many blocks to retire */
	fte_create(&e, &g, 40);
	CHECK_EQ(fte_format(&e, &p), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	ver = calloc(cap, sizeof(*ver));
	for (uint32_t l = 0; l < cap && rc == 0; l++) {
		fte_fill(buf, 2048, l, ++ver[l]);
		rc = ss_ftl_write(e.ftl, l, buf, SS_STREAM_COLD, 0);
		writes++;
	}
	CHECK_EQ(rc, 0);
	while (rc == 0 && writes < 2000000) {
		uint32_t l = (uint32_t)(fte_rand(&rnd) % (cap / 4));   /* hot quarter */

		fte_fill(buf, 2048, l, ver[l] + 1);
		rc = ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0);
		if (rc == 0) {
			ver[l]++;
			writes++;
		}
		if (writes % 2048 == 0) {
			CHECK(ss_ftl_background(e.ftl, 256) >= 0);
		}
	}
	CHECK_EQ(rc, -SS_ENOSPC);
	/* once full, it stays full and still refuses cleanly */
	CHECK_EQ(ss_ftl_write(e.ftl, 0, buf, SS_STREAM_HOT, 0), -SS_ENOSPC);
	ss_ftl_get_stats(e.ftl, &st);
	for (uint32_t b = 0; b < ss_geo_blocks(&g); b++) {
		struct ss_emu_block_info bi;

		ss_emu_flash_block_info(e.flash, b, &bi);
		emu_failed += bi.failed;
	}
	bad = verify_all(e.ftl, ver, cap);
	printf("wear-out (wl delta %u): %llu writes, WA %u.%03u, retired %u blocks (flash says %u "
	       "failed) of %u, erase min %u max %u avg %u, %u pages lost\n", wl_delta,
	       (unsigned long long)writes, ss_ftl_write_amplification_milli(e.ftl) / 1000,
	       ss_ftl_write_amplification_milli(e.ftl) % 1000, st.retired_blocks, emu_failed,
	       st.total_blocks, st.min_erase_count, st.max_erase_count, st.avg_erase_count, bad);
	CHECK(st.retired_blocks > 0);
	CHECK_EQ(st.retired_blocks, emu_failed);
	CHECK_EQ(bad, 0);
	if (wl_delta != 0) {
		/* levelled: the drive only fills once the average block is near its endurance,
		 * and no good block is left behind (it was 1 of 41 before open and checkpoint
		 * blocks were levelled too) */
		CHECK(st.avg_erase_count >= 30);
		CHECK(st.max_erase_count - st.min_erase_count <= wl_delta + SS_FTL_WL_SLACK(wl_delta));
	}
	rc = ss_ftl_unmount(e.ftl);
	printf("unmount after wear-out: %d\n", rc);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(fte_mount(&e), 0);
	if (e.ftl != NULL) {
		CHECK_EQ(verify_all(e.ftl, ver, cap), 0);
		ss_ftl_get_stats(e.ftl, &st);
		CHECK(st.retired_blocks >= emu_failed);
	}
	free(ver);
	fte_destroy(&e);
}

static void test_wear_out_levelled(void) { wear_out(4); }
static void test_wear_out_no_static_wl(void) { wear_out(0); }

int main(void)
{
	RUN(test_pick_free_table);
	RUN(test_wear_out_levelled);
	RUN(test_wear_out_no_static_wl);
	return ss_test_failures ? 1 : 0;
}
