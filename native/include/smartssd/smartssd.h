/*
 * libsmartssd: the host's door to one Smart SSD, real (sg:) or emulated (emu:, unix:).
 *
 * Every call is thread-safe and synchronous. Buffers are the caller's: no call allocates
 * per command, so JNI can hand in direct ByteBuffers. Every call returns 0 (or a positive
 * count) on success and a negative errno on failure; the calling thread can then ask for
 * the detail: the drive's protocol reason code (enum ss_reason of ss_proto.h, SS_R_*) and
 * a message naming the problem.
 *
 * A drive that goes away (daemon killed, device unplugged) fails every waiting and later
 * call with -ENOTCONN and a message saying so; nothing hangs. A drive that refuses a
 * command BUSY (its reply slots or reply memory taken, by this process or others; nothing
 * ran) is waited out inside the library: the call sleeps until a thread of this handle takes
 * a reply, or for a backoff up to 5 ms, and sends again; queued calls first keep fewer
 * commands in the drive. -EAGAIN with reason SS_R_BUSY is returned only after a wait of the
 * retry budget (SS_DEV_BUSY_RETRY_MS, or busy_retry_ms) without room. Opening a session when
 * connected clients hold every one is waited out the same way, then fails with -EAGAIN and
 * reason SS_R_TOO_MANY_SESSIONS. A daemon that refuses the connection answers -EACCES
 * (this user is not allowed) or -EUSERS (its --max-connections are open).
 */
#ifndef SMARTSSD_SMARTSSD_H
#define SMARTSSD_SMARTSSD_H

#include <stddef.h>
#include <stdint.h>

#include "ss_proto_replies.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ss_dev; /* opaque: one open drive */

#define SS_DEV_NAME_MAX 255
#define SS_DEV_MSG_MAX 1024   /* a refusal names two paths, the problem and the way back */
#define SS_DEV_BUSY_RETRY_MS 10000

/* Object types (ss_dev_stat.type, ss_dev_create type). */
enum ss_dev_type {
	SS_DEV_FILE = 1,
	SS_DEV_DIR = 2,
	SS_DEV_OUTPUT = 3, /* a tasklet output object */
};

/* Flags. Values equal the protocol's (ss_proto.h). */
#define SS_DEV_CREATE_EXCL 0x1u          /* fail with -EEXIST if it exists */
#define SS_DEV_CREATE_PARENTS 0x2u       /* create missing parent directories */
#define SS_DEV_WRITE_FUA 0x1u            /* durable before the call returns */
#define SS_DEV_REMOVE_RECURSIVE 0x1u     /* remove a directory and everything below it */
#define SS_DEV_RENAME_NOREPLACE 0x1u     /* fail with -EEXIST if dst exists */
#define SS_DEV_TIME_KEEP UINT64_MAX      /* ss_dev_set_times: leave this time unchanged */

/* ---- per-thread error detail ------------------------------------------------------ */

/** Reason code (SS_R_* of ss_proto.h) of this thread's last failed call; 0 after success
 *  or when the failure was not the drive's (e.g. transport or argument errors). */
int ss_dev_last_reason(void);

/** Message of this thread's last failed call ("" after success). Valid until the thread's
 *  next libsmartssd call. */
const char *ss_dev_last_message(void);

/** Copies the last message into buf (NUL-terminated, truncated). \return its full length. */
size_t ss_dev_last_message_copy(char *buf, size_t len);

/** Symbolic name of a reason code, e.g. "NO_SUCH_OBJECT"; "UNKNOWN" for others. */
const char *ss_dev_reason_name(int reason);

/* ---- open / close ----------------------------------------------------------------- */

struct ss_dev_open_opts {
	uint32_t timeout_ms;   /* per ATA command on sg: (0: 30000) */
	uint32_t busy_retry_ms;/* longest wait for room after BUSY (0: SS_DEV_BUSY_RETRY_MS) */
};

/**
 * Open a drive by URI:
 *   emu:/path/drive.img   the emulated drive in this process (the image must exist)
 *   unix:/path/dev.sock   an emulated drive served by smartssd-devd
 *   sg:/dev/sdX           a real drive through SG_IO (ATA PASS-THROUGH(16))
 * Opens a protocol session on the drive. opts may be NULL.
 * \return 0 and *out, or -EINVAL (bad URI), -ENOENT, -EBUSY (image in use: the message
 *         says to use the daemon), -ECONNREFUSED, -EPROTO (not a Smart SSD), ...
 */
int ss_dev_open(const char *uri, const struct ss_dev_open_opts *opts, struct ss_dev **out);

/** Close the session and the transport. No call on d may be running or follow.
 *  \return 0, or a negative errno if the session could not be closed cleanly (d is freed
 *  in every case). */
int ss_dev_close(struct ss_dev *d);

/** Transport name of d: "emu", "unix" or "sg". */
const char *ss_dev_transport(const struct ss_dev *d);

/** Protocol sessions d has opened: 1 from ss_dev_open, one more each time it reconnected
 *  (the link closed, or the drive forgot the session in a daemon restart). */
uint32_t ss_dev_sessions_opened(struct ss_dev *d);

