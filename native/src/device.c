/*
 * The command layer: open a drive by URI, hold a protocol session, and run commands.
 * A standard ATA command is one pass-through CDB. An object command is a SEND of the
 * request packet (LBA = tag) and a RECV of the reply with the same tag; the drive keeps
 * the reply in a slot keyed by the tag, so pairs from many threads and processes
 * interleave safely. Tags are session << 16 | seq.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "device_internal.h"
#include "errinfo.h"

#define DEFAULT_TIMEOUT_MS 30000
#define BACKOFF_MIN_US 20
#define BACKOFF_MAX_US 5000
#define TAG_IN_USE_RETRIES 64
#define SUBJECT_MAX 96
#define ASC_PASS_THROUGH_INFO 0x00
#define ASCQ_PASS_THROUGH_INFO 0x1D
#define ASC_ACCESS_DENIED 0x74          /* with DATA PROTECT: a daemon's allow-list */
#define ASCQ_ACCESS_NOT_AUTHORIZED 0x71
#define ASC_INSUFFICIENT_RESOURCES 0x55 /* with ABORTED: a daemon's --max-connections */
#define ASCQ_INSUFFICIENT_RESOURCES 0x03

/* ---- per-thread packet buffers (allocated once per thread, grown, never per call) -- */

struct pkt_buf {
	uint8_t *p;
	size_t cap;
};

struct thread_bufs {
	struct pkt_buf send;
	struct pkt_buf recv;
};

static pthread_key_t bufs_key;
static pthread_once_t bufs_once = PTHREAD_ONCE_INIT;
static _Thread_local struct thread_bufs *tbufs;

static void bufs_free(void *arg)
{
	struct thread_bufs *b = arg;

	free(b->send.p);
	free(b->recv.p);
	free(b);
}

static void bufs_key_init(void)
{
	pthread_key_create(&bufs_key, bufs_free);
}

