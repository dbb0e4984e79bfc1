/*
 * smartssd-devd: serves one emulated drive to many processes over a unix stream socket.
 * The framing is in README.md ("Daemon socket framing"). A reader thread per connection
 * decodes requests. In virtual time it runs each command itself (ss_emu_submit executes
 * on the calling thread) and writes the reply: no hand-off between threads. In realtime
 * mode a command's submitter sleeps until its modelled completion, so the reader hands
 * commands to a pool of SS_EMU_QUEUE_DEPTH workers instead, and a connection may have
 * many in flight. Replies are tagged as their requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef SS_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "ss_emu.h"
#include "ss_rt.h"

#define REQ_MAGIC 0x51445353u   /* "SSDQ": a command */
#define MODEL_MAGIC 0x4D445353u /* "SSDM": the model counters */
#define REP_MAGIC 0x41445353u   /* "SSDA" */
#define REQ_HDR 32
#define REP_HDR 48
#define REP_SENSE 32
#define MAX_DATA (65536u * 512u)
#define MAX_PENDING 256
#define RBUF 8192
#define MODEL_FIELDS (sizeof(struct ss_emu_counters) / sizeof(uint64_t))

_Static_assert(sizeof(struct ss_emu_counters) % sizeof(uint64_t) == 0,
	       "the counters are a sequence of u64");

struct conn {
	int fd;
	pthread_mutex_t wlock;     /* one reply on the wire at a time */
	int refs;                  /* reader + requests not yet answered */
	int dead;                  /* the peer went away: drop replies */
	struct conn *next;         /* in the server's list */
	pthread_t reader;
	uint8_t *buf;              /* the reader's data buffer (direct execution) */
	uint32_t buf_cap;
	size_t rstart, rend;       /* unread bytes of rbuf */
	uint8_t rbuf[RBUF];
};

enum req_kind { REQ_COMMAND, REQ_MODEL };

struct req {
	struct conn *c;
	enum req_kind kind;
	uint32_t tag;
	uint8_t cdb[16];
	uint32_t dir;
	uint32_t len;
	uint8_t *data;
	int owns_data;
	struct req *next;
};

static struct {
	struct ss_emu_drive *drive;
	int direct;                /* readers execute commands themselves */
	pthread_mutex_t lock;
	pthread_cond_t work;       /* workers wait for requests */
	pthread_cond_t room;       /* readers wait for room in the queue */
	pthread_cond_t idle;       /* shutdown waits for the queue to drain */
	struct req *head, *tail;
	int pending;               /* admitted and not yet answered */
	int stopping;
	struct conn *conns;
	int nconns;
} srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.room = PTHREAD_COND_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
};

/* Read exactly n bytes through the connection's buffer. \return 0, or -1 at end of stream
 * or on an error. */
static int conn_read(struct conn *c, void *dst, size_t n)
{
	uint8_t *p = dst;

	while (n > 0) {
		ssize_t r;

		if (c->rend > c->rstart) {
			size_t k = SS_MIN(n, c->rend - c->rstart);

			memcpy(p, c->rbuf + c->rstart, k);
			c->rstart += k;
			p += k;
			n -= k;
			continue;
		}
		/* Large reads go straight to their destination. */
		r = n >= RBUF ? read(c->fd, p, n) : read(c->fd, c->rbuf, RBUF);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return -1;
		}
		if (n >= RBUF) {
			p += r;
			n -= (size_t)r;
		} else {
			c->rstart = 0;
			c->rend = (size_t)r;
		}
	}
	return 0;
}

static int send_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		struct msghdr m = { .msg_iov = iov, .msg_iovlen = (size_t)n };
		ssize_t r = sendmsg(fd, &m, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return -1;
		}
		while (n > 0 && (size_t)r >= iov->iov_len) {
			r -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return 0;
}

static void conn_put(struct conn *c)
{
	int last;

	pthread_mutex_lock(&srv.lock);
	last = --c->refs == 0;
	if (last) {
		struct conn **pp = &srv.conns;

		while (*pp != c) {
			pp = &(*pp)->next;
		}
		*pp = c->next;
		srv.nconns--;
		pthread_cond_broadcast(&srv.idle);
	}
	pthread_mutex_unlock(&srv.lock);
	if (last) {
		close(c->fd);
		pthread_mutex_destroy(&c->wlock);
		free(c->buf);
		free(c);
	}
}

