/*
 * smartssd-devd's socket framing, both ends: the daemon (firmware-tasklets/emu/devd.c) and
 * libsmartssd's unix: transport use these encoders, decoders and socket I/O, so there is one
 * copy of the framing, tested once (protocol/tests/devd_frame_ut.c). The format is in
 * firmware-tasklets/emu/README.md, "Daemon socket framing". Little-endian.
 *
 *   request: 32-byte header (magic "SSDQ", tag, CDB, dir, data_len), then data to the drive;
 *            or a model-counters request (magic "SSDM", tag, 24 zero bytes)
 *            or an energy-ledger request (magic "SSDL", tag, op, 4 zero bytes, u64 arg,
 *            8 zero bytes)
 *   reply:   48-byte header (magic "SSDA", tag, SCSI status, sense length, sense, data_len),
 *            then data from the drive; a model reply's data is a u32 count N, a u32 0 and
 *            N u64 counters; a ledger reply's data is a u32 count N, an s32 status (0 or
 *            a negative errno) and N u64 fields
 */
#ifndef SS_DEVD_FRAME_H
#define SS_DEVD_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ss_wire.h"

#define SS_FRAME_COMMAND_MAGIC 0x51445353u /* "SSDQ" */
#define SS_FRAME_MODEL_MAGIC 0x4D445353u   /* "SSDM" */
#define SS_FRAME_LEDGER_MAGIC 0x4C445353u  /* "SSDL" */
#define SS_FRAME_REPLY_MAGIC 0x41445353u   /* "SSDA" */
#define SS_FRAME_REQUEST_HDR 32u
#define SS_FRAME_REPLY_HDR 48u
#define SS_FRAME_SENSE_MAX 32u
#define SS_FRAME_DATA_MAX 33554432u          /* 65536 sectors */
#define SS_FRAME_MODEL_MAX (8u + 8u * 64u)   /* the most model counters a reply may carry */

/*
 * A reply to no request, the first frame of a connection the daemon will not serve: it
 * closes the connection at once, for the reason in the sense (descriptor format, key, ASC,
 * ASCQ below). Clients do not use this tag for requests.
 */
#define SS_FRAME_TAG_NOTICE 0xFFFFFFFFu
/* DATA PROTECT, LOGICAL UNIT ACCESS NOT AUTHORIZED: not in the allow-list */
#define SS_FRAME_NOTICE_ACCESS_DENIED { 0x72, 0x07, 0x74, 0x71, 0, 0, 0, 0 }
/* ABORTED COMMAND, INSUFFICIENT RESOURCES: --max-connections are open */
#define SS_FRAME_NOTICE_TOO_MANY { 0x72, 0x0B, 0x55, 0x03, 0, 0, 0, 0 }

/* dir: the data phase */
#define SS_FRAME_DIR_NONE 0u
#define SS_FRAME_DIR_TO_DRIVE 1u
#define SS_FRAME_DIR_FROM_DRIVE 2u

enum ss_frame_kind { SS_FRAME_COMMAND, SS_FRAME_MODEL, SS_FRAME_LEDGER };

/* The energy ledger's operations (firmware-tasklets/emu/include/ss_emu_ledger.h). */
#define SS_LEDGER_JOIN 1u      /* arg: tasklet instance (0: none); reply: [ticket] */
#define SS_LEDGER_LEAVE 2u     /* arg: ticket; reply: [] */
#define SS_LEDGER_ABANDON 3u   /* arg: ticket; reply: [] */
#define SS_LEDGER_SHARE 4u     /* arg: ticket; reply: SS_REPLY_TASK_SHARE, or -EAGAIN */

struct ss_frame_request {
	enum ss_frame_kind kind;
	uint32_t tag;
	uint8_t cdb[16];        /* commands only */
	uint32_t dir;
	uint32_t data_len;      /* bytes of the data phase, either way */
	uint32_t ledger_op;     /* ledger requests: SS_LEDGER_* */
	uint64_t ledger_arg;
};

struct ss_frame_reply {
	uint32_t tag;
	uint8_t scsi_status;
	uint8_t sense_len;
	uint8_t sense[SS_FRAME_SENSE_MAX];
	uint32_t data_len;
};