static int buf_reserve(struct pkt_buf *b, size_t need)
{
	void *p;
	size_t cap = b->cap ? b->cap : 8192;

	if (need <= b->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (posix_memalign(&p, 4096, cap))
		return ss_err(-ENOMEM, 0, "out of memory for a %zu-byte packet buffer", cap);
	free(b->p);
	b->p = p;
	b->cap = cap;
	return 0;
}

static struct thread_bufs *thread_bufs(void)
{
	if (tbufs)
		return tbufs;
	pthread_once(&bufs_once, bufs_key_init);
	tbufs = calloc(1, sizeof(*tbufs));
	if (tbufs)
		pthread_setspecific(bufs_key, tbufs);
	return tbufs;
}

/* ---- names ------------------------------------------------------------------------- */

const char *ss_opcode_name(uint16_t opcode)
{
	switch (opcode) {
#define OPCODE_NAME(name, code) case SS_OP_##name: return #name;
	SS_PROTO_OPCODES(OPCODE_NAME)
#undef OPCODE_NAME
	default: return "UNKNOWN_OPCODE";
	}
}

/* ---- standard ATA commands --------------------------------------------------------- */

/* smartssd format --interface's word for an ss_interface. */
static const char *interface_name(uint64_t iface)
{
	switch (iface) {
	case SS_IFACE_FTL:
		return "ftl (objects, tasklets, cache)";
	case SS_IFACE_OPEN_CHANNEL:
		return "open-channel (chunks by physical address)";
	case SS_IFACE_ZONED:
		return "zoned (zones)";
	default:
		return "with an interface this library does not know";
	}
}

/* An ATA error. The firmware puts its reason code in LBA[15:0] of every error it
 * returns; an LBA that is no reason code (a plain drive's failing LBA) gives -EIO. */
static int ata_error(const struct ss_sat_cmd *c, const struct ss_sat_regs *r)
{
	int reason = (int)(r->lba & 0xFFFF);

	if (reason <= 0 || !strcmp(ss_dev_reason_name(reason), "UNKNOWN")) {
		if (r->error & 0x40) /* UNC */
			reason = SS_R_MEDIA_ERROR;
		return ss_err(-EIO, reason > 0 ? reason : 0,
			      "ATA command 0x%02x failed: status 0x%02x error 0x%02x",
			      c->command, r->status, r->error);
	}
	return ss_err(-ss_reason_errno(reason), reason, "the drive refused the %s: %s (%s)",
		      c->command == SS_ATA_OBJ_SEND	? "request"
		      : c->command == SS_ATA_OBJ_RECV ? "reply transfer"
						      : "ATA command",
		      ss_dev_reason_name(reason), strerror(ss_reason_errno(reason)));
}

int ss_ata_exec(struct ss_dev *d, const struct ss_sat_cmd *c, void *data, uint32_t len,
		struct ss_sat_regs *regs)
{
	struct ss_sat_sense sense;
	struct ss_xfer x;
	int rc;

	memset(&x, 0, sizeof(x));
	rc = ss_sat_encode16(c, x.cdb);
	if (rc)
		return ss_err(rc, 0, "ATA command 0x%02x does not fit ATA PASS-THROUGH(16)",
			      c->command);
	x.data = data;
	x.len = len;
	x.dir = c->dir;
	x.timeout_ms = d->timeout_ms;
	rc = d->tp->ops->submit(d->tp, &x);
	if (rc)
		return rc;
	if (x.scsi_status == SS_SCSI_GOOD)
		return 0;
	rc = ss_sat_decode_sense(x.sense, x.sense_len, &sense);
	if (rc)
		return ss_err(-EIO, 0, "ATA command 0x%02x: CHECK CONDITION with malformed sense",
			      c->command);
	if (sense.has_regs && regs)
		*regs = sense.regs;
	if (sense.has_regs && (sense.regs.status & 0x01))
		return ata_error(c, &sense.regs);
	if (sense.key == SS_SAT_KEY_DATA_PROTECT && sense.asc == ASC_ACCESS_DENIED &&
	    sense.ascq == ASCQ_ACCESS_NOT_AUTHORIZED)
		return ss_err(-EACCES, 0, "access denied: %s does not let this user (uid %u) use "
			      "the drive (smartssd-devd --allow-uid/--allow-gid)", d->tp->path,
			      (unsigned)geteuid());
	if (sense.key == SS_SAT_KEY_ABORTED && sense.asc == ASC_INSUFFICIENT_RESOURCES &&
	    sense.ascq == ASCQ_INSUFFICIENT_RESOURCES)
		return ss_err(-EUSERS, 0, "too many connections: the daemon at %s serves at most "
			      "its --max-connections at once, and that many are open; close "
			      "clients, or raise smartssd-devd --max-connections", d->tp->path);
	if (sense.key == SS_SAT_KEY_RECOVERED && sense.asc == ASC_PASS_THROUGH_INFO &&
	    sense.ascq == ASCQ_PASS_THROUGH_INFO)
		return 0;
	if (sense.key == SS_SAT_KEY_NO_SENSE && sense.has_regs)
		return 0;
	return ss_err(-EIO, 0, "ATA command 0x%02x: sense key 0x%x asc 0x%02x ascq 0x%02x",
		      c->command, sense.key, sense.asc, sense.ascq);
}

/* ---- object commands --------------------------------------------------------------- */

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- waiting out BUSY (device_internal.h, "Waiting out BUSY") ---------------------- */

int ss_room_refused(int rc)
{
	return rc == -EAGAIN && ss_dev_last_reason() == SS_R_BUSY;
}

int ss_room_wait(struct ss_dev *d, struct ss_room_wait *w)
{
	struct timespec until;
	uint64_t now = mono_us(), wake;

	if (!w->waiting) {
		w->waiting = 1;
		w->deadline_us = now + (uint64_t)d->busy_retry_ms * 1000u;
		w->delay_us = BACKOFF_MIN_US;
		__atomic_fetch_add(&d->room_waiters, 1, __ATOMIC_ACQ_REL);
	}
	if (now >= w->deadline_us)
		return 0;
	wake = now + w->delay_us < w->deadline_us ? now + w->delay_us : w->deadline_us;
	w->delay_us = w->delay_us * 2 > BACKOFF_MAX_US ? BACKOFF_MAX_US : w->delay_us * 2;
	until.tv_sec = (time_t)(wake / 1000000u);
	until.tv_nsec = (long)(wake % 1000000u) * 1000;
	pthread_mutex_lock(&d->room_lock);
	pthread_cond_timedwait(&d->room_freed, &d->room_lock, &until);
	pthread_mutex_unlock(&d->room_lock);
	return 1;
}

void ss_room_wait_done(struct ss_dev *d, struct ss_room_wait *w)
{
	if (w->waiting) {
		w->waiting = 0;
		__atomic_fetch_sub(&d->room_waiters, 1, __ATOMIC_ACQ_REL);
	}
}

int ss_room_wait_failed(struct ss_dev *d)
{
	char last[SS_DEV_MSG_MAX];

	ss_dev_last_message_copy(last, sizeof(last));
	if (ss_dev_last_reason() == SS_R_TOO_MANY_SESSIONS)
		return ss_err(-EAGAIN, SS_R_TOO_MANY_SESSIONS, "too many sessions: every session "
			      "of the drive stayed held by a connected client for %u ms; close "
			      "clients, or wait for some to finish", d->busy_retry_ms);
	return ss_err(-EAGAIN, SS_R_BUSY, "drive stayed BUSY for %u ms, waiting for a free "
		      "reply slot and reply memory (busy_retry_ms; %s)", d->busy_retry_ms, last);
}

int ss_room_wanted(struct ss_dev *d)
{
	return __atomic_load_n(&d->room_waiters, __ATOMIC_ACQUIRE) != 0;
}

/* Timed waits on CLOCK_MONOTONIC, the clock of the deadlines. */
static void room_init(struct ss_dev *d)
{
	pthread_condattr_t a;

	pthread_mutex_init(&d->room_lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&d->room_freed, &a);
	pthread_condattr_destroy(&a);
}

static void room_destroy(struct ss_dev *d)
{
	pthread_cond_destroy(&d->room_freed);
	pthread_mutex_destroy(&d->room_lock);
}

/* A reply was taken, so its slot and memory in the drive are free. */
static void room_freed(struct ss_dev *d)
{
	if (!ss_room_wanted(d))
		return;
	pthread_mutex_lock(&d->room_lock);
	pthread_cond_broadcast(&d->room_freed);
	pthread_mutex_unlock(&d->room_lock);
}

static uint32_t next_tag(struct ss_dev *d)
{
	uint32_t seq = __atomic_fetch_add(&d->seq, 1, __ATOMIC_RELAXED);

	return (uint32_t)__atomic_load_n(&d->session, __ATOMIC_ACQUIRE) << 16 | (seq & 0xFFFF);
}

/* SEND with CK_COND: the drive returns the reply's length in sectors in COUNT, so the
 * RECV moves only that much over the link. \return as ss_ata_exec; *reply_sectors is 0
 * when the drive did not say. */
static int send_packet(struct ss_dev *d, uint8_t *pkt, size_t wire, uint32_t tag,
		       uint32_t *reply_sectors)
{
	struct ss_sat_cmd c = {
		.command = SS_ATA_OBJ_SEND,
		.device = 0x40,
		.count = (uint16_t)(wire / SS_SECTOR),
		.lba = tag,
		.protocol = SS_SAT_PROTO_DMA,
		.dir = SS_SAT_DIR_OUT,
		.extend = 1,
		.ck_cond = 1,
	};
	struct ss_sat_regs r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = ss_ata_exec(d, &c, pkt, (uint32_t)wire, &r);
	*reply_sectors = rc ? 0 : r.count;
	return rc;
}

static int recv_packet(struct ss_dev *d, uint8_t *buf, size_t len, uint32_t tag)
{
	struct ss_sat_cmd c = {
		.command = SS_ATA_OBJ_RECV,
		.device = 0x40,
		.count = (uint16_t)(len / SS_SECTOR),
		.lba = tag,
		.protocol = SS_SAT_PROTO_DMA,
		.dir = SS_SAT_DIR_IN,
		.extend = 1,
	};

	return ss_ata_exec(d, &c, buf, (uint32_t)len, NULL);
}

/* One SEND/RECV pair. \return 1 when the drive said BUSY (nothing was done), else as
 * ss_obj_exec. */
static int exchange(struct ss_dev *d, struct thread_bufs *b, struct ss_pkt_req *req,
		    size_t wire, size_t rwire, struct ss_pkt_reply *rep, int *sent)
{
	uint32_t reply_sectors;
	int rc, tries = 0;

	*sent = 0;
	for (;;) {
		rc = send_packet(d, b->send.p, wire, req->tag, &reply_sectors);
		if (rc != -EBUSY || ss_dev_last_reason() != SS_R_TAG_IN_USE)
			break;
		/* A reply with this tag was never received (an earlier transport failure):
		 * move to the next tag. */
		if (++tries > TAG_IN_USE_RETRIES)
			return rc;
		req->tag = req->opcode == SS_OP_OPEN_SESSION ? (req->tag + 1) & 0xFFFF
							      : next_tag(d);
		ss_put_le32(b->send.p + offsetof(struct ss_pkt_hdr, tag), req->tag);
		ss_put_le32(b->send.p + offsetof(struct ss_pkt_hdr, crc32c), 0);
		ss_put_le32(b->send.p + offsetof(struct ss_pkt_hdr, crc32c),
			    ss_pkt_crc32c(0, b->send.p,
					  SS_PKT_HDR_SIZE +
					  ss_get_le32(b->send.p + offsetof(struct ss_pkt_hdr,
								       payload_len))));
	}
	if (rc < 0 && ss_dev_last_reason() == SS_R_BUSY)
		return 1;
	if (rc)
		return rc;
	*sent = 1;
	return ss_obj_recv(d, req, b->recv.p, rwire, reply_sectors, rep);
}

int ss_obj_send(struct ss_dev *d, struct ss_pkt_req *req, const struct ss_pkt_seg *segs,
		int nseg, uint8_t *pkt, size_t cap, uint32_t *reply_sectors)
{
	long wire;

	if (!req->host_time_ns)
		req->host_time_ns = wall_ns();
	req->tag = next_tag(d);
	wire = ss_pkt_encode(pkt, cap, req, segs, nseg);
	if (wire < 0)
		return ss_err((int)wire, SS_R_BAD_LENGTH, "%s: payload too large",
			      ss_opcode_name(req->opcode));
	return send_packet(d, pkt, (size_t)wire, req->tag, reply_sectors);
}

int ss_obj_recv(struct ss_dev *d, const struct ss_pkt_req *req, uint8_t *buf, size_t rwire,
		uint32_t reply_sectors, struct ss_pkt_reply *rep)
{
	const char *why;
	int rc;

	if (reply_sectors && (size_t)reply_sectors * SS_SECTOR < rwire)
		rwire = (size_t)reply_sectors * SS_SECTOR;
	rc = recv_packet(d, buf, rwire, req->tag);
	if (!rc)
		room_freed(d);
	/* The request ran (or may have): a lost reply must never make the caller send it
	 * again without knowing. */
	if (rc == -ENOTCONN) {
		char cause[SS_DEV_MSG_MAX];

		/* a copy: the message is rewritten in the buffer it lives in */
		ss_dev_last_message_copy(cause, sizeof(cause));
		return ss_err(-ECONNRESET, 0, "the link closed after the request was sent; whether "
			      "it ran is unknown (%s)", cause);
	}
	if (rc)
		return rc;
	rc = ss_pkt_decode_reply(buf, rwire, req->opcode, req->tag, rep, &why);
	if (rc)
		return ss_err(rc, 0, "%s", why);
	/* BUSY: reply slots, reply memory or tasklet instances exhausted; TOO_MANY_SESSIONS:
	 * every session is held by a connected client. Nothing was done: retry. */
	if (rep->status < 0 && (rep->reason == SS_R_BUSY || rep->reason == SS_R_TOO_MANY_SESSIONS)) {
		ss_err(rep->status, (int)rep->reason, "%s", ss_dev_reason_name((int)rep->reason));
		return 1;
	}
	if (rep->status > 0)
		return ss_err(-EPROTO, 0, "reply status %d is not an errno", rep->status);
	if (rep->status < 0 && rep->reason == SS_R_WRONG_INTERFACE)
		return ss_err(rep->status, (int)rep->reason, "WRONG_INTERFACE: the drive is "
			      "formatted %s, which does not serve this command (%s)",
			      interface_name(rep->value0), strerror(-rep->status));
	if (rep->status < 0)
		return ss_err(rep->status, (int)rep->reason, "%s (%s)",
			      ss_dev_reason_name((int)rep->reason), strerror(-rep->status));
	return 0;
}

static int open_session(struct ss_dev *d);

/*
 * The link closed before a request got through, or the drive no longer knows our session
 * (the daemon restarted): connect again where the transport can, and open a new session,
 * unless another thread did so since this call saw generation `seen`. \return 0 or a
 * negative errno.
 */
static int relink(struct ss_dev *d, uint32_t seen)
{
	int rc = 0;

	pthread_mutex_lock(&d->relink_lock);
	if (__atomic_load_n(&d->link_gen, __ATOMIC_ACQUIRE) != seen)
		goto out;
	if (d->tp->ops->reconnect) {
		rc = d->tp->ops->reconnect(d->tp);
		if (rc < 0)
			goto out;
	}
	rc = open_session(d);
out:
	pthread_mutex_unlock(&d->relink_lock);
	return rc;
}

/* Whether a failure of a request that did not reach the drive is cured by relink(). */
static int relinkable(const struct ss_dev *d, int rc, int sent, uint16_t opcode)
{
	if (opcode == SS_OP_OPEN_SESSION || opcode == SS_OP_CLOSE_SESSION)
		return 0;
	if (rc == -ENOTCONN && !sent)
		return d->tp->ops->reconnect != NULL;
	/* the drive refused the request unrun: its sessions are gone (a restart) */
	return rc < 0 && !sent && ss_dev_last_reason() == SS_R_BAD_SESSION;
}

static int obj_exec(struct ss_dev *d, const struct ss_pkt_req *req_in,
		    const struct ss_pkt_seg *segs, int nseg, struct ss_pkt_reply *rep,
		    const char *subject, int opening);

uint32_t ss_obj_link_gen(struct ss_dev *d)
{
	return __atomic_load_n(&d->link_gen, __ATOMIC_ACQUIRE);
}

int ss_obj_relink_unsent(struct ss_dev *d, int rc, uint16_t opcode, uint32_t gen)
{
	if (!relinkable(d, rc, 0, opcode))
		return 0;
	rc = relink(d, gen);
	return rc ? rc : 1;
}

int ss_obj_exec(struct ss_dev *d, const struct ss_pkt_req *req_in,
		const struct ss_pkt_seg *segs, int nseg, struct ss_pkt_reply *rep,
		const char *subject)
{
	return obj_exec(d, req_in, segs, nseg, rep, subject, 0);
}

/* opening: an OPEN_SESSION, sent with session 0's tags (seq from the pid keeps two
 * processes opening at once apart; a clash only costs a TAG_IN_USE retry). */
static int obj_exec(struct ss_dev *d, const struct ss_pkt_req *req_in,
		    const struct ss_pkt_seg *segs, int nseg, struct ss_pkt_reply *rep,
		    const char *subject, int opening)
{
	struct thread_bufs *b = thread_bufs();
	struct ss_pkt_req req = *req_in;
	struct ss_room_wait room = {0};
	size_t payload = 0, rwire;
	uint32_t gen = __atomic_load_n(&d->link_gen, __ATOMIC_ACQUIRE), open_seq = 0;
	long wire;
	int rc, sent, relinked = 0;

	if (!b)
		return ss_err(-ENOMEM, 0, "out of memory for packet buffers");
	for (int i = 0; i < nseg; i++)
		payload += segs[i].len;
	if (payload > SS_PKT_MAX_PAYLOAD || req.reply_max > SS_PKT_MAX_PAYLOAD)
		return ss_err(-E2BIG, SS_R_BAD_LENGTH, "%s: packet larger than %u bytes",
			      ss_opcode_name(req.opcode), SS_PKT_MAX_BYTES);
	rwire = ss_pkt_wire_size(req.reply_max);
	rc = buf_reserve(&b->send, ss_pkt_wire_size(payload));
	if (!rc)
		rc = buf_reserve(&b->recv, rwire);
	if (rc)
		return rc;

	if (!req.host_time_ns)
		req.host_time_ns = wall_ns();
	for (;;) {
		req.tag = opening ? (uint32_t)(getpid() + open_seq++) & 0xFFFF : next_tag(d);
		wire = ss_pkt_encode(b->send.p, b->send.cap, &req, segs, nseg);
		if (wire < 0)
			return ss_err((int)wire, SS_R_BAD_LENGTH, "%s: payload too large",
				      ss_opcode_name(req.opcode));
		rc = exchange(d, b, &req, (size_t)wire, rwire, rep, &sent);
		/* Nothing ran: reach the drive again and send it once more. */
		if (rc < 0 && !relinked && relinkable(d, rc, sent, req.opcode)) {
			relinked = 1;
			rc = relink(d, gen);
			if (rc)
				break;
			continue;
		}
		if (rc != 1)
			break;
		if (!ss_room_wait(d, &room)) {
			rc = ss_room_wait_failed(d);
			break;
		}
	}
	ss_room_wait_done(d, &room);
	/* A long subject is cut so the reason after it stays in the message. */
	if (rc)
		return ss_err_context(rc, "%s%s%.*s%s", ss_opcode_name(req.opcode),
				      subject ? " " : "", SUBJECT_MAX, subject ? subject : "",
				      subject && strlen(subject) > SUBJECT_MAX ? "..." : "");
	return 0;
}

/* ---- open / close ------------------------------------------------------------------ */

static int open_transport(struct ss_dev *d, const char *uri)
{
	const char *colon = strchr(uri, ':');
	const char *path;
	size_t n;

	if (!colon || colon == uri)
		return ss_err(-EINVAL, 0, "device URI '%s' has no scheme (emu:, unix: or sg:)",
			      uri);
	n = (size_t)(colon - uri);
	path = colon + 1;
	if (!*path)
		return ss_err(-EINVAL, 0, "device URI '%s' has no path", uri);
	if (n >= sizeof(d->scheme))
		return ss_err(-EINVAL, 0, "device URI '%s': unknown scheme", uri);
	memcpy(d->scheme, uri, n);
	d->scheme[n] = '\0';
	if (!strcmp(d->scheme, "emu"))
		return ss_transport_emu_open(path, &d->tp);
	if (!strcmp(d->scheme, "unix"))
		return ss_transport_unix_open(path, &d->tp);
	if (!strcmp(d->scheme, "sg"))
		return ss_transport_sg_open(path, d->timeout_ms, &d->tp);
	return ss_err(-EINVAL, 0, "device URI '%s': unknown scheme '%s' (emu:, unix: or sg:)",
		      uri, d->scheme);
}

static int open_session(struct ss_dev *d)
{
	struct ss_pkt_req req = {.opcode = SS_OP_OPEN_SESSION};
	struct ss_pkt_reply rep;
	int rc;

	rc = obj_exec(d, &req, NULL, 0, &rep, NULL, 1);
	if (rc)
		return rc;
	if (rep.value0 == 0 || rep.value0 > 0xFFFF)
		return ss_err(-EPROTO, 0, "OPEN_SESSION returned session id %llu",
			      (unsigned long long)rep.value0);
	__atomic_store_n(&d->session, (uint16_t)rep.value0, __ATOMIC_RELEASE);
	__atomic_fetch_add(&d->link_gen, 1, __ATOMIC_ACQ_REL);
	return 0;
}

int ss_dev_open(const char *uri, const struct ss_dev_open_opts *opts, struct ss_dev **out)
{
	struct ss_dev *d;
	int rc;

	ss_err_clear();
	if (!uri || !out)
		return ss_err(-EINVAL, 0, "ss_dev_open: NULL argument");
	d = calloc(1, sizeof(*d));
	if (!d)
		return ss_err(-ENOMEM, 0, "out of memory");
	d->timeout_ms = opts && opts->timeout_ms ? opts->timeout_ms : DEFAULT_TIMEOUT_MS;
	d->busy_retry_ms = opts && opts->busy_retry_ms ? opts->busy_retry_ms
						       : SS_DEV_BUSY_RETRY_MS;
	pthread_mutex_init(&d->relink_lock, NULL);
	room_init(d);
	rc = open_transport(d, uri);
	if (rc)
		goto err_free;
	rc = open_session(d);
	if (rc)
		goto err_close;
	rc = ss_dev_drive_info(d, &d->info);
	if (rc)
		goto err_close;
	*out = d;
	return 0;

err_close:
	d->tp->ops->close(d->tp);
err_free:
	pthread_mutex_destroy(&d->relink_lock);
	room_destroy(d);
	free(d);
	return ss_err_context(rc, "%s", uri);
}

int ss_dev_close(struct ss_dev *d)
{
	struct ss_pkt_req req = {.opcode = SS_OP_CLOSE_SESSION};
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (!d)
		return 0;
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
	d->tp->ops->close(d->tp);
	pthread_mutex_destroy(&d->relink_lock);
	room_destroy(d);
	free(d);
	return rc;
}

const char *ss_dev_transport(const struct ss_dev *d)
{
	return d->scheme;
}

uint32_t ss_dev_sessions_opened(struct ss_dev *d)
{
	return ss_obj_link_gen(d);
}
