/*
 * The drive's energy ledger across processes: two child processes, each with its own
 * connection to one smartssd-devd, run grep tasklets at once; a third joins and dies
 * without leaving. The parent brackets the period with a ticket of no work. Checked:
 * the shares add up exactly to the drive's energy over the period (the parent's own
 * readings of the model counters), and each task's share is within 1 nJ of its exact
 * proportional value, computed here from the task's own progress report and the profile's
 * prices read from the profile file. Then in-process (emu:): tasks with no counted work
 * share equally, the nJ left over going to the earlier joins.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "devtest.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ss_proto.h"
#include "ut.h"

#define WAIT_MS 120000

/* What a child reports to the parent through its pipe. */
struct child_report {
	int rc;                       /* 0, or the first failure (negative errno) */
	char why[160];
	struct ss_dev_progress p;     /* the run's final progress, as the drive reported it */
	struct ss_dev_task_share s;
};

struct prices {
	uint64_t read_nj, page_ns, insn_ps, dram_ns, isp_mw, link_pj;
};

static int read_profile(struct prices *pr)
{
	char line[512];
	FILE *f = fopen(SS_EMU_PROFILE_DIR "/kang-smartssd.profile", "r");
	int found = 0;

	if (!f) {
		perror("profile");
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v, frac;
		char key[64];

		if (sscanf(line, "%63[a-z_] = %llu.%llu", key, &v, &frac) == 3 &&
		    !strcmp(key, "isp_ns_per_instruction")) {
			/* one decimal in the file: ns.d -> ps */
			pr->insn_ps = v * 1000 + frac * 100;
			found++;
		} else if (sscanf(line, "%63[a-z_] = %llu", key, &v) == 2) {
			found += !strcmp(key, "nand_read_nj") ? (pr->read_nj = v, 1)
				 : !strcmp(key, "fw_page_overhead_ns") ? (pr->page_ns = v, 1)
				 : !strcmp(key, "dram_access_ns") ? (pr->dram_ns = v, 1)
				 : !strcmp(key, "isp_active_mw") ? (pr->isp_mw = v, 1)
				 : !strcmp(key, "link_pj_per_byte") ? (pr->link_pj = v, 1) : 0;
		}
	}
	fclose(f);
	return found == 6 ? 0 : -1;
}

/* pJ: pages read, ISP time (ns) x mW, output bytes over the link. */
static unsigned __int128 weight(const struct prices *pr, const struct ss_dev_progress *p)
{
	unsigned __int128 isp_ns = (unsigned __int128)p->pages_done * pr->page_ns +
				   ((unsigned __int128)p->instructions * pr->insn_ps + 999) / 1000 +
				   (unsigned __int128)p->dram_accesses * pr->dram_ns;

	return (unsigned __int128)p->pages_done * pr->read_nj * 1000 + isp_ns * pr->isp_mw +
	       (unsigned __int128)p->output_bytes * pr->link_pj;
}

/* |share - total x w / sum| < 1, in exact integers: |share x sum - total x w| < sum. */
static int within_one_nj(uint64_t share, uint64_t total, unsigned __int128 w,
			 unsigned __int128 sum)
{
	unsigned __int128 a = (unsigned __int128)share * sum, b = (unsigned __int128)total * w;

	return (a > b ? a - b : b - a) < sum;
}

static int put_text(struct ss_dev *d, const char *path, int lines, uint64_t *oid, size_t *len)
{
	size_t cap = (size_t)lines * 32, n = 0;
	char *text = malloc(cap);
	int rc;

	if (!text)
		return -ENOMEM;
	for (int i = 0; i < lines; i++)
		n += (size_t)snprintf(text + n, cap - n, "line %06d %s\n", i,
				      i % 7 == 3 ? "needle" : "hay");
	rc = ss_dev_create(d, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, oid);
	if (rc == 0 && ss_dev_write(d, *oid, 0, text, n, 0) != (int64_t)n)
		rc = -EIO;
	free(text);
	*len = n;
	return rc;
}

