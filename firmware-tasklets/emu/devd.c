/*
 * smartssd-devd: serves one emulated drive to many processes over a unix stream socket.
 * The framing is in README.md ("Daemon socket framing"). A reader thread per connection
 * decodes requests. In virtual time it runs each command itself (ss_emu_submit executes
 * on the calling thread) and writes the reply: no hand-off between threads. In realtime
 * mode a command's submitter sleeps until its modelled completion, so the reader hands
 * commands to a pool of SS_EMU_QUEUE_DEPTH workers instead, and a writer thread of the
 * connection sends their replies: a client that stops reading blocks only its own writer.
 *
 * What a client can make the daemon hold is bounded: connections (--max-connections),
 * unanswered requests per connection (the queue depth), and data buffers (--buffer-mib,
 * taken as data arrives, so a declared length costs nothing until its bytes come); a
 * frame must arrive whole within --frame-timeout seconds of its first byte. What it makes
 * the drive hold (sessions, the replies they wait to have received, tasklet instances) is
 * the connection's: each command runs as the connection's (ss_emu_submit_as), and all of
 * it is reclaimed when the connection closes, however its client ended.
 *
 * A peer the allow-list refuses, or one past --max-connections, gets a notice frame
 * (SS_FRAME_TAG_NOTICE) saying why and is closed at once: it holds no thread and no
 * place among the connections, and its refusals are logged at most once per uid (and once
 * for the limit) per REFUSAL_LOG_MS, with a count of those not logged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifdef SS_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "devd_internal.h"
#include "ss_devd_frame.h"
#include "ss_emu.h"
#include "ss_emu_ledger.h"
#include "ss_proto.h"
#include "ss_fw.h"
#include "ss_rt.h"

#define REP_SENSE SS_FRAME_SENSE_MAX
#define MAX_DATA SS_FRAME_DATA_MAX
#define CONN_DEPTH SS_EMU_QUEUE_DEPTH   /* unanswered requests one connection may have */
#define CHUNK (1u << 20)                /* data is read, and its memory taken, by chunks */
#define KEEP_BUF (1u << 20)             /* buffer a connection keeps between commands */
#define REFUSAL_LOG_MS 10000            /* a uid's refusals are logged this often, at most */
#define REFUSAL_UIDS 16                 /* uids whose refusals are counted at once */
/* A connection's threads run firmware commands (in virtual time), which need far less
 * than the default 8 MiB stack; reserving that per connection would not be bounded. */
#define THREAD_STACK (2u << 20)
#define MODEL_FIELDS (sizeof(struct ss_wire_model) / sizeof(uint64_t))
/* A model counter into the reply after its count, by name (SS_REPLY_MODEL). */
#define MODEL_PUT(cn, kind, name, bytes)                                                  \
	ss_put_le64(r->model + 8 + offsetof(struct ss_wire_model, name), (cn).name);

_Static_assert(sizeof(struct ss_emu_counters) % sizeof(uint64_t) == 0,
	       "the counters are a sequence of u64");

/* Descriptor-format sense for refusals made by the daemon itself. */
static const uint8_t sense_aborted[8] = { 0x72, 0x0B, 0, 0, 0, 0, 0, 0 };
static const uint8_t sense_access_denied[8] = SS_FRAME_NOTICE_ACCESS_DENIED;
static const uint8_t sense_too_many[8] = SS_FRAME_NOTICE_TOO_MANY;

struct req;

struct conn {
	int fd;
	struct ss_frame_reader in; /* the reader thread's */
	struct devd_peer peer;
	uint32_t owner;            /* its client id at the drive (ss_emu_submit_as) */
	pthread_mutex_t wlock;     /* one reply on the wire at a time */
	int refs;                  /* reader + writer + requests not yet answered (srv.lock) */
	int dead;                  /* the peer went away: drop replies (wlock) */
	int pending;               /* admitted and not yet answered (srv.lock) */
	int reader_done;           /* no more requests will come (srv.lock) */
	struct req *out_head, *out_tail;   /* realtime: answered, for the writer (srv.lock) */
	pthread_cond_t out_cv;
	struct conn *next;         /* in the server's list */
	uint8_t *buf;              /* the reader's data buffer (direct execution) */
	uint32_t buf_cap;          /* its size, taken from the buffer budget */
	uint64_t client;           /* its key in the drive's energy ledger */
};

struct req {
	struct conn *c;
	struct ss_frame_request f;  /* kind, tag, CDB, dir, data length */
	uint8_t *data;
	uint32_t data_cap;         /* of data, when the request owns it */
	int owns_data;
	/* the answer */
	uint8_t status;
	uint8_t sense_len;
	uint8_t sense[REP_SENSE];
	const void *out;
	uint32_t out_len;
	uint8_t model[8 + 8 * MODEL_FIELDS];
	struct req *next;
};

static struct {
	struct ss_emu_drive *drive;
	int direct;                /* readers execute commands themselves */
	int max_conns;
	int frame_timeout_ms;
	uint32_t spin_us;          /* readers busy-poll this long for a request before blocking */
	uint64_t buf_limit;        /* bytes of data buffers at once */
	uint64_t buf_used;
	pthread_mutex_t lock;
	pthread_cond_t work;       /* workers wait for requests */
	pthread_cond_t room;       /* readers wait for room: their queue, the buffer budget */
	pthread_cond_t idle;       /* shutdown waits for the queue to drain */
	struct req *head, *tail;
	int pending;               /* admitted and not yet answered */
	int stopping;
	struct conn *conns;
	int nconns;
	uint32_t next_owner;       /* the main thread's */
	struct devd_access access;
	/* for the metrics (srv.lock) */
	uint64_t accepted, refused_access, refused_limit;
	int nledger;
	struct { uint32_t uid; uint64_t tasks, nj; } ledger[DEVD_LEDGER_UIDS];
} srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.room = PTHREAD_COND_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
};

