/* Sharing a flash: the partition label, and the FTL and the cache each on its own view,
 * both working hard, both intact after a remount: neither touches the other's blocks. */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ss_ssc_part.h"
#include "ssc_test.h"

static void test_plan(void)
{
	static const struct {
		uint32_t bpd, share;
		int rc;
		uint32_t ftl_rows, ssc_rows;
	} table[] = {
		{ 48, 250, 0, 36, 11 },
		{ 48, 0, 0, 47, 0 },
		{ 48, 900, 0, 5, 42 },
		{ 48, 901, -SS_EINVAL, 0, 0 },
		{ 48, 10, -SS_EINVAL, 0, 0 },    /* a share too small for one row */
		{ 2, 250, -SS_EINVAL, 0, 0 },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(table); i++) {
		struct ss_geometry g = fte_geo(table[i].bpd, 16);
		struct ss_ssc_part p;
		int rc = ss_ssc_part_plan(&g, table[i].share, &p);

		CHECK_EQ(rc, table[i].rc);
		if (rc == 0) {
			CHECK_EQ(p.ftl_rows, table[i].ftl_rows);
			CHECK_EQ(p.ssc_rows, table[i].ssc_rows);
		}
	}
}

static void test_shared_flash(void)
{
	static uint8_t buf[ST_PAGE], scratch[ST_PAGE + 64];
	struct ss_geometry g = fte_geo(48, 16);
	struct ss_hal_view fv, sv;
	struct ss_ftl_params fp;
	struct ss_ssc_params sp;
	struct ss_ssc_part part, got;
	struct ss_ftl *ftl = NULL;
	struct ss_ssc *ssc = NULL;
	uint8_t *dram;
	uint64_t half;
	uint32_t cap;
	struct fte e;

	fte_create(&e, &g, 0);
	CHECK_EQ(ss_ssc_part_read(e.hal, scratch, &got), -SS_ENODATA);
	CHECK_EQ(ss_ssc_part_format(e.hal, SS_SSC_SHARE_DEFAULT_PERMILLE, scratch, &part), 0);
	CHECK_EQ(ss_ssc_part_read(e.hal, scratch, &got), 0);
	CHECK_EQ(got.ftl_rows, part.ftl_rows);
	CHECK_EQ(got.ssc_rows, part.ssc_rows);
	ss_ssc_part_views(e.hal, &part, &fv, &sv);
	CHECK_EQ(ss_geo_blocks(&fv.hal.geo) + ss_geo_blocks(&sv.hal.geo) + 4, ss_geo_blocks(&g));
	CHECK_EQ(ss_hal_block_erase(&sv.hal, ss_geo_blocks(&sv.hal.geo)), -SS_EINVAL);
	CHECK_EQ(ss_hal_page_read(&fv.hal, (uint32_t)ss_geo_pages(&fv.hal.geo), buf, NULL),
		 -SS_EINVAL);

	dram = e.hal->dram;
	half = e.hal->dram_size / 2;
	ss_ftl_default_params(&fp);
	ss_ssc_default_params(&sp, SS_SSC_POLICY_SSC_V);
	CHECK_EQ(ss_ftl_format(&ftl, &fv.hal, dram, half, &fp), 0);
	CHECK_EQ(ss_ssc_format(&ssc, &sv.hal, dram + half, half, &sp), 0);
	if (ftl == NULL || ssc == NULL) {
		fte_destroy(&e);
		return;
	}
	cap = ss_ftl_capacity_pages(ftl);
	/* three passes over the FTL's whole capacity (GC in its part) interleaved with cache
	 * writes (merges and eviction in its part) */
	for (uint32_t pass = 1; pass <= 3; pass++) {
		for (uint32_t l = 0; l < cap; l++) {
			fte_fill(buf, ST_PAGE, l, pass);
			CHECK_EQ(ss_ftl_write(ftl, l, buf, SS_STREAM_HOT, 0), 0);
			if (l % 2 == 0) {
				uint64_t lba = (7ull << 40) + (l / 2) % 300;

				st_fill(buf, lba, pass);
				CHECK_EQ(ss_ssc_write_dirty(ssc, lba, buf), 0);
			}
		}
	}
	CHECK_EQ(ss_ftl_unmount(ftl), 0);
	CHECK_EQ(ss_ssc_unmount(ssc), 0);
	fte_close(&e);

	fte_reopen(&e);
	CHECK_EQ(ss_ssc_part_read(e.hal, scratch, &got), 0);
	ss_ssc_part_views(e.hal, &got, &fv, &sv);
	dram = e.hal->dram;
	CHECK_EQ(ss_ftl_mount(&ftl, &fv.hal, dram, half), 0);
	CHECK_EQ(ss_ssc_mount(&ssc, &sv.hal, dram + half, half), 0);
	if (ftl != NULL && ssc != NULL) {
		uint32_t bad = 0;

		for (uint32_t l = 0; l < cap; l++) {
			bad += ss_ftl_read(ftl, l, buf) != 0 || fte_classify(buf, ST_PAGE, l) != 3;
		}
		for (uint64_t k = 0; k < 300; k++) {
			bad += ss_ssc_read(ssc, (7ull << 40) + k, buf) != 0 ||
			       st_classify(buf, (7ull << 40) + k) != 3;
		}
		CHECK_EQ(bad, 0);
	}
	fte_destroy(&e);
}

int main(void)
{
	RUN(test_plan);
	RUN(test_shared_flash);
	return fte_failures ? 1 : 0;
}
