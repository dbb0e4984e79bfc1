/*
 * Parquet scan on the drive: page headers (Thrift compact protocol), the UNCOMPRESSED and
 * SNAPPY codecs, PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY and the RLE/bit-packed hybrid, for
 * flat columns whose definition level is at most 1. The host plans (it reads the footer and
 * hands the drive a column chunk's byte range and its column descriptor); the drive decodes
 * one page at a time into buffers the caller owns. Nothing here allocates.
 *
 * The drive trusts no page: every length, count, run and index is checked against the bytes
 * that hold it. A failure returns a negative SS_E* code and fills struct ss_pq_error with a
 * kind and the byte offset where decoding stopped:
 *   -SS_EBADMSG  the bytes are not a well-formed page (kind says how);
 *   -SS_ENOSYS   well-formed but outside what the drive decodes (other codecs, DELTA
 *                encodings, v2 data pages, nested columns): the host falls back;
 *   -SS_ENOSPC   a caller buffer (scratch, dictionary, output) is too small;
 *   -SS_EINVAL   the caller's arguments contradict each other.
 */
#ifndef SS_PARQUET_H
#define SS_PARQUET_H

#include <stddef.h>
#include <stdint.h>

/* parquet.thrift enum Type */
enum ss_pq_type {
	SS_PQ_BOOLEAN = 0,
	SS_PQ_INT32 = 1,
	SS_PQ_INT64 = 2,
	SS_PQ_INT96 = 3,
	SS_PQ_FLOAT = 4,
	SS_PQ_DOUBLE = 5,
	SS_PQ_BYTE_ARRAY = 6,
	SS_PQ_FIXED_LEN_BYTE_ARRAY = 7,
};

/* parquet.thrift enum CompressionCodec */
enum ss_pq_codec {
	SS_PQ_UNCOMPRESSED = 0,
	SS_PQ_SNAPPY = 1,
	SS_PQ_GZIP = 2,
	SS_PQ_LZO = 3,
	SS_PQ_BROTLI = 4,
	SS_PQ_LZ4 = 5,
	SS_PQ_ZSTD = 6,
	SS_PQ_LZ4_RAW = 7,
};

/* parquet.thrift enum Encoding */
enum ss_pq_encoding {
	SS_PQ_ENC_PLAIN = 0,
	SS_PQ_ENC_PLAIN_DICTIONARY = 2,
	SS_PQ_ENC_RLE = 3,
	SS_PQ_ENC_BIT_PACKED = 4,
	SS_PQ_ENC_DELTA_BINARY_PACKED = 5,
	SS_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
	SS_PQ_ENC_DELTA_BYTE_ARRAY = 7,
	SS_PQ_ENC_RLE_DICTIONARY = 8,
	SS_PQ_ENC_BYTE_STREAM_SPLIT = 9,
};

/* parquet.thrift enum PageType */
enum ss_pq_page_type {
	SS_PQ_DATA_PAGE = 0,
	SS_PQ_INDEX_PAGE = 1,
	SS_PQ_DICTIONARY_PAGE = 2,
	SS_PQ_DATA_PAGE_V2 = 3,
};

/* Why decoding stopped; the host logs it and, for the UNSUPPORTED kinds, falls back. */
enum ss_pq_err_kind {
	SS_PQ_OK = 0,
	SS_PQ_E_TRUNCATED,		/* a field, run or value goes past the bytes given */
	SS_PQ_E_BAD_HEADER,		/* a page header field missing, negative or inconsistent */
	SS_PQ_E_BAD_VARINT,		/* a varint longer than its type allows */
	SS_PQ_E_BAD_THRIFT,		/* an unknown Thrift type, or nesting deeper than we follow */
	SS_PQ_E_SIZE_MISMATCH,		/* a page's bytes disagree with the size its header declares */
	SS_PQ_E_UNSUPPORTED_CODEC,
	SS_PQ_E_UNSUPPORTED_ENCODING,
	SS_PQ_E_UNSUPPORTED_PAGE,	/* v2 data page, index page */
	SS_PQ_E_UNSUPPORTED_TYPE,	/* INT96, FIXED_LEN_BYTE_ARRAY */
	SS_PQ_E_UNSUPPORTED_LEVELS,	/* repetition levels or definition level above 1 */
	SS_PQ_E_NO_DICT,		/* a dictionary-encoded page before any dictionary page */
	SS_PQ_E_BAD_DICT_INDEX,		/* an index at or past the dictionary's size */
	SS_PQ_E_RUN_PAST_PAGE,		/* an RLE run longer than the page's values, an empty
					 * run, or more values asked than the page has */
	SS_PQ_E_BAD_RUN_VALUE,		/* an RLE run's value wider than the bit width (a level
					 * above the column's maximum) */
	SS_PQ_E_BAD_BIT_WIDTH,		/* a dictionary index bit width above 32 */
	SS_PQ_E_BAD_COPY_OFFSET,	/* a snappy copy reaching before the output's start */
	SS_PQ_E_SCRATCH_FULL,		/* the caller's scratch cannot hold the uncompressed page */
	SS_PQ_E_DICT_FULL,		/* the caller's dictionary storage is too small */
	SS_PQ_E_OUTPUT_FULL,		/* the caller's column vector is too small */
	SS_PQ_E_KIND_COUNT
};

