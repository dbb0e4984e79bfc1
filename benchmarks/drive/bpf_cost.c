/*
 * The cost of interpreting: the built-in filter (COUNT of size > 4096) and group-aggregate
 * (COUNT, SUM, MIN, MAX of size by region) against the same queries as eBPF programs
 * (firmware-tasklets/bpf/tests/progs/isp_count.c, isp_group.c) on the emulated drive, over
 * WorldCup98-style records (drive_fixture_write_records) padded to each entry size.
 * Per run: modelled device time per page (the drive's counters) against the host's per-page
 * link time, as dram_sweep does for Kang Fig. 6.6, and the wall clock of the run. The two
 * engines' answers must agree (exit 2 otherwise).
 * Prints CSV: entry_size,query,engine,records,device_ns_per_page,host_ns_per_page,faster,
 *             wall_ms,interp_insns_per_record
 *   usage: bpf_cost PROGS_DIR [object MiB, default 32] [repeats, default 3]
 *
 * With --interp PROG.o RECORDS it only runs the interpreter in this process over RECORDS
 * 16-byte records (no drive), for valgrind --tool=callgrind to count the host instructions
 * one interpreted instruction costs (benchmarks/README.md, "eBPF tasklets").
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_bpf.h"

#define THRESHOLD 4096

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	static uint8_t buf[1 << 16];

	if (!fp) {
		fprintf(stderr, "bpf_cost: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	*len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return buf;
}

/* In-process: the interpreter alone, for callgrind. */
static int interp_only(const char *obj, long n)
{
	static struct ss_bpf_prog prog;
	static struct ss_bpf_verifier ws;
	static uint8_t stack[SS_BPF_STACK_MAX], out[64], emit[1 << 16], rec[16];
	static struct ss_bpf_group slots[64];
	static struct ss_bpf_top heap[8];
	struct ss_bpf_helpers helpers;
	struct ss_bpf_config cfg = { .rec_min = 16, .rec_max = 16, .out_size = 64,
				     .stack_size = SS_BPF_STACK_MAX, .helpers = &helpers };
	struct ss_bpf_groups groups;
	struct ss_bpf_topn topn;
	struct ss_bpf_env env;
	struct ss_bpf_error err;
	size_t len;
	const uint8_t *elf = slurp(obj, &len);
	uint64_t ret;

	ss_bpf_helpers_builtin(&helpers);
	if (ss_bpf_load_elf(&prog, &cfg, elf, len, NULL, &ws, &err)) {
		fprintf(stderr, "bpf_cost: %s refused at %u: %s\n", obj, err.insn,
			ss_bpf_reason_str(err.reason));
		return 2;
	}
	memset(&env, 0, sizeof(env));
	env.stack = stack;
	env.out = out;
	env.emit = emit;
	env.emit_cap = sizeof(emit);
	ss_bpf_groups_init(&groups, slots, 64);
	ss_bpf_topn_init(&topn, heap, 8);
	env.groups = &groups;
	env.topn = &topn;
	env.ctx.arg[0] = 1000;
	for (long i = 0; i < n; i++) {
		uint64_t v = (uint64_t)(i * 2654435761u % 4001u);

		rec[0] = (uint8_t)(i % 13);
		memcpy(rec + 8, &v, 8);
		if (env.emit_len > sizeof(emit) - 256) {
			env.emit_len = 0;
		}
		if (ss_bpf_run(&prog, &env, rec, 16, (uint64_t)i, &ret)) {
			fprintf(stderr, "bpf_cost: run %ld failed\n", i);
			return 2;
		}
	}
	printf("records,interpreted_insns,helper_calls\n%ld,%llu,%llu\n", n,
	       (unsigned long long)env.stats.insns, (unsigned long long)env.stats.helper_calls);
	return 0;
}

/* WorldCup98 records: field 0 the region (the server byte's top 3 bits), field 1 the size. */
static struct ss_dev_layout wc98(uint32_t entry)
{
	struct ss_dev_layout l;

	memset(&l, 0, sizeof(l));
	l.kind = 1;
	l.record_size = entry;
	l.nfields = 2;
	l.fields[0].offset = 19;
	l.fields[0].type = 1;   /* U8 */
	l.fields[0].shift = 5;
	l.fields[0].bits = 3;
	l.fields[1].offset = 12;
	l.fields[1].type = 3;   /* U32 */
	return l;
}

struct result {
	struct ss_dev_progress p;
	double wall_ms;
	uint8_t *out;
	size_t out_len;
};