/* Take n bytes of the buffer budget, waiting for others to give some back.
 * \return 0, or -1 when the daemon is stopping. */
static int budget_take(uint64_t n)
{
	int rc = 0;

	pthread_mutex_lock(&srv.lock);
	while (srv.buf_used + n > srv.buf_limit && !srv.stopping) {
		pthread_cond_wait(&srv.room, &srv.lock);
	}
	if (srv.stopping) {
		rc = -1;
	} else {
		srv.buf_used += n;
	}
	pthread_mutex_unlock(&srv.lock);
	return rc;
}

static void budget_give(uint64_t n)
{
	if (n == 0) {
		return;
	}
	pthread_mutex_lock(&srv.lock);
	srv.buf_used -= n;
	pthread_cond_broadcast(&srv.room);
	pthread_mutex_unlock(&srv.lock);
}

/* Grow *buf to at least need bytes, its growth taken from the budget.
 * \return 0, or -1 (stopping, or out of memory). */
static int buf_grow(uint8_t **buf, uint32_t *cap, uint32_t need)
{
	uint32_t want = *cap ? *cap : 4096;
	uint8_t *b;

	if (need <= *cap) {
		return 0;
	}
	while (want < need) {
		want = want > MAX_DATA / 2 ? MAX_DATA : want * 2;
	}
	if (budget_take(want - *cap) != 0) {
		return -1;
	}
	b = realloc(*buf, want);
	if (b == NULL) {
		budget_give(want - *cap);
		return -1;
	}
	*buf = b;
	*cap = want;
	return 0;
}

static void buf_free(uint8_t **buf, uint32_t *cap)
{
	free(*buf);
	budget_give(*cap);
	*buf = NULL;
	*cap = 0;
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
		/* Under srv.lock, and only before stopping: the main thread closes the drive once
		 * it has set stopping, and a connection may close after that. */
		if (!srv.stopping) {
			ss_emu_ledger_drop_client(srv.drive, c->client);
			ss_emu_owner_gone(srv.drive, c->owner);
		}
		pthread_cond_broadcast(&srv.idle);
	}
	pthread_mutex_unlock(&srv.lock);
	if (last) {
		close(c->fd);
		pthread_mutex_destroy(&c->wlock);
		pthread_cond_destroy(&c->out_cv);
		buf_free(&c->buf, &c->buf_cap);
		free(c);
	}
}

/* Write a request's answer: header, then its out_len bytes of data. */
static void reply(struct req *r)
{
	struct ss_frame_reply rep = { .tag = r->f.tag, .scsi_status = r->status,
				      .sense_len = r->sense_len, .data_len = r->out_len };
	uint8_t h[SS_FRAME_REPLY_HDR];
	struct iovec iov[2] = { { h, sizeof(h) }, { (void *)r->out, r->out_len } };
	struct conn *c = r->c;

	memcpy(rep.sense, r->sense, r->sense_len);
	ss_frame_encode_reply(h, &rep);
	pthread_mutex_lock(&c->wlock);
	if (!c->dead && ss_frame_send(c->fd, iov, r->out_len > 0 ? 2 : 1) != 0) {
		c->dead = 1;
		shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&c->wlock);
}

static void answer_refused(struct req *r, const uint8_t sense[8])
{
	r->status = SS_EMU_SCSI_CHECK_CONDITION;
	r->sense_len = 8;
	memcpy(r->sense, sense, 8);
	r->out = NULL;
	r->out_len = 0;
}

/* A share's field into the reply after its count and status, by name. */
#define SHARE_PUT(sh, kind, name, bytes)                                                  \
	ss_put_le64(r->model + 8 + offsetof(struct ss_wire_task_share, name), (sh).name);

_Static_assert(sizeof(struct ss_emu_task_share) == sizeof(struct ss_wire_task_share),
	       "the ledger's share has the fields of SS_REPLY_TASK_SHARE");
_Static_assert(sizeof(struct ss_wire_task_share) <= 8 * MODEL_FIELDS,
	       "a share fits the model reply's buffer");

/* A share delivered, counted for the metrics by the peer's uid: DEVD_LEDGER_UIDS - 1 uids
 * each, then every other one under UINT32_MAX, the last entry. */
static void ledger_count(uid_t uid, uint64_t nj)
{
	uint32_t key = (uint32_t)uid;
	int i;

	pthread_mutex_lock(&srv.lock);
	if (srv.nledger >= DEVD_LEDGER_UIDS - 1) {
		for (i = 0; i < srv.nledger && srv.ledger[i].uid != key; i++) {
		}
		if (i == srv.nledger) {
			key = UINT32_MAX;
		}
	}
	for (i = 0; i < srv.nledger && srv.ledger[i].uid != key; i++) {
	}
	if (i == srv.nledger) {
		srv.ledger[srv.nledger++].uid = key;
	}
	srv.ledger[i].tasks++;
	srv.ledger[i].nj += nj;
	pthread_mutex_unlock(&srv.lock);
}

/* The daemon's counts for its metrics (devd_stats_fn). */
static void stats(struct devd_stats *st)
{
	pthread_mutex_lock(&srv.lock);
	st->conns = srv.nconns;
	st->max_conns = srv.max_conns;
	st->accepted = srv.accepted;
	st->refused_access = srv.refused_access;
	st->refused_limit = srv.refused_limit;
	st->nledger = srv.nledger;
	memcpy(st->ledger, srv.ledger, sizeof(st->ledger));
	pthread_mutex_unlock(&srv.lock);
}

