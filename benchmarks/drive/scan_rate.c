/*
 * How fast the emulator scans, against the machine it runs on. From one run it prints:
 *   - the emulator's scan rate for a group-aggregate over >= 1 GiB of records, in host
 *     wall-clock with the drive in virtual time (the modelled device time is printed too);
 *   - the memory-read bandwidth of two threads, each reading its own half of a 1 GiB
 *     buffer (the emulator scans with two, its controller and its transfer thread), and of
 *     one core, measured by this same program;
 *   - the scan rate over each: over two threads' is the like-for-like figure, over one
 *     core's the one the goal of 0.25 was first set against;
 * and the scan and the memory read in CPU time (the process's for the scan, the reading
 * threads' for the memory), which a machine shared with other work disturbs far less than
 * wall clock: the scan's rate over one thread's is the CPU-time ratio.
 * Then the same scan once more, in CPU time and wall clock: the image is mapped already, so
 * it takes no page faults (the state of a long-running daemon scanning data again).
 * It prints the writing's wall clock and CPU by thread (the transfer thread maps what is
 * programmed, emu/dma.c) and each scan's CPU by thread, and the first scan's page faults.
 * The group-aggregate's answers are checked against the counts kept while writing.
 *   usage: scan_rate [GiB] (default 1)
 * With SCAN_RATE_PERF_CTL and SCAN_RATE_PERF_ACK naming the fifos of `perf record
 * --control fifo:CTL,ACK -D -1`, perf samples the scan alone, not the writing before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/resource.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double wall_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* Tell perf to start or stop sampling, and wait until it has. */
static void perf_control(const char *cmd)
{
	const char *ctl = getenv("SCAN_RATE_PERF_CTL"), *ack = getenv("SCAN_RATE_PERF_ACK");
	char reply[8];
	int cfd, afd;

	if (ctl == NULL || ack == NULL) {
		return;
	}
	cfd = open(ctl, O_WRONLY);
	afd = open(ack, O_RDONLY);
	if (cfd < 0 || afd < 0 || write(cfd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    read(afd, reply, sizeof(reply)) <= 0) {
		perror("perf control fifo");
		exit(2);
	}
	close(cfd);
	close(afd);
}

/* What the memory reads sum to, kept so the compiler keeps the reads. */
static volatile uint64_t sink;

/* A buffer of `bytes` written once, so its pages are mapped before a read is timed. */
static uint64_t *filled_buffer(size_t bytes)
{
	uint64_t *a = malloc(bytes);

	if (a == NULL) {
		perror("memory-read buffer");
		exit(2);
	}
	for (size_t i = 0; i < bytes / sizeof(uint64_t); i++) {
		a[i] = i * 2654435761u;
	}
	return a;
}

/* One pass over n words as fast as plain C lets it: four independent sums. */
static uint64_t read_words(const uint64_t *a, size_t n)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		s0 += a[i];
		s1 += a[i + 1];
		s2 += a[i + 2];
		s3 += a[i + 3];
	}
	return s0 + s1 + s2 + s3;
}

/* One core reading memory: the best of three passes, in wall clock and (*cpu_rate) in the
 * thread's CPU time. */
static double memory_read_bytes_per_s(size_t bytes, double *cpu_rate)
{
	uint64_t *a = filled_buffer(bytes);
	size_t n = bytes / sizeof(uint64_t);
	double best = 0;

	*cpu_rate = 0;
	for (int pass = 0; pass < 3; pass++) {
		double t = wall_s(), c = clock_s(CLOCK_THREAD_CPUTIME_ID);
		uint64_t sum = read_words(a, n);

		t = wall_s() - t;
		c = clock_s(CLOCK_THREAD_CPUTIME_ID) - c;
		sink = sum;
		if (bytes / c > *cpu_rate) {
			*cpu_rate = bytes / c;
		}
		if (bytes / t > best) {
			best = bytes / t;
		}
	}
	free(a);
	return best;
}

/* Two threads reading memory, each its own half of one buffer, started together: the
 * reference for the emulator, whose controller and transfer threads scan at once. Not
 * pinned, as those are not. */
struct reader2 {
	const uint64_t *a;
	size_t n;
	pthread_barrier_t *go;
	double t0[3], t1[3], cpu[3];
	uint64_t sum;
};

static void *read_half(void *arg)
{
	struct reader2 *r = arg;

	for (int pass = 0; pass < 3; pass++) {
		double c;

		pthread_barrier_wait(r->go);
		r->t0[pass] = wall_s();
		c = clock_s(CLOCK_THREAD_CPUTIME_ID);
		r->sum += read_words(r->a, r->n);
		r->t1[pass] = wall_s();
		r->cpu[pass] = clock_s(CLOCK_THREAD_CPUTIME_ID) - c;
	}
	return NULL;
}

