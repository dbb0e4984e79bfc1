/*
 * IOPS and modelled time against queue depth 1, 2, 4, 8, 16, 32 on an emulated
 * kang-smartssd drive (virtual time, no DRAM buffer so every read reaches the flash):
 *   - 4 KiB random reads through one thread's submission queue (ss_dev_queue_*), `depth`
 *     outstanding, each checked against the bytes written;
 *   - tasklet executes (group-aggregate over 4 MiB of 32-byte records), `depth` runs in
 *     the drive at once, each answer checked against the counts written;
 *   - 8 KiB writes (a page each), durable (FUA) and buffered, appended to a new object
 *     through one thread's submission queue, `depth` outstanding; the object is read back
 *     and checked, then removed.
 * Every depth runs twice; the modelled figures of the two read runs must be identical (one
 * submission order, one set of modelled times), else the benchmark fails. Wall-clock IOPS
 * are the host's, measured in the same run; both are given as ratios to depth 1.
 * CSV on stdout (benchmarks/run-queue-depth.sh); the model's bounds on stderr.
 *   usage: queue_depth [reads per depth, default 4096] [runs per depth, default 32]
 *                      [writes per depth, default 1024]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

#define READ_BYTES 4096u
#define WRITE_BYTES 8192u   /* a page of kang-smartssd */
#define FILE_BYTES (64u << 20)
#define RECORDS_BYTES (4u << 20)
#define ENTRY 32u
#define ISP_INSTANCES 16u   /* the drive's tasklet instances (SS_ISP_MAX_INSTANCES) */

static const uint32_t depths[] = { 1, 2, 4, 8, 16, 32 };

static double wall_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static struct ss_dev_model model(struct ss_dev *d)
{
	struct ss_dev_model m;

	if (ss_dev_model_counters(d, &m) != 0) {
		DIE("model counters");
	}
	return m;
}

static uint8_t pattern_at(uint64_t i)
{
	return (uint8_t)((i * 2654435761u) >> 13) ^ (uint8_t)(i / READ_BYTES);
}

struct result {
	double wall_s;
	uint64_t modelled_ns;
	uint64_t link_busy_ns, channel_busy_ns, page_reads, page_programs;
};

/* The model's figures of what ran since m0, the host clock giving the modelled time. */
static void model_since(struct ss_dev *d, const struct ss_dev_model *m0, struct result *r)
{
	struct ss_dev_model m1 = model(d);

	r->modelled_ns = m1.host_now_ns - m0->host_now_ns;
	r->link_busy_ns = m1.link_busy_ns - m0->link_busy_ns;
	r->channel_busy_ns = m1.channel_busy_ns - m0->channel_busy_ns;
	r->page_reads = m1.page_reads - m0->page_reads;
	r->page_programs = m1.page_programs - m0->page_programs;
}

/* n random reads, `depth` outstanding. */
static struct result reads(struct ss_dev *d, uint64_t oid, const uint64_t *off, uint32_t n,
			   uint32_t depth)
{
	static uint8_t bufs[SS_DEV_QUEUE_DEPTH_MAX][READ_BYTES];
	uint64_t at[SS_DEV_QUEUE_DEPTH_MAX];
	struct ss_dev_queue *q;
	struct ss_dev_model m0 = model(d);
	uint32_t sent = 0, done = 0;
	struct result r;
	double t0 = wall_s();

	if (ss_dev_queue_open(d, depth, &q) != 0) {
		DIE("queue of depth %u", depth);
	}
	while (done < n) {
		while (sent < n && ss_dev_queue_pending(q) < depth) {
			at[sent % depth] = off[sent];
			if (ss_dev_queue_read(q, oid, off[sent], bufs[sent % depth], READ_BYTES) != 0) {
				DIE("queued read");
			}
			sent++;
		}
		void *got;

		if (ss_dev_queue_reap(q, &got) != READ_BYTES) {
			DIE("reap");
		}
		for (uint32_t i = 0; i < READ_BYTES; i++) {
			if (((uint8_t *)got)[i] != pattern_at(at[done % depth] + i)) {
				fprintf(stderr, "FAIL: read at %llu differs at byte %u\n",
					(unsigned long long)at[done % depth], i);
				exit(1);
			}
		}
		done++;
	}
	ss_dev_queue_close(q);
	r.wall_s = wall_s() - t0;
	model_since(d, &m0, &r);
	return r;
}