/* Read exactly n bytes from fd, waiting at most WAIT_MS in all. */
static int read_all(int fd, void *buf, size_t n, const char *what)
{
	long long deadline = ss_devd_spawn_now_ms() + WAIT_MS;
	size_t got = 0;

	while (got < n) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		long long left = deadline - ss_devd_spawn_now_ms();
		ssize_t r;

		if (left <= 0 || poll(&pf, 1, (int)left) <= 0) {
			fprintf(stderr, "energy_ut: waited %d ms for %s\n", WAIT_MS, what);
			return -ETIMEDOUT;
		}
		r = read(fd, (char *)buf + got, n - got);
		if (r <= 0) {
			fprintf(stderr, "energy_ut: %s: the child closed its pipe\n", what);
			return -EPIPE;
		}
		got += (size_t)r;
	}
	return 0;
}

/* Reap a child, bounded by WAIT_MS. \return 0, or -ETIMEDOUT after saying what it waited for
 * (the child is killed). */
static int child_exit(pid_t pid, const char *what)
{
	char err[256];
	int status;

	if (ss_devd_wait_exit(pid, WAIT_MS, &status, what, err, sizeof(err)) != 0) {
		fprintf(stderr, "energy_ut: %s\n", err);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Poll the ledger until the ticket's period has ended (bounded). */
static int wait_share(struct ss_dev *d, uint64_t ticket, struct ss_dev_task_share *s)
{
	long long deadline = ss_devd_spawn_now_ms() + WAIT_MS;
	int rc;

	while ((rc = ss_dev_energy_share(d, ticket, s)) == -EAGAIN) {
		if (ss_devd_spawn_now_ms() > deadline) {
			fprintf(stderr, "energy_ut: ticket %llu's period still open after %d ms\n",
				(unsigned long long)ticket, WAIT_MS);
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	return rc;
}

#define FAIL(r, rc_, ...)                                                                 \
	do {                                                                              \
		(r)->rc = (rc_) ? (rc_) : -EIO;                                           \
		snprintf((r)->why, sizeof((r)->why), __VA_ARGS__);                        \
		goto out;                                                                 \
	} while (0)

/* A child: its own connection, one grep run over `file`, its share. Tells the parent
 * "joined" (one byte) once its ticket is held, then its report; exits when the parent
 * closes `go`. */
static void child(const char *uri, uint64_t file, int out_fd, int go_fd, int die_after_join)
{
	uint8_t params[4 + 6] = {0, 0, 6, 0, 'n', 'e', 'e', 'd', 'l', 'e'};
	struct child_report r = {0};
	struct ss_dev_tasklet_spec spec = {0};
	struct ss_dev_input in = { .oid = file, .offset = 0, .length = UINT64_MAX };
	struct ss_dev *d = NULL;
	uint64_t out_oid, inst = 0, ticket;
	char out_path[64], one = 'j', b;
	uint8_t buf[4096];
	int rc;

	if ((rc = ss_dev_open(uri, NULL, &d)) != 0)
		FAIL(&r, rc, "open: %s", ss_dev_last_message());
	if (die_after_join) {
		if ((rc = ss_dev_energy_join(d, 0, &ticket)) != 0)
			FAIL(&r, rc, "join: %s", ss_dev_last_message());
		if (write(out_fd, &one, 1) != 1)
			_exit(3);
		_exit(0);   /* no leave, no close: the daemon sees the connection drop */
	}
	snprintf(out_path, sizeof(out_path), "/out/%d", (int)getpid());
	if ((rc = ss_dev_create_output(d, out_path, SS_DEV_CREATE_PARENTS, &out_oid)) != 0)
		FAIL(&r, rc, "create output: %s", ss_dev_last_message());
	spec.tasklet_id = SS_BT_GREP;
	spec.mem_budget = 64 * 1024;
	spec.output_oid = out_oid;
	spec.layout.kind = 2;
	spec.layout.line_delim = '\n';
	spec.layout.field_sep = ' ';
	spec.layout.record_size = 4096;
	if ((rc = ss_dev_tasklet_create(d, &spec, params, sizeof(params), &inst)) != 0)
		FAIL(&r, rc, "tasklet create: %s", ss_dev_last_message());
	if ((rc = ss_dev_energy_join(d, inst, &ticket)) != 0)
		FAIL(&r, rc, "join: %s", ss_dev_last_message());
	if (write(out_fd, &one, 1) != 1)
		_exit(3);
	if ((rc = ss_dev_tasklet_execute(d, inst, &in, 1)) != 0)
		FAIL(&r, rc, "execute: %s", ss_dev_last_message());
	if ((rc = devtest_wait_tasklet(d, inst, &r.p)) != 0 || r.p.state != SS_DEV_TASKLET_DONE)
		FAIL(&r, rc, "run: state %u: %s", (unsigned)r.p.state, ss_dev_last_message());
	if (ss_dev_tasklet_read(d, inst, 0, buf, sizeof(buf), &r.p) < 0)
		FAIL(&r, -EIO, "read output: %s", ss_dev_last_message());
	if ((rc = ss_dev_energy_leave(d, ticket, 0)) != 0)
		FAIL(&r, rc, "leave: %s", ss_dev_last_message());
	if ((rc = wait_share(d, ticket, &r.s)) != 0)
		FAIL(&r, rc, "share: %s", ss_dev_last_message());
out:
	if (write(out_fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(3);
	/* stay connected, and the instance alive, until the parent has read the counters */
	while (read(go_fd, &b, 1) > 0) {
	}
	_exit(r.rc ? 1 : 0);
}

/* emu: three tickets with no work: equal parts, whole nJ, ties to the earlier join. */
static void test_in_process(void)
{
	static char data[256 * 1024];
	struct ss_dev_task_share sh[3];
	struct ss_dev_model before, after;
	struct ss_dev *d = NULL;
	struct devtest t;
	uint64_t tk[3], oid, e;

	if (devtest_format(&t, 0))
		return;
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	memset(data, 'x', sizeof(data));
	CHECK_EQ(ss_dev_model_counters(d, &before), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(ss_dev_energy_join(d, 0, &tk[i]), 0);
	CHECK_EQ(ss_dev_create(d, "/f", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, data, sizeof(data), 0), (int64_t)sizeof(data));
	CHECK_EQ(ss_dev_energy_leave(d, tk[2], 0), 0);
	CHECK_EQ(ss_dev_energy_leave(d, tk[0], 1), 0);   /* abandoned: no work either */
	CHECK_EQ(ss_dev_energy_share(d, tk[0], &sh[0]), -EAGAIN);
	CHECK_EQ(ss_dev_energy_leave(d, tk[1], 0), 0);
	CHECK_EQ(ss_dev_model_counters(d, &after), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(ss_dev_energy_share(d, tk[i], &sh[i]), 0);
	e = after.energy_total_nj - before.energy_total_nj;
	CHECK(e > 0);
	CHECK_EQ(sh[0].period_nj, e);
	CHECK_EQ(sh[0].tasks, 3);
	CHECK_EQ(sh[0].clients, 1);
	CHECK_EQ(sh[0].period_weight_pj, 0);
	CHECK_EQ(sh[0].task_nj + sh[1].task_nj + sh[2].task_nj, e);
	CHECK_EQ(sh[0].task_nj, e / 3 + (e % 3 > 0));
	CHECK_EQ(sh[1].task_nj, e / 3 + (e % 3 > 1));
	CHECK_EQ(sh[2].task_nj, e / 3);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

int main(void)
{
	struct devtest t;
	struct ss_dev *d = NULL;
	struct prices pr;
	struct ss_dev_model before, after;
	struct ss_dev_task_share mine;
	struct child_report rep[2];
	int to_parent[3][2], go[2];
	pid_t kids[3];
	uint64_t files[2], bracket;
	size_t len[2];
	char b;

	if (read_profile(&pr)) {
		fprintf(stderr, "energy_ut: cannot read the profile's six prices\n");
		return 1;
	}
	if (devtest_format(&t, 0))
		return 1;
	if (devtest_start_daemon(&t) || ss_dev_open(t.uri, NULL, &d)) {
		fprintf(stderr, "energy_ut: %s\n", ss_dev_last_message());
		devtest_cleanup(&t);
		return 1;
	}
	CHECK_EQ(put_text(d, "/in/small", 20000, &files[0], &len[0]), 0);
	CHECK_EQ(put_text(d, "/in/large", 90000, &files[1], &len[1]), 0);

	/* the bracket: the period opens here, before any child connects */
	CHECK_EQ(ss_dev_model_counters(d, &before), 0);
	CHECK_EQ(ss_dev_energy_join(d, 0, &bracket), 0);
	CHECK_EQ(pipe(go), 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(pipe(to_parent[i]), 0);
		kids[i] = fork();
		if (kids[i] == 0) {
			close(go[1]);
			close(to_parent[i][0]);
			child(t.uri, i < 2 ? files[i] : 0, to_parent[i][1], go[0], i == 2);
		}
		close(to_parent[i][1]);
	}
	close(go[0]);
	/* every child holds its ticket: only then may the bracket leave */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(read_all(to_parent[i][0], &b, 1, "a child's join"), 0);
	CHECK_EQ(child_exit(kids[2], "the third child's exit"), 0);
	CHECK_EQ(ss_dev_energy_leave(d, bracket, 0), 0);
	CHECK_EQ(ss_dev_energy_leave(d, bracket, 0), -EINVAL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(read_all(to_parent[i][0], &rep[i], sizeof(rep[i]), "a child's share"), 0);
		if (rep[i].rc)
			fprintf(stderr, "energy_ut: child %d: %s\n", i, rep[i].why);
		CHECK_EQ(rep[i].rc, 0);
	}
	CHECK_EQ(wait_share(d, bracket, &mine), 0);
	CHECK_EQ(ss_dev_model_counters(d, &after), 0);
	close(go[1]);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(child_exit(kids[i], "a child's exit"), 0);

	if (ut_failures == 0) {
		uint64_t drive_nj = after.energy_total_nj - before.energy_total_nj;
		const struct ss_dev_task_share *a = &rep[0].s, *c = &rep[1].s;
		unsigned __int128 wa = weight(&pr, &rep[0].p), wb = weight(&pr, &rep[1].p);

		printf("energy_ut: drive %llu nJ over the period; shares %llu + %llu + %llu nJ "
		       "(bracket); weights %llu, %llu pJ\n", (unsigned long long)drive_nj,
		       (unsigned long long)a->task_nj, (unsigned long long)c->task_nj,
		       (unsigned long long)mine.task_nj, (unsigned long long)wa,
		       (unsigned long long)wb);
		/* one period: bracket, two runs, the dead child; four clients */
		CHECK_EQ(a->tasks, 4);
		CHECK_EQ(a->clients, 4);
		CHECK_EQ(mine.tasks, 4);
		CHECK_EQ(a->period_nj, drive_nj);
		CHECK_EQ(c->period_nj, drive_nj);
		CHECK(drive_nj > 0);
		CHECK_EQ(mine.task_nj, 0);   /* no work, no energy; and the dead child's is 0 */
		CHECK_EQ(a->task_nj + c->task_nj, drive_nj);
		/* the drive read each run's work from its instance: the run's own report */
		CHECK_EQ(a->pages, rep[0].p.pages_done);
		CHECK_EQ(c->instructions, rep[1].p.instructions);
		CHECK(a->task_weight_pj == wa && c->task_weight_pj == wb);
		CHECK(rep[1].p.pages_done > 3 * rep[0].p.pages_done);
		CHECK(within_one_nj(a->task_nj, drive_nj, wa, wa + wb));
		CHECK(within_one_nj(c->task_nj, drive_nj, wb, wa + wb));
		/* the components the period's energy is made of */
		CHECK_EQ(a->start_idle_nj, before.energy_idle_nj);
		CHECK_EQ(a->end_isp_nj, after.energy_isp_nj);
		CHECK_EQ((a->end_nand_read_nj - a->start_nand_read_nj) +
			 (a->end_nand_program_nj - a->start_nand_program_nj) +
			 (a->end_nand_erase_nj - a->start_nand_erase_nj) +
			 (a->end_link_nj - a->start_link_nj) + (a->end_isp_nj - a->start_isp_nj) +
			 (a->end_idle_nj - a->start_idle_nj), drive_nj);
	}
	/* a forgotten ticket, another client's, an unknown operation's errors */
	CHECK_EQ(ss_dev_energy_share(d, bracket, &mine), -ENOENT);
	CHECK_EQ(ss_dev_energy_leave(d, 999999, 0), -ENOENT);
	CHECK_EQ(ss_dev_energy_join(d, 424242, &bracket), -ENOENT);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
	test_in_process();
	return ut_report("energy_ut");
}
