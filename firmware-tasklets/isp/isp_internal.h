/*
 * ISP engine internals: instances, the record reader (split rules and reassembly across
 * pages), the tasklet context, and the counted-cost constants.
 */
#ifndef ISP_INTERNAL_H
#define ISP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ss_isp.h"
#include "ss_rt.h"

/* Counted costs of the engine's own work, in simple ARM instructions. */
#define ISP_INSN_PER_PAGE 32      /* batch bookkeeping, extent lookup per page */
#define ISP_INSN_PER_RECORD 8     /* cut one record and hand it over */
#define ISP_INSN_PER_FIELD 4      /* FIXED field decode */
#define ISP_INSN_PER_CALL 16      /* one callback */

#define ISP_REC_CHUNK 128         /* records per on_records call at most */
#define ISP_MAX_EXTENTS 16        /* extents fetched per ss_os_extents call */
/* Counted work (instructions + DRAM accesses) one callback may do: 2^30, 12 s of the
 * 87.5 MHz ARM7 of the Jasmine board. A callback sees at most 128 records or one page;
 * the costliest built-in spends some tens of instructions per byte, 2^22 on a 32 KiB page
 * of TEXT lines, so the budget stops only a tasklet that has lost its way. */
#define ISP_CALL_WORK_MAX (1ull << 30)
/* The watchdog: a callback still running after this much core time is stopped. Far above
 * the ISP_CALL_WORK_MAX of counted work, so it acts only on loops that count nothing. */
#define ISP_WATCHDOG_MS 2000u

/* ---- the record reader: split rules and reassembly, independent of the store ---------- */

enum isp_rd_kind { ISP_RD_FIXED = 1, ISP_RD_TEXT = 2, ISP_RD_PAGES = 3 };
enum isp_rd_phase { ISP_RD_SKIP = 1, ISP_RD_LINE = 2, ISP_RD_DONE = 3 };

/* Receives the records cut by the reader, in object order. `flush` is called before the
 * reader overwrites its carry buffer, so records pointing into it must be consumed then. */
struct isp_sink {
	int (*emit)(void *arg, const uint8_t *data, uint32_t len, uint64_t off, uint64_t lba);
	/* `count` whole FIXED records of `size` bytes at object offset `off`, which is in the
	 * batch at bo (buf, lbas as for isp_reader_feed): as many emit calls, in one.
	 * *emitted: how many were taken, all of them unless an error or DONE came first. */
	int (*emit_fixed)(void *arg, const uint8_t *buf, uint64_t bo, const uint64_t *lbas,
			  uint64_t off, uint32_t size, uint32_t count, uint32_t *emitted);
	int (*flush)(void *arg);
	void *arg;
};

struct isp_reader {
	uint8_t kind;            /* enum isp_rd_kind */
	uint8_t phase;           /* enum isp_rd_phase */
	uint8_t delim;
	bool carrying;           /* a record begun in an earlier batch sits in carry */
	uint32_t rec_size;       /* FIXED: record size; TEXT: longest line */
	uint32_t page_size;
	uint64_t size;           /* object size */
	uint64_t end;            /* split end, clamped to size */
	uint64_t pos;            /* FIXED: next record; TEXT: next line or scan position */
	uint64_t limit;          /* FIXED: first record start past the split */
	uint64_t rd_start;       /* first byte needed */
	uint64_t rd_end;         /* nominal end of reading; TEXT may need more past it */
	uint8_t *carry;
	uint32_t carry_len;
	uint64_t carry_pos;
	uint64_t carry_lba;
	uint64_t insn;           /* counted work since the caller last took it */
	uint64_t dram;
};

/**
 * Set up reading bytes [start, start+length) of an object of `size` bytes. `carry` holds
 * rec_size bytes (unused for ISP_RD_PAGES).
 */
void isp_reader_begin(struct isp_reader *r, enum isp_rd_kind kind, const struct ss_layout *lay,
		      uint32_t page_size, uint64_t size, uint64_t start, uint64_t length,
		      uint8_t *carry);

/** True when the reader is done with this input. */
bool isp_reader_done(const struct isp_reader *r);

/** True when a TEXT line still open at rd_end needs the bytes at `next` (< size). */
bool isp_reader_wants(const struct isp_reader *r, uint64_t next);

