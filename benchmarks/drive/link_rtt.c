/*
 * The daemon's round trip against the bare unix socket's, from one run, with the CPU each
 * costs. Rows:
 *   - bare ping-pong: two processes on a socketpair exchanging the frames of one progress
 *     poll (a SEND exchange, 32 + 512 B out and 48 B back; a RECV exchange, 32 B out and
 *     48 + 512 B back) through the framing's socket I/O as the client and the daemon do
 *     (ss_frame_send; ss_frame_spin, then ss_frame_read), nothing else; blocking, then
 *     both ends spinning SPIN_US before they block, as the daemon rows;
 *   - daemon poll: ss_dev_tasklet_poll over unix: to smartssd-devd (the same two
 *     exchanges, through libsmartssd, the daemon and the emulated firmware), with the
 *     client and the daemon blocking, then both spinning SPIN_US before they block;
 *   - daemon execute + poll: ss_dev_tasklet_execute of a one-slice run, then one poll: two
 *     round trips of the same frame sizes (an execute's SEND carries one sector, its reply
 *     a header), so its reference is twice the bare ping-pong; the run is polled to its
 *     end outside the timed part before the next execute;
 *   - in-process poll and execute + poll: the same calls with the drive in this process
 *     (emu:), no socket: libsmartssd, the emulated firmware, and for the execute the
 *     drive's controller thread, which runs the run's slice;
 * each with both ends pinned to one CPU, then to two CPUs (in-process: the caller and the
 * controller thread). Each row's ratio is over the bare ping-pong with the same CPUs and
 * the same spin (the execute + poll's over twice it): a spinning row against a blocking
 * one would credit the daemon with the wake-up the spin saves. p50 and p99 of N round
 * trips, and CPU per round trip: both ends' user + system time (getrusage for this process and
 * for the ping-pong peer, /proc/PID/stat ticks for the daemon) over the timed loop.
 *   usage: link_rtt SMARTSSD-DEVD|- [N, default 20000] [SPIN_US, default 50]
 *          (-: no daemon rows)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drive_fixture.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_devd_frame.h"

#define SECTOR 512u
#define WARMUP 2000u

struct row {
	double p50_us, p99_us, cpu_us;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static double rusage_us(const struct rusage *u)
{
	return (u->ru_utime.tv_sec + u->ru_stime.tv_sec) * 1e6 + u->ru_utime.tv_usec +
	       u->ru_stime.tv_usec;
}

static double self_cpu_us(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return rusage_us(&u);
}

/* One frame out through the framing's send (sendmsg of header and data), as both ends
 * of the link send theirs. \return 0 or a negative errno. */
static int frame_out(int fd, uint8_t *buf, size_t hdr, size_t data)
{
	struct iovec iov[2] = { { buf, hdr }, { buf + hdr, data } };

	return ss_frame_send(fd, iov, data ? 2 : 1);
}

/* One frame in as the client's reader and the daemon's connection reader take theirs:
 * poll the socket for spin_us (ss_frame_spin: recv MSG_DONTWAIT, sched_yield), then the
 * header and the data through the reader's buffer, blocking. \return 0, -ECONNRESET when
 * the peer left, or another negative errno. */
static int frame_in(struct ss_frame_reader *in, uint8_t *buf, size_t hdr, size_t data,
		    unsigned spin_us)
{
	int rc;

	ss_frame_spin(in, spin_us);
	rc = ss_frame_read(in, buf, hdr, 0);
	if (rc == 0 && data) {
		rc = ss_frame_read(in, buf + hdr, data, 0);
	}
	return rc;
}