/* The best of three passes over `bytes` by two threads: wall clock from the first start to
 * the last end, and (*cpu_rate) bytes over both threads' CPU time. */
static double memory_read2_bytes_per_s(size_t bytes, double *cpu_rate)
{
	uint64_t *a = filled_buffer(bytes);
	size_t n = bytes / sizeof(uint64_t), half = n / 2 / 4 * 4;
	struct reader2 r[2];
	pthread_barrier_t go;
	pthread_t t[2];
	double best = 0;

	*cpu_rate = 0;
	if (pthread_barrier_init(&go, NULL, 2) != 0) {
		perror("two-thread memory read");
		exit(2);
	}
	for (int k = 0; k < 2; k++) {
		r[k] = (struct reader2){ .a = a + k * half, .n = k ? n - half : half, .go = &go };
		if (pthread_create(&t[k], NULL, read_half, &r[k]) != 0) {
			perror("pthread_create");
			exit(2);
		}
	}
	for (int k = 0; k < 2; k++) {
		pthread_join(t[k], NULL);
	}
	for (int pass = 0; pass < 3; pass++) {
		double t0 = r[0].t0[pass] < r[1].t0[pass] ? r[0].t0[pass] : r[1].t0[pass];
		double t1 = r[0].t1[pass] > r[1].t1[pass] ? r[0].t1[pass] : r[1].t1[pass];
		double cpu = r[0].cpu[pass] + r[1].cpu[pass];

		if (bytes / (t1 - t0) > best) {
			best = bytes / (t1 - t0);
		}
		if (bytes / cpu > *cpu_rate) {
			*cpu_rate = bytes / cpu;
		}
	}
	sink = r[0].sum + r[1].sum;
	pthread_barrier_destroy(&go);
	free(a);
	return best;
}

/* CPU time of this process's threads by name (/proc/self/task), summed per name. */
struct thread_cpu {
	char name[16][32];
	double s[16];
	int n;
};

static void threads_cpu(struct thread_cpu *t)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	double tick = (double)sysconf(_SC_CLK_TCK);

	t->n = 0;
	while (dir && (e = readdir(dir)) != NULL) {
		char path[300], buf[1024], name[32] = "";
		unsigned long utime, stime;
		FILE *f;
		char *p;
		int i;

		if (e->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f) {
			continue;
		}
		if (!fgets(buf, sizeof(buf), f) || !(p = strrchr(buf, ')')) ||
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
			   &stime) != 2) {
			fclose(f);
			continue;
		}
		fclose(f);
		sscanf(strchr(buf, '(') + 1, "%31[^)]", name);
		for (i = 0; i < t->n && strcmp(t->name[i], name); i++) {
		}
		if (i == t->n) {
			if (t->n == 16) {
				continue;
			}
			snprintf(t->name[t->n], sizeof(t->name[0]), "%s", name);
			t->s[t->n++] = 0;
		}
		t->s[i] += (utime + stime) / tick;
	}
	if (dir) {
		closedir(dir);
	}
}

/* Page faults this process has taken so far (minor: the mapping's, of pages in the page cache). */
static long minor_faults(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_minflt;
}

/* What each thread spent between two threads_cpu readings (clock ticks: 10 ms). */
static void print_threads_cpu(const struct thread_cpu *a, const struct thread_cpu *b)
{
	printf("  CPU by thread:");
	for (int i = 0; i < b->n; i++) {
		double before = 0;

		for (int j = 0; j < a->n; j++) {
			if (!strcmp(a->name[j], b->name[i])) {
				before = a->s[j];
			}
		}
		printf(" %s %.2f s%s", b->name[i], b->s[i] - before, i + 1 < b->n ? "," : "\n");
	}
}

