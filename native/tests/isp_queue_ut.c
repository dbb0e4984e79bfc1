/*
 * ss_dev_isp_queue: the drive's in-storage queue through the host library.
 *
 *   emu   in-process. With no controller thread (background=manual) a run executed stays
 *         queued with no page done, so the report is exact: 1 instance, all its pages left,
 *         pages x the profile's fw_page_overhead_ns. Then, with the thread, a run to its
 *         end leaves the queue empty. (A run part way, priced from its counted work, is
 *         cmd_isp_ut's: the firmware stepped slice by slice.)
 *   unix  two processes on one smartssd-devd: this one starts a long run, a child process
 *         asks the drive and sees it. The daemon runs in realtime mode, where background
 *         work cannot run ahead of the wall clock, so the run (about 15 s of modelled ISP
 *         time, 24 slices) is still going when the child asks; that it was is checked, not assumed:
 *         the run's own polls before and after the child's query bracket what the child
 *         must have seen. The child asks once the run has done its first slice, so the
 *         backlog it sees is priced from the run's counted work (50000 loads a page).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devtest.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ss_emu_profile.h"
#include "ut.h"

#define PAGE 8192u
/* The long run: 3072 pages of 50000 dram-probe loads, 4.8 ms of modelled ISP time a page,
 * 0.6 s a slice of 128 pages (realtime mode paces slices to the wall clock), 24 slices. A
 * command waits for the slice under way, whose loads cost real CPU too; small slices keep
 * that wait short beside the run. */
#define HEAVY_PAGES 3072u
#define HEAVY_ACCESSES 50000u

static uint64_t page_ns;   /* the profile's fw_page_overhead_ns */
static uint64_t dram_ns;   /* the profile's dram_access_ns */
static uint64_t insn_ps;   /* the profile's isp_ps_per_instruction */

static int write_file(struct ss_dev *d, const char *path, uint32_t pages, uint64_t *oid)
{
	static uint8_t buf[1u << 20];
	uint64_t off = 0, bytes = (uint64_t)pages * PAGE;
	int rc;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 31 + (i >> 9));
	rc = ss_dev_create(d, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, oid);
	while (rc == 0 && off < bytes) {
		size_t n = bytes - off < sizeof(buf) ? (size_t)(bytes - off) : sizeof(buf);

		rc = ss_dev_write(d, *oid, off, buf, n, 0) == (int64_t)n ? 0 : -EIO;
		off += n;
	}
	return rc;
}

/* A dram-probe run of `accesses` loads a page over the whole of `in`: \return 0 and its
 * instance, or negative errno. */
static int start_probe(struct ss_dev *d, const char *out, uint64_t in, uint32_t accesses,
		       uint64_t *inst)
{
	struct ss_bt_probe_params pp = { .accesses = accesses, .compare = 7 };
	struct ss_dev_tasklet_spec spec;
	struct ss_dev_input range = { .oid = in, .offset = 0, .length = UINT64_MAX };
	int rc;

	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_BT_DRAM_PROBE;
	spec.mem_budget = 4096;
	rc = ss_dev_create_output(d, out, SS_DEV_CREATE_PARENTS, &spec.output_oid);
	if (rc == 0)
		rc = ss_dev_tasklet_create(d, &spec, &pp, sizeof(pp), inst);
	if (rc == 0)
		rc = ss_dev_tasklet_execute(d, *inst, &range, 1);
	if (rc)
		fprintf(stderr, "isp_queue_ut: start a run: %s\n", ss_dev_last_message());
	return rc;
}

static void expect_empty(struct ss_dev *d, const char *when)
{
	struct ss_dev_isp_queue q;

	memset(&q, 0xEE, sizeof(q));
	CHECK_EQ(ss_dev_isp_queue(d, &q), 0);
	if (q.instances || q.pages_remaining || q.backlog_ns)
		fprintf(stderr, "isp_queue_ut: %s: %u instances, %llu pages, %llu ns\n", when,
			q.instances, (unsigned long long)q.pages_remaining,
			(unsigned long long)q.backlog_ns);
	CHECK_EQ(q.instances, 0);
	CHECK_EQ(q.pages_remaining, 0);
	CHECK_EQ(q.backlog_ns, 0);
	CHECK_EQ(q.priced, 1);
	CHECK_EQ(q.page_ns, page_ns);
}

