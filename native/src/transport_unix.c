/*
 * unix: an emulated drive served by smartssd-devd over a unix stream socket.
 *
 * Host queueing after blk-mq (Bjørling et al.): each submitting thread stages its request
 * in its own context, takes a tag from a bounded tag set as deep as the drive's queue
 * (32, SATA NCQ), and dispatches it in FIFO order on the one connection; nothing is
 * reordered after dispatch. A completion thread reads the replies and hands each one,
 * by tag, straight back to the thread that submitted it. When the daemon goes away,
 * every waiter and every later call fails with -ENOTCONN; nothing waits forever.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "errinfo.h"
#include "transport.h"
#include "transport_unix_frame.h"

#define QUEUE_DEPTH 32u
#define WHY_MAX 160

/* One in-flight command; lives in the submitter's frame while it waits. */
struct ux_req {
	struct ss_xfer *x;
	pthread_cond_t done_cv;
	int done;
	int rc;
};

struct unix_transport {
	struct ss_transport base;
	int fd;
	pthread_mutex_t lock;            /* tags, slots, closed */
	pthread_cond_t tag_cv;           /* a tag became free, or the link closed */
	struct ux_req *slots[QUEUE_DEPTH];
	uint32_t busy_mask;              /* tags in use */
	int closed;
	char why[WHY_MAX];               /* why the link closed */
	pthread_mutex_t send_lock;       /* one frame on the socket at a time, FIFO */
	pthread_t completer;
	char path[];
};

static int fail_closed(struct unix_transport *u)
{
	return ss_err(-ENOTCONN, 0, "unix %s: %s", u->path, u->why);
}

/* Mark the link closed and fail every waiter. Caller holds u->lock. */
static void close_locked(struct unix_transport *u, const char *why)
{
	if (!u->closed) {
		u->closed = 1;
		snprintf(u->why, sizeof(u->why), "%s", why);
	}
	for (uint32_t t = 0; t < QUEUE_DEPTH; t++) {
		struct ux_req *r = u->slots[t];

		if (r && !r->done) {
			r->rc = -ENOTCONN;
			r->done = 1;
			pthread_cond_signal(&r->done_cv);
		}
	}
	pthread_cond_broadcast(&u->tag_cv);
}

static void link_down(struct unix_transport *u, const char *why)
{
	pthread_mutex_lock(&u->lock);
	close_locked(u, why);
	pthread_mutex_unlock(&u->lock);
}