/**
 * Create an emulated drive's image and format it: the emulator's factory step, after which
 * ss_dev_open("emu:PATH") opens it and smartssd-devd can serve it. An existing file is
 * overwritten only when that loses nothing (it is empty, or an image whose drive holds no
 * object) or the URI says "force=1"; otherwise -EEXIST, the message naming what is there.
 *   uri       emu:/path/drive.img, optionally with "?max_objects=N" (the object table's
 *             size; 0 or absent: the object store's default) and "cache_share=PCT" (the
 *             solid-state cache's share of the flash, 0 to SS_DEV_CACHE_SHARE_MAX_PCT, or
 *             "default": SS_DEV_CACHE_SHARE_DEFAULT_PCT where the flash has room for a
 *             cache part, else none, as `smartssd format` asks; absent: 0, no cache),
 *             "buffer=POLICY" (the drive's DRAM buffer: none, lru, fab, bplru, lbclock or
 *             hbm; absent: hbm), "buffer_size=BYTES" (a multiple of the page; absent or 0:
 *             4 MiB, or two erase blocks where that is more) and "buffer_threshold=N"
 *             (HBM's migration threshold in pages; absent or 0: dynamic), "force=1"
 *             (overwrite whatever is there), joined by '&'. The open options
 *             ("time=...") are accepted and have no effect here.
 *   profile   a built-in model profile name (ss_dev_profile_name), or a path to a profile
 *             file; NULL or "" for the default, kang-smartssd
 *   capacity_bytes  raw flash, rounded up to whole blocks on every die; 0: the profile's
 * err (may be NULL) receives the message, as ss_dev_last_message() does.
 * \return 0, -ENOTSUP for unix: and sg: URIs (a daemon's image is formatted by
 *         smartssd-devd --format, a real drive by its vendor's tools) or when the library
 *         was built without the emulator, -EINVAL (bad URI or option), -ENOENT (no such
 *         profile), -EBUSY (the image is open elsewhere), -EEXIST (the file is not an
 *         image, or its drive holds objects, and force=1 was not given), ...
 */
#define SS_DEV_CACHE_SHARE_DEFAULT_PCT 25u  /* a drive formatted by the smartssd tool */
#define SS_DEV_CACHE_SHARE_DEFAULT UINT32_MAX /* per mille: the default where it fits */
#define SS_DEV_CACHE_SHARE_MAX_PCT 90u

int ss_dev_format(const char *uri, const char *profile, uint64_t capacity_bytes, char *err,
		  size_t errlen);

/** \return the name of built-in emulator profile i (0, 1, ...), or NULL past the last one
 *  (always NULL in a build without the emulator). */
const char *ss_dev_profile_name(size_t i);

/* ---- drive ------------------------------------------------------------------------ */

/* proto_version, page_size, channels, ways, queue_depth, isp_batch_pages (uint32_t),
 * capacity_bytes (uint64_t), model[41], serial[21], firmware_rev[9] (NUL-terminated,
 * trailing blanks removed): the fields of DRIVE_INFO's reply, SS_REPLY_DRIVE_INFO. */
struct ss_dev_info {
	SS_REPLY_DRIVE_INFO(SS_API_MEMBER, _)
};

/** \return 0 or negative errno. */
int ss_dev_drive_info(struct ss_dev *d, struct ss_dev_info *info);

/* capacity_bytes, free_bytes (uint64_t), objects, max_objects, page_size (uint32_t):
 * the fields of FSSTAT's reply, SS_REPLY_FSSTAT. */
struct ss_dev_fsstat {
	SS_REPLY_FSSTAT(SS_API_MEMBER, _)
};

/** \return 0 or negative errno. */
int ss_dev_fsstat(struct ss_dev *d, struct ss_dev_fsstat *st);

/** Make everything written so far durable. \return 0 or negative errno. */
int ss_dev_flush(struct ss_dev *d);

/* The drive's own counters (SS_OP_COUNTERS): FTL activity and energy inputs. */
/* host_page_reads, host_page_writes, nand_page_reads, nand_page_writes, block_erases,
 * gc_page_moves (uint64_t), retired_blocks, free_blocks, min_erase_count,
 * max_erase_count, avg_erase_count, write_amplification_milli (uint32_t), power_on_ns
 * (uint64_t, modelled device time): the fields of COUNTERS' reply, SS_REPLY_COUNTERS. */
struct ss_dev_counters {
	SS_REPLY_COUNTERS(SS_API_MEMBER, _)
};

/** \return 0 or negative errno. */
int ss_dev_counters(struct ss_dev *d, struct ss_dev_counters *c);

/* The object store's consistency check (SS_OP_CHECK): the fields of CHECK's reply,
 * SS_REPLY_CHECK. problem 0: consistent; else what was found wrong first, at object
 * problem_oid, logical page problem_lpn, tree level problem_level (PROTOCOL.md 5).
 * mounted 0: the drive came up without its store (its mount check found the problem). */
struct ss_dev_check {
	SS_REPLY_CHECK(SS_API_MEMBER, _)
};

/** Runs the drive's object-store check. \return 0 whether or not a problem is found (it
 *  is in c->problem), or negative errno when the check could not run. */
int ss_dev_check(struct ss_dev *d, struct ss_dev_check *c);

/* The emulator's timing and energy model (emulated drives, emu: and unix:). Every figure
 * follows from counted operations and profile constants: deterministic, never host
 * wall-clock. */
/* The fields of SS_REPLY_MODEL (ss_proto_replies.h), all uint64_t: NAND operations,
 * link and ISP activity, busy times, now_ns (modelled device time), energies (nJ), and
 * host_now_ns, the host clock: the latest host command's completion. now_ns may be later
 * (background work runs ahead of the host); differences of host_now_ns time host-only work. */
struct ss_dev_model {
	SS_REPLY_MODEL(SS_API_MEMBER, _)
};

/** \return 0, -ENOTSUP (a real drive has no model), or another negative errno. */
int ss_dev_model_counters(struct ss_dev *d, struct ss_dev_model *m);

/* The drive's energy ledger (emulated drives): the drive's modelled energy divided among
 * the tasks (tasklet runs) that overlap on it, from whichever process, by each task's own
 * counted work as the drive reads it from its tasklet instance; whole nJ that add up
 * exactly to the drive's energy over the period (firmware-tasklets/emu/include/
 * ss_emu_ledger.h). A ticket belongs to this handle's connection; when the connection
 * closes its tasks leave with no work. The fields of SS_REPLY_TASK_SHARE, all uint64_t. */
