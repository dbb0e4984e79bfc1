/*
 * Whole column chunks of real Parquet files (pyarrow wrote them: gen_vectors.py), decoded
 * page by page and compared with the values the writer was given; then hand-built hostile
 * pages, each refused with its typed error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pq_internal.h"
#include "pq_test.h"
#include "ss_test.h"

#define MAX_ROWS 1024
#define HEAP (256 * 1024)

static uint8_t values[MAX_ROWS * 8];
static uint8_t valid[MAX_ROWS / 8];
static uint8_t heap[HEAP];
static uint8_t dict_data[HEAP];
static struct ss_pq_bytes dict_entries[MAX_ROWS];
static uint8_t scratch[HEAP];

static struct ss_pq_dict dict;
static struct ss_pq_vector vec;

/* the same chunk decoded to dictionary codes */
static uint8_t cvalues[MAX_ROWS * 8];
static uint8_t cvalid[MAX_ROWS / 8];
static uint8_t cheap[HEAP];
static uint32_t codes[MAX_ROWS];
static int coded_rows;

static void reset_buffers(void)
{
	memset(values, 0xA5, sizeof(values));	/* a null row must come out zeroed */
	memset(valid, 0xA5, sizeof(valid));
	dict = (struct ss_pq_dict){ .data = dict_data, .data_cap = sizeof(dict_data),
				    .entries = dict_entries, .entries_cap = MAX_ROWS };
	vec = (struct ss_pq_vector){ .values = values, .valid = valid, .cap = MAX_ROWS,
				     .heap = heap, .heap_cap = sizeof(heap) };
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Row r of the vector against the .expect line for it. */
static int row_matches(enum ss_pq_type type, uint32_t r, const char *line)
{
	int is_valid = (valid[r / 8] >> (r % 8)) & 1;
	uint8_t zero[8] = { 0 };

	if (line[0] == '-') {
		return !is_valid && memcmp(values + (size_t)r * ss_pq_value_width(type), zero,
					   ss_pq_value_width(type)) == 0;
	}
	if (!is_valid || line[0] != 'v') {
		return 0;
	}
	line += 2;
	switch (type) {
	case SS_PQ_BOOLEAN:
		return values[r] == (uint8_t)(line[0] - '0');
	case SS_PQ_INT32: {
		int32_t v;

		memcpy(&v, values + (size_t)r * 4, 4);
		return v == (int32_t)strtol(line, NULL, 10);
	}
	case SS_PQ_INT64: {
		int64_t v;

		memcpy(&v, values + (size_t)r * 8, 8);
		return v == (int64_t)strtoll(line, NULL, 10);
	}
	case SS_PQ_FLOAT: {
		uint32_t v;

		memcpy(&v, values + (size_t)r * 4, 4);
		return v == (uint32_t)strtoul(line, NULL, 16);
	}
	case SS_PQ_DOUBLE: {
		uint64_t v;

		memcpy(&v, values + (size_t)r * 8, 8);
		return v == (uint64_t)strtoull(line, NULL, 16);
	}
	case SS_PQ_BYTE_ARRAY: {
		struct ss_pq_bytes b;
		size_t n = (strlen(line) - 2) / 2;	/* "x", hex, "\n" */

		memcpy(&b, values + (size_t)r * sizeof(b), sizeof(b));
		if (line[0] != 'x' || b.len != n || (uint64_t)b.off + b.len > vec.heap_used) {
			return 0;
		}
		for (size_t i = 0; i < n; i++) {
			if (heap[b.off + i] != (hexval(line[1 + 2 * i]) << 4 | hexval(line[2 + 2 * i]))) {
				return 0;
			}
		}
		return 1;
	}
	default:
		return 0;
	}
}

struct chunk_counts {
	int dict_pages, dict_data_pages, plain_data_pages;
};

static int vector_files, vector_columns, fallbacks, snappy_pages, nulls_seen, dict_chunks;

static void decode_codes(const struct ss_pq_column *col, const uint8_t *chunk, size_t len,
			 uint64_t lookups);

static void decode_chunk(const char *file, FILE *expect, const char *colname, int type,
			 int max_def, int codec, long off, long len, uint32_t rows)
{
	struct ss_pq_column col = { .type = (enum ss_pq_type)type, .codec = (enum ss_pq_codec)codec,
				    .max_def_level = (uint8_t)max_def };
	struct chunk_counts c = { 0 };
	struct ss_pq_reader r;
	uint8_t *chunk = malloc((size_t)len);
	char line[4096];
	FILE *f = fopen(file, "rb");
	size_t pos = 0;
	uint32_t nonnull = 0;

	REQUIRE(f && chunk);
	REQUIRE(fseek(f, off, SEEK_SET) == 0 && fread(chunk, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	reset_buffers();
	REQUIRE(ss_pq_reader_init(&r, &col, &dict) == 0);
	while (pos < (size_t)len) {
		struct ss_pq_page_header h;
		struct ss_pq_error err = { 0 };
		size_t hl;
		int rc = ss_pq_read_page_header(chunk + pos, (size_t)len - pos, &h, &hl, &err);

		if (rc) {
			fprintf(stderr, "%s %s: header at %zu: %s at %u\n", file, colname, pos,
				ss_pq_err_name(err.kind), err.offset);
			CHECK_EQ(rc, 0);
			break;
		}
		r.stats.header_bytes += hl;
		rc = ss_pq_decode_page(&r, &h, chunk + pos + hl, (size_t)len - pos - hl, scratch,
				       sizeof(scratch), &vec);
		if (rc) {
			fprintf(stderr, "%s %s: page at %zu: %s at %u\n", file, colname, pos,
				ss_pq_err_name(r.err.kind), r.err.offset);
			CHECK_EQ(rc, 0);
			break;
		}
		if (h.type == SS_PQ_DICTIONARY_PAGE) {
			c.dict_pages++;
		} else if (h.encoding == SS_PQ_ENC_PLAIN) {
			c.plain_data_pages++;
		} else {
			c.dict_data_pages++;
		}
		pos += hl + h.compressed_size;
	}
	CHECK_EQ(pos, len);
	CHECK_EQ(vec.rows, rows);
	for (uint32_t i = 0; i < rows; i++) {
		REQUIRE(fgets(line, sizeof(line), expect));
		if (i < vec.rows && !row_matches(col.type, i, line)) {
			fprintf(stderr, "%s %s row %u: expected %s", file, colname, i, line);
			ss_test_failures++;
		}
		nonnull += line[0] == 'v';
	}
	/* the counted work: every row's level, every value, every page */
	CHECK_EQ(r.stats.levels_decoded, max_def ? rows : 0);
	CHECK_EQ(r.stats.values_decoded, nonnull + dict.count);
	CHECK(r.stats.dict_lookups <= nonnull);
	CHECK(c.plain_data_pages || r.stats.dict_lookups == nonnull);
	CHECK_EQ(r.stats.pages, c.dict_pages + c.dict_data_pages + c.plain_data_pages);
	CHECK_EQ(r.stats.bytes_in + r.stats.header_bytes, len);
	CHECK(codec == SS_PQ_UNCOMPRESSED ? r.stats.bytes_decompressed == 0
					  : r.stats.bytes_decompressed > 0);
	CHECK(c.dict_pages <= 1);
	CHECK(c.dict_pages == 0 || c.dict_data_pages > 0);
	decode_codes(&col, chunk, (size_t)len, r.stats.dict_lookups);
	fallbacks += c.dict_data_pages > 0 && c.plain_data_pages > 0;
	dict_chunks += c.dict_pages;
	snappy_pages += codec == SS_PQ_SNAPPY ? (int)r.stats.pages : 0;
	nulls_seen += (int)(rows - nonnull);
	vector_columns++;
	free(chunk);
}

/*
 * Count the chunk's dictionary-encoded pages per index (ss_pq_count_page): each index's count
 * is how many rows the codes pass gave that code, the non-nulls the coded rows, and the work
 * counted runs and bit-packed values, no level or value decoded a row at a time.
 */
static void count_codes(const struct ss_pq_column *col, const uint8_t *chunk, size_t len,
			uint32_t coded)
{
	static uint32_t counts[MAX_ROWS], want[MAX_ROWS];
	struct ss_pq_vector cv = { .values = values, .valid = valid, .cap = MAX_ROWS,
				   .heap = heap, .heap_cap = sizeof(heap) };
	struct ss_pq_reader r;
	uint32_t nonnull = 0;
	size_t pos = 0;

	memset(counts, 0, sizeof(counts));
	memset(want, 0, sizeof(want));
	for (uint32_t i = 0; i < vec.rows; i++) {
		if (codes[i] != SS_PQ_NO_CODE) {
			want[codes[i]]++;
		}
	}
	REQUIRE(ss_pq_reader_init(&r, col, &dict) == 0);
	while (pos < len) {
		struct ss_pq_page_header h;
		struct ss_pq_error err = { 0 };
		size_t hl;

		REQUIRE(ss_pq_read_page_header(chunk + pos, len - pos, &h, &hl, &err) == 0);
		if (h.type == SS_PQ_DATA_PAGE && (h.encoding == SS_PQ_ENC_PLAIN_DICTIONARY ||
						  h.encoding == SS_PQ_ENC_RLE_DICTIONARY)) {
			REQUIRE(ss_pq_count_page(&r, &h, chunk + pos + hl, len - pos - hl, scratch,
						 sizeof(scratch), counts, &nonnull) == 0);
		} else {
			REQUIRE(ss_pq_decode_page(&r, &h, chunk + pos + hl, len - pos - hl, scratch,
						  sizeof(scratch), &cv) == 0);
			REQUIRE(dict.count <= MAX_ROWS);
		}
		pos += hl + h.compressed_size;
	}
	CHECK_EQ(nonnull, coded);
	CHECK(memcmp(counts, want, sizeof(counts)) == 0);
	CHECK(coded == 0 || r.stats.runs > 0);
	CHECK(r.stats.packed_values <= (uint64_t)coded + (col->max_def_level ? vec.rows : 0));
	/* levels decoded one at a time only on the pages decode_page took */
	CHECK_EQ(r.stats.levels_decoded, col->max_def_level ? cv.rows : 0);
}

/*
 * Decode the chunk again with codes: a dictionary page's rows come out as codes whose
 * dictionary entry is the value the first pass looked up, with no lookup counted and the
 * value slot zero; every other row as in the first pass.
 */
static void decode_codes(const struct ss_pq_column *col, const uint8_t *chunk, size_t len,
			 uint64_t lookups)
{
	struct ss_pq_vector cv = { .values = cvalues, .valid = cvalid, .cap = MAX_ROWS,
				   .heap = cheap, .heap_cap = sizeof(cheap), .codes = codes };
	uint32_t w = ss_pq_value_width(col->type), coded = 0;
	struct ss_pq_reader r;
	size_t pos = 0;

	uint64_t page_bytes = 0;

	REQUIRE(ss_pq_reader_init(&r, col, &dict) == 0);
	while (pos < len) {
		struct ss_pq_page_header h;
		struct ss_pq_error err = { 0 };
		size_t hl;

		REQUIRE(ss_pq_read_page_header(chunk + pos, len - pos, &h, &hl, &err) == 0);
		REQUIRE(ss_pq_decode_page(&r, &h, chunk + pos + hl, len - pos - hl, scratch,
					  sizeof(scratch), &cv) == 0);
		if (h.type == SS_PQ_DICTIONARY_PAGE || h.encoding == SS_PQ_ENC_PLAIN) {
			page_bytes += h.uncompressed_size;
		}
		pos += hl + h.compressed_size;
	}
	CHECK_EQ(cv.rows, vec.rows);
	CHECK_EQ(r.stats.dict_lookups, 0);
	/* no string is copied: a dictionary page or PLAIN data page is decompressed into the
	 * dictionary or the heap, its values pointing into it; a page stored uncompressed is
	 * copied there once, whole */
	if (col->type == SS_PQ_BYTE_ARRAY) {
		CHECK_EQ(r.stats.bytes_copied, col->codec == SS_PQ_SNAPPY ? 0 : page_bytes);
	}
	for (uint32_t i = 0; i < cv.rows; i++) {
		const uint8_t *a = values + (size_t)i * w, *b = cvalues + (size_t)i * w;
		const uint8_t *want = a, *got = b;
		uint32_t want_len = w, got_len = w;
		static const uint8_t zero[16];

		CHECK_EQ((cvalid[i / 8] >> (i % 8)) & 1, (valid[i / 8] >> (i % 8)) & 1);
		if (codes[i] != SS_PQ_NO_CODE) {
			REQUIRE(codes[i] < dict.count);
			CHECK(memcmp(b, zero, w) == 0);
			coded++;
			got = col->type == SS_PQ_BYTE_ARRAY ? (const uint8_t *)&dict.entries[codes[i]]
							    : dict.data + (size_t)codes[i] * w;
		}
		if (col->type == SS_PQ_BYTE_ARRAY) {
			struct ss_pq_bytes x, y;

			memcpy(&x, want, sizeof(x));
			memcpy(&y, got, sizeof(y));
			want = heap + x.off;
			want_len = x.len;
			got = (codes[i] != SS_PQ_NO_CODE ? dict.data : cheap) + y.off;
			got_len = y.len;
		}
		if (want_len != got_len || memcmp(want, got, want_len) != 0) {
			fprintf(stderr, "row %u: its code's value differs from the looked-up one\n", i);
			ss_test_failures++;
		}
	}
	/* every looked-up row of the first pass is a coded row here */
	CHECK_EQ(coded, lookups);
	coded_rows += (int)coded;
	count_codes(col, chunk, len, coded);
}

/* want_dict: 1 every non-boolean column has a dictionary, 0 none does, -1 the writer chose */
static void run_vector(const char *name, int want_dict)
{
	char path[1024], line[4096], colname[64];
	FILE *expect;
	int type, max_def, codec;
	long off, len;
	unsigned rows;
	int columns = 0;

	snprintf(path, sizeof(path), "%s/%s.expect", PQ_VECTORS_DIR, name);
	expect = fopen(path, "r");
	REQUIRE(expect);
	snprintf(path, sizeof(path), "%s/%s.parquet", PQ_VECTORS_DIR, name);
	while (fgets(line, sizeof(line), expect)) {
		REQUIRE(sscanf(line, "column %63s %d %d %d %ld %ld %u", colname, &type, &max_def,
			       &codec, &off, &len, &rows) == 7);
		REQUIRE(rows <= MAX_ROWS);
		decode_chunk(path, expect, colname, type, max_def, codec, off, len, rows);
		if (want_dict >= 0) {
			CHECK(want_dict ? dict.count > 0 || type == SS_PQ_BOOLEAN : dict.count == 0);
		}
		columns++;
	}
	fclose(expect);
	CHECK_EQ(columns, 13);
	vector_files++;
}

static void test_pyarrow_plain_uncompressed(void) { run_vector("plain_none", 0); }
static void test_pyarrow_plain_snappy(void) { run_vector("plain_snappy", 0); }
static void test_pyarrow_dict_uncompressed(void) { run_vector("dict_none", 1); }
static void test_pyarrow_dict_snappy(void) { run_vector("dict_snappy", 1); }

static void test_pyarrow_dict_fallback(void)
{
	int before = fallbacks;

	run_vector("fallback_snappy", 1);
	run_vector("fallback_none", 1);
	/* the vectors hold what they were made for: dictionary pages, then PLAIN */
	CHECK(fallbacks - before >= 4);
	CHECK(snappy_pages > 50);
	CHECK(nulls_seen > 500);
}

/* DuckDB's own writer: every column optional, the strings dictionary-encoded when few */
static void test_duckdb_snappy(void)
{
	int before = dict_chunks;

	run_vector("duckdb_snappy", -1);
	CHECK_EQ(dict_chunks - before, 1);	/* the strings' */
}

static void test_duckdb_uncompressed(void) { run_vector("duckdb_none", -1); }

/* ---- hostile pages ---- */

static struct ss_pq_reader rd;

static int decode(const struct ss_pq_column *col, const uint8_t *hdr, size_t hlen,
		  const uint8_t *body, size_t blen)
{
	struct ss_pq_page_header h;
	struct ss_pq_error err = { 0 };
	size_t n;
	int rc = ss_pq_read_page_header(hdr, hlen, &h, &n, &err);

	if (rc) {
		rd.err = err;
		return rc;
	}
	return ss_pq_decode_page(&rd, &h, body, blen, scratch, sizeof(scratch), &vec);
}

static const struct ss_pq_column i32_opt = { .type = SS_PQ_INT32, .codec = SS_PQ_UNCOMPRESSED,
					     .max_def_level = 1 };

/* A dictionary of 3 INT32 into rd. */
static void load_dict(const struct ss_pq_column *col)
{
	const uint8_t d[] = { 10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0 };
	struct tw w;

	reset_buffers();
	REQUIRE(ss_pq_reader_init(&rd, col, &dict) == 0);
	tw_page_header(&w, 2, sizeof(d), sizeof(d), 3, SS_PQ_ENC_PLAIN);
	REQUIRE(decode(col, w.b, w.n, d, sizeof(d)) == 0);
	REQUIRE(dict.count == 3);
}

static void test_good_hand_page(void)
{
	/* levels: 4 bytes length 2, RLE run of 4 ones; values: bw 2, RLE run of 4 x index 2 */
	const uint8_t body[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x08, 0x02 };
	struct tw w;

	load_dict(&i32_opt);
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), 0);
	CHECK_EQ(vec.rows, 4);
	CHECK_EQ(((int32_t *)values)[3], 30);
	CHECK_EQ(rd.stats.dict_lookups, 4);
}

static void test_bad_dict_index(void)
{
	/* indices 0, 1, 2, 3 bit-packed at width 2, in a dictionary of 3 */
	const uint8_t body3[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x03, 0xE4 };
	struct tw w;

	load_dict(&i32_opt);
	tw_page_header(&w, 0, sizeof(body3), sizeof(body3), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body3, sizeof(body3)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_BAD_DICT_INDEX);
	CHECK_EQ(vec.rows, 0);
}

static void test_dict_page_missing(void)
{
	const uint8_t body[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x08, 0x00 };
	struct tw w;

	reset_buffers();
	REQUIRE(ss_pq_reader_init(&rd, &i32_opt, &dict) == 0);
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, SS_PQ_ENC_PLAIN_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_NO_DICT);
	CHECK_EQ(rd.err.offset, 0);   /* refused from its header, its bytes not decompressed */
}

