/*
 * Page headers in the Thrift compact protocol: the fields the decoder reads, those it skips
 * (statistics with binaries, CRC, unknown fields, long field-id forms), and lying headers.
 */
#include <string.h>

#include "pq_internal.h"
#include "pq_test.h"
#include "ss_test.h"

static void test_data_page_header(void)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err = { 0 };
	struct tw w;
	size_t n = 0;

	tw_page_header(&w, 0, 1234, 567, 300, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), 0);
	CHECK_EQ(n, w.n);
	CHECK_EQ(h.type, SS_PQ_DATA_PAGE);
	CHECK_EQ(h.uncompressed_size, 1234);
	CHECK_EQ(h.compressed_size, 567);
	CHECK_EQ(h.num_values, 300);
	CHECK_EQ(h.encoding, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(h.def_level_encoding, SS_PQ_ENC_RLE);
	/* bytes after the header are the body's: not read */
	w.b[w.n] = 0xFF;
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n + 1, &h, &n, &err), 0);
	CHECK_EQ(n, w.n);
}

static void test_skips_what_it_does_not_read(void)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err = { 0 };
	struct tw w;
	size_t n = 0;

	memset(&w, 0, sizeof(w));
	tw_i32(&w, 1, 2);
	tw_i32(&w, 2, 40);
	tw_i32(&w, 3, 40);
	tw_i32(&w, 4, -12345);		/* crc */
	tw_begin(&w, 7);
	tw_i32(&w, 1, 10);
	tw_i32(&w, 2, SS_PQ_ENC_PLAIN);
	tw_field(&w, 3, 1);		/* is_sorted = true */
	tw_end(&w);
	tw_field(&w, 100, 8);		/* unknown binary, long id form */
	tw_uvarint(&w, 3);
	tw_byte(&w, 'a'); tw_byte(&w, 'b'); tw_byte(&w, 'c');
	tw_field(&w, 101, 9);		/* list of 2 bools */
	tw_byte(&w, 0x21);
	tw_byte(&w, 1); tw_byte(&w, 2);
	tw_field(&w, 102, 11);		/* map i32 -> double, 1 entry */
	tw_uvarint(&w, 1);
	tw_byte(&w, 0x57);
	tw_zz(&w, 7);
	for (int i = 0; i < 8; i++) {
		tw_byte(&w, 0);
	}
	tw_field(&w, 103, 6);		/* i64 */
	tw_zz(&w, -1);
	tw_begin(&w, 104);		/* a data page header in a dictionary page: skipped */
	tw_i32(&w, 1, 99);
	tw_end(&w);
	tw_end(&w);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), 0);
	CHECK_EQ(n, w.n);
	CHECK_EQ(h.type, SS_PQ_DICTIONARY_PAGE);
	CHECK_EQ(h.num_values, 10);
	CHECK_EQ(h.uncompressed_size, 40);

	/* a data page with statistics (field 5 of DataPageHeader: binaries and i64s) */
	memset(&w, 0, sizeof(w));
	tw_i32(&w, 1, 0);
	tw_i32(&w, 2, 8);
	tw_i32(&w, 3, 8);
	tw_begin(&w, 5);
	tw_i32(&w, 1, 2);
	tw_i32(&w, 2, 0);
	tw_i32(&w, 3, 3);
	tw_i32(&w, 4, 3);
	tw_begin(&w, 5);
	tw_field(&w, 3, 6); tw_zz(&w, 0);
	tw_field(&w, 5, 8); tw_uvarint(&w, 4); for (int i = 0; i < 4; i++) tw_byte(&w, 0x7F);
	tw_field(&w, 6, 8); tw_uvarint(&w, 0);
	tw_end(&w);
	tw_end(&w);
	tw_end(&w);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), 0);
	CHECK_EQ(n, w.n);
	CHECK_EQ(h.num_values, 2);
}

/* Every prefix of a valid header is refused as truncated, reading nothing past it. */
static void test_every_prefix_truncated(void)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err;
	struct tw w;
	size_t n;

	tw_page_header(&w, 0, 100, 100, 10, SS_PQ_ENC_PLAIN);
	for (size_t len = 0; len < w.n; len++) {
		uint8_t *copy = malloc(len ? len : 1);

		memcpy(copy, w.b, len);
		memset(&err, 0, sizeof(err));
		CHECK_EQ(ss_pq_read_page_header(copy, len, &h, &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);
		CHECK(err.offset <= len);
		free(copy);
	}
}

