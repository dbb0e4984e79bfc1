/*
 * unix: an emulated drive served by smartssd-devd over a unix stream socket.
 *
 * Host queueing after blk-mq (Bjørling et al.): each submitting thread stages its request
 * in its own context, takes a tag from a bounded tag set as deep as the drive's queue
 * (32, SATA NCQ), and dispatches it in FIFO order on the one connection; nothing is
 * reordered after dispatch. Replies come back to their submitters by tag.
 *
 * No thread of our own: while requests are in flight, one of their submitters is the
 * reader. It reads replies off the socket and hands each to its submitter; when its own
 * has come it passes the role to another waiter. A lone submitter thus reads its own
 * reply as soon as it arrives, with no wake-up of another thread on the way. When the
 * daemon goes away, every waiter fails with -ECONNRESET (sent, outcome unknown) and every
 * later call with -ENOTCONN (not sent); nothing waits forever. reconnect() then connects
 * anew once the failed calls have left, so a restarted daemon is reached on the next call.
 * A daemon that will not serve the connection (this user is not allowed; --max-connections
 * are open) says why in a notice before it closes it: the calls on it get that answer, as
 * CHECK CONDITION with the notice's sense, and never ran.
 *
 * SMARTSSD_SPIN_US (default 50; 0: block at once) makes the reader poll for its reply that
 * long before it sleeps (ss_frame_spin): the wake-up of a sleeping thread on another CPU is
 * most of a round trip. Nothing spins while no command is in flight.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "errinfo.h"
#include "transport.h"
#include "transport_unix_frame.h"

#define QUEUE_DEPTH 32u
#define WHY_MAX 160

/* One in-flight request; lives in the submitter's frame while it waits. */
struct ux_req {
	struct ss_xfer *x;               /* a command, or NULL for model counters or the ledger */
	uint8_t *model;                  /* their reply (SS_FRAME_MODEL_MAX bytes) */
	uint32_t model_len;
	pthread_cond_t cv;               /* done, or: the reader's role is free */
	int done;
	int rc;
};

struct unix_transport {
	struct ss_transport base;
	int fd;
	pthread_mutex_t lock;            /* tags, slots, reading, closed */
	pthread_cond_t tag_cv;           /* a tag became free, or the link closed */
	struct ux_req *slots[QUEUE_DEPTH];
	uint32_t busy_mask;              /* tags in use */
	int reading;                     /* a submitter is reading replies */
	int closed;
	char why[WHY_MAX];               /* why the link closed */
	uint8_t notice[SS_FRAME_SENSE_MAX]; /* the daemon's notice, if it sent one */
	uint8_t notice_len;
	pthread_mutex_t send_lock;       /* one frame on the socket at a time, FIFO */
	struct ss_frame_reader in;       /* the reader's; in.fd is the socket */
	uint32_t spin_us;                /* SMARTSSD_SPIN_US */
	char path[];
};

/* Why the link closed, copied under the lock (a reconnect clears it). */
static void why_closed(struct unix_transport *u, char *why)
{
	pthread_mutex_lock(&u->lock);
	snprintf(why, WHY_MAX, "%s", u->why[0] ? u->why : "the link closed");
	pthread_mutex_unlock(&u->lock);
}

/* The command never reached the daemon: -ENOTCONN. */
static int fail_unsent(struct unix_transport *u)
{
	char why[WHY_MAX];

	why_closed(u, why);
	return ss_err(-ENOTCONN, 0, "unix %s: %s; the command was not sent", u->path, why);
}

/* The command was sent and no reply came: -ECONNRESET, its outcome unknown. */
static int fail_in_flight(struct unix_transport *u)
{
	char why[WHY_MAX];

	why_closed(u, why);
	return ss_err(-ECONNRESET, 0, "unix %s: %s while the command was in flight; whether it "
		      "ran is unknown", u->path, why);
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
			r->rc = -ECONNRESET;
			r->done = 1;
			pthread_cond_signal(&r->cv);
		}
	}
	pthread_cond_broadcast(&u->tag_cv);
}