/* Write one reply: header, then `out` bytes of data. */
static void reply(struct req *r, uint8_t status, const uint8_t *sense, int sense_len,
		  const void *data, uint32_t out)
{
	uint8_t h[REP_HDR] = { 0 };
	struct iovec iov[2] = { { h, sizeof(h) }, { (void *)data, out } };
	struct conn *c = r->c;

	ss_put_le32(h, REP_MAGIC);
	ss_put_le32(h + 4, r->tag);
	h[8] = status;
	h[9] = (uint8_t)(sense_len > 0 ? SS_MIN(sense_len, REP_SENSE) : 0);
	memcpy(h + 12, sense, h[9]);
	ss_put_le32(h + 44, out);
	pthread_mutex_lock(&c->wlock);
	if (!c->dead && send_all(c->fd, iov, out > 0 ? 2 : 1) != 0) {
		c->dead = 1;
		shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&c->wlock);
}

/* Execute a request and answer it. */
static void serve(struct req *r)
{
	uint8_t sense[REP_SENSE] = { 0 }, status = 0;
	int n;

	if (r->kind == REQ_MODEL) {
		struct ss_emu_counters cn;
		uint64_t v[MODEL_FIELDS];
		uint8_t out[8 + 8 * MODEL_FIELDS];

		ss_emu_get_counters(srv.drive, &cn);
		memcpy(v, &cn, sizeof(v));
		ss_put_le32(out, (uint32_t)MODEL_FIELDS);
		ss_put_le32(out + 4, 0);
		for (size_t i = 0; i < MODEL_FIELDS; i++) {
			ss_put_le64(out + 8 + 8 * i, v[i]);
		}
		reply(r, SS_EMU_SCSI_GOOD, sense, 0, out, sizeof(out));
		return;
	}
	n = ss_emu_submit(srv.drive, r->cdb, r->data, r->len, (int)r->dir, sense, sizeof(sense),
			  &status);
	if (n < 0) {
		/* the drive refused the call itself: report an aborted command */
		static const uint8_t aborted[8] = { 0x72, 0x0B, 0, 0, 0, 0, 0, 0 };

		memcpy(sense, aborted, sizeof(aborted));
		status = SS_EMU_SCSI_CHECK_CONDITION;
		n = sizeof(aborted);
	}
	reply(r, status, sense, n, r->data, r->dir == SS_EMU_DIR_FROM_DRIVE ? r->len : 0);
}

/* A request answered: release what it held. */
static void done(struct req *r)
{
	conn_put(r->c);
	if (r->owns_data) {
		free(r->data);
	}
	pthread_mutex_lock(&srv.lock);
	srv.pending--;
	pthread_cond_broadcast(&srv.room);
	pthread_cond_broadcast(&srv.idle);
	pthread_mutex_unlock(&srv.lock);
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		struct req *r;

		pthread_mutex_lock(&srv.lock);
		while (srv.head == NULL && !srv.stopping) {
			pthread_cond_wait(&srv.work, &srv.lock);
		}
		if (srv.head == NULL) {
			pthread_mutex_unlock(&srv.lock);
			return NULL;
		}
		r = srv.head;
		srv.head = r->next;
		if (srv.head == NULL) {
			srv.tail = NULL;
		}
		pthread_mutex_unlock(&srv.lock);
		serve(r);
		done(r);
		free(r);
	}
}

/* The data buffer of a command: the connection's own when the reader executes it, else
 * one the request takes with it. \return 0, or -1 when out of memory. */
static int data_buffer(struct conn *c, struct req *r)
{
	if (r->len == 0) {
		return 0;
	}
	if (!srv.direct) {
		r->data = calloc(1, r->len);
		r->owns_data = 1;
		return r->data ? 0 : -1;
	}
	if (r->len > c->buf_cap) {
		uint8_t *b = realloc(c->buf, r->len);

		if (b == NULL) {
			return -1;
		}
		c->buf = b;
		c->buf_cap = r->len;
	}
	/* Only this connection's earlier commands have used it: whatever a failed command
	 * sends back from it (data is unspecified on CHECK CONDITION) was the peer's own. */
	r->data = c->buf;
	return 0;
}

