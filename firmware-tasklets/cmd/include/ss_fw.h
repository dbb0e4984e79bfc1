/*
 * The firmware's entry points: bring the drive up (format or mount the FTL, object store
 * and ISP engine), execute one ATA command, and do background work when idle.
 *
 * The caller (the emulator's controller thread, or a board's main loop) serialises calls:
 * the firmware is single-threaded. Host commands are executed as they arrive; ss_fw_idle()
 * runs between them, so host I/O is never queued behind tasklets or GC.
 */
#ifndef SS_FW_H
#define SS_FW_H

#include <stdint.h>

#include "ss_hal.h"
#include "ss_nvram.h"

struct ss_fw;

/* ATA registers in (48-bit / EXT form). */
struct ss_ata_taskfile {
	uint8_t command;
	uint8_t device;
	uint16_t features;
	uint16_t count;       /* sectors */
	uint64_t lba;         /* 48 bits */
};

/* ATA registers out. */
struct ss_ata_result {
	uint8_t status;       /* ATA status: DRDY 0x40, ERR 0x01, ... */
	uint8_t error;        /* ATA error: ABRT 0x04, IDNF 0x10, UNC 0x40 ... */
	uint16_t count;
	uint64_t lba;         /* on error with ABRT: the reason code (PROTOCOL.md) */
};

#define SS_ATA_STATUS_ERR  0x01
#define SS_ATA_STATUS_DF   0x20
#define SS_ATA_STATUS_DRDY 0x40
#define SS_ATA_STATUS_BSY  0x80
#define SS_ATA_ERROR_ABRT  0x04
#define SS_ATA_ERROR_IDNF  0x10
#define SS_ATA_ERROR_UNC   0x40

struct ss_fw_format_params {
	uint32_t max_objects;  /* 0: the object store's default */
	/* Per mille of the flash for the solid-state cache (ss_ssc_part.h, at most
	 * SS_SSC_SHARE_MAX_PERMILLE); 0: no cache, the whole flash is the FTL's, as on a drive
	 * formatted before the cache existed; params NULL: the same.
	 * SS_FW_CACHE_SHARE_DEFAULT: SS_SSC_SHARE_DEFAULT_PERMILLE (25 %) when the flash has
	 * room for a cache part, else none; what the tools that format a drive for users
	 * (smartssd format, smartssd-devd --format) ask for unless told otherwise. */
	uint32_t cache_share_permille;
	/* The drive's DRAM buffer (firmware-tasklets/buffer/): a policy name ("none", "lru",
	 * "fab", "bplru", "lbclock", "hbm"; NULL: "hbm"), its size in bytes (0: 4 MiB) and
	 * HBM's migration threshold (0: dynamic). Kept on the drive; a mount uses them. */
	const char *buffer_policy;
	uint64_t buffer_bytes;
	uint32_t buffer_threshold;
	/* enum ss_interface (ss_proto.h): 0, the FTL with the object store and the cache;
	 * SS_IFACE_OPEN_CHANNEL or SS_IFACE_ZONED, the whole flash as chunks or zones the host
	 * writes itself, kept in the drive's label (no cache share, object store or buffer).
	 * -SS_ENOSYS from a firmware built without them (the board's). */
	uint32_t interface;
};

#define SS_FW_CACHE_SHARE_DEFAULT UINT32_MAX

/** DRAM the whole firmware needs for a geometry with the default cache share and a buffer
 *  of `buffer_bytes` (0: the default); ss_fw_dram_needed() is this with the default. */
uint64_t ss_fw_dram_needed_with_buffer(const struct ss_geometry *geo, uint64_t buffer_bytes);

/** The drive's DRAM buffer: its parameters and counters since power-up (zeroed when the
 *  drive is down). For benchmarks that replay traces; hosts read them with COUNTERS. */
struct ss_buf_stats;
struct ss_buf_params;
void ss_fw_buffer_stats(const struct ss_fw *fw, struct ss_buf_params *p, struct ss_buf_stats *st);

/** DRAM the whole firmware needs for a geometry. */
uint64_t ss_fw_dram_needed(const struct ss_geometry *geo);

/** Erase and initialise the flash, then bring the drive up. \return 0 or negative errno. */
int ss_fw_format(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_format_params *p);

