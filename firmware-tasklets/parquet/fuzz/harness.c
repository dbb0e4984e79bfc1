#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ss_parquet.h"
#include "ss_rt.h"

#define ROWS 4096
#define BUF (64 * 1024)

/* Heap-allocated per input, each exactly its size, so ASan sees any byte past them. */
struct bufs {
	uint8_t *values, *valid, *heap, *dict_data, *scratch;
	struct ss_pq_bytes *entries;
	uint32_t *codes, *counts;
	uint8_t *sel;
};

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "pq fuzz: invariant broken: %s\n", what);
		abort();
	}
}

static int fuzz_snappy(const uint8_t *data, size_t size)
{
	uint8_t *dst = malloc(BUF);
	struct ss_pq_error err = { 0 };
	size_t n = 0;
	int rc = ss_pq_snappy_decompress(data, size, dst, BUF, &n, &err);

	check(rc == 0 || (rc == -SS_EBADMSG || rc == -SS_ENOSPC), "snappy return code");
	check(rc != 0 || n <= BUF, "snappy output within its buffer");
	check(rc == 0 || (err.kind != SS_PQ_OK && err.offset <= size), "snappy error kind");
	free(dst);
	return 0;
}

/* The chunk again, its dictionary-encoded pages counted per index (ss_pq_count_page), the
 * others left out: where every page decoded, every page counts, and each index's count is
 * the rows the decoding pass gave that code. */
static void count_chunk(const struct ss_pq_column *col, const uint8_t *data, size_t size,
			const struct bufs *b, const struct ss_pq_vector *vec, int decoded_all)
{
	struct ss_pq_dict dict = { .data = b->dict_data, .data_cap = BUF, .entries = b->entries,
				   .entries_cap = 512 };
	struct ss_pq_reader r;
	uint32_t nonnull = 0, coded = 0;
	size_t pos = 0;
	int rc = 0;

	memset(b->counts, 0, BUF * sizeof(uint32_t));   /* a BOOLEAN dictionary: BUF entries */
	ss_pq_reader_init(&r, col, &dict);
	while (pos < size && rc == 0) {
		struct ss_pq_page_header h;
		struct ss_pq_error err = { 0 };
		size_t hl = 0;

		if (ss_pq_read_page_header(data + pos, size - pos, &h, &hl, &err)) {
			break;
		}
		if (h.type == SS_PQ_DICTIONARY_PAGE) {
			rc = ss_pq_decode_page(&r, &h, data + pos + hl, size - pos - hl, b->scratch, BUF,
					       NULL);
		} else if (h.type == SS_PQ_DATA_PAGE && (h.encoding == SS_PQ_ENC_PLAIN_DICTIONARY ||
							 h.encoding == SS_PQ_ENC_RLE_DICTIONARY)) {
			rc = ss_pq_count_page(&r, &h, data + pos + hl, size - pos - hl, b->scratch, BUF,
					      b->counts, &nonnull);
			check(rc == 0 || r.err.kind != SS_PQ_OK, "count error kind");
		}
		pos += hl + h.compressed_size;
	}
	if (!decoded_all) {
		return;
	}
	check(rc == 0, "a page decoded is counted");
	for (uint32_t i = 0; i < vec->rows; i++) {
		if (b->codes[i] != SS_PQ_NO_CODE) {
			check(b->codes[i] < dict.count && b->counts[b->codes[i]] > 0,
			      "a code counted");
			b->counts[b->codes[i]]--;
			coded++;
		}
	}
	check(coded == nonnull, "the non-nulls counted are the coded rows");
	for (uint32_t i = 0; i < dict.count; i++) {
		check(b->counts[i] == 0, "each index counted as often as decoded");
	}
}