struct ss_pq_error {
	enum ss_pq_err_kind kind;
	/* Byte offset of the failure: into the header bytes for ss_pq_read_page_header, into the
	 * stored (compressed) body for codec errors, else into the uncompressed page body. */
	uint32_t offset;
};

/** \return a constant name for kind, e.g. "SS_PQ_E_TRUNCATED". */
const char *ss_pq_err_name(enum ss_pq_err_kind kind);

/* The page header fields the decoder uses (statistics and CRC are skipped). */
struct ss_pq_page_header {
	enum ss_pq_page_type type;
	uint32_t uncompressed_size;
	uint32_t compressed_size;
	uint32_t num_values;		/* data page: values including nulls; dictionary: entries */
	enum ss_pq_encoding encoding;
	enum ss_pq_encoding def_level_encoding;
	enum ss_pq_encoding rep_level_encoding;
};

/* The column as the host's plan describes it (from the footer's schema and ColumnMetaData). */
struct ss_pq_column {
	enum ss_pq_type type;
	enum ss_pq_codec codec;
	uint8_t max_def_level;		/* 0: required, 1: optional; more is refused */
	uint8_t max_rep_level;		/* anything but 0 is refused */
};

/* A BYTE_ARRAY value: bytes [off, off + len) of the heap that holds it. */
struct ss_pq_bytes {
	uint32_t off;
	uint32_t len;
};

/*
 * The column's dictionary, its page decompressed into data whole (data_cap at least the
 * page's uncompressed size): fixed-width values are its bytes, packed; for BYTE_ARRAY one
 * entry per value points into it; BOOLEAN values are unpacked a byte each.
 */
struct ss_pq_dict {
	uint8_t *data;
	uint32_t data_cap;
	struct ss_pq_bytes *entries;
	uint32_t entries_cap;
	uint32_t count;			/* 0 until a dictionary page is decoded */
	uint32_t data_used;
};

/*
 * The caller's column vector. Row i's value is at values + i * width (width: 1 for BOOLEAN,
 * 4 for INT32 and FLOAT, 8 for INT64 and DOUBLE, sizeof(struct ss_pq_bytes) for BYTE_ARRAY,
 * pointing into heap: a PLAIN page is decompressed there whole, so heap needs the pages'
 * uncompressed sizes). valid has bit i (LSB first) set when row i is not null; a null row's
 * value is zeroed. Pages append: rows counts what the vector holds.
 */
struct ss_pq_vector {
	void *values;
	uint8_t *valid;
	uint32_t cap;			/* rows values and valid can hold */
	uint32_t rows;
	uint8_t *heap;
	uint32_t heap_cap;
	uint32_t heap_used;
	/* Optional (cap entries): a dictionary-encoded page leaves its rows' dictionary indexes
	 * here instead of their values (the value slot stays zero: no lookup, no BYTE_ARRAY
	 * copy), for a caller that works on the codes; every other row gets SS_PQ_NO_CODE. */
	uint32_t *codes;
	/* Optional (a bit a row, as valid): the rows the caller keeps. A dictionary index or
	 * fixed-width PLAIN value of a row not kept is passed over, not decoded (a run of them
	 * at a time in the hybrid); such a row's valid bit is right, its slot and code are not
	 * written. Strings are decoded whatever sel says. */
	const uint8_t *sel;
};

#define SS_PQ_NO_CODE UINT32_MAX

