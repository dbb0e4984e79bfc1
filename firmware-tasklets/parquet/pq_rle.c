/*
 * The RLE/bit-packed hybrid (Encodings.md): runs, each led by a ULEB128 header. Header LSB 0:
 * an RLE run of header >> 1 copies of one value stored in ceil(bit_width / 8) bytes
 * little-endian. Header LSB 1: header >> 1 groups of 8 values bit-packed LSB first. A
 * bit-packed run may be padded past the page's values, by whole groups too (DuckDB 2.0 writes
 * runs of 32 groups and pads the last one): only the page's values are read, and their bytes
 * must be there. An RLE run may not claim a value beyond the page's.
 */
#include "pq_internal.h"

void pq_rle_init(struct pq_rle *d, const uint8_t *buf, size_t len, size_t base,
		 uint32_t bit_width, uint32_t remaining, struct ss_pq_error *err)
{
	ss_memset(d, 0, sizeof(*d));
	d->buf = buf;
	d->len = len;
	d->base = base;
	d->bit_width = bit_width;
	d->remaining = remaining;
	d->err = err;
}

static int next_run(struct pq_rle *d)
{
	struct pq_thrift t = { .buf = d->buf, .len = d->len, .pos = d->pos, .err = d->err };
	size_t at = d->pos;
	uint64_t h;
	int rc = pq_varint(&t, &h, 32);

	if (rc) {
		d->err->offset += (uint32_t)d->base;
		return rc;
	}
	d->pos = t.pos;
	if (h & 1) {
		uint64_t groups = h >> 1;
		uint64_t bytes = groups * d->bit_width;	/* 8 values of bit_width bits a group */

		if (groups == 0) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_RUN_PAST_PAGE, d->base + at);
		}
		/* Only the values the page holds must be there: a writer may leave out padding. */
		bytes = SS_MIN(bytes, SS_DIV_ROUND_UP((uint64_t)d->remaining * d->bit_width, 8));
		if (bytes > d->len - d->pos) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, d->base + at);
		}
		d->literal = 1;
		d->bit_pos = d->pos * 8;
		d->run = (uint32_t)SS_MIN(groups * 8, (uint64_t)d->remaining);
		/* the padding past the page is never read; computed wide, as a 32-bit size_t
		 * could wrap on a run declaring 2^31 groups */
		bytes = (uint64_t)d->pos + groups * d->bit_width;
		d->pos = bytes > d->len ? d->len : (size_t)bytes;
	} else {
		unsigned nbytes = (d->bit_width + 7) / 8;
		uint32_t v = 0;

		if ((h >> 1) == 0 || (h >> 1) > d->remaining) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_RUN_PAST_PAGE, d->base + at);
		}
		if (nbytes > d->len - d->pos) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, d->base + at);
		}
		for (unsigned i = 0; i < nbytes; i++) {
			v |= (uint32_t)d->buf[d->pos + i] << (8 * i);
		}
		if (d->bit_width < 32 && (v >> d->bit_width)) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_BAD_RUN_VALUE, d->base + d->pos);
		}
		d->pos += nbytes;
		d->literal = 0;
		d->value = v;
		d->run = (uint32_t)(h >> 1);
	}
	return 0;
}

static uint32_t unpack(const struct pq_rle *d)
{
	size_t byte = d->bit_pos / 8;
	unsigned shift = (unsigned)(d->bit_pos % 8);
	uint64_t acc = 0;
	unsigned need = (shift + d->bit_width + 7) / 8;

	/* next_run checked the bytes of every value the run yields */
	for (unsigned i = 0; i < need; i++) {
		acc |= (uint64_t)d->buf[byte + i] << (8 * i);
	}
	acc >>= shift;
	return d->bit_width == 32 ? (uint32_t)acc : (uint32_t)(acc & ((1u << d->bit_width) - 1));
}

/* n values asked of the page: no more than it has left. */
static int check_asked(struct pq_rle *d, uint32_t n)
{
	if (n > d->remaining) {
		return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_RUN_PAST_PAGE, d->base + d->pos);
	}
	return 0;
}

/* *k: how many of n more values the current run yields, opening the next run when this one
 * is spent (counted in st->runs when st is given). */
static int take(struct pq_rle *d, uint32_t n, uint32_t *k, struct ss_pq_stats *st)
{
	if (d->run == 0) {
		int rc;

		if (d->pos >= d->len) {
			return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, d->base + d->pos);
		}
		rc = next_run(d);
		if (rc) {
			return rc;
		}
		if (st) {
			st->runs++;
		}
	}
	*k = SS_MIN(n, d->run);
	return 0;
}

int pq_rle_get(struct pq_rle *d, uint32_t *out, uint32_t n)
{
	int rc = check_asked(d, n);

	while (rc == 0 && n) {
		uint32_t k;

		rc = take(d, n, &k, NULL);
		if (rc) {
			break;
		}
		if (d->literal) {
			for (uint32_t i = 0; i < k; i++) {
				out[i] = d->bit_width ? unpack(d) : 0;
				d->bit_pos += d->bit_width;
			}
		} else {
			for (uint32_t i = 0; i < k; i++) {
				out[i] = d->value;
			}
		}
		out += k;
		n -= k;
		d->run -= k;
		d->remaining -= k;
	}
	return rc;
}

int pq_rle_count(struct pq_rle *d, uint32_t *counts, uint32_t ncounts, uint32_t n,
		 struct ss_pq_stats *st)
{
	int rc = check_asked(d, n);

	while (rc == 0 && n) {
		uint32_t k;

		rc = take(d, n, &k, st);
		if (rc) {
			break;
		}
		if (d->literal) {
			for (uint32_t i = 0; i < k; i++) {
				uint32_t v = d->bit_width ? unpack(d) : 0;

				if (v >= ncounts) {
					return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_BAD_DICT_INDEX,
						       d->base + d->bit_pos / 8);
				}
				counts[v]++;
				d->bit_pos += d->bit_width;
			}
			st->packed_values += k;
		} else {
			if (d->value >= ncounts) {
				return pq_fail(d->err, -SS_EBADMSG, SS_PQ_E_BAD_DICT_INDEX,
					       d->base + d->pos);
			}
			counts[d->value] += k;
		}
		n -= k;
		d->run -= k;
		d->remaining -= k;
	}
	return rc;
}

int pq_rle_skip(struct pq_rle *d, uint32_t n, struct ss_pq_stats *st)
{
	int rc = check_asked(d, n);

	while (rc == 0 && n) {
		uint32_t k;

		rc = take(d, n, &k, st);
		if (rc) {
			break;
		}
		if (d->literal) {
			d->bit_pos += (size_t)k * d->bit_width;
		}
		n -= k;
		d->run -= k;
		d->remaining -= k;
	}
	return rc;
}
