/*
 * The hardware abstraction the firmware is written against: NAND flash with spare areas,
 * one DRAM arena, and a clock. The firmware never knows which backend is behind it (the
 * emulator in emu/, or a board shim).
 *
 * Physical addressing
 *   dies   = channels * ways; die d sits on channel (d % channels), way (d / channels).
 *   block  = global block number in [0, dies * blocks_per_die); block b is on die (b % dies),
 *            so consecutive block numbers stripe across channels first, then ways.
 *   ppn    = block * pages_per_block + page.
 *
 * Time
 *   Operations are issued at the backend's current issue time and run on the timeline of
 *   the resource they use (the die, its channel, the ISP core). Operations issued back to
 *   back overlap when they use different resources, as on a real controller that queues
 *   them. barrier() makes later operations wait for everything issued so far: call it
 *   where a later step depends on an earlier one's result (read-modify-write, ISP compute
 *   on pages just read).
 */
#ifndef SS_HAL_H
#define SS_HAL_H

#include <stddef.h>
#include <stdint.h>

struct ss_geometry {
	uint32_t channels;
	uint32_t ways;              /* dies per channel */
	uint32_t blocks_per_die;
	uint32_t pages_per_block;
	uint32_t page_size;         /* data bytes per page */
	uint32_t spare_size;        /* spare (OOB) bytes per page */
	uint32_t overprovision_permille; /* physical capacity the FTL keeps from the host */
};

static inline uint32_t ss_geo_dies(const struct ss_geometry *g) { return g->channels * g->ways; }
static inline uint32_t ss_geo_blocks(const struct ss_geometry *g)
{
	return ss_geo_dies(g) * g->blocks_per_die;
}
static inline uint64_t ss_geo_pages(const struct ss_geometry *g)
{
	return (uint64_t)ss_geo_blocks(g) * g->pages_per_block;
}

/* Which timeline firmware work is charged to; host commands and ISP work progress
 * independently, and host I/O is never queued behind ISP compute. */
enum ss_hal_timeline {
	SS_HAL_TL_HOST = 0,  /* serving a host command */
	SS_HAL_TL_ISP = 1,   /* background tasklet work */
	SS_HAL_TL_BACKGROUND = 2, /* GC, checkpoints done at idle */
};

struct ss_hal_ops {
	/**
	 * Read one page. `data` (page_size bytes) or `spare` (spare_size bytes) may be NULL.
	 * An erased page reads as all 0xFF in both.
	 * \return 0, or -SS_EIO on an uncorrectable read, -SS_EINVAL on a bad address.
	 */
	int (*page_read)(void *ctx, uint32_t ppn, void *data, void *spare);

	/**
	 * Program one page. Flash rules are the caller's to keep: a page is programmed once
	 * between erases, pages of a block in ascending order.
	 * \return 0; -SS_EINVAL when a flash rule or the address is violated (a firmware bug:
	 *         nothing is written); -SS_EIO when the block has failed (worn out): the FTL must
	 *         retire it and move its data.
	 */
	int (*page_program)(void *ctx, uint32_t ppn, const void *data, const void *spare);

	/** Erase a whole block. \return 0, -SS_EIO when the block has failed, -SS_EINVAL. */
	int (*block_erase)(void *ctx, uint32_t block);

	/** Make every page programmed so far power-fail durable. \return 0 or -SS_EIO. */
	int (*sync)(void *ctx);

	/** Later operations start no earlier than the completion of all earlier ones. */
	void (*barrier)(void *ctx);

	/** Select the timeline subsequent work is charged to. */
	void (*set_timeline)(void *ctx, enum ss_hal_timeline tl);

	/**
	 * Charge ISP-core work counted by the ISP engine: `instructions` simple operations and
	 * `dram_accesses` 4-byte accesses to device DRAM, spent on `pages` pages of input.
	 */
	void (*isp_account)(void *ctx, uint64_t instructions, uint64_t dram_accesses, uint64_t pages);

	/** Current modelled device time, ns. */
	uint64_t (*now_ns)(void *ctx);

	/**
	 * Optional (NULL: reads are ordinary). While `on`, host-timeline page reads are
	 * read-ahead into device DRAM: they use dies and channels as usual, but the host
	 * command issuing them does not wait for them.
	 */
	void (*read_ahead)(void *ctx, int on);

