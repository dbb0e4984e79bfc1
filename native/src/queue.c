/*
 * Per-thread submission queues (smartssd.h, ss_dev_queue_*): reads and writes sent as soon
 * as they are queued, each under its own tag, and received oldest first. The drive keeps
 * each reply under its tag, so up to `depth` commands of this queue, and those of other
 * threads' queues and plain calls, are in the drive together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

/* A command in the drive: a READ or a VECTOR_READ (data in its reply) or a WRITE (data
 * in its request). */
struct queued_cmd {
	struct ss_pkt_req req;
	void *buf;                      /* a read's destination, a WRITE's source */
	void *meta;                     /* a VECTOR_READ's metadata destination, or NULL */
	uint32_t len;                   /* bytes of a READ or WRITE; a VECTOR_READ's reply */
	uint32_t reply_sectors;
};

struct ss_dev_queue {
	struct ss_dev *d;
	uint32_t depth;
	uint32_t head, n;               /* ring of outstanding commands, oldest at head */
	uint8_t *send;                  /* one request packet at a time */
	size_t send_cap;
	uint8_t *recv;                  /* one reply at a time */
	struct queued_cmd r[];
};

#define READ_SEND_BYTES SS_SECTOR       /* a READ request is its 64-byte header */
#define WRITE_SEND_BYTES (SS_PKT_HDR_SIZE + SS_DEV_QUEUE_WRITE_MAX + SS_SECTOR)
#define RECV_BYTES (SS_PKT_HDR_SIZE + SS_DEV_QUEUE_READ_MAX + SS_SECTOR)

int ss_dev_queue_open(struct ss_dev *d, uint32_t depth, struct ss_dev_queue **out)
{
	struct ss_dev_queue *q;

	ss_err_clear();
	if (!d || !out)
		return ss_err(-EINVAL, 0, "queue: NULL argument");
	if (depth < 1 || depth > SS_DEV_QUEUE_DEPTH_MAX)
		return ss_err(-EINVAL, 0, "queue: depth %u is outside 1..%u", depth,
			      SS_DEV_QUEUE_DEPTH_MAX);
	q = calloc(1, sizeof(*q) + depth * sizeof(q->r[0]));
	if (!q)
		return ss_err(-ENOMEM, 0, "queue: out of memory");
	/* a queue that writes grows its send buffer at its first write */
	q->send = malloc(READ_SEND_BYTES);
	q->send_cap = READ_SEND_BYTES;
	q->recv = malloc(RECV_BYTES);
	if (!q->send || !q->recv) {
		free(q->send);
		free(q->recv);
		free(q);
		return ss_err(-ENOMEM, 0, "queue: out of memory");
	}
	q->d = d;
	q->depth = depth;
	*out = q;
	return 0;
}

/* The context of a failure of c: its opcode and object. */
static int queued_failed(int rc, const struct queued_cmd *c)
{
	if (c->req.opcode == SS_OP_VECTOR_READ)
		return ss_err_context(rc, "queued VECTOR_READ of %llu sectors",
				      (unsigned long long)c->req.length);
	return ss_err_context(rc, "queued %s oid %llu", ss_opcode_name(c->req.opcode),
			      (unsigned long long)c->req.oid);
}

/* Send c (req, buf, len set) with the request payload seg (NULL: none) as the queue's
 * newest command. */
static int queue_send(struct ss_dev_queue *q, struct queued_cmd *c,
		      const struct ss_pkt_seg *seg)
{
	uint32_t gen = ss_obj_link_gen(q->d);
	size_t need = !seg ? READ_SEND_BYTES
		      : c->req.opcode == SS_OP_WRITE ? WRITE_SEND_BYTES
						     : ss_pkt_wire_size(seg->len);
	int rc;

	if (q->send_cap < need) {
		uint8_t *bigger = realloc(q->send, need);

		if (!bigger)
			return ss_err(-ENOMEM, 0, "queue: out of memory");
		q->send = bigger;
		q->send_cap = need;
	}
	rc = ss_obj_send(q->d, &c->req, seg, seg ? 1 : 0, q->send, q->send_cap,
			 &c->reply_sectors);
	/* The daemon restarted since this handle's last command: reach it again, as a plain
	 * command would, when none of this queue's commands is in flight (those would be
	 * lost, and their reaps must say so). */
	if (rc && q->n == 0) {
		int again = ss_obj_relink_unsent(q->d, rc, c->req.opcode, gen);

		if (again == 1)
			rc = ss_obj_send(q->d, &c->req, seg, seg ? 1 : 0, q->send, q->send_cap,
					 &c->reply_sectors);
		else if (again < 0)
			rc = again;
	}
	if (rc)
		return queued_failed(rc, c);
	q->n++;
	return 0;
}