struct ss_dev_task_share {
	SS_REPLY_TASK_SHARE(SS_API_MEMBER, _)
};

/** Join the drive's period for tasklet instance `instance` (0: no work of its own), before
 *  the run is executed. \return 0 and *ticket, -ENOENT (no such instance), -ENOSPC (too
 *  many tickets on the drive), -ENOTSUP (a real drive). */
int ss_dev_energy_join(struct ss_dev *d, uint64_t instance, uint64_t *ticket);

/** Leave: with the instance's counted work (call it before destroying the instance), or
 *  with none when `abandon` (a failed run). \return 0, -ENOENT, -EINVAL (left already). */
int ss_dev_energy_leave(struct ss_dev *d, uint64_t ticket, int abandon);

/** The ticket's share once its period has ended (the ticket is then forgotten).
 *  \return 0, -EAGAIN while other tasks of its period are still running, -ENOENT. */
int ss_dev_energy_share(struct ss_dev *d, uint64_t ticket, struct ss_dev_task_share *s);

/* ---- namespace and object data ---------------------------------------------------- */

/* oid, parent (uint64_t), type (enum ss_dev_type), nchildren (uint32_t), size, ctime_ns,
 * mtime_ns, atime_ns, page_writes (uint64_t), extent_count (uint32_t), name (NUL-terminated;
 * "" for the root): the fields of STAT's reply, SS_REPLY_STAT. */
struct ss_dev_stat {
	SS_REPLY_STAT(SS_API_MEMBER, _)
};

/** Stat by path. \return 0 or negative errno (-ENOENT, -ENOTDIR, ...). */
int ss_dev_lookup(struct ss_dev *d, const char *path, struct ss_dev_stat *st);

/** Stat by object id. \return 0 or negative errno. */
int ss_dev_stat(struct ss_dev *d, uint64_t oid, struct ss_dev_stat *st);

/** Create a file, directory or output object at path (flags SS_DEV_CREATE_*).
 *  \return 0 and *oid (may be NULL), or negative errno (-EEXIST, -ENOENT, -ENOSPC...). */
int ss_dev_create(struct ss_dev *d, const char *path, uint32_t type, uint32_t flags,
		  uint64_t *oid);

/** Write len bytes at offset (any size: split into protocol-sized commands).
 *  \return bytes written (== len) or negative errno. */
int64_t ss_dev_write(struct ss_dev *d, uint64_t oid, uint64_t offset, const void *buf,
		     size_t len, uint32_t flags);

/** Read up to len bytes at offset. \return bytes read (short at end of object) or
 *  negative errno. */
int64_t ss_dev_read(struct ss_dev *d, uint64_t oid, uint64_t offset, void *buf, size_t len);

/*
 * A submission queue, one per thread (after blk-mq's per-core software queues: Bjørling
 * et al., "Linux Block IO" [Bjørling 2015, ch. 3], §3.2, Fig. 5): up to `depth` reads
 * and writes outstanding in the drive at once, each under its own tag of the device's
 * session (the drive's hardware queue: 32 reply slots per session, SATA NCQ). A command is
 * sent when queued, and its outcome taken by ss_dev_queue_reap, oldest first. The drive
 * runs commands in the order they are sent. Queued writes are ORDERED (PROTOCOL.md 4.3):
 * once one fails, the drive runs none of this session's later queued writes to the same
 * object until that failure is reaped. ss_dev_queue_read and ss_dev_queue_write return
 * BUSY (-EAGAIN) to their caller; ss_dev_write_queued and ss_dev_read_ranges do not: when
 * the drive refuses a piece BUSY they reap before sending more and keep one piece fewer in
 * the drive than they had there, or, with none of theirs in it, wait for room as a plain
 * call does. The emulated drive models queued commands as
 * overlapping (firmware-tasklets/emu/model.c, "Queue depth"). Not thread-safe: one thread
 * per queue.
 */
#define SS_DEV_QUEUE_DEPTH_MAX 32u
#define SS_DEV_QUEUE_READ_MAX (1u << 20)
#define SS_DEV_QUEUE_WRITE_MAX (1u << 20)

struct ss_dev_queue;
struct ss_dev_ppa;

/** \return 0, or -EINVAL for a depth outside 1..SS_DEV_QUEUE_DEPTH_MAX, -ENOMEM. */
int ss_dev_queue_open(struct ss_dev *d, uint32_t depth, struct ss_dev_queue **out);
/** Queue a read of len (at most SS_DEV_QUEUE_READ_MAX) bytes at offset of oid into buf,
 *  which must stay valid until reaped. \return 0; -EBUSY when `depth` reads are
 *  outstanding (reap one first); -EAGAIN when the session's reply slots are taken by other
 *  threads (reap, or retry); or a negative errno (nothing queued). */
int ss_dev_queue_read(struct ss_dev_queue *q, uint64_t oid, uint64_t offset, void *buf,
		      uint32_t len);
/** Queue a write of len (at most SS_DEV_QUEUE_WRITE_MAX) bytes from buf at offset of oid;
 *  flags 0 or SS_DEV_WRITE_FUA. buf must stay unchanged until reaped. \return as
 *  ss_dev_queue_read. */
int ss_dev_queue_write(struct ss_dev_queue *q, uint64_t oid, uint64_t offset, const void *buf,
		       uint32_t len, uint32_t flags);
/** Queue a VECTOR_READ of n (1..SS_VECTOR_MAX) sectors by physical address, as
 *  ss_dev_vector_read_meta does (meta may be NULL), on an open-channel drive: the sectors
 *  go into buf (n * 512 bytes) and their metadata into meta (n * 8) when reaped; both must
 *  stay valid until then. The drive runs it in the order queued, overlapping with the
 *  queue's other commands where they use other dies and channels. A rule it breaks
 *  (READ_UNWRITTEN, LBA_RANGE for an address outside the geometry, CHUNK_OFFLINE) comes
 *  back at reap. \return as ss_dev_queue_read; reaped, the bytes read (n * 512). */