static int read_full(int fd, void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t r = recv(fd, p, n, 0);

		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void *completer_main(void *arg)
{
	struct unix_transport *u = arg;
	struct ss_ux_reply_hdr h;
	uint8_t raw[SS_UX_REPLY_HDR_SIZE];
	char why[WHY_MAX];
	struct ux_req *r;

	for (;;) {
		int rc = read_full(u->fd, raw, sizeof(raw));

		if (rc) {
			snprintf(why, sizeof(why), "the daemon went away (%s)",
				 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
			break;
		}
		rc = ss_ux_decode_reply(raw, &h);
		if (rc) {
			snprintf(why, sizeof(why), "the daemon sent a malformed reply header");
			break;
		}
		pthread_mutex_lock(&u->lock);
		r = h.tag < QUEUE_DEPTH ? u->slots[h.tag] : NULL;
		pthread_mutex_unlock(&u->lock);
		if (!r || r->done) {
			snprintf(why, sizeof(why), "the daemon answered tag %u, which is not in flight",
				 h.tag);
			break;
		}
		/* The submitter waits on r until done is set, so r->x is ours to fill. */
		if (h.data_len != (r->x->dir == SS_SAT_DIR_IN ? r->x->len : 0)) {
			snprintf(why, sizeof(why), "the daemon returned %u bytes for a %u-byte buffer",
				 h.data_len, r->x->len);
			break;
		}
		if (h.data_len && read_full(u->fd, r->x->data, h.data_len)) {
			snprintf(why, sizeof(why), "the daemon went away mid-reply");
			break;
		}
		pthread_mutex_lock(&u->lock);
		r->x->scsi_status = h.scsi_status;
		r->x->sense_len = h.sense_len;
		memcpy(r->x->sense, h.sense, h.sense_len);
		r->rc = 0;
		r->done = 1;
		u->slots[h.tag] = NULL;
		u->busy_mask &= ~(1u << h.tag);
		pthread_cond_signal(&r->done_cv);
		pthread_cond_signal(&u->tag_cv);
		pthread_mutex_unlock(&u->lock);
	}
	link_down(u, why);
	return NULL;
}

/* \return a free tag, or -ENOTCONN. Caller holds u->lock. */
static int take_tag_locked(struct unix_transport *u, struct ux_req *r)
{
	while (!u->closed && u->busy_mask == 0xFFFFFFFFu)
		pthread_cond_wait(&u->tag_cv, &u->lock);
	if (u->closed)
		return -ENOTCONN;
	for (uint32_t t = 0; t < QUEUE_DEPTH; t++) {
		if (!(u->busy_mask & (1u << t))) {
			u->busy_mask |= 1u << t;
			u->slots[t] = r;
			return (int)t;
		}
	}
	return -ENOTCONN; /* unreachable: the mask had a zero bit */
}

static int unix_submit(struct ss_transport *t, struct ss_xfer *x)
{
	struct unix_transport *u = (struct unix_transport *)t;
	uint8_t hdr[SS_UX_REQUEST_HDR_SIZE];
	struct ux_req r = {.x = x};
	int tag, rc;

	if (x->dir != SS_SAT_DIR_NONE && x->len > SS_UX_DATA_MAX)
		return ss_err(-E2BIG, 0, "unix %s: a %u-byte transfer exceeds the daemon's limit",
			      u->path, x->len);
	pthread_cond_init(&r.done_cv, NULL);
	pthread_mutex_lock(&u->lock);
	tag = take_tag_locked(u, &r);
	pthread_mutex_unlock(&u->lock);
	if (tag < 0) {
		rc = fail_closed(u);
		goto out;
	}

	ss_ux_encode_request(hdr, (uint32_t)tag, x);
	pthread_mutex_lock(&u->send_lock);
	rc = write_full(u->fd, hdr, sizeof(hdr));
	if (!rc && x->dir == SS_SAT_DIR_OUT && x->len)
		rc = write_full(u->fd, x->data, x->len);
	pthread_mutex_unlock(&u->send_lock);
	/* A half-written frame leaves the stream unusable: shut it down; the completion
	 * thread, the only one that fails waiters (it may be filling one's buffer), then
	 * fails everyone, us included. */
	if (rc)
		shutdown(u->fd, SHUT_RDWR);

	pthread_mutex_lock(&u->lock);
	while (!r.done)
		pthread_cond_wait(&r.done_cv, &u->lock);
	if (u->slots[tag] == &r) { /* failed by close: the completer did not free it */
		u->slots[tag] = NULL;
		u->busy_mask &= ~(1u << tag);
		pthread_cond_signal(&u->tag_cv);
	}
	rc = r.rc;
	pthread_mutex_unlock(&u->lock);
	if (rc)
		rc = fail_closed(u);
out:
	pthread_cond_destroy(&r.done_cv);
	return rc;
}

static int unix_model(struct ss_transport *t, struct ss_dev_model *m)
{
	return ss_err(-ENOTSUP, 0,
		      "unix %s: smartssd-devd's socket carries no model counters (open the image "
		      "with emu: to read them)", t->path);
}

static void unix_close(struct ss_transport *t)
{
	struct unix_transport *u = (struct unix_transport *)t;

	shutdown(u->fd, SHUT_RDWR);
	pthread_join(u->completer, NULL);
	close(u->fd);
	pthread_mutex_destroy(&u->lock);
	pthread_mutex_destroy(&u->send_lock);
	pthread_cond_destroy(&u->tag_cv);
	free(u);
}

static const struct ss_transport_ops unix_ops = {
	.name = "unix",
	.submit = unix_submit,
	.model = unix_model,
	.close = unix_close,
};

int ss_transport_unix_open(const char *path, struct ss_transport **out)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(path);
	struct unix_transport *u;
	int fd, rc;

	if (n >= sizeof(sa.sun_path))
		return ss_err(-ENAMETOOLONG, 0, "unix %s: socket path longer than %zu bytes", path,
			      sizeof(sa.sun_path) - 1);
	memcpy(sa.sun_path, path, n + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ss_err(-errno, 0, "unix %s: socket: %s", path, strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(fd);
		return ss_err(rc, 0, "unix %s: cannot connect to the daemon: %s", path,
			      strerror(-rc));
	}
	u = calloc(1, sizeof(*u) + n + 1);
	if (!u) {
		close(fd);
		return ss_err(-ENOMEM, 0, "unix %s: out of memory", path);
	}
	memcpy(u->path, path, n + 1);
	u->base.ops = &unix_ops;
	u->base.path = u->path;
	u->fd = fd;
	pthread_mutex_init(&u->lock, NULL);
	pthread_mutex_init(&u->send_lock, NULL);
	pthread_cond_init(&u->tag_cv, NULL);
	rc = pthread_create(&u->completer, NULL, completer_main, u);
	if (rc) {
		close(fd);
		free(u);
		return ss_err(-rc, 0, "unix %s: cannot start the completion thread", path);
	}
	*out = &u->base;
	return 0;
}