static void test_run_past_page(void)
{
	/* the levels claim 9 rows in a page of 4 */
	const uint8_t levels[] = { 2, 0, 0, 0, 0x12, 0x01, 0, 0, 0, 0 };
	/* the indices: an RLE run of 5 for 4 values */
	const uint8_t idx[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x0a, 0x01 };
	/* the indices: a bit-packed run of 2 groups for 4 values (2, 1, 0, 2), padded by a whole
	 * group as DuckDB 2.0 pads: not past the page, the padding is never read */
	const uint8_t padded[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x05, 0x86, 0x00, 0x00, 0x00 };
	struct tw w;

	load_dict(&i32_opt);
	tw_page_header(&w, 0, sizeof(levels), sizeof(levels), 4, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, levels, sizeof(levels)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_RUN_PAST_PAGE);
	CHECK_EQ(rd.err.offset, 4);
	tw_page_header(&w, 0, sizeof(idx), sizeof(idx), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, idx, sizeof(idx)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_RUN_PAST_PAGE);
	CHECK_EQ(rd.err.offset, 7);
	load_dict(&i32_opt);
	tw_page_header(&w, 0, sizeof(padded), sizeof(padded), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, padded, sizeof(padded)), 0);
	CHECK_EQ(vec.rows, 4);
	CHECK_EQ(((int32_t *)values)[0], 30);
	CHECK_EQ(((int32_t *)values)[1], 20);
	CHECK_EQ(((int32_t *)values)[2], 10);
	CHECK_EQ(((int32_t *)values)[3], 30);
}