/** Bring a formatted drive up, recovering from a crash if there was one.
 *  \return 0, -SS_ENODATA (not formatted), -SS_EBADMSG (metadata corrupt), ... */
int ss_fw_mount(struct ss_fw **out, struct ss_hal *hal);

/** The layer whose mount failed, for the caller's message (struct ss_fw_mount_report). */
enum ss_fw_layer {
	SS_FW_LAYER_NONE = 0,
	SS_FW_LAYER_CACHE_LABEL = 1,   /* the label that splits the flash with the cache */
	SS_FW_LAYER_FTL = 2,           /* the FTL's checkpoints and roll-forward */
	SS_FW_LAYER_CACHE = 3,         /* the solid-state cache's own metadata */
	SS_FW_LAYER_STORE = 4,         /* the object store (its damage comes up, see CHECK) */
	SS_FW_LAYER_BUFFER = 5,        /* the DRAM buffer and its configuration */
	SS_FW_LAYER_CHUNKS = 6,        /* an open-channel or zoned drive's chunk table */
};

/** ss_fw_mount with the DRAM buffer chosen anew (its buffer_* fields, as at format; kept on
 *  the drive for the mounts after). */
int ss_fw_mount_with(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_format_params *p);

/* The part of the drive a mount refused it for; what each means and how to recover is
 * the host's to say (the board carries no text): firmware-tasklets/emu/drive.c. */
enum ss_fw_refusal {
	SS_FW_REFUSED_NONE = 0,
	SS_FW_REFUSED_NVRAM = 1,   /* the merge cache's NVM: nvram.problem */
};

struct ss_fw_mount_opts {
	const struct ss_fw_format_params *buffer;   /* as ss_fw_mount_with's; NULL: as kept */
	int discard_nvram;   /* start the merge cache's NVM empty, dropping the writes it
			      * holds that the flash has not (its problems notwithstanding) */
};

struct ss_fw_mount_report {
	uint32_t layer;                    /* enum ss_fw_layer: where a failed mount failed */
	uint32_t ftl_part;                 /* layer FTL, -SS_EBADMSG: the enum ss_ftl_ckpt_part
					    * of the newest checkpoint */
	uint32_t refused;                  /* enum ss_fw_refusal */
	uint32_t discarded;                /* 1: discard_nvram dropped the NVM; nvram: what
					    * it held (problem: what was wrong with it) */
	struct ss_buf_nv_report nvram;
};

/** ss_fw_mount_with, and `rep` (may be NULL): where a failed mount failed, why a mount that
 *  returns -SS_EBADMSG refused the drive, or what a discard dropped. */
int ss_fw_mount_ex(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_mount_opts *o,
		   struct ss_fw_mount_report *rep);

/** The objects the drive holds for hosts (FSSTAT's count; the root directory and the
 *  firmware's own record are not among them). \return 0, or -SS_EBADMSG when the drive is
 *  down or came up without its store. */
int ss_fw_objects(struct ss_fw *fw, uint32_t *n);

/** The interface the drive was formatted with (enum ss_interface of ss_proto.h). */
uint32_t ss_fw_interface(const struct ss_fw *fw);

/** The chunks of an open-channel or zoned drive that hold data (neither free nor
 *  offline). \return 0, or -SS_EINVAL for a drive that is not up as one. */
int ss_fw_chunks_written(const struct ss_fw *fw, uint32_t *n);

/**
 * From now until the drive is shut down, answer the opcode named `name` (as in ss_proto.h,
 * e.g. "ISP_QUEUE") with BAD_OPCODE, as firmware that predates it does: to test hosts
 * against older drives. Not kept on the drive.
 * \return 0, or -SS_ENOENT when the firmware has no opcode of that name.
 */
int ss_fw_withhold_opcode(struct ss_fw *fw, const char *name);

/**
 * A reading for the drive's operator (smartssd-devd's metrics), not a host command: the
 * payload opcode's handler answers, for the fixed-size replies that take no request field
 * (DRIVE_INFO, FSSTAT, COUNTERS, ISP_QUEUE, SSC_INFO), into buf. No session, no reply slot,
 * nothing a command counts (link bytes, host sectors): a reading does not move what it reads.
 * \return the payload's bytes, -SS_EINVAL for another opcode or a cap below the reply's
 * first version, -SS_EBADMSG when the drive is down or came up without its store.
 */
