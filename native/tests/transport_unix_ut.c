/*
 * The daemon client's queueing: many threads through one connection with no lost,
 * duplicated or mismatched completion; and a daemon killed mid-command fails every
 * thread with -ENOTCONN in bounded time instead of hanging.
 *
 * Each thread owns its objects and checks its own results: what it reads back is what it
 * wrote, so a completion routed to the wrong submitter shows up as wrong data (and the
 * reply tag check as -EPROTO).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>

#include "devtest.h"
#include "errinfo.h"
#include "smartssd/smartssd.h"
#include "transport.h"
#include "transport_unix_frame.h"
#include "ut.h"

#define THREADS 8
#define OPS_PER_THREAD 10000
#define SLOTS 16
#define REC 512
#define WATCHDOG_SECONDS 100

struct worker {
	struct ss_dev *d;
	int id;
	int ops;                 /* commands to run; 0 = until the link fails */
	volatile int *stop;
	/* results */
	long done;
	long bad_data;
	long errors;
	int last_err;
	char last_msg[SS_DEV_MSG_MAX];
	int saw_enotconn_msg;
};

static void pattern(uint8_t *p, int thread, int slot, uint32_t version)
{
	for (int i = 0; i < REC; i++)
		p[i] = (uint8_t)(thread * 31 + slot * 7 + version * 13 + i);
}

/* A mix of writes, reads, stats and lookups over the thread's own file and directory. */
static void *work(void *arg)
{
	struct worker *w = arg;
	uint32_t version[SLOTS] = {0};
	uint8_t buf[REC], want[REC];
	struct ss_dev_stat st;
	char dir[32], file[48];
	uint64_t oid;
	long i;
	int rc;

	snprintf(dir, sizeof(dir), "/w%d", w->id);
	snprintf(file, sizeof(file), "/w%d/data", w->id);
	rc = ss_dev_create(w->d, file, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid);
	if (rc) {
		w->errors++;
		w->last_err = rc;
		ss_dev_last_message_copy(w->last_msg, sizeof(w->last_msg));
		return NULL;
	}
	for (int s = 0; s < SLOTS; s++) {
		pattern(buf, w->id, s, 0);
		if (ss_dev_write(w->d, oid, (uint64_t)s * REC, buf, REC, 0) != REC)
			w->errors++;
	}
	for (i = 0; w->ops == 0 || i < w->ops; i++) {
		int slot = (int)(i % SLOTS);
		int64_t n;

		if (w->stop && *w->stop)
			break;
		switch (i % 4) {
		case 0: /* write a new version of a slot */
			version[slot]++;
			pattern(buf, w->id, slot, version[slot]);
			n = ss_dev_write(w->d, oid, (uint64_t)slot * REC, buf, REC, 0);
			rc = n == REC ? 0 : (int)n;
			break;
		case 1: /* read a slot back */
		case 3:
			n = ss_dev_read(w->d, oid, (uint64_t)slot * REC, buf, REC);
			rc = n == REC ? 0 : (n < 0 ? (int)n : -EIO);
			if (!rc) {
				pattern(want, w->id, slot, version[slot]);
				if (memcmp(buf, want, REC))
					w->bad_data++;
			}
			break;
		default: /* stat by oid, or lookup by path */
			rc = (i & 4) ? ss_dev_stat(w->d, oid, &st) : ss_dev_lookup(w->d, file, &st);
			if (!rc && (st.oid != oid || st.size != SLOTS * REC))
				w->bad_data++;
			break;
		}
		if (rc) {
			w->errors++;
			w->last_err = rc;
			ss_dev_last_message_copy(w->last_msg, sizeof(w->last_msg));
			if (w->ops == 0)
				break;
		} else {
			w->done++;
		}
		/* the watchdog catches a call that hangs, not a machine that runs slowly: each
		 * finished call gives every call another WATCHDOG_SECONDS */
		alarm(WATCHDOG_SECONDS);
	}
	return NULL;
}