int ss_dev_queue_vector_read(struct ss_dev_queue *q, const struct ss_dev_ppa *ppa, uint32_t n,
			     void *buf, void *meta);
/** Take the oldest outstanding command's outcome: a read's data into its buffer. *buf (may
 *  be NULL) gets that buffer. \return bytes read (short at the end of the object) or
 *  written, -ENODATA when nothing is outstanding, or the command's negative errno
 *  (-ECANCELED, reason CANCELED, for a write after a failed one). */
int64_t ss_dev_queue_reap(struct ss_dev_queue *q, void **buf);
/** \return reads queued and not yet reaped. */
uint32_t ss_dev_queue_pending(const struct ss_dev_queue *q);
/** Reap (and drop) what is outstanding, then free the queue. NULL is allowed. */
void ss_dev_queue_close(struct ss_dev_queue *q);
/** ss_dev_write with up to `depth` (1..SS_DEV_QUEUE_DEPTH_MAX) pieces of
 *  SS_DEV_QUEUE_WRITE_MAX bytes in the drive at once. On failure the object holds the
 *  pieces before the first that failed, as with ss_dev_write, and none after it.
 *  \return bytes written (== len) or the first failure's negative errno. */
int64_t ss_dev_write_queued(struct ss_dev *d, uint64_t oid, uint64_t offset, const void *buf,
			    size_t len, uint32_t flags, uint32_t depth);
/** Read n ranges of oid (offsets[i], lens[i] bytes) into buf, back to back in range
 *  order, through a queue `depth` deep (ranges longer than SS_DEV_QUEUE_READ_MAX go in
 *  pieces); counts[i] gets range i's bytes (short at the object's end). For vectored reads.
 *  \return the bytes read, or the first failure's negative errno (nothing left queued). */
int64_t ss_dev_read_ranges(struct ss_dev *d, uint64_t oid, uint32_t n, const uint64_t *offsets,
			   const uint32_t *lens, void *buf, uint32_t depth, uint32_t *counts);

/** \return 0 or negative errno. */
int ss_dev_truncate(struct ss_dev *d, uint64_t oid, uint64_t size);

/** Remove path (flags SS_DEV_REMOVE_*). \return 0 or negative errno (-ENOTEMPTY...). */
int ss_dev_remove(struct ss_dev *d, const char *path, uint32_t flags);

/** \return 0 or negative errno. */
int ss_dev_rename(struct ss_dev *d, const char *src, const char *dst, uint32_t flags);

struct ss_dev_dirent {
	uint64_t oid;
	uint32_t type;
	char name[SS_DEV_NAME_MAX + 1];
};

/**
 * List directory path. Start with *cursor = 0; each call fills up to max entries and
 * updates *cursor, which is 0 when the listing is complete.
 * \return number of entries filled, or negative errno.
 */
int ss_dev_list(struct ss_dev *d, const char *path, uint64_t *cursor,
		struct ss_dev_dirent *ents, uint32_t max);

/** Set modification and access time (ns since epoch; SS_DEV_TIME_KEEP keeps one).
 *  \return 0 or negative errno. */
int ss_dev_set_times(struct ss_dev *d, uint64_t oid, uint64_t mtime_ns, uint64_t atime_ns);

/* Named attributes of an object (PROTOCOL.md 4.6): names of 1..SS_DEV_ATTR_NAME_MAX bytes,
 * at most SS_DEV_ATTRS_MAX bytes of names and values (+3 per attribute) per object. */
#define SS_DEV_ATTR_NAME_MAX 255u
#define SS_DEV_ATTRS_MAX 1024u
#define SS_DEV_ATTR_CREATE 0x1u   /* ss_dev_set_attr: -EEXIST when the name is set */
#define SS_DEV_ATTR_REPLACE 0x2u  /* ss_dev_set_attr: -ENODATA when it is not */

/** Set attribute `name` (a C string) of oid to value_len bytes. \return 0 or negative
 *  errno: -ENAMETOOLONG, -E2BIG (over SS_DEV_ATTRS_MAX), -EEXIST / -ENODATA (flags). */
int ss_dev_set_attr(struct ss_dev *d, uint64_t oid, const char *name, const void *value,
		    size_t value_len, uint32_t flags);

/** Copy up to `max` bytes of the value of `name` to buf. \return the value's full length,
 *  or negative errno (-ENODATA: no such attribute). */
int64_t ss_dev_get_attr(struct ss_dev *d, uint64_t oid, const char *name, void *buf,
			size_t max);

/** The names of oid's attributes, each followed by a NUL, up to `max` bytes copied.
 *  \return the list's full length (at most SS_DEV_ATTRS_MAX), or negative errno. */
int64_t ss_dev_list_attrs(struct ss_dev *d, uint64_t oid, char *buf, size_t max);

/** \return 0 or negative errno (-ENODATA: no such attribute). */
int ss_dev_remove_attr(struct ss_dev *d, uint64_t oid, const char *name);

struct ss_dev_extent {
	uint64_t offset;       /* byte offset in the object */
	uint64_t lba;          /* first 512-byte LBA on the drive */
	uint32_t sectors;
};

/** Extents of oid's bytes [offset, offset+len). \return number filled, or negative
 *  errno. */
int ss_dev_extents(struct ss_dev *d, uint64_t oid, uint64_t offset, uint64_t len,
		   struct ss_dev_extent *ext, uint32_t max);

/* ---- tasklets (in-storage processing) --------------------------------------------- */

