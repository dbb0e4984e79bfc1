/*
 * What a transport implements, for libsmartssd's own transports (sg:, unix:) and for the
 * one that lives with the emulator (firmware-tasklets/emu/host_transport.c: the emu: URI,
 * an emulated drive in this process). The final hand-off: one ATA PASS-THROUGH(16) CDB
 * with its data buffer to a drive, and the SCSI status and sense data back. Everything
 * above (packets, sessions, SMART) is shared by all transports. The emulator includes
 * this header; libsmartssd includes nothing of the emulator's, and links the emu:
 * transport only where the emulator is built.
 */
#ifndef SS_TRANSPORT_PROVIDER_H
#define SS_TRANSPORT_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include "smartssd/sat.h"
#include "smartssd/smartssd.h"

#define SS_SCSI_GOOD 0x00
#define SS_SCSI_CHECK_CONDITION 0x02

struct ss_xfer {
	uint8_t cdb[SS_SAT_CDB_LEN];
	void *data;
	uint32_t len;                     /* bytes; a multiple of 512 for data commands */
	uint8_t dir;                      /* enum ss_sat_dir */
	uint32_t timeout_ms;
	/* out */
	uint8_t scsi_status;
	uint32_t sense_len;
	uint8_t sense[SS_SAT_SENSE_MAX];
};

struct ss_transport;

struct ss_transport_ops {
	const char *name;
	/** Run one command. \return 0 when the drive completed it (outcome in scsi_status
	 *  and sense), or a negative errno when the transport failed (-ENOTCONN once the
	 *  drive or daemon is gone), with the per-thread message set. Thread-safe. */
	int (*submit)(struct ss_transport *t, struct ss_xfer *x);
	/** After the link closed: wait until the calls in flight on it have failed, then
	 *  connect anew. \return 1 when reconnected, 0 when the link was open (nothing
	 *  done), or a negative errno when the drive is not reachable. NULL where a link
	 *  cannot be re-established (emu:, sg:). submit tells what reached the drive:
	 *  -ENOTCONN means the command was not delivered (safe to send again after a
	 *  reconnect); -ECONNRESET means it was sent and its outcome is unknown. */
	int (*reconnect)(struct ss_transport *t);
	/** Modelled time and energy; -ENOTSUP for real drives. */
	int (*model)(struct ss_transport *t, struct ss_dev_model *m);
	/** The drive's energy ledger (SS_LEDGER_* of ss_devd_frame.h) for this link's client:
	 *  up to `cap` u64 fields of the reply into out, their count in *n. \return 0, the
	 *  ledger's negative errno (-EAGAIN, -ENOENT, -ENOSPC, -EINVAL), or a transport
	 *  failure; -ENOTSUP for real drives. */
	int (*ledger)(struct ss_transport *t, uint32_t op, uint64_t arg, uint64_t *out,
		      uint32_t cap, uint32_t *n);
	void (*close)(struct ss_transport *t);
};

struct ss_transport {
	const struct ss_transport_ops *ops;
	const char *path;                 /* the URI's path part */
};

/** Record (reason, message) for this thread. \return rc, for `return ss_err(...)`. */
int ss_err(int rc, int reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Prefix the recorded message with context ("LOOKUP /a/b: "). \return rc. */
int ss_err_context(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The emu: transport: in the emulator where it is built, else transport_emu_absent.c. */

/** Open the emulated drive at the URI path ("/path/img?option&..."). */
int ss_transport_emu_open(const char *path, struct ss_transport **out);

/* A format's options from the emu: URI (format.c). */
struct ss_format_opts {
	uint32_t max_objects;          /* 0: the object store's default */
	uint32_t cache_share_permille; /* 0: no cache; SS_DEV_CACHE_SHARE_DEFAULT: the default
					* where the flash has room for a cache part */
	char buffer_policy[16];        /* "": the firmware's default */
	uint64_t buffer_bytes;         /* 0: the default */
	uint32_t buffer_threshold;     /* 0: dynamic */
	uint32_t interface;            /* enum ss_dev_interface; 0: ftl */
	int force;                     /* 1: format what is there whatever it holds; 0: refuse a
					* file that is not an image, or an image holding objects */
};

/** Create and format an emulated drive's image (see ss_dev_format). capacity_bytes 0: the
 *  profile's; else rounded up to whole blocks on every die. \return 0 or negative errno
 *  with the per-thread message set (-ENOTSUP without the emulator). */
int ss_transport_emu_format(const char *path, const char *profile, uint64_t capacity_bytes,
			    const struct ss_format_opts *fo);

/* A buffer option of an emu: URI ("buffer=", "buffer_size=", "buffer_threshold=") into fo;
 * `what` starts the message. \return 0, 1 when opt is no buffer option, -EINVAL (message
 * set). */
int ss_buffer_option(const char *what, const char *opt, size_t n, struct ss_format_opts *fo);
/* SMARTSSD_SPIN_US (spin.c; its bounds in ss_devd_frame.h) into *us. \return 0, or
 * -EINVAL naming "<scheme> <path>" (message set). */
int ss_spin_setting(const char *scheme, const char *path, uint32_t *us);

/** \return the name of built-in emulator profile i, or NULL past the end (or without the
 *  emulator). */
const char *ss_transport_emu_profile_name(size_t i);

#endif