/* n page writes appended to a new object, `depth` outstanding; read back and checked. */
static struct result writes(struct ss_dev *d, uint32_t n, uint32_t depth, uint32_t flags)
{
	static unsigned objects;
	uint8_t *data = malloc((size_t)n * WRITE_BYTES), *back = malloc((size_t)n * WRITE_BYTES);
	struct ss_dev_queue *q;
	struct ss_dev_model m0;
	uint32_t sent = 0, done = 0;
	struct result r;
	char path[64];
	uint64_t oid;
	double t0;

	snprintf(path, sizeof(path), "/bench/w%u", objects++);
	if (!data || !back || ss_dev_create(d, path, SS_DEV_FILE, 0, &oid) ||
	    ss_dev_queue_open(d, depth, &q)) {
		DIE("write object %s at depth %u", path, depth);
	}
	for (size_t i = 0; i < (size_t)n * WRITE_BYTES; i++) {
		data[i] = pattern_at(i + objects);
	}
	m0 = model(d);
	t0 = wall_s();
	while (done < n) {
		while (sent < n && ss_dev_queue_pending(q) < depth) {
			if (ss_dev_queue_write(q, oid, (uint64_t)sent * WRITE_BYTES,
					       data + (size_t)sent * WRITE_BYTES, WRITE_BYTES, flags)) {
				DIE("queued write");
			}
			sent++;
		}
		if (ss_dev_queue_reap(q, NULL) != WRITE_BYTES) {
			DIE("reap write");
		}
		done++;
	}
	r.wall_s = wall_s() - t0;
	model_since(d, &m0, &r);
	ss_dev_queue_close(q);
	if (ss_dev_read(d, oid, 0, back, (size_t)n * WRITE_BYTES) != (int64_t)n * WRITE_BYTES ||
	    memcmp(back, data, (size_t)n * WRITE_BYTES) != 0) {
		fprintf(stderr, "FAIL: %s does not read back as written\n", path);
		exit(1);
	}
	if (ss_dev_remove(d, path, 0) != 0 || ss_dev_flush(d) != 0) {
		DIE("remove %s", path);
	}
	free(data);
	free(back);
	return r;
}

static void agg_spec(struct ss_dev_tasklet_spec *spec, struct ss_bt_agg_params *params)
{
	memset(spec, 0, sizeof(*spec));
	spec->tasklet_id = SS_BT_GROUP_AGG;
	spec->mem_budget = 16 << 10;
	spec->layout.kind = 1;
	spec->layout.record_size = ENTRY;
	spec->layout.nfields = 2;
	spec->layout.fields[0] = (struct ss_dev_field){ .offset = 19, .type = 1, .shift = 5, .bits = 3 };
	spec->layout.fields[1] = (struct ss_dev_field){ .offset = 12, .type = 3 };
	memset(params, 0, sizeof(*params));
	params->nkeys = 1;
	params->key1 = 0;
	params->value = 1;
	params->ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM;
}

static void check_answer(struct ss_dev *d, uint64_t inst, const uint64_t want[8])
{
	uint8_t out[4096];
	uint64_t got[8] = { 0 };
	int64_t n = ss_dev_tasklet_read(d, inst, 0, out, sizeof(out), NULL);

	if (n < (int64_t)sizeof(struct ss_bt_trailer)) {
		DIE("read output");
	}
	for (int64_t o = 0; o + 48 <= n - (int64_t)sizeof(struct ss_bt_trailer); o += 48) {
		struct ss_bt_agg_item it;

		memcpy(&it, out + o, sizeof(it));
		if (it.key1 < 8) {
			got[it.key1] += it.count;
		}
	}
	if (memcmp(got, want, sizeof(got)) != 0) {
		fprintf(stderr, "FAIL: a run's counts differ from the records written\n");
		exit(1);
	}
}

/* n runs, `depth` in the drive at once. Modelled: from the first run's start to the last
 * run's finish. */