static void test_lying_lengths(void)
{
	/* 4 rows, all valid, PLAIN: 16 bytes of values wanted, 12 given */
	const uint8_t body[] = { 2, 0, 0, 0, 0x08, 0x01, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0 };
	/* a level section longer than the page */
	const uint8_t lv[] = { 200, 0, 0, 0, 0x08, 0x01 };
	struct tw w;

	load_dict(&i32_opt);
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_TRUNCATED);
	CHECK_EQ(rd.err.offset, 18);
	tw_page_header(&w, 0, sizeof(lv), sizeof(lv), 4, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, lv, sizeof(lv)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_TRUNCATED);
	CHECK_EQ(rd.err.offset, 0);
	/* a header whose compressed size is past the bytes given */
	tw_page_header(&w, 0, 100, 100, 4, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_TRUNCATED);
	/* uncompressed, with the two sizes disagreeing */
	tw_page_header(&w, 0, 12, sizeof(body), 4, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_SIZE_MISMATCH);
	/* a byte array whose length runs past the page */
	{
		const struct ss_pq_column str = { .type = SS_PQ_BYTE_ARRAY,
						  .codec = SS_PQ_UNCOMPRESSED };
		const uint8_t s[] = { 3, 0, 0, 0, 'a', 'b', 'c', 0xFF, 0xFF, 0xFF, 0x7F, 'd' };

		reset_buffers();
		REQUIRE(ss_pq_reader_init(&rd, &str, &dict) == 0);
		tw_page_header(&w, 0, sizeof(s), sizeof(s), 2, SS_PQ_ENC_PLAIN);
		CHECK_EQ(decode(&str, w.b, w.n, s, sizeof(s)), -SS_EBADMSG);
		CHECK_EQ(rd.err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(rd.err.offset, 7);
		CHECK_EQ(vec.rows, 0);
		CHECK_EQ(vec.heap_used, 0);
	}
	/* a dictionary page claiming more entries than it holds */
	{
		const uint8_t d[] = { 1, 0, 0, 0, 2, 0, 0, 0 };

		reset_buffers();
		REQUIRE(ss_pq_reader_init(&rd, &i32_opt, &dict) == 0);
		tw_page_header(&w, 2, sizeof(d), sizeof(d), 3, SS_PQ_ENC_PLAIN);
		CHECK_EQ(decode(&i32_opt, w.b, w.n, d, sizeof(d)), -SS_EBADMSG);
		CHECK_EQ(rd.err.kind, SS_PQ_E_TRUNCATED);
		CHECK_EQ(dict.count, 0);
		CHECK_EQ(rd.has_dict, 0);
	}
}