/* The decoder's counted work, for the ISP to charge. */
struct ss_pq_stats {
	uint64_t pages;
	uint64_t header_bytes;		/* page header bytes parsed */
	uint64_t bytes_in;		/* stored page body bytes read */
	uint64_t bytes_decompressed;	/* bytes a codec produced (0 for UNCOMPRESSED) */
	uint64_t levels_decoded;	/* definition levels */
	uint64_t values_decoded;	/* non-null values, dictionary entries included */
	uint64_t dict_lookups;		/* dictionary indices resolved */
	uint64_t bytes_copied;		/* bytes copied: dictionary strings looked up into the
					 * heap, a page stored uncompressed into heap or dict */
	uint64_t runs;			/* RLE/bit-packed runs counted or passed over whole */
	uint64_t packed_values;		/* bit-packed values read and counted */
	uint64_t values_skipped;	/* values of rows not kept (sel) passed over undecoded */
};

/* One column chunk's decoding state: the column, its dictionary, the work done. */
struct ss_pq_reader {
	struct ss_pq_column col;
	struct ss_pq_dict *dict;
	struct ss_pq_stats stats;
	struct ss_pq_error err;
	int has_dict;			/* a dictionary page was decoded into dict */
};

/** \return the width of one decoded value of type in a struct ss_pq_vector, 0 if unsupported */
uint32_t ss_pq_value_width(enum ss_pq_type type);

/**
 * Check that the drive decodes col, and start a chunk. dict may be NULL for a chunk the host
 * knows has no dictionary page.
 * \return 0, or -SS_ENOSYS (err kind says which property) for a column the drive refuses.
 */
int ss_pq_reader_init(struct ss_pq_reader *r, const struct ss_pq_column *col,
		      struct ss_pq_dict *dict);

/**
 * Parse the Thrift compact PageHeader at buf[0..len).
 * \param hdr_len set to the header's length in bytes: its body starts there
 * \return 0, -SS_EBADMSG, or -SS_ENOSYS for a page type the drive does not decode (the header
 *         is still filled and hdr_len set, so a caller may skip the page)
 */
int ss_pq_read_page_header(const uint8_t *buf, size_t len, struct ss_pq_page_header *h,
			   size_t *hdr_len, struct ss_pq_error *err);

/**
 * Decode one page whose header is h and whose stored body is body[0..body_len): a dictionary
 * page into r->dict, a data page appended to out. scratch holds the uncompressed body of a
 * compressed data page (h->uncompressed_size bytes) but for a PLAIN BYTE_ARRAY one, which
 * goes into out->heap, and a dictionary page, which goes into r->dict->data. On error r->err says why and where; out keeps
 * the rows of earlier pages (out->rows is unchanged) and the dictionary is left empty.
 * \return 0 or a negative SS_E* code
 */
int ss_pq_decode_page(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		      const uint8_t *body, size_t body_len, uint8_t *scratch, size_t scratch_len,
		      struct ss_pq_vector *out);

/**
 * Count a dictionary-encoded data page (PLAIN_DICTIONARY or RLE_DICTIONARY, after the chunk's
 * dictionary page was decoded into r->dict) without materialising a row: counts[i] += the
 * rows holding dictionary index i, for i < r->dict->count (the caller's array has that many,
 * zeroed where it wants sums), and *nonnull += the page's non-null values. A run of n equal
 * indices or levels is one add of n; a bit-packed index is read from its bytes and counted.
 * Every run and index is checked as ss_pq_decode_page checks them; after a failure counts
 * may hold part of the page.
 * \return 0, -SS_EBADMSG, -SS_ENOSPC (scratch too small), or -SS_EINVAL for a page that is
 *         not a dictionary-encoded data page (decode it with ss_pq_decode_page)
 */
int ss_pq_count_page(struct ss_pq_reader *r, const struct ss_pq_page_header *h,
		     const uint8_t *body, size_t body_len, uint8_t *scratch, size_t scratch_len,
		     uint32_t *counts, uint32_t *nonnull);

/**
 * Raw snappy (the block format Parquet uses, no framing): decompress src[0..src_len) into
 * dst[0..dst_cap).
 * \param out_len set to the uncompressed length on success
 * \return 0, -SS_EBADMSG (bad varint, copy offset, or a stream that overruns or falls short of
 *         its declared length) or -SS_ENOSPC (the declared length exceeds dst_cap)
 */
int ss_pq_snappy_decompress(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
			    size_t *out_len, struct ss_pq_error *err);

/** \return the declared uncompressed length of a snappy block in *len, or -SS_EBADMSG */
int ss_pq_snappy_length(const uint8_t *src, size_t src_len, uint32_t *len,
			struct ss_pq_error *err);

#endif