/* A record layout; same meaning as struct ss_layout of smartssd/tasklet.h. */
#define SS_DEV_LAYOUT_MAX_FIELDS 16
struct ss_dev_field {
	uint16_t offset;   /* FIXED: byte offset in the record; TEXT: column index */
	uint8_t type;      /* SS_FIELD_* */
	uint8_t width;
	uint8_t shift;
	uint8_t bits;
	uint16_t null_bit; /* FIXED: 0 never NULL; k + 1: NULL when record bit k is set */
};

struct ss_dev_layout {
	uint8_t kind;      /* 1 fixed, 2 text */
	uint8_t line_delim;
	uint8_t field_sep;
	uint8_t nfields;
	uint32_t record_size;
	struct ss_dev_field fields[SS_DEV_LAYOUT_MAX_FIELDS];
};

struct ss_dev_tasklet_spec {
	uint32_t tasklet_id;
	uint32_t mem_budget;   /* bytes */
	uint64_t step_limit;   /* 0: the drive's default */
	uint64_t output_oid;   /* from ss_dev_create_output */
	struct ss_dev_layout layout; /* all zero: none (tasklets that take raw pages) */
	uint64_t output_limit; /* most output bytes the run may write; 0: no limit */
};

struct ss_dev_input {
	uint64_t oid;
	uint64_t offset;
	uint64_t length;
};

enum ss_dev_tasklet_state {
	SS_DEV_TASKLET_CREATED = 1,
	SS_DEV_TASKLET_RUNNING = 2,
	SS_DEV_TASKLET_DONE = 3,
	SS_DEV_TASKLET_FAILED = 4,
};

/* state (enum ss_dev_tasklet_state), error (int32_t, negative errno when FAILED),
 * pages_done, pages_total, records, output_bytes, instructions, dram_accesses, started_ns,
 * finished_ns (uint64_t, times modelled device time): SS_REPLY_PROGRESS. */
struct ss_dev_progress {
	SS_REPLY_PROGRESS(SS_API_MEMBER, _)
};

/** Create an output object at path for a tasklet's results. \return 0 and *oid, or
 *  negative errno. */
int ss_dev_create_output(struct ss_dev *d, const char *path, uint32_t flags, uint64_t *oid);

/** Create a tasklet instance with its static parameters. \return 0 and *instance, or
 *  negative errno (-ENOENT + SS_R_UNKNOWN_TASKLET, -EINVAL + SS_R_BAD_LAYOUT /
 *  SS_R_TASKLET_PARAMS, -EAGAIN + SS_R_BUSY when no instance is free...). */
int ss_dev_tasklet_create(struct ss_dev *d, const struct ss_dev_tasklet_spec *spec,
			  const void *params, uint32_t params_len, uint64_t *instance);

/** Start instance over n input ranges (length UINT64_MAX: to the object's end).
 *  \return 0 or negative errno. */
int ss_dev_tasklet_execute(struct ss_dev *d, uint64_t instance,
			   const struct ss_dev_input *in, uint32_t n);

/** Progress poll. A failed run fills p (state FAILED, error) and returns its error with
 *  the reason (SS_R_TASKLET_STEPS, SS_R_TASKLET_BUDGET, ...). \return 0 or negative
 *  errno. */
int ss_dev_tasklet_poll(struct ss_dev *d, uint64_t instance, struct ss_dev_progress *p);

/** Read output bytes [offset, offset+len) of instance (at most SS_PKT_MAX_PAYLOAD - 72
 *  bytes a call); p (may be NULL) gets the progress, also when the run failed.
 *  \return bytes read or negative errno. */
int64_t ss_dev_tasklet_read(struct ss_dev *d, uint64_t instance, uint64_t offset,
			    void *buf, size_t len, struct ss_dev_progress *p);

/** \return 0 or negative errno. */
int ss_dev_tasklet_destroy(struct ss_dev *d, uint64_t instance);

/* ---- Parquet scans (the drive's parquet-scan tasklet) ------------------------------ */

/* A scan of a Parquet file stored as an object, by a plan the host made from its footer:
 * the parquet-scan tasklet's params (firmware-tasklets/tasklets/README.md, "6 parquet-scan";
 * struct ss_bt_pq_params and what follows it in smartssd/builtin_tasklets.h). */
struct ss_dev_parquet_scan {
	uint64_t file_oid;     /* the Parquet file */
	const void *plan;
	uint32_t plan_len;     /* at most 4096 bytes: a larger scan is several, by row groups */
	uint32_t mem_budget;   /* bytes the drive gives the run: the plan's largest row group's
				* chunks, values and dictionaries, and AGGREGATE's groups */
	uint64_t output_oid;   /* an output object (ss_dev_create_output) the result goes to */
	uint32_t timeout_ms;   /* longest wait for the run (0: 120 s) */
};

#define SS_DEV_PARQUET_SCAN_ID 6u    /* enum ss_builtin_id SS_BT_PARQUET_SCAN */

/**
 * Run a scan plan in the drive over the whole file object, wait for it and read its
 * result: the tasklet's output (projected rows, or group items, then the 32-byte trailer).
 * \param out set to the result, malloc'd (free() it); *out_len its bytes
 * \param p the final progress (may be NULL): counted work and modelled times
 * \return 0, or negative errno with the reason: -ENOSYS INPUT_UNSUPPORTED (a codec, encoding,
 *  type or page the drive does not decode: read the file on the host), -EILSEQ
 *  INPUT_MALFORMED, -ENODATA PLAN_MISMATCH (the plan is not of this file), -EINVAL
 *  TASKLET_PARAMS, -ENOMEM TASKLET_BUDGET, -ENOENT UNKNOWN_TASKLET (a drive without it, the
 *  Jasmine board's), -ETIMEDOUT.
 */