static int fuzz_chunk(const uint8_t *data, size_t size)
{
	struct ss_pq_column col;
	struct ss_pq_reader r;
	struct ss_pq_dict dict;
	struct ss_pq_vector vec;
	struct bufs b;
	uint32_t width;
	size_t pos = 0;
	int decoded_all = 1, codes = 0;

	if (size < 3) {
		return 0;
	}
	codes = (data[2] & 2) != 0;   /* dictionary pages to codes, and counted */
	col = (struct ss_pq_column){ .type = (enum ss_pq_type)(data[0] & 7),
				     .codec = (enum ss_pq_codec)(data[1] & 7),
				     .max_def_level = (uint8_t)(data[2] & 1) };
	if (ss_pq_reader_init(&r, &col, NULL) != 0) {
		return 0;
	}
	b.sel = NULL;
	if (data[2] & 4) {            /* only some rows kept: the others passed over */
		b.sel = malloc(ROWS / 8);
		for (uint32_t i = 0; i < ROWS / 8; i++) {
			b.sel[i] = (uint8_t)(data[2] * 37u + i * 11u);
		}
	}
	width = ss_pq_value_width(col.type);
	b.values = malloc((size_t)ROWS * width);
	b.valid = malloc(ROWS / 8);
	b.heap = malloc(BUF);
	b.dict_data = malloc(BUF);
	b.scratch = malloc(BUF);
	b.entries = malloc(512 * sizeof(*b.entries));
	b.codes = malloc(ROWS * sizeof(uint32_t));
	b.counts = malloc(BUF * sizeof(uint32_t));
	dict = (struct ss_pq_dict){ .data = b.dict_data, .data_cap = BUF, .entries = b.entries,
				    .entries_cap = 512 };
	vec = (struct ss_pq_vector){ .values = b.values, .valid = b.valid, .cap = ROWS,
				     .heap = b.heap, .heap_cap = BUF, .codes = codes ? b.codes : NULL,
				     .sel = b.sel };
	ss_pq_reader_init(&r, &col, &dict);
	data += 3;
	size -= 3;
	while (pos < size) {
		struct ss_pq_page_header h;
		struct ss_pq_error err = { 0 };
		size_t hl = 0;
		int rc = ss_pq_read_page_header(data + pos, size - pos, &h, &hl, &err);

		if (rc) {
			check(err.kind != SS_PQ_OK && err.offset <= size - pos, "header error");
			decoded_all = 0;
			break;
		}
		check(hl > 0 && hl <= size - pos, "header length");
		rc = ss_pq_decode_page(&r, &h, data + pos + hl, size - pos - hl, b.scratch, BUF,
				       &vec);
		if (rc) {
			check(rc == -SS_EBADMSG || rc == -SS_ENOSYS || rc == -SS_ENOSPC,
			      "page return code");
			check(r.err.kind != SS_PQ_OK, "page error kind");
			decoded_all = 0;
			break;
		}
		pos += hl + h.compressed_size;
	}
	check(vec.rows <= ROWS && vec.heap_used <= BUF, "vector within its buffers");
	check(dict.count <= (col.type == SS_PQ_BYTE_ARRAY ? 512 : BUF / width) &&
	      dict.data_used <= BUF, "dictionary within its buffers");
	for (uint32_t i = 0; i < vec.rows; i++) {
		/* a row not kept has its valid bit, not its value */
		int valid = (b.valid[i / 8] >> (i % 8)) & 1 && (!b.sel || (b.sel[i / 8] >> (i % 8)) & 1);

		if (col.type == SS_PQ_BYTE_ARRAY && valid) {
			struct ss_pq_bytes v;

			memcpy(&v, b.values + (size_t)i * width, sizeof(v));
			check((uint64_t)v.off + v.len <= vec.heap_used, "byte array inside the heap");
		}
		if (col.type == SS_PQ_BOOLEAN && valid) {
			check(b.values[i] <= 1, "boolean 0 or 1");
		}
	}
	if (codes && !b.sel) {
		count_chunk(&col, data, size, &b, &vec, decoded_all);
	}
	free(b.sel);
	free(b.values);
	free(b.valid);
	free(b.heap);
	free(b.dict_data);
	free(b.scratch);
	free(b.entries);
	free(b.codes);
	free(b.counts);
	return 0;
}

int pq_fuzz_one(const uint8_t *data, size_t size)
{
	if (size < 1) {
		return 0;
	}
	if (data[0] == 2) {
		return pq_fuzz_plan(data, size);
	}
	if (data[0] & 1) {
		return fuzz_snappy(data + 1, size - 1);
	}
	return fuzz_chunk(data + 1, size - 1);
}
