/*
 * Per-thread submission queues (smartssd.h, ss_dev_queue_*): reads sent as soon as they are
 * queued, each under its own tag, and received oldest first. The drive keeps each reply
 * under its tag, so up to `depth` commands of this queue, and those of other threads' queues
 * and plain calls, are in the drive together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

struct queued_read {
	struct ss_pkt_req req;
	void *buf;
	uint32_t len;
	uint32_t reply_sectors;
};

struct ss_dev_queue {
	struct ss_dev *d;
	uint32_t depth;
	uint32_t head, n;               /* ring of outstanding reads, oldest at head */
	uint8_t *send;                  /* one request packet at a time */
	uint8_t *recv;                  /* one reply at a time */
	struct queued_read r[];
};

#define SEND_BYTES SS_SECTOR            /* a READ request is its 64-byte header */
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
	q->send = malloc(SEND_BYTES);
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

int ss_dev_queue_read(struct ss_dev_queue *q, uint64_t oid, uint64_t offset, void *buf,
		      uint32_t len)
{
	struct queued_read *r;
	int rc;

	ss_err_clear();
	if (!buf && len)
		return ss_err(-EINVAL, 0, "queued read: NULL buffer");
	if (len > SS_DEV_QUEUE_READ_MAX)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "queued read: %u bytes exceed %u", len,
			      SS_DEV_QUEUE_READ_MAX);
	if (q->n == q->depth)
		return ss_err(-EBUSY, 0, "queued read: %u reads outstanding, the queue's depth",
			      q->depth);
	r = &q->r[(q->head + q->n) % q->depth];
	memset(r, 0, sizeof(*r));
	r->req.opcode = SS_OP_READ;
	r->req.oid = oid;
	r->req.offset = offset;
	r->req.length = len;
	r->req.reply_max = len;
	r->buf = buf;
	r->len = len;
	rc = ss_obj_send(q->d, &r->req, NULL, 0, q->send, SEND_BYTES, &r->reply_sectors);
	if (rc)
		return ss_err_context(rc, "queued READ oid %llu", (unsigned long long)oid);
	q->n++;
	return 0;
}

int64_t ss_dev_queue_reap(struct ss_dev_queue *q, void **buf)
{
	struct queued_read *r;
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (q->n == 0)
		return ss_err(-ENODATA, 0, "queue: nothing outstanding to reap");
	r = &q->r[q->head];
	q->head = (q->head + 1) % q->depth;
	q->n--;
	if (buf)
		*buf = r->buf;
	rc = ss_obj_recv(q->d, &r->req, q->recv, ss_pkt_wire_size(r->len), r->reply_sectors,
			 &rep);
	if (rc == 1)   /* the drive ran out of room for the reply: nothing was read */
		rc = -EAGAIN;
	if (rc)
		return ss_err_context(rc, "queued READ oid %llu", (unsigned long long)r->req.oid);
	if (rep.payload_len > r->len)
		return ss_err(-EPROTO, 0, "queued READ oid %llu: %u bytes returned for %u asked",
			      (unsigned long long)r->req.oid, rep.payload_len, r->len);
	memcpy(r->buf, rep.payload, rep.payload_len);
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

int64_t ss_dev_read_ranges(struct ss_dev *d, uint64_t oid, uint32_t n, const uint64_t *offsets,
			   const uint32_t *lens, void *buf, uint32_t depth, uint32_t *counts)
{
	struct ss_dev_queue *q;
	uint32_t owner[SS_DEV_QUEUE_DEPTH_MAX];   /* the range of each queued piece, FIFO */
	uint32_t head = 0, i = 0, piece = 0;
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
	 * pieces in the drive: reap the oldest when full, and at the end */
	while (i < n || q->n) {
		if (i < n && q->n < depth) {
			uint32_t len = lens[i] - piece;

			if (len > SS_DEV_QUEUE_READ_MAX)
				len = SS_DEV_QUEUE_READ_MAX;
			if (len) {
				rc = ss_dev_queue_read(q, oid, offsets[i] + piece, (uint8_t *)buf + at,
						       len);
				if (rc)
					goto fail;
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
		ss_dev_last_message_copy(why, sizeof(why));
		ss_dev_queue_close(q);
		return ss_err(rc, reason, "%s", why);
	}
}