	/** Optional. The current host command waits for every read-ahead issued so far. */
	void (*read_ahead_wait)(void *ctx);

	/*
	 * Optional, all four or none: the tasklet watchdog. Tasklets are native code on the
	 * controller's core, so one that loops without calling the tasklet API cannot be
	 * stopped by counting its calls; only an interrupt can take the core back. This is a
	 * timer interrupt on the board (the ARM7's timer IRQ, whose handler returns into the
	 * section's exit instead of the interrupted code) and a CPU-time timer signal in the
	 * emulator. Without these ops tasklet callbacks are plain calls, and only the counted
	 * budgets (steps, instructions) stop a tasklet, when it next calls the API.
	 */
	/** Arm the watchdog for sections of at most `limit_ms` ms of core time; 0 disarms. */
	void (*watchdog_arm)(void *ctx, uint32_t limit_ms);
	/**
	 * Run fn(arg), a tasklet callback, as a section. A section the armed watchdog finds
	 * still running past its limit is left at once: section_run returns -SS_ETIMEDOUT.
	 * \return fn's result, -SS_ETIMEDOUT, or the error given to section_abort.
	 */
	int (*section_run)(void *ctx, int (*fn)(void *arg), void *arg);
	/** Leave the running section at once with `err` (< 0). Does not return. */
	void (*section_abort)(void *ctx, int err);
	/** Hold (1) or release (0) the watchdog while a firmware service called from a
	 *  section runs: it must not be cut half way. A watchdog that came due meanwhile acts
	 *  on release. */
	void (*section_mask)(void *ctx, int on);

	/**
	 * Optional (NULL: the drive has no non-volatile RAM). Map the drive's byte-addressable
	 * non-volatile RAM (the MRAM of [Smullen 2010, §IV-A]): what is stored there survives
	 * power loss, store by store. `create`: make it *size bytes, its contents undefined
	 * (the caller starts it afresh); otherwise map what the drive kept, as it is, and set
	 * *size to its size, which the caller checks. Never started afresh unasked.
	 * \return 0, -SS_ENOENT (none kept), or negative errno.
	 */
	int (*nvram_map)(void *ctx, int create, size_t *size, void **mem);

	/**
	 * Optional (NULL: the drive cannot price its core's work). The ISP core time, ns, that
	 * isp_account charges for this counted work, without charging it: what the drive
	 * estimates work still queued with (ISP_QUEUE).
	 */
	uint64_t (*isp_price_ns)(void *ctx, uint64_t instructions, uint64_t dram_accesses,
				 uint64_t pages);

	/**
	 * Optional (NULL: time is real, and nothing starts before it is issued). Work issued
	 * on the current timeline from now on starts no earlier than `t` ns of modelled
	 * time. Each modelled timeline has its own clock, so a run a host command queued
	 * would otherwise start whenever the ISP core is free, even before that command.
	 */
	void (*not_before)(void *ctx, uint64_t t);

	/**
	 * Optional, both or neither (NULL: page_read only). Start reading page `ppn` into
	 * `data` (page_size bytes): charged as page_read, now, but the transfer may still be
	 * under way when this returns, as a controller's DMA is, until read_wait. Once the
	 * page is in `data`, check(data, page_size, spare, arg) runs with the page's spare area
	 * (possibly on another thread: it must touch nothing but its arguments), and a result
	 * < 0 is what read_wait reports. `data` is the caller's to leave alone until then.
	 * \return 0, or -SS_EINVAL for a bad address (nothing started).
	 */
	int (*page_read_start)(void *ctx, uint32_t ppn, void *data,
			       int (*check)(const void *data, uint32_t len, const void *spare,
					    uint32_t arg),
			       uint32_t arg);
	/** Wait until every read started so far is in place and checked. \return 0, or the
	 *  first failure among them (a check's result, or -SS_EIO), which it then forgets. */
	int (*read_wait)(void *ctx);
};

struct ss_hal {
	const struct ss_hal_ops *ops;
	void *ctx;
	struct ss_geometry geo;
	void *dram;          /* the firmware's whole DRAM arena */
	size_t dram_size;
	uint32_t endurance;  /* rated P/E cycles, informational (SMART thresholds) */
	int16_t temperature_c; /* reported drive temperature */
	char model[41];      /* IDENTIFY strings, NUL-terminated */
	char serial[21];
	char firmware_rev[9];
};

