/*
 * The in-storage processing engine: the tasklet registry, instances with their memory
 * budgets and step limits, the event-driven scheduler that feeds them input pages in
 * slices, and their output objects.
 *
 * Life of an instance
 *   ss_isp_create()   a tasklet with static params, layout, budget, step limit and the
 *                     output object it writes (an SS_OBJ_OUTPUT object in the store)
 *   ss_isp_execute()  queue a run over a list of input byte ranges of objects
 *   ss_isp_run_slice()  called by the firmware's idle loop; host commands are served
 *                     between slices, so host I/O keeps priority
 *   ss_isp_poll()     state and pages done so far
 *   ss_isp_destroy()  release the instance (the output object stays until removed)
 *
 * Input ranges follow Hadoop split rules, so splits of one object cover every record once:
 * FIXED layouts process the records whose first byte lies in [offset, offset+length)
 * (record boundaries at multiples of record_size from the object's start); TEXT layouts
 * skip a partial first line unless offset is 0 and read through the line that straddles
 * the end. Put another way, both process exactly the records (lines) whose first byte
 * lies in [offset, offset+length); a TEXT split at offset > 0 looks at byte offset-1 to
 * tell whether a line starts at offset. on_page tasklets get the pages whose first byte
 * lies in the range. A trailing partial FIXED record is not processed; a final line
 * without a delimiter is. A line longer than the layout's record_size fails the run with
 * -SS_E2BIG.
 *
 * Runs: ss_isp_execute() queues a run; the run starts in a later slice, which truncates
 * the output object, resets the instance's budget and calls init(). Each run starts from
 * scratch, so an instance can be executed again after DONE or FAILED.
 *
 * Failure containment: init/on_records/on_page/finish returning a negative code, an
 * allocation past the budget (-SS_ENOMEM), ss_tasklet_step() past the step limit
 * (-SS_ETIME) or an emit past the output limit (-SS_ENOSPC) stop the run at once: no
 * further callback (finish is not called), the instance becomes FAILED with that code, and
 * the output object keeps whatever prefix was written (ignore it). Nothing else is touched.
 *
 * The built-in tasklets live in the ss_tasklets library, above this one; the firmware
 * registers them after ss_isp_init() with ss_builtin_tasklets_register()
 * (smartssd/builtin_tasklets.h).
 *
 * Time: a slice selects the ISP timeline, reads input 128 pages per batch and reads batch
 * k+1 while batch k is computed (one barrier per batch), charges each batch's counted
 * instructions and DRAM accesses with ss_hal_isp_account(), and selects the host
 * timeline again before returning.
 */
#ifndef SS_ISP_H
#define SS_ISP_H

#include <stdint.h>

#include "smartssd/tasklet.h"
#include "ss_hal.h"
#include "ss_objstore.h"

struct ss_isp;

/* Pages read per batch (Kang §6.5.1: tasklets read 128 pages at a time). */
#define SS_ISP_BATCH_PAGES 128
#define SS_ISP_MAX_INPUTS 64
/* Tasklet state of at most this many bytes lives in the controller's on-chip SRAM, where
 * ss_tasklet_dram() accesses cost a cycle instead of a DRAM access: a quarter of the
 * OpenSSD Jasmine's 96 KB SRAM ([Jasmine SDK, build_rvds/scatter.scl]), the rest being the
 * firmware's own. */
#define SS_ISP_SRAM_STATE_BYTES (24u * 1024u)
#define SS_ISP_MAX_INSTANCES 16
#define SS_ISP_MAX_TASKLETS 32
#define SS_ISP_MAX_PARAMS 4096        /* bytes of static parameters */
#define SS_ISP_MAX_RECORD 65535       /* largest record_size (FIXED) / line (TEXT) */
/* Instance memory (budgets, carry and output buffers) in ss_isp_dram_needed(). The engine
 * gives instances whatever the arena holds beyond its fixed part. */
