/*
 * One page of a flat column: decompress the body if the codec says so, then a dictionary
 * page's PLAIN values into the dictionary, or a v1 data page's definition levels (4-byte
 * length, RLE hybrid of width 1) and values (PLAIN, dictionary indices, or RLE booleans)
 * into the caller's vector. Values are copied as stored: Parquet is little-endian, and so
 * are the drive's cores (ARM7TDMI as configured on the Jasmine board, x86 under the emulator).
 */
#include "pq_internal.h"

#include <stdbool.h>

#define PQ_BATCH 64	/* levels or indices decoded per RLE call: a small stack buffer */

static const char *const err_names[SS_PQ_E_KIND_COUNT] = {
	[SS_PQ_OK] = "SS_PQ_OK",
	[SS_PQ_E_TRUNCATED] = "SS_PQ_E_TRUNCATED",
	[SS_PQ_E_BAD_HEADER] = "SS_PQ_E_BAD_HEADER",
	[SS_PQ_E_BAD_VARINT] = "SS_PQ_E_BAD_VARINT",
	[SS_PQ_E_BAD_THRIFT] = "SS_PQ_E_BAD_THRIFT",
	[SS_PQ_E_SIZE_MISMATCH] = "SS_PQ_E_SIZE_MISMATCH",
	[SS_PQ_E_UNSUPPORTED_CODEC] = "SS_PQ_E_UNSUPPORTED_CODEC",
	[SS_PQ_E_UNSUPPORTED_ENCODING] = "SS_PQ_E_UNSUPPORTED_ENCODING",
	[SS_PQ_E_UNSUPPORTED_PAGE] = "SS_PQ_E_UNSUPPORTED_PAGE",
	[SS_PQ_E_UNSUPPORTED_TYPE] = "SS_PQ_E_UNSUPPORTED_TYPE",
	[SS_PQ_E_UNSUPPORTED_LEVELS] = "SS_PQ_E_UNSUPPORTED_LEVELS",
	[SS_PQ_E_NO_DICT] = "SS_PQ_E_NO_DICT",
	[SS_PQ_E_BAD_DICT_INDEX] = "SS_PQ_E_BAD_DICT_INDEX",
	[SS_PQ_E_RUN_PAST_PAGE] = "SS_PQ_E_RUN_PAST_PAGE",
	[SS_PQ_E_BAD_RUN_VALUE] = "SS_PQ_E_BAD_RUN_VALUE",
	[SS_PQ_E_BAD_BIT_WIDTH] = "SS_PQ_E_BAD_BIT_WIDTH",
	[SS_PQ_E_BAD_COPY_OFFSET] = "SS_PQ_E_BAD_COPY_OFFSET",
	[SS_PQ_E_SCRATCH_FULL] = "SS_PQ_E_SCRATCH_FULL",
	[SS_PQ_E_DICT_FULL] = "SS_PQ_E_DICT_FULL",
	[SS_PQ_E_OUTPUT_FULL] = "SS_PQ_E_OUTPUT_FULL",
};

const char *ss_pq_err_name(enum ss_pq_err_kind kind)
{
	if ((unsigned)kind >= SS_PQ_E_KIND_COUNT) {
		return "SS_PQ_E_UNKNOWN";
	}
	return err_names[kind];
}

uint32_t ss_pq_value_width(enum ss_pq_type type)
{
	switch (type) {
	case SS_PQ_BOOLEAN: return 1;
	case SS_PQ_INT32:
	case SS_PQ_FLOAT: return 4;
	case SS_PQ_INT64:
	case SS_PQ_DOUBLE: return 8;
	case SS_PQ_BYTE_ARRAY: return (uint32_t)sizeof(struct ss_pq_bytes);
	default: return 0;
	}
}

/* The width of a PLAIN value as stored: 0 for BOOLEAN (one bit) and BYTE_ARRAY (prefixed) */
static uint32_t stored_width(enum ss_pq_type type)
{
	return type == SS_PQ_BOOLEAN || type == SS_PQ_BYTE_ARRAY ? 0 : ss_pq_value_width(type);
}