static void run(struct drive_fixture *f, uint64_t oid, uint32_t entry, uint32_t id,
		const void *params, uint32_t plen, uint32_t budget, struct result *r)
{
	struct ss_dev_tasklet_spec spec;
	uint64_t inst;
	double t0;

	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = id;
	spec.mem_budget = budget;
	spec.layout = wc98(entry);
	if (ss_dev_create_output(f->dev, "/bench/bpf.out", 0, &spec.output_oid) != 0) {
		DIE("create output");
	}
	t0 = now_ms();
	drive_fixture_run(f, &spec, params, plen, oid, &r->p, &inst);
	r->wall_ms = now_ms() - t0;
	r->out_len = r->p.output_bytes;
	r->out = malloc(r->out_len + 1);
	for (size_t off = 0; off < r->out_len;) {
		int64_t n = ss_dev_tasklet_read(f->dev, inst, off, r->out + off, r->out_len - off,
						NULL);
		if (n <= 0) {
			DIE("read output");
		}
		off += (size_t)n;
	}
	ss_dev_tasklet_destroy(f->dev, inst);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--) {
		v = v << 8 | p[i];
	}
	return v;
}

/* The groups of either engine's output as sums per region; false when malformed. */
static int groups_of(const struct result *r, int bpf, uint64_t count[8], uint64_t sum[8])
{
	size_t item = bpf ? 40 : 48, tail = bpf ? 64 : 32;

	memset(count, 0, 8 * sizeof(uint64_t));
	memset(sum, 0, 8 * sizeof(uint64_t));
	if (r->out_len < tail || (r->out_len - tail) % item) {
		return 0;
	}
	for (size_t off = 0; off < r->out_len - tail; off += item) {
		uint64_t k = le64(r->out + off);

		if (k >= 8) {
			return 0;
		}
		count[k] += le64(r->out + off + (bpf ? 16 : 16));
		sum[k] += le64(r->out + off + (bpf ? 8 : 24));
	}
	return 1;
}

static void row(uint32_t entry, const char *query, const char *engine, const struct result *r,
		double host_ns, uint64_t pages, uint64_t interp)
{
	double dev_ns = (double)(r->p.finished_ns - r->p.started_ns) / (double)pages;

	printf("%u,%s,%s,%llu,%.0f,%.0f,%s,%.1f,%.1f\n", entry, query, engine,
	       (unsigned long long)r->p.records, dev_ns, host_ns,
	       dev_ns < host_ns ? "device" : "host", r->wall_ms,
	       interp ? (double)interp / (double)r->p.records : 0.0);
}

static void best_of(struct result *best, struct result *r)
{
	if (best->out == NULL || r->wall_ms < best->wall_ms) {
		free(best->out);
		*best = *r;
	} else {
		free(r->out);
	}
}

