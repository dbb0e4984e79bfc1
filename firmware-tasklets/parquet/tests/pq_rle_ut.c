/*
 * The RLE/bit-packed hybrid against an independent encoder written here from Encodings.md
 * (a bit writer, not the decoder's unpacking run backwards), for every bit width, and the
 * runs a hostile page can hold.
 */
#include <string.h>

#include "pq_internal.h"
#include "ss_test.h"

struct enc {
	uint8_t b[8192];
	size_t n;
};

static void uleb(struct enc *e, uint64_t v)
{
	while (v >= 0x80) {
		e->b[e->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	e->b[e->n++] = (uint8_t)v;
}

static void rle_run(struct enc *e, uint32_t count, uint32_t value, unsigned bw)
{
	uleb(e, (uint64_t)count << 1);
	for (unsigned i = 0; i < (bw + 7) / 8; i++) {
		e->b[e->n++] = (uint8_t)(value >> (8 * i));
	}
}

/* groups of 8 values, the last padded with zeros */
static void packed_run(struct enc *e, const uint32_t *v, uint32_t count, unsigned bw)
{
	uint32_t groups = (count + 7) / 8;
	size_t start;

	uleb(e, (uint64_t)groups << 1 | 1);
	start = e->n;
	memset(e->b + start, 0, (size_t)groups * bw);
	for (uint32_t i = 0; i < groups * 8; i++) {
		uint32_t x = i < count ? v[i] : 0;

		for (unsigned k = 0; k < bw; k++) {
			size_t bit = (size_t)i * bw + k;

			if ((x >> k) & 1) {
				e->b[start + bit / 8] |= (uint8_t)(1u << (bit % 8));
			}
		}
	}
	e->n += (size_t)groups * bw;
}

static void test_every_width(void)
{
	uint64_t seed = ss_test_seed(33);

	for (unsigned bw = 0; bw <= 32; bw++) {
		uint32_t want[300], got[300];
		uint32_t mask = bw == 32 ? 0xFFFFFFFFu : (1u << bw) - 1;
		struct enc e = { .n = 0 };
		struct ss_pq_error err = { 0 };
		struct pq_rle d;

		for (int i = 0; i < 300; i++) {
			want[i] = (uint32_t)ss_test_rand(&seed) & mask;
		}
		/* 104 bit-packed, a run of 37, 159 bit-packed (the last group padded: only the
		 * stream's last run may hold fewer values than its groups) */
		for (int i = 104; i < 141; i++) {
			want[i] = want[104];
		}
		packed_run(&e, want, 104, bw);
		rle_run(&e, 37, want[104], bw);
		packed_run(&e, want + 141, 159, bw);
		pq_rle_init(&d, e.b, e.n, 0, bw, 300, &err);
		/* in uneven batches, across run boundaries */
		for (uint32_t done = 0, k = 1; done < 300; done += k, k = k * 2 + 1) {
			k = SS_MIN(k, 300 - done);
			CHECK_EQ(pq_rle_get(&d, got + done, k), 0);
		}
		CHECK(memcmp(got, want, sizeof(want)) == 0);
		/* nothing more than the page's values */
		CHECK_EQ(pq_rle_get(&d, got, 1), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_RUN_PAST_PAGE);
	}
}

static void test_hostile(void)
{
	uint32_t out[64];
	struct ss_pq_error err;
	struct pq_rle d;

	{	/* an RLE run of 10 in a page of 5 values */
		struct enc e = { .n = 0 };

		rle_run(&e, 10, 1, 1);
		pq_rle_init(&d, e.b, e.n, 100, 1, 5, &err);
		CHECK_EQ(pq_rle_get(&d, out, 5), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_RUN_PAST_PAGE);
		CHECK_EQ(err.offset, 100);
	}
	{	/* 3 groups of 8 (24 values) in a page of 9: the page's 9 are read, no more */
		struct enc e = { .n = 0 };
		uint32_t v[24];

		for (uint32_t i = 0; i < 24; i++) {
			v[i] = i % 8;
		}
		packed_run(&e, v, 24, 3);
		pq_rle_init(&d, e.b, e.n, 0, 3, 9, &err);
		CHECK_EQ(pq_rle_get(&d, out, 9), 0);
		CHECK(memcmp(out, v, 9 * sizeof(v[0])) == 0);
		CHECK_EQ(pq_rle_get(&d, out, 1), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_RUN_PAST_PAGE);
		/* the same run cut after the bytes of the page's values (9 x 3 bits: 4 bytes) */
		pq_rle_init(&d, e.b, 1 + 4, 0, 3, 9, &err);
		CHECK_EQ(pq_rle_get(&d, out, 9), 0);
		CHECK(memcmp(out, v, 9 * sizeof(v[0])) == 0);
		pq_rle_init(&d, e.b, 1 + 3, 0, 3, 9, &err);
		CHECK_EQ(pq_rle_get(&d, out, 9), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
	{	/* DuckDB 2.0's definition levels (its 2048-row pages): bit-packed runs of 32 groups
		 * and RLE runs between them, as in duckdb_none.parquet's first page; the last run
		 * starts at value 1819, so 3 of its 32 groups lie past the page */
		static const uint32_t runs[][2] = { { 256, 0 }, { 7, 1 }, { 256, 0 }, { 256, 0 },
						    { 256, 0 }, { 256, 0 }, { 256, 0 }, { 5, 1 },
						    { 256, 0 }, { 15, 1 }, { 256, 0 } };
		static uint32_t v[2075], got[2048];
		struct enc e = { .n = 0 };
		uint32_t at = 0;

		for (uint32_t i = 0; i < 2075; i++) {
			v[i] = (i * 7 + i / 5) % 3 != 0;
		}
		for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			if (runs[r][1]) {
				for (uint32_t i = 0; i < runs[r][0]; i++) {
					v[at + i] = 1;
				}
				rle_run(&e, runs[r][0], 1, 1);
			} else {
				packed_run(&e, v + at, runs[r][0], 1);
			}
			at += runs[r][0];
		}
		CHECK_EQ(at, 2075);
		pq_rle_init(&d, e.b, e.n, 0, 1, 2048, &err);
		CHECK_EQ(pq_rle_get(&d, got, 2048), 0);
		CHECK(memcmp(got, v, sizeof(got)) == 0);
	}
	{	/* a bit-packed run whose bytes are cut short */
		struct enc e = { .n = 0 };
		uint32_t v[16] = { 1, 2, 3 };

		packed_run(&e, v, 16, 5);
		pq_rle_init(&d, e.b, e.n - 3, 0, 5, 16, &err);
		CHECK_EQ(pq_rle_get(&d, out, 16), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
	{	/* a padded last group whose padding is missing: the values are all there */
		struct enc e = { .n = 0 };
		uint32_t v[8] = { 1, 0, 1, 1, 0, 1, 0, 0 };

		packed_run(&e, v, 3, 8);	/* 1 group, 8 bytes; the page holds 3 values */
		pq_rle_init(&d, e.b, e.n - 5, 0, 8, 3, &err);
		CHECK_EQ(pq_rle_get(&d, out, 3), 0);
		CHECK_EQ(out[0], 1);
		CHECK_EQ(out[2], 1);
	}
	{	/* an RLE value wider than the bit width: a level of 2 where the maximum is 1 */
		struct enc e = { .n = 0 };

		rle_run(&e, 4, 2, 1);
		pq_rle_init(&d, e.b, e.n, 0, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_RUN_VALUE);
	}
	{	/* zero-length runs would never end */
		const uint8_t b0[] = { 0x00, 0x01 }, b1[] = { 0x01 };

		pq_rle_init(&d, b0, sizeof(b0), 0, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_RUN_PAST_PAGE);
		pq_rle_init(&d, b1, sizeof(b1), 0, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_RUN_PAST_PAGE);
	}
	{	/* runs out of bytes between runs, and mid-header */
		struct enc e = { .n = 0 };

		rle_run(&e, 2, 1, 1);
		pq_rle_init(&d, e.b, e.n, 7, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(err.offset, 7 + e.n);
		e.b[e.n++] = 0x80;
		pq_rle_init(&d, e.b, e.n, 7, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
	{	/* a run header of 2^35: a varint past 32 bits */
		const uint8_t b[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };

		pq_rle_init(&d, b, sizeof(b), 10, 1, 4, &err);
		CHECK_EQ(pq_rle_get(&d, out, 4), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_VARINT);
		CHECK_EQ(err.offset, 10);
	}
}

int main(void)
{
	RUN(test_every_width);
	RUN(test_hostile);
	return ss_test_status();
}