static struct result executes(struct drive_fixture *f, uint64_t oid, uint32_t n,
			      uint32_t depth, const uint64_t want[8])
{
	static unsigned outputs;
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_agg_params params;
	struct ss_dev_input in = { .oid = oid, .offset = 0, .length = RECORDS_BYTES };
	uint64_t inst[ISP_INSTANCES], last_finish = 0, first_start = UINT64_MAX;
	int busy[ISP_INSTANCES] = { 0 };
	uint32_t started = 0, done = 0;
	struct ss_dev_model m0 = model(f->dev);
	struct result r;
	double t0 = wall_s();

	agg_spec(&spec, &params);
	for (uint32_t i = 0; i < depth; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/.out/qd%u", outputs++);
		if (ss_dev_create_output(f->dev, path, SS_DEV_CREATE_PARENTS, &spec.output_oid) ||
		    ss_dev_tasklet_create(f->dev, &spec, &params, sizeof(params), &inst[i])) {
			DIE("tasklet instance %u", i);
		}
	}
	while (done < n) {
		for (uint32_t i = 0; i < depth; i++) {
			if (!busy[i] && started < n) {
				if (ss_dev_tasklet_execute(f->dev, inst[i], &in, 1) != 0) {
					DIE("execute");
				}
				busy[i] = 1;
				started++;
			}
		}
		for (uint32_t i = 0; i < depth; i++) {
			struct ss_dev_progress p;

			if (!busy[i]) {
				continue;
			}
			if (ss_dev_tasklet_poll(f->dev, inst[i], &p) != 0) {
				DIE("poll");
			}
			if (p.state == SS_DEV_TASKLET_DONE) {
				check_answer(f->dev, inst[i], want);
				last_finish = p.finished_ns > last_finish ? p.finished_ns : last_finish;
				first_start = p.started_ns < first_start ? p.started_ns : first_start;
				busy[i] = 0;
				done++;
			}
		}
	}
	r.wall_s = wall_s() - t0;
	model_since(f->dev, &m0, &r);
	for (uint32_t i = 0; i < depth; i++) {
		ss_dev_tasklet_destroy(f->dev, inst[i]);
	}
	r.modelled_ns = last_finish - first_start;
	return r;
}

static void row(const char *workload, uint32_t qd, uint32_t ops, const struct result *a,
		const struct result *base, uint32_t channels)
{
	printf("%s,%u,%u,%.4f,%.1f,%.2f,%llu,%.1f,%.2f,%.1f,%.1f,%llu,%llu\n", workload, qd, ops,
	       a->wall_s, ops / a->wall_s, base->wall_s / a->wall_s,
	       (unsigned long long)a->modelled_ns, ops / (a->modelled_ns / 1e9),
	       (double)base->modelled_ns / a->modelled_ns, 100.0 * a->link_busy_ns / a->modelled_ns,
	       100.0 * a->channel_busy_ns / channels / a->modelled_ns,
	       (unsigned long long)a->page_reads, (unsigned long long)a->page_programs);
}

