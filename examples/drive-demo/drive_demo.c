/*
 * The drive's own demo: format an emulated Smart SSD, store WorldCup98-style access
 * records on it, count accesses per region twice — inside the drive with the
 * group-aggregate tasklet, and on the host after reading every byte over the link — and
 * print both answers with the modelled time, link traffic and energy of each.
 *   usage: drive_demo [MiB] (default 64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

static const char *const region_names[8] = { "Santa Clara", "Plano", "Herndon", "Paris",
					     "region 4", "region 5", "region 6", "region 7" };

static void model(struct drive_fixture *f, struct ss_dev_model *m)
{
	if (ss_dev_model_counters(f->dev, m) != 0) {
		DIE("model counters");
	}
}

static void print_cost(const char *who, const struct ss_dev_model *a, const struct ss_dev_model *b,
		       uint64_t modelled_ns)
{
	printf("  %-7s modelled %8.1f ms   link %9.1f KiB   NAND reads %7llu   device energy %8.3f J\n",
	       who, modelled_ns / 1e6,
	       (double)(b->link_bytes_in + b->link_bytes_out - a->link_bytes_in - a->link_bytes_out) / 1024,
	       (unsigned long long)(b->page_reads - a->page_reads),
	       (double)(b->energy_total_nj - a->energy_total_nj) / 1e9);
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 64;
	const uint32_t entry = 256;
	struct drive_fixture f;
	struct ss_dev_info info;
	struct ss_dev_model m0, m1, m2;
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_agg_params params;
	struct ss_dev_progress p;
	uint64_t written[8], device[8] = { 0 }, host[8] = { 0 }, instance;

	drive_fixture_open(&f, "kang-smartssd", 0, NULL);
	ss_dev_drive_info(f.dev, &info);
	printf("emulated drive %s (%s): %u channels x %u ways, %u-byte pages, %.1f GiB\n",
	       info.model, f.image, info.channels, info.ways, info.page_size,
	       info.capacity_bytes / (double)(1ull << 30));
	printf("writing %llu MiB of %u-byte WorldCup98-style records to /logs/wc98.bin ...\n",
	       (unsigned long long)mib, entry);
	uint64_t oid = drive_fixture_write_records(&f, "/logs/wc98.bin", mib << 20, entry, written);

	/* in the drive: group-aggregate COUNT by region (top 3 bits of the server byte) */
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_GROUP_AGG;
	spec.mem_budget = 16 << 10;
	spec.layout.kind = 1;
	spec.layout.record_size = entry;
	spec.layout.nfields = 1;
	spec.layout.fields[0] = (struct ss_dev_field){ .offset = 19, .type = 1, .shift = 5, .bits = 3 };
	memset(&params, 0, sizeof(params));
	params.nkeys = 1;
	params.ops = SS_BT_AGG_COUNT;
	model(&f, &m0);
	drive_fixture_run(&f, &spec, &params, sizeof(params), oid, &p, &instance);
	uint8_t out[4096];
	int64_t n = ss_dev_tasklet_read(f.dev, instance, 0, out, sizeof(out), NULL);
	for (int64_t off = 0; off + 48 <= n - (int64_t)sizeof(struct ss_bt_trailer); off += 48) {
		struct ss_bt_agg_item it;

		memcpy(&it, out + off, sizeof(it));
		device[it.key1 & 7] += it.count;
	}
	model(&f, &m1);

	/* on the host: read every byte over the link and count */
	static uint8_t buf[1 << 20];
	for (uint64_t off = 0; off < (mib << 20); off += sizeof(buf)) {
		int64_t got = ss_dev_read(f.dev, oid, off, buf, sizeof(buf));

		if (got < 0) {
			DIE("read");
		}
		for (int64_t r = 0; r + entry <= got; r += entry) {
			host[buf[r + 19] >> 5]++;
		}
	}
	model(&f, &m2);

	printf("\naccesses per region (Q1)       device        host\n");
	for (int r = 0; r < 8; r++) {
		if (written[r] || device[r] || host[r]) {
			printf("  %-24s %11llu %11llu%s\n", region_names[r],
			       (unsigned long long)device[r], (unsigned long long)host[r],
			       device[r] == host[r] && host[r] == written[r] ? "" : "   MISMATCH");
		}
	}
	printf("\ncost (modelled by the kang-smartssd profile; never host wall-clock):\n");
	print_cost("device", &m0, &m1, p.finished_ns - p.started_ns);
	print_cost("host", &m1, &m2, m2.now_ns - m1.now_ns);
	drive_fixture_close(&f);
	return memcmp(device, host, sizeof(host)) == 0 && memcmp(host, written, sizeof(host)) == 0 ? 0 : 1;
}