/* \return 0 and a request, or -1 at end of stream or on a malformed frame. */
static int read_request(struct conn *c, struct req *r)
{
	uint8_t h[REQ_HDR];
	uint32_t magic;

	memset(r, 0, sizeof(*r));
	if (conn_read(c, h, sizeof(h)) != 0) {
		return -1;
	}
	magic = ss_get_le32(h);
	r->c = c;
	r->tag = ss_get_le32(h + 4);
	if (magic == MODEL_MAGIC) {
		static const uint8_t zero[REQ_HDR - 8];

		if (memcmp(h + 8, zero, sizeof(zero)) != 0) {
			fprintf(stderr, "smartssd-devd: model request with non-zero reserved bytes; "
				"closing the connection\n");
			return -1;
		}
		r->kind = REQ_MODEL;
		return 0;
	}
	if (magic != REQ_MAGIC) {
		fprintf(stderr, "smartssd-devd: bad request magic; closing the connection\n");
		return -1;
	}
	r->kind = REQ_COMMAND;
	memcpy(r->cdb, h + 8, 16);
	r->dir = ss_get_le32(h + 24);
	r->len = ss_get_le32(h + 28);
	if (r->dir > SS_EMU_DIR_FROM_DRIVE || r->len > MAX_DATA ||
	    (r->dir == SS_EMU_DIR_NONE && r->len != 0)) {
		fprintf(stderr, "smartssd-devd: malformed request (dir %u, %u bytes); closing the "
			"connection\n", r->dir, r->len);
		return -1;
	}
	if (data_buffer(c, r) != 0 ||
	    (r->dir == SS_EMU_DIR_TO_DRIVE && conn_read(c, r->data, r->len) != 0)) {
		if (r->owns_data) {
			free(r->data);
		}
		return -1;
	}
	return 0;
}

/* Count a request in, unless the daemon is stopping. \return 0, or -1 when stopping. */
static int admit(struct conn *c)
{
	pthread_mutex_lock(&srv.lock);
	while (srv.pending >= MAX_PENDING && !srv.stopping) {
		pthread_cond_wait(&srv.room, &srv.lock);
	}
	if (srv.stopping) {
		pthread_mutex_unlock(&srv.lock);
		return -1;
	}
	srv.pending++;
	c->refs++;
	pthread_mutex_unlock(&srv.lock);
	return 0;
}

static void enqueue(struct req *r)
{
	pthread_mutex_lock(&srv.lock);
	if (srv.tail != NULL) {
		srv.tail->next = r;
	} else {
		srv.head = r;
	}
	srv.tail = r;
	pthread_cond_signal(&srv.work);
	pthread_mutex_unlock(&srv.lock);
}

static void *reader(void *arg)
{
	struct conn *c = arg;
	struct req r;
	int stopping;

	while (read_request(c, &r) == 0) {
		if (admit(c) != 0) {
			if (r.owns_data) {
				free(r.data);
			}
			break;
		}
		if (srv.direct || r.kind == REQ_MODEL) {
			serve(&r);
			done(&r);
			continue;
		}
		{
			struct req *q = malloc(sizeof(*q));

			if (q == NULL) {
				reply(&r, SS_EMU_SCSI_CHECK_CONDITION, (const uint8_t[8]){ 0x72, 0x0B },
				      8, NULL, 0);
				done(&r);
				continue;
			}
			*q = r;
			enqueue(q);
		}
	}
	pthread_mutex_lock(&srv.lock);
	stopping = srv.stopping;
	pthread_mutex_unlock(&srv.lock);
	if (!stopping) {
		/* the peer left (or broke the framing): its pending replies are dropped */
		pthread_mutex_lock(&c->wlock);
		c->dead = 1;
		pthread_mutex_unlock(&c->wlock);
	}
	conn_put(c);
	return NULL;
}

static void accept_one(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	struct conn *c;
	pthread_attr_t a;

	if (fd < 0) {
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->refs = 1;
	pthread_mutex_init(&c->wlock, NULL);
	pthread_mutex_lock(&srv.lock);
	c->next = srv.conns;
	srv.conns = c;
	srv.nconns++;
	pthread_mutex_unlock(&srv.lock);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&c->reader, &a, reader, c) != 0) {
		conn_put(c);
	}
	pthread_attr_destroy(&a);
}

/*
 * The socket path is only ever a listening socket: bind under a temporary name beside it,
 * listen, then rename into place, so a client that finds the path can always connect.
 * A lock file beside the path keeps a second daemon from taking over a live one's path
 * between its probe and its rename. \return the listening fd, or -1 after a message.
 */