/* An energy-ledger request of the connection's client (ss_emu_ledger.h). */
static void serve_ledger(struct req *r)
{
	struct ss_emu_task_share sh;
	uint64_t ticket = 0;
	uint32_t n = 0;
	int rc;

	switch (r->f.ledger_op) {
	case SS_LEDGER_JOIN:
		rc = ss_emu_ledger_join(srv.drive, r->c->client, r->f.ledger_arg, &ticket);
		if (rc == 0) {
			ss_put_le64(r->model + 8, ticket);
			n = 1;
		}
		break;
	case SS_LEDGER_LEAVE:
		rc = ss_emu_ledger_leave(srv.drive, r->c->client, r->f.ledger_arg);
		break;
	case SS_LEDGER_ABANDON:
		rc = ss_emu_ledger_abandon(srv.drive, r->c->client, r->f.ledger_arg);
		break;
	default:
		rc = ss_emu_ledger_share(srv.drive, r->c->client, r->f.ledger_arg, &sh);
		if (rc == 0) {
			ledger_count(r->c->peer.uid, sh.task_nj);
			SS_REPLY_TASK_SHARE(SHARE_PUT, sh)
			n = (uint32_t)(sizeof(struct ss_wire_task_share) / 8);
		}
		break;
	}
	ss_put_le32(r->model, n);
	ss_put_le32(r->model + 4, (uint32_t)rc);
	r->status = SS_EMU_SCSI_GOOD;
	r->out = r->model;
	r->out_len = 8 + 8 * n;
}

/* Execute a request; its answer is left in it. */
static void serve(struct req *r)
{
	int n;

	r->out = NULL;
	r->out_len = 0;
	r->sense_len = 0;
	if (r->f.kind == SS_FRAME_MODEL) {
		struct ss_emu_counters cn;

		ss_emu_get_counters(srv.drive, &cn);
		ss_put_le32(r->model, (uint32_t)MODEL_FIELDS);
		ss_put_le32(r->model + 4, 0);
		SS_REPLY_MODEL(MODEL_PUT, cn)
		r->status = SS_EMU_SCSI_GOOD;
		r->out = r->model;
		r->out_len = sizeof(r->model);
		return;
	}
	if (r->f.kind == SS_FRAME_LEDGER) {
		serve_ledger(r);
		return;
	}
	memset(r->sense, 0, sizeof(r->sense));
	n = ss_emu_submit_as(srv.drive, r->c->owner, r->f.cdb, r->data, r->f.data_len,
			     (int)r->f.dir, r->sense, sizeof(r->sense), &r->status);
	if (n < 0) {
		/* the drive refused the call itself: report an aborted command */
		answer_refused(r, sense_aborted);
		return;
	}
	r->sense_len = (uint8_t)SS_MIN((uint32_t)n, REP_SENSE);
	if (r->f.dir == SS_FRAME_DIR_FROM_DRIVE) {
		r->out = r->data;
		r->out_len = r->f.data_len;
	}
}

/* A request answered: release what it held. */
static void done(struct req *r)
{
	struct conn *c = r->c;

	if (r->owns_data) {
		buf_free(&r->data, &r->data_cap);
	}
	pthread_mutex_lock(&srv.lock);
	srv.pending--;
	c->pending--;
	pthread_cond_broadcast(&srv.room);
	pthread_cond_broadcast(&srv.idle);
	pthread_cond_broadcast(&c->out_cv);
	pthread_mutex_unlock(&srv.lock);
	conn_put(c);
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		struct req *r;
		struct conn *c;

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
		/* The connection's writer sends it: a peer that does not read holds no worker. */
		c = r->c;
		r->next = NULL;
		pthread_mutex_lock(&srv.lock);
		if (c->out_tail != NULL) {
			c->out_tail->next = r;
		} else {
			c->out_head = r;
		}
		c->out_tail = r;
		pthread_cond_signal(&c->out_cv);
		pthread_mutex_unlock(&srv.lock);
	}
}

/* Realtime mode: sends a connection's answered requests, until its reader is done and
 * nothing it admitted is left. */
static void *writer(void *arg)
{
	struct conn *c = arg;

	for (;;) {
		struct req *r;

		pthread_mutex_lock(&srv.lock);
		while (c->out_head == NULL && !(c->reader_done && c->pending == 0)) {
			pthread_cond_wait(&c->out_cv, &srv.lock);
		}
		r = c->out_head;
		if (r != NULL) {
			c->out_head = r->next;
			if (c->out_head == NULL) {
				c->out_tail = NULL;
			}
		}
		pthread_mutex_unlock(&srv.lock);
		if (r == NULL) {
			break;
		}
		reply(r);
		done(r);
		free(r);
	}
	conn_put(c);
	return NULL;
}

/* The data buffer of a command: the connection's own when the reader executes it, else
 * one the request takes with it; grown as the data arrives, so a declared length costs
 * nothing before its bytes come. \return 0, or -1 (end of stream, timeout, stopping or
 * out of memory). */
