/* Builders for hand-made pages in the Parquet tests: a Thrift compact writer for page
 * headers, written from the compact protocol's description, independent of the reader. */
#ifndef PQ_TEST_H
#define PQ_TEST_H

#include <stdint.h>
#include <string.h>

#include "ss_parquet.h"

struct tw {
	uint8_t b[512];
	size_t n;
	int16_t last[8];	/* previous field id per open struct */
	int depth;
};

static inline void tw_byte(struct tw *w, uint8_t v) { w->b[w->n++] = v; }

static inline void tw_uvarint(struct tw *w, uint64_t v)
{
	while (v >= 0x80) {
		tw_byte(w, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	tw_byte(w, (uint8_t)v);
}

static inline void tw_zz(struct tw *w, int64_t v)
{
	tw_uvarint(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void tw_field(struct tw *w, int16_t id, uint8_t type)
{
	int16_t d = (int16_t)(id - w->last[w->depth]);

	if (d > 0 && d <= 15) {
		tw_byte(w, (uint8_t)(d << 4 | type));
	} else {
		tw_byte(w, type);
		tw_zz(w, id);
	}
	w->last[w->depth] = id;
}

static inline void tw_i32(struct tw *w, int16_t id, int32_t v)
{
	tw_field(w, id, 5);
	tw_zz(w, v);
}

static inline void tw_begin(struct tw *w, int16_t id)
{
	tw_field(w, id, 12);
	w->last[++w->depth] = 0;
}

static inline void tw_end(struct tw *w)
{
	tw_byte(w, 0);
	if (w->depth) {
		w->depth--;
	}
}

/* A v1 data page header (or dictionary page header when type is 2). */
static inline void tw_page_header(struct tw *w, int type, int32_t usize, int32_t csize,
				  int32_t nvalues, int encoding)
{
	memset(w, 0, sizeof(*w));
	tw_i32(w, 1, type);
	tw_i32(w, 2, usize);
	tw_i32(w, 3, csize);
	tw_begin(w, type == 2 ? 7 : 5);
	tw_i32(w, 1, nvalues);
	tw_i32(w, 2, encoding);
	if (type != 2) {
		tw_i32(w, 3, SS_PQ_ENC_RLE);
		tw_i32(w, 4, SS_PQ_ENC_RLE);
	}
	tw_end(w);
	tw_end(w);
}

#endif
