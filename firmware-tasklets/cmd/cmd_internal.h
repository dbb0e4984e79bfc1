/*
 * Private state of the command layer: the drive object, reply slots and their payload
 * heap, host sessions, the tasklet-instance map, and the firmware's own persistent
 * record (SMART lifetime counters).
 */
#ifndef CMD_INTERNAL_H
#define CMD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ss_buf.h"
#include "ss_fw.h"
#include "ss_ftl.h"
#include "ss_isp.h"
#include "ss_objstore.h"
#include "ss_proto.h"
#include "ss_rt.h"
#include "ss_ssc.h"
#include "ss_ssc_part.h"

/* Host sessions and their queue depth (SATA NCQ: 32 tags). The emulator's daemon admits
 * --max-connections clients (default 128), each with a session of its own that lives as
 * long as its connection; the board, which one host reaches through SG_IO, keeps 16
 * (cross/jasmine-features.sh). */
#ifndef FW_MAX_SESSIONS
#define FW_MAX_SESSIONS 128u
#endif
#define FW_QUEUE_DEPTH 32u
/* Session 0 (no session: OPEN_SESSION, DRIVE_INFO) has its own quota of slots. */
#define FW_REPLY_SLOTS ((FW_MAX_SESSIONS + 1u) * FW_QUEUE_DEPTH)
/* Reply payloads live here until received; it holds at least one largest reply. */
#define FW_REPLY_HEAP_BYTES (4u << 20)
/* Sequential reads fetch this much ahead into the buffer (cmd_buffer.c). */
#define FW_READAHEAD_BYTES (1u << 20)
#define FW_BUFFER_DEFAULT_BYTES (4ull << 20)
#define FW_BUFFER_DEFAULT_POLICY SS_BUF_HBM
/* WRITE DMA FUA EXT: durable before completion, past the volatile buffer. */
#define FW_ATA_WRITE_DMA_FUA_EXT 0x3D
#define FW_MAX_INSTANCES 256u
#define FW_PATH_MAX 4096u
#define FW_LIST_BATCH 16u
#define FW_LIST_MAX 256u
#define FW_EXTENTS_MAX 256u
/* DATA SET MANAGEMENT: 512-byte blocks of range entries per command (IDENTIFY word 105). */
#define FW_DSM_MAX_BLOCKS 8u
#define FW_SMART_ATTRS 9u
/* Steps a tasklet run may take when the host asks for the default (0). */
#define FW_DEFAULT_STEP_LIMIT (1ull << 32)

/* The firmware's record object: a root entry whose name starts with DEL (0x7F). Root
 * names starting with 0x7F are reserved and invisible to the host. */
#define FW_RESERVED_CHAR 0x7F
#define FW_RECORD_NAME "\x7fsmartssd-fw"
#define FW_RECORD_NAME_LEN 12u
#define FW_RECORD_MAGIC 0x57465353u /* "SSFW" */
#define FW_RECORD_VERSION 2u       /* 2: SMART worst values; a version-1 record still loads */
#define FW_RECORD_SIZE 80u
#define FW_RECORD_V1_SIZE 64u

enum fw_state {
	FW_DOWN = 0,
	FW_UP = 1,
	FW_DAMAGED = 2,   /* up without the object store: its mount check found a problem */
	FW_CHUNKED = 3,   /* up as an open-channel or zoned drive: no FTL, store or engine */
};

/* An open-channel chunk or zone (cmd_chunk.c), in sectors of 512 bytes. */
struct fw_chunk {
	uint32_t wp;          /* the write pointer */
	uint32_t written;     /* sectors holding data (below wp once finished) */
	uint32_t wear;        /* erases */
	uint8_t state;        /* enum ss_chunk_state */
	uint8_t finished;     /* ZONE_FINISH moved wp past the data */
	uint16_t reserved;
};

struct fw_chunks {
	uint32_t groups, pus, chunks_per_pu, count;
	uint32_t sectors;        /* per chunk */
	uint32_t spp;            /* sectors per page: the minimum write unit */
	uint32_t zone_shift;     /* chunk i starts at LBA i << zone_shift */
	uint32_t tpages;         /* pages of one table checkpoint */
	uint32_t seq;            /* the last checkpoint's */
	uint32_t next_page;      /* of the label blocks, for the next checkpoint */
	uint32_t label_block[2];
	uint32_t copies;
	struct fw_chunk *c;
	uint8_t *spare;          /* spare_size bytes */
};