int ss_pq_reader_init(struct ss_pq_reader *r, const struct ss_pq_column *col,
		      struct ss_pq_dict *dict)
{
	ss_memset(r, 0, sizeof(*r));
	r->col = *col;
	r->dict = dict;
	if (dict) {
		dict->count = 0;
		dict->data_used = 0;
	}
	if (ss_pq_value_width(col->type) == 0) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_TYPE, 0);
	}
	if (col->codec != SS_PQ_UNCOMPRESSED && col->codec != SS_PQ_SNAPPY) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_CODEC, 0);
	}
	if (col->max_def_level > 1 || col->max_rep_level != 0) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_LEVELS, 0);
	}
	return 0;
}

/* The page's bytes as decoded: in place when stored uncompressed, else in dst; `keep`: in
 * dst either way (copied when stored uncompressed), as the bytes the values will point into.
 * full: the kind reported when dst is too small. */
static int page_bytes(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		      const uint8_t *body, size_t body_len, uint8_t *dst, size_t dst_len, bool keep,
		      enum ss_pq_err_kind full, const uint8_t **page)
{
	size_t n;
	int rc;

	if (body_len < h->compressed_size) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, body_len);
	}
	r->stats.bytes_in += h->compressed_size;
	if (r->col.codec == SS_PQ_UNCOMPRESSED) {
		if (h->compressed_size != h->uncompressed_size) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, 0);
		}
		if (!keep) {
			*page = body;
			return 0;
		}
	}
	if (h->uncompressed_size > dst_len) {
		return pq_fail(&r->err, -SS_ENOSPC, full, 0);
	}
	if (r->col.codec == SS_PQ_UNCOMPRESSED) {
		ss_memcpy(dst, body, h->uncompressed_size);
		r->stats.bytes_copied += h->uncompressed_size;
		*page = dst;
		return 0;
	}
	rc = ss_pq_snappy_decompress(body, h->compressed_size, dst, h->uncompressed_size, &n,
				     &r->err);
	if (rc == -SS_ENOSPC) {
		/* the stream declares more than the header's uncompressed size */
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, 0);
	}
	if (rc) {
		return rc;
	}
	if (n != h->uncompressed_size) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, 0);
	}
	r->stats.bytes_decompressed += n;
	*page = dst;
	return 0;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

/* Where values are written: a column vector's rows, or the dictionary's entries. */
struct sink {
	uint8_t *values;
	uint32_t width;
	uint8_t *heap;
	uint32_t heap_cap;
	uint32_t heap_used;
	enum ss_pq_err_kind full;	/* the kind reported when heap runs out */
	bool in_place;			/* the page is in heap: a value points at its bytes */
};

/* A PLAIN BYTE_ARRAY at page[*pos]: its bytes into the heap, its entry at slot. */
static int plain_bytes(struct ss_pq_reader *r, const uint8_t *page, size_t len, size_t *pos,
		       struct sink *s, uint8_t *slot)
{
	struct ss_pq_bytes b;
	uint32_t n;

	if (len - *pos < 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, *pos);
	}
	n = get_le32(page + *pos);
	if (n > len - *pos - 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, *pos);
	}
	if (s->in_place) {
		b.off = (uint32_t)(page + *pos + 4 - s->heap);
	} else {
		if (n > s->heap_cap - s->heap_used) {
			return pq_fail(&r->err, -SS_ENOSPC, s->full, *pos);
		}
		ss_memcpy(s->heap + s->heap_used, page + *pos + 4, n);
		b.off = s->heap_used;
		s->heap_used += n;
		r->stats.bytes_copied += n;
	}
	b.len = n;
	ss_memcpy(slot, &b, sizeof(b));
	*pos += 4 + (size_t)n;
	return 0;
}

/* Decoded plain values, read one at a time in row order. */
struct plain {
	const uint8_t *page;
	size_t len;
	size_t pos;
	size_t bit;		/* BOOLEAN: the next value's bit, from pos */
};

static int plain_next(struct ss_pq_reader *r, struct plain *p, struct sink *s, uint8_t *slot)
{
	uint32_t w = stored_width(r->col.type);

	switch (r->col.type) {
	case SS_PQ_BOOLEAN:
		if (p->bit / 8 >= p->len - p->pos) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, p->pos + p->bit / 8);
		}
		*slot = (p->page[p->pos + p->bit / 8] >> (p->bit % 8)) & 1;
		p->bit++;
		return 0;
	case SS_PQ_BYTE_ARRAY:
		return plain_bytes(r, p->page, p->len, &p->pos, s, slot);
	default:
		if (p->len - p->pos < w) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, p->pos);
		}
		ss_memcpy(slot, p->page + p->pos, w);
		p->pos += w;
		return 0;
	}
}

