/*
 * The command layer shared by device.c (object commands), ata.c (standard ATA commands
 * through SAT) and smart.c.
 */
#ifndef SS_NATIVE_DEVICE_INTERNAL_H
#define SS_NATIVE_DEVICE_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "packet.h"
#include "smartssd/sat.h"
#include "smartssd/smartssd.h"
#include "transport.h"

#define SS_DEV_SCHEME_MAX 8

struct ss_dev {
	struct ss_transport *tp;
	char scheme[SS_DEV_SCHEME_MAX];   /* "emu", "unix", "sg" */
	uint16_t session;                 /* atomic */
	uint32_t seq;                     /* atomic: low 16 bits of the next tag */
	uint32_t link_gen;                /* atomic: sessions opened since ss_dev_open */
	pthread_mutex_t relink_lock;      /* one reconnect + OPEN_SESSION at a time */
	pthread_mutex_t room_lock;        /* with room_freed: threads waiting out BUSY */
	pthread_cond_t room_freed;        /* a reply was taken, so the drive has room again */
	uint32_t room_waiters;            /* atomic: threads of this handle waiting for room */
	uint32_t timeout_ms;
	uint32_t busy_retry_ms;
	struct ss_dev_info info;          /* read at open */
	uint32_t cache_block_size;        /* atomic: the cache's block size once asked; 0 before */
};

/**
 * Run one standard ATA command through the transport. regs (may be NULL) receives the
 * returned registers when the drive sent them (ck_cond, or an error).
 * \return 0; -EIO (ATA error; with ABRT the reason code from LBA[15:0] is recorded and
 *         its errno returned), or a transport errno. The per-thread detail is set.
 */
int ss_ata_exec(struct ss_dev *d, const struct ss_sat_cmd *c, void *data, uint32_t len,
		struct ss_sat_regs *regs);

/**
 * Run one object command: SEND the request, RECV its reply (paired by tag), retrying
 * BUSY with backoff. The reply's payload points into a per-thread buffer valid until the
 * thread's next command.
 * `subject` (a path, "oid N"; may be NULL) names what the command was about in messages.
 * \return the reply's status (0 or negative errno, with reason and message recorded), or
 *         a transport / protocol errno.
 */
/** The message of a program the verifier refused (reply value0 = its reason, value1 = the
 *  instruction), under reason SS_R_PROGRAM_REFUSED. \return rc. */
int ss_program_refused(int rc, const struct ss_pkt_reply *rep, const char *subject);

int ss_obj_exec(struct ss_dev *d, const struct ss_pkt_req *req, const struct ss_pkt_seg *segs,
		int nseg, struct ss_pkt_reply *rep, const char *subject);

/*
 * The two halves of ss_obj_exec, for a queue that keeps several commands in the drive at
 * once (queue.c). ss_obj_send encodes req under a fresh tag (set in req) into pkt (cap
 * bytes) and SENDs it; *reply_sectors is the reply's size the drive announced (0: unknown).
 * \return 0 when the drive holds the reply; -EAGAIN with reason BUSY when its reply slots
 * are full (nothing ran); else as ss_ata_exec.
 * ss_obj_recv RECVs the reply of req into buf (rwire bytes at most) and decodes it.
 * \return as ss_obj_exec, and 1 for a reply that says BUSY.
 */
int ss_obj_send(struct ss_dev *d, struct ss_pkt_req *req, const struct ss_pkt_seg *segs,
		int nseg, uint8_t *pkt, size_t cap, uint32_t *reply_sectors);
int ss_obj_recv(struct ss_dev *d, const struct ss_pkt_req *req, uint8_t *buf, size_t rwire,
		uint32_t reply_sectors, struct ss_pkt_reply *rep);
/* The link's generation (sessions opened so far): read it before an ss_obj_send. */
uint32_t ss_obj_link_gen(struct ss_dev *d);
/* After ss_obj_send of `opcode` failed with rc (the request did not reach the drive):
 * reconnect and open a new session where that cures it (the daemon restarted), as a plain
 * command does, unless another thread did since generation `gen`. \return 1 when the
 * request may be sent again, 0 when relinking does not cure rc, or a negative errno. */
