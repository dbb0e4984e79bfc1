/*
 * A drive's modelled scan rate must not depend on how much it scans, beyond a cost fixed
 * per run (benchmarks/README.md, run-scale.sh: a drive's share scanned at 293-365 MB/s by
 * its size alone, and 3 x 2 drives came out 113 % efficient). On kang-smartssd drives of
 * the scale benchmark's geometry (409.6 MB raw: 7 blocks per die) and of one that stripes
 * over every die (32 blocks per die), objects of 8 to 48 MiB (whole 128-page batches) are
 * scanned by the DRAM probe with no accesses, the cheapest tasklet. From the model's own
 * constants, never from an earlier run:
 *   - the cost of each further page is the ISP core's price of it (fw_page_overhead_ns plus
 *     its counted instructions and DRAM accesses, as the drive's isp_busy_ns counts it),
 *     within 1 %: the flash reads of one batch hide behind the computing of the one before;
 *   - what is not the ISP core's (the first batch's reads, the run's start and end) is
 *     fixed: the same at every size within 1 % of the smallest run, and no more than two
 *     batches read from a single die per channel, page after page (tR, then the page and
 *     spare over the channel).
 * Before the FTL kept a lane on every channel (ftl_stripe.c), the 7-block drive striped
 * over 8 dies and its scan was bound by them, 26 us a page against the ISP core's 15 us,
 * less where the DRAM buffer still held the last pages written.
 */
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_emu_profile.h"

static int failures;

struct scan {
	uint64_t bytes, pages, run_ns, isp_ns;
};

static struct scan scan_object(const char *profile, uint32_t blocks_per_die, uint64_t bytes)
{
	struct drive_fixture f;
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_probe_params params = { .accesses = 0, .compare = 0xDEADBEEF };
	struct ss_dev_progress p;
	struct ss_dev_model before, after;
	uint64_t regions[8], instance, oid;
	struct scan s;

	drive_fixture_open(&f, profile, blocks_per_die, NULL);
	oid = drive_fixture_write_records(&f, "/rate/in.bin", bytes, 256, regions);
	if (ss_dev_model_counters(f.dev, &before) != 0) {
		DIE("model counters");
	}
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_DRAM_PROBE;
	spec.mem_budget = 4096;
	drive_fixture_run(&f, &spec, &params, sizeof(params), oid, &p, &instance);
	if (ss_dev_model_counters(f.dev, &after) != 0) {
		DIE("model counters");
	}
	ss_dev_tasklet_destroy(f.dev, instance);
	drive_fixture_close(&f);
	s.bytes = bytes;
	s.pages = p.pages_done;
	s.run_ns = p.finished_ns - p.started_ns;
	s.isp_ns = after.isp_busy_ns - before.isp_busy_ns;
	return s;
}

static void check_geometry(const struct ss_emu_profile *prof, uint32_t blocks_per_die)
{
	static const uint64_t mib[] = { 8, 16, 24, 32, 48 };
	enum { N = sizeof(mib) / sizeof(mib[0]) };
	struct scan s[N];
	uint64_t per_die = prof->isp_batch_pages / prof->geo.channels;
	double page_read_ns = (double)prof->nand_read_ns +
			      (prof->geo.page_size + prof->geo.spare_size) * 1e9 / prof->channel_bytes_per_s;
	double fixed_max = 2.0 * per_die * page_read_ns;
	double fixed0 = 0;

	for (size_t i = 0; i < N; i++) {
		s[i] = scan_object(prof->name, blocks_per_die, mib[i] << 20);
	}
	fixed0 = (double)s[0].run_ns - (double)s[0].isp_ns;
	for (size_t i = 0; i < N; i++) {
		double fixed = (double)s[i].run_ns - (double)s[i].isp_ns;

		printf("%u blocks/die, %3llu MiB: %llu pages, run %.3f ms, ISP core %.3f ms, "
		       "%.4f ns/B, fixed %.3f ms", blocks_per_die,
		       (unsigned long long)mib[i], (unsigned long long)s[i].pages, s[i].run_ns / 1e6,
		       s[i].isp_ns / 1e6, (double)s[i].run_ns / (double)s[i].bytes, fixed / 1e6);
		if (i > 0) {
			double dpages = (double)(s[i].pages - s[0].pages);
			double marginal = ((double)s[i].run_ns - (double)s[0].run_ns) / dpages;
			double isp = ((double)s[i].isp_ns - (double)s[0].isp_ns) / dpages;

			printf(", further pages %.0f ns each, the ISP core's %.0f", marginal, isp);
			if (marginal > isp * 1.01 || marginal < isp * 0.99) {
				printf("\n");
				fprintf(stderr, "FAIL: %u blocks/die: a further page costs %.0f ns, the "
					"ISP core's price is %.0f ns (1 %%)\n", blocks_per_die, marginal,
					isp);
				failures++;
			}
		}
		printf("\n");
		if (fixed < 0 || fixed > fixed_max) {
			fprintf(stderr, "FAIL: %u blocks/die, %llu MiB: %.3f ms beside the ISP core, "
				"want 0 to %.3f ms\n", blocks_per_die, (unsigned long long)mib[i],
				fixed / 1e6, fixed_max / 1e6);
			failures++;
		}
		if (fixed > fixed0 + 0.01 * (double)s[0].run_ns ||
		    fixed < fixed0 - 0.01 * (double)s[0].run_ns) {
			fprintf(stderr, "FAIL: %u blocks/die, %llu MiB: %.3f ms beside the ISP core, "
				"%.3f ms at %llu MiB\n", blocks_per_die, (unsigned long long)mib[i],
				fixed / 1e6, fixed0 / 1e6, (unsigned long long)mib[0]);
			failures++;
		}
	}
}

int main(void)
{
	struct ss_emu_profile prof;
	char err[256];

	if (ss_emu_profile_load("kang-smartssd", &prof, err, sizeof(err)) != 0) {
		fprintf(stderr, "profile: %s\n", err);
		return 2;
	}
	check_geometry(&prof, 7);    /* the scale benchmark's drives */
	check_geometry(&prof, 32);   /* a lane per die */
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("scan rate independent of the object's size\n");
	return 0;
}