/* A dictionary page, checked from its header before its bytes are decompressed. */
static int check_dict(struct ss_pq_reader *r, const struct ss_pq_page_header *h)
{
	const struct ss_pq_dict *d = r->dict;

	if (h->encoding != SS_PQ_ENC_PLAIN && h->encoding != SS_PQ_ENC_PLAIN_DICTIONARY) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_ENCODING, 0);
	}
	if (r->has_dict) {
		/* one dictionary per column chunk */
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, 0);
	}
	if (!d || (r->col.type == SS_PQ_BYTE_ARRAY ? h->num_values > d->entries_cap :
		   h->num_values > d->data_cap / ss_pq_value_width(r->col.type))) {
		return pq_fail(&r->err, -SS_ENOSPC, SS_PQ_E_DICT_FULL, 0);
	}
	return 0;
}

/* A dictionary page goes into the dictionary's storage whole, decompressed there once:
 * fixed-width PLAIN values are the entries as stored, a string entry points at its bytes.
 * BOOLEAN (a bit a value) is unpacked from scratch. */
static bool dict_in_place(const struct ss_pq_reader *r, const struct ss_pq_page_header *h)
{
	return h->type == SS_PQ_DICTIONARY_PAGE && r->col.type != SS_PQ_BOOLEAN;
}

static int decode_dict(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		       const uint8_t *page, size_t len)
{
	struct ss_pq_dict *d = r->dict;
	struct plain p = { .page = page, .len = len };
	struct sink s = { .values = d->data, .width = 1 };
	uint32_t width = ss_pq_value_width(r->col.type);
	int rc;

	if (r->col.type != SS_PQ_BYTE_ARRAY && r->col.type != SS_PQ_BOOLEAN) {
		if ((uint64_t)h->num_values * width > len) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, len / width * width);
		}
		d->data_used = h->num_values * width;
	} else {
		if (r->col.type == SS_PQ_BYTE_ARRAY) {
			s = (struct sink){ .values = (uint8_t *)d->entries, .width = width,
					   .heap = d->data, .heap_cap = d->data_cap,
					   .heap_used = (uint32_t)len, .full = SS_PQ_E_DICT_FULL,
					   .in_place = true };
		}
		for (uint32_t i = 0; i < h->num_values; i++) {
			rc = plain_next(r, &p, &s, s.values + (size_t)i * width);
			if (rc) {
				return rc;
			}
		}
		d->data_used = r->col.type == SS_PQ_BYTE_ARRAY ? s.heap_used : h->num_values;
	}
	d->count = h->num_values;
	r->has_dict = 1;
	r->stats.values_decoded += h->num_values;
	return 0;
}

static int is_valid(const uint8_t *valid, uint32_t row)
{
	return (valid[row / 8] >> (row % 8)) & 1;
}

static void set_valid(uint8_t *valid, uint32_t row, int v)
{
	if (v) {
		valid[row / 8] |= (uint8_t)(1u << (row % 8));
	} else {
		valid[row / 8] &= (uint8_t)~(1u << (row % 8));
	}
}

/* Definition levels for rows [first, first + n): valid bits, and the count of non-nulls. */
static int decode_levels(struct ss_pq_reader *r, const uint8_t *page, size_t len, size_t *pos,
			 struct ss_pq_vector *out, uint32_t first, uint32_t n, uint32_t *nonnull)
{
	struct pq_rle d;
	uint32_t lv[PQ_BATCH];
	uint32_t size, done = 0;
	int rc;

	if (len < 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, 0);
	}
	size = get_le32(page);
	if (size > len - 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, 0);
	}
	pq_rle_init(&d, page + 4, size, 4, 1, n, &r->err);
	*nonnull = 0;
	while (done < n) {
		uint32_t k = SS_MIN(n - done, (uint32_t)PQ_BATCH);

		rc = pq_rle_get(&d, lv, k);
		if (rc) {
			return rc;
		}
		for (uint32_t i = 0; i < k; i++) {
			set_valid(out->valid, first + done + i, lv[i] == 1);
			*nonnull += lv[i];
		}
		done += k;
	}
	r->stats.levels_decoded += n;
	*pos = 4 + (size_t)size;
	return 0;
}

