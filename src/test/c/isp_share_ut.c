/*
 * The ISP core shared between runs in modelled time (firmware-tasklets/isp/isp_share.c):
 * a short scan executed right after a long one on the same drive finishes in about twice
 * its own time, not after the long one; the long one ends later by at most the short one's
 * work; the core is busy for exactly the two runs' spans (work conserved); both answers
 * are those of the runs alone; and the same two executions give the same modelled times.
 *
 * 64 MiB beside 64 KiB stands for 1 GB beside 1 MB: the ratio, 1024, is what the bounds
 * argue from. A run's "solo time" is its own modelled span (finished - started) when it
 * runs alone on the drive.
 */
#include <string.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

#define LONG_BYTES (64ull << 20)
#define SHORT_BYTES (64ull << 10)
#define ENTRY 32u
/* Runs at once, and the slack the bound allows beyond them (the short run's first and
 * last batch overlap the long run's differently than alone). */
#define RUNS 2u
#define SLACK 1u

static int failures;

#define EXPECT(cond, ...)                                                                  \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "FAIL: " __VA_ARGS__);                             \
			fprintf(stderr, "\n");                                             \
			failures++;                                                        \
		}                                                                          \
	} while (0)

struct outcome {
	struct ss_dev_progress p;
	uint8_t out[1024];
	int64_t out_len;
};

struct pair {
	struct outcome lng, shrt;
	/* when the short run reached the core: its EXECUTE's completion, or the end of the
	 * work done before, whichever is later (the host clock does not wait for the core) */
	uint64_t short_arrival;
	uint64_t isp_busy_ns;     /* the core's busy time over both runs */
};

static struct ss_dev_tasklet_spec spec;
static uint8_t params[64];
static size_t params_len;

static void model(struct drive_fixture *f, struct ss_dev_model *m)
{
	if (ss_dev_model_counters(f->dev, m) != 0) {
		DIE("model counters");
	}
}

static void finish(struct drive_fixture *f, uint64_t instance, struct outcome *o)
{
	drive_fixture_wait(f, instance, &o->p);
	if (o->p.state != SS_DEV_TASKLET_DONE) {
		DIE("tasklet run failed: %d", o->p.error);
	}
	o->out_len = ss_dev_read(f->dev, spec.output_oid, 0, o->out, sizeof(o->out));
	if (o->out_len < 0) {
		DIE("read the output");
	}
	ss_dev_tasklet_destroy(f->dev, instance);
}

static void solo(struct drive_fixture *f, uint64_t oid, struct outcome *o)
{
	uint64_t instance;

	drive_fixture_start(f, &spec, params, (uint32_t)params_len, oid, &instance);
	finish(f, instance, o);
}

/* The long run executed, then the short one at once, then both waited for. */
static void together(struct drive_fixture *f, uint64_t long_oid, uint64_t short_oid,
		     uint64_t core_free, struct pair *r)
{
	struct ss_dev_tasklet_spec long_spec;
	struct ss_dev_model before, after;
	uint64_t li, si;

	model(f, &before);
	drive_fixture_start(f, &spec, params, (uint32_t)params_len, long_oid, &li);
	long_spec = spec;
	drive_fixture_start(f, &spec, params, (uint32_t)params_len, short_oid, &si);
	model(f, &after);
	r->short_arrival = after.host_now_ns > core_free ? after.host_now_ns : core_free;
	finish(f, si, &r->shrt);
	spec.output_oid = long_spec.output_oid;
	finish(f, li, &r->lng);
	model(f, &after);
	r->isp_busy_ns = after.isp_busy_ns - before.isp_busy_ns;
}

static uint64_t span(const struct outcome *o)
{
	return o->p.finished_ns - o->p.started_ns;
}

static void same_answer(const char *what, const struct outcome *got, const struct outcome *alone,
			uint64_t bytes)
{
	EXPECT(got->p.records == bytes / ENTRY && alone->p.records == bytes / ENTRY,
	       "%s: %llu records, want %llu", what, (unsigned long long)got->p.records,
	       (unsigned long long)(bytes / ENTRY));
	EXPECT(got->out_len > 0 && got->out_len == alone->out_len &&
	       memcmp(got->out, alone->out, (size_t)got->out_len) == 0,
	       "%s: the output differs from the run's alone", what);
	EXPECT(got->p.instructions == alone->p.instructions &&
	       got->p.dram_accesses == alone->p.dram_accesses,
	       "%s: counted work differs from the run's alone", what);
}

