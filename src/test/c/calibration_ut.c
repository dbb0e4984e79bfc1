/*
 * Calibration of the kang-smartssd profile against [Kang 2014], ch. 6, measured end to end
 * through libsmartssd, the firmware and the emulator's model (modelled time only):
 *   - a device scan reads internally at 1.8x the link, within +-10 % (§6.5.2.1);
 *   - with N 4-byte DRAM accesses per 8 KB page, device processing stops beating host
 *     processing between 64 and 256 accesses (§6.5.2.2, Fig. 6.6, p. 74). The host's cost
 *     per page is its transfer over the link (Fig. 6.6: host time stays flat in N).
 */
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

#define LINK_BYTES_PER_S 300e6   /* SATA 3 Gb/s after 8b/10b ([Kang 2014, §6.5.1]) */
#define OBJECT_BYTES (48ull << 20)

static int failures;

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
		fprintf(stderr, "probe: no modelled progress\n");
		exit(2);
	}
	return (double)(p.finished_ns - p.started_ns) / (double)p.pages_done;
}

int main(void)
{
	struct drive_fixture f;
	struct ss_dev_model before, after;
	struct ss_dev_info info;
	uint64_t regions[8];
	static uint8_t buf[1 << 20];
	static const uint32_t accesses[] = { 0, 16, 32, 64, 96, 128, 160, 192, 256, 384, 512 };

	drive_fixture_open(&f, "kang-smartssd", 8, NULL);
	if (ss_dev_drive_info(f.dev, &info) != 0) {
		DIE("drive info");
	}
	uint64_t oid = drive_fixture_write_records(&f, "/cal/scan.bin", OBJECT_BYTES, 256, regions);

	/* Internal bandwidth: a scan that does nothing but read its pages. */
	double device_page_ns = probe_ns_per_page(&f, oid, 0);
	double internal = info.page_size * 1e9 / device_page_ns;
	double ratio = internal / LINK_BYTES_PER_S;

	printf("device scan: %.0f ns/page = %.1f MB/s internal, %.2fx the link (expect 1.8 +- 10 %%)\n",
	       device_page_ns, internal / 1e6, ratio);
	if (ratio < 1.8 * 0.9 || ratio > 1.8 * 1.1) {
		fprintf(stderr, "FAIL: internal/link = %.3f, outside 1.62..1.98\n", ratio);
		failures++;
	}

	/* The host's per-page cost: moving the page over the modelled link. */
	if (ss_dev_model_counters(f.dev, &before) != 0) {
		DIE("model counters");
	}
	for (uint64_t off = 0; off < OBJECT_BYTES; off += sizeof(buf)) {
		if (ss_dev_read(f.dev, oid, off, buf, sizeof(buf)) != (int64_t)sizeof(buf)) {
			DIE("read");
		}
	}
	if (ss_dev_model_counters(f.dev, &after) != 0) {
		DIE("model counters");
	}
	double pages = (double)OBJECT_BYTES / info.page_size;
	double host_page_ns = (double)(after.link_busy_ns - before.link_busy_ns) / pages;
	double host_read = OBJECT_BYTES * 1e9 / (double)(after.host_now_ns - before.host_now_ns);

	printf("host: link %.0f ns/page; end-to-end sequential read %.1f MB/s\n",
	       host_page_ns, host_read / 1e6);

	uint32_t break_even = 0;
	for (size_t i = 0; i < sizeof(accesses) / sizeof(accesses[0]); i++) {
		double dev_ns = probe_ns_per_page(&f, oid, accesses[i]);

		printf("  %4u accesses/page: device %8.0f ns/page, host %8.0f ns/page -> %s\n",
		       accesses[i], dev_ns, host_page_ns, dev_ns < host_page_ns ? "device" : "host");
		if (break_even == 0 && dev_ns >= host_page_ns) {
			break_even = accesses[i];
		}
	}
	printf("break-even: device stops beating the host at %u accesses per page (expect 64..256)\n",
	       break_even);
	if (break_even <= 64 || break_even > 256) {
		fprintf(stderr, "FAIL: break-even at %u accesses per page, outside (64, 256]\n",
			break_even);
		failures++;
	}
	drive_fixture_close(&f);
	printf("%d passed, %d failed\n", 2 - failures, failures);
	return failures ? 1 : 0;
}