static int listen_on(const char *path, int *lock_fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char tmp[sizeof(sa.sun_path)], lock[PATH_MAX];
	struct stat st;
	int fd, probe;

	if (strlen(path) + 16 >= sizeof(sa.sun_path)) {
		fprintf(stderr, "smartssd-devd: socket path %s is too long (at most %zu bytes)\n",
			path, sizeof(sa.sun_path) - 17);
		return -1;
	}
	snprintf(lock, sizeof(lock), "%s.lock", path);
	*lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (*lock_fd < 0) {
		fprintf(stderr, "smartssd-devd: cannot open the lock file %s: %s\n", lock,
			strerror(errno));
		return -1;
	}
	if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0) {
		fprintf(stderr, "smartssd-devd: another daemon is serving %s (it holds %s)\n", path,
			lock);
		return -1;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "smartssd-devd: %s exists and is not a socket; refusing to "
				"replace it (is --socket pointing at the wrong file?)\n", path);
			return -1;
		}
		strcpy(sa.sun_path, path);
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			fprintf(stderr, "smartssd-devd: another daemon is serving %s\n", path);
			close(probe);
			return -1;
		}
		if (probe >= 0) {
			close(probe);
		}
		/* A socket nobody answers on is left over from a killed daemon: the rename
		 * below replaces it. */
	} else if (errno != ENOENT) {
		fprintf(stderr, "smartssd-devd: cannot inspect %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", tmp);
	unlink(tmp);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("smartssd-devd: socket");
		return -1;
	}
	{
		mode_t old = umask(0117);
		int rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));

		umask(old);
		if (rc != 0 || chmod(tmp, 0660) != 0 || listen(fd, 64) != 0 ||
		    rename(tmp, path) != 0) {
			fprintf(stderr, "smartssd-devd: cannot listen on %s: %s\n", path,
				strerror(errno));
			unlink(tmp);
			close(fd);
			return -1;
		}
	}
	return fd;
}

/*
 * Tell whoever started us that the socket listens: "READY=1\n" on --ready-fd (then that fd
 * is closed; 0-2 are pointed at /dev/null instead so no later open() takes their number),
 * and sd_notify when systemd's NOTIFY_SOCKET is set.
 */
static void signal_ready(int ready_fd, const char *image, const char *sock)
{
	static const char line[] = "READY=1\n";

	/* systemd first: a starter that waits on --ready-fd then sees both done */
#ifdef SS_HAVE_SYSTEMD
	if (getenv("NOTIFY_SOCKET") != NULL) {
		int rc = sd_notifyf(0, "READY=1\nSTATUS=serving %s on %s\nMAINPID=%ld", image, sock,
				    (long)getpid());

		if (rc < 0) {
			fprintf(stderr, "smartssd-devd: sd_notify failed: %s\n", strerror(-rc));
		}
	}
#else
	(void)image;
	(void)sock;
	if (getenv("NOTIFY_SOCKET") != NULL) {
		fprintf(stderr, "smartssd-devd: NOTIFY_SOCKET is set but this build has no "
			"libsystemd; readiness is not notified\n");
	}
#endif
	if (ready_fd >= 0) {
		ssize_t r;

		do {
			r = write(ready_fd, line, sizeof(line) - 1);
		} while (r < 0 && errno == EINTR);
		if (r != (ssize_t)sizeof(line) - 1) {
			fprintf(stderr, "smartssd-devd: cannot signal readiness on fd %d: %s\n",
				ready_fd, strerror(errno));
		}
		if (ready_fd <= 2) {
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (null >= 0) {
				dup2(null, ready_fd);
				close(null);
			}
		} else {
			close(ready_fd);
		}
	}
}

/* \return the fd named by --ready-fd, or -1 after a message when it is not open. */
static int parse_ready_fd(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || *end != '\0' || end == arg || v < 0 || v > INT_MAX) {
		fprintf(stderr, "smartssd-devd: --ready-fd takes a file descriptor number, not "
			"'%s'\n", arg);
		return -1;
	}
	if (fcntl((int)v, F_GETFD) < 0) {
		fprintf(stderr, "smartssd-devd: --ready-fd %ld is not an open file descriptor\n", v);
		return -1;
	}
	return (int)v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: smartssd-devd --image FILE --socket PATH [--time-mode virtual|realtime]\n"
		"                     [--format [--profile NAME|PATH]] [--ready-fd N]\n"
		"Serves the emulated drive in FILE on the unix socket PATH. --format creates and\n"
		"formats FILE first (erasing it). Once PATH accepts connections, the daemon writes\n"
		"READY=1 and a newline to file descriptor N, and notifies systemd when\n"
		"NOTIFY_SOCKET is set. PATH.lock beside the socket keeps one daemon per path.\n");
}