static int read_data(struct conn *c, struct req *r, long long deadline)
{
	uint8_t **buf = srv.direct ? &c->buf : &r->data;
	uint32_t *cap = srv.direct ? &c->buf_cap : &r->data_cap;
	uint32_t got = 0;

	r->owns_data = !srv.direct;
	if (r->f.data_len == 0) {
		r->data = *buf;
		return 0;
	}
	if (r->f.dir == SS_FRAME_DIR_FROM_DRIVE) {
		if (buf_grow(buf, cap, r->f.data_len) != 0) {
			return -1;
		}
		/* Only this connection's earlier commands have used it: whatever a failed
		 * command sends back from it (data is unspecified on CHECK CONDITION) was the
		 * peer's own. */
		if (!srv.direct) {
			memset(*buf, 0, r->f.data_len);
		}
		r->data = *buf;
		return 0;
	}
	while (got < r->f.data_len) {
		uint32_t next = SS_MIN(r->f.data_len, got + CHUNK);
		int rc;

		if (buf_grow(buf, cap, next) != 0) {
			return -1;
		}
		rc = ss_frame_read(&c->in, *buf + got, next - got, deadline);
		if (rc != 0) {
			return rc;
		}
		got = next;
	}
	r->data = *buf;
	return 0;
}

/* \return 0 and a request, or -1 at end of stream, on a malformed or late frame. */
static int read_request(struct conn *c, struct req *r)
{
	uint8_t h[SS_FRAME_REQUEST_HDR];
	enum ss_frame_error bad;
	long long deadline;
	int rc;

	memset(r, 0, sizeof(*r));
	r->c = c;
	/* Waiting for a frame has no limit; once its first byte is here, the rest has one. */
	rc = ss_frame_read(&c->in, h, 1, 0);
	if (rc == 0) {
		deadline = ss_frame_now_ms() + srv.frame_timeout_ms;
		rc = ss_frame_read(&c->in, h + 1, sizeof(h) - 1, deadline);
	}
	if (rc != 0) {
		goto fail;
	}
	bad = ss_frame_decode_request(h, &r->f);
	if (bad != SS_FRAME_OK) {
		fprintf(stderr, "smartssd-devd: malformed request from pid %ld (%s: dir %u, %u bytes, "
			"at most %u); closing the connection\n", (long)c->peer.pid,
			ss_frame_error_name(bad), r->f.dir, r->f.data_len, MAX_DATA);
		return -1;
	}
	if (r->f.kind != SS_FRAME_COMMAND) {
		return 0;
	}
	rc = read_data(c, r, deadline);
	if (rc != 0) {
		if (r->owns_data) {
			buf_free(&r->data, &r->data_cap);
		}
		goto fail;
	}
	return 0;
fail:
	if (rc == -ETIMEDOUT) {
		fprintf(stderr, "smartssd-devd: a frame from pid %ld (uid %u) did not arrive whole "
			"within %d ms; closing the connection\n", (long)c->peer.pid,
			(unsigned)c->peer.uid, srv.frame_timeout_ms);
	}
	return -1;
}

/* Count a request in, waiting while the connection has CONN_DEPTH unanswered.
 * \return 0, or -1 when stopping. */
