/* Striping: how many dies a stream stripes over, that consecutive pages of one stream land
 * on consecutive dies (evenly, before and after a power cut, and after heavy GC), and
 * that a sequential read after a barrier is bound by the channels' transfers, not by one
 * die, on the kang-smartssd timing.
 *
 * The width table moved once (2026-11-29): the FTL keeps a lane on every channel while that
 * takes at most 1/6 of the blocks, so 5x1x24 stripes over 5 dies (was 1) and 16x4x6-7 over
 * 16 (was 8, which made the scale benchmark's scans die-bound: scan_rate_ut.c). */
#include <stdlib.h>
#include <string.h>

#include "ftl_internal.h"
#include "ftl_test_env.h"
#include "ss_emu_profile.h"

static uint8_t buf[1 << 16], got[1 << 16];

static void test_width_table(void)
{
	/* An open block per die and stream (META, HOT, COLD, GC) may take 1/8 of the blocks:
	 * 32 blocks per lane. Otherwise the largest divisor of the die count that fits, but a
	 * lane per channel while that takes at most 1/6 of the blocks (24 blocks per lane). */
	static const struct {
		const char *name;
		uint32_t ch, ways, bpd, want;
	} rows[] = {
		{ "kang-smartssd 16x4, 256 blocks per die", 16, 4, 256, 64 },
		{ "jasmine-openssd 4x8, 512 blocks per die", 4, 8, 512, 32 },
		{ "4x1x32: every die", 4, 1, 32, 4 },
		{ "4x1x16: too small, every other die", 4, 1, 16, 2 },
		{ "16x4x8: one die per channel", 16, 4, 8, 16 },
		{ "16x4x7: 14 lanes fit, a lane per channel at 1/6", 16, 4, 7, 16 },
		{ "16x4x6: 12 lanes fit, a lane per channel at 1/6", 16, 4, 6, 16 },
		{ "16x4x5: a lane per channel would take over 1/6", 16, 4, 5, 8 },
		{ "3x2x16: 96 blocks allow 3 lanes", 3, 2, 16, 3 },
		{ "5x1x24: no divisor of 5 fits 3, a lane per channel at 1/6", 5, 1, 24, 5 },
		{ "5x1x16: no divisor of 5 fits 2, no striping", 5, 1, 16, 1 },
		{ "1x1x64: a single die", 1, 1, 64, 1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ss_geometry g = fte_geo(rows[i].bpd, 32);
		uint32_t w;

		g.channels = rows[i].ch;
		g.ways = rows[i].ways;
		w = ftl_stripe_width(&g);
		if (w != rows[i].want) {
			fprintf(stderr, "%s: width %u, want %u\n", rows[i].name, w, rows[i].want);
			ss_test_failures++;
		}
	}
}

/* Write `n` consecutive LPNs from `first` into one stream. */
static void write_run(struct fte *e, uint32_t first, uint32_t n, uint64_t version)
{
	uint32_t ps = e->hal->geo.page_size;

	for (uint32_t l = first; l < first + n; l++) {
		fte_fill(buf, ps, l, version);
		CHECK_EQ(ss_ftl_write(e->ftl, l, buf, SS_STREAM_COLD, 0), 0);
	}
}

/*
 * The run's pages must sit on lanes that follow each other (lane = die % width), each lane
 * holding n / width of them, neighbours on different channels, every page programmed on
 * the flash (the emulator's write pointer is past it) and reading back. \return the number
 * of consecutive pairs that do not step to the next lane.
 */
static uint32_t check_run(struct fte *e, uint32_t first, uint32_t n, uint64_t version,
			  uint32_t width, int strict)
{
	const struct ss_geometry *g = &e->hal->geo;
	uint32_t dies = g->channels * g->ways, ppb = g->pages_per_block;
	uint32_t per_lane[64] = { 0 }, prev_die = 0, breaks = 0;

	for (uint32_t l = first; l < first + n; l++) {
		struct ss_emu_block_info bi;
		uint32_t ppn = 0, die;

		CHECK_EQ(ss_ftl_lookup(e->ftl, l, &ppn), 0);
		die = (ppn / ppb) % dies;
		CHECK_EQ(ss_emu_flash_block_info(e->flash, ppn / ppb, &bi), 0);
		CHECK(bi.write_ptr > ppn % ppb);
		per_lane[die % width]++;
		if (l > first && die % width != (prev_die % width + 1) % width) {
			breaks++;
		}
		if (strict && l > first && width > 1) {
			CHECK(die % g->channels != prev_die % g->channels);
		}
		prev_die = die;
		CHECK_EQ(ss_ftl_read(e->ftl, l, got), 0);
		CHECK_EQ(fte_classify(got, g->page_size, l), (long long)version);
	}
	if (strict) {
		CHECK_EQ(breaks, 0);
		for (uint32_t w = 0; w < width; w++) {
			CHECK_EQ(per_lane[w], n / width);
		}
	}
	return breaks;
}

static void test_even_over_dies(void)
{
	static const struct {
		const char *name;
		uint32_t ch, ways, bpd, ppb, width;
	} rows[] = {
		{ "4 channels x 1 way: every die", 4, 1, 32, 32, 4 },
		{ "4 channels x 2 ways: channels, then ways", 4, 2, 32, 16, 8 },
		{ "4 channels x 1 way, 16 blocks: every other die", 4, 1, 16, 16, 2 },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct ss_geometry g = fte_geo(rows[r].bpd, rows[r].ppb);
		uint32_t w = rows[r].width, n = 3 * w * rows[r].ppb;
		int before;
		struct fte e;

		g.channels = rows[r].ch;
		g.ways = rows[r].ways;
		fte_create(&e, &g, 0);
		CHECK_EQ(fte_format(&e, NULL), 0);
		CHECK_EQ(ss_ftl_stripe_dies(e.ftl), w);
		/* a first run, a META page in between (its own stream), then a second run */
		write_run(&e, 0, n, 1);
		fte_fill(buf, g.page_size, n, 1);
		CHECK_EQ(ss_ftl_write(e.ftl, n, buf, SS_STREAM_META, 0), 0);
		write_run(&e, n + 1, n, 1);
		CHECK_EQ(ss_ftl_flush(e.ftl), 0);
		before = ss_test_failures;
		check_run(&e, 0, n, 1, w, 1);
		check_run(&e, n + 1, n, 1, w, 1);
		/* a power cut closes every open block; the mapping survives, and new writes
		 * stripe from the first lane again */
		fte_close(&e);
		fte_reopen(&e);
		CHECK_EQ(fte_mount(&e), 0);
		check_run(&e, 0, n, 1, w, 1);
		write_run(&e, 0, n, 2);
		check_run(&e, 0, n, 2, w, 1);
		if (ss_test_failures != before) {
			fprintf(stderr, "  in: %s\n", rows[r].name);
		}
		fte_destroy(&e);
	}
}

/* Random overwrites of several times the capacity (GC and its stream busy on every
 * lane), then a sequential run: the per-die free pools must still let it stripe. */
static void test_stripes_after_gc(void)
{
	struct ss_geometry g = fte_geo(32, 32);
	uint64_t rnd = 5;
	uint32_t cap, n, breaks;
	struct fte e;

	fte_create(&e, &g, 0);
	CHECK_EQ(fte_format(&e, NULL), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	for (uint32_t l = 0; l < cap; l++) {
		fte_fill(buf, 2048, l, 1);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
	}
	for (uint32_t i = 0; i < 3 * cap; i++) {
		uint32_t l = (uint32_t)(fte_rand(&rnd) % cap);

		fte_fill(buf, 2048, l, 1);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
	}
	n = 4 * 32 * 4;
	write_run(&e, 0, n, 2);
	breaks = check_run(&e, 0, n, 2, 4, 0);
	printf("after GC: %u of %u consecutive pages off their lane\n", breaks, n - 1);
	CHECK(breaks * 20 <= n);   /* at most 5 % */
	fte_destroy(&e);
}

/*
 * kang-smartssd timing, geometry scaled down (fewer blocks, 4-page blocks): after a
 * barrier, reading 16 pages per die of consecutive LPNs. Each channel must move
 * 16 * ways pages, so the read takes at least that many channel transfers, plus at most
 * one array read (tR) per page a die serves (a die holds its page register until the
 * channel has drained it). Written on one die, the same read would take
 * 16 * dies * (tR + transfer).
 */
static void test_sequential_read_time(void)
{
	static const struct {
		uint32_t ch, ways, bpd;
	} rows[] = { { 16, 1, 64 }, { 8, 4, 32 } };
	struct ss_emu_profile prof;
	char err[256];

	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &prof, err, sizeof(err)), 0);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct ss_geometry g = prof.geo;
		uint64_t bytes, xfer, t0, t1, lower, upper, one_die;
		uint32_t dies, n;
		struct fte e;

		g.channels = rows[r].ch;
		g.ways = rows[r].ways;
		g.blocks_per_die = rows[r].bpd;
		g.pages_per_block = 4;
		dies = g.channels * g.ways;
		n = 16 * dies;
		bytes = (uint64_t)g.page_size + g.spare_size;   /* ss_ftl_read moves both */
		xfer = (bytes * 1000000000u + prof.channel_bytes_per_s - 1) /
		       prof.channel_bytes_per_s;
		fte_create(&e, &g, 0);
		CHECK_EQ(fte_format(&e, NULL), 0);
		CHECK_EQ(ss_ftl_stripe_dies(e.ftl), dies);
		write_run(&e, 0, n, 1);
		ss_hal_barrier(e.hal);
		t0 = ss_hal_now_ns(e.hal);
		for (uint32_t l = 0; l < n; l++) {
			CHECK_EQ(ss_ftl_read(e.ftl, l, got), 0);
			CHECK_EQ(fte_classify(got, g.page_size, l), 1);
		}
		ss_hal_barrier(e.hal);
		t1 = ss_hal_now_ns(e.hal);
		lower = 16ull * g.ways * xfer;
		upper = lower + 16ull * prof.nand_read_ns + lower / 100;   /* 1 %: rounding */
		one_die = (uint64_t)n * (xfer + prof.nand_read_ns);
		printf("%u ch x %u ways: %u pages in %llu ns (%llu ns/page); channel bound %llu ns, "
		       "one die %llu ns\n", g.channels, g.ways, n, (unsigned long long)(t1 - t0),
		       (unsigned long long)((t1 - t0) / n), (unsigned long long)lower,
		       (unsigned long long)one_die);
		CHECK(t1 - t0 >= lower);
		CHECK(t1 - t0 <= upper);
		fte_destroy(&e);
	}
}

int main(void)
{
	RUN(test_width_table);
	RUN(test_even_over_dies);
	RUN(test_stripes_after_gc);
	RUN(test_sequential_read_time);
	return ss_test_failures ? 1 : 0;
}
