/* Read/write/trim/flush: argument errors, round trips, and trims that survive a power cut
 * once flushed. */
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"
#include "ftl_test_env.h"

static uint8_t buf[2048], got[2048];

static void test_ranges(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct fte e;
	uint32_t cap;

	fte_create(&e, &g, 0);
	CHECK_EQ(fte_format(&e, NULL), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	fte_fill(buf, 2048, cap - 1, 1);
	CHECK_EQ(ss_ftl_write(e.ftl, cap, buf, SS_STREAM_HOT, 0), -SS_ERANGE);
	CHECK_EQ(ss_ftl_write(e.ftl, UINT32_MAX, buf, SS_STREAM_HOT, 0), -SS_ERANGE);
	CHECK_EQ(ss_ftl_read(e.ftl, cap, got), -SS_ERANGE);
	CHECK_EQ(ss_ftl_trim(e.ftl, cap - 1, 2), -SS_ERANGE);
	CHECK_EQ(ss_ftl_trim(e.ftl, cap, 0), -SS_ERANGE);
	CHECK_EQ(ss_ftl_trim(e.ftl, 0, UINT32_MAX), -SS_ERANGE);
	CHECK_EQ(ss_ftl_write(e.ftl, 0, buf, (enum ss_stream)7, 0), -SS_EINVAL);
	/* the last page is usable, an unwritten one reads as zeros with rc 1 */
	CHECK_EQ(ss_ftl_write(e.ftl, cap - 1, buf, SS_STREAM_COLD, SS_FTL_FUA), 0);
	CHECK_EQ(ss_ftl_read(e.ftl, cap - 1, got), 0);
	CHECK_EQ(fte_classify(got, 2048, cap - 1), 1);
	memset(got, 0x55, sizeof(got));
	CHECK_EQ(ss_ftl_read(e.ftl, 0, got), 1);
	CHECK_EQ(fte_classify(got, 2048, 0), 0);
	CHECK_EQ(ss_ftl_trim(e.ftl, cap - 1, 1), 0);
	CHECK_EQ(ss_ftl_read(e.ftl, cap - 1, got), 1);
	fte_destroy(&e);
}

/* Flushed trims stay trimmed after a power cut, even when the trimmed data was written
 * after the last checkpoint (so roll-forward sees the old copies) and across GC. */
static void test_trim_durable(void)
{
	static const struct {
		const char *name;
		uint32_t churn;   /* overwrites of other pages after the trim, to force GC */
	} rows[] = { { "no GC", 0 }, { "GC after trim", 6000 } };

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct ss_geometry g = fte_geo(16, 16);
		struct ss_ftl_params p;
		struct ss_ftl_stats st;
		uint64_t rnd = 42 + r, *ver;
		struct fte e;
		uint32_t cap;

		ss_ftl_default_params(&p);
		p.checkpoint_interval_pages = 100000;  /* keep everything in the roll-forward */
		fte_create(&e, &g, 0);
		CHECK_EQ(fte_format(&e, &p), 0);
		cap = ss_ftl_capacity_pages(e.ftl);
		ver = calloc(cap, sizeof(*ver));
		for (uint32_t l = 0; l < cap; l++) {
			ver[l] = 1;
			fte_fill(buf, 2048, l, 1);
			CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
		}
		CHECK_EQ(ss_ftl_flush(e.ftl), 0);
		CHECK_EQ(ss_ftl_trim(e.ftl, 10, 20), 0);
		CHECK_EQ(ss_ftl_trim(e.ftl, cap - 5, 5), 0);
		for (uint32_t l = 10; l < 30; l++) {
			ver[l] = 0;
		}
		for (uint32_t l = cap - 5; l < cap; l++) {
			ver[l] = 0;
		}
		CHECK_EQ(ss_ftl_flush(e.ftl), 0);
		for (uint32_t i = 0; i < rows[r].churn; i++) {
			uint32_t l = 30 + (uint32_t)(fte_rand(&rnd) % (cap - 40));

			fte_fill(buf, 2048, l, ++ver[l]);
			CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
		}
		CHECK_EQ(ss_ftl_flush(e.ftl), 0);
		ss_ftl_get_stats(e.ftl, &st);
		if (rows[r].churn) {
			CHECK(st.gc_runs > 0);
		}
		fte_close(&e);   /* power cut: no unmount */
		fte_reopen(&e);
		CHECK_EQ(fte_mount(&e), 0);
		ss_ftl_get_stats(e.ftl, &st);
		printf("%s: rolled forward %u pages, gc runs %llu\n", rows[r].name,
		       st.rollforward_pages, (unsigned long long)st.gc_runs);
		for (uint32_t l = 0; l < cap; l++) {
			int rc = ss_ftl_read(e.ftl, l, got);

			CHECK_EQ(rc, ver[l] ? 0 : 1);
			CHECK_EQ(fte_classify(got, 2048, l), (long long)ver[l]);
		}
		free(ver);
		fte_destroy(&e);
	}
}

/* Trim then rewrite before the flush: the rewrite must survive the trim's replay. */
static void test_trim_then_rewrite(void)
{
	struct ss_geometry g = fte_geo(16, 16);
	struct ss_ftl_params p;
	struct fte e;

	ss_ftl_default_params(&p);
	p.checkpoint_interval_pages = 100000;
	fte_create(&e, &g, 0);
	CHECK_EQ(fte_format(&e, &p), 0);
	for (uint32_t l = 0; l < 8; l++) {
		fte_fill(buf, 2048, l, 1);
		CHECK_EQ(ss_ftl_write(e.ftl, l, buf, SS_STREAM_HOT, 0), 0);
	}
	CHECK_EQ(ss_ftl_trim(e.ftl, 0, 8), 0);
	fte_fill(buf, 2048, 3, 2);
	CHECK_EQ(ss_ftl_write(e.ftl, 3, buf, SS_STREAM_HOT, 0), 0);
	CHECK_EQ(ss_ftl_flush(e.ftl), 0);
	fte_close(&e);
	fte_reopen(&e);
	CHECK_EQ(fte_mount(&e), 0);
	for (uint32_t l = 0; l < 8; l++) {
		CHECK_EQ(ss_ftl_read(e.ftl, l, got), l == 3 ? 0 : 1);
		CHECK_EQ(fte_classify(got, 2048, l), l == 3 ? 2 : 0);
	}
	fte_destroy(&e);
}

int main(void)
{
	RUN(test_ranges);
	RUN(test_trim_durable);
	RUN(test_trim_then_rewrite);
	return ss_test_failures ? 1 : 0;
}
