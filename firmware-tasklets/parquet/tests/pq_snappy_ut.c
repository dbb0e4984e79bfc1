/*
 * Raw snappy, against streams built by hand from the format description: every element
 * kind, overlapping copies, and every way a stream can lie.
 */
#include <string.h>

#include "pq_internal.h"
#include "ss_test.h"

static int run(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out,
	       struct ss_pq_error *err)
{
	memset(err, 0, sizeof(*err));
	return ss_pq_snappy_decompress(src, n, dst, cap, out, err);
}

static void test_elements(void)
{
	/* "abcd" literal, copy-1 (len 4, off 4), copy-2 (len 3, off 2) overlapping,
	 * copy-4 (len 2, off 11) */
	const uint8_t s[] = { 13, 0x0C, 'a', 'b', 'c', 'd', 0x01, 0x04, 0x0A, 0x02, 0x00,
			      0x07, 0x0B, 0x00, 0x00, 0x00 };
	uint8_t out[32];
	size_t n = 0;
	struct ss_pq_error err;

	CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), 0);
	CHECK_EQ(n, 13);
	CHECK(memcmp(out, "abcdabcdcdcab", 13) == 0);
}

static void test_long_literals(void)
{
	/* literal lengths in 1, 2 (tags 60, 61) extra bytes */
	for (unsigned len = 1; len <= 1000; len += 37) {
		uint8_t src[1100], dst[1000];
		size_t k = 0, n = 0;
		struct ss_pq_error err;

		src[k++] = (uint8_t)(len | 0x80);
		src[k++] = (uint8_t)(len >> 7);
		if (len <= 60) {
			src[k++] = (uint8_t)((len - 1) << 2);
		} else if (len <= 256) {
			src[k++] = 60 << 2;
			src[k++] = (uint8_t)(len - 1);
		} else {
			src[k++] = 61 << 2;
			src[k++] = (uint8_t)(len - 1);
			src[k++] = (uint8_t)((len - 1) >> 8);
		}
		for (unsigned i = 0; i < len; i++) {
			src[k++] = (uint8_t)(i * 7);
		}
		CHECK_EQ(run(src, k, dst, sizeof(dst), &n, &err), 0);
		CHECK_EQ(n, len);
		CHECK(memcmp(dst, src + k - len, len) == 0);
	}
	/* tag 63: a 4-byte length, claiming 2^32 bytes */
	{
		const uint8_t s[] = { 1, 63 << 2, 0xFF, 0xFF, 0xFF, 0xFF, 'x' };
		uint8_t dst[4];
		size_t n;
		struct ss_pq_error err;

		CHECK_EQ(run(s, sizeof(s), dst, sizeof(dst), &n, &err), -SS_EBADMSG);
		CHECK(err.kind == SS_PQ_E_TRUNCATED || err.kind == SS_PQ_E_SIZE_MISMATCH);
		CHECK_EQ(err.offset, 1);
	}
}

static void test_run_length_copy(void)
{
	/* one literal byte, then a copy of 64 at offset 1: 65 copies of it */
	const uint8_t s[] = { 65, 0x00, 'z', 0xFE, 0x01, 0x00 };
	uint8_t out[65];
	size_t n;
	struct ss_pq_error err;

	CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), 0);
	CHECK_EQ(n, 65);
	for (int i = 0; i < 65; i++) {
		CHECK_EQ(out[i], 'z');
	}
}

static void test_hostile(void)
{
	uint8_t out[64];
	size_t n;
	struct ss_pq_error err;

	{	/* a length varint of 6 bytes */
		const uint8_t s[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_VARINT);
	}
	{	/* a length above 2^32 - 1 in 5 bytes */
		const uint8_t s[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0x1F };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_VARINT);
	}
	{	/* an unterminated varint */
		const uint8_t s[] = { 0x80, 0x80 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
	{	/* declared length beyond the caller's buffer */
		const uint8_t s[] = { 100, 0x00, 'a' };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_ENOSPC);
		CHECK_EQ(err.kind, SS_PQ_E_SCRATCH_FULL);
	}
	{	/* a copy before the start of the output */
		const uint8_t s[] = { 8, 0x04, 'a', 'b', 0x01, 0x03 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_COPY_OFFSET);
		CHECK_EQ(err.offset, 4);
	}
	{	/* offset 0 */
		const uint8_t s[] = { 8, 0x04, 'a', 'b', 0x06, 0x00, 0x00 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_COPY_OFFSET);
	}
	{	/* a 4-byte offset of 2^32 - 1 */
		const uint8_t s[] = { 8, 0x04, 'a', 'b', 0x07, 0xFF, 0xFF, 0xFF, 0xFF };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_COPY_OFFSET);
	}
	{	/* a copy past the declared length */
		const uint8_t s[] = { 4, 0x04, 'a', 'b', 0x01, 0x02 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_SIZE_MISMATCH);
	}
	{	/* a literal past the declared length */
		const uint8_t s[] = { 1, 0x04, 'a', 'b', 'c' };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_SIZE_MISMATCH);
	}
	{	/* a literal past the input */
		const uint8_t s[] = { 10, 0x24, 'a', 'b' };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(err.offset, 1);
	}
	{	/* the stream ends short of its declared length */
		const uint8_t s[] = { 10, 0x08, 'a', 'b', 'c' };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_SIZE_MISMATCH);
		CHECK_EQ(err.offset, 5);
	}
	{	/* copy tags cut short */
		const uint8_t s1[] = { 8, 0x04, 'a', 'b', 0x01 };
		const uint8_t s2[] = { 8, 0x04, 'a', 'b', 0x06, 0x01 };
		const uint8_t s4[] = { 8, 0x04, 'a', 'b', 0x07, 0x01, 0x00, 0x00 };

		CHECK_EQ(run(s1, sizeof(s1), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(run(s2, sizeof(s2), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(run(s4, sizeof(s4), out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
	{	/* the empty stream: length 0 is fine, no bytes is not */
		const uint8_t s[] = { 0 };

		CHECK_EQ(run(s, sizeof(s), out, sizeof(out), &n, &err), 0);
		CHECK_EQ(n, 0);
		CHECK_EQ(run(s, 0, out, sizeof(out), &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
	}
}

int main(void)
{
	RUN(test_elements);
	RUN(test_long_literals);
	RUN(test_run_length_copy);
	RUN(test_hostile);
	return ss_test_status();
}