/* The data of a reply that fits its request: into the command's buffer, or the model
 * counters' own. \return 0, or a negative errno with why set. */
static int read_body(struct unix_transport *u, struct ux_req *r, uint32_t len, char *why)
{
	if (!r->x) {
		uint32_t n;

		if (len < 8 || len > SS_FRAME_MODEL_MAX || len % 8) {
			snprintf(why, WHY_MAX, "the daemon sent %u bytes of model counters", len);
			return -EBADMSG;
		}
		if (ss_frame_read(&u->in, r->model, len, 0)) {
			snprintf(why, WHY_MAX, "the daemon went away mid-reply");
			return -ECONNRESET;
		}
		n = ss_get_le32(r->model);
		if ((uint64_t)n * 8 + 8 != len) {
			snprintf(why, WHY_MAX, "the daemon's model counters say %u fields in %u bytes",
				 n, len);
			return -EBADMSG;
		}
		r->model_len = len;
		return 0;
	}
	if (len != (r->x->dir == SS_SAT_DIR_IN ? r->x->len : 0)) {
		snprintf(why, WHY_MAX, "the daemon returned %u bytes for a %u-byte buffer", len,
			 r->x->len);
		return -EBADMSG;
	}
	if (len && ss_frame_read(&u->in, r->x->data, len, 0)) {
		snprintf(why, WHY_MAX, "the daemon went away mid-reply");
		return -ECONNRESET;
	}
	return 0;
}

/* Read one reply and hand it to its submitter; on a broken stream, close the link. The
 * caller is the reader and holds no lock. */
