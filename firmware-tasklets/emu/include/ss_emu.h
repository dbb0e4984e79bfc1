/*
 * The emulated drive: the firmware (ss_fw.h) running on the emulated NAND
 * (ss_emu_flash.h), behind the same interface a real SATA drive has under SG_IO: ATA
 * PASS-THROUGH(16) CDBs in, SCSI status and sense out. Commands run on the submitting
 * thread, one at a time; a controller thread runs the firmware's background work in
 * slices between them. Host commands run first: no slice starts while one is waiting.
 *
 * Library target: ss_emu_drive.
 */
#ifndef SS_EMU_H
#define SS_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "ss_emu_flash.h"

struct ss_emu_drive;

enum ss_emu_time_mode {
	SS_EMU_TIME_VIRTUAL = 0,  /* as fast as the host runs; modelled time is reported */
	SS_EMU_TIME_REALTIME = 1, /* completions are paced to modelled time */
};

#define SS_EMU_QUEUE_DEPTH 32

/* SCSI status values ss_emu_submit returns in *scsi_status. */
#define SS_EMU_SCSI_GOOD 0x00
#define SS_EMU_SCSI_CHECK_CONDITION 0x02

/* Data phase of a submitted command. */
#define SS_EMU_DIR_NONE 0
#define SS_EMU_DIR_TO_DRIVE 1
#define SS_EMU_DIR_FROM_DRIVE 2

struct ss_emu_drive_opts {
	struct ss_emu_flash_opts flash;  /* profile, geometry, endurance, DRAM; `create` is
					  * ignored (ss_emu_format creates, ss_emu_open does not) */
	enum ss_emu_time_mode time_mode;
	uint32_t max_objects;            /* ss_emu_format: 0 = the object store's default */
	uint32_t cache_share_permille;   /* ss_emu_format: the solid-state cache's share of the
					  * flash (ss_fw_format_params); 0 = no cache,
					  * SS_FW_CACHE_SHARE_DEFAULT = 25 % where it fits */
	const char *buffer_policy;       /* the DRAM buffer's policy (NULL: at format the
					  * firmware's default, hbm; at open the drive's), see
					  * ss_fw_format_params; set at open, it is changed from
					  * this mount on */
	uint64_t buffer_bytes;           /* ss_emu_format: its size; 0 = the default */
	uint32_t buffer_threshold;       /* ss_emu_format: HBM's threshold; 0 = dynamic */
	uint32_t interface;              /* ss_emu_format: enum ss_interface (ss_proto.h); 0 =
					  * the FTL, else an open-channel or zoned drive */
	const char *withheld_opcodes;    /* comma-separated opcode names (ISP_QUEUE,...) the
					  * firmware answers BAD_OPCODE, as firmware that
					  * predates them (ss_fw_withhold_opcode); NULL: none */
	int manual_background;           /* 1: no controller thread; background work runs
					  * only in ss_emu_run_background() (tests that
					  * need one exact interleaving) */
	int discard_nvram;               /* ss_emu_open: start the merge cache's NVRAM
					  * (<image>.nvram) empty even when it is missing, another
					  * drive's or corrupt, dropping the acknowledged writes it
					  * held; ss_emu_notice says what was dropped. Otherwise such
					  * an NVRAM refuses the open, saying what is wrong */
	uint32_t spin_us;                /* how long the controller polls for work after its
					  * last slice, and a submitter or the controller for
					  * the firmware's lock, before sleeping; 0: sleep at
					  * once. At most SS_EMU_SPIN_US_MAX. Host CPU time
					  * only: no modelled figure depends on it */
};

#define SS_EMU_SPIN_US_MAX 100000u

/**
 * Create the image (overwriting any old one) and format the firmware on it.
 * `out` may be NULL: the drive is then shut down cleanly and closed.
 * \return 0 or negative errno; err names the problem.
 */
int ss_emu_format(const char *path, const struct ss_emu_drive_opts *o,
		  struct ss_emu_drive **out, char *err, size_t errlen);

/** What bringing the drive up dropped because it was asked to (discard_nvram), in words for
 *  the operator; "" when nothing. */
const char *ss_emu_notice(const struct ss_emu_drive *d);

/**
 * Whether formatting `path` loses nothing: it does not exist, is empty, or is an image
 * whose drive holds no object (or was never formatted). The tools that format for users
 * (smartssd format, smartssd-devd --format) ask before ss_emu_format unless told --force;
 * an image in use by another process is refused (it cannot be examined).
 * \return 0, or -SS_EEXIST (err names what would be lost), or -SS_EIO.
 */
int ss_emu_format_guard(const char *path, char *err, size_t errlen);