/* The slot for the next command, or NULL (-EBUSY recorded) when `depth` are outstanding. */
static struct queued_cmd *queue_next(struct ss_dev_queue *q, const char *what)
{
	struct queued_cmd *c;

	if (q->n == q->depth) {
		ss_err(-EBUSY, 0, "queued %s: %u commands outstanding, the queue's depth", what,
		       q->depth);
		return NULL;
	}
	c = &q->r[(q->head + q->n) % q->depth];
	memset(c, 0, sizeof(*c));
	return c;
}

/*
 * The drive refused this queue's newest command BUSY (nothing ran). With commands of its
 * own outstanding the queue keeps one fewer than those in the drive from now on (*limit),
 * leaving room for other processes, whose waits this handle cannot wake, and reaps the
 * oldest, whose reply frees room; with none it waits for room (another thread's or
 * process's reply). \return 1 to reap first, 0 to send again, or -EAGAIN when the wait is
 * over its bound.
 */
static int refused(struct ss_dev_queue *q, uint32_t *limit, struct ss_room_wait *w)
{
	if (q->n) {
		*limit = q->n > 1 ? q->n - 1 : 1;
		return 1;
	}
	if (!ss_room_wait(q->d, w))
		return ss_room_wait_failed(q->d);
	return 0;
}

/* Whether to reap before sending: the queue is at its limit, or another thread of this
 * handle waits for room while this queue has some. */
static int reap_first(struct ss_dev_queue *q, uint32_t limit)
{
	return q->n >= limit || (q->n && ss_room_wanted(q->d));
}

int ss_dev_queue_read(struct ss_dev_queue *q, uint64_t oid, uint64_t offset, void *buf,
		      uint32_t len)
{
	struct queued_cmd *c;

	ss_err_clear();
	if (!buf && len)
		return ss_err(-EINVAL, 0, "queued read: NULL buffer");
	if (len > SS_DEV_QUEUE_READ_MAX)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "queued read: %u bytes exceed %u", len,
			      SS_DEV_QUEUE_READ_MAX);
	if (!(c = queue_next(q, "read")))
		return -EBUSY;
	c->req.opcode = SS_OP_READ;
	c->req.oid = oid;
	c->req.offset = offset;
	c->req.length = len;
	c->req.reply_max = len;
	c->buf = buf;
	c->len = len;
	return queue_send(q, c, NULL);
}

int ss_dev_queue_vector_read(struct ss_dev_queue *q, const struct ss_dev_ppa *ppa, uint32_t n,
			     void *buf, void *meta)
{
	uint8_t addr[SS_VECTOR_MAX * sizeof(struct ss_wire_ppa)];
	struct ss_pkt_seg seg = { addr, (size_t)n * sizeof(struct ss_wire_ppa) };
	struct ss_pkt_req req;
	struct queued_cmd *c;
	int rc;

	ss_err_clear();
	rc = ss_vector_read_req(ppa, n, meta != NULL, addr, &req, "queued vector read");
	if (rc)
		return rc;
	if (!buf)
		return ss_err(-EINVAL, 0, "queued vector read: NULL buffer");
	if (!(c = queue_next(q, "vector read")))
		return -EBUSY;
	c->req = req;
	c->buf = buf;
	c->meta = meta;
	c->len = req.reply_max;
	return queue_send(q, c, &seg);
}