static void read_one(struct unix_transport *u)
{
	uint8_t raw[SS_FRAME_REPLY_HDR];
	struct ss_frame_reply h;
	char why[WHY_MAX];
	struct ux_req *r;
	int rc = ss_frame_read(&u->in, raw, sizeof(raw), 0);

	if (rc) {
		snprintf(why, sizeof(why), "the daemon went away (%s)",
			 rc == -ECONNRESET ? "connection closed" : strerror(-rc));
		goto down;
	}
	if (ss_frame_decode_reply(raw, &h) != SS_FRAME_OK) {
		snprintf(why, sizeof(why), "the daemon sent a malformed reply header");
		goto down;
	}
	if (h.tag == SS_FRAME_TAG_NOTICE) {
		snprintf(why, sizeof(why), "the daemon refused the connection");
		pthread_mutex_lock(&u->lock);
		memcpy(u->notice, h.sense, h.sense_len);
		u->notice_len = h.sense_len;
		close_locked(u, why);
		pthread_mutex_unlock(&u->lock);
		return;
	}
	pthread_mutex_lock(&u->lock);
	r = h.tag < QUEUE_DEPTH ? u->slots[h.tag] : NULL;
	pthread_mutex_unlock(&u->lock);
	if (!r || r->done) {
		snprintf(why, sizeof(why), "the daemon answered tag %u, which is not in flight",
			 h.tag);
		goto down;
	}
	/* r's submitter waits until done is set, so r and its buffers are ours to fill. */
	if (read_body(u, r, h.data_len, why))
		goto down;
	pthread_mutex_lock(&u->lock);
	if (r->x) {
		r->x->scsi_status = h.scsi_status;
		r->x->sense_len = h.sense_len;
		memcpy(r->x->sense, h.sense, h.sense_len);
	}
	r->rc = 0;
	r->done = 1;
	u->slots[h.tag] = NULL;
	u->busy_mask &= ~(1u << h.tag);
	pthread_cond_signal(&r->cv);
	pthread_cond_signal(&u->tag_cv);
	pthread_mutex_unlock(&u->lock);
	return;
down:
	pthread_mutex_lock(&u->lock);
	close_locked(u, why);
	pthread_mutex_unlock(&u->lock);
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

/* Send a request frame (its header gets the tag) and wait for its reply, reading
 * replies meanwhile when nobody else is. \return 0 or a negative errno. */
static int exchange(struct unix_transport *u, struct ux_req *r, uint8_t *hdr,
		    const void *data, uint32_t len)
{
	struct iovec iov[2] = {{hdr, SS_FRAME_REQUEST_HDR}, {(void *)data, len}};
	int tag, rc, unsent;

	pthread_cond_init(&r->cv, NULL);
	pthread_mutex_lock(&u->lock);
	tag = take_tag_locked(u, r);
	pthread_mutex_unlock(&u->lock);
	if (tag < 0) {
		rc = fail_unsent(u);
		goto out;
	}
	ss_put_le32(hdr + 4, (uint32_t)tag);
	pthread_mutex_lock(&u->send_lock);
	unsent = ss_frame_send(u->in.fd, iov, len ? 2 : 1);
	pthread_mutex_unlock(&u->send_lock);
	/* A half-written frame leaves the stream unusable: shut it down; the reader, the
	 * only one that fails waiters (it may be filling one's buffer), then fails
	 * everyone, us included. The daemon runs no frame it did not receive whole, so our
	 * command did not run. */
	if (unsent)
		shutdown(u->in.fd, SHUT_RDWR);

	pthread_mutex_lock(&u->lock);
	while (!r->done) {
		if (!u->reading) {
			u->reading = 1;
			pthread_mutex_unlock(&u->lock);
			ss_frame_spin(&u->in, u->spin_us);
			read_one(u);
			pthread_mutex_lock(&u->lock);
			u->reading = 0;
			continue;
		}
		pthread_cond_wait(&r->cv, &u->lock);
	}
	/*
	 * Leaving: if others are in flight and nobody reads, the role passes on. Every one of
	 * them is woken, not the first: the first may still be sending, not waiting, and
	 * would miss the wake-up; then nobody reads, the daemon blocks writing replies, stops
	 * reading requests, and the sender blocks too (seen as a hang under load).
	 */
	if (!u->reading) {
		for (uint32_t t = 0; t < QUEUE_DEPTH; t++) {
			struct ux_req *o = u->slots[t];

			if (o && o != r && !o->done) {
				pthread_cond_signal(&o->cv);
			}
		}
	}
	if (u->slots[tag] == r) { /* failed by close: the reader did not free it */
		u->slots[tag] = NULL;
		u->busy_mask &= ~(1u << tag);
		pthread_cond_signal(&u->tag_cv);
	}
	rc = r->rc;
	/* Refused by the daemon: nothing ran; the command's answer is the notice. */
	if (rc && u->notice_len && r->x) {
		r->x->scsi_status = SS_SCSI_CHECK_CONDITION;
		r->x->sense_len = u->notice_len;
		memcpy(r->x->sense, u->notice, u->notice_len);
		rc = 0;
		unsent = 0;
	}
	pthread_cond_broadcast(&u->tag_cv);   /* reconnect waits for the slots to empty */
	pthread_mutex_unlock(&u->lock);
	if (unsent)
		rc = fail_unsent(u);
	else if (rc)
		rc = fail_in_flight(u);
out:
	pthread_cond_destroy(&r->cv);
	return rc;
}

static int unix_submit(struct ss_transport *t, struct ss_xfer *x)
{
	struct unix_transport *u = (struct unix_transport *)t;
	uint8_t hdr[SS_FRAME_REQUEST_HDR];
	struct ux_req r = {.x = x};

	if (x->dir != SS_SAT_DIR_NONE && x->len > SS_FRAME_DATA_MAX)
		return ss_err(-E2BIG, 0, "unix %s: a %u-byte transfer exceeds the daemon's limit",
			      u->path, x->len);
	ss_ux_encode_request(hdr, 0, x);
	return exchange(u, &r, hdr, x->data,
			x->dir == SS_SAT_DIR_OUT && x->data ? x->len : 0);
}

static int unix_model(struct ss_transport *t, struct ss_dev_model *m)
{
	struct unix_transport *u = (struct unix_transport *)t;
	uint8_t hdr[SS_FRAME_REQUEST_HDR], buf[SS_FRAME_MODEL_MAX];
	struct ux_req r = {.model = buf};
	int rc;

	ss_ux_encode_model_request(hdr, 0);
	rc = exchange(u, &r, hdr, NULL, 0);
	if (rc)
		return rc;
	ss_ux_decode_model(buf, r.model_len, m);
	return 0;
}

static int unix_ledger(struct ss_transport *t, uint32_t op, uint64_t arg, uint64_t *out,
		       uint32_t cap, uint32_t *n)
{
	struct unix_transport *u = (struct unix_transport *)t;
	uint8_t hdr[SS_FRAME_REQUEST_HDR], buf[SS_FRAME_MODEL_MAX];
	struct ux_req r = {.model = buf};
	struct ss_frame_request f = {.kind = SS_FRAME_LEDGER, .ledger_op = op, .ledger_arg = arg};
	int32_t status;
	int rc;

	*n = 0;
	ss_frame_encode_request(hdr, &f);
	rc = exchange(u, &r, hdr, NULL, 0);
	if (rc)
		return rc;
	status = (int32_t)ss_get_le32(buf + 4);
	if (status > 0)
		return ss_err(-EBADMSG, 0, "unix %s: the daemon's ledger reply has status %d",
			      u->path, (int)status);
	for (uint32_t i = 0; i < cap; i++)
		out[i] = ss_frame_model_at(buf, r.model_len, i);
	*n = ss_get_le32(buf) < cap ? ss_get_le32(buf) : cap;
	return status;
}

static void unix_close(struct ss_transport *t)
{
	struct unix_transport *u = (struct unix_transport *)t;

	shutdown(u->in.fd, SHUT_RDWR);
	close(u->in.fd);
	pthread_mutex_destroy(&u->lock);
	pthread_mutex_destroy(&u->send_lock);
	pthread_cond_destroy(&u->tag_cv);
	free(u);
}

/* \return a connected socket, or a negative errno with the message set. */
static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(path);
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
	return fd;
}