int ss_dev_parquet_scan(struct ss_dev *d, const struct ss_dev_parquet_scan *s, uint8_t **out,
			size_t *out_len, struct ss_dev_progress *p);

/* The drive's in-storage queue (ISP_QUEUE), every host's runs: instances executing (queued
 * or running), priced (1: backlog_ns and page_ns are the drive's estimates; 0: it cannot
 * price its work) (uint32_t); pages_remaining, backlog_ns (modelled ns of ISP core work:
 * each run's pages left x its counted cost per page so far, or x page_ns before its first
 * page), page_ns (uint64_t): SS_REPLY_ISP_QUEUE. */
struct ss_dev_isp_queue {
	SS_REPLY_ISP_QUEUE(SS_API_MEMBER, _)
};

/** \return 0, or negative errno: -ENOSYS with reason SS_R_BAD_OPCODE from a drive that
 *  does not report its queue. */
int ss_dev_isp_queue(struct ss_dev *d, struct ss_dev_isp_queue *q);

/* ---- eBPF tasklet programs (PROTOCOL.md 4.7, docs/tasklets.md) ----------------------- */

#define SS_DEV_PROGRAM_NAME_MAX 63u   /* bytes of [A-Za-z0-9._-] */
#define SS_DEV_PROGRAMS_MAX 64u       /* programs a drive keeps */
#define SS_DEV_PROGRAM_REPLACE 0x1u   /* ss_dev_program_load: replace one of that name */
/* The "bpf" tasklet kind (SS_BT_BPF of builtin_tasklets.h) runs a loaded program: its
 * params are struct ss_bt_bpf_params. */
#define SS_DEV_TASKLET_BPF 7u

struct ss_dev_program {
	char name[SS_DEV_PROGRAM_NAME_MAX + 1];
	uint32_t insns;
	uint64_t loaded_ns;   /* host time of its load */
};

/* Why the drive's verifier refused a program: reason (its SS_BPF_REASONS code of
 * ss_bpf_reasons.h, named by ss_dev_verifier_reason_name) and the instruction's index. */
struct ss_dev_program_refusal {
	int reason;
	uint32_t insn;
};

/**
 * Load the program of an ELF object (clang -O2 -target bpf -c) under name. The drive
 * verifies it and keeps it across power cycles. \return its instructions (> 0), or negative
 * errno: -EINVAL (or -E2BIG for one too long) with reason SS_R_PROGRAM_REFUSED when the
 * verifier refused it (why, when not NULL, says where and why; so does the message),
 * -EEXIST without SS_DEV_PROGRAM_REPLACE, -ENOSPC past SS_DEV_PROGRAMS_MAX, -ENOSYS with
 * BAD_OPCODE from a drive without eBPF tasklets (the Jasmine board).
 */
int ss_dev_program_load(struct ss_dev *d, const char *name, const void *elf, size_t len,
			uint32_t flags, struct ss_dev_program_refusal *why);

/** The drive's programs, up to max of them into out. \return how many it has, or negative
 *  errno. */
int ss_dev_program_list(struct ss_dev *d, struct ss_dev_program *out, uint32_t max);

/** \return 0, or negative errno (-ENOENT with UNKNOWN_TASKLET for no such program). */
int ss_dev_program_remove(struct ss_dev *d, const char *name);

/** The name of a verifier reason code ("OUT_OF_BOUNDS"...), "UNKNOWN" for others. */
const char *ss_dev_verifier_reason_name(int reason);

/* ---- open-channel and zoned drives (PROTOCOL.md 4.8) ------------------------------- */

/*
 * A drive formatted with smartssd format --interface open-channel or zoned (format option
 * "interface=open-channel|zoned") has no FTL: the host writes chunks (zones) itself, at
 * their write pointers, in whole minimum write units (ws_min sectors of 512 bytes), and a
 * chunk is erased with a reset. Every other command of this API but the drive-info, flush
 * and close ones fails on such a drive with -EOPNOTSUPP, reason SS_R_WRONG_INTERFACE,
 * whose message names the drive's interface; an FTL drive answers these likewise.
 */
enum ss_dev_interface {
	SS_DEV_IFACE_FTL = 0,
	SS_DEV_IFACE_OPEN_CHANNEL = 1,
	SS_DEV_IFACE_ZONED = 2,
};

/* GEOMETRY: iface (enum ss_dev_interface), groups (channels), pus (dies per channel), chunks (per PU),
 * sector_bytes, chunk_sectors, ws_min, ws_opt, offline_chunks, endurance (uint32_t),
 * zone_sectors (uint64_t, the LBA stride of chunks): SS_REPLY_GEOMETRY. */
struct ss_dev_geometry {
	SS_REPLY_GEOMETRY(SS_API_MEMBER, _)
};

/* A chunk or zone: state (enum ss_chunk_state of ss_proto.h: 1 free, 2 open, 3 opened
 * explicitly, 4 closed, 5 full, 6 offline), wear (erases) (uint32_t); slba, wp (the write
 * pointer as an LBA), capacity (sectors) (uint64_t): SS_REPLY_CHUNK. */
struct ss_dev_chunk {
	SS_REPLY_CHUNK(SS_API_MEMBER, _)
};

/* A physical address: sector of chunk of parallel unit pu of group. */
struct ss_dev_ppa {
	uint32_t group;
	uint32_t pu;
	uint32_t chunk;
	uint32_t sector;
};

enum ss_dev_zone_action {
	SS_DEV_ZONE_OPEN = 0,
	SS_DEV_ZONE_CLOSE = 1,
	SS_DEV_ZONE_FINISH = 2,
	SS_DEV_ZONE_RESET = 3,
};

/** The drive's interface and geometry. \return 0, or -EOPNOTSUPP from an FTL drive. */
int ss_dev_geometry(struct ss_dev *d, struct ss_dev_geometry *g);