/* Dictionary indices (a bit-width byte, then the RLE hybrid) for the non-null rows. */
static int decode_dict_values(struct ss_pq_reader *r, const uint8_t *page, size_t len,
			      size_t pos, struct ss_pq_vector *out, struct sink *s,
			      uint32_t first, uint32_t n, uint32_t nonnull)
{
	const struct ss_pq_dict *dict = r->dict;
	uint32_t idx[PQ_BATCH];
	uint32_t row = first, have = 0, used = 0;
	struct pq_rle d;
	uint8_t bw;
	int rc;

	if (!r->has_dict) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_NO_DICT, pos);
	}
	if (pos >= len) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, pos);
	}
	bw = page[pos];
	if (bw > 32) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_BAD_BIT_WIDTH, pos);
	}
	pq_rle_init(&d, page + pos + 1, len - pos - 1, pos + 1, bw, nonnull, &r->err);
	for (uint32_t v = 0; v < nonnull; v++) {
		uint8_t *slot;
		uint32_t i;

		while (!is_valid(out->valid, row)) {
			row++;
		}
		if (out->sel && !is_valid(out->sel, row)) {
			/* the values up to the next kept row: passed over in the stream, not
			 * decoded (a run at a time), their rows left as they are */
			uint32_t k = 0, t;

			while (v + k < nonnull && !(is_valid(out->valid, row) &&
						    is_valid(out->sel, row))) {
				k += (uint32_t)is_valid(out->valid, row);
				row++;
			}
			t = SS_MIN(k, have - used);
			used += t;
			rc = pq_rle_skip(&d, k - t, &r->stats);
			if (rc) {
				return rc;
			}
			r->stats.values_skipped += k;
			v += k - 1;
			continue;
		}
		if (used == have) {
			have = SS_MIN(nonnull - v, (uint32_t)PQ_BATCH);
			used = 0;
			rc = pq_rle_get(&d, idx, have);
			if (rc) {
				return rc;
			}
		}
		i = idx[used++];
		if (i >= dict->count) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_BAD_DICT_INDEX, d.base + d.pos);
		}
		slot = s->values + (size_t)row * s->width;
		if (out->codes) {
			out->codes[row] = i;
			ss_memset(slot, 0, s->width);
		} else if (r->col.type == SS_PQ_BYTE_ARRAY) {
			struct ss_pq_bytes b = dict->entries[i];

			if (b.len > s->heap_cap - s->heap_used) {
				return pq_fail(&r->err, -SS_ENOSPC, SS_PQ_E_OUTPUT_FULL, d.base + d.pos);
			}
			ss_memcpy(s->heap + s->heap_used, dict->data + b.off, b.len);
			b.off = s->heap_used;
			s->heap_used += b.len;
			r->stats.bytes_copied += b.len;
			ss_memcpy(slot, &b, sizeof(b));
		} else {
			ss_memcpy(slot, dict->data + (size_t)i * s->width, s->width);
		}
		row++;
	}
	(void)n;
	return 0;
}

/* BOOLEAN values in the RLE encoding: a 4-byte length, then the hybrid of width 1. */
static int decode_rle_bools(struct ss_pq_reader *r, const uint8_t *page, size_t len,
			    size_t pos, struct ss_pq_vector *out, struct sink *s, uint32_t first,
			    uint32_t nonnull)
{
	uint32_t size, row = first;
	struct pq_rle d;
	int rc;

	if (len - pos < 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, pos);
	}
	size = get_le32(page + pos);
	if (size > len - pos - 4) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, pos);
	}
	pq_rle_init(&d, page + pos + 4, size, pos + 4, 1, nonnull, &r->err);
	for (uint32_t v = 0; v < nonnull; v++) {
		uint32_t b;

		rc = pq_rle_get(&d, &b, 1);
		if (rc) {
			return rc;
		}
		while (!is_valid(out->valid, row)) {
			row++;
		}
		s->values[row++] = (uint8_t)b;
	}
	return 0;
}

/* A data page's encoding, checked before its bytes are decompressed. */
static int check_data(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		      const struct ss_pq_vector *out)
{
	switch (h->encoding) {
	case SS_PQ_ENC_PLAIN:
		break;
	case SS_PQ_ENC_PLAIN_DICTIONARY:
	case SS_PQ_ENC_RLE_DICTIONARY:
		if (!r->has_dict) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_NO_DICT, 0);
		}
		break;
	case SS_PQ_ENC_RLE:
		if (r->col.type == SS_PQ_BOOLEAN) {
			break;
		}
		/* fall through */
	default:
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_ENCODING, 0);
	}
	if (h->num_values > out->cap - out->rows) {
		return pq_fail(&r->err, -SS_ENOSPC, SS_PQ_E_OUTPUT_FULL, 0);
	}
	return 0;
}