static void test_emu(struct devtest *t)
{
	char uri[sizeof(t->uri) + 32];
	struct ss_dev_isp_queue q;
	struct ss_dev_progress p;
	struct ss_dev *d = NULL;
	uint64_t in, inst;

	/* no controller thread: the run stays queued */
	snprintf(uri, sizeof(uri), "%s?background=manual", t->uri);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (!d)
		return;
	expect_empty(d, "a fresh drive");
	CHECK_EQ(write_file(d, "/q/in", 40, &in), 0);
	CHECK_EQ(start_probe(d, "/q/a.out", in, 64, &inst), 0);
	CHECK_EQ(ss_dev_tasklet_poll(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_RUNNING);
	CHECK_EQ(p.pages_done, 0);
	CHECK_EQ(p.pages_total, 40);
	memset(&q, 0xEE, sizeof(q));
	CHECK_EQ(ss_dev_isp_queue(d, &q), 0);
	CHECK_EQ(q.instances, 1);
	CHECK_EQ(q.priced, 1);
	CHECK_EQ(q.pages_remaining, 40);
	CHECK_EQ(q.backlog_ns, 40 * page_ns);
	CHECK_EQ(q.page_ns, page_ns);
	CHECK_EQ(ss_dev_tasklet_destroy(d, inst), 0);
	expect_empty(d, "after DESTROY_OBJECT");
	CHECK_EQ(ss_dev_close(d), 0);

	/* with the thread: a run to its end, then nothing queued */
	CHECK_EQ(ss_dev_open(t->uri, NULL, &d), 0);
	if (!d)
		return;
	CHECK_EQ(start_probe(d, "/q/b.out", in, 64, &inst), 0);
	CHECK_EQ(devtest_wait_tasklet(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_DONE);
	CHECK_EQ(p.pages_done, 40);
	expect_empty(d, "after the run");
	CHECK_EQ(ss_dev_close(d), 0);
}

static int read_all(int fd, void *buf, size_t n, const char *what)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r <= 0) {
			fprintf(stderr, "isp_queue_ut: %s: the other process ended first\n", what);
			return -EIO;
		}
		got += (size_t)r;
	}
	return 0;
}

/* Poll (the drive's progress, bounded) until the run has done a page. \return 0, or -1
 * after saying why. */
static int wait_started(struct ss_dev *d, uint64_t inst, struct ss_dev_progress *p)
{
	long long deadline = ss_devd_spawn_now_ms() + 120000;

	for (;;) {
		memset(p, 0, sizeof(*p));
		if (ss_dev_tasklet_poll(d, inst, p)) {
			fprintf(stderr, "isp_queue_ut: poll: %s\n", ss_dev_last_message());
			return -1;
		}
		if (p->pages_done > 0 || p->state != SS_DEV_TASKLET_RUNNING)
			return 0;
		if (ss_devd_spawn_now_ms() > deadline) {
			fprintf(stderr, "isp_queue_ut: the run did no page in 120 s\n");
			return -1;
		}
		usleep(1000);
	}
}

struct seen {
	int rc;
	struct ss_dev_isp_queue q;
};