/* A poll's two exchanges: the client's side (client != 0) or the daemon's. */
static int exchanges(int client, int fd, struct ss_frame_reader *in, uint8_t *buf,
		     unsigned spin_us)
{
	int rc;

	if (client) {
		rc = frame_out(fd, buf, SS_FRAME_REQUEST_HDR, SECTOR);
		rc = rc ? rc : frame_in(in, buf, SS_FRAME_REPLY_HDR, 0, spin_us);
		rc = rc ? rc : frame_out(fd, buf, SS_FRAME_REQUEST_HDR, 0);
		return rc ? rc : frame_in(in, buf, SS_FRAME_REPLY_HDR, SECTOR, spin_us);
	}
	rc = frame_in(in, buf, SS_FRAME_REQUEST_HDR, SECTOR, spin_us);
	rc = rc ? rc : frame_out(fd, buf, SS_FRAME_REPLY_HDR, 0);
	rc = rc ? rc : frame_in(in, buf, SS_FRAME_REQUEST_HDR, 0, spin_us);
	return rc ? rc : frame_out(fd, buf, SS_FRAME_REPLY_HDR, SECTOR);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void percentiles(uint64_t *ns, unsigned n, struct row *r)
{
	qsort(ns, n, sizeof(*ns), cmp_u64);
	r->p50_us = ns[n / 2] / 1e3;
	r->p99_us = ns[(size_t)n * 99 / 100] / 1e3;
}

/* One poll's frames, both exchanges, between two processes, through the framing's socket
 * I/O as the client and the daemon use it: each end polls for its peer's frame for spin_us
 * before it blocks (0: it blocks at once). */
static void bare(int cpu_a, int cpu_b, unsigned spin_us, unsigned n, struct row *r)
{
	static uint8_t buf[SS_FRAME_REQUEST_HDR + SS_FRAME_REPLY_HDR + SECTOR];
	static struct ss_frame_reader in;
	uint64_t *ns = malloc(n * sizeof(*ns));
	struct rusage peer;
	int sv[2], status, rc;
	pid_t pid;
	double cpu0 = 0;

	if (ns == NULL || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		perror("socketpair");
		exit(2);
	}
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		drive_fixture_pin(cpu_b);
		ss_frame_reader_init(&in, sv[1]);
		do {
			rc = exchanges(0, sv[1], &in, buf, spin_us);
		} while (rc == 0);
		exit(rc == -ECONNRESET ? 0 : 2);   /* the peer left: done */
	}
	close(sv[1]);
	drive_fixture_pin(cpu_a);
	ss_frame_reader_init(&in, sv[0]);
	for (unsigned i = 0; i < WARMUP + n; i++) {
		uint64_t t = now_ns();

		if (i == WARMUP) {
			cpu0 = self_cpu_us();
		}
		rc = exchanges(1, sv[0], &in, buf, spin_us);
		if (rc != 0) {
			DIE("bare ping-pong: %s", strerror(-rc));
		}
		if (i >= WARMUP) {
			ns[i - WARMUP] = now_ns() - t;
		}
	}
	r->cpu_us = self_cpu_us() - cpu0;
	close(sv[0]);
	if (wait4(pid, &status, 0, &peer) != pid) {
		perror("wait4");
		exit(2);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		DIE("the ping-pong's peer failed (status %d)", status);
	}
	/* the peer's whole life: its warm-up too, a small overstatement */
	r->cpu_us = (r->cpu_us + rusage_us(&peer)) / n;
	percentiles(ns, n, r);
	free(ns);
}

static double proc_cpu_us(pid_t pid)
{
	char path[64], line[1024], *p;
	unsigned long ut, st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
		perror(path);
		exit(2);
	}
	fclose(f);
	p = strrchr(line, ')');
	/* fields after the name: state ppid ... utime (14th) stime (15th) */
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&ut, &st) != 2) {
		fprintf(stderr, "cannot parse %s\n", path);
		exit(2);
	}
	return (ut + st) * 1e6 / sysconf(_SC_CLK_TCK);
}

/* Poll the run to its end, untimed, bounded. */
static void run_to_end(struct ss_dev *dev, uint64_t inst)
{
	struct ss_dev_progress p;
	uint64_t deadline = now_ns() + 30000000000ull;

	do {
		if (ss_dev_tasklet_poll(dev, inst, &p) != 0) {
			DIE("poll");
		}
		if (now_ns() > deadline) {
			DIE("a one-slice grep run still not done after 30 s");
		}
	} while (p.state != SS_DEV_TASKLET_DONE);
}

/* A one-line file and a grep instance over it; each call makes its own objects. */
static void make_run(struct ss_dev *dev, uint64_t *inst, struct ss_dev_input *in)
{
	static const char text[] = "GET /index.html 200\n";
	static unsigned runs;
	struct ss_dev_tasklet_spec spec;
	struct ss_bt_grep_params gp;
	char path[32];
	uint64_t oid;

	snprintf(path, sizeof(path), "/lines%u.txt", runs);
	if (ss_dev_create(dev, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid) != 0) {
		DIE("create");
	}
	if (ss_dev_write(dev, oid, 0, text, sizeof(text) - 1, 0) != (int64_t)sizeof(text) - 1) {
		DIE("write");
	}
	memset(&spec, 0, sizeof(spec));
	memset(&gp, 0, sizeof(gp));
	spec.tasklet_id = SS_BT_GREP;
	spec.mem_budget = 64 << 10;
	spec.layout.kind = 2;
	spec.layout.line_delim = '\n';
	spec.layout.field_sep = ' ';
	spec.layout.record_size = 4096;
	snprintf(path, sizeof(path), "/count%u.out", runs++);
	if (ss_dev_create_output(dev, path, SS_DEV_CREATE_PARENTS, &spec.output_oid) != 0) {
		DIE("create output");
	}
	if (ss_dev_tasklet_create(dev, &spec, &gp, sizeof(gp), inst) != 0) {
		DIE("tasklet create");
	}
	*in = (struct ss_dev_input){ .oid = oid, .offset = 0, .length = sizeof(text) - 1 };
}

