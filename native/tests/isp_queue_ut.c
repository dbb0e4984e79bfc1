/*
 * ss_dev_isp_queue: the drive's in-storage queue through the host library.
 *
 *   emu   in-process. With no controller thread (background=manual) a run executed stays
 *         queued with no page done, so the report is exact: 1 instance, all its pages left,
 *         pages x the profile's fw_page_overhead_ns. Then, with the thread, a run to its
 *         end leaves the queue empty. (A run part way, priced from its counted work, is
 *         cmd_isp_ut's: the firmware stepped slice by slice.)
 *   unix  two processes on one smartssd-devd --background manual (virtual time): this
 *         one executes a run, which stays queued with no page done until the daemon ends
 *         (nothing in the background runs); a second process asks the drive over its own
 *         connection and sees exactly that run: 1 instance, all its pages left, pages x
 *         the profile's price of a page. No timing is involved.
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

static uint64_t page_ns;   /* the profile's fw_page_overhead_ns */

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

/* The report of a drive whose only run executing has done none of its `pages`. */
static void expect_queued(const struct ss_dev_isp_queue *q, uint64_t pages, const char *who)
{
	if (q->instances != 1 || q->pages_remaining != pages || q->backlog_ns != pages * page_ns)
		fprintf(stderr, "isp_queue_ut: %s saw %u instances, %llu pages, %llu ns\n", who,
			q->instances, (unsigned long long)q->pages_remaining,
			(unsigned long long)q->backlog_ns);
	CHECK_EQ(q->instances, 1);
	CHECK_EQ(q->priced, 1);
	CHECK_EQ(q->pages_remaining, pages);
	CHECK_EQ(q->backlog_ns, pages * page_ns);
	CHECK_EQ(q->page_ns, page_ns);
}

/* Poll the run: executing, none of its `pages` done (nothing in the background runs). */
static void expect_untouched(struct ss_dev *d, uint64_t inst, uint64_t pages)
{
	struct ss_dev_progress p;

	memset(&p, 0xEE, sizeof(p));
	CHECK_EQ(ss_dev_tasklet_poll(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_RUNNING);
	CHECK_EQ(p.pages_done, 0);
	CHECK_EQ(p.pages_total, pages);
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
	expect_untouched(d, inst, 40);
	memset(&q, 0xEE, sizeof(q));
	CHECK_EQ(ss_dev_isp_queue(d, &q), 0);
	expect_queued(&q, 40, "this process");
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

struct seen {
	int rc;
	struct ss_dev_isp_queue q;
};

/* The other process: waits for the word, asks the drive over its own connection, reports
 * what it saw. */
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

#define RUN_PAGES 48u

static void test_unix(struct devtest *t)
{
	static const char *const manual[] = { "--background", "manual", NULL };
	struct ss_dev *d = NULL;
	struct seen s;
	int go[2], back[2], status = -1;
	uint64_t in, inst;
	pid_t kid;

	if (devtest_start_daemon_with(t, manual) || ss_dev_open(t->uri, NULL, &d)) {
		fprintf(stderr, "isp_queue_ut: %s\n", ss_dev_last_message());
		ut_failures++;
		return;
	}
	expect_empty(d, "a fresh drive");
	CHECK_EQ(write_file(d, "/q/in", RUN_PAGES, &in), 0);
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

	CHECK_EQ(start_probe(d, "/q/long.out", in, 64, &inst), 0);
	expect_untouched(d, inst, RUN_PAGES);
	CHECK_EQ(write(go[1], "g", 1), 1);
	memset(&s, 0xEE, sizeof(s));
	CHECK_EQ(read_all(back[0], &s, sizeof(s), "the observer's report"), 0);
	CHECK_EQ(waitpid(kid, &status, 0), kid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(s.rc, 0);
	printf("isp_queue_ut: the other process saw %u run(s), %llu pages left, backlog %llu ns\n",
	       s.q.instances, (unsigned long long)s.q.pages_remaining,
	       (unsigned long long)s.q.backlog_ns);
	expect_queued(&s.q, RUN_PAGES, "the other process");
	/* the run is where it was: its report is this process's too */
	expect_untouched(d, inst, RUN_PAGES);
	memset(&s.q, 0xEE, sizeof(s.q));
	CHECK_EQ(ss_dev_isp_queue(d, &s.q), 0);
	expect_queued(&s.q, RUN_PAGES, "this process");
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
	if (devtest_format(&t, 0))
		return 1;
	if (!strcmp(argv[1], "emu"))
		test_emu(&t);
	else
		test_unix(&t);
	devtest_cleanup(&t);
	return ut_report("isp_queue_ut");
}