/* The other process: waits for the word, asks the drive, reports. */
static void observer(const char *uri, int go_fd, int out_fd)
{
	struct ss_dev *d = NULL;
	struct seen s;
	char b;

	memset(&s, 0, sizeof(s));
	s.rc = ss_dev_open(uri, NULL, &d);
	if (s.rc == 0 && read(go_fd, &b, 1) == 1)
		s.rc = ss_dev_isp_queue(d, &s.q);
	else if (s.rc == 0)
		s.rc = -EPIPE;
	if (s.rc)
		fprintf(stderr, "isp_queue_ut: observer: %s\n", ss_dev_last_message());
	if (write(out_fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
		_exit(3);
	if (d)
		ss_dev_close(d);
	_exit(0);
}

static void test_unix(struct devtest *t)
{
	static const char *const realtime[] = { "--time-mode", "realtime", NULL };
	struct ss_dev_progress before, after;
	struct ss_dev *d = NULL;
	struct seen s;
	int go[2], back[2];
	uint64_t in, inst;
	pid_t kid;

	if (devtest_start_daemon_with(t, realtime) || ss_dev_open(t->uri, NULL, &d)) {
		fprintf(stderr, "isp_queue_ut: %s\n", ss_dev_last_message());
		ut_failures++;
		return;
	}
	expect_empty(d, "a fresh drive");
	CHECK_EQ(write_file(d, "/q/in", HEAVY_PAGES, &in), 0);
	CHECK_EQ(pipe(go), 0);
	CHECK_EQ(pipe(back), 0);
	kid = fork();
	if (kid == 0) {
		close(go[1]);
		close(back[0]);
		observer(t->uri, go[0], back[1]);
	}
	close(go[0]);
	close(back[1]);

	CHECK_EQ(start_probe(d, "/q/long.out", in, HEAVY_ACCESSES, &inst), 0);
	/* part way: its first slice done, so its counted work prices its pages left */
	if (wait_started(d, inst, &before))
		ut_failures++;
	CHECK_EQ(before.state, SS_DEV_TASKLET_RUNNING);
	CHECK_EQ(write(go[1], "g", 1), 1);
	CHECK_EQ(read_all(back[0], &s, sizeof(s), "the observer's report"), 0);
	CHECK_EQ(ss_dev_tasklet_poll(d, inst, &after), 0);
	CHECK_EQ(waitpid(kid, NULL, 0), kid);
	CHECK_EQ(s.rc, 0);
	printf("isp_queue_ut: the other process saw %u run(s), %llu pages left, backlog %llu ns "
	       "(this run: %llu..%llu of %llu pages done around its query)\n", s.q.instances,
	       (unsigned long long)s.q.pages_remaining, (unsigned long long)s.q.backlog_ns,
	       (unsigned long long)before.pages_done, (unsigned long long)after.pages_done,
	       (unsigned long long)after.pages_total);
	if (after.state != SS_DEV_TASKLET_RUNNING) {
		fprintf(stderr, "isp_queue_ut: the run (about 15 s of modelled time, paced to the "
			"wall clock) ended before the other process asked: no conclusion\n");
		ut_failures++;
	} else {
		/* running before and after the query: the other process must have seen it */
		CHECK_EQ(s.q.instances, 1);
		CHECK_EQ(s.q.priced, 1);
		CHECK(s.q.pages_remaining <= before.pages_total - before.pages_done);
		CHECK(s.q.pages_remaining >= after.pages_total - after.pages_done);
		CHECK(s.q.pages_remaining > 0);
		/* priced from the run's counted work: at least its 50000 loads a page */
		CHECK(s.q.backlog_ns >= s.q.pages_remaining * (page_ns + HEAVY_ACCESSES * dram_ns));
		if (before.pages_done == after.pages_done && before.pages_done > 0) {
			/* no slice between the polls: the other process saw exactly this run's
			 * counted work, so its figure is the one computed here from the profile */
			uint64_t done = before.pages_done;
			uint64_t cost = done * page_ns + (before.instructions * insn_ps + 999) / 1000 +
					before.dram_accesses * dram_ns;

			CHECK_EQ(s.q.pages_remaining, before.pages_total - done);
			CHECK_EQ(s.q.backlog_ns, (before.pages_total - done) * (cost / done));
		}
	}
	CHECK_EQ(ss_dev_tasklet_destroy(d, inst), 0);
	expect_empty(d, "after DESTROY_OBJECT");
	close(go[1]);
	close(back[0]);
	CHECK_EQ(ss_dev_close(d), 0);
}

int main(int argc, char **argv)
{
	struct ss_emu_profile prof;
	struct devtest t;
	char err[256];

	if (argc != 2 || (strcmp(argv[1], "emu") && strcmp(argv[1], "unix"))) {
		fprintf(stderr, "usage: %s emu|unix\n", argv[0]);
		return 2;
	}
	if (ss_emu_profile_load(NULL, &prof, err, sizeof(err))) {
		fprintf(stderr, "isp_queue_ut: %s\n", err);
		return 1;
	}
	page_ns = prof.fw_page_overhead_ns;
	dram_ns = prof.dram_access_ns;
	insn_ps = prof.isp_ps_per_instruction;
	if (devtest_format(&t, 0))
		return 1;
	if (!strcmp(argv[1], "emu"))
		test_emu(&t);
	else
		test_unix(&t);
	devtest_cleanup(&t);
	return ut_report("isp_queue_ut");
}
