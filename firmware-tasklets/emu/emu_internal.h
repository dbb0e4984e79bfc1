/* Private to the emulator: the image file, the flash backend and the timing model. */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "ss_emu_flash.h"
#include "ss_emu_profile.h"
#include "ss_hal.h"

#define EMU_IMAGE_MAGIC "SSDEMUIM"
#define EMU_IMAGE_VERSION 1u
#define EMU_HEADER_BYTES 4096u
#define EMU_BLOCK_ENTRY_BYTES 16u
#define EMU_TIMELINES 3

#define EMU_BLOCK_FAILED 0x1u
#define EMU_BLOCK_FACTORY_BAD 0x2u

/* Everything the image header records. */
struct emu_image_info {
	struct ss_geometry geo;
	uint32_t endurance;
	uint32_t endurance_spread_permille;
	uint32_t factory_bad_permille;
	uint64_t dram_bytes;
	char profile[32];
	char model[41];
	char serial[21];
	char firmware_rev[9];
	uint64_t created_unix;
	char created_by[64];
	uint64_t table_off;
	uint64_t data_off;
};

struct emu_block {
	uint32_t erase_count;
	uint32_t write_ptr;
	uint32_t flags;
	uint32_t endurance;
};

struct emu_cursor {
	uint64_t issue;   /* operations on this timeline start no earlier */
	uint64_t last;    /* latest completion issued on it */
	uint64_t behind;  /* host: latest program (write-behind), not waited for by commands */
	uint64_t ahead;   /* host: latest read-ahead, waited for only when its data is used */
};

/* Host programs are write-behind: their data sits in a DRAM write buffer of this many
 * bytes until programmed, and a command completes only once the programs issued more
 * than a buffer's worth of pages before its own have freed their slots. */
#define EMU_WRITE_BUFFER_BYTES (4u << 20)

/* A tagged command the drive holds a reply for (an accepted OBJ SEND not yet received), and
 * the modelled completion of its work. 16 sessions of 32 replies (native/PROTOCOL.md §2). */
struct emu_queued {
	uint32_t tag;
	uint64_t done;
};

#define EMU_QUEUE_MAX 512u

/* What a host command is to the drive's queue (model.c, "Queue depth"). */
enum emu_cmd_kind {
	EMU_CMD_PLAIN,   /* any other ATA command: the host issued it with nothing queued */
	EMU_CMD_SEND,    /* OBJ SEND of the tag: queued once the drive holds its reply */
	EMU_CMD_RECV,    /* OBJ RECV of the tag: waits for that command's work only */
};

/* Timing and energy model: resource timelines plus counted operations. Each hal timeline
 * has its own view of when every die and channel is free (host I/O never queues behind
 * ISP or GC flash work; see model.c). */
struct emu_model {
	const struct ss_emu_profile *p;
	uint32_t channels;
	uint32_t dies;
	uint64_t *die_free;       /* [EMU_TIMELINES][dies] */
	uint64_t *chan_free;      /* [EMU_TIMELINES][channels] */
	uint64_t link_free;
	uint64_t isp_free;
	struct emu_cursor cur[EMU_TIMELINES];
	int tl;
	int reading_ahead;        /* host reads are read-ahead (see ss_hal read_ahead) */
	uint64_t *wb_end;         /* [wb_slots] write buffer: each slot's program completion */
	uint32_t wb_slots;
	uint32_t wb_next;
	uint64_t now;             /* device clock: the latest completion of anything */
	struct ss_emu_counters c; /* counts and busy times; energy filled on snapshot */
	/* The drive's queue of tagged commands (model.c, "Queue depth"). */
	uint32_t qn;
	uint64_t q_ready;         /* when the host could issue its next command */
	enum emu_cmd_kind cmd_kind;   /* of the command between cmd_begin and cmd_end */
	uint32_t cmd_tag;
	int cmd_found;            /* a RECV of a queued tag */
	uint64_t cmd_link_in;     /* its link-in end */
	/* Last, so that a copy of the model (emu_flash_model_save) takes q[0..qn) only. */
	struct emu_queued q[EMU_QUEUE_MAX];
};

/* watchdog.c: the hal's tasklet sections on a per-thread CPU-time timer */
void emu_watchdog_arm(void *ctx, uint32_t limit_ms);
/* On this thread (the drive's controller), disarming leaves the timer to stop at its next
 * tick: no system call a slice. */