static int admit(struct conn *c)
{
	pthread_mutex_lock(&srv.lock);
	while (c->pending >= CONN_DEPTH && !srv.stopping) {
		pthread_cond_wait(&srv.room, &srv.lock);
	}
	if (srv.stopping) {
		pthread_mutex_unlock(&srv.lock);
		return -1;
	}
	srv.pending++;
	c->pending++;
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

/* Direct execution: the connection keeps a small buffer between commands, not its
 * largest one, so idle connections hold little. */
static void trim_buffer(struct conn *c)
{
	if (c->buf_cap > KEEP_BUF) {
		buf_free(&c->buf, &c->buf_cap);
	}
}

static void *reader(void *arg)
{
	struct conn *c = arg;
	struct req r;

	for (;;) {
		ss_frame_spin(&c->in, srv.spin_us);
		if (read_request(c, &r) != 0) {
			break;
		}
		if (admit(c) != 0) {
			if (r.owns_data) {
				buf_free(&r.data, &r.data_cap);
			}
			break;
		}
		if (srv.direct || r.f.kind != SS_FRAME_COMMAND) {
			serve(&r);
			reply(&r);
			done(&r);
			if (srv.direct) {
				trim_buffer(c);
			}
			continue;
		}
		{
			struct req *q = malloc(sizeof(*q));

			if (q == NULL) {
				answer_refused(&r, sense_aborted);
				reply(&r);
				done(&r);
				continue;
			}
			*q = r;
			enqueue(q);
		}
	}
	pthread_mutex_lock(&srv.lock);
	if (!srv.stopping) {
		/* the peer left (or broke the framing): its pending replies are dropped */
		pthread_mutex_lock(&c->wlock);
		c->dead = 1;
		pthread_mutex_unlock(&c->wlock);
	}
	c->reader_done = 1;
	pthread_cond_broadcast(&c->out_cv);
	pthread_mutex_unlock(&srv.lock);
	conn_put(c);
	return NULL;
}

/*
 * The connections whose peer has not hung up (srv.lock held). A connection the client has
 * closed stays in the list until its threads see the end and wind down, which on a loaded
 * machine can be long after the client's close() returned: counted against
 * --max-connections, it would refuse a client that closed some connections and opened a
 * new one at once. The kernel marks the daemon's end of a closed unix socket hung up before
 * the client's close() returns, so the count is exact when the new connection arrives. An
 * fd in the list is open: conn_put closes it only after taking it out, under srv.lock.
 */
static int live_conns_locked(void)
{
	int live = 0;

	for (struct conn *c = srv.conns; c != NULL; c = c->next) {
		struct pollfd pf = { .fd = c->fd, .events = POLLRDHUP };

		if (poll(&pf, 1, 0) == 1 && (pf.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) {
			continue;
		}
		live++;
	}
	return live;
}

/* Refusals counted since each was last logged; the main thread's. */
static struct refusal_log {
	uid_t uid;
	int used;
	long long logged_ms;       /* when one was last logged */
	unsigned long unlogged;    /* refused since, not logged */
} refusals[REFUSAL_UIDS], over_limit;

/*
 * \return whether to log this refusal now, and in *unlogged how many went unlogged since
 * the last one that was: each kind at most once per REFUSAL_LOG_MS, so a peer that keeps
 * reconnecting costs a line per interval, not per connection.
 */
static int refusal_due(struct refusal_log *l, unsigned long *unlogged)
{
	long long now = ss_frame_now_ms();

	if (l->used && now - l->logged_ms < REFUSAL_LOG_MS) {
		l->unlogged++;
		return 0;
	}
	*unlogged = l->used ? l->unlogged : 0;
	l->used = 1;
	l->logged_ms = now;
	l->unlogged = 0;
	return 1;
}

/* The uid's entry, else the one logged longest ago (its unlogged count is reported now). */
static struct refusal_log *refusal_of(uid_t uid)
{
	struct refusal_log *oldest = &refusals[0];

	for (int i = 0; i < REFUSAL_UIDS; i++) {
		struct refusal_log *l = &refusals[i];

		if (l->used && l->uid == uid) {
			return l;
		}
		if (!l->used || (oldest->used && l->logged_ms < oldest->logged_ms)) {
			oldest = l;
		}
	}
	if (oldest->used && oldest->unlogged > 0) {
		fprintf(stderr, "smartssd-devd: refused uid %u %lu more times: not in --allow-uid "
			"or --allow-gid\n", (unsigned)oldest->uid, oldest->unlogged);
	}
	memset(oldest, 0, sizeof(*oldest));
	oldest->uid = uid;
	return oldest;
}

/* Tell the peer why it is not served (a reply to no request), and close it at once. A new
 * connection's send buffer is empty: the notice never blocks. */
static void notice_and_close(int fd, const uint8_t sense[8])
{
	struct ss_frame_reply rep = { .tag = SS_FRAME_TAG_NOTICE,
				      .scsi_status = SS_EMU_SCSI_CHECK_CONDITION, .sense_len = 8 };
	uint8_t h[SS_FRAME_REPLY_HDR];

	memcpy(rep.sense, sense, 8);
	ss_frame_encode_reply(h, &rep);
	(void)!send(fd, h, sizeof(h), MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}

static void accept_one(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	struct devd_peer peer;
	struct conn *c;
	pthread_attr_t a;
	pthread_t t;
	unsigned long unlogged;
	int threads = srv.direct ? 1 : 2, full, allowed;

	if (fd < 0) {
		return;
	}
	allowed = devd_access_check(&srv.access, fd, &peer);
	if (allowed != 1) {
		pthread_mutex_lock(&srv.lock);
		srv.refused_access++;
		pthread_mutex_unlock(&srv.lock);
		if (allowed < 0) {
			fprintf(stderr, "smartssd-devd: cannot read a peer's credentials: %s; "
				"closing its connection\n", strerror(errno));
		} else if (refusal_due(refusal_of(peer.uid), &unlogged)) {
			fprintf(stderr, "smartssd-devd: refused pid %ld (uid %u, gid %u): not in "
				"--allow-uid or --allow-gid (%lu more refused since the last such "
				"line; one a %d s at most)\n", (long)peer.pid, (unsigned)peer.uid,
				(unsigned)peer.gid, unlogged, REFUSAL_LOG_MS / 1000);
		}
		notice_and_close(fd, sense_access_denied);
		return;
	}
	pthread_mutex_lock(&srv.lock);
	full = srv.nconns >= srv.max_conns && live_conns_locked() >= srv.max_conns;
	srv.refused_limit += full;
	pthread_mutex_unlock(&srv.lock);
	if (full) {
		if (refusal_due(&over_limit, &unlogged)) {
			fprintf(stderr, "smartssd-devd: %d connections open (--max-connections); "
				"refused pid %ld (uid %u) (%lu more refused since the last such line; "
				"one a %d s at most)\n", srv.max_conns, (long)peer.pid,
				(unsigned)peer.uid, unlogged, REFUSAL_LOG_MS / 1000);
		}
		notice_and_close(fd, sense_too_many);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->peer = peer;
	c->client = ss_emu_ledger_client(srv.drive);
	if (++srv.next_owner == 0) {
		srv.next_owner = 1;
	}
	c->owner = srv.next_owner;
	ss_frame_reader_init(&c->in, fd);
	c->refs = threads;
	pthread_mutex_init(&c->wlock, NULL);
	pthread_cond_init(&c->out_cv, NULL);
	pthread_mutex_lock(&srv.lock);
	c->next = srv.conns;
	srv.conns = c;
	srv.nconns++;
	srv.accepted++;
	pthread_mutex_unlock(&srv.lock);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, THREAD_STACK);
	if (threads == 2 && pthread_create(&t, &a, writer, c) != 0) {
		conn_put(c);   /* neither thread runs: both references go */
		conn_put(c);
		pthread_attr_destroy(&a);
		return;
	}
	if (pthread_create(&t, &a, reader, c) != 0) {
		pthread_mutex_lock(&srv.lock);
		c->reader_done = 1;   /* the writer, if any, finds nothing to wait for */
		pthread_cond_broadcast(&c->out_cv);
		pthread_mutex_unlock(&srv.lock);
		conn_put(c);
	}
	pthread_attr_destroy(&a);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: smartssd-devd --image FILE --socket PATH [--time-mode virtual|realtime]\n"
		"                     [--background thread|manual]\n"
		"                     [--format [--force] [--profile NAME|PATH] [--cache-share PCT]\n"
		"                               [--interface ftl|open-channel|zoned]]\n"
		"                     [--discard-nvram]\n"
		"                     [--ready-fd N]\n"
		"                     [--allow-uid USERS] [--allow-gid GROUPS]\n"
		"                     [--socket-mode OCTAL] [--socket-group GROUP]\n"
		"                     [--max-connections N] [--frame-timeout SECONDS]\n"
		"                     [--buffer-mib MIB] [--spin-us MICROSECONDS]\n"
		"                     [--withhold-opcodes NAME[,NAME...]]\n"
		"                     [--metrics [ADDRESS:]PORT]\n"
		"Serves the emulated drive in FILE on the unix socket PATH. --format creates and\n"
		"formats FILE first (erasing it), with PCT %% of its flash (0: none; default: 25\n"
		"where the flash has room for a cache part, else none)\n"
		"for the solid-state cache. It refuses a FILE that is not an image, or an image\n"
		"that holds objects, unless --force is given. --interface open-channel or zoned\n"
		"formats the whole flash as chunks the host writes itself (PROTOCOL.md 4.8): no\n"
		"object store, tasklets or cache; ftl, the default, is the drive with them.\n"
		"--discard-nvram: start the merge cache's NVRAM (FILE.nvram) empty even when it is\n"
		"missing, another drive's or corrupt (a mount refuses such an NVRAM otherwise),\n"
		"dropping the acknowledged writes it held; the daemon says what it dropped.\n"
		"Once PATH accepts connections, the daemon writes\n"
		"READY=1 and a newline to file descriptor N, and notifies systemd when\n"
		"NOTIFY_SOCKET is set. PATH.lock beside the socket keeps one daemon per path.\n"
		"Under socket activation (LISTEN_FDS=1) it serves the passed socket, which must\n"
		"be bound to PATH, and leaves that socket in place when it stops.\n"
		"Access: the socket gets --socket-mode (default 0660) and --socket-group; then\n"
		"only peers whose user is in --allow-uid, or one of whose groups is in\n"
		"--allow-gid, may use the drive (comma-separated names or numbers; by default,\n"
		"the daemon's own user). Others get ACCESS DENIED. Limits: --max-connections\n"
		"(default 128), --frame-timeout for a frame to arrive whole once it started\n"
		"(default 30 s), --buffer-mib of data buffers at once (default 256).\n"
		"--spin-us: after each request, poll for the next one this long before sleeping\n"
		"(default: $SMARTSSD_SPIN_US, else 50; 0: sleep at once): a request that comes\n"
		"within it is served without a wake-up. An idle connection sleeps. The drive's\n"
		"controller polls for work as long after its last slice, and for the firmware's\n"
		"lock, before it sleeps.\n"
		"--background manual (for tests only; default: thread): no controller thread,\n"
		"so no background work ever runs (no GC, no checkpoint, no tasklet run makes\n"
		"progress): a run that was EXECUTEd stays queued with no page done until the\n"
		"daemon ends, a fixed state that other processes can observe.\n"
		"--metrics: serve the drive's figures to Prometheus (text format 0.0.4) on\n"
		"GET http://ADDRESS:PORT/metrics; ADDRESS defaults to 127.0.0.1 (loopback only),\n"
		"an IPv6 one goes in brackets; port 0: one the system chooses, reported as\n"
		"METRICS=ADDRESS:PORT after READY=1 on --ready-fd, in systemd's STATUS and in the\n"
		"log. Off by default.\n"
		"--withhold-opcodes (for tests of hosts against older drives): the firmware\n"
		"answers these opcodes (names as in native/PROTOCOL.md, e.g. ISP_QUEUE) with\n"
		"BAD_OPCODE, as firmware that predates them does.\n");
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
	/* Ours to remove: the lock file keeps every other daemon off this path. An activated
	 * socket (sock NULL) is systemd's, which keeps it listening for the next start. */
	if (sock != NULL) {
		unlink(sock);
	}
	pthread_mutex_lock(&srv.lock);
	srv.stopping = 1;
	for (c = srv.conns; c != NULL; c = c->next) {
		shutdown(c->fd, SHUT_RD);   /* readers stop taking requests */
	}
	pthread_cond_broadcast(&srv.room);
	/* Every admitted command runs to its end. A peer that does not read its replies gets
	 * SHUT_WR after the grace period, so its writer's send fails instead of holding the
	 * shutdown. */
	{
		struct timespec grace;

		clock_gettime(CLOCK_REALTIME, &grace);
		grace.tv_sec += 10;
		while (srv.pending > 0 &&
		       pthread_cond_timedwait(&srv.idle, &srv.lock, &grace) != ETIMEDOUT) {
		}
		if (srv.pending > 0) {
			for (c = srv.conns; c != NULL; c = c->next) {
				shutdown(c->fd, SHUT_RDWR);
			}
		}
		while (srv.pending > 0) {
			pthread_cond_wait(&srv.idle, &srv.lock);
		}
	}
	pthread_cond_broadcast(&srv.work);
	pthread_mutex_unlock(&srv.lock);
	rc = ss_emu_close(srv.drive);
	if (rc != 0) {
		fprintf(stderr, "smartssd-devd: clean shutdown of the drive failed (%d)\n", rc);
	}
	return rc;
}

/* \return the value of a whole-number option in [min, max], or -1 after a message. */
static long long parse_number(const char *opt, const char *arg, int base, long long min,
			      long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, base);
	if (errno != 0 || *arg == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "smartssd-devd: %s takes a number from %lld to %lld, not '%s'\n",
			opt, min, max, arg);
		return -1;
	}
	return v;
}