/* pair 0: a poll per round; 1: an execute and a poll (the run then polled to its end).
 * CPU: this process's (all its threads: in-process, the drive's controller too) and the
 * daemon's, `peer`, when there is one. */
static void rounds(struct ss_dev *dev, int pair, unsigned n, pid_t peer, struct row *r)
{
	uint64_t *ns = malloc(n * sizeof(*ns));
	struct ss_dev_progress p;
	struct ss_dev_input in;
	double cpu0 = 0, dcpu0 = 0;
	uint64_t inst;

	if (ns == NULL) {
		DIE("out of memory");
	}
	make_run(dev, &inst, &in);
	if (!pair && ss_dev_tasklet_execute(dev, inst, &in, 1) != 0) {
		DIE("execute");
	}
	for (unsigned i = 0; i < WARMUP + n; i++) {
		uint64_t t;

		if (i == WARMUP) {
			cpu0 = self_cpu_us();
			dcpu0 = peer ? proc_cpu_us(peer) : 0;
		}
		t = now_ns();
		if (pair && ss_dev_tasklet_execute(dev, inst, &in, 1) != 0) {
			DIE("execute");
		}
		if (ss_dev_tasklet_poll(dev, inst, &p) != 0) {
			DIE("poll");
		}
		if (i >= WARMUP) {
			ns[i - WARMUP] = now_ns() - t;
		}
		if (pair && p.state != SS_DEV_TASKLET_DONE) {
			run_to_end(dev, inst);
		}
	}
	r->cpu_us = (self_cpu_us() - cpu0 + (peer ? proc_cpu_us(peer) - dcpu0 : 0)) / n;
	ss_dev_tasklet_destroy(dev, inst);
	percentiles(ns, n, r);
	free(ns);
}

static void daemon_poll(const char *devd, const char *image, const char *sock, int cpu_a,
			int cpu_b, unsigned spin_us, int pair, unsigned n, struct row *r)
{
	char spin[16], uri[320];
	struct ss_dev *dev;
	int status;
	pid_t pid;

	snprintf(spin, sizeof(spin), "%u", spin_us);
	pid = drive_fixture_devd_start(devd, image, sock, cpu_b, spin);
	setenv("SMARTSSD_SPIN_US", spin, 1);
	drive_fixture_pin(cpu_a);
	snprintf(uri, sizeof(uri), "unix:%s", sock);
	if (ss_dev_open(uri, NULL, &dev) != 0) {
		DIE("open %s", uri);
	}
	rounds(dev, pair, n, pid, r);
	ss_dev_close(dev);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
}

/* The drive in this process (emu:): the caller on cpu_a, the drive's controller thread,
 * which runs the tasklet's slices, on cpu_b (it keeps the affinity it was created with);
 * both poll for each other for spin_us before they sleep. */
static void in_process(const char *image, int cpu_a, int cpu_b, unsigned spin_us, int pair,
		       unsigned n, struct row *r)
{
	struct ss_dev *dev;
	char uri[320], spin[16];

	snprintf(spin, sizeof(spin), "%u", spin_us);
	setenv("SMARTSSD_SPIN_US", spin, 1);
	snprintf(uri, sizeof(uri), "emu:%s", image);
	drive_fixture_pin(cpu_b);
	if (ss_dev_open(uri, NULL, &dev) != 0) {
		DIE("open %s", uri);
	}
	drive_fixture_pin(cpu_a);
	rounds(dev, pair, n, 0, r);
	ss_dev_close(dev);
}

/* A measurement with both ends on one CPU, and on two where the machine has them. */
struct rows {
	struct row same, two;
};

static void daemon_rows(const char *devd, const char *image, const char *sock, unsigned spin_us,
			int pair, unsigned n, int cross, struct rows *r)
{
	daemon_poll(devd, image, sock, 0, 0, spin_us, pair, n, &r->same);
	if (cross) {
		daemon_poll(devd, image, sock, 0, 1, spin_us, pair, n, &r->two);
	}
}