struct fw_reply {
	uint32_t tag;
	uint16_t opcode;
	uint8_t used;
	int32_t status;
	uint32_t reason;
	uint32_t payload_len;
	uint32_t cap;        /* heap bytes reserved */
	uint32_t heap_off;
	uint64_t value[3];
	uint64_t age;        /* order of arrival, for evicting session-0 leftovers */
	uint8_t idle_poll;   /* a progress poll that found its run still going */
	uint64_t failed_ordered_oid; /* a failed ORDERED WRITE's object (SS_OID_NONE: none) */
};

struct fw_session {
	uint16_t id;         /* 0: free */
	uint16_t pending;    /* replies waiting */
	uint32_t owner;      /* the client that opened it (ss_fw_set_owner); 0: unknown */
	uint64_t last_use;
};

struct fw_instance {
	uint32_t id;
	uint8_t used;
	uint32_t owner;      /* the client that created it (ss_fw_set_owner); 0: unknown */
	ss_oid_t output;
};

/* Lifetime counters kept in the record object. */
struct fw_lifetime {
	uint64_t mounts;
	uint64_t unsafe_shutdowns;
	uint64_t lbas_written;
	uint64_t lbas_read;
	uint64_t power_on_ns;
	uint64_t nand_writes;
	uint32_t smart_disabled;
	uint32_t clean;      /* 1 after a clean shutdown */
	uint8_t worst[FW_SMART_ATTRS]; /* lowest SMART value ever seen per attribute; 0: none yet */
};


/* A run of present cache blocks an SSC_SCAN gives the engine as one input. */
struct fw_scan_run {
	uint64_t first_block;   /* cache block of file block file_block */
	uint64_t file_block;    /* the first block the engine reads */
	uint64_t blocks;
};

struct ss_fw {
	struct ss_hal *hal;
	struct ss_hal *ftl_hal;        /* hal, or ftl_view when the flash has a cache part */
	struct ss_ssc_part part;       /* the flash split; ssc_rows 0: no cache */
	struct ss_hal_view ftl_view;
	struct ss_hal_view ssc_view;
	struct ss_ssc *ssc;            /* NULL without a cache */
	struct ss_ftl *ftl;
	struct ss_objstore *os;
	struct ss_isp *isp;
	enum fw_state state;
	struct ss_os_check_report store_problem;   /* FW_DAMAGED: what the mount found */

	uint32_t page_size;
	uint32_t sectors_per_page;
	uint64_t capacity_sectors;
	uint32_t meta_first_lpn;   /* object-store metadata: raw writes refused */
	uint32_t meta_pages;

	uint8_t *page_buf;
	struct ss_buf *buf;        /* the DRAM buffer every host read and write goes through */
	struct ss_dirent *dirents;
	struct ss_extent *extents;
	struct ss_obj_stat st;

	struct fw_reply *replies;
	uint32_t replies_end;      /* past the highest slot in use: lookups stop there */
	uint16_t *heap_order;      /* reply slots holding heap space, by heap_off */
	uint32_t heap_n;
	uint8_t *heap;
	uint32_t heap_size;
	uint64_t reply_age;
	struct fw_session sessions[FW_MAX_SESSIONS];
	uint16_t session0_pending;
	uint16_t next_session;
	uint64_t session_clock;
	uint32_t owner;            /* the client the running command comes from */

	struct fw_instance instances[FW_MAX_INSTANCES];
	struct ss_isp_input inputs[SS_ISP_MAX_INPUTS];
	struct fw_scan_run scan_runs[SS_SSC_SCAN_MAX_RUNS];   /* SSC_SCAN's, cmd_ssc_scan.c */

	ss_oid_t record_oid;
	ss_oid_t bpf_dir;             /* eBPF programs' reserved directory (cmd_bpf.c) */
	struct fw_bpf *bpf;           /* their verifier's memory; NULL on the board */
	uint32_t nv_generation;       /* the merge cache's NVM generation (cmd_buffer.c) */
	struct fw_lifetime life;      /* as of now (power-on and NAND writes: at last sync) */
	struct fw_lifetime persisted; /* as last written to the record */
	uint64_t mount_now_ns;        /* device clock when the lifetime base was taken */
	uint64_t mount_nand_writes;   /* FTL NAND writes when the lifetime base was taken */
	uint64_t base_power_on_ns;
	uint64_t base_nand_writes;