int main(int argc, char **argv)
{
	uint32_t nreads = argc > 1 ? (uint32_t)atoi(argv[1]) : 4096;
	uint32_t nruns = argc > 2 ? (uint32_t)atoi(argv[2]) : 32;
	uint32_t nwrites = argc > 3 ? (uint32_t)atoi(argv[3]) : 1024;
	struct drive_fixture f;
	struct ss_dev_info info;
	uint64_t *off = calloc(nreads, sizeof(*off)), regions[8], oid, roid, x = 12345;
	uint8_t *chunk = malloc(1u << 20);
	struct result base_r = { 0 }, base_e = { 0 };

	if (!off || !chunk || nreads == 0 || nruns == 0 || nwrites == 0) {
		fprintf(stderr, "usage: queue_depth [reads per depth] [runs per depth] "
			"[writes per depth]\n");
		return 2;
	}
	drive_fixture_open(&f, "kang-smartssd", 0, "?buffer=none");
	if (ss_dev_drive_info(f.dev, &info) != 0) {
		DIE("drive info");
	}
	if (ss_dev_create(f.dev, "/bench/random.bin", SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid)) {
		DIE("create");
	}
	for (uint64_t o = 0; o < FILE_BYTES; o += 1u << 20) {
		for (uint32_t i = 0; i < 1u << 20; i++) {
			chunk[i] = pattern_at(o + i);
		}
		if (ss_dev_write(f.dev, oid, o, chunk, 1u << 20, 0) != 1 << 20) {
			DIE("write");
		}
	}
	roid = drive_fixture_write_records(&f, "/bench/records.bin", RECORDS_BYTES, ENTRY, regions);
	if (ss_dev_flush(f.dev) != 0) {
		DIE("flush");
	}
	for (uint32_t i = 0; i < nreads; i++) {
		/* page-aligned pieces, never the page after the previous read's: the drive's
		 * sequential read-ahead stays out of a random workload */
		do {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			off[i] = (x >> 33) % (FILE_BYTES / READ_BYTES) * READ_BYTES;
		} while (i && off[i] / info.page_size == off[i - 1] / info.page_size + 1);
	}
	reads(f.dev, oid, off, nreads, 1);   /* the object store's metadata into DRAM */

	fprintf(stderr, "drive: %u channels x %u ways, %u B pages\n", info.channels, info.ways,
		info.page_size);
	printf("workload,depth,ops,wall_s,wall_iops,wall_vs_qd1,modelled_ns,modelled_iops,"
	       "modelled_vs_qd1,link_busy_pct,channel_busy_pct,page_reads,page_programs\n");
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		uint32_t qd = depths[k];
		struct result a = reads(f.dev, oid, off, nreads, qd);
		struct result b = reads(f.dev, oid, off, nreads, qd);

		if (a.modelled_ns != b.modelled_ns) {
			fprintf(stderr, "FAIL: reads at depth %u: modelled %llu ns, then %llu ns\n", qd,
				(unsigned long long)a.modelled_ns, (unsigned long long)b.modelled_ns);
			return 1;
		}
		if (qd == 1) {
			base_r = a;
		}
		row("read4k", qd, nreads, &a, &base_r, info.channels);
		if (qd == 1) {
			double link = (double)a.link_busy_ns / nreads;
			double chan = (double)a.channel_busy_ns / a.page_reads;

			fprintf(stderr, "model bounds for 4 KiB reads: link %.0f ns a read = %.0f IOPS; "
				"%u channels at %.0f ns a page = %.0f IOPS\n", link, 1e9 / link,
				info.channels, chan, info.channels * 1e9 / chan *
				nreads / (double)a.page_reads);
		}
	}
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		uint32_t qd = depths[k] > ISP_INSTANCES ? ISP_INSTANCES : depths[k];
		struct result a, b;

		if (depths[k] > ISP_INSTANCES) {
			fprintf(stderr, "executes at depth %u: the drive has %u tasklet instances; "
				"not run\n", depths[k], ISP_INSTANCES);
			continue;
		}
		a = executes(&f, roid, nruns, qd, regions);
		b = executes(&f, roid, nruns, qd, regions);
		if (a.modelled_ns != b.modelled_ns) {
			/* Runs go first come, first served, each no earlier than its execute,
			 * so a set's modelled time follows from the commands alone; the second
			 * set finds the drive in another state (the first set's output programs
			 * and what they leave the garbage collector), as the writes below do. */
			fprintf(stderr, "executes at depth %u: modelled %llu ns, then %llu ns\n", qd,
				(unsigned long long)a.modelled_ns, (unsigned long long)b.modelled_ns);
		}
		if (qd == 1) {
			base_e = a;
		}
		row("execute", qd, nruns, &a, &base_e, info.channels);
	}
	for (int fua = 1; fua >= 0; fua--) {
		struct result base_w = { 0 };

		for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
			uint32_t qd = depths[k];
			struct result a = writes(f.dev, nwrites, qd, fua ? SS_DEV_WRITE_FUA : 0);
			struct result b = writes(f.dev, nwrites, qd, fua ? SS_DEV_WRITE_FUA : 0);

			/* each run writes a new object where the one before was removed: the
			 * flash it lands on, and what garbage collection does, may differ */
			if (a.modelled_ns != b.modelled_ns) {
				fprintf(stderr, "%s writes at depth %u: modelled %llu ns, then %llu ns\n",
					fua ? "FUA" : "buffered", qd, (unsigned long long)a.modelled_ns,
					(unsigned long long)b.modelled_ns);
			}
			if (qd == 1) {
				base_w = a;
			}
			row(fua ? "write8k_fua" : "write8k", qd, nwrites, &a, &base_w, info.channels);
		}
	}
	free(off);
	free(chunk);
	drive_fixture_close(&f);
	return 0;
}
