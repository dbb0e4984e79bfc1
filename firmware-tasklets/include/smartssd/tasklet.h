/*
 * The tasklet ABI: what a program running inside the drive's controller may use.
 *
 * A tasklet is freestanding C: no malloc (memory comes from the budget the host declared
 * when it created the instance, via ss_tasklet_alloc), no libc beyond this header, and no
 * floating point in the per-record path (group-aggregate's SUM of F32/F64 fields excepted,
 * which the board build leaves out). The engine calls it event by event:
 *
 *   init(params)           once, before any input; validate params here
 *   on_records(batch)      with whole records, reassembled across page boundaries
 *     or on_page(page)     with raw pages, for tasklets that want them
 *   finish()               once, after the last input; emit final results here
 *
 * Callbacks return 0 to continue, SS_TASKLET_DONE to stop reading input early (finish is
 * still called), or a negative SS_E* code to fail the instance with that reason.
 *
 * Every read of input bytes goes through the accessors below, which count device DRAM
 * accesses; the drive's timing model charges ISP-core time from those counts. Every loop
 * that is not bounded by the input must call ss_tasklet_step(): past the instance's step
 * limit the engine stops the tasklet with -SS_ETIME. Allocation past the memory budget
 * returns NULL and marks the instance as over budget (-SS_ENOMEM).
 */
#ifndef SMARTSSD_TASKLET_H
#define SMARTSSD_TASKLET_H

#include <stddef.h>
#include <stdint.h>

#include "ss_rt.h"

#define SS_TASKLET_DONE 1

/* ---- record layouts -------------------------------------------------------------- */

enum ss_layout_kind {
	SS_LAYOUT_FIXED = 1,  /* fixed-width binary records, big-endian fields at offsets */
	SS_LAYOUT_TEXT = 2,   /* lines ended by line_delim, fields split by field_sep */
};

enum ss_field_type {
	SS_FIELD_U8 = 1,
	SS_FIELD_U16 = 2,
	SS_FIELD_U32 = 3,
	SS_FIELD_U64 = 4,
	SS_FIELD_I32 = 5,
	SS_FIELD_I64 = 6,
	SS_FIELD_BYTES = 7,   /* fixed: `width` raw bytes; text: the whole column */
	/* FIXED layouts only, no bit fields; they read as signed 64-bit values: */
	SS_FIELD_F32 = 8,     /* IEEE binary32; reads as its SQL order key (ss_f32_key) */
	SS_FIELD_F64 = 9,     /* IEEE binary64; reads as its SQL order key (ss_f64_key) */
	SS_FIELD_DATE = 10,   /* i32: days since 1970-01-01 */
	SS_FIELD_TIMESTAMP = 11, /* i64: microseconds since 1970-01-01T00:00Z */
	SS_FIELD_DECIMAL = 12,   /* i64: the unscaled value; `width` holds the scale (0..18) */
};

#define SS_LAYOUT_MAX_FIELDS 16

struct ss_field {
	uint16_t offset;   /* FIXED: byte offset in the record; TEXT: column index */
	uint8_t type;      /* enum ss_field_type */
	uint8_t width;     /* SS_FIELD_BYTES in FIXED layouts: width in bytes */
	uint8_t shift;     /* integer fields: value = (raw >> shift) & mask(bits) ... */
	uint8_t bits;      /* ... when bits != 0 (e.g. the region in a WorldCup98 server byte) */
	uint16_t null_bit; /* FIXED: 0 never NULL; k + 1: NULL when bit k of the record is set
			    * (byte k / 8, mask 0x80 >> k % 8). TEXT: 0 */
};

/* Floating-point values as the drive compares them: a signed 64-bit key in SQL's order
 * (Spark's): -inf < ... < -0.0 = 0.0 < ... < +inf < NaN, every NaN equal. Integer code
 * only: no floating point in the record path. */