	uint32_t interface;           /* enum ss_interface */
	struct fw_chunks chunks;      /* FW_CHUNKED */

	uint32_t withheld_ops[8];     /* opcodes answered BAD_OPCODE (ss_fw_withhold_opcode),
				       * a bit per opcode below 100h */
};

/* ATA results: every handler answers with these (the reason goes in LBA[15:0]). */
static inline void fw_ok(struct ss_ata_result *res)
{
	res->status = SS_ATA_STATUS_DRDY;
	res->error = 0;
	res->count = 0;
	res->lba = 0;
}

static inline void fw_fail(struct ss_ata_result *res, uint8_t error, uint32_t reason)
{
	res->status = SS_ATA_STATUS_DRDY | SS_ATA_STATUS_ERR;
	res->error = error;
	res->count = 0;
	res->lba = reason;
}

static inline void fw_abort(struct ss_ata_result *res, uint32_t reason)
{
	fw_fail(res, SS_ATA_ERROR_ABRT, reason);
}

/* cmd_smart.c: fold the current attribute values into the lifetime's worst values, then
 * fw_record_store (what FLUSH and shutdown store). cmd_smart.c sits above cmd_life.c: the
 * record knows nothing of SMART's attributes. */
int fw_smart_record_store(struct ss_fw *fw, bool force);

/* cmd_life.c: the lifetime record and power-on time */
uint64_t fw_power_on_ns(struct ss_fw *fw);
/* Bring fw->life's power-on time and NAND writes up to now. */
void fw_life_sync(struct ss_fw *fw);
/* Write the lifetime record when it changed (always with force); not flushed here. */
int fw_record_store(struct ss_fw *fw, bool force);
/* At mount: read the record (a fresh drive has none). */
void fw_life_load(struct ss_fw *fw);
/* A new power cycle: count it, note whether the last one ended cleanly, store. */
void fw_life_power_cycle(struct ss_fw *fw);

/* cmd_block.c: standard read/write/trim/flush */
void fw_block_read(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint64_t lba,
		   uint32_t sectors, uint8_t *data, uint32_t len, struct ss_ata_result *res);
void fw_block_write(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint64_t lba,
		    uint32_t sectors, const uint8_t *data, uint32_t len,
		    struct ss_ata_result *res);
void fw_block_trim(struct ss_fw *fw, const struct ss_ata_taskfile *tf, const uint8_t *data,
		   uint32_t len, struct ss_ata_result *res);
void fw_block_flush(struct ss_fw *fw, struct ss_ata_result *res);

/* cmd_buffer.c */
/* Bring the buffer up in DRAM [region, region + size): at format from `p` (kept on the
 * drive), at mount (p NULL) from what the drive keeps. `discard_nvram`: a merge cache's NVM
 * is started empty, mr saying what it held; otherwise mr says why it was refused. */
int fw_buffer_start(struct ss_fw *fw, void *region, uint64_t size,
		    const struct ss_fw_format_params *p, bool format, bool discard_nvram,
		    struct ss_fw_mount_report *mr);
uint64_t fw_buffer_dram(const struct ss_geometry *geo, uint64_t bytes);
/* The buffer's fields of a COUNTERS reply. */
void fw_buffer_counters(struct ss_fw *fw, uint8_t *p);

/* cmd_identify.c */
void fw_identify(struct ss_fw *fw, uint8_t *sector);
void fw_ata_string(uint8_t *dst, const char *src, uint32_t bytes);

/* cmd_smart.c */
void fw_smart(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data, uint32_t len,
	      struct ss_ata_result *res);

/* cmd_object.c: SEND / RECV */
void fw_obj_send(struct ss_fw *fw, const struct ss_ata_taskfile *tf, const uint8_t *data,
		 uint32_t len, struct ss_ata_result *res);
void fw_obj_recv(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data,
		 uint32_t len, struct ss_ata_result *res);