/* The command line (usage()): the drive to serve, where, and the server's limits. */
struct devd_opts {
	const char *image;
	const char *sock;
	struct ss_emu_drive_opts drive;
	int format;
	int force;
	int ready_fd;              /* -1: none */
	mode_t mode;               /* of the socket file */
	gid_t group;               /* of the socket file; (gid_t)-1 keeps the daemon's */
	int max_conns;
	int frame_timeout_ms;
	uint32_t spin_us;
	uint64_t buf_limit;
	struct devd_access access; /* never empty: the daemon's own user by default */
	int metrics;               /* --metrics given */
	struct devd_metrics_addr metrics_addr;
};

/* \return -1 to serve, else the status to exit with (0 after --help, 2 for a bad command
 * line, after a message). */
static int parse_options(int argc, char **argv, struct devd_opts *o)
{
	static const struct option longopts[] = {
		{ "image", required_argument, NULL, 'i' },
		{ "socket", required_argument, NULL, 's' },
		{ "time-mode", required_argument, NULL, 't' },
		{ "background", required_argument, NULL, 'B' },
		{ "profile", required_argument, NULL, 'p' },
		{ "format", no_argument, NULL, 'f' },
		{ "force", no_argument, NULL, 'F' },
		{ "discard-nvram", no_argument, NULL, 'D' },
		{ "cache-share", required_argument, NULL, 'C' },
		{ "interface", required_argument, NULL, 'I' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "allow-uid", required_argument, NULL, 'u' },
		{ "allow-gid", required_argument, NULL, 'g' },
		{ "socket-mode", required_argument, NULL, 'm' },
		{ "socket-group", required_argument, NULL, 'G' },
		{ "max-connections", required_argument, NULL, 'c' },
		{ "frame-timeout", required_argument, NULL, 'T' },
		{ "buffer-mib", required_argument, NULL, 'b' },
		{ "spin-us", required_argument, NULL, 'S' },
		{ "withhold-opcodes", required_argument, NULL, 'W' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;
	long long v;

	*o = (struct devd_opts){
		.drive = { .cache_share_permille = SS_FW_CACHE_SHARE_DEFAULT },
		.ready_fd = -1,
		.mode = 0660,
		.group = (gid_t)-1,
		.max_conns = 128,
		.frame_timeout_ms = 30000,
		.spin_us = SS_SPIN_US_DEFAULT,
		.buf_limit = 256ull << 20,
	};
	/* one setting for both ends of the socket: the client's SMARTSSD_SPIN_US */
	if (getenv("SMARTSSD_SPIN_US") != NULL &&
	    ss_spin_us_parse(getenv("SMARTSSD_SPIN_US"), &o->spin_us) != 0) {
		fprintf(stderr, "smartssd-devd: SMARTSSD_SPIN_US takes a number from 0 to %u, "
			"not '%s'\n", SS_SPIN_US_MAX, getenv("SMARTSSD_SPIN_US"));
		return 2;
	}
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			o->image = optarg;
			break;
		case 's':
			o->sock = optarg;
			break;
		case 't':
			if (ss_emu_time_mode_parse(optarg, &o->drive.time_mode) != 0) {
				fprintf(stderr, "smartssd-devd: --time-mode is virtual or realtime, "
					"not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'B':
			if (strcmp(optarg, "thread") != 0 && strcmp(optarg, "manual") != 0) {
				fprintf(stderr, "smartssd-devd: --background is thread or manual, "
					"not '%s'\n", optarg);
				return 2;
			}
			o->drive.manual_background = strcmp(optarg, "manual") == 0;
			break;
		case 'W':
			o->drive.withheld_opcodes = optarg;
			break;
		case 'M':
			if (devd_metrics_addr(optarg, &o->metrics_addr) != 0) {
				return 2;
			}
			o->metrics = 1;
			break;
		case 'p':
			o->drive.flash.profile = optarg;
			break;
		case 'f':
			o->format = 1;
			break;
		case 'F':
			o->force = 1;
			break;
		case 'D':
			o->drive.discard_nvram = 1;
			break;
		case 'C':
			if ((v = parse_number("--cache-share", optarg, 10, 0, 90)) < 0) {
				return 2;
			}
			o->drive.cache_share_permille = (uint32_t)v * 10;
			break;
		case 'I':
			if (!strcmp(optarg, "ftl")) {
				o->drive.interface = SS_IFACE_FTL;
			} else if (!strcmp(optarg, "open-channel")) {
				o->drive.interface = SS_IFACE_OPEN_CHANNEL;
			} else if (!strcmp(optarg, "zoned")) {
				o->drive.interface = SS_IFACE_ZONED;
			} else {
				fprintf(stderr, "smartssd-devd: --interface %s: not ftl, open-channel "
					"or zoned\n", optarg);
				return 2;
			}
			break;
		case 'r':
			o->ready_fd = devd_parse_ready_fd(optarg);
			if (o->ready_fd < 0) {
				return 2;
			}
			break;
		case 'u':
		case 'g':
			if (devd_access_add(&o->access, optarg, opt == 'g') != 0) {
				return 2;
			}
			break;
		case 'm':
			if ((v = parse_number("--socket-mode", optarg, 8, 0, 0777)) < 0) {
				return 2;
			}
			o->mode = (mode_t)v;
			break;
		case 'G': {
			struct devd_access one = { 0 };

			if (devd_access_add(&one, optarg, 1) != 0 || one.ngids != 1) {
				return 2;
			}
			o->group = one.gids[0];
			break;
		}
		case 'S':
			if ((v = parse_number("--spin-us", optarg, 10, 0, SS_EMU_SPIN_US_MAX)) < 0) {
				return 2;
			}
			o->spin_us = (uint32_t)v;
			break;
		case 'c':
			if ((v = parse_number("--max-connections", optarg, 10, 1, 4096)) < 0) {
				return 2;
			}
			o->max_conns = (int)v;
			break;
		case 'T':
			if ((v = parse_number("--frame-timeout", optarg, 10, 1, 3600)) < 0) {
				return 2;
			}
			o->frame_timeout_ms = (int)v * 1000;
			break;
		case 'b':
			if ((v = parse_number("--buffer-mib", optarg, 10, 32, 65536)) < 0) {
				return 2;
			}
			o->buf_limit = (uint64_t)v << 20;
			break;
		default:
			usage();
			return opt == 'h' ? 0 : 2;
		}
	}
	if (o->image == NULL || o->sock == NULL || optind != argc) {
		usage();
		return 2;
	}
	if (o->force && !o->format) {
		fprintf(stderr, "smartssd-devd: --force goes with --format\n");
		return 2;
	}
	if (o->access.nuids == 0 && o->access.ngids == 0) {
		o->access.uids[o->access.nuids++] = geteuid();
	}
	return -1;
}

/* Opens (or formats) the drive, listens, and serves connections until SIGTERM or SIGINT,
 * then shuts down cleanly. \return the daemon's exit status. */
static int serve_socket(const struct devd_opts *opts)
{
	struct ss_emu_drive_opts o = opts->drive;
	const char *image = opts->image, *sock = opts->sock;
	char err[1024];
	int lfd, sfd, rc, nworkers, lock_fd = -1;
	int activated, mfd = -1;
	char metrics_at[NI_MAXHOST + 16] = "";
	struct devd_metrics *metrics = NULL;
	sigset_t sigs;
	pthread_t workers[SS_EMU_QUEUE_DEPTH];

	if (opts->format && !opts->force && ss_emu_format_guard(image, err, sizeof(err)) != 0) {
		fprintf(stderr, "smartssd-devd: %s\n", err);
		return 1;
	}
	srv.max_conns = opts->max_conns;
	srv.frame_timeout_ms = opts->frame_timeout_ms;
	srv.spin_us = opts->spin_us;
	srv.buf_limit = opts->buf_limit;
	srv.access = opts->access;

	/* Every thread inherits the mask; the main thread takes the signals from a signalfd. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);

	/* the same bound for the drive's controller as for the socket's readers */
	o.spin_us = srv.spin_us;
	rc = opts->format ? ss_emu_format(image, &o, &srv.drive, err, sizeof(err)) :
		      ss_emu_open(image, &o, &srv.drive, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "smartssd-devd: %s\n", err);
		return 1;
	}
	if (ss_emu_notice(srv.drive)[0] != '\0') {
		fprintf(stderr, "smartssd-devd: %s\n", ss_emu_notice(srv.drive));
	}
	/* bound before the drive's socket, which a failure here then never leaves behind */
	if (opts->metrics) {
		mfd = devd_metrics_listen(&opts->metrics_addr, metrics_at, sizeof(metrics_at));
		if (mfd < 0) {
			ss_emu_close(srv.drive);
			return 1;
		}
	}
	/* Under socket activation systemd owns the socket file: no lock, no rename, no unlink. */
	lfd = devd_listen_fds(sock);
	activated = lfd >= 0;
	if (lfd == DEVD_NOT_ACTIVATED) {
		lfd = devd_listen(sock, opts->mode, opts->group, &lock_fd);
	}
	if (lfd >= 0 && sfd >= 0 && mfd >= 0) {
		rc = devd_metrics_start(mfd, srv.drive, stats, &metrics);
		if (rc < 0) {
			fprintf(stderr, "smartssd-devd: cannot start the metrics thread: %s\n",
				strerror(-rc));
			close(lfd);
			if (!activated) {
				unlink(sock);
			}
			lfd = -1;
		}
	}
	if (lfd < 0 || sfd < 0) {
		if (mfd >= 0 && metrics == NULL) {
			close(mfd);
		}
		ss_emu_close(srv.drive);
		return 1;
	}
	srv.direct = o.time_mode == SS_EMU_TIME_VIRTUAL;
	nworkers = srv.direct ? 0 : SS_EMU_QUEUE_DEPTH;
	for (int i = 0; i < nworkers; i++) {
		pthread_create(&workers[i], NULL, worker, NULL);
	}
	fprintf(stderr, "smartssd-devd: serving %s on %s%s\n", image, sock,
		activated ? " (socket activation)" : "");
	if (metrics != NULL) {
		fprintf(stderr, "smartssd-devd: metrics on http://%s/metrics\n", metrics_at);
	}
	devd_signal_ready(opts->ready_fd, image, sock, metrics != NULL ? metrics_at : NULL);
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
	/* before the drive closes: a scrape reads it */
	devd_metrics_stop(metrics);
	rc = shut_down(lfd, activated ? NULL : sock);
	for (int i = 0; i < nworkers; i++) {
		pthread_join(workers[i], NULL);
	}
	/* Readers and writers are detached; wait until every connection is gone. */
	pthread_mutex_lock(&srv.lock);
	while (srv.nconns > 0) {
		pthread_cond_wait(&srv.idle, &srv.lock);
	}
	pthread_mutex_unlock(&srv.lock);
	close(sfd);
	if (lock_fd >= 0) {
		close(lock_fd);
	}
	return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct devd_opts opts;
	int rc = parse_options(argc, argv, &opts);

	return rc >= 0 ? rc : serve_socket(&opts);
}
