/*
 * What clients can make smartssd-devd and the drive behind it hold, against the real
 * daemon (each mode starts its own):
 *
 *   many CLIENTS SECONDS  CLIENTS threads, each with a connection of its own, put and get
 *                         objects for SECONDS: no call fails, and every object reads back
 *                         as last acknowledged. Run with 128 clients (the daemon's default
 *                         --max-connections) for 60 s by hand: `daemon_clients_ut many 128 60`.
 *   kill N                N clients SIGKILLed mid-work on one daemon (large reads in flight,
 *                         tasklet instances created and never destroyed): then another
 *                         client's 4-byte read of an unrelated object is served, and it can
 *                         create a tasklet instance.
 *   sessions              with more connections admitted than the drive has sessions, the
 *                         client past the last session waits (bounded) and is then told
 *                         "too many sessions" (TOO_MANY_SESSIONS); the others keep theirs.
 *   refused               a user the allow-list refuses, reopening 12 connections as fast as
 *                         the daemon closes them, locks nobody out and is told why; the
 *                         daemon logs its refusals at most once per uid per interval; a
 *                         client past --max-connections is told so. Needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "devtest.h"
#include "ss_proto.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ut.h"

#define SLOTS 8                  /* objects each client keeps */
#define OBJ 4096                 /* bytes of one */
#define BIG (1u << 20)           /* a killed client's reads: a reply this large each */
#define KILL_THREADS 6
#define VICTIM_INSTANCES 4       /* per instance thread (2 a client) before it is killed:
				  * two killed clients leave the engine's 16 taken */
#define WAIT_MS 60000            /* a child's readiness, at most */

static long long now_ms(void)
{
	return ss_devd_spawn_now_ms();
}

static void pattern(uint8_t *p, size_t n, int client, int slot, uint32_t version)
{
	uint32_t x = (uint32_t)client * 2654435761u ^ (uint32_t)slot * 40503u ^ version * 97u;

	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16);
	}
}

/* ---- many: concurrent clients ------------------------------------------------------- */

struct client {
	const char *uri;
	int id;
	long long deadline;
	long ops, errors, bad;
	uint64_t oid[SLOTS];
	uint32_t acked[SLOTS];       /* the last version whose write was acknowledged */
	int uncertain[SLOTS];        /* a write failed: its content is unknown */
	char last_msg[SS_DEV_MSG_MAX];
};

static void client_error(struct client *c)
{
	c->errors++;
	ss_dev_last_message_copy(c->last_msg, sizeof(c->last_msg));
}

/* \return 0 when slot reads back as its last acknowledged version. */
static int verify_slot(struct client *c, struct ss_dev *d, int slot)
{
	uint8_t got[OBJ], want[OBJ];
	int64_t n = ss_dev_read(d, c->oid[slot], 0, got, OBJ);

	if (n != OBJ) {
		client_error(c);
		return -1;
	}
	pattern(want, OBJ, c->id, slot, c->acked[slot]);
	if (memcmp(got, want, OBJ) != 0) {
		c->bad++;
		return -1;
	}
	return 0;
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	struct ss_dev *d = NULL;
	uint8_t buf[OBJ];
	char path[64];

	if (ss_dev_open(c->uri, NULL, &d) != 0) {
		client_error(c);
		return NULL;
	}
	for (long i = 0; now_ms() < c->deadline; i++) {
		int slot = (int)(i / 2 % SLOTS);

		if (i % 2 == 0) {   /* put: a new version of the slot's object */
			if (c->oid[slot] == 0) {
				snprintf(path, sizeof(path), "/c%d/o%d", c->id, slot);
				if (ss_dev_create(d, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS,
						  &c->oid[slot]) != 0) {
					client_error(c);
					continue;
				}
			}
			pattern(buf, OBJ, c->id, slot, c->acked[slot] + 1);
			if (ss_dev_write(d, c->oid[slot], 0, buf, OBJ, 0) != OBJ) {
				client_error(c);
				c->uncertain[slot] = 1;
				continue;
			}
			c->acked[slot]++;
			c->uncertain[slot] = 0;
		} else if (c->oid[slot] != 0 && !c->uncertain[slot] &&
			   verify_slot(c, d, slot) != 0) {
			continue;
		}
		c->ops++;
	}
	/* every acknowledged object, once more, after all the traffic */
	for (int slot = 0; slot < SLOTS; slot++) {
		if (c->oid[slot] != 0 && !c->uncertain[slot]) {
			verify_slot(c, d, slot);
		}
	}
	if (ss_dev_close(d) != 0) {
		client_error(c);
	}
	return NULL;
}