/* cmd_reply.c: reply slots, heap, sessions */
void fw_replies_init(struct ss_fw *fw);
struct fw_reply *fw_reply_find(struct ss_fw *fw, uint32_t tag);
/* Whether a failed ORDERED WRITE of tag's session to oid still waits to be received. */
bool fw_reply_ordered_write_failed(struct ss_fw *fw, uint32_t tag, uint64_t oid);
int fw_reply_reserve(struct ss_fw *fw, uint32_t tag, uint16_t opcode, uint32_t cap,
		     struct fw_reply **out);
uint8_t *fw_reply_payload(struct ss_fw *fw, struct fw_reply *r);
void fw_reply_release(struct ss_fw *fw, struct fw_reply *r);
void fw_reply_drop_session(struct ss_fw *fw, uint16_t session, const struct fw_reply *keep);
struct fw_session *fw_session_find(struct ss_fw *fw, uint16_t id);
int fw_session_open(struct ss_fw *fw, uint16_t *id);
void fw_session_close(struct ss_fw *fw, uint16_t id, const struct fw_reply *keep);
/* The open session under tag's session id, if the running command's owner holds it. */
struct fw_session *fw_session_of(struct ss_fw *fw, uint32_t tag);

/* A decoded request, header fields in host order. */
struct fw_req {
	uint16_t opcode;
	uint32_t tag;
	uint32_t flags;
	uint64_t oid;
	uint64_t offset;
	uint64_t length;
	uint64_t now_ns;
	uint32_t reply_max;
	const uint8_t *payload;
	uint32_t payload_len;
};

/* What an executed request answers. */
struct fw_rep {
	int32_t status;
	uint32_t reason;
	uint64_t value[3];
	uint8_t *payload;     /* cap bytes reserved in the heap */
	uint32_t cap;
	uint32_t payload_len;
	struct fw_reply *slot; /* the slot this reply goes into */
};

/* cmd_path.c */
uint32_t fw_path_check(const uint8_t *path, uint32_t len);
int fw_path_resolve(struct ss_fw *fw, const uint8_t *path, uint32_t len, ss_oid_t *oid);
int fw_path_parent(struct ss_fw *fw, const uint8_t *path, uint32_t len, bool make_parents,
		   uint64_t now_ns, ss_oid_t *dir, const uint8_t **name, uint32_t *name_len);
bool fw_oid_hidden(const struct ss_fw *fw, ss_oid_t oid);

/* cmd_bpf.c: eBPF tasklet programs. The board's image (SS_FW_WITHOUT_BPF) has none: its
 * opcode table leaves TASKLET_* out, and these compile to nothing. */
struct fw_bpf;
#ifdef SS_FW_WITHOUT_BPF
static inline uint64_t fw_bpf_dram(void)
{
	return 0;
}

static inline void fw_bpf_carve(struct ss_fw *fw, struct ss_arena *a)
{
	fw->bpf = NULL;
	fw->bpf_dir = SS_OID_NONE;
}

static inline void fw_bpf_mount(struct ss_fw *fw)
{
}

static inline int fw_bpf_register(struct ss_fw *fw)
{
	return 0;
}

static inline bool fw_bpf_hidden(const struct ss_fw *fw, ss_oid_t oid)
{
	return false;
}

static inline uint32_t fw_bpf_hidden_objects(const struct ss_fw *fw)
{
	return 0;
}

/* never reached: the board registers no "bpf" tasklet, so its create fails before */
static inline int fw_bpf_instance_params(struct ss_fw *fw, const uint8_t *params,
					 uint32_t params_len, const struct ss_layout *layout,
					 struct fw_rep *rep, const uint8_t **out, uint32_t *out_len)
{
	return 0;
}
#else
uint64_t fw_bpf_dram(void);
void fw_bpf_carve(struct ss_fw *fw, struct ss_arena *a);
void fw_bpf_mount(struct ss_fw *fw);
int fw_bpf_register(struct ss_fw *fw);   /* the "bpf" tasklet kind, after the built-ins */
bool fw_bpf_hidden(const struct ss_fw *fw, ss_oid_t oid);
/* the reserved directory and its programs: objects no host sees */
uint32_t fw_bpf_hidden_objects(const struct ss_fw *fw);
/* A "bpf" instance's params: the host's, then its program read from the store and
 * verified against layout. \return 0, or an error already answered into rep. */