/* Stop accepting, let the queued commands finish, then shut the drive down cleanly. */
static int shut_down(int lfd, const char *sock)
{
	struct conn *c;
	int rc;

#ifdef SS_HAVE_SYSTEMD
	sd_notify(0, "STOPPING=1");
#endif
	close(lfd);
	/* Ours to remove: the lock file keeps every other daemon off this path. */
	unlink(sock);
	pthread_mutex_lock(&srv.lock);
	srv.stopping = 1;
	for (c = srv.conns; c != NULL; c = c->next) {
		shutdown(c->fd, SHUT_RD);   /* readers stop taking requests */
	}
	pthread_cond_broadcast(&srv.room);
	while (srv.pending > 0) {
		pthread_cond_wait(&srv.idle, &srv.lock);
	}
	pthread_cond_broadcast(&srv.work);
	pthread_mutex_unlock(&srv.lock);
	rc = ss_emu_close(srv.drive);
	if (rc != 0) {
		fprintf(stderr, "smartssd-devd: clean shutdown of the drive failed (%d)\n", rc);
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "image", required_argument, NULL, 'i' },
		{ "socket", required_argument, NULL, 's' },
		{ "time-mode", required_argument, NULL, 't' },
		{ "profile", required_argument, NULL, 'p' },
		{ "format", no_argument, NULL, 'f' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ss_emu_drive_opts o = { 0 };
	const char *image = NULL, *sock = NULL;
	char err[512];
	int format = 0, opt, lfd, sfd, rc, nworkers, ready_fd = -1, lock_fd = -1;
	sigset_t sigs;
	pthread_t workers[SS_EMU_QUEUE_DEPTH];

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			image = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 't':
			if (ss_emu_time_mode_parse(optarg, &o.time_mode) != 0) {
				fprintf(stderr, "smartssd-devd: --time-mode is virtual or realtime, "
					"not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'p':
			o.flash.profile = optarg;
			break;
		case 'f':
			format = 1;
			break;
		case 'r':
			ready_fd = parse_ready_fd(optarg);
			if (ready_fd < 0) {
				return 2;
			}
			break;
		default:
			usage();
			return opt == 'h' ? 0 : 2;
		}
	}
	if (image == NULL || sock == NULL || optind != argc) {
		usage();
		return 2;
	}

	/* Every thread inherits the mask; the main thread takes the signals from a signalfd. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);

	rc = format ? ss_emu_format(image, &o, &srv.drive, err, sizeof(err)) :
		      ss_emu_open(image, &o, &srv.drive, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "smartssd-devd: %s\n", err);
		return 1;
	}
	lfd = listen_on(sock, &lock_fd);
	if (lfd < 0 || sfd < 0) {
		ss_emu_close(srv.drive);
		return 1;
	}
	srv.direct = o.time_mode == SS_EMU_TIME_VIRTUAL;
	nworkers = srv.direct ? 0 : SS_EMU_QUEUE_DEPTH;
	for (int i = 0; i < nworkers; i++) {
		pthread_create(&workers[i], NULL, worker, NULL);
	}
	fprintf(stderr, "smartssd-devd: serving %s on %s\n", image, sock);
	signal_ready(ready_fd, image, sock);
	for (;;) {
		struct pollfd p[2] = { { .fd = lfd, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (p[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				break;
			}
		}
		if (p[0].revents & POLLIN) {
			accept_one(lfd);
		}
	}
	rc = shut_down(lfd, sock);
	for (int i = 0; i < nworkers; i++) {
		pthread_join(workers[i], NULL);
	}
	/* Readers are detached; wait until every connection is gone before exiting. */
	pthread_mutex_lock(&srv.lock);
	while (srv.nconns > 0) {
		pthread_cond_wait(&srv.idle, &srv.lock);
	}
	pthread_mutex_unlock(&srv.lock);
	close(sfd);
	close(lock_fd);
	return rc == 0 ? 0 : 1;
}