/**
 * Cut records from object bytes [bo, bo+bl): bo is page aligned and follows the previous
 * batch; lbas[i] is the LBA of the page at bo + i*page_size.
 * \return 0, SS_TASKLET_DONE or a sink's error, -SS_E2BIG for a line longer than rec_size.
 */
int isp_reader_feed(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl,
		    const uint64_t *lbas, const struct isp_sink *sink);

/* ---- instances -------------------------------------------------------------------------- */

struct isp_instance;

#ifndef SS_TASKLETS_NO_FAST_PATH
/* Where a run of the batch being delivered to on_record_runs lies in its input. */
struct isp_run_at {
	uint64_t off;             /* object offset of its first record */
	uint64_t bo;              /* object offset of the batch holding it */
	const uint64_t *lbas;     /* that batch's page LBAs; NULL: one record, at `lba` */
	uint64_t lba;
};
#endif

struct ss_tasklet_ctx {
	struct ss_isp *isp;
	struct isp_instance *inst;
	const struct ss_layout *layout;   /* NULL for page tasklets created without one */
	struct ss_arena budget;
	void *state;
	uint64_t steps;
	uint64_t step_limit;              /* 0: none */
	uint64_t insn;                    /* counted work not yet charged */
	uint64_t dram;
	int err;                          /* sticky: the run has failed with this */
	bool in_call;                     /* inside a tasklet callback (a hal section) */
	uint64_t call_base;               /* insn + dram when the callback began */
	/* the batch being delivered to on_records, for ss_tasklet_record_origin */
	const struct ss_record *recs;
	const uint64_t *rec_off;
	uint32_t nrecs;
	uint32_t page_size;
	ss_oid_t cur_oid;
#ifndef SS_TASKLETS_NO_PARQUET
	uint64_t page_off;                /* on_page: the page's object offset */
	bool in_page;                     /* inside on_page */
#endif
#ifndef SS_TASKLETS_NO_FAST_PATH
	/* the batch being delivered to on_record_runs, for ss_tasklet_run_record */
	const struct ss_record_run *runs;
	const struct isp_run_at *run_at;
	uint32_t nruns;
	uint64_t memo[SS_TASKLET_MEMO_BYTES / 8];   /* ss_tasklet_memo: zeroed per run */
#endif
};

struct isp_region {
	uint64_t start;   /* offset in the pool */
	uint64_t size;    /* 0: free */
};

/* A batch of input pages of the current input of an instance (isp_input.c). */
struct isp_batch {
	uint64_t off;     /* page-aligned object offset */
	uint32_t pages;
	uint32_t len;     /* bytes: pages * page_size, short at the object's end */
	bool tail;        /* past the split's nominal range (a TEXT line open at its end) */
};

/* The next batch of the instance that ran last, already read into batch[slot]. */
struct isp_prefetch {
	bool have;
	int slot;                         /* the batch buffer holding it */
	struct isp_batch b;
};

struct isp_instance {
	uint32_t id;                      /* 0: slot free */
	uint32_t state;                   /* enum ss_isp_state */
	int32_t error;
	const struct ss_tasklet_desc *desc;
	struct ss_layout layout;
	bool has_layout;
	uint8_t *params;
	uint32_t params_len;
	struct isp_region region;
	uint8_t *carry;
	uint8_t *outbuf;
	uint8_t *budget_mem;
	uint32_t budget;
	ss_oid_t output;
	uint64_t out_limit;
	uint64_t out_mtime;
	uint32_t out_fill;                /* bytes buffered in outbuf */
	uint64_t out_off;                 /* bytes written to the object */

	/* set while ss_isp_run_source() runs: inputs come from it, not the store */
	const struct ss_isp_source *src;
	struct ss_isp_input in[SS_ISP_MAX_INPUTS];
	uint64_t in_size[SS_ISP_MAX_INPUTS];
	uint32_t n_in;