int fw_bpf_instance_params(struct ss_fw *fw, const uint8_t *params, uint32_t params_len,
			   const struct ss_layout *layout, struct fw_rep *rep,
			   const uint8_t **out, uint32_t *out_len);
uint32_t fw_bpf_load_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_bpf_list_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_bpf_remove_check(const struct fw_req *rq, uint32_t *cap);
void fw_bpf_load(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_bpf_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_bpf_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
#endif

/* cmd_reason.c */
uint32_t fw_reason(int err);
void fw_rep_error(struct fw_rep *rep, int err, uint32_t reason);
void fw_rep_create_error(struct ss_fw *fw, struct fw_rep *rep, int rc);

/*
 * cmd_ops.c: the opcode table, one entry per opcode. `check` validates a request before
 * anything is stored (\return SS_R_OK or the reason to refuse the SEND) and sets *cap, the
 * reply payload to reserve (0 on entry); `exec` answers it into rep.
 */
typedef uint32_t (*fw_check_fn)(const struct fw_req *rq, uint32_t *cap);
typedef void (*fw_exec_fn)(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* Interfaces an opcode is served on (fw_op.interfaces): bit enum ss_interface. */
#define FW_IF_FTL (1u << SS_IFACE_FTL)
#define FW_IF_OC (1u << SS_IFACE_OPEN_CHANNEL)
#define FW_IF_ZONED (1u << SS_IFACE_ZONED)
#define FW_IF_ALL (FW_IF_FTL | FW_IF_OC | FW_IF_ZONED)

struct fw_op {
	uint16_t opcode;
	const char *name;        /* as in ss_proto.h and PROTOCOL.md */
	uint32_t allowed_flags;  /* any other flag bit is refused (BAD_FIELD) */
	bool sessionless;        /* may come with session 0 */
	bool mutates;            /* may change object data (drops the read-ahead buffer) */
	uint8_t interfaces;      /* FW_IF_*: elsewhere WRONG_INTERFACE (in the padding) */
	fw_check_fn check;
	fw_exec_fn exec;
};

extern const struct fw_op fw_ops[];
extern const uint32_t fw_ops_count;
/** \return the opcode's entry, or NULL for an unknown opcode. */
const struct fw_op *fw_op_find(uint16_t opcode);
/** \return 1 when the drive answers `opcode` BAD_OPCODE as if it had no entry for it. */
int fw_op_withheld(const struct ss_fw *fw, uint16_t opcode);

/* The checks and handlers the table names. */
uint32_t fw_no_payload_check(const struct fw_req *rq, uint32_t *cap);
void fw_op_open_session(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_op_close_session(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* cmd_drive.c: whole-drive opcodes */
uint32_t fw_drive_info_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_drive_fsstat_check(const struct fw_req *rq, uint32_t *cap);
/* A fixed reply that grew: a host asking for at least its first version's `first_size`
 * bytes gets as much of the `size`-byte reply as it asks for. */
uint32_t fw_grown_reply_check(const struct fw_req *rq, uint32_t *cap, uint32_t first_size,
			      uint32_t size);
uint32_t fw_drive_counters_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_drive_check_check(const struct fw_req *rq, uint32_t *cap);
void fw_drive_info(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_drive_flush(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_drive_fsstat(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_drive_counters(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_drive_check(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* cmd_ns.c: namespace and object data */
uint32_t fw_ns_lookup_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_create_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_write_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_read_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_oid_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_remove_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_rename_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_stat_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_list_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ns_extents_check(const struct fw_req *rq, uint32_t *cap);
void fw_ns_lookup(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_create(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_write(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_truncate(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_rename(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_stat(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_set_times(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ns_extents(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* cmd_attr.c */
uint32_t fw_attr_set_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_attr_name_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_attr_list_check(const struct fw_req *rq, uint32_t *cap);
void fw_attr_set(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_attr_get(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_attr_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_attr_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* cmd_isp.c: in-storage processing */
uint32_t fw_isp_create_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_isp_execute_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_isp_read_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_isp_destroy_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_isp_queue_check(const struct fw_req *rq, uint32_t *cap);
/* The reason for a failed run's error. */
uint32_t fw_isp_failure_reason(int err);
void fw_isp_create(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_isp_execute(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_isp_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_isp_destroy(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_isp_queue(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_isp_forget_all(struct ss_fw *fw);
/* Destroy the tasklet instances `owner` created (it went away). */
void fw_isp_drop_owner(struct ss_fw *fw, uint32_t owner);

/* cmd_ssc.c: the solid-state cache */
uint32_t fw_ssc_info_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ssc_write_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ssc_read_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ssc_range_check(const struct fw_req *rq, uint32_t *cap);
uint32_t fw_ssc_exists_check(const struct fw_req *rq, uint32_t *cap);
void fw_ssc_info(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_write_dirty(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_write_clean(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_evict(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_clean(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_ssc_exists(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
/* A drive without a cache answers ENOSYS (reason OK) and false. */
bool fw_ssc_have_cache(struct ss_fw *fw, struct fw_rep *rep);
/* cmd_ssc_scan.c: a tasklet over the cache's blocks of a file */
uint32_t fw_ssc_scan_check(const struct fw_req *rq, uint32_t *cap);
void fw_ssc_scan(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);

/* cmd_chunk.c: open-channel chunks and zones. 0 or negative errno; the checks return the
 * reason a rule refuses the command for (SS_R_OK: none). */
struct fw_chunks;
int fw_chunks_plan(const struct ss_geometry *g, struct fw_chunks *c);
uint64_t fw_chunks_dram(const struct ss_geometry *g);
int fw_chunks_format(struct ss_fw *fw, uint32_t iface, void *region, uint64_t size);
/* The interface of a flash formatted with chunks: 0, -SS_ENODATA (none), -SS_EBADMSG. */
int fw_chunks_label_read(struct ss_hal *hal, void *scratch, uint32_t *iface);
int fw_chunks_mount(struct ss_fw *fw, uint32_t iface, void *region, uint64_t size);
int fw_chunks_persist(struct ss_fw *fw);
void fw_chunks_geometry(struct ss_fw *fw, uint8_t *p);
void fw_chunks_describe(struct ss_fw *fw, uint32_t idx, uint8_t *p);
uint32_t fw_chunks_locate(const struct ss_fw *fw, uint64_t lba, uint32_t *idx, uint32_t *sector);
uint32_t fw_chunks_write_check(const struct ss_fw *fw, uint32_t idx, uint32_t sector, uint32_t n);
bool fw_chunks_meta_fits(const struct ss_fw *fw);
int fw_chunks_write(struct ss_fw *fw, uint32_t idx, const uint8_t *data, const uint8_t *meta,
		    uint32_t n);
uint32_t fw_chunks_read_check(const struct ss_fw *fw, uint32_t idx, uint32_t sector, uint32_t n);
int fw_chunks_read(struct ss_fw *fw, uint32_t idx, uint32_t sector, uint8_t *out, uint8_t *meta,
		   uint32_t n);
uint32_t fw_chunks_reset(struct ss_fw *fw, uint32_t idx, int *err);
uint32_t fw_chunks_transition(struct ss_fw *fw, uint32_t idx, uint16_t opcode);
/* cmd_chunk_ops.c: the opcodes, and the standard block commands of a chunked drive */
uint32_t fw_geometry_check(const struct fw_req *rq, uint32_t *cap);
void fw_geometry(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_chunk_report_check(const struct fw_req *rq, uint32_t *cap);
void fw_chunk_report(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_vector_write_check(const struct fw_req *rq, uint32_t *cap);
void fw_vector_write(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_vector_read_check(const struct fw_req *rq, uint32_t *cap);
void fw_vector_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_chunk_reset_check(const struct fw_req *rq, uint32_t *cap);
void fw_chunk_reset(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_zone_check(const struct fw_req *rq, uint32_t *cap);
void fw_zone_transition(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_zone_reset(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
uint32_t fw_zone_append_check(const struct fw_req *rq, uint32_t *cap);
void fw_zone_append(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep);
void fw_chunk_block_rw(struct ss_fw *fw, uint64_t lba, uint32_t sectors, bool write,
		       uint8_t *data, uint32_t len, struct ss_ata_result *res);

/* Little-endian stores of wire structures */
void fw_put_stat(uint8_t *p, const struct ss_obj_stat *st);

#endif