int ss_obj_relink_unsent(struct ss_dev *d, int rc, uint16_t opcode, uint32_t gen);

/*
 * A VECTOR_READ, the one encoding for the plain call (host_chunk.c) and the submission
 * queue (queue.c). ss_vector_read_req checks ppa[0..n) and puts them in wire order into
 * addr (SS_VECTOR_MAX * 16 bytes), and sets up req: n sectors, their metadata too when
 * `meta`. ss_vector_read_unpack copies a reply's sectors into out and metadata into meta
 * (may be NULL). \return 0 or negative errno (the detail recorded).
 */
int ss_vector_read_req(const struct ss_dev_ppa *ppa, uint32_t n, int meta, uint8_t *addr,
		       struct ss_pkt_req *req, const char *what);
int ss_vector_read_unpack(const struct ss_pkt_reply *rep, uint32_t n, void *out, void *meta);

/*
 * Waiting out BUSY, the one mechanism for it: a drive that refused a command BUSY (its
 * reply slots or reply memory taken; nothing ran) has room again once a reply is taken, by
 * this process or another. A waiter sleeps until a thread of this handle takes a reply, or
 * for a backoff that doubles up to 5 ms (room freed by other processes), for at most the
 * handle's busy_retry_ms from the first refusal. While a thread waits, this handle's queues
 * reap before they send, so threads that keep commands in the drive give way to one that
 * has none there.
 */
struct ss_room_wait {
	uint64_t deadline_us;
	uint32_t delay_us;
	int waiting;
};

/* \return whether rc is a refusal for want of room (BUSY: nothing ran). */
int ss_room_refused(int rc);
/* After a refusal: wait for room. \return 1 to send again, 0 when the bound is spent. */
int ss_room_wait(struct ss_dev *d, struct ss_room_wait *w);
/* After the command got in (or the caller gives up): no longer waiting. */
void ss_room_wait_done(struct ss_dev *d, struct ss_room_wait *w);
/* The error for a bound spent: -EAGAIN, reason BUSY, saying what was waited for. */
int ss_room_wait_failed(struct ss_dev *d);
/* \return whether a thread of this handle waits for room. */
int ss_room_wanted(struct ss_dev *d);

/*
 * One field of a fixed reply from its wire struct W at `p` into the API struct at `out`
 * (the field lists of ss_proto_replies.h): SS_REPLY_x(SS_DECODE, W). A `name` field takes
 * the count of the len16 field before it, which the caller has checked (name_len).
 */
#define SS_DECODE(W, kind, name, bytes) SS_DECODE_##kind(W, name, bytes)
#define SS_DECODE_u32(W, name, bytes) out->name = SS_WIRE32(p, W, name);
#define SS_DECODE_i32(W, name, bytes) out->name = (int32_t)SS_WIRE32(p, W, name);
#define SS_DECODE_u64(W, name, bytes) out->name = SS_WIRE64(p, W, name);
#define SS_DECODE_str(W, name, bytes) ss_copy_trimmed(out->name, p + offsetof(struct W, name), bytes);
#define SS_DECODE_rsv16(W, name, bytes)
#define SS_DECODE_rsv32(W, name, bytes)
#define SS_DECODE_len16(W, name, bytes)
#define SS_DECODE_name(W, name, bytes)                                                    \
	memcpy(out->name, p + offsetof(struct W, name), name_len);                         \
	out->name[name_len] = '\0';

/** Copy a blank-padded ATA-style string of n bytes, trimmed and NUL-terminated (n + 1). */
void ss_copy_trimmed(char *dst, const uint8_t *src, size_t n);

/** The checks of a write call's arguments (ss_dev_write, ss_dev_write_queued): a buffer
 *  for len bytes, and an offset + length within int64. 0, or the errno it recorded. */
int ss_check_write_args(const void *buf, size_t len, uint64_t offset);

/** Name of an opcode for messages ("LOOKUP"). */
const char *ss_opcode_name(uint16_t opcode);

#endif