int ss_dev_queue_write(struct ss_dev_queue *q, uint64_t oid, uint64_t offset, const void *buf,
		       uint32_t len, uint32_t flags)
{
	struct queued_cmd *c;

	ss_err_clear();
	if (!buf && len)
		return ss_err(-EINVAL, 0, "queued write: NULL buffer");
	if (len > SS_DEV_QUEUE_WRITE_MAX)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "queued write: %u bytes exceed %u", len,
			      SS_DEV_QUEUE_WRITE_MAX);
	if (flags & ~(uint32_t)SS_DEV_WRITE_FUA)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "queued write: unknown flags 0x%x", flags);
	if (offset + len < offset)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "queued write: offset+length overflows");
	if (!(c = queue_next(q, "write")))
		return -EBUSY;
	c->req.opcode = SS_OP_WRITE;
	c->req.oid = oid;
	c->req.offset = offset;
	c->req.length = len;
	c->req.flags = flags | SS_WRITE_ORDERED;
	c->buf = (void *)buf;
	c->len = len;
	return queue_send(q, c, &(struct ss_pkt_seg){ buf, len });
}

int64_t ss_dev_queue_reap(struct ss_dev_queue *q, void **buf)
{
	struct queued_cmd *c;
	struct ss_pkt_reply rep;
	int reads, rc;

	ss_err_clear();
	if (q->n == 0)
		return ss_err(-ENODATA, 0, "queue: nothing outstanding to reap");
	c = &q->r[q->head];
	q->head = (q->head + 1) % q->depth;
	q->n--;
	if (buf)
		*buf = c->buf;
	reads = c->req.opcode != SS_OP_WRITE;
	rc = ss_obj_recv(q->d, &c->req, q->recv, ss_pkt_wire_size(reads ? c->len : 0),
			 c->reply_sectors, &rep);
	if (rc == 1)   /* the drive ran out of room for the reply: nothing was done */
		rc = -EAGAIN;
	if (rc)
		return queued_failed(rc, c);
	if (c->req.opcode == SS_OP_VECTOR_READ) {
		rc = ss_vector_read_unpack(&rep, (uint32_t)c->req.length, c->buf, c->meta);
		return rc ? queued_failed(rc, c) : (int64_t)c->req.length * SS_SECTOR;
	}
	if (!reads)
		return rep.value0 == c->len ? (int64_t)c->len
		       : ss_err(-EPROTO, 0, "queued WRITE oid %llu: %llu bytes written of %u",
				(unsigned long long)c->req.oid, (unsigned long long)rep.value0,
				c->len);
	if (rep.payload_len > c->len)
		return ss_err(-EPROTO, 0, "queued READ oid %llu: %u bytes returned for %u asked",
			      (unsigned long long)c->req.oid, rep.payload_len, c->len);
	memcpy(c->buf, rep.payload, rep.payload_len);
	return rep.payload_len;
}

uint32_t ss_dev_queue_pending(const struct ss_dev_queue *q)
{
	return q->n;
}

void ss_dev_queue_close(struct ss_dev_queue *q)
{
	if (!q)
		return;
	while (q->n)
		ss_dev_queue_reap(q, NULL);
	free(q->send);
	free(q->recv);
	free(q);
}

/* Reap what q holds. \return the bytes written, or rc, or the first failure reaped; the
 * message stays the failure's. */
static int64_t drain_writes(struct ss_dev_queue *q, int64_t done, int rc)
{
	char why[SS_DEV_MSG_MAX];
	int reason = ss_dev_last_reason();
	int64_t got;

	ss_dev_last_message_copy(why, sizeof(why));
	while (q->n) {
		got = ss_dev_queue_reap(q, NULL);
		if (got >= 0) {
			done += got;
		} else if (!rc) {
			rc = (int)got;
			reason = ss_dev_last_reason();
			ss_dev_last_message_copy(why, sizeof(why));
		}
	}
	return rc ? ss_err(rc, reason, "%s", why) : done;
}