int main(void)
{
	struct drive_fixture f;
	struct ss_bt_agg_params a;
	struct ss_dev_model before, after;
	struct outcome long_alone, short_alone;
	struct pair r[2];
	uint64_t regions[8], long_oid, short_oid, solo_busy, core_free;

	drive_fixture_open(&f, "kang-smartssd", 8, NULL);
	long_oid = drive_fixture_write_records(&f, "/share/long.bin", LONG_BYTES, ENTRY, regions);
	short_oid = drive_fixture_write_records(&f, "/share/short.bin", SHORT_BYTES, ENTRY, regions);

	/* COUNT and SUM of size by region */
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_GROUP_AGG;
	spec.mem_budget = 16 << 10;
	spec.layout.kind = 1;
	spec.layout.record_size = ENTRY;
	spec.layout.nfields = 2;
	spec.layout.fields[0] = (struct ss_dev_field){ .offset = 19, .type = 1, .shift = 5, .bits = 3 };
	spec.layout.fields[1] = (struct ss_dev_field){ .offset = 12, .type = 3 };
	memset(&a, 0, sizeof(a));
	a.nkeys = 1;
	a.key1 = 0;
	a.value = 1;
	a.ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM;
	memcpy(params, &a, sizeof(a));
	params_len = sizeof(a);

	model(&f, &before);
	solo(&f, long_oid, &long_alone);
	solo(&f, short_oid, &short_alone);
	model(&f, &after);
	solo_busy = after.isp_busy_ns - before.isp_busy_ns;
	core_free = short_alone.p.finished_ns;
	printf("alone: long %llu ns, short %llu ns\n", (unsigned long long)span(&long_alone),
	       (unsigned long long)span(&short_alone));

	for (int i = 0; i < 2; i++) {
		struct pair *p = &r[i];
		uint64_t short_took, long_took;

		together(&f, long_oid, short_oid, core_free, p);
		core_free = p->lng.p.finished_ns;
		short_took = p->shrt.p.finished_ns - p->short_arrival;
		long_took = span(&p->lng);
		printf("together #%d: short done %llu ns after its EXECUTE, long %llu ns\n", i + 1,
		       (unsigned long long)short_took, (unsigned long long)long_took);
		EXPECT(short_took <= span(&short_alone) * (RUNS + SLACK),
		       "the short run took %llu ns after its EXECUTE, over %u x its %llu ns alone "
		       "(the long run alone: %llu ns)", (unsigned long long)short_took,
		       RUNS + SLACK, (unsigned long long)span(&short_alone),
		       (unsigned long long)span(&long_alone));
		EXPECT(p->shrt.p.started_ns >= p->short_arrival &&
		       p->shrt.p.started_ns < p->lng.p.finished_ns,
		       "the short run started at %llu ns, not between its EXECUTE (%llu) and the "
		       "long run's end (%llu)", (unsigned long long)p->shrt.p.started_ns,
		       (unsigned long long)p->short_arrival,
		       (unsigned long long)p->lng.p.finished_ns);
		EXPECT(long_took >= span(&long_alone) &&
		       long_took <= span(&long_alone) + span(&short_alone) + RUNS,
		       "the long run took %llu ns beside the short one: want %llu to %llu + %llu",
		       (unsigned long long)long_took, (unsigned long long)span(&long_alone),
		       (unsigned long long)span(&long_alone), (unsigned long long)span(&short_alone));
		/* Processor sharing by hand: both reach the core together, each has half of it
		 * until the short one ends, after 2 x its span; the long one then has it alone
		 * for the rest of its span. Each run's span is the one it has alone. */
		EXPECT(short_took == 2 * span(&short_alone) &&
		       p->lng.p.started_ns == p->short_arrival &&
		       long_took == span(&long_alone) + span(&short_alone),
		       "shared times %llu and %llu ns, want %llu and %llu ns",
		       (unsigned long long)short_took, (unsigned long long)long_took,
		       (unsigned long long)(2 * span(&short_alone)),
		       (unsigned long long)(span(&long_alone) + span(&short_alone)));
		/* work conserved: the core is busy from the long run's start for both spans */
		EXPECT(p->lng.p.finished_ns - p->lng.p.started_ns <=
			       span(&long_alone) + span(&short_alone) + RUNS &&
		       p->lng.p.finished_ns >= p->shrt.p.finished_ns,
		       "the pair's last end %llu is not the long run's start %llu plus both spans",
		       (unsigned long long)p->lng.p.finished_ns,
		       (unsigned long long)p->lng.p.started_ns);
		EXPECT(p->isp_busy_ns == solo_busy,
		       "the core was busy %llu ns for the pair, %llu ns for the runs alone",
		       (unsigned long long)p->isp_busy_ns, (unsigned long long)solo_busy);
		same_answer("long", &p->lng, &long_alone, LONG_BYTES);
		same_answer("short", &p->shrt, &short_alone, SHORT_BYTES);
	}
	EXPECT(r[0].shrt.p.finished_ns - r[0].short_arrival ==
		       r[1].shrt.p.finished_ns - r[1].short_arrival &&
	       r[0].shrt.p.started_ns - r[0].short_arrival ==
		       r[1].shrt.p.started_ns - r[1].short_arrival &&
	       span(&r[0].lng) == span(&r[1].lng) &&
	       r[0].lng.p.started_ns - r[0].short_arrival ==
		       r[1].lng.p.started_ns - r[1].short_arrival,
	       "the same two executions gave different modelled times");
	drive_fixture_close(&f);
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("the short run shares the core\n");
	return 0;
}