static void test_many(int clients, int seconds)
{
	struct client *c = calloc((size_t)clients, sizeof(*c));
	pthread_t *th = calloc((size_t)clients, sizeof(*th));
	long ops = 0, errors = 0, bad = 0;
	struct devtest t;

	/* each client's objects and its directory, and the root's */
	if (c == NULL || th == NULL || devtest_format(&t, (uint32_t)clients * (SLOTS + 1) + 16) ||
	    devtest_start_daemon(&t)) {
		ut_failures++;
		goto out;
	}
	for (int i = 0; i < clients; i++) {
		c[i].uri = t.uri;
		c[i].id = i;
		c[i].deadline = now_ms() + seconds * 1000ll;
		CHECK_EQ(pthread_create(&th[i], NULL, client_main, &c[i]), 0);
	}
	for (int i = 0; i < clients; i++) {
		pthread_join(th[i], NULL);
		ops += c[i].ops;
		errors += c[i].errors;
		bad += c[i].bad;
		if (c[i].errors || c[i].bad) {
			fprintf(stderr, "client %d: %ld errors, %ld objects read back wrong; last: %s\n",
				i, c[i].errors, c[i].bad, c[i].last_msg);
		}
	}
	fprintf(stderr, "many: %d clients for %d s: %ld operations, %ld errors, %ld objects "
		"read back wrong\n", clients, seconds, ops, errors, bad);
	CHECK_EQ(errors, 0);
	CHECK_EQ(bad, 0);
	CHECK(ops > 0);
out:
	devtest_cleanup(&t);
	free(c);
	free(th);
}

/* ---- kill: clients SIGKILLed mid-work ----------------------------------------------- */

struct victim {
	struct ss_dev *d;
	uint64_t big;
	int kind;                    /* 0: reads of BIG, 1: tasklet instances, 2: writes */
	int ready_fd;
	int id;
};

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static int victims_working;

/* The child's threads work until killed; the last to finish its first round tells the
 * parent that every kind of work is under way. */
static void *victim_main(void *arg)
{
	struct victim *v = arg;
	uint8_t *buf = malloc(BIG);
	uint64_t out = 0;
	char path[64];

	for (long i = 0; buf != NULL; i++) {
		if (v->kind == 0) {
			(void)ss_dev_read(v->d, v->big, 0, buf, BIG);
		} else if (v->kind == 1) {
			struct ss_bt_probe_params pp = { .accesses = 1, .compare = 7 };
			struct ss_dev_tasklet_spec spec = { .tasklet_id = SS_BT_DRAM_PROBE,
							    .mem_budget = 4096 };
			uint64_t inst;

			/* instances on one output object, never destroyed; then reads */
			if (i == 0) {
				snprintf(path, sizeof(path), "/v%ld/out%d", (long)getpid(), v->id);
				(void)ss_dev_create_output(v->d, path, SS_DEV_CREATE_PARENTS, &out);
			}
			if (i < VICTIM_INSTANCES && out != 0) {
				spec.output_oid = out;
				(void)ss_dev_tasklet_create(v->d, &spec, &pp, sizeof(pp), &inst);
			} else {
				(void)ss_dev_read(v->d, v->big, 0, buf, BIG);
			}
		} else {
			if (i == 0) {
				snprintf(path, sizeof(path), "/v%ld/w%d", (long)getpid(), v->id);
				(void)ss_dev_create(v->d, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS,
						    &out);
			}
			pattern(buf, BIG / 4, v->id, 0, (uint32_t)i);
			(void)ss_dev_write(v->d, out, 0, buf, BIG / 4, 0);
		}
		/* ready once its instances are made, or its first command done */
		if (i == (v->kind == 1 ? VICTIM_INSTANCES - 1 : 0)) {
			pthread_mutex_lock(&ready_lock);
			if (++victims_working == KILL_THREADS && write(v->ready_fd, "r", 1) != 1) {
				_exit(20);
			}
			pthread_mutex_unlock(&ready_lock);
		}
	}
	return NULL;
}