static void test_lying_headers(void)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err;
	struct tw w;
	size_t n;

	/* negative size */
	tw_page_header(&w, 0, -5, 100, 10, SS_PQ_ENC_PLAIN);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_BAD_HEADER);
	CHECK_EQ(err.offset, 3);	/* field 1 in bytes 0-1, field 2 header at 2, value at 3 */

	/* a data page without its DataPageHeader */
	memset(&w, 0, sizeof(w));
	tw_i32(&w, 1, 0);
	tw_i32(&w, 2, 8);
	tw_i32(&w, 3, 8);
	tw_end(&w);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_BAD_HEADER);

	/* a size field that is not an i32 */
	memset(&w, 0, sizeof(w));
	tw_i32(&w, 1, 0);
	tw_field(&w, 2, 8);
	tw_uvarint(&w, 0);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_BAD_HEADER);

	/* an i32 varint of 6 bytes */
	{
		const uint8_t b[] = { 0x15, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 };

		CHECK_EQ(ss_pq_read_page_header(b, sizeof(b), &h, &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_VARINT);
		CHECK_EQ(err.offset, 1);
	}
	/* an unknown page type */
	tw_page_header(&w, 9, 8, 8, 1, SS_PQ_ENC_PLAIN);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_BAD_HEADER);

	/* a binary longer than the buffer */
	memset(&w, 0, sizeof(w));
	tw_field(&w, 9, 8);
	tw_uvarint(&w, 1000);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n + 3, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);

	/* a list claiming 2^31 elements of i32, with 2 bytes left */
	memset(&w, 0, sizeof(w));
	tw_field(&w, 9, 9);
	tw_byte(&w, 0xF5);
	tw_uvarint(&w, 0x7FFFFFFF);
	tw_byte(&w, 0); tw_byte(&w, 0);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);

	/* a map of 2^31 bool -> bool entries: each takes bytes, so it runs out */
	memset(&w, 0, sizeof(w));
	tw_field(&w, 9, 11);
	tw_uvarint(&w, 0x7FFFFFFF);
	tw_byte(&w, 0x11);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_EBADMSG);
	CHECK_EQ(err.kind, SS_PQ_E_TRUNCATED);

	/* an unknown type id (13), in a field the reader skips */
	{
		const uint8_t b[] = { 0x9D, 0x00 };

		CHECK_EQ(ss_pq_read_page_header(b, sizeof(b), &h, &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_THRIFT);
	}
	/* structs nested deeper than the reader follows */
	{
		uint8_t b[64];

		memset(b, 0x1C, sizeof(b));	/* field 1 of type struct, forever */
		b[0] = 0x9C;			/* in field 9, which the reader skips */
		CHECK_EQ(ss_pq_read_page_header(b, sizeof(b), &h, &n, &err), -SS_EBADMSG);
		CHECK_EQ(err.kind, SS_PQ_E_BAD_THRIFT);
	}
}

static void test_v2_and_index_pages_refused(void)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err;
	struct tw w;
	size_t n = 0;

	memset(&w, 0, sizeof(w));
	tw_i32(&w, 1, SS_PQ_DATA_PAGE_V2);
	tw_i32(&w, 2, 16);
	tw_i32(&w, 3, 16);
	tw_begin(&w, 8);
	tw_i32(&w, 1, 4);
	tw_i32(&w, 2, 0);
	tw_i32(&w, 3, 4);
	tw_i32(&w, 4, SS_PQ_ENC_PLAIN);
	tw_i32(&w, 5, 0);
	tw_i32(&w, 6, 0);
	tw_end(&w);
	tw_end(&w);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_ENOSYS);
	CHECK_EQ(err.kind, SS_PQ_E_UNSUPPORTED_PAGE);
	CHECK_EQ(n, w.n);	/* the caller may skip the page */
	CHECK_EQ(h.compressed_size, 16);

	tw_page_header(&w, SS_PQ_INDEX_PAGE, 8, 8, 1, 0);
	CHECK_EQ(ss_pq_read_page_header(w.b, w.n, &h, &n, &err), -SS_ENOSYS);
	CHECK_EQ(err.kind, SS_PQ_E_UNSUPPORTED_PAGE);
}

int main(void)
{
	RUN(test_data_page_header);
	RUN(test_skips_what_it_does_not_read);
	RUN(test_every_prefix_truncated);
	RUN(test_lying_headers);
	RUN(test_v2_and_index_pages_refused);
	return ss_test_status();
}