/* Why a header was refused. */
enum ss_frame_error {
	SS_FRAME_OK = 0,
	SS_FRAME_BAD_MAGIC,
	SS_FRAME_BAD_RESERVED,  /* a model request with non-zero reserved bytes */
	SS_FRAME_BAD_DIR,
	SS_FRAME_BAD_LENGTH,    /* past SS_FRAME_DATA_MAX, or data with dir 0 */
	SS_FRAME_BAD_SENSE,
	SS_FRAME_BAD_OP,        /* a ledger request with an unknown operation */
};

static inline const char *ss_frame_error_name(enum ss_frame_error e)
{
	switch (e) {
	case SS_FRAME_OK: return "ok";
	case SS_FRAME_BAD_MAGIC: return "bad magic";
	case SS_FRAME_BAD_RESERVED: return "non-zero reserved bytes";
	case SS_FRAME_BAD_DIR: return "bad direction";
	case SS_FRAME_BAD_LENGTH: return "bad data length";
	case SS_FRAME_BAD_SENSE: return "bad sense length";
	case SS_FRAME_BAD_OP: return "unknown ledger operation";
	}
	return "unknown";
}

static inline void ss_frame_encode_request(uint8_t h[SS_FRAME_REQUEST_HDR],
					   const struct ss_frame_request *r)
{
	memset(h, 0, SS_FRAME_REQUEST_HDR);
	ss_put_le32(h + 4, r->tag);
	if (r->kind == SS_FRAME_MODEL) {
		ss_put_le32(h, SS_FRAME_MODEL_MAGIC);
		return;
	}
	if (r->kind == SS_FRAME_LEDGER) {
		ss_put_le32(h, SS_FRAME_LEDGER_MAGIC);
		ss_put_le32(h + 8, r->ledger_op);
		ss_put_le64(h + 16, r->ledger_arg);
		return;
	}
	ss_put_le32(h, SS_FRAME_COMMAND_MAGIC);
	memcpy(h + 8, r->cdb, 16);
	ss_put_le32(h + 24, r->dir);
	ss_put_le32(h + 28, r->dir == SS_FRAME_DIR_NONE ? 0 : r->data_len);
}

static inline enum ss_frame_error ss_frame_decode_request(const uint8_t h[SS_FRAME_REQUEST_HDR],
							  struct ss_frame_request *r)
{
	uint32_t magic = ss_get_le32(h);

	memset(r, 0, sizeof(*r));
	r->tag = ss_get_le32(h + 4);
	if (magic == SS_FRAME_MODEL_MAGIC) {
		for (unsigned i = 8; i < SS_FRAME_REQUEST_HDR; i++) {
			if (h[i] != 0) {
				return SS_FRAME_BAD_RESERVED;
			}
		}
		r->kind = SS_FRAME_MODEL;
		return SS_FRAME_OK;
	}
	if (magic == SS_FRAME_LEDGER_MAGIC) {
		r->kind = SS_FRAME_LEDGER;
		r->ledger_op = ss_get_le32(h + 8);
		r->ledger_arg = ss_get_le64(h + 16);
		for (unsigned i = 12; i < SS_FRAME_REQUEST_HDR; i++) {
			if (h[i] != 0 && (i < 16 || i >= 24)) {
				return SS_FRAME_BAD_RESERVED;
			}
		}
		if (r->ledger_op < SS_LEDGER_JOIN || r->ledger_op > SS_LEDGER_SHARE) {
			return SS_FRAME_BAD_OP;
		}
		return SS_FRAME_OK;
	}
	if (magic != SS_FRAME_COMMAND_MAGIC) {
		return SS_FRAME_BAD_MAGIC;
	}
	r->kind = SS_FRAME_COMMAND;
	memcpy(r->cdb, h + 8, 16);
	r->dir = ss_get_le32(h + 24);
	r->data_len = ss_get_le32(h + 28);
	if (r->dir > SS_FRAME_DIR_FROM_DRIVE) {
		return SS_FRAME_BAD_DIR;
	}
	if (r->data_len > SS_FRAME_DATA_MAX ||
	    (r->dir == SS_FRAME_DIR_NONE && r->data_len != 0)) {
		return SS_FRAME_BAD_LENGTH;
	}
	return SS_FRAME_OK;
}