static void victim_process(const char *uri, uint64_t big, int ready_fd)
{
	struct victim v[KILL_THREADS];
	pthread_t th[KILL_THREADS];
	struct ss_dev *d;

	if (ss_dev_open(uri, NULL, &d) != 0) {
		fprintf(stderr, "victim: %s\n", ss_dev_last_message());
		_exit(21);
	}
	for (int i = 0; i < KILL_THREADS; i++) {
		v[i] = (struct victim){ .d = d, .big = big, .kind = i % 3, .ready_fd = ready_fd,
					.id = i };
		pthread_create(&th[i], NULL, victim_main, &v[i]);
	}
	for (;;) {
		pause();   /* until SIGKILL */
	}
}

static void test_kill(int kills)
{
	static const uint8_t small[4] = { 'o', 'k', '!', '\n' };
	struct ss_dev_tasklet_spec spec = { .tasklet_id = SS_BT_DRAM_PROBE, .mem_budget = 4096 };
	struct ss_bt_probe_params pp = { .accesses = 1, .compare = 7 };
	uint8_t *buf = malloc(BIG), got[4];
	uint64_t big, unrelated, inst;
	struct ss_dev *d = NULL;
	struct devtest t;
	unsigned seed = (unsigned)getpid();

	if (buf == NULL || devtest_format(&t, 0) || devtest_start_daemon(&t) ||
	    ss_dev_open(t.uri, NULL, &d) != 0) {
		fprintf(stderr, "kill: setup: %s\n", ss_dev_last_message());
		ut_failures++;
		goto out;
	}
	pattern(buf, BIG, 1, 1, 1);
	CHECK_EQ(ss_dev_create(d, "/big", SS_DEV_FILE, 0, &big), 0);
	CHECK_EQ(ss_dev_write(d, big, 0, buf, BIG, 0), (int64_t)BIG);
	CHECK_EQ(ss_dev_create(d, "/unrelated", SS_DEV_FILE, 0, &unrelated), 0);
	CHECK_EQ(ss_dev_write(d, unrelated, 0, small, sizeof(small), 0), (int64_t)sizeof(small));
	CHECK_EQ(ss_dev_close(d), 0);
	d = NULL;
	for (int k = 0; k < kills; k++) {
		int p[2], status;
		char r;
		struct pollfd pf;
		pid_t pid;

		if (pipe(p) != 0) {
			ut_failures++;
			break;
		}
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			victim_process(t.uri, big, p[1]);
		}
		close(p[1]);
		pf = (struct pollfd){ .fd = p[0], .events = POLLIN };
		if (poll(&pf, 1, WAIT_MS) != 1 || read(p[0], &r, 1) != 1) {
			fprintf(stderr, "kill %d: the client did not start its work within %d ms\n", k,
				WAIT_MS);
			ut_failures++;
		}
		/* a varying point in its traffic, not a wait for anything */
		usleep((useconds_t)(rand_r(&seed) % 20000));
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		close(p[0]);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	/* what the killed clients held is back: an unrelated read, and a new instance */
	if (ss_dev_open(t.uri, NULL, &d) != 0) {
		fprintf(stderr, "kill: open after %d kills: %s\n", kills, ss_dev_last_message());
		ut_failures++;
		goto out;
	}
	memset(got, 0, sizeof(got));
	CHECK_EQ(ss_dev_read(d, unrelated, 0, got, sizeof(got)), (int64_t)sizeof(got));
	CHECK_MEM(got, small, sizeof(small));
	if (ut_failures)
		fprintf(stderr, "kill: read after %d kills: %s\n", kills, ss_dev_last_message());
	CHECK_EQ(ss_dev_create_output(d, "/after/out", SS_DEV_CREATE_PARENTS, &spec.output_oid), 0);
	CHECK_EQ(ss_dev_tasklet_create(d, &spec, &pp, sizeof(pp), &inst), 0);
	CHECK_EQ(ss_dev_tasklet_destroy(d, inst), 0);
	CHECK_EQ(ss_dev_read(d, big, 0, buf, BIG), (int64_t)BIG);
	fprintf(stderr, "kill: %d clients killed mid-work; a 4-byte read, a 1 MiB read and a "
		"tasklet instance afterwards: %s\n", kills, ut_failures ? "FAILED" : "served");
out:
	if (d != NULL)
		ss_dev_close(d);
	devtest_cleanup(&t);
	free(buf);
}

/* ---- sessions: more connections than the drive has sessions ------------------------ */

#define EMU_SESSIONS 128         /* the emulated drive's (FW_MAX_SESSIONS) */