static void on_watchdog(int sig)
{
	static const char msg[] = "transport_unix_ut: watchdog fired: a call hung\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

static void test_many_threads(void)
{
	struct devtest t;
	struct worker w[THREADS];
	pthread_t th[THREADS];
	struct ss_dev *d;

	if (devtest_format(&t, 0) || devtest_start_daemon(&t)) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	memset(w, 0, sizeof(w));
	for (int i = 0; i < THREADS; i++) {
		w[i].d = d;
		w[i].id = i;
		w[i].ops = OPS_PER_THREAD;
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		if (w[i].errors)
			fprintf(stderr, "thread %d: %ld errors, last %d: %s\n", i, w[i].errors,
				w[i].last_err, w[i].last_msg);
		CHECK_EQ(w[i].errors, 0);
		CHECK_EQ(w[i].bad_data, 0);
		CHECK_EQ(w[i].done, OPS_PER_THREAD);
	}
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

static void test_daemon_killed(void)
{
	struct devtest t;
	struct worker w[THREADS];
	pthread_t th[THREADS];
	struct ss_dev_stat st;
	volatile int stop = 0;
	struct ss_dev *d;
	long before = 0;

	if (devtest_format(&t, 0) || devtest_start_daemon(&t)) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	/* flushed before the kill: it is there after the restart */
	CHECK_EQ(ss_dev_create(d, "/survives", SS_DEV_FILE, 0, NULL), 0);
	CHECK_EQ(ss_dev_flush(d), 0);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < THREADS; i++) {
		w[i].d = d;
		w[i].id = i;
		w[i].ops = 0; /* run until the link fails */
		w[i].stop = &stop;
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	/* let every thread get going, then kill the daemon mid-command */
	for (int spins = 0; spins < 2000; spins++) {
		before = 0;
		for (int i = 0; i < THREADS; i++)
			before += w[i].done;
		if (before > THREADS * 50)
			break;
		usleep(5000);
	}
	devtest_kill_daemon(&t, SIGKILL);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ(w[i].bad_data, 0);
		CHECK(w[i].errors >= 1);
		/* in flight: sent, outcome unknown; or not sent, and no daemon to reconnect to */
		CHECK(w[i].last_err == -ECONNRESET || w[i].last_err == -ENOTCONN);
		if (!strstr(w[i].last_msg, w[i].last_err == -ECONNRESET ? "daemon went away"
									 : "not serving")) {
			fprintf(stderr, "worker %d: %d %s\n", i, w[i].last_err, w[i].last_msg);
			ut_failures++;
		}
	}
	/* every later call tries to reconnect, and fails at once while nobody serves */
	CHECK_EQ(ss_dev_lookup(d, "/w0/data", &st), -ENOTCONN);
	CHECK(strstr(ss_dev_last_message(), "daemon is not serving") != NULL);
	CHECK(strstr(ss_dev_last_message(), "was not sent") != NULL);
	CHECK(strstr(ss_dev_last_message(), "LOOKUP /w0/data") != NULL);
	CHECK_EQ(ss_dev_flush(d), -ENOTCONN);
	/* a new daemon on the same image: the same handle goes on, with a new session, its
	 * first command a queued one (a queue reconnects as a plain command does) */
	CHECK_EQ(devtest_start_daemon(&t), 0);
	{
		static uint8_t big[3u << 20];
		uint64_t oid;

		memset(big, 0x5a, sizeof(big));
		CHECK_EQ(ss_dev_lookup(d, "/survives", &st), 0);
		oid = st.oid;
		devtest_kill_daemon(&t, SIGKILL);
		CHECK_EQ(devtest_start_daemon(&t), 0);
		CHECK_EQ(ss_dev_write_queued(d, oid, 0, big, sizeof(big), 0, 4), (int64_t)sizeof(big));
		CHECK_EQ(ss_dev_flush(d), 0);   /* a kill is a power cut: the buffer is lost */
		devtest_kill_daemon(&t, SIGKILL);
		CHECK_EQ(devtest_start_daemon(&t), 0);
		{
			uint64_t off[1] = { 0 };
			uint32_t len[1] = { 4096 }, cnt[1];
			static uint8_t back[4096];

			CHECK_EQ(ss_dev_read_ranges(d, oid, 1, off, len, back, 4, cnt), 4096);
			CHECK(back[0] == 0x5a && back[4095] == 0x5a);
		}
	}
	CHECK_EQ(ss_dev_lookup(d, "/survives", &st), 0);
	CHECK_EQ(ss_dev_flush(d), 0);
	devtest_kill_daemon(&t, SIGKILL);
	/* closing a handle whose daemon died reports it but frees everything */
	CHECK_EQ(ss_dev_close(d), -ENOTCONN);
	devtest_cleanup(&t);
}

/* A fake daemon that answers the first request with the given reply header. */
struct fake {
	int lfd;
	uint8_t reply[SS_FRAME_REPLY_HDR];
};

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	uint8_t req[SS_FRAME_REQUEST_HDR + 512];
	int fd = accept(f->lfd, NULL, NULL);
	size_t got = 0;

	while (fd >= 0 && got < sizeof(req)) {
		ssize_t r = read(fd, req + got, sizeof(req) - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (fd >= 0) {
		if (write(fd, f->reply, sizeof(f->reply)) < 0)
			perror("fake daemon write");
		usleep(100000); /* keep the connection open: the client must not wait on it */
		close(fd);
	}
	return NULL;
}

static void one_bad_reply(const char *what, void (*mangle)(uint8_t *reply), const char *want)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char dir[] = "/tmp/ss_fake_XXXXXX";
	uint8_t data[512] = {0};
	struct ss_transport *t = NULL;
	struct ss_xfer x;
	struct fake f;
	pthread_t th;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/s", dir);
	f.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK_EQ(bind(f.lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	CHECK_EQ(listen(f.lfd, 1), 0);
	memset(f.reply, 0, sizeof(f.reply));
	ss_put_le32(f.reply, SS_FRAME_REPLY_MAGIC);
	ss_put_le32(f.reply + 4, 0); /* the client's first tag */
	mangle(f.reply);
	pthread_create(&th, NULL, fake_main, &f);
	CHECK_EQ(ss_transport_unix_open(sa.sun_path, &t), 0);
	if (t) {
		memset(&x, 0, sizeof(x));
		x.data = data;
		x.len = sizeof(data);
		x.dir = SS_SAT_DIR_OUT;
		CHECK_EQ(t->ops->submit(t, &x), -ECONNRESET);   /* sent, no valid reply */
		if (!strstr(ss_dev_last_message(), want)) {
			fprintf(stderr, "%s: message '%s' lacks '%s'\n", what,
				ss_dev_last_message(), want);
			ut_failures++;
		}
		/* and every later call fails at once */
		CHECK_EQ(t->ops->submit(t, &x), -ENOTCONN);
		t->ops->close(t);
	}
	pthread_join(th, NULL);
	close(f.lfd);
	unlink(sa.sun_path);
	rmdir(dir);
}

static void bad_magic(uint8_t *r)
{
	r[0] ^= 0xFF;
}

static void unknown_tag(uint8_t *r)
{
	ss_put_le32(r + 4, 17);
}

static void data_for_data_out(uint8_t *r)
{
	ss_put_le32(r + 44, 512);
}

static void sense_too_long(uint8_t *r)
{
	r[9] = 200;
}

/* A fake daemon for a model-counters request: reads the 32-byte request, checks it and
 * answers with the reply header in f->reply followed by `extra` data bytes. */
struct model_fake {
	int lfd;
	uint8_t reply[SS_FRAME_REPLY_HDR + 8 + 8 * 36];
	size_t reply_len;
	int request_ok;
};

static void *model_fake_main(void *arg)
{
	struct model_fake *f = arg;
	uint8_t req[SS_FRAME_REQUEST_HDR];
	int fd = accept(f->lfd, NULL, NULL);
	size_t got = 0;

	while (fd >= 0 && got < sizeof(req)) {
		ssize_t r = read(fd, req + got, sizeof(req) - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (fd >= 0) {
		static const uint8_t zero[24];

		f->request_ok = got == sizeof(req) && !memcmp(req, "SSDM", 4) &&
				ss_get_le32(req + 4) == 0 && !memcmp(req + 8, zero, 24);
		if (write(fd, f->reply, f->reply_len) < 0)
			perror("fake daemon write");
		usleep(100000);
		close(fd);
	}
	return NULL;
}

/* \return what ss_dev_model_counters' transport call returned against the fake. */
static int model_against(struct model_fake *f, struct ss_dev_model *m)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char dir[] = "/tmp/ss_fake_XXXXXX";
	struct ss_transport *t = NULL;
	pthread_t th;
	int rc = -1;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/s", dir);
	f->lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK_EQ(bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	CHECK_EQ(listen(f->lfd, 1), 0);
	pthread_create(&th, NULL, model_fake_main, f);
	CHECK_EQ(ss_transport_unix_open(sa.sun_path, &t), 0);
	if (t) {
		memset(m, 0xEE, sizeof(*m));
		rc = t->ops->model(t, m);
		t->ops->close(t);
	}
	pthread_join(th, NULL);
	close(f->lfd);
	unlink(sa.sun_path);
	rmdir(dir);
	return rc;
}

/* A model reply of n counters, value 1000 + i at index i, in a data phase of len bytes. */
static void model_reply(struct model_fake *f, uint32_t n, uint32_t len)
{
	memset(f, 0, sizeof(*f));
	ss_put_le32(f->reply, SS_FRAME_REPLY_MAGIC);
	ss_put_le32(f->reply + 44, len);
	ss_put_le32(f->reply + SS_FRAME_REPLY_HDR, n);
	for (uint32_t i = 0; 8 + 8 * i + 8 <= len; i++)
		ss_put_le64(f->reply + SS_FRAME_REPLY_HDR + 8 + 8 * i, 1000 + i);
	f->reply_len = SS_FRAME_REPLY_HDR + len;
}

/* The model-counters request and its reply: fields by their index in the emulator's
 * counters; a reply from an older daemon (fewer fields) leaves the missing ones 0, one
 * from a newer daemon has its extra fields ignored; an inconsistent reply breaks the link
 * with a message. */
static void test_model_framing(void)
{
	struct model_fake f;
	struct ss_dev_model m;

	model_reply(&f, 21, 8 + 8 * 21);            /* up to now_ns, no energy */
	CHECK_EQ(model_against(&f, &m), 0);
	CHECK(f.request_ok);
	CHECK_EQ(m.page_reads, 1000);
	CHECK_EQ(m.page_programs, 1001);
	CHECK_EQ(m.block_erases, 1002);
	CHECK_EQ(m.host_commands, 1010);
	CHECK_EQ(m.link_bytes_in, 1011);
	CHECK_EQ(m.link_bytes_out, 1012);
	CHECK_EQ(m.isp_instructions, 1013);
	CHECK_EQ(m.isp_dram_accesses, 1014);
	CHECK_EQ(m.isp_pages, 1015);
	CHECK_EQ(m.link_busy_ns, 1018);
	CHECK_EQ(m.isp_busy_ns, 1019);
	CHECK_EQ(m.now_ns, 1020);
	CHECK_EQ(m.energy_nand_read_nj, 0);
	CHECK_EQ(m.energy_total_nj, 0);
	CHECK_EQ(m.host_now_ns, 0);

	model_reply(&f, 36, 8 + 8 * 36);            /* a field this client does not know */
	CHECK_EQ(model_against(&f, &m), 0);
	CHECK_EQ(m.energy_nand_read_nj, 1021);
	CHECK_EQ(m.energy_nand_program_nj, 1022);
	CHECK_EQ(m.energy_nand_erase_nj, 1023);
	CHECK_EQ(m.energy_link_nj, 1024);
	CHECK_EQ(m.energy_isp_nj, 1025);
	CHECK_EQ(m.energy_idle_nj, 1026);
	CHECK_EQ(m.energy_total_nj, 1027);
	CHECK_EQ(m.host_now_ns, 1028);
	CHECK_EQ(m.nand_read_nj, 1029);
	CHECK_EQ(m.link_pj_per_byte, 1034);

	model_reply(&f, 5, 8 + 8 * 21);             /* the count disagrees with the length */
	CHECK_EQ(model_against(&f, &m), -ECONNRESET);
	CHECK(strstr(ss_dev_last_message(), "model counters say 5 fields") != NULL);

	model_reply(&f, 1, 12);                     /* not whole counters */
	CHECK_EQ(model_against(&f, &m), -ECONNRESET);
	CHECK(strstr(ss_dev_last_message(), "12 bytes of model counters") != NULL);
}

static void test_bad_daemon(void)
{
	one_bad_reply("bad magic", bad_magic, "malformed reply");
	one_bad_reply("unknown tag", unknown_tag, "tag 17");
	one_bad_reply("data for a data-out command", data_for_data_out, "512 bytes");
	one_bad_reply("sense too long", sense_too_long, "malformed reply");
}

/*
 * A proxy between the client and a real daemon that, once armed, forwards the next SEND
 * (an object request) and its reply from the daemon, then drops the client's connection
 * instead of passing the reply on: the request ran, and the client cannot know.
 */
struct proxy {
	int lfd;
	const char *daemon;
	int armed;                       /* atomic */
	int sends_dropped;               /* atomic: SENDs run by the daemon, reply dropped */
	int stop;                        /* atomic */
};

static int io_full(int fd, void *b, size_t n, int writing)
{
	uint8_t *p = b;

	while (n) {
		ssize_t r = writing ? send(fd, p, n, MSG_NOSIGNAL) : recv(fd, p, n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Forward one request and its reply. \return 0, 1 after dropping the client, -1 at EOF. */
static int proxy_one(struct proxy *px, int c, int dmn)
{
	static uint8_t data[SS_FRAME_DATA_MAX];
	uint8_t h[SS_FRAME_REQUEST_HDR], rh[SS_FRAME_REPLY_HDR];
	uint32_t len, dir, rlen;
	int send_cmd;

	if (io_full(c, h, sizeof(h), 0))
		return -1;
	dir = ss_get_le32(h + 24);
	len = ss_get_le32(h) == SS_FRAME_COMMAND_MAGIC ? ss_get_le32(h + 28) : 0;
	if (len > sizeof(data))
		return -1;
	send_cmd = ss_get_le32(h) == SS_FRAME_COMMAND_MAGIC && h[8 + 14] == 0x8A;
	if ((dir == SS_FRAME_DIR_TO_DRIVE && io_full(c, data, len, 0)) ||
	    io_full(dmn, h, sizeof(h), 1) ||
	    (dir == SS_FRAME_DIR_TO_DRIVE && io_full(dmn, data, len, 1)) ||
	    io_full(dmn, rh, sizeof(rh), 0))
		return -1;
	rlen = ss_get_le32(rh + 44);
	if (rlen > sizeof(data) || io_full(dmn, data, rlen, 0))
		return -1;
	if (send_cmd && __atomic_exchange_n(&px->armed, 0, __ATOMIC_ACQ_REL)) {
		__atomic_fetch_add(&px->sends_dropped, 1, __ATOMIC_ACQ_REL);
		return 1;
	}
	if (io_full(c, rh, sizeof(rh), 1) || io_full(c, data, rlen, 1))
		return -1;
	return 0;
}

static void *proxy_main(void *arg)
{
	struct proxy *px = arg;

	while (!__atomic_load_n(&px->stop, __ATOMIC_ACQUIRE)) {
		struct pollfd pf = {.fd = px->lfd, .events = POLLIN};
		int c, dmn;

		if (poll(&pf, 1, 100) <= 0)
			continue;   /* a bounded wait so that stop is seen */
		c = accept(px->lfd, NULL, NULL);
		if (c < 0)
			continue;
		dmn = socket(AF_UNIX, SOCK_STREAM, 0);
		{
			struct sockaddr_un sa = {.sun_family = AF_UNIX};

			snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", px->daemon);
			if (connect(dmn, (struct sockaddr *)&sa, sizeof(sa)) == 0)
				while (proxy_one(px, c, dmn) == 0)
					;
		}
		close(dmn);
		close(c);
	}
	return NULL;
}

/* A request that ran but whose reply was lost fails with -ECONNRESET and is never sent
 * again: the next call reconnects, and finds the object created exactly once. */
static void test_reconnect_never_replays(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct proxy px = {0};
	struct ss_dev_stat st;
	struct ss_dev *d = NULL;
	char uri[160];
	pthread_t th;
	struct devtest t;

	if (devtest_format(&t, 0) || devtest_start_daemon(&t)) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	px.daemon = t.sock;
	px.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/proxy.sock", t.dir);
	CHECK_EQ(bind(px.lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	CHECK_EQ(listen(px.lfd, 4), 0);
	pthread_create(&th, NULL, proxy_main, &px);
	snprintf(uri, sizeof(uri), "unix:%s", sa.sun_path);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d) {
		__atomic_store_n(&px.armed, 1, __ATOMIC_RELEASE);
		CHECK_EQ(ss_dev_create(d, "/once", SS_DEV_FILE, SS_DEV_CREATE_EXCL, NULL),
			 -ECONNRESET);
		CHECK(strstr(ss_dev_last_message(), "whether it ran is unknown") != NULL);
		CHECK(strstr(ss_dev_last_message(), "CREATE /once") != NULL);
		CHECK_EQ(__atomic_load_n(&px.sends_dropped, __ATOMIC_ACQUIRE), 1);
		/* the next call reconnects (through the proxy again) with a new session */
		CHECK_EQ(ss_dev_lookup(d, "/once", &st), 0);
		CHECK_EQ(ss_dev_create(d, "/once", SS_DEV_FILE, SS_DEV_CREATE_EXCL, NULL), -EEXIST);
		CHECK_EQ(__atomic_load_n(&px.sends_dropped, __ATOMIC_ACQUIRE), 1);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	__atomic_store_n(&px.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	close(px.lfd);
	unlink(sa.sun_path);
	devtest_cleanup(&t);
}

/* A user the daemon does not allow gets -EACCES that says so, not a broken link. */
static void test_access_denied(void)
{
	static const char *const open_mode[] = {"--socket-mode", "0666", NULL};
	struct devtest t;
	int status = -1;
	pid_t pid;

	if (geteuid() != 0)
		UT_SKIP("test_access_denied switches users and needs root");
	if (devtest_format(&t, 0) || chmod(t.dir, 0755) ||
	    devtest_start_daemon_with(&t, open_mode)) {
		ut_failures++;
		devtest_cleanup(&t);
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct ss_dev *d = NULL;
		int rc;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		rc = ss_dev_open(t.uri, NULL, &d);
		if (rc != -EACCES)
			_exit(11);
		_exit(strstr(ss_dev_last_message(), "access denied") &&
		      strstr(ss_dev_last_message(), "uid 65534") ? 0 : 12);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	devtest_cleanup(&t);
}

/* "access" runs the test that needs root alone, as a CTest of its own that reports a skip
 * where it cannot run without hiding the other tests' verdicts. */
int main(int argc, char **argv)
{
	signal(SIGALRM, on_watchdog);
	alarm(WATCHDOG_SECONDS);
	if (argc > 1 && strcmp(argv[1], "access") == 0) {
		test_access_denied();
	} else {
		test_bad_daemon();
		test_model_framing();
		test_many_threads();
		test_daemon_killed();
		test_reconnect_never_replays();
	}
	alarm(0);
	return ut_report("transport_unix_ut");
}