/* A PLAIN BYTE_ARRAY page goes into the vector's heap whole, its values pointing into it:
 * a page decompressed once, its strings not copied again. */
static bool page_in_heap(const struct ss_pq_reader *r, const struct ss_pq_page_header *h)
{
	return h->type == SS_PQ_DATA_PAGE && r->col.type == SS_PQ_BYTE_ARRAY &&
	       h->encoding == SS_PQ_ENC_PLAIN;
}

static int decode_data(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		       const uint8_t *page, size_t len, struct ss_pq_vector *out)
{
	uint32_t width = ss_pq_value_width(r->col.type);
	uint32_t first = out->rows, n = h->num_values, nonnull = n;
	struct sink s = { .values = out->values, .width = width, .heap = out->heap,
			  .heap_cap = out->heap_cap, .heap_used = out->heap_used,
			  .full = SS_PQ_E_OUTPUT_FULL, .in_place = page_in_heap(r, h) };
	uint64_t skipped = r->stats.values_skipped;
	size_t pos = 0;
	int rc;

	if (s.in_place) {
		s.heap_used += (uint32_t)len;   /* page_bytes put the page there */
	}
	if (r->col.max_def_level) {
		if (h->def_level_encoding != SS_PQ_ENC_RLE) {
			return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_ENCODING, 0);
		}
		rc = decode_levels(r, page, len, &pos, out, first, n, &nonnull);
		if (rc) {
			return rc;
		}
	} else {
		for (uint32_t i = 0; i < n; i++) {
			set_valid(out->valid, first + i, 1);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!is_valid(out->valid, first + i)) {
			ss_memset(s.values + (size_t)(first + i) * width, 0, width);
		}
		if (out->codes) {
			out->codes[first + i] = SS_PQ_NO_CODE;
		}
	}
	if (nonnull == 0) {
		rc = 0;	/* an all-null page: whatever follows the levels is not read */
	} else if (h->encoding == SS_PQ_ENC_PLAIN) {
		struct plain p = { .page = page, .len = len, .pos = pos };
		uint32_t row = first, w = stored_width(r->col.type);

		rc = 0;
		for (uint32_t v = 0; v < nonnull && !rc; v++) {
			while (!is_valid(out->valid, row)) {
				row++;
			}
			if (out->sel && !is_valid(out->sel, row) && r->col.type != SS_PQ_BYTE_ARRAY) {
				/* passed over, not copied (a string's length must be read anyway) */
				if (w ? p.len - p.pos < w : p.bit / 8 >= p.len - p.pos) {
					rc = pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, p.pos);
					break;
				}
				p.pos += w;
				p.bit += !w;
				r->stats.values_skipped++;
				row++;
				continue;
			}
			rc = plain_next(r, &p, &s, s.values + (size_t)row * width);
			row++;
		}
	} else if (h->encoding == SS_PQ_ENC_RLE) {
		rc = decode_rle_bools(r, page, len, pos, out, &s, first, nonnull);
	} else {
		rc = decode_dict_values(r, page, len, pos, out, &s, first, n, nonnull);
	}
	if (rc) {
		return rc;
	}
	nonnull -= (uint32_t)(r->stats.values_skipped - skipped);
	if (!out->codes && h->encoding != SS_PQ_ENC_PLAIN && h->encoding != SS_PQ_ENC_RLE) {
		r->stats.dict_lookups += nonnull;
	}
	r->stats.values_decoded += nonnull;
	out->rows += n;
	out->heap_used = s.heap_used;
	return 0;
}

int ss_pq_decode_page(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		      const uint8_t *body, size_t body_len, uint8_t *scratch, size_t scratch_len,
		      struct ss_pq_vector *out)
{
	const uint8_t *page;
	int rc;