int main(int argc, char **argv)
{
	static const uint32_t entries[] = { 32, 64, 128, 256, 512, 1024, 2048, 4096 };
	static uint8_t buf[1 << 20];
	struct drive_fixture f;
	struct ss_dev_info info;
	char path[4096];
	long mib, repeats;

	if (argc == 4 && !strcmp(argv[1], "--interp")) {
		return interp_only(argv[2], strtol(argv[3], NULL, 10));
	}
	if (argc < 2) {
		fprintf(stderr, "usage: bpf_cost PROGS_DIR [MiB] [repeats] | --interp PROG.o N\n");
		return 2;
	}
	mib = argc > 2 ? strtol(argv[2], NULL, 10) : 32;
	repeats = argc > 3 ? strtol(argv[3], NULL, 10) : 3;
	if (mib < 1 || mib > 1024 || repeats < 1 || repeats > 20) {
		fprintf(stderr, "bpf_cost: MiB 1..1024, repeats 1..20\n");
		return 2;
	}
	drive_fixture_open(&f, "kang-smartssd", (uint32_t)(2 * mib / 64 + 8), NULL);
	if (ss_dev_drive_info(f.dev, &info) != 0) {
		DIE("drive info");
	}
	const char *progs[] = { "isp_count", "isp_group" };

	for (int i = 0; i < 2; i++) {
		size_t len;
		const uint8_t *elf;

		snprintf(path, sizeof(path), "%s/%s.o", argv[1], progs[i]);
		elf = slurp(path, &len);
		if (ss_dev_program_load(f.dev, progs[i], elf, len, 0, NULL) <= 0) {
			DIE("load %s", path);
		}
	}
	printf("entry_size,query,engine,records,device_ns_per_page,host_ns_per_page,faster,"
	       "wall_ms,interp_insns_per_record\n");
	for (size_t e = 0; e < sizeof(entries) / sizeof(entries[0]); e++) {
		uint64_t regions[8], bytes = (uint64_t)mib << 20, oid;
		struct ss_dev_model before, after;
		struct ss_bt_agg_params ap;
		struct ss_bt_bpf_params bc, bg;
		uint8_t fp[sizeof(struct ss_bt_filter_params) + 10];
		int64_t thr = THRESHOLD;
		struct result nf = { 0 }, bf = { 0 }, ng = { 0 }, bgr = { 0 };

		snprintf(path, sizeof(path), "/bench/wc98-%u.bin", entries[e]);
		oid = drive_fixture_write_records(&f, path, bytes, entries[e], regions);
		bytes -= bytes % entries[e];
		if (ss_dev_model_counters(f.dev, &before) != 0) {
			DIE("model counters");
		}
		for (uint64_t off = 0; off < bytes; off += sizeof(buf)) {
			size_t n = bytes - off < sizeof(buf) ? (size_t)(bytes - off) : sizeof(buf);

			if (ss_dev_read(f.dev, oid, off, buf, n) != (int64_t)n) {
				DIE("read");
			}
		}
		if (ss_dev_model_counters(f.dev, &after) != 0) {
			DIE("model counters");
		}
		uint64_t pages = (bytes + info.page_size - 1) / info.page_size;
		double host_ns = (double)(after.link_busy_ns - before.link_busy_ns) / (double)pages;

		memset(fp, 0, sizeof(fp));
		fp[0] = SS_BT_FILTER_COUNT;
		fp[2] = 10;
		fp[8] = SS_BT_P_GT;
		fp[9] = 1;
		memcpy(fp + 10, &thr, 8);
		memset(&ap, 0, sizeof(ap));
		ap.nkeys = 1;
		ap.key1 = 0;
		ap.value = 1;
		ap.ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;
		memset(&bc, 0, sizeof(bc));
		bc.name_len = 9;
		memcpy(bc.name, "isp_count", 9);
		bc.arg[0] = THRESHOLD;
		bc.out_size = 8;
		memset(&bg, 0, sizeof(bg));
		bg.name_len = 9;
		memcpy(bg.name, "isp_group", 9);
		bg.group_slots = 16;
		for (long k = 0; k < repeats; k++) {
			struct result r;

			run(&f, oid, entries[e], SS_BT_FILTER, fp, sizeof(fp), 4096, &r);
			best_of(&nf, &r);
			run(&f, oid, entries[e], SS_BT_BPF, &bc, sizeof(bc),
			    SS_BT_BPF_BASE_BUDGET + 4096, &r);
			best_of(&bf, &r);
			/* its table in SRAM, as GroupAggregate.SRAM_STATE_BYTES advises */
			run(&f, oid, entries[e], SS_BT_GROUP_AGG, &ap, sizeof(ap), 16384, &r);
			best_of(&ng, &r);
			run(&f, oid, entries[e], SS_BT_BPF, &bg, sizeof(bg),
			    SS_BT_BPF_BASE_BUDGET + 4096, &r);
			best_of(&bgr, &r);
		}
		/* the same answers: matches (filter's trailer aux, the program's out[0]), groups */
		uint64_t nc[8], ns[8], bcnt[8], bsum[8];

		if (nf.out_len != 32 || bf.out_len != 8 + 64 ||
		    le64(nf.out + 24) != le64(bf.out) || !groups_of(&ng, 0, nc, ns) ||
		    !groups_of(&bgr, 1, bcnt, bsum) || memcmp(nc, bcnt, sizeof(nc)) ||
		    memcmp(ns, bsum, sizeof(ns))) {
			fprintf(stderr, "bpf_cost: the built-in and eBPF answers differ at %u B\n",
				entries[e]);
			return 2;
		}
		row(entries[e], "filter", "native", &nf, host_ns, pages, 0);
		row(entries[e], "filter", "ebpf", &bf, host_ns, pages, le64(bf.out + bf.out_len - 8));
		row(entries[e], "group", "native", &ng, host_ns, pages, 0);
		row(entries[e], "group", "ebpf", &bgr, host_ns, pages,
		    le64(bgr.out + bgr.out_len - 8));
		fflush(stdout);
		free(nf.out);
		free(bf.out);
		free(ng.out);
		free(bgr.out);
		if (ss_dev_remove(f.dev, path, 0) != 0) {
			DIE("remove %s", path);
		}
	}
	drive_fixture_close(&f);
	return 0;
}