static void test_sessions(void)
{
	static const char *const more[] = { "--max-connections", "160", NULL };
	struct ss_dev_open_opts quick = { .busy_retry_ms = 300 };
	struct ss_dev *d[EMU_SESSIONS] = { NULL }, *extra = NULL;
	uint8_t got[4];
	uint64_t oid;
	struct devtest t;
	int rc, opened = 0;

	if (devtest_format(&t, 0) || devtest_start_daemon_with(&t, more)) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	for (int i = 0; i < EMU_SESSIONS; i++) {
		rc = ss_dev_open(t.uri, NULL, &d[i]);
		if (rc != 0)
			fprintf(stderr, "sessions: open %d: %s\n", i, ss_dev_last_message());
		opened += rc == 0;
	}
	CHECK_EQ(opened, EMU_SESSIONS);
	rc = ss_dev_open(t.uri, &quick, &extra);
	CHECK_EQ(rc, -EAGAIN);
	CHECK_EQ(ss_dev_last_reason(), SS_R_TOO_MANY_SESSIONS);
	CHECK(strstr(ss_dev_last_message(), "too many sessions") != NULL);
	if (rc == 0)
		ss_dev_close(extra);
	/* none of the others lost its session to it */
	CHECK_EQ(ss_dev_create(d[0], "/s", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d[0], oid, 0, "sess", 4, 0), 4);
	for (int i = 0; i < EMU_SESSIONS; i++) {
		if (d[i] != NULL && ss_dev_read(d[i], oid, 0, got, 4) != 4) {
			fprintf(stderr, "sessions: client %d: %s\n", i, ss_dev_last_message());
			ut_failures++;
		}
	}
	/* one leaves: its session is free for the next */
	CHECK_EQ(ss_dev_close(d[7]), 0);
	d[7] = NULL;
	CHECK_EQ(ss_dev_open(t.uri, &quick, &extra), 0);
	if (extra != NULL)
		CHECK_EQ(ss_dev_close(extra), 0);
	for (int i = 0; i < EMU_SESSIONS; i++) {
		if (d[i] != NULL)
			ss_dev_close(d[i]);
	}
	devtest_cleanup(&t);
}

/* ---- refused: an uninvited user, and the connection limit --------------------------- */

#define REFUSED_UID 65534
#define REFUSED_CONNS 12