#define SS_ISP_POOL_BYTES (4u << 20)
/* ss_record.lba of a record in an object stored inline (packed) with its metadata. */
#define SS_ISP_LBA_NONE UINT64_MAX

enum ss_isp_state {
	SS_ISP_CREATED = 1,
	SS_ISP_RUNNING = 2,   /* queued or running */
	SS_ISP_DONE = 3,
	SS_ISP_FAILED = 4,
};

struct ss_isp_input {
	ss_oid_t oid;
	uint64_t offset;
	uint64_t length;
};

struct ss_isp_progress {
	uint32_t state;          /* enum ss_isp_state */
	int32_t error;           /* negative SS_E* when FAILED */
	uint64_t pages_done;
	uint64_t pages_total;
	uint64_t records;
	uint64_t output_bytes;
	uint64_t instructions;   /* counted work, charged to the ISP core */
	uint64_t dram_accesses;
	uint64_t started_ns;     /* modelled device time */
	uint64_t finished_ns;
};

/** DRAM the engine needs: its tables, two batch buffers of SS_ISP_BATCH_PAGES pages, and
 *  SS_ISP_POOL_BYTES for instances. */
uint64_t ss_isp_dram_needed(const struct ss_geometry *geo);

/** Bytes a layout field occupies in a FIXED record; 0 for an unknown type. */
uint32_t ss_field_width(const struct ss_field *f);

/** \return 0, -SS_EINVAL on a bad argument, -SS_ENOMEM when dram cannot hold the fixed
 *  part plus one page of pool. */
int ss_isp_init(struct ss_isp **out, struct ss_objstore *os, struct ss_hal *hal, void *dram,
		uint64_t dram_size);

/** Add a tasklet to the registry (the built-ins are registered at init).
 *  \return 0, -SS_EEXIST for a taken id, -SS_ENOSPC when the registry is full. */
int ss_isp_register(struct ss_isp *isp, const struct ss_tasklet_desc *desc);

/** The registered tasklet with this id or name, or NULL. */
const struct ss_tasklet_desc *ss_isp_find(const struct ss_isp *isp, uint32_t id);
const struct ss_tasklet_desc *ss_isp_find_name(const struct ss_isp *isp, const char *name,
					       uint32_t len);

/**
 * Create an instance. The params are copied. The layout is checked (field offsets inside
 * the record, known types); it may be NULL only for an on_page tasklet. step_limit 0 means
 * no limit; the limit counts ss_tasklet_step() units over one whole run. The instance takes
 * mem_budget + its carry and output buffers from the pool.
 * \return 0, -SS_ENOENT (unknown tasklet or output object), -SS_EINVAL (bad layout or
 *         params too long), -SS_ENOMEM (budget larger than the ISP arena can give),
 *         -SS_ENOSPC (too many instances).
 */
int ss_isp_create(struct ss_isp *isp, uint32_t tasklet_id, const void *params,
		  uint32_t params_len, const struct ss_layout *layout, uint32_t mem_budget,
		  uint64_t step_limit, ss_oid_t output, uint32_t *instance);

/** Queue a run. Inputs are checked now (they exist and are files or outputs, not the
 *  instance's own output); ranges past an object's end are clamped to it.
 *  \return 0, -SS_ENOENT, -SS_EBUSY when already running, -SS_EINVAL. */
int ss_isp_execute(struct ss_isp *isp, uint32_t instance, const struct ss_isp_input *in,
		   uint32_t n_inputs);

/*
 * Input that is not an object of the store: the solid-state cache's blocks of one file
 * (cmd/cmd_ssc_scan.c). Every input range of the run is in the byte space of one file of
 * `size` bytes; read() fills `len` bytes at the page-aligned byte `off` of input `input`.
 * The split rules are those of objects.
 */
struct ss_isp_source {
	int (*read)(void *arg, uint32_t input, uint64_t off, uint8_t *buf, uint32_t len);
	void *arg;
	uint64_t size;
};

