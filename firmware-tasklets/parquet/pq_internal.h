/* Shared inside the Parquet module: the failure recorder, the Thrift compact reader and the
 * RLE/bit-packed hybrid decoder. */
#ifndef PQ_INTERNAL_H
#define PQ_INTERNAL_H

#include "ss_parquet.h"
#include "ss_rt.h"

static inline int pq_fail(struct ss_pq_error *err, int rc, enum ss_pq_err_kind kind,
			  size_t offset)
{
	if (err) {
		err->kind = kind;
		err->offset = (uint32_t)offset;
	}
	return rc;
}

/* Thrift compact protocol reader over buf[0..len). */
struct pq_thrift {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	struct ss_pq_error *err;
};

/* Thrift compact type ids */
enum {
	PQ_CT_STOP = 0,
	PQ_CT_TRUE = 1,
	PQ_CT_FALSE = 2,
	PQ_CT_BYTE = 3,
	PQ_CT_I16 = 4,
	PQ_CT_I32 = 5,
	PQ_CT_I64 = 6,
	PQ_CT_DOUBLE = 7,
	PQ_CT_BINARY = 8,
	PQ_CT_LIST = 9,
	PQ_CT_SET = 10,
	PQ_CT_MAP = 11,
	PQ_CT_STRUCT = 12,
};

int pq_varint(struct pq_thrift *t, uint64_t *v, unsigned max_bits);
int pq_thrift_i32(struct pq_thrift *t, int32_t *v);
/** Read a field header: *type PQ_CT_STOP ends the struct; *id follows the previous id. */
int pq_thrift_field(struct pq_thrift *t, int16_t *id, uint8_t *type);
/** Skip a value of compact type type, following at most a fixed nesting depth. */
int pq_thrift_skip(struct pq_thrift *t, uint8_t type);

/*
 * RLE/bit-packed hybrid (Encodings.md) over buf[0..len), with a bit width of at most 32,
 * yielding at most `remaining` values: a run that claims more than the page holds is refused.
 * base is buf's offset in the page, for error offsets.
 */
struct pq_rle {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	size_t base;
	uint32_t bit_width;
	uint32_t remaining;		/* values the page still expects */
	uint32_t run;			/* values left in the current run */
	uint32_t value;			/* the RLE run's value */
	size_t bit_pos;			/* the bit-packed run's next bit, from buf */
	int literal;
	struct ss_pq_error *err;
};

void pq_rle_init(struct pq_rle *d, const uint8_t *buf, size_t len, size_t base,
		 uint32_t bit_width, uint32_t remaining, struct ss_pq_error *err);
/** Decode n values into out. \return 0 or -SS_EBADMSG */
int pq_rle_get(struct pq_rle *d, uint32_t *out, uint32_t n);
/** Count the next n values, none materialised: counts[v]++ for each, an RLE run of k equal
 *  values one add of k; a value at or past ncounts fails (SS_PQ_E_BAD_DICT_INDEX). st's runs
 *  and packed_values say what it did. \return 0 or -SS_EBADMSG */
int pq_rle_count(struct pq_rle *d, uint32_t *counts, uint32_t ncounts, uint32_t n,
		 struct ss_pq_stats *st);
/** Pass over the next n values, none decoded: a run at a time (st->runs counts the runs
 *  entered); their bytes were checked when the run began. \return 0 or -SS_EBADMSG */
int pq_rle_skip(struct pq_rle *d, uint32_t n, struct ss_pq_stats *st);

#endif