static int unix_reconnect(struct ss_transport *t)
{
	struct unix_transport *u = (struct unix_transport *)t;
	int fd;

	pthread_mutex_lock(&u->lock);
	/* The calls in flight were failed by the close; they leave and free their tags. */
	while (u->closed && u->busy_mask)
		pthread_cond_wait(&u->tag_cv, &u->lock);
	if (!u->closed) {
		pthread_mutex_unlock(&u->lock);
		return 0;
	}
	fd = connect_to(u->path);
	if (fd < 0) {
		pthread_mutex_unlock(&u->lock);
		return ss_err(-ENOTCONN, 0, "unix %s: the daemon is not serving (%s); the command "
			      "was not sent", u->path, strerror(-fd));
	}
	close(u->in.fd);
	ss_frame_reader_init(&u->in, fd);
	u->closed = 0;
	u->why[0] = '\0';
	u->notice_len = 0;
	pthread_cond_broadcast(&u->tag_cv);
	pthread_mutex_unlock(&u->lock);
	return 1;
}

static const struct ss_transport_ops unix_ops = {
	.name = "unix",
	.submit = unix_submit,
	.reconnect = unix_reconnect,
	.model = unix_model,
	.ledger = unix_ledger,
	.close = unix_close,
};

int ss_transport_unix_open(const char *path, struct ss_transport **out)
{
	size_t n = strlen(path);
	struct unix_transport *u;
	uint32_t spin_us;
	int fd, rc = ss_spin_setting("unix", path, &spin_us);

	if (rc)
		return rc;
	fd = connect_to(path);
	if (fd < 0)
		return fd;
	u = calloc(1, sizeof(*u) + n + 1);
	if (!u) {
		close(fd);
		return ss_err(-ENOMEM, 0, "unix %s: out of memory", path);
	}
	memcpy(u->path, path, n + 1);
	u->base.ops = &unix_ops;
	u->base.path = u->path;
	ss_frame_reader_init(&u->in, fd);
	u->spin_us = spin_us;
	pthread_mutex_init(&u->lock, NULL);
	pthread_mutex_init(&u->send_lock, NULL);
	pthread_cond_init(&u->tag_cv, NULL);
	*out = &u->base;
	return 0;
}