static inline uint64_t ss_f64_key(uint64_t bits)
{
	if ((bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) {
		return 0x7ff8000000000000ull;
	}
	if (bits == 0x8000000000000000ull) {
		return 0;
	}
	return (int64_t)bits < 0 ? bits ^ 0x7fffffffffffffffull : bits;
}

static inline uint64_t ss_f32_key(uint32_t bits)
{
	if ((bits & 0x7fffffffu) > 0x7f800000u) {
		bits = 0x7fc00000u;
	} else if (bits == 0x80000000u) {
		bits = 0;
	} else if (bits & 0x80000000u) {
		bits ^= 0x7fffffffu;
	}
	return (uint64_t)(int64_t)(int32_t)bits;
}

struct ss_layout {
	uint8_t kind;         /* enum ss_layout_kind */
	uint8_t line_delim;   /* TEXT */
	uint8_t field_sep;    /* TEXT */
	uint8_t nfields;
	uint32_t record_size; /* FIXED: bytes per record; TEXT: longest line accepted */
	struct ss_field fields[SS_LAYOUT_MAX_FIELDS];
};

/* ---- the engine's services ------------------------------------------------------- */

struct ss_tasklet_ctx;

struct ss_record {
	const uint8_t *data;
	uint32_t len;         /* FIXED: record_size; TEXT: line length without the delimiter */
	uint64_t lba;         /* 512-byte LBA of the flash page holding the record's first byte */
};

const struct ss_layout *ss_tasklet_layout(const struct ss_tasklet_ctx *ctx);

/** Integer field `field` of `rec` per the layout (text columns parsed as decimal; an
 *  unparsable or missing column reads as 0 and sets *ok to 0 when ok is non-NULL, as does
 *  a NULL field). F32/F64 fields read as their order key, DATE sign-extended. */
uint64_t ss_field_u64(struct ss_tasklet_ctx *ctx, const struct ss_record *rec, unsigned field,
		      int *ok);
int64_t ss_field_i64(struct ss_tasklet_ctx *ctx, const struct ss_record *rec, unsigned field,
		     int *ok);
/** Bytes of field `field`; *len receives their count. NULL when the field is missing or
 *  NULL. */
const uint8_t *ss_field_bytes(struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			      unsigned field, uint32_t *len);

/** One counted 4-byte access to device memory (page buffers, tasklet state). */
uint32_t ss_load32(struct ss_tasklet_ctx *ctx, const void *p);
/** Count `n` further DRAM accesses the tasklet made to its own state. */
void ss_tasklet_dram(struct ss_tasklet_ctx *ctx, uint32_t n);

/** Charge `n` steps. \return 0, or -SS_ETIME once the step limit is passed (return it). */
int ss_tasklet_step(struct ss_tasklet_ctx *ctx, uint32_t n);

/** Zeroed memory from the instance's budget, 8-byte aligned; NULL when over budget. */
void *ss_tasklet_alloc(struct ss_tasklet_ctx *ctx, uint32_t size);
/** Bytes of the budget still free (an allocation of this size, rounded to 8, succeeds). */
uint32_t ss_tasklet_mem_left(const struct ss_tasklet_ctx *ctx);

/** `n` consecutive records of a FIXED layout in memory: record i at data + i * the
 *  layout's record_size. */
struct ss_record_run {
	const uint8_t *data;
	uint32_t n;
};

/** Where a record of the batch being delivered to on_records starts. */
struct ss_record_origin {
	uint64_t oid;          /* input object */
	uint64_t offset;       /* byte offset of the record in the object */
	uint64_t page_offset;  /* byte offset of the page holding its first byte */
};
/** \return 0, or -SS_EINVAL when `rec` is not an element of the current batch. */
int ss_tasklet_record_origin(const struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			     struct ss_record_origin *o);

#ifndef SS_TASKLETS_NO_PARQUET
/** Where the page being delivered to on_page starts (record_origin's offset and
 *  page_offset are both the page's): what a tasklet that reassembles byte ranges of its
 *  input (the Parquet scan's column chunks) needs. \return 0, -SS_EINVAL outside on_page. */
int ss_tasklet_page_origin(const struct ss_tasklet_ctx *ctx, struct ss_record_origin *o);
#endif

/** Record i of `run`, a run of the batch being delivered to on_record_runs, as the
 *  descriptor and origin (when o is not NULL) on_records would have had for it.
 *  \return 0, or -SS_EINVAL when `run` is not a run of that batch or i is past its end. */
int ss_tasklet_run_record(const struct ss_tasklet_ctx *ctx, const struct ss_record_run *run,
			  uint32_t i, struct ss_record *rec, struct ss_record_origin *o);

/* ---- counting in bulk: a fast path over a batch of FIXED records ------------------ */

/** An integer field of a FIXED layout, decoded without a call per record. */
struct ss_field_reader {
	uint16_t offset;
	uint8_t width;        /* bytes, big-endian */
	uint8_t shift;
	uint8_t sign32;       /* SS_FIELD_I32, DATE: sign-extend its 4 bytes */
	uint8_t work;         /* counted work of one read: what ss_field_u64 counts */
	uint8_t fkey;         /* SS_FIELD_F32 / F64: read as ss_f32_key / ss_f64_key */
	uint8_t null_mask;    /* nullable: its flag in byte null_byte; 0 never NULL */
	uint16_t null_byte;
	uint64_t mask;
};

/** \return 0, or -SS_EINVAL unless `field` is a numeric (not BYTES) field of a FIXED layout. */
int ss_field_reader_init(const struct ss_tasklet_ctx *ctx, unsigned field,
			 struct ss_field_reader *r);

/** What ss_field_u64 returns for a record `rec` of the layout; counts nothing. */
static inline uint64_t ss_field_read(const struct ss_field_reader *r, const uint8_t *rec)
{
	const uint8_t *p = rec + r->offset;
	uint64_t raw;

	switch (r->width) {
	case 1:
		raw = p[0];
		break;
	case 2:
		raw = ss_get_be16(p);
		break;
	case 4:
		raw = ss_get_be32(p);
		break;
	default:
		raw = ss_get_be64(p);
		break;
	}
	if (r->fkey) {
		return r->width == 4 ? ss_f32_key((uint32_t)raw) : ss_f64_key(raw);
	}
	if (r->sign32) {
		raw = (uint64_t)(int64_t)(int32_t)(uint32_t)raw;
	}
	return (raw >> r->shift) & r->mask;
}

/** Whether the field is NULL in record `rec` (what sets ss_field_u64's *ok to 0). */
static inline int ss_field_read_null(const struct ss_field_reader *r, const uint8_t *rec)
{
	return (rec[r->null_byte] & r->null_mask) != 0;
}

/** ss_field_read of each of `n` consecutive records of `size` bytes from `data` (a run,
 *  or part of one), into out[0..n): the field's width chosen once for all of them, not per
 *  record. NULL flags are not looked at. Counts nothing. */
static inline void ss_field_read_run(const struct ss_field_reader *r, const uint8_t *data,
				     uint32_t size, uint32_t n, uint64_t *out)
{
	const uint32_t o = r->offset, sh = r->shift;
	const uint64_t mask = r->mask;
	const uint8_t *p = data + o;

	switch (r->width) {
	case 1:
		for (uint32_t i = 0; i < n; i++, p += size) {
			out[i] = ((uint64_t)p[0] >> sh) & mask;
		}
		break;
	case 2:
		for (uint32_t i = 0; i < n; i++, p += size) {
			out[i] = ((uint64_t)ss_get_be16(p) >> sh) & mask;
		}
		break;
	case 4:
		if (r->sign32) {
			for (uint32_t i = 0; i < n; i++, p += size) {
				out[i] = ((uint64_t)(int64_t)(int32_t)ss_get_be32(p) >> sh) & mask;
			}
		} else {
			for (uint32_t i = 0; i < n; i++, p += size) {
				out[i] = ((uint64_t)ss_get_be32(p) >> sh) & mask;
			}
		}
		break;
	default:
		for (uint32_t i = 0; i < n; i++, p += size) {
			out[i] = (ss_get_be64(p) >> sh) & mask;
		}
		break;
	}
	if (r->fkey) {
		for (uint32_t i = 0; i < n; i++) {
			out[i] = r->width == 4 ? ss_f32_key((uint32_t)out[i]) : ss_f64_key(out[i]);
		}
	}
}

/** Count `n` reads of integer field `field` of a FIXED layout, as n ss_field_u64 would
 *  (of a field never NULL). */
void ss_field_count(struct ss_tasklet_ctx *ctx, unsigned field, uint32_t n);

/** Counted work (instructions + DRAM accesses) this callback may still do, and in *steps
 *  the steps, before a service would stop it. Work within both may be done first and
 *  counted afterwards in bulk (ss_field_count, ss_tasklet_dram, ss_tasklet_step) with the
 *  same counts and the same outcome as counting it as it is done. */
uint64_t ss_tasklet_room(const struct ss_tasklet_ctx *ctx, uint64_t *steps);

#ifndef SS_TASKLETS_NO_FAST_PATH
#define SS_TASKLET_MEMO_BYTES 1024u
/** SS_TASKLET_MEMO_BYTES of memory, 8-byte aligned, zeroed when the run starts and kept
 *  until it ends, where a fast path keeps what it has worked out from one callback to the
 *  next (a group's slot, what one of its records counts). It is the host's memory, neither
 *  counted nor part of the budget: what it holds may only save recomputing what is
 *  counted anyway, never change a count. */
void *ss_tasklet_memo(struct ss_tasklet_ctx *ctx);
#endif

/** Append bytes to the instance's output object. \return 0, -SS_ENOSPC, -SS_EIO. */
int ss_tasklet_emit(struct ss_tasklet_ctx *ctx, const void *data, uint32_t len);

/** The instance's private state pointer, set by init. */
void ss_tasklet_set_state(struct ss_tasklet_ctx *ctx, void *state);
void *ss_tasklet_state(const struct ss_tasklet_ctx *ctx);

/* ---- the tasklet's side ---------------------------------------------------------- */

struct ss_tasklet_desc {
	const char *name;
	uint32_t id;
	int (*init)(struct ss_tasklet_ctx *ctx, const uint8_t *params, uint32_t params_len);
	/* exactly one of on_records and on_page is set */
	int (*on_records)(struct ss_tasklet_ctx *ctx, const struct ss_record *recs, uint32_t n);
	int (*on_page)(struct ss_tasklet_ctx *ctx, const uint8_t *page, uint32_t len, uint64_t lba);
	int (*finish)(struct ss_tasklet_ctx *ctx);
	/* optional, beside on_records: a FIXED layout's records as runs of consecutive
	 * records, not one descriptor each (the same records, batches and counts); the
	 * emulator's fast path, where the firmware's build has one */
	int (*on_record_runs)(struct ss_tasklet_ctx *ctx, const struct ss_record_run *runs,
			      uint32_t nruns);
#ifndef SS_FW_WITHOUT_BPF
	/* bytes of params init may take; 0: SS_ISP_MAX_PARAMS (a "bpf" instance's carry its
	 * program; the board, which has none, leaves the field out) */
	uint32_t params_max;
#endif
};

#endif
