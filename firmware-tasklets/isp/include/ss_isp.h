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
 * the end.
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

uint64_t ss_isp_dram_needed(const struct ss_geometry *geo);

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
 * the record, known types).
 * \return 0, -SS_ENOENT (unknown tasklet or output object), -SS_EINVAL (bad layout or
 *         params too long), -SS_ENOMEM (budget larger than the ISP arena can give),
 *         -SS_ENOSPC (too many instances).
 */
int ss_isp_create(struct ss_isp *isp, uint32_t tasklet_id, const void *params,
		  uint32_t params_len, const struct ss_layout *layout, uint32_t mem_budget,
		  uint64_t step_limit, ss_oid_t output, uint32_t *instance);

/** Queue a run. \return 0, -SS_ENOENT, -SS_EBUSY when already running, -SS_EINVAL. */
int ss_isp_execute(struct ss_isp *isp, uint32_t instance, const struct ss_isp_input *in,
		   uint32_t n_inputs);

int ss_isp_poll(struct ss_isp *isp, uint32_t instance, struct ss_isp_progress *p);

int ss_isp_destroy(struct ss_isp *isp, uint32_t instance);

/** Run queued work for at most `max_pages` input pages.
 *  \return 1 when work remains, 0 when idle. */
int ss_isp_run_slice(struct ss_isp *isp, uint32_t max_pages);

#endif