int64_t ss_dev_write_queued(struct ss_dev *d, uint64_t oid, uint64_t offset, const void *buf,
			    size_t len, uint32_t flags, uint32_t depth)
{
	struct ss_dev_queue *q;
	struct ss_room_wait room = {0};
	size_t sent = 0;
	int64_t done = 0, got;
	uint32_t limit = depth;
	int rc;

	ss_err_clear();
	rc = ss_check_write_args(buf, len, offset);
	if (rc < 0)
		return rc;
	rc = ss_dev_queue_open(d, depth, &q);
	if (rc)
		return rc;
	if (len == 0) {
		ss_dev_queue_close(q);
		return ss_dev_write(d, oid, offset, buf, 0, flags);
	}
	/* pieces in order, at most `depth` in the drive; the first failure stops the sending,
	 * and the drive cancels the ORDERED pieces sent after it. A piece refused BUSY did not
	 * run and nothing after it was sent, so sending it again keeps the order. */
	while (sent < len) {
		uint32_t n = len - sent < SS_DEV_QUEUE_WRITE_MAX ? (uint32_t)(len - sent)
								   : SS_DEV_QUEUE_WRITE_MAX;

		if (reap_first(q, limit)) {
			got = ss_dev_queue_reap(q, NULL);
			if (got < 0) {
				rc = (int)got;
				break;
			}
			done += got;
			continue;
		}
		rc = ss_dev_queue_write(q, oid, offset + sent, (const uint8_t *)buf + sent, n,
					flags);
		if (ss_room_refused(rc)) {
			rc = refused(q, &limit, &room);
			if (rc >= 0)
				continue;
		}
		if (rc)
			break;
		ss_room_wait_done(d, &room);
		sent += n;
	}
	ss_room_wait_done(d, &room);
	done = drain_writes(q, done, rc);
	ss_dev_queue_close(q);
	return done;
}

int64_t ss_dev_read_ranges(struct ss_dev *d, uint64_t oid, uint32_t n, const uint64_t *offsets,
			   const uint32_t *lens, void *buf, uint32_t depth, uint32_t *counts)
{
	struct ss_dev_queue *q;
	uint32_t owner[SS_DEV_QUEUE_DEPTH_MAX];   /* the range of each queued piece, FIFO */
	uint32_t head = 0, i = 0, piece = 0, limit = depth;
	struct ss_room_wait room = {0};
	uint64_t at = 0;
	int64_t total = 0, got;
	int rc;

	ss_err_clear();
	if (n && (!offsets || !lens || !buf || !counts))
		return ss_err(-EINVAL, 0, "read ranges: NULL argument");
	rc = ss_dev_queue_open(d, depth, &q);
	if (rc)
		return rc;
	for (uint32_t k = 0; k < n; k++)
		counts[k] = 0;
	/* ranges in order, each in pieces of at most SS_DEV_QUEUE_READ_MAX, at most `depth`
	 * pieces in the drive (fewer once it refuses one for want of room): reap the oldest
	 * when full, and at the end */
	while (i < n || q->n) {
		if (i < n && !reap_first(q, limit)) {
			uint32_t len = lens[i] - piece;

			if (len > SS_DEV_QUEUE_READ_MAX)
				len = SS_DEV_QUEUE_READ_MAX;
			if (len) {
				rc = ss_dev_queue_read(q, oid, offsets[i] + piece, (uint8_t *)buf + at,
						       len);
				if (ss_room_refused(rc)) {
					rc = refused(q, &limit, &room);
					if (rc == 0)
						continue;
					if (rc < 0)
						goto fail;
					goto reap;
				}
				if (rc)
					goto fail;
				ss_room_wait_done(d, &room);
				owner[(head + q->n - 1) % depth] = i;
			}
			at += len;
			piece += len;
			if (piece == lens[i]) {
				i++;
				piece = 0;
			}
			continue;
		}
reap:
		got = ss_dev_queue_reap(q, NULL);
		if (got < 0) {
			rc = (int)got;
			goto fail;
		}
		counts[owner[head]] += (uint32_t)got;
		head = (head + 1) % depth;
		total += got;
	}
	ss_dev_queue_close(q);
	return total;
fail:
	{
		char why[SS_DEV_MSG_MAX];
		int reason = ss_dev_last_reason();

		/* what is outstanding is reaped; the first failure is the answer */
		ss_room_wait_done(d, &room);
		ss_dev_last_message_copy(why, sizeof(why));
		ss_dev_queue_close(q);
		return ss_err(rc, reason, "%s", why);
	}
}
