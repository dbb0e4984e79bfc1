/*
 * A short scan executed right after a long one on one drive: the modelled completion of
 * each, first come first served (the spans back to back, as the engine reported them
 * before the ISP core was shared) and shared (isp/isp_share.c, as it reports them now).
 * Modelled time only: the kang-smartssd drive in virtual time; wall clock is not measured.
 * Each run's time alone is measured first on the same drive; the FIFO figures are those
 * spans back to back. Times are from the moment the runs reach the core.
 *   usage: isp_share [LONG_MiB [SHORT_KiB]] (default 1024 MiB beside 1024 KiB)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

#define ENTRY 32u

static struct ss_dev_tasklet_spec spec;
static struct ss_bt_agg_params agg;

static void wait_done(struct drive_fixture *f, uint64_t instance, struct ss_dev_progress *p)
{
	drive_fixture_wait(f, instance, p);
	if (p->state != SS_DEV_TASKLET_DONE) {
		DIE("tasklet run failed: %d", p->error);
	}
	ss_dev_tasklet_destroy(f->dev, instance);
}

static uint64_t alone(struct drive_fixture *f, uint64_t oid, uint64_t *end)
{
	struct ss_dev_progress p;
	uint64_t instance;

	drive_fixture_start(f, &spec, &agg, sizeof(agg), oid, &instance);
	wait_done(f, instance, &p);
	*end = p.finished_ns;
	return p.finished_ns - p.started_ns;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

int main(int argc, char **argv)
{
	uint64_t long_mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 1024;
	uint64_t short_kib = argc > 2 ? strtoull(argv[2], NULL, 10) : 1024;
	struct drive_fixture f;
	struct ss_dev_progress pl, ps;
	struct ss_dev_model m;
	uint64_t regions[8], long_oid, short_oid, li, si, w_long, w_short, core_free, at;

	/* 64 dies x 1 MiB blocks: twice the data, for the FTL's spare blocks */
	drive_fixture_open(&f, "kang-smartssd", (uint32_t)((long_mib * 2 + 63) / 64 + 8), NULL);
	long_oid = drive_fixture_write_records(&f, "/share/long.bin", long_mib << 20, ENTRY, regions);
	short_oid = drive_fixture_write_records(&f, "/share/short.bin", short_kib << 10, ENTRY,
						regions);
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_GROUP_AGG;
	spec.mem_budget = 16 << 10;
	spec.layout.kind = 1;
	spec.layout.record_size = ENTRY;
	spec.layout.nfields = 2;
	spec.layout.fields[0] = (struct ss_dev_field){ .offset = 19, .type = 1, .shift = 5, .bits = 3 };
	spec.layout.fields[1] = (struct ss_dev_field){ .offset = 12, .type = 3 };
	agg.nkeys = 1;
	agg.value = 1;
	agg.ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM;

	w_long = alone(&f, long_oid, &core_free);
	w_short = alone(&f, short_oid, &core_free);

	drive_fixture_start(&f, &spec, &agg, sizeof(agg), long_oid, &li);
	drive_fixture_start(&f, &spec, &agg, sizeof(agg), short_oid, &si);
	if (ss_dev_model_counters(f.dev, &m) != 0) {
		DIE("model counters");
	}
	/* the host clock does not wait for the core: the runs reach it when it is free */
	at = m.host_now_ns > core_free ? m.host_now_ns : core_free;
	wait_done(&f, si, &ps);
	wait_done(&f, li, &pl);
	drive_fixture_close(&f);

	printf("| scan | alone, ms | FIFO: done after, ms | FIFO / alone | shared: done after, ms | "
	       "shared / alone |\n|---|---:|---:|---:|---:|---:|\n");
	printf("| %llu MiB (first) | %.3f | %.3f | %.2f | %.3f | %.4f |\n",
	       (unsigned long long)long_mib, ms(w_long), ms(w_long), 1.0,
	       ms(pl.finished_ns - at), (double)(pl.finished_ns - at) / (double)w_long);
	printf("| %llu KiB (second) | %.3f | %.3f | %.1f | %.3f | %.2f |\n",
	       (unsigned long long)short_kib, ms(w_short), ms(w_long + w_short),
	       (double)(w_long + w_short) / (double)w_short, ms(ps.finished_ns - at),
	       (double)(ps.finished_ns - at) / (double)w_short);
	printf("core busy from the first start to the last end: FIFO %.3f ms, shared %.3f ms\n",
	       ms(w_long + w_short),
	       ms((pl.finished_ns > ps.finished_ns ? pl.finished_ns : ps.finished_ns) - at));
	return 0;
}