void emu_watchdog_lazy_stop(void);
/* Whether this thread's watchdog timer runs (tests). */
int emu_watchdog_ticking(void);
int emu_section_run(void *ctx, int (*fn)(void *arg), void *arg);
void emu_section_abort(void *ctx, int err);
void emu_section_mask(void *ctx, int on);

int emu_model_init(struct emu_model *m, const struct ss_emu_profile *p,
		   const struct ss_geometry *g);
void emu_model_fini(struct emu_model *m);
uint64_t emu_xfer_ns(uint64_t bytes, uint64_t bytes_per_s);
/* Each charges one operation on the current timeline and returns its completion. */
uint64_t emu_model_read(struct emu_model *m, uint32_t die, uint64_t bytes);
uint64_t emu_model_program(struct emu_model *m, uint32_t die, uint64_t bytes);
uint64_t emu_model_erase(struct emu_model *m, uint32_t die);
void emu_model_isp(struct emu_model *m, uint64_t instr, uint64_t dram, uint64_t pages);
/** The ISP core time emu_model_isp charges for this work, by the profile's prices. */
uint64_t emu_model_isp_ns(const struct ss_emu_profile *p, uint64_t instr, uint64_t dram,
			  uint64_t pages);
void emu_model_barrier(struct emu_model *m);
/* Host timeline: a sync makes the command wait for every program issued so far. */
void emu_model_sync(struct emu_model *m);
/* Host timeline: reads are read-ahead while `on`; a wait makes the command wait for them. */
void emu_model_read_ahead(struct emu_model *m, int on);
void emu_model_read_ahead_wait(struct emu_model *m);
/* The current timeline's clock: the device clock on the host timeline, else the
 * timeline's own (its issue cursor or latest completion, whichever is later). */
uint64_t emu_model_now(const struct emu_model *m);
/* Host command on the link. It arrives at max(host clock, `floor`), the host clock being
 * the completion of the host timeline's latest work, unless tagged commands are queued
 * (model.c, "Queue depth"); `bytes_in` cross the link before the
 * firmware runs (returns the time it may start), `bytes_out` after it (returns the
 * command's completion). Other timelines are not touched. */
uint64_t emu_model_cmd_begin(struct emu_model *m, uint64_t floor, uint64_t bytes_in,
			     enum emu_cmd_kind kind, uint32_t tag);
/* queued: the command was a SEND whose reply the drive now holds. */
uint64_t emu_model_cmd_end(struct emu_model *m, uint64_t bytes_out, int queued);
/* Forget queued tags whose reply the drive no longer holds (dropped by CLOSE_SESSION, a
 * session takeover or session 0's eviction): live(arg, tag) says whether it does. */
void emu_model_queue_prune(struct emu_model *m, int (*live)(void *arg, uint32_t tag),
			   void *arg);
/* Timeline `tl` issues nothing earlier than `t` (a host command it was idle at), nor
 * before the host's write-behind programs have finished. */
void emu_model_release(struct emu_model *m, int tl, uint64_t t);
/* What emu_model_release raises a timeline to for a command completing at `t`: taken at
 * that command, since the host's later write-behind is no concern of the work it queued. */
uint64_t emu_model_release_at(const struct emu_model *m, uint64_t t);
/* Timeline `tl` issues nothing earlier than `t`. */
void emu_model_not_before(struct emu_model *m, int tl, uint64_t t);
void emu_model_snapshot(const struct emu_model *m, struct ss_emu_counters *out);

struct ss_emu_flash {
	pthread_mutex_t lock;
	int fd;
	const uint8_t *map;       /* the image mapped read-only, or NULL: pages are read with
				   * pread (writes always go through fd) */
	size_t map_len;
	char *path;
	struct ss_hal hal;
	struct ss_emu_profile prof;
	struct emu_image_info info;
	struct emu_block *blocks;
	uint64_t stride;          /* page_size + spare_size bytes per page in the file */
	uint8_t *scratch;         /* one page + spare */
	struct emu_model model;
	char last_err[256];
	int punch_holes;          /* fallocate(PUNCH_HOLE) works on this file system */
	void *nvram;              /* <image>.nvram mapped shared (hal nvram_map), or NULL */
	size_t nvram_len;
	struct emu_dma *dma;      /* page_read_start's transfers (dma.c), made at the first
				   * transfer or program */
	uint32_t dma_spin_us;     /* ss_emu_flash_set_spin */
	int read_err;             /* page_read_start's failures found at once, for read_wait */
};