/**
 * Run an instance over byte ranges of a source, to its end, now rather than in idle
 * slices: the command calling it holds the drive, so the source cannot change under the
 * run. The time is charged on the ISP timeline as a slice's is. The result is in the
 * output object, the counts in ss_isp_poll(); the ranges' oid is ignored.
 * \return 0 when the run is DONE, the run's error when it FAILED, -SS_ENOENT,
 *         -SS_EBUSY while the instance is queued or running, -SS_EINVAL.
 */
int ss_isp_run_source(struct ss_isp *isp, uint32_t instance, const struct ss_isp_source *src,
		      const struct ss_isp_input *ranges, uint32_t n_ranges);

/** The record size of an instance of a records tasklet with a FIXED layout; 0 for any
 *  other instance (TEXT, pages, unknown). */
uint32_t ss_isp_fixed_record_size(struct ss_isp *isp, uint32_t instance);

/** A run computed is reported RUNNING (started_ns and finished_ns 0) until its times in
 *  the shared schedule are fixed: until no run left to compute can arrive before its end
 *  (isp_share.c). \return 0, -SS_ENOENT for an unknown instance. */
int ss_isp_poll(struct ss_isp *isp, uint32_t instance, struct ss_isp_progress *p);

/** Cap the bytes a run may write to its output; an emit past it fails with -SS_ENOSPC.
 *  The default is no cap (the store's own space). \return 0, -SS_ENOENT, -SS_EBUSY while
 *  running. */
int ss_isp_set_output_limit(struct ss_isp *isp, uint32_t instance, uint64_t max_bytes);

/**
 * The limits that stop a tasklet which does not return: `call_work_max` counted
 * instructions and DRAM accesses per callback (-SS_ETIME at the next tasklet service
 * past it, deterministic), and the watchdog, `watchdog_ms` of core time per callback
 * (-SS_ETIMEDOUT, for loops that call no service; where the hal has a watchdog). The
 * defaults suit every real tasklet; tests lower them. \return 0, -SS_EINVAL for a zero.
 */
int ss_isp_set_limits(struct ss_isp *isp, uint32_t watchdog_ms, uint64_t call_work_max);

/** Stops a running instance (finish is not called) and returns its memory to the pool.
 *  \return 0, -SS_ENOENT. */
int ss_isp_destroy(struct ss_isp *isp, uint32_t instance);

/**
 * Runs executed since the last call start no earlier than `t`, in the hal's modelled time
 * (ss_hal not_before): the completion of the host command that executed them, which only
 * the drive that carried the command knows (the emulator calls this after each command).
 * Without it a run starts whenever the ISP core is free.
 */
void ss_isp_not_before(struct ss_isp *isp, uint64_t t);

/** Run queued work for at most `max_pages` input pages (0 counts as 1): the run executed
 *  first of those not yet finished (computed first come, first served, each run to its
 *  end; the modelled times share the core between runs: ss_isp_poll).
 *  Failures are the instance's, reported by ss_isp_poll().
 *  \return 1 when work remains, 0 when idle. */
int ss_isp_run_slice(struct ss_isp *isp, uint32_t max_pages);

/* The engine's queue: what ISP_QUEUE reports (SS_REPLY_ISP_QUEUE in ss_proto_replies.h). */
struct ss_isp_queue {
	uint32_t instances;       /* runs queued or running */
	uint32_t priced;          /* 1: the hal prices the core's work (ss_hal_can_price_isp) */
	uint64_t pages_remaining; /* sum of pages_total - pages_done */
	uint64_t backlog_ns;      /* sum of pages left x the run's counted cost per page so far,
				   * in whole ns (rounded down; page_ns before its first page);
				   * saturates at UINT64_MAX */
	uint64_t page_ns;         /* the price of a page with no counted work */
};

/** The runs queued or running and the core time they still need, priced by the hal from
 *  each run's counted work: the same counts give the same figures. */
void ss_isp_queue(struct ss_isp *isp, struct ss_isp_queue *q);

/** \return 1 when a run is queued or running (ss_isp_run_slice() has work), else 0. */
int ss_isp_busy(const struct ss_isp *isp);

#endif