	/* run cursor */
	uint32_t queued;                  /* isp->queued_next when executed: the run order */
	uint64_t not_before;              /* modelled ns: the run starts no earlier */
	bool floor_open;                  /* executed; ss_isp_not_before not yet called */
	/* the core shared in modelled time (isp_share.c) */
	uint64_t arrival;                 /* modelled ns the run arrived at the core */
	uint64_t span;                    /* its span computed alone, first come first served */
	uint64_t share_start;             /* while share_begun: its shared start, fixed */
	uint64_t share_left;              /* while share_begun: work left at isp->share_at */
	uint64_t sim_start, sim_end, sim_left;  /* the schedule's last computation */
	bool sim_active;
	bool share_begun;                 /* served before isp->share_at */
	bool shared_final;                /* its shared times are fixed in prog */
	bool started;
	bool input_open;
	bool runs;                        /* records go to on_record_runs */
	uint32_t cur;                     /* input index */
	uint64_t next_off;                /* next page-aligned object offset to read */
	struct isp_reader rd;

	struct ss_tasklet_ctx ctx;
	struct ss_isp_progress prog;
};

struct ss_isp {
	struct ss_objstore *os;
	struct ss_hal *hal;
	uint32_t page_size;
	const struct ss_tasklet_desc *reg[SS_ISP_MAX_TASKLETS];
	uint32_t nreg;
	struct isp_instance inst[SS_ISP_MAX_INSTANCES];
	uint32_t gen;
	uint32_t queued_next;             /* the next run's place in the run order */
	uint64_t fifo_end;                /* the latest end of a run computed on the timeline */
	uint64_t share_at;                /* the shared schedule is fixed up to here */
	const struct isp_instance *pref_owner;
	struct isp_prefetch pref;
	uint8_t *batch[2];
	uint64_t *lbas[2];
	uint32_t watchdog_ms;
	uint64_t call_work_max;
	struct ss_record recs[ISP_REC_CHUNK];
	uint64_t rec_off[ISP_REC_CHUNK];
	uint32_t nrecs;                   /* records of the batch to deliver, as recs or runs */
#ifndef SS_TASKLETS_NO_FAST_PATH
	struct ss_record_run runs[ISP_REC_CHUNK];
	struct isp_run_at run_at[ISP_REC_CHUNK];
	uint32_t nruns;                   /* runs of the nrecs records (when nrecs > 0) */
#endif
	struct ss_extent ext[ISP_MAX_EXTENTS];
	uint8_t *pool;
	uint64_t pool_size;
};

struct isp_instance *isp_instance_get(struct ss_isp *isp, uint32_t id);
bool isp_layout_valid(const struct ss_layout *l);

/** Give the instance its memory: params copy, carry, output buffer, budget. */
int isp_region_alloc(struct ss_isp *isp, struct isp_instance *in, uint64_t size);
void isp_region_free(struct isp_instance *in);

/** Reset the tasklet context and output for a new run. */
void isp_ctx_reset(struct ss_isp *isp, struct isp_instance *in);
/** Write buffered output to the object. \return 0 or negative errno. */
int isp_output_flush(struct ss_isp *isp, struct isp_instance *in);

/** Stop the run with `err`: no further callbacks. */
void isp_fail(struct ss_isp *isp, struct isp_instance *in, int err);

/** Run `in` for up to max_pages pages of input. */
void isp_run(struct ss_isp *isp, struct isp_instance *in, uint32_t max_pages);

/** The shared schedule (isp_share.c): a run's span starts (its prog.started_ns set), a
 *  run's span ends (prog.finished_ns set), and whether a computed run's shared times are
 *  fixed, which puts them in its prog. */
#ifndef SS_ISP_NO_SHARE
void isp_share_started(struct ss_isp *isp, struct isp_instance *in);
void isp_share_ended(struct ss_isp *isp, struct isp_instance *in);
bool isp_share_report(struct ss_isp *isp, struct isp_instance *in);
#else
/* The board (cross/jasmine-features.sh): its times are its clock's, with no model to
 * share; a run's times are its span's, first come first served. */
static inline void isp_share_started(struct ss_isp *isp, struct isp_instance *in)
{
	(void)isp;
	(void)in;
}
static inline void isp_share_ended(struct ss_isp *isp, struct isp_instance *in)
{
	(void)isp;
	(void)in;
}
static inline bool isp_share_report(struct ss_isp *isp, struct isp_instance *in)
{
	(void)isp;
	(void)in;
	return true;
}
#endif

/** Page range [first, end) of input i as the reader will need it nominally. */
void isp_input_pages(const struct isp_instance *in, uint32_t page_size, uint32_t i,
		     uint64_t *first, uint64_t *end);

#endif
