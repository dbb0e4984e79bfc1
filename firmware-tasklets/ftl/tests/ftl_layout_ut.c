/* Geometry checks, capacity bounds and DRAM sizing (including the Jasmine board). */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ftl_test_env.h"

static void test_jasmine_fits_64mb(void)
{
	/* jasmine-openssd: 4 channels x 8 ways, 32 KB virtual pages, 128 pages per block,
	 * 64 GB, 7 % OP ([Saxena 2013, Table 4.2, p. 63]; docs/REFERENCES.md). */
	const uint64_t bytes = 64ull << 30, page = 32 << 10;
	struct ss_geometry g = { .channels = 4, .ways = 8, .pages_per_block = 128,
				 .page_size = 32768, .spare_size = 448 * 4,
				 .overprovision_permille = 70 };
	uint64_t pages, need, l2p_floor;

	g.blocks_per_die = (uint32_t)(bytes / (4ull * 8 * 128 * page));
	CHECK_EQ(g.blocks_per_die, 512);
	pages = (uint64_t)4 * 8 * 512 * 128;
	need = ss_ftl_dram_needed(&g);
	/* at least 4 B per offered logical page (>= 90 % of raw) plus 4 B per physical page */
	l2p_floor = pages * 9 / 10 * 4 + pages * 4;
	printf("jasmine: %u blocks per die, %llu pages, FTL DRAM %llu bytes of 64 MB\n",
	       g.blocks_per_die, (unsigned long long)pages, (unsigned long long)need);
	CHECK(need >= l2p_floor);
	CHECK(need <= 64ull << 20);
}

static void test_bad_geometry(void)
{
	static const struct {
		const char *what;
		struct ss_geometry g;
	} bad[] = {
		{ "no channels", { 0, 1, 32, 32, 2048, 64, 70 } },
		{ "one page per block", { 4, 1, 32, 1, 2048, 64, 70 } },
		{ "spare too small for the record", { 4, 1, 32, 32, 2048, 16, 70 } },
		{ "page too small", { 4, 1, 32, 32, 256, 64, 70 } },
		{ "all over-provisioned", { 4, 1, 32, 32, 2048, 64, 1000 } },
		{ "too few blocks for the reserve", { 1, 1, 8, 32, 2048, 64, 70 } },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ss_ftl_dram_needed(&bad[i].g) != 0) {
			fprintf(stderr, "accepted bad geometry: %s\n", bad[i].what);
			ss_test_failures++;
		}
	}
}

static void test_capacity_and_dram(void)
{
	struct ss_geometry g = fte_geo(32, 32);
	uint64_t raw = 4ull * 32 * 32, need = ss_ftl_dram_needed(&g);
	struct ss_ftl *ftl = NULL;
	struct fte e;
	uint32_t cap;

	fte_create(&e, &g, 0);
	CHECK(need > 0 && need < e.hal->dram_size);
	CHECK_EQ(ss_ftl_format(&ftl, e.hal, e.hal->dram, need / 2, NULL), -SS_ENOMEM);
	CHECK_EQ(ss_ftl_format(&ftl, e.hal, e.hal->dram, need, NULL), 0);
	cap = ss_ftl_capacity_pages(ftl);
	/* OP comes off the top; the reserve is 2 one-block checkpoints, an open block per
	 * stream (META, HOT, COLD, GC) and die (4 x 4), a fresh block per GC lane (4) and a
	 * little slack: 25 blocks or fewer */
	CHECK(cap <= raw * 930 / 1000);
	CHECK(cap >= (raw - 25 * 32) * 930 / 1000);
	CHECK_EQ(ss_ftl_page_size(ftl), 2048);
	printf("small geometry: %llu raw pages, %u logical, DRAM %llu bytes\n",
	       (unsigned long long)raw, cap, (unsigned long long)need);
	fte_destroy(&e);
}

int main(void)
{
	RUN(test_jasmine_fits_64mb);
	RUN(test_bad_geometry);
	RUN(test_capacity_and_dram);
	return ss_test_failures ? 1 : 0;
}