static inline int ss_hal_page_read(struct ss_hal *h, uint32_t ppn, void *data, void *spare)
{
	return h->ops->page_read(h->ctx, ppn, data, spare);
}
static inline int ss_hal_page_program(struct ss_hal *h, uint32_t ppn, const void *data,
				      const void *spare)
{
	return h->ops->page_program(h->ctx, ppn, data, spare);
}
static inline int ss_hal_block_erase(struct ss_hal *h, uint32_t block)
{
	return h->ops->block_erase(h->ctx, block);
}
static inline int ss_hal_sync(struct ss_hal *h) { return h->ops->sync(h->ctx); }
static inline void ss_hal_barrier(struct ss_hal *h) { h->ops->barrier(h->ctx); }
static inline void ss_hal_set_timeline(struct ss_hal *h, enum ss_hal_timeline tl)
{
	h->ops->set_timeline(h->ctx, tl);
}
static inline void ss_hal_isp_account(struct ss_hal *h, uint64_t instr, uint64_t dram, uint64_t pages)
{
	h->ops->isp_account(h->ctx, instr, dram, pages);
}
static inline int ss_hal_can_price_isp(const struct ss_hal *h)
{
	return h->ops->isp_price_ns != 0;
}
/* 0 where the hal cannot price (ss_hal_can_price_isp). */
static inline uint64_t ss_hal_isp_price_ns(struct ss_hal *h, uint64_t instr, uint64_t dram,
					   uint64_t pages)
{
	return h->ops->isp_price_ns ? h->ops->isp_price_ns(h->ctx, instr, dram, pages) : 0;
}
static inline void ss_hal_read_ahead(struct ss_hal *h, int on)
{
	if (h->ops->read_ahead) {
		h->ops->read_ahead(h->ctx, on);
	}
}
static inline int ss_hal_nvram_map(struct ss_hal *h, int create, size_t *size, void **mem)
{
	return h->ops->nvram_map ? h->ops->nvram_map(h->ctx, create, size, mem) : -38;   /* -SS_ENOSYS */
}
static inline void ss_hal_read_ahead_wait(struct ss_hal *h)
{
	if (h->ops->read_ahead_wait) {
		h->ops->read_ahead_wait(h->ctx);
	}
}
static inline uint64_t ss_hal_now_ns(struct ss_hal *h) { return h->ops->now_ns(h->ctx); }
static inline void ss_hal_not_before(struct ss_hal *h, uint64_t t)
{
	if (h->ops->not_before) {
		h->ops->not_before(h->ctx, t);
	}
}
static inline int ss_hal_can_read_start(const struct ss_hal *h)
{
	return h->ops->page_read_start != 0;
}
static inline int ss_hal_page_read_start(struct ss_hal *h, uint32_t ppn, void *data,
					 int (*check)(const void *data, uint32_t len,
						      const void *spare, uint32_t arg),
					 uint32_t arg)
{
	return h->ops->page_read_start(h->ctx, ppn, data, check, arg);
}
static inline int ss_hal_read_wait(struct ss_hal *h)
{
	return h->ops->read_wait ? h->ops->read_wait(h->ctx) : 0;
}
static inline int ss_hal_has_watchdog(const struct ss_hal *h) { return h->ops->section_run != 0; }
static inline void ss_hal_watchdog_arm(struct ss_hal *h, uint32_t limit_ms)
{
	if (h->ops->watchdog_arm) {
		h->ops->watchdog_arm(h->ctx, limit_ms);
	}
}
static inline int ss_hal_section_run(struct ss_hal *h, int (*fn)(void *arg), void *arg)
{
	return h->ops->section_run ? h->ops->section_run(h->ctx, fn, arg) : fn(arg);
}
/* Leaves the running section when the backend has sections; returns otherwise. */
static inline void ss_hal_section_abort(struct ss_hal *h, int err)
{
	if (h->ops->section_abort) {
		h->ops->section_abort(h->ctx, err);
	}
}
static inline void ss_hal_section_mask(struct ss_hal *h, int on)
{
	if (h->ops->section_mask) {
		h->ops->section_mask(h->ctx, on);
	}
}

#endif