/** Up to `max` chunks from index `first` (group-major, then PU, then chunk) of an
 *  open-channel drive into out. \return the number given (0 past the last), or negative
 *  errno. */
int ss_dev_chunk_report(struct ss_dev *d, uint64_t first, struct ss_dev_chunk *out, uint32_t max);

/** The same for the zones of a zoned drive. */
int ss_dev_zone_report(struct ss_dev *d, uint64_t first, struct ss_dev_chunk *out, uint32_t max);

/** Write sector ppa[i] from data + 512 i, for i < n (at most 64 at once, SS_VECTOR_MAX:
 *  split larger vectors). The whole vector is checked before any of it is written:
 *  -EINVAL with reason SS_R_NOT_WRITE_POINTER, SS_R_WRITE_UNIT or SS_R_CHUNK_FULL,
 *  -EIO SS_R_CHUNK_OFFLINE. \return 0 or negative errno. */
int ss_dev_vector_write(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			const void *data);

/** Read sector ppa[i] into out + 512 i, for i < n (at most 64). A sector at or past its
 *  chunk's write pointer: -EINVAL, SS_R_READ_UNWRITTEN. \return 0 or negative errno. */
int ss_dev_vector_read(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n, void *out);

/** As ss_dev_vector_write, each sector also carrying SS_SECTOR_META (8) bytes of
 *  out-of-band metadata from meta + 8 i, kept in its page's spare area (OCSSD 2.0's
 *  per-sector metadata). A drive whose spare cannot hold them: -EINVAL, SS_R_BAD_FIELD. */
int ss_dev_vector_write_meta(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			     const void *data, const void *meta);

/** As ss_dev_vector_read, with each sector's metadata into meta + 8 i (all 0xFF for a
 *  sector written without any). */
int ss_dev_vector_read_meta(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			    void *out, void *meta);

/** Erase the chunks of ppa[0..n) (sector 0 each; n at most 64), counting one erase of
 *  wear each. A chunk whose erase fails goes offline: -EIO, SS_R_CHUNK_OFFLINE.
 * \return 0 or negative errno. */
int ss_dev_chunk_reset(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n);

/** Open, close, finish or reset the zone starting at LBA slba. A change its state does
 *  not allow: -EINVAL, SS_R_ZONE_STATE. \return 0 or negative errno. */
int ss_dev_zone_mgmt(struct ss_dev *d, enum ss_dev_zone_action action, uint64_t slba);

/** Append len bytes (whole ws_min units) to the zone starting at slba; *lba (may be NULL)
 *  is where they went. \return 0 or negative errno (-ENOSPC SS_R_CHUNK_FULL). */
int ss_dev_zone_append(struct ss_dev *d, uint64_t slba, const void *data, size_t len,
		       uint64_t *lba);

/* ---- solid-state cache (FlashTier SSC) -------------------------------------------- */

/*
 * A cache for the blocks of a slower backing store, in the drive beside the object store,
 * addressed by the backing store's own 64-bit block numbers (block UINT64_MAX excepted).
 * A cache block is block_size bytes (one flash page). Each block of a range keeps its
 * guarantee: write_dirty is durable on return; write_clean may be lost in a crash but never
 * leaves older data readable, and never replaces a block cached dirty (its data stays); read returns the data or "not present" (never an error);
 * evict is durable on return; clean may revert to dirty after a crash; exists reads the
 * drive's memory only. Ranges of any length are split into protocol-sized commands; a
 * failure stops the range, and the blocks before it keep their guarantee.
 * Errors: -ENOSYS when the drive was formatted without a cache; -ENOSPC (reason
 * DRIVE_FULL) when the cache is full of dirty data and nothing was dropped; -EINVAL for a
 * range that is empty or wraps past block UINT64_MAX - 1.
 */

/* block_size (0 without a cache), share_permille, capacity_blocks, policy (0 SSC, 1 SSC-V),
 * log_permille, read_hits, read_misses, silent_evicted_pages, silent_evicted_blocks,
 * dirty_blocks, cached_blocks, host_page_writes, nand_page_writes, block_erases,
 * write_amplification_milli, map_dram_bytes: the fields of SSC_INFO's reply,
 * SS_REPLY_SSC_INFO. */
struct ss_dev_cache_info {
	SS_REPLY_SSC_INFO(SS_API_MEMBER, _)
};

/** \return 0 or negative errno (a drive without a cache answers with block_size 0). */
int ss_dev_cache_info(struct ss_dev *d, struct ss_dev_cache_info *ci);

/** Cache count blocks from buf (count * block_size bytes) as dirty. \return 0 or
 *  negative errno. */
int ss_dev_cache_write_dirty(struct ss_dev *d, uint64_t first, uint64_t count, const void *buf);

/** Cache count blocks from buf as clean copies of the backing store's. \return 0 or
 *  negative errno. */
int ss_dev_cache_write_clean(struct ss_dev *d, uint64_t first, uint64_t count, const void *buf);

/** Read count blocks into buf (count * block_size bytes; a block not present is zeros);
 *  bit i of present (LSB first, ceil(count / 8) bytes) is set when block first + i was.
 *  \return the number of blocks present, or negative errno. */
int64_t ss_dev_cache_read(struct ss_dev *d, uint64_t first, uint64_t count, void *buf,
			  uint8_t *present);

/** \return 0 once the blocks are out of the cache, durably; or negative errno. */
int ss_dev_cache_evict(struct ss_dev *d, uint64_t first, uint64_t count);

/** Mark the blocks clean (the backing store has their data). \return 0 or negative errno. */
int ss_dev_cache_clean(struct ss_dev *d, uint64_t first, uint64_t count);

/** Bit i of dirty (ceil(count / 8) bytes) is set when block first + i is present and dirty.
 *  \return the number of such blocks, or negative errno. */