static int connect_raw(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The refused user: holds REFUSED_CONNS connections open, each reopened as soon as the
 * daemon closes it; tells the parent once the first ones are open. Runs until killed. */
static void intruder(const char *sock, int ready_fd)
{
	int fd[REFUSED_CONNS];
	char b[64];

	if (setgroups(0, NULL) != 0 || setgid(REFUSED_UID) != 0 || setuid(REFUSED_UID) != 0)
		_exit(30);
	for (int i = 0; i < REFUSED_CONNS; i++)
		fd[i] = connect_raw(sock);
	if (write(ready_fd, "r", 1) != 1)
		_exit(31);
	for (;;) {
		for (int i = 0; i < REFUSED_CONNS; i++) {
			struct pollfd pf = { .fd = fd[i], .events = POLLIN };

			if (fd[i] >= 0) {
				if (poll(&pf, 1, 0) == 0)
					continue;   /* the daemon holds it open */
				if (read(fd[i], b, sizeof(b)) > 0)
					continue;   /* its notice; the end follows */
				close(fd[i]);
			}
			fd[i] = connect_raw(sock);
		}
		poll(NULL, 0, 1);   /* a pace, not a wait for anything */
	}
}

/* In a child running as the refused user: ss_dev_open. \return its exit status: 0 when it
 * got -EACCES with a message naming the user. */
static int open_as_refused(const char *uri)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		struct ss_dev *d = NULL;
		int rc;

		if (setgroups(0, NULL) != 0 || setgid(REFUSED_UID) != 0 || setuid(REFUSED_UID) != 0)
			_exit(10);
		rc = ss_dev_open(uri, NULL, &d);
		if (rc != -EACCES) {
			fprintf(stderr, "refused user's open: %d %s\n", rc, ss_dev_last_message());
			_exit(11);
		}
		_exit(strstr(ss_dev_last_message(), "access denied") ? 0 : 12);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static long count_lines(const char *path, const char *needle)
{
	char line[1024];
	long n = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

static void test_refused(void)
{
	static const char *const limits[] = { "--socket-mode", "0666", "--max-connections", "4",
					       NULL };
	static const uint8_t word[4] = { 'r', 'o', 'o', 't' };
	char log[160];
	struct devtest t;
	struct ss_dev *d[4] = { NULL };
	int p[2], saved = -1, logfd = -1, served = 0, rc;
	pid_t pid = -1;
	char r;

	if (geteuid() != 0) {
		fprintf(stderr, "skip: refused switches users and needs root\n");
		return;
	}
	if (devtest_format(&t, 0) || chmod(t.dir, 0755) != 0) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	/* the daemon's log, to count its refusal lines */
	snprintf(log, sizeof(log), "%s/devd.log", t.dir);
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	saved = dup(2);
	if (logfd < 0 || saved < 0 || dup2(logfd, 2) < 0) {
		ut_failures++;
		goto out;
	}
	rc = devtest_start_daemon_with(&t, limits);
	dup2(saved, 2);
	if (rc != 0) {
		ut_failures++;
		goto out;
	}
	{
		struct ss_dev *one = NULL;
		uint64_t oid;

		CHECK_EQ(ss_dev_open(t.uri, NULL, &one), 0);
		CHECK_EQ(ss_dev_create(one, "/root", SS_DEV_FILE, 0, &oid), 0);
		CHECK_EQ(ss_dev_close(one), 0);
	}
	if (pipe(p) != 0) {
		ut_failures++;
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		intruder(t.sock, p[1]);
	}
	close(p[1]);
	{
		struct pollfd pf = { .fd = p[0], .events = POLLIN };

		CHECK(poll(&pf, 1, WAIT_MS) == 1 && read(p[0], &r, 1) == 1);
	}
	close(p[0]);
	/* root, allowed, is served every time while the refused user keeps at it */
	for (int i = 0; i < 40; i++) {
		struct ss_dev *one = NULL;
		struct ss_dev_stat st;
		uint8_t got[4];

		if (ss_dev_open(t.uri, NULL, &one) != 0) {
			fprintf(stderr, "refused: root's open %d: %s\n", i, ss_dev_last_message());
			continue;
		}
		if (ss_dev_lookup(one, "/root", &st) == 0 &&
		    ss_dev_write(one, st.oid, 0, word, 4, 0) == 4 &&
		    ss_dev_read(one, st.oid, 0, got, 4) == 4 && memcmp(got, word, 4) == 0)
			served++;
		else
			fprintf(stderr, "refused: root's round %d: %s\n", i, ss_dev_last_message());
		ss_dev_close(one);
	}
	CHECK_EQ(served, 40);
	/* the refused user is told why */
	CHECK_EQ(open_as_refused(t.uri), 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	pid = -1;
	/* past the limit: told so, not "the daemon went away" */
	for (int i = 0; i < 4; i++)
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d[i]), 0);
	{
		struct ss_dev *fifth = NULL;

		rc = ss_dev_open(t.uri, NULL, &fifth);
		CHECK_EQ(rc, -EUSERS);
		CHECK(strstr(ss_dev_last_message(), "--max-connections") != NULL);
		if (rc != -EUSERS)
			fprintf(stderr, "refused: the fifth connection: %d %s\n", rc,
				ss_dev_last_message());
		if (fifth != NULL)
			ss_dev_close(fifth);
	}
	for (int i = 0; i < 4; i++) {
		if (d[i] != NULL)
			ss_dev_close(d[i]);
	}
	/* hundreds of refusals, a handful of lines: one per uid per interval */
	{
		long lines = count_lines(log, "refused pid");

		fprintf(stderr, "refused: %ld refusal lines in the daemon's log\n", lines);
		CHECK(lines >= 1 && lines <= 8);
	}
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (logfd >= 0)
		close(logfd);
	unlink(log);
	devtest_cleanup(&t);
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc == 4 && strcmp(argv[1], "many") == 0) {
		test_many(atoi(argv[2]), atoi(argv[3]));
	} else if (argc == 3 && strcmp(argv[1], "kill") == 0) {
		test_kill(atoi(argv[2]));
	} else if (argc == 2 && strcmp(argv[1], "sessions") == 0) {
		test_sessions();
	} else if (argc == 2 && strcmp(argv[1], "refused") == 0) {
		test_refused();
	} else {
		fprintf(stderr, "usage: daemon_clients_ut many CLIENTS SECONDS | kill N | sessions | "
			"refused\n");
		return 2;
	}
	return ut_report("daemon_clients_ut");
}