int ss_fw_read_reply(struct ss_fw *fw, uint16_t opcode, uint8_t *buf, uint32_t cap);

/* A SMART attribute as SMART READ DATA reports it: id (SS_PROTO_SMART_ATTRS), normalised
 * value, worst value, raw value (48 bits). */
struct ss_fw_smart_attr {
	uint8_t id;
	uint8_t value;
	uint8_t worst;
	uint64_t raw;
};

/* The most attributes a drive reports (base, cache's and buffer's). */
#define SS_FW_SMART_ATTRS_MAX 29u

/** SMART READ DATA's attributes, in its order, for the operator's reading as
 *  ss_fw_read_reply. \return how many (at most max), or -SS_EBADMSG as ss_fw_read_reply. */
int ss_fw_smart_attributes(struct ss_fw *fw, struct ss_fw_smart_attr *a, uint32_t max);

/** Clean shutdown: checkpoint everything. The drive object stays valid but idle. */
int ss_fw_shutdown(struct ss_fw *fw);

/**
 * Execute one ATA command. `data` is the data-out buffer (host to drive) or the data-in
 * buffer to fill (drive to host); `len` is count * 512 bytes as the host transferred it.
 * Never fails as a call: errors are reported in `res` as ATA status/error with a reason.
 */
void ss_fw_ata_command(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data,
		       uint32_t len, struct ss_ata_result *res);

/* A tasklet instance's own counted work so far, as its progress reports it. */
struct ss_fw_task_work {
	uint64_t pages;
	uint64_t instructions;
	uint64_t dram_accesses;
	uint64_t output_bytes;
};

/** The counted work of tasklet instance `instance` (the handle CREATE_TASKLET returned).
 *  For the emulator's per-task energy ledger, which prices it with the model's profile.
 *  \return 0, or -SS_ENOENT when there is no such instance. */
int ss_fw_tasklet_work(struct ss_fw *fw, uint64_t instance, struct ss_fw_task_work *w);

/** One slice of background work (tasklets, GC, checkpoints).
 *  \return 1 when more background work remains, 0 when idle. */
int ss_fw_idle(struct ss_fw *fw);

/* What ss_fw_background_pending() found queued. */
#define SS_FW_BG_ISP 0x1   /* a tasklet run is queued or running */
#define SS_FW_BG_FTL 0x2   /* the FTL has GC, block retirement or a checkpoint due */

/**
 * Whether ss_fw_idle() has work queued now. Cheap enough to ask before every command.
 * (Static wear-levelling is not reported: ss_fw_idle() finds it itself.)
 * \return 0 when idle, else SS_FW_BG_ISP and/or SS_FW_BG_FTL (so non-zero means pending).
 */
int ss_fw_background_pending(const struct ss_fw *fw);

/** Tasklet runs the last command queued start no earlier than `t` ns, its completion in
 *  modelled time (ss_isp_not_before). */
void ss_fw_isp_not_before(struct ss_fw *fw, uint64_t t);

/**
 * The client the next commands come from, for a transport that serves several and knows
 * when each goes (the emulator's daemon: one per connection); 0 (the default) for one that
 * cannot tell (SG_IO). A session belongs to the client that opened it: another client's
 * SEND under it is refused (BAD_SESSION), and OPEN_SESSION never takes it over.
 */
void ss_fw_set_owner(struct ss_fw *fw, uint32_t owner);

/**
 * `owner` went away (its connection closed): close its sessions, drop the replies they
 * still hold (and the reply memory those reserved), and destroy its tasklet instances,
 * stopping any run still going. No-op for owner 0.
 */
void ss_fw_owner_gone(struct ss_fw *fw, uint32_t owner);

/** \return 1 when a reply under `tag` waits to be received (OBJ RECV), else 0. */
int ss_fw_reply_waiting(struct ss_fw *fw, uint32_t tag);

/**
 * \return 1 when the reply waiting under `tag` answers a progress poll (READ_OBJECT
 * without output bytes) that found its run still going, else 0. The emulator's model does
 * not charge such a poll (emu/model.c, "Progress polls").
 */
int ss_fw_reply_idle_poll(struct ss_fw *fw, uint32_t tag);

#endif