/* The group-aggregate's answer against the counts kept while writing. */
static void check_answer(struct drive_fixture *f, uint64_t instance, const uint64_t *regions)
{
	uint64_t got[8] = { 0 };
	uint8_t out[4096];
	int64_t n = ss_dev_tasklet_read(f->dev, instance, 0, out, sizeof(out), NULL);

	if (n < (int64_t)sizeof(struct ss_bt_trailer)) {
		DIE("read output");
	}
	for (int64_t off = 0; off + 48 <= n - (int64_t)sizeof(struct ss_bt_trailer); off += 48) {
		struct ss_bt_agg_item it;

		memcpy(&it, out + off, sizeof(it));
		if (it.key1 < 8) {
			got[it.key1] += it.count;
		}
	}
	for (int r = 0; r < 8; r++) {
		if (got[r] != regions[r]) {
			fprintf(stderr, "FAIL: region %d: device counted %llu, expected %llu\n", r,
				(unsigned long long)got[r], (unsigned long long)regions[r]);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	double gib = argc > 1 ? atof(argv[1]) : 1.0;
	uint64_t bytes = (uint64_t)(gib * (1ull << 30));
	const uint32_t entry = 32;
	struct drive_fixture f;
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_agg_params params;
	struct ss_dev_progress p;
	uint64_t regions[8], instance;
	struct thread_cpu tc0, tc1;
	double t0, t1, c0, c1;
	long faults;

	/* 16 GiB raw (the profile's default) holds 1 GiB of records with room for GC. */
	drive_fixture_open(&f, "kang-smartssd", 0, NULL);
	printf("writing %.2f GiB of %u-byte records...\n", gib, entry);
	threads_cpu(&tc0);
	t0 = wall_s();
	uint64_t oid = drive_fixture_write_records(&f, "/bench/wc98.bin", bytes, entry, regions);
	t1 = wall_s();
	threads_cpu(&tc1);
	/* the transfer thread maps the pages programmed meanwhile (emu/dma.c): its CPU here */
	printf("  written in %.2f s wall;", t1 - t0);
	print_threads_cpu(&tc0, &tc1);

	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_GROUP_AGG;
	spec.mem_budget = 16 << 10;   /* 8 groups: the state stays in on-chip SRAM */
	spec.layout.kind = 1;
	spec.layout.record_size = entry;
	spec.layout.nfields = 2;
	spec.layout.fields[0] = (struct ss_dev_field){ .offset = 19, .type = 1, .shift = 5, .bits = 3 };
	spec.layout.fields[1] = (struct ss_dev_field){ .offset = 12, .type = 3 };
	memset(&params, 0, sizeof(params));
	params.nkeys = 1;
	params.key1 = 0;
	params.value = 1;
	params.ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM;

	threads_cpu(&tc0);
	perf_control("enable\n");
	faults = minor_faults();
	t0 = wall_s();
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	drive_fixture_run(&f, &spec, &params, sizeof(params), oid, &p, &instance);
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t1 = wall_s();
	perf_control("disable\n");
	faults = minor_faults() - faults;
	threads_cpu(&tc1);

	check_answer(&f, instance, regions);

	double scan = bytes / (t1 - t0);
	double modelled_s = (p.finished_ns - p.started_ns) / 1e9;
	printf("group-aggregate over %.2f GiB: %.2f s wall (virtual time) = %.0f MB/s; "
	       "modelled device time %.2f s = %.0f MB/s\n",
	       gib, t1 - t0, scan / 1e6, modelled_s, bytes / modelled_s / 1e6);
	double mem_cpu, mem = memory_read_bytes_per_s((size_t)1 << 30, &mem_cpu);
	double mem2_cpu, mem2 = memory_read2_bytes_per_s((size_t)1 << 30, &mem2_cpu);
	double scan_cpu = bytes / (c1 - c0);

	printf("memory-read bandwidth: one core %.0f MB/s; two threads, each its own half of "
	       "the buffer, %.0f MB/s\n", mem / 1e6, mem2 / 1e6);
	printf("scan rate / two threads' memory bandwidth = %.3f (/ one core's = %.3f)\n",
	       scan / mem2, scan / mem);
	printf("in CPU time: scan %.2f s = %.0f MB/s; memory read %.0f MB/s (one thread), "
	       "%.0f MB/s (two threads, over both threads' CPU); ratio %.3f (/ one thread's)\n",
	       c1 - c0, scan_cpu / 1e6, mem_cpu / 1e6, mem2_cpu / 1e6, scan_cpu / mem_cpu);
	print_threads_cpu(&tc0, &tc1);
	printf("  page faults during the scan: %ld\n", faults);

	/* The same scan again: the image's pages are mapped already, as in a long-running
	 * daemon, so this one takes no page faults. Not sampled by --profile. */
	threads_cpu(&tc0);
	t0 = wall_s();
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	drive_fixture_run(&f, &spec, &params, sizeof(params), oid, &p, &instance);
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t1 = wall_s();
	threads_cpu(&tc1);
	check_answer(&f, instance, regions);
	printf("second scan, image mapped already: %.2f s CPU = %.0f MB/s; ratio %.3f "
	       "(wall: %.0f MB/s, ratio %.3f over two threads, %.3f over one core)\n",
	       c1 - c0, bytes / (c1 - c0) / 1e6, bytes / (c1 - c0) / mem_cpu,
	       bytes / (t1 - t0) / 1e6, bytes / (t1 - t0) / mem2, bytes / (t1 - t0) / mem);
	print_threads_cpu(&tc0, &tc1);
	drive_fixture_close(&f);
	return 0;
}