static void test_bad_snappy_page(void)
{
	const struct ss_pq_column col = { .type = SS_PQ_INT32, .codec = SS_PQ_SNAPPY };
	/* 8 bytes: literal of 4, then a copy at offset 5 (before the start) */
	const uint8_t bad_off[] = { 8, 0x0C, 1, 0, 0, 0, 0x01, 0x05 };
	/* the stream says 12 bytes, the header 8 */
	const uint8_t bad_len[] = { 12, 0x0C, 1, 0, 0, 0, 0x01, 0x04, 0x00, 0x01, 0, 0, 0 };
	const uint8_t good[] = { 8, 0x0C, 7, 0, 0, 0, 0x01, 0x04 };
	struct tw w;

	reset_buffers();
	REQUIRE(ss_pq_reader_init(&rd, &col, NULL) == 0);
	tw_page_header(&w, 0, 8, sizeof(bad_off), 2, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&col, w.b, w.n, bad_off, sizeof(bad_off)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_BAD_COPY_OFFSET);
	CHECK_EQ(rd.err.offset, 6);
	tw_page_header(&w, 0, 8, sizeof(bad_len), 2, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&col, w.b, w.n, bad_len, sizeof(bad_len)), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_SIZE_MISMATCH);
	tw_page_header(&w, 0, 8, sizeof(good), 2, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&col, w.b, w.n, good, sizeof(good)), 0);
	CHECK_EQ(((int32_t *)values)[1], 7);
	CHECK_EQ(rd.stats.bytes_decompressed, 8);
	/* a scratch too small for the page */
	{
		struct ss_pq_page_header h;
		struct ss_pq_error err;
		size_t n;

		REQUIRE(ss_pq_read_page_header(w.b, w.n, &h, &n, &err) == 0);
		CHECK_EQ(ss_pq_decode_page(&rd, &h, good, sizeof(good), scratch, 7, &vec),
			 -SS_ENOSPC);
		CHECK_EQ(rd.err.kind, SS_PQ_E_SCRATCH_FULL);
	}
}