/**
 * Open a formatted image and mount the firmware (recovering after a crash).
 * \return 0, or negative errno (-SS_EBUSY: another process has the image; -SS_ENODATA:
 *         not formatted; ...); err names the problem.
 */
int ss_emu_open(const char *path, const struct ss_emu_drive_opts *o,
		struct ss_emu_drive **out, char *err, size_t errlen);

/**
 * Execute one command, exactly what SG_IO would carry to a SATA drive: a 16-byte ATA
 * PASS-THROUGH CDB, the data buffer of `len` bytes and its direction (SS_EMU_DIR_*).
 * Thread-safe; the command runs on the calling thread once the firmware is free (after
 * the command or background slice it is running) and the call returns when it is done (in
 * realtime mode, at its modelled completion time). At most SS_EMU_QUEUE_DEPTH commands
 * are in the drive at once; more submitters wait for a slot.
 * On return *scsi_status is GOOD, or CHECK CONDITION with descriptor-format sense in
 * `sense` (ATA Status Return descriptor when the firmware ran the command).
 * \return the sense length (0 when GOOD), or negative errno when the drive is closing
 *         (-SS_ECANCELED) or the arguments are unusable (-SS_EINVAL).
 */
int ss_emu_submit(struct ss_emu_drive *d, const uint8_t cdb[16], void *data, uint32_t len,
		  int dir, uint8_t *sense, uint32_t sense_cap, uint8_t *scsi_status);

/**
 * ss_emu_submit on behalf of client `owner` (non-zero), for a server of several clients
 * (smartssd-devd: one per connection). The firmware gives a session to the client that
 * opened it (ss_fw_set_owner) and keeps what each client holds apart, until
 * ss_emu_owner_gone.
 */
int ss_emu_submit_as(struct ss_emu_drive *d, uint32_t owner, const uint8_t cdb[16], void *data,
		     uint32_t len, int dir, uint8_t *sense, uint32_t sense_cap,
		     uint8_t *scsi_status);

/**
 * Client `owner` went away: the firmware closes its sessions, drops the replies they hold
 * and destroys its tasklet instances (ss_fw_owner_gone). Thread-safe; a no-op once the
 * drive is closing.
 */
void ss_emu_owner_gone(struct ss_emu_drive *d, uint32_t owner);

/**
 * Run up to `max_slices` slices of the firmware's background work (tasklet runs, GC,
 * checkpoints) on the calling thread; 0 runs it to completion. Commands submitted
 * meanwhile go between slices. For tests and benchmarks that want queued runs finished
 * before they read counters, or (with manual_background) one exact interleaving of
 * commands and slices. It does not pace to the wall clock, even in realtime mode. Stops
 * early when a slice reports more work but does none (work that cannot proceed now).
 * \return the number of slices run.
 */
int ss_emu_run_background(struct ss_emu_drive *d, unsigned max_slices);

/** Snapshot the timing and energy counters (safe from any thread). */
void ss_emu_get_counters(struct ss_emu_drive *d, struct ss_emu_counters *c);

/** The firmware's DRAM buffer: parameters and counters since the drive came up. */
struct ss_buf_params;
struct ss_buf_stats;
void ss_emu_buffer_stats(struct ss_emu_drive *d, struct ss_buf_params *p, struct ss_buf_stats *st);

/**
 * Readings for the drive's operator (smartssd-devd's metrics), each under the firmware's
 * lock for as long as it copies: a fixed-size reply's payload (ss_fw_read_reply: DRIVE_INFO,
 * FSSTAT, COUNTERS, ISP_QUEUE, SSC_INFO) and SMART's attributes (ss_fw_smart_attributes).
 * Not commands: nothing they read (link bytes, host commands, sectors) moves.
 * \return as ss_fw_read_reply and ss_fw_smart_attributes.
 */
struct ss_fw_smart_attr;
int ss_emu_read_reply(struct ss_emu_drive *d, uint16_t opcode, void *buf, uint32_t cap);
int ss_emu_smart_attributes(struct ss_emu_drive *d, struct ss_fw_smart_attr *a, uint32_t max);

/** The rated endurance (P/E cycles) of the image's blocks, as the firmware prices wear. */
uint32_t ss_emu_endurance(const struct ss_emu_drive *d);

/** The drive's model profile (host power profile included). */
const struct ss_emu_profile *ss_emu_profile(struct ss_emu_drive *d);

/**
 * Finish the commands already queued, shut the firmware down cleanly (checkpoint) and
 * close the image. \return 0 or the firmware's shutdown error.
 */
int ss_emu_close(struct ss_emu_drive *d);

/** \return 0 and *m for "virtual" or "realtime", else -SS_EINVAL. */
int ss_emu_time_mode_parse(const char *s, enum ss_emu_time_mode *m);

#endif