	r->err.kind = SS_PQ_OK;
	r->err.offset = 0;
	if (h->type == SS_PQ_DATA_PAGE_V2 || h->type == SS_PQ_INDEX_PAGE) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_PAGE, 0);
	}
	if (h->type != SS_PQ_DATA_PAGE && h->type != SS_PQ_DICTIONARY_PAGE) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, 0);
	}
	if (ss_pq_value_width(r->col.type) == 0 ||
	    (r->col.codec != SS_PQ_UNCOMPRESSED && r->col.codec != SS_PQ_SNAPPY) ||
	    r->col.max_def_level > 1 || r->col.max_rep_level) {
		return -SS_EINVAL;	/* ss_pq_reader_init refused this column */
	}
	if (h->type == SS_PQ_DATA_PAGE &&
	    (!out || !out->values || !out->valid || out->rows > out->cap ||
	     out->heap_used > out->heap_cap || (r->col.type == SS_PQ_BYTE_ARRAY && !out->heap))) {
		return -SS_EINVAL;	/* the caller's vector contradicts itself */
	}
	rc = h->type == SS_PQ_DATA_PAGE ? check_data(r, h, out) : check_dict(r, h);
	if (rc) {
		return rc;
	}
	if (page_in_heap(r, h)) {
		rc = page_bytes(r, h, body, body_len, out->heap + out->heap_used,
				out->heap_cap - out->heap_used, true, SS_PQ_E_OUTPUT_FULL, &page);
	} else if (dict_in_place(r, h)) {
		rc = page_bytes(r, h, body, body_len, r->dict->data, r->dict->data_cap, true,
				SS_PQ_E_DICT_FULL, &page);
	} else {
		rc = page_bytes(r, h, body, body_len, scratch, scratch_len, false,
				SS_PQ_E_SCRATCH_FULL, &page);
	}
	if (rc) {
		return rc;
	}
	r->stats.pages++;
	if (h->type == SS_PQ_DICTIONARY_PAGE) {
		rc = decode_dict(r, h, page, h->uncompressed_size);
		if (rc && r->dict) {
			r->dict->count = 0;
			r->dict->data_used = 0;
		}
		return rc;
	}
	return decode_data(r, h, page, h->uncompressed_size, out);
}

int ss_pq_count_page(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		     const uint8_t *body, size_t body_len, uint8_t *scratch, size_t scratch_len,
		     uint32_t *counts, uint32_t *nonnull)
{
	const uint8_t *page;
	uint32_t lv[2] = { 0, h->num_values };
	size_t pos = 0, len = h->uncompressed_size;
	struct pq_rle d;
	uint8_t bw;
	int rc;

	r->err.kind = SS_PQ_OK;
	r->err.offset = 0;
	if (h->type != SS_PQ_DATA_PAGE || (h->encoding != SS_PQ_ENC_PLAIN_DICTIONARY &&
					   h->encoding != SS_PQ_ENC_RLE_DICTIONARY) || !counts ||
	    (r->col.codec != SS_PQ_UNCOMPRESSED && r->col.codec != SS_PQ_SNAPPY) ||
	    r->col.max_def_level > 1 || r->col.max_rep_level) {
		return -SS_EINVAL;
	}
	if (!r->has_dict) {
		return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_NO_DICT, 0);
	}
	if (r->col.max_def_level && h->def_level_encoding != SS_PQ_ENC_RLE) {
		return pq_fail(&r->err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_ENCODING, 0);
	}
	rc = page_bytes(r, h, body, body_len, scratch, scratch_len, false, SS_PQ_E_SCRATCH_FULL,
			&page);
	if (rc) {
		return rc;
	}
	r->stats.pages++;
	if (r->col.max_def_level) {
		uint32_t size;

		if (len < 4) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, 0);
		}
		size = get_le32(page);
		if (size > len - 4) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, 0);
		}
		lv[1] = 0;
		pq_rle_init(&d, page + 4, size, 4, 1, h->num_values, &r->err);
		rc = pq_rle_count(&d, lv, 2, h->num_values, &r->stats);
		if (rc) {
			return rc;
		}
		pos = 4 + (size_t)size;
	}
	if (lv[1]) {
		if (pos >= len) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, pos);
		}
		bw = page[pos];
		if (bw > 32) {
			return pq_fail(&r->err, -SS_EBADMSG, SS_PQ_E_BAD_BIT_WIDTH, pos);
		}
		pq_rle_init(&d, page + pos + 1, len - pos - 1, pos + 1, bw, lv[1], &r->err);
		rc = pq_rle_count(&d, counts, r->dict->count, lv[1], &r->stats);
		if (rc) {
			return rc;
		}
	}
	*nonnull += lv[1];
	return 0;
}