static inline void ss_frame_encode_reply(uint8_t h[SS_FRAME_REPLY_HDR],
					 const struct ss_frame_reply *r)
{
	uint8_t n = r->sense_len > SS_FRAME_SENSE_MAX ? SS_FRAME_SENSE_MAX : r->sense_len;

	memset(h, 0, SS_FRAME_REPLY_HDR);
	ss_put_le32(h, SS_FRAME_REPLY_MAGIC);
	ss_put_le32(h + 4, r->tag);
	h[8] = r->scsi_status;
	h[9] = n;
	memcpy(h + 12, r->sense, n);
	ss_put_le32(h + 44, r->data_len);
}

static inline enum ss_frame_error ss_frame_decode_reply(const uint8_t h[SS_FRAME_REPLY_HDR],
							struct ss_frame_reply *r)
{
	if (ss_get_le32(h) != SS_FRAME_REPLY_MAGIC) {
		return SS_FRAME_BAD_MAGIC;
	}
	r->tag = ss_get_le32(h + 4);
	r->scsi_status = h[8];
	r->sense_len = h[9];
	if (r->sense_len > SS_FRAME_SENSE_MAX) {
		return SS_FRAME_BAD_SENSE;
	}
	memcpy(r->sense, h + 12, SS_FRAME_SENSE_MAX);
	r->data_len = ss_get_le32(h + 44);
	return SS_FRAME_OK;
}

/* The counter at index i of a model reply of len bytes (8 + 8 N); 0 past N. */
static inline uint64_t ss_frame_model_at(const uint8_t *b, uint32_t len, uint32_t i)
{
	uint32_t n = len >= 8 ? ss_get_le32(b) : 0;

	return i < n && 8u + 8u * i + 8u <= len ? ss_get_le64(b + 8 + 8 * i) : 0;
}

/* ---- socket I/O (host only: libsmartssd and the daemon link ss_devd_frame) ---------- */

#define SS_FRAME_RBUF 8192

/* Buffered reads of one connection: headers come through the buffer, large data goes
 * straight to its destination. */
struct ss_frame_reader {
	int fd;
	size_t start, end;      /* unread bytes of buf */
	uint8_t buf[SS_FRAME_RBUF];
};

struct iovec;

static inline void ss_frame_reader_init(struct ss_frame_reader *r, int fd)
{
	r->fd = fd;
	r->start = r->end = 0;
}

/*
 * Read exactly n bytes, waiting at most until deadline_ms (CLOCK_MONOTONIC; 0: no limit).
 * \return 0; -ECONNRESET at the end of the stream; -ETIMEDOUT at the deadline; or another
 * negative errno.
 */
int ss_frame_read(struct ss_frame_reader *r, void *dst, size_t n, long long deadline_ms);

/*
 * Busy-poll for the next bytes for up to spin_us microseconds, as a poller would, before
 * the caller blocks in ss_frame_read: a reply that comes within the spin is taken without
 * the wake-up of a sleeping thread. 0 spins not at all. It spins only while called, so an
 * idle reader that blocks after it costs no CPU.
 * \return 1 when bytes are buffered, 0 when none came (or the stream ended or failed: the
 * blocking read then reports it).
 */
int ss_frame_spin(struct ss_frame_reader *r, uint32_t spin_us);

/* SMARTSSD_SPIN_US: how long a waiting side polls before it sleeps, in microseconds, one
 * setting for both ends of the socket (and the emulated drive's threads); unset is
 * SS_SPIN_US_DEFAULT, 0 sleeps at once. */
#define SS_SPIN_US_DEFAULT 50u
#define SS_SPIN_US_MAX 100000u

/* SMARTSSD_SPIN_US's value `v` into *us. \return 0, or -1 unless v is a decimal number
 * from 0 to SS_SPIN_US_MAX. */
int ss_spin_us_parse(const char *v, uint32_t *us);

/* Write every byte of iov[0..n) (the iovecs are consumed). \return 0 or a negative errno;
 * SIGPIPE is never raised. */
int ss_frame_send(int fd, struct iovec *iov, int n);

/* CLOCK_MONOTONIC in ms, the clock of ss_frame_read's deadlines. */
long long ss_frame_now_ms(void);

#endif
