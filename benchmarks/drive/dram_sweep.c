/*
 * Kang Fig. 6.6 on the emulated drive ([Kang 2014, §6.5.2.2, Fig. 6.6, p. 74]): device
 * time per 8 KB page of the dram-probe tasklet (N 4-byte reads and compares per page)
 * against the host's per-page cost, the page's transfer over the modelled link, which does
 * not depend on N. Modelled time only (the drive's counters), as calibration_ut measures it.
 * Prints CSV on stdout: accesses_per_page,device_ns_per_page,host_ns_per_page,faster
 *   usage: dram_sweep [object MiB, default 48]
 */
#include <stdlib.h>
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

static double probe_ns_per_page(struct drive_fixture *f, uint64_t oid, uint32_t accesses)
{
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_probe_params params = { .accesses = accesses, .compare = 0xDEADBEEF };
	struct ss_dev_progress p;
	uint64_t instance;

	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_DRAM_PROBE;
	spec.mem_budget = 4096;
	drive_fixture_run(f, &spec, &params, sizeof(params), oid, &p, &instance);
	ss_dev_tasklet_destroy(f->dev, instance);
	if (p.pages_done == 0 || p.finished_ns <= p.started_ns) {
		fprintf(stderr, "dram_sweep: no modelled progress at %u accesses\n", accesses);
		exit(2);
	}
	return (double)(p.finished_ns - p.started_ns) / (double)p.pages_done;
}

int main(int argc, char **argv)
{
	static const uint32_t accesses[] = { 0, 16, 32, 64, 96, 128, 160, 192, 256, 384, 512 };
	static uint8_t buf[1 << 20];
	struct drive_fixture f;
	struct ss_dev_model before, after;
	struct ss_dev_info info;
	uint64_t regions[8];
	long mib = argc > 1 ? strtol(argv[1], NULL, 10) : 48;

	if (mib < 1 || mib > 4096) {
		fprintf(stderr, "dram_sweep: object size %s MiB is not in 1..4096\n", argv[1]);
		return 2;
	}
	uint64_t bytes = (uint64_t)mib << 20;
	drive_fixture_open(&f, "kang-smartssd", (uint32_t)(2 * mib / 64 + 8), NULL);
	if (ss_dev_drive_info(f.dev, &info) != 0) {
		DIE("drive info");
	}
	uint64_t oid = drive_fixture_write_records(&f, "/bench/dram.bin", bytes, 256, regions);

	if (ss_dev_model_counters(f.dev, &before) != 0) {
		DIE("model counters");
	}
	for (uint64_t off = 0; off < bytes; off += sizeof(buf)) {
		if (ss_dev_read(f.dev, oid, off, buf, sizeof(buf)) != (int64_t)sizeof(buf)) {
			DIE("read");
		}
	}
	if (ss_dev_model_counters(f.dev, &after) != 0) {
		DIE("model counters");
	}
	double host_ns = (double)(after.link_busy_ns - before.link_busy_ns) /
			 ((double)bytes / info.page_size);

	printf("accesses_per_page,device_ns_per_page,host_ns_per_page,faster\n");
	for (size_t i = 0; i < sizeof(accesses) / sizeof(accesses[0]); i++) {
		double dev_ns = probe_ns_per_page(&f, oid, accesses[i]);

		printf("%u,%.0f,%.0f,%s\n", accesses[i], dev_ns, host_ns,
		       dev_ns < host_ns ? "device" : "host");
	}
	drive_fixture_close(&f);
	return 0;
}