int64_t ss_dev_cache_exists(struct ss_dev *d, uint64_t first, uint64_t count, uint8_t *dirty);

/* A range of a cache scan: `blocks` cache blocks from `first_block` hold the file's blocks
 * from `file_block` on. */
struct ss_dev_scan_range {
	uint64_t first_block;
	uint64_t blocks;
	uint64_t file_block;
};

/* What a cache scan did in the drive: it read file blocks [file_block, file_block +
 * blocks) and ran the tasklet over records [first_record, first_record + records). */
struct ss_dev_scan_run {
	uint64_t file_block;
	uint64_t blocks;
	uint64_t first_record;
	uint64_t records;
};

/**
 * Run a tasklet instance (FIXED layout) over the cached blocks of one file of file_bytes
 * bytes, in the drive, now (SSC_SCAN): the records lying wholly inside runs of blocks
 * present, at most SS_SSC_SCAN_MAX_RUNS runs; the result is in the instance's output
 * (ss_dev_tasklet_read). ranges: 1..SS_SSC_SCAN_MAX_RANGES, in file order; runs: room
 * for SS_SSC_SCAN_MAX_RUNS. digest: NULL for blocks that are raw file bytes, else the
 * file version's 32-byte digest, and the blocks are in the caching FileSystem's format
 * (PROTOCOL.md 4.5, checked as they are read). \return the runs done (0: the tasklet did
 * not run), or negative errno: -ENOSYS without a cache, -ENOENT for an unknown instance,
 * -EINVAL (reason BAD_LAYOUT) for one that is not FIXED records, -EINVAL for bad ranges,
 * -EPROTO (reason STALE_BLOCK) for a block not of the digest's version.
 */
int ss_dev_cache_scan(struct ss_dev *d, uint64_t instance, uint64_t file_bytes,
		      const uint8_t *digest, const struct ss_dev_scan_range *ranges,
		      uint32_t n_ranges, struct ss_dev_scan_run *runs);

/* ---- SMART health (parsed by libatasmart, named by the drive's table) ----------------------------------------- */

/* Values equal libatasmart's SkSmartOverall. */
enum ss_dev_smart_overall {
	SS_DEV_SMART_GOOD = 0,
	SS_DEV_SMART_BAD_ATTRIBUTE_IN_THE_PAST = 1,
	SS_DEV_SMART_BAD_SECTOR = 2,
	SS_DEV_SMART_BAD_ATTRIBUTE_NOW = 3,
	SS_DEV_SMART_BAD_SECTOR_MANY = 4,
	SS_DEV_SMART_BAD_STATUS = 5,
};

/* Values equal libatasmart's SkSmartAttributeUnit. */
enum ss_dev_smart_unit {
	SS_DEV_SMART_UNIT_UNKNOWN = 0,
	SS_DEV_SMART_UNIT_NONE = 1,
	SS_DEV_SMART_UNIT_MSECONDS = 2,
	SS_DEV_SMART_UNIT_SECTORS = 3,
	SS_DEV_SMART_UNIT_MKELVIN = 4,
	SS_DEV_SMART_UNIT_SMALL_PERCENT = 5,
	SS_DEV_SMART_UNIT_PERCENT = 6,
	SS_DEV_SMART_UNIT_MB = 7,
};

/* One SMART attribute as libatasmart parses it (field list: kinds as in
 * ss_proto_replies.h). current, worst: normalised values; good_now: 1 good, 0 failing
 * (only when good_now_valid); pretty_unit: enum ss_dev_smart_unit; raw: the 6 raw bytes,
 * little-endian; pretty_value: libatasmart's reading of raw, in pretty_unit (wrong for
 * some of this drive's attributes: native/PROTOCOL.md 6.2). name and unit (raw's) are the
 * drive's own (SS_PROTO_SMART_ATTRS of ss_proto.h); atasmart_name is libatasmart's name
 * for the id where it means the same quantity, else empty. Strings are NUL-terminated.
 * The JNI packing and the Java record's layout come from this list too. */
#define SS_DEV_SMART_ATTR(X, a)              \
	X(a, u8, id, 1)                      \
	X(a, u8, current, 1)                 \
	X(a, u8, worst, 1)                   \
	X(a, u8, threshold, 1)               \
	X(a, u8, threshold_valid, 1)         \
	X(a, u8, prefailure, 1)              \
	X(a, u8, good_now, 1)                \
	X(a, u8, good_now_valid, 1)          \
	X(a, u16, flags, 2)                  \
	X(a, u32, pretty_unit, 4)            \
	X(a, u64, raw, 8)                    \
	X(a, u64, pretty_value, 8)           \
	X(a, cstr, name, 32)                 \
	X(a, cstr, unit, 16)                 \
	X(a, cstr, atasmart_name, 32)

struct ss_dev_smart_attr {
	SS_DEV_SMART_ATTR(SS_API_MEMBER, _)
};

/* The SMART summary: overall (enum ss_dev_smart_overall), status_good (SMART RETURN
 * STATUS said good (1) or failing (0)), power_on_ms (0 when the drive does not report
 * it), bad_sectors, nattrs (attributes present; may exceed the caller's max). */
#define SS_DEV_SMART(X, a)                   \
	X(a, u32, overall, 4)                \
	X(a, u32, status_good, 4)            \
	X(a, u64, power_on_ms, 8)            \
	X(a, u64, bad_sectors, 8)            \
	X(a, u32, nattrs, 4)

struct ss_dev_smart {
	SS_DEV_SMART(SS_API_MEMBER, _)
};

/**
 * SMART health. Fills up to max attributes into attrs (may be NULL when max is 0) and
 * the summary into h. \return number of attributes filled, or negative errno.
 */
int ss_dev_smart(struct ss_dev *d, struct ss_dev_smart *h, struct ss_dev_smart_attr *attrs,
		 uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