static void test_unsupported_refused(void)
{
	const uint8_t body[16] = { 0 };
	struct ss_pq_column col = i32_opt;
	struct ss_pq_reader r;
	struct tw w;

	for (int codec = SS_PQ_GZIP; codec <= SS_PQ_LZ4_RAW; codec++) {
		col.codec = (enum ss_pq_codec)codec;
		CHECK_EQ(ss_pq_reader_init(&r, &col, &dict), -SS_ENOSYS);
		CHECK_EQ(r.err.kind, SS_PQ_E_UNSUPPORTED_CODEC);
	}
	col = i32_opt;
	col.max_def_level = 2;
	CHECK_EQ(ss_pq_reader_init(&r, &col, &dict), -SS_ENOSYS);
	CHECK_EQ(r.err.kind, SS_PQ_E_UNSUPPORTED_LEVELS);
	col = i32_opt;
	col.max_rep_level = 1;
	CHECK_EQ(ss_pq_reader_init(&r, &col, &dict), -SS_ENOSYS);
	CHECK_EQ(r.err.kind, SS_PQ_E_UNSUPPORTED_LEVELS);
	col = i32_opt;
	col.type = SS_PQ_INT96;
	CHECK_EQ(ss_pq_reader_init(&r, &col, &dict), -SS_ENOSYS);
	CHECK_EQ(r.err.kind, SS_PQ_E_UNSUPPORTED_TYPE);
	col.type = SS_PQ_FIXED_LEN_BYTE_ARRAY;
	CHECK_EQ(ss_pq_reader_init(&r, &col, &dict), -SS_ENOSYS);

	load_dict(&i32_opt);
	{
		const int encs[] = { SS_PQ_ENC_DELTA_BINARY_PACKED, SS_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
				     SS_PQ_ENC_DELTA_BYTE_ARRAY, SS_PQ_ENC_BYTE_STREAM_SPLIT,
				     SS_PQ_ENC_BIT_PACKED, SS_PQ_ENC_RLE, 1, 42 };

		for (size_t i = 0; i < SS_ARRAY_SIZE(encs); i++) {
			tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, encs[i]);
			CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_ENOSYS);
			CHECK_EQ(rd.err.kind, SS_PQ_E_UNSUPPORTED_ENCODING);
		}
	}
	/* BIT_PACKED definition levels (deprecated) */
	{
		struct ss_pq_page_header h = { .type = SS_PQ_DATA_PAGE, .uncompressed_size = 16,
					       .compressed_size = 16, .num_values = 4,
					       .encoding = SS_PQ_ENC_PLAIN,
					       .def_level_encoding = SS_PQ_ENC_BIT_PACKED };

		CHECK_EQ(ss_pq_decode_page(&rd, &h, body, sizeof(body), scratch, sizeof(scratch),
					   &vec), -SS_ENOSYS);
		CHECK_EQ(rd.err.kind, SS_PQ_E_UNSUPPORTED_ENCODING);
	}
	/* a v2 data page handed to the decoder anyway */
	{
		struct ss_pq_page_header h = { .type = SS_PQ_DATA_PAGE_V2, .uncompressed_size = 16,
					       .compressed_size = 16, .num_values = 4 };

		CHECK_EQ(ss_pq_decode_page(&rd, &h, body, sizeof(body), scratch, sizeof(scratch),
					   &vec), -SS_ENOSYS);
		CHECK_EQ(rd.err.kind, SS_PQ_E_UNSUPPORTED_PAGE);
	}
}