static void in_process_rows(const char *image, unsigned spin_us, int pair, unsigned n,
			    int cross, struct rows *r)
{
	in_process(image, 0, 0, spin_us, pair, n, &r->same);
	if (cross) {
		in_process(image, 0, 1, spin_us, pair, n, &r->two);
	}
}

/* ratio: p50 over `times` bare round trips of the same CPUs and the same spin */
static void print_row(const char *what, const char *cpus, const struct row *r,
		      const struct row *ref, double times)
{
	printf("| %-30s | %-5s | %8.1f | %8.1f | %10.1f | %6.2f |\n", what, cpus, r->p50_us,
	       r->p99_us, r->cpu_us, r->p50_us / (times * ref->p50_us));
}

static void print_rows(const char *what, unsigned spin_us, const struct rows *r, int cross,
		       const struct rows *ref, double times)
{
	char name[64];

	snprintf(name, sizeof(name), spin_us ? "%s, spin %u us" : "%s", what, spin_us);
	print_row(name, "same", &r->same, &ref->same, times);
	if (cross) {
		print_row(name, "two", &r->two, &ref->two, times);
	}
}

static void print_header(void)
{
	printf("| %-30s | %-5s | %8s | %8s | %10s | %6s |\n", "what", "CPUs", "p50 us", "p99 us",
	       "CPU us/rt", "ratio");
	printf("|---|---|---:|---:|---:|---:|\n");
}

int main(int argc, char **argv)
{
	unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 20000;
	unsigned spin = argc > 3 ? (unsigned)atoi(argv[3]) : 50;
	int cross = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	int daemon = argc > 1 && strcmp(argv[1], "-") != 0;
	struct rows bare_blk, bare_spin, dpoll, dpoll_spin, dpair, dpair_spin, ipoll_spin, ipair,
		ipair_spin;
	struct drive_fixture f;
	char sock[320];

	if (argc < 2 || n < 100) {
		fprintf(stderr, "usage: link_rtt SMARTSSD-DEVD|- [N >= 100] [SPIN_US]\n"
				"  (-: no daemon rows, the bare socket's and the in-process drive's only)\n");
		return 2;
	}
	drive_fixture_open(&f, "kang-smartssd", 8, NULL);
	ss_dev_close(f.dev);
	snprintf(sock, sizeof(sock), "%s/dev0.sock", f.dir);

	bare(0, 0, 0, n, &bare_blk.same);
	bare(0, 0, spin, n, &bare_spin.same);
	if (cross) {
		bare(0, 1, 0, n, &bare_blk.two);
		bare(0, 1, spin, n, &bare_spin.two);
	}
	if (daemon) {
		daemon_rows(argv[1], f.image, sock, 0, 0, n, cross, &dpoll);
		daemon_rows(argv[1], f.image, sock, spin, 0, n, cross, &dpoll_spin);
		daemon_rows(argv[1], f.image, sock, 0, 1, n, cross, &dpair);
		daemon_rows(argv[1], f.image, sock, spin, 1, n, cross, &dpair_spin);
	}
	in_process_rows(f.image, spin, 0, n, cross, &ipoll_spin);
	in_process_rows(f.image, 0, 1, n, cross, &ipair);
	in_process_rows(f.image, spin, 1, n, cross, &ipair_spin);

	printf("%u round trips each; ratio = p50 / the p50 of the bare ping-pong on the same CPUs "
	       "with the same spin\n\n", n);
	print_header();
	print_rows("bare ping-pong", 0, &bare_blk, cross, &bare_blk, 1);
	print_rows("bare ping-pong", spin, &bare_spin, cross, &bare_spin, 1);
	if (daemon) {
		print_rows("daemon poll, blocking", 0, &dpoll, cross, &bare_blk, 1);
		print_rows("daemon poll", spin, &dpoll_spin, cross, &bare_spin, 1);
	}
	print_rows("in-process poll", spin, &ipoll_spin, cross, &bare_spin, 1);
	printf("\nexecute + poll: two round trips; ratio = p50 / twice that bare p50\n\n");
	print_header();
	if (daemon) {
		print_rows("execute + poll, blocking", 0, &dpair, cross, &bare_blk, 2);
		print_rows("execute + poll", spin, &dpair_spin, cross, &bare_spin, 2);
	}
	print_rows("in-process exec+poll, block", 0, &ipair, cross, &bare_blk, 2);
	print_rows("in-process exec+poll", spin, &ipair_spin, cross, &bare_spin, 2);
	unlink(sock);
	unlink(f.image);   /* its device was closed for the daemon: not drive_fixture_close */
	rmdir(f.dir);
	return 0;
}