/* flash.c: the drive's link charges and timeline releases, under the flash lock (see
 * emu_model_cmd_begin/_end/_release). */
uint64_t emu_flash_cmd_begin(struct ss_emu_flash *f, uint64_t floor, uint64_t bytes_in,
			     enum emu_cmd_kind kind, uint32_t tag,
			     int (*live)(void *arg, uint32_t tag), void *arg);
uint64_t emu_flash_cmd_end(struct ss_emu_flash *f, uint64_t bytes_out, int queued);
void emu_flash_release(struct ss_emu_flash *f, int tl, uint64_t t);
uint64_t emu_flash_release_at(struct ss_emu_flash *f, uint64_t t);
/* The whole model as it stands, and back: a command the model does not charge (a progress
 * poll that found its run going, model.c) is undone. Only for commands that touch no flash:
 * the per-die and per-channel arrays are shared, not copied. */
void emu_flash_model_save(struct ss_emu_flash *f, struct emu_model *out);
void emu_flash_model_restore(struct ss_emu_flash *f, const struct emu_model *in);
/* Flash programs plus erases issued so far (the drive's cheap "did the FTL change" test). */
uint64_t emu_flash_writes(struct ss_emu_flash *f);
/* The device clock. */
uint64_t emu_flash_device_now(struct ss_emu_flash *f);
/* How long the transfer thread (dma.c) and a read_wait poll before they sleep. */
void emu_flash_set_spin(struct ss_emu_flash *f, uint32_t spin_us);

/* poll.c: poll done(arg) for at most spin_us (0: test it once). \return true when it came
 * true. */
bool emu_poll(uint32_t spin_us, bool (*done)(void *arg), void *arg);

/* dma.c: page transfers on a thread of their own (the hal's page_read_start). */
struct emu_dma;
struct emu_dma *emu_dma_new(void);
void emu_dma_free(struct emu_dma *dma);
void emu_dma_set_spin(struct emu_dma *dma, uint32_t spin_us);
/* Copy len bytes from src to data, then run check(data, len, spare, arg). */
void emu_dma_start(struct emu_dma *dma, const uint8_t *src, const uint8_t *spare, void *data,
		   uint32_t len,
		   int (*check)(const void *data, uint32_t len, const void *spare, uint32_t arg),
		   uint32_t arg);
/* Ask the thread to map [addr, addr + len) of the image (programmed pages) while it has no
 * transfer to do; dropped if it is too far behind. */
void emu_dma_map_ahead(struct emu_dma *dma, const uint8_t *addr, size_t len);
/* A block was erased: ranges asked for until now are not mapped. */
void emu_dma_map_ahead_erased(struct emu_dma *dma);
/* Until every transfer started is done. */
void emu_dma_quiesce(struct emu_dma *dma);
/* emu_dma_quiesce, then the first failure among the checks since the last wait (0). */
int emu_dma_wait(struct emu_dma *dma);

/* flash.c: */
/* "<image>.nvram": the file that holds the drive's non-volatile RAM. \return 0 or
 * -SS_ENAMETOOLONG. */
int emu_nvram_path(const struct ss_emu_flash *f, char *path, size_t len);

/* image.c */
int emu_image_create(struct ss_emu_flash *f, char *err, size_t errlen);
int emu_image_load(struct ss_emu_flash *f, char *err, size_t errlen);
int emu_image_write_block(struct ss_emu_flash *f, uint32_t block);
int emu_image_read_page(struct ss_emu_flash *f, uint32_t ppn, void *buf, size_t len,
			uint64_t at);
/** Map the image for page reads (a copy from the page cache without a system call);
 *  where it cannot be mapped, reads stay preads. */
void emu_image_map(struct ss_emu_flash *f);
/** Page `ppn`'s data and spare, each into its own buffer, in one read of the image. */
int emu_image_read_page_spare(struct ss_emu_flash *f, uint32_t ppn, void *data, void *spare);
int emu_image_write_page(struct ss_emu_flash *f, uint32_t ppn, const void *buf);
uint64_t emu_page_offset(const struct ss_emu_flash *f, uint32_t ppn);
uint32_t emu_block_endurance(uint32_t block, uint32_t endurance, uint32_t spread_permille);
int emu_block_factory_bad(uint32_t block, uint32_t permille);

void emu_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