static void test_output_full(void)
{
	const uint8_t body[] = { 2, 0, 0, 0, 0x08, 0x01, 2, 0x08, 0x02 };
	struct tw w;

	load_dict(&i32_opt);
	vec.cap = 3;
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_ENOSPC);
	CHECK_EQ(rd.err.kind, SS_PQ_E_OUTPUT_FULL);
	/* a vector that claims more rows or heap than it holds */
	vec.cap = MAX_ROWS;
	vec.rows = MAX_ROWS + 1;
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 4, SS_PQ_ENC_RLE_DICTIONARY);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EINVAL);
	vec.rows = 0;
	vec.heap_used = vec.heap_cap + 1;
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, sizeof(body)), -SS_EINVAL);
	vec.heap_used = 0;
	/* a second dictionary page in one chunk */
	tw_page_header(&w, 2, 4, 4, 1, SS_PQ_ENC_PLAIN);
	CHECK_EQ(decode(&i32_opt, w.b, w.n, body, 4), -SS_EBADMSG);
	CHECK_EQ(rd.err.kind, SS_PQ_E_BAD_HEADER);
}

/* RLE-encoded booleans (what v1 writers may use for BOOLEAN data) */
static void test_rle_booleans(void)
{
	const struct ss_pq_column col = { .type = SS_PQ_BOOLEAN, .codec = SS_PQ_UNCOMPRESSED,
					  .max_def_level = 1 };
	/* levels: 1,0,1,1,1 bit-packed; values: 4 booleans 1,0,0,1 as one bit-packed group */
	const uint8_t body[] = { 2, 0, 0, 0, 0x03, 0x1D, 2, 0, 0, 0, 0x03, 0x09 };
	struct tw w;

	reset_buffers();
	REQUIRE(ss_pq_reader_init(&rd, &col, NULL) == 0);
	tw_page_header(&w, 0, sizeof(body), sizeof(body), 5, SS_PQ_ENC_RLE);
	CHECK_EQ(decode(&col, w.b, w.n, body, sizeof(body)), 0);
	CHECK_EQ(vec.rows, 5);
	CHECK_EQ(valid[0] & 0x1F, 0x1D);
	CHECK_EQ(values[0], 1);
	CHECK_EQ(values[1], 0);
	CHECK_EQ(values[2], 0);
	CHECK_EQ(values[3], 0);
	CHECK_EQ(values[4], 1);
}

int main(void)
{
	RUN(test_pyarrow_plain_uncompressed);
	RUN(test_pyarrow_plain_snappy);
	RUN(test_pyarrow_dict_uncompressed);
	RUN(test_pyarrow_dict_snappy);
	RUN(test_pyarrow_dict_fallback);
	RUN(test_duckdb_snappy);
	RUN(test_duckdb_uncompressed);
	fprintf(stderr, "vectors: %d files, %d column chunks, %d snappy pages, %d nulls, "
		"%d rows as dictionary codes\n", vector_files, vector_columns, snappy_pages,
		nulls_seen, coded_rows);
	CHECK(coded_rows > 1000);
	RUN(test_good_hand_page);
	RUN(test_bad_dict_index);
	RUN(test_dict_page_missing);
	RUN(test_run_past_page);
	RUN(test_lying_lengths);
	RUN(test_bad_snappy_page);
	RUN(test_unsupported_refused);
	RUN(test_output_full);
	RUN(test_rle_booleans);
	return ss_test_status();
}
