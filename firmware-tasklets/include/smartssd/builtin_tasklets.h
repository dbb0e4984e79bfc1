/*
 * The built-in tasklets: their ids, the byte layout of their static parameters and of
 * their output. The host (native/, Java) encodes and decodes exactly these bytes, so every
 * multi-byte value here is LITTLE-ENDIAN and every structure is packed: the structs below
 * have no padding (checked by the static asserts) and document the wire bytes; the
 * firmware parses the bytes by offset, never by casting.
 *
 * Common rules
 *   - Field indexes refer to ss_layout.fields[]. Integer fields read as unsigned or
 *     signed per their type (I32/I64 signed); on the wire every integer value travels as
 *     8 bytes, two's complement for signed fields.
 *   - Unknown flag bits, non-zero reserved bytes, a params length that does not match,
 *     an index past nfields or a field of the wrong kind make init fail with -SS_EINVAL.
 *   - A TEXT integer column that does not parse (or is missing), or a FIXED field whose null
 *     flag is set (ss_field.null_bit), is NULL: it makes the record skip group-aggregate /
 *     top-N, and a filter leaf on it unknown (SQL's NULL, see "filter").
 *   - Every output ends with one struct ss_bt_trailer (32 bytes); what precedes it is a
 *     sequence of items, described per tasklet. An output without a valid trailer is
 *     incomplete (the run failed).
 *   - Splits: run one instance per split (or several inputs in one run); each output is a
 *     partial result the host merges as described per tasklet.
 */
#ifndef SMARTSSD_BUILTIN_TASKLETS_H
#define SMARTSSD_BUILTIN_TASKLETS_H

#include <stddef.h>
#include <stdint.h>

enum ss_builtin_id {
	SS_BT_GROUP_AGG = 1,   /* "group-aggregate" */
	SS_BT_TOPN = 2,        /* "top-n" */
	SS_BT_FILTER = 3,      /* "filter" */
	SS_BT_GREP = 4,        /* "grep" */
	SS_BT_DRAM_PROBE = 5,  /* "dram-probe" */
	SS_BT_PARQUET_SCAN = 6, /* "parquet-scan" (not in the Jasmine board's build) */
	SS_BT_BPF = 7,         /* "bpf": a program loaded with TASKLET_LOAD (not on the board) */
};

struct ss_isp;
/** Register every built-in with the engine (called by the firmware after ss_isp_init).
 *  \return 0 or the first ss_isp_register() error. */
int ss_builtin_tasklets_register(struct ss_isp *isp);

/* ---- the common trailer ----------------------------------------------------------------- */

#define SS_BT_TRAILER_MAGIC 0x52545353u   /* "SSTR" */

struct ss_bt_trailer {            /* 32 bytes, the last bytes of every output */
	uint32_t magic;           /* SS_BT_TRAILER_MAGIC */
	uint32_t tasklet_id;      /* enum ss_builtin_id */
	uint64_t records_in;      /* records (lines; pages for dram-probe) examined */
	uint64_t items_out;       /* items before the trailer */
	uint64_t aux;             /* per tasklet: spills, matches, matching lines */
};

/* ---- 1: group-aggregate ------------------------------------------------------------------
 * COUNT/SUM/MIN/MAX of one integer value field, grouped by 0, 1 or 2 integer key fields,
 * over the records that a WHERE tree matches: tree_len bytes of predicate tree (as the
 * filter's, below) follow the params; tree_len 0 takes every record.
 * The groups live in a hash table inside the memory budget. When a new group does not fit
 * (the table holds max_groups groups, or what the budget allows), every group so far is
 * emitted as a partial aggregate, the table is emptied and the run goes on: one spill.
 *
 * Output: ss_bt_agg_item (48 bytes) per group per spill, then the trailer with aux = the
 * number of spills. The host merges items with equal (key1, key2) exactly: count and sum
 * add (sum modulo 2^64, the device's own arithmetic), min and max fold (signed compare when
 * the value field is signed). The same merge combines the outputs of several splits.
 * F32/F64 value fields: min and max are order keys (smartssd/tasklet.h), sum is the IEEE
 * double of the values added in input order (floats widened; NaN and infinities as IEEE
 * adds them), merged by adding doubles; a build with SS_TASKLETS_NO_FLOAT (the Jasmine
 * board) refuses SUM of them at init. A record whose key or value field is NULL is skipped.
 */
#define SS_BT_AGG_COUNT 0x1u
#define SS_BT_AGG_SUM 0x2u
#define SS_BT_AGG_MIN 0x4u
#define SS_BT_AGG_MAX 0x8u
#define SS_BT_AGG_SUM_CHECKED 0x10u  /* with SUM of a signed field: a sum that leaves the
				      * signed 64-bit range fails the run, -SS_EOVERFLOW */

struct ss_bt_agg_params {         /* 16 bytes + tree_len */
	uint8_t nkeys;            /* 0..SS_BT_AGG_MAX_KEYS */
	uint8_t key1;             /* field index (integer), used when nkeys >= 1 */
	uint8_t key2;             /* field index (integer), used when nkeys >= 2 */
	uint8_t value;            /* field index (numeric); ignored when ops == COUNT */
	uint8_t ops;              /* non-empty subset of SS_BT_AGG_* */
	uint8_t key3;             /* field index (integer) when nkeys >= 3; else 0 */
	uint8_t key4;             /* field index (integer) when nkeys == 4; else 0 */
	uint8_t reserved;         /* 0 */
	uint32_t max_groups;      /* 0: as many as the budget holds */
	uint16_t tree_len;        /* bytes of WHERE tree after the params; 0: none */
	uint16_t reserved2;       /* 0 */
	/* uint8_t tree[tree_len]; */
};

/* With 3 or 4 keys, the item's key2 packs keys 2..nkeys, each in its value bits (a bit
 * field's bits, else 8 x its width), key2 highest: (k2 << b3 | k3) << b4 | k4. Their bits
 * must add up to at most 64. */
#define SS_BT_AGG_MAX_KEYS 4

struct ss_bt_agg_item {           /* 48 bytes */
	uint64_t key1;            /* 0 when unused */
	uint64_t key2;            /* 0 when unused */
	uint64_t count;           /* records in the group (always filled) */
	uint64_t sum;             /* 0 unless SUM */
	uint64_t min;             /* 0 unless MIN */
	uint64_t max;             /* 0 unless MAX */
};

/* ---- 2: top-N per group ------------------------------------------------------------------
 * Per group key (0..2 integer fields), the n records with the largest (or smallest) value
 * field. Ties keep the earlier record (input order). On a spill (groups do not fit) every
 * group's current top list is emitted and the table emptied. The top n of the union of all
 * partial lists is the exact answer: the host takes, per group, the n best items, ties to
 * the item emitted first.
 *
 * Params: ss_bt_topn_params then nproj field indexes (uint8 each). nproj 0: an item's
 * payload is the whole record (FIXED: record_size bytes; TEXT: the line without delimiter).
 * With SS_BT_TOPN_WHERE a uint16 tree_len and tree_len bytes of predicate tree (as the
 * filter's, below) follow: only the records it matches are ranked.
 * Otherwise the payload is the projected fields, encoded as in ss_bt_proj (below).
 *
 * Output: per group, in rank order (best first), ss_bt_topn_item followed by payload_len
 * payload bytes; then the trailer with aux = the number of spills.
 */
#define SS_BT_TOPN_SMALLEST 0x1u  /* flags: keep the smallest instead of the largest */
#define SS_BT_TOPN_WHERE 0x2u     /* flags: a WHERE tree follows the projection */

struct ss_bt_topn_params {        /* 12 bytes + nproj (+ 2 + tree_len with WHERE) */
	uint8_t nkeys;            /* 0, 1 or 2 */
	uint8_t key1;
	uint8_t key2;
	uint8_t value;            /* integer field ranked */
	uint8_t flags;            /* SS_BT_TOPN_* */
	uint8_t nproj;            /* 0..SS_LAYOUT_MAX_FIELDS */
	uint16_t n;               /* 1..1024 kept per group */
	uint32_t max_groups;      /* 0: as many as the budget holds */
	/* uint8_t proj[nproj]; with SS_BT_TOPN_WHERE: uint16_t tree_len; uint8_t tree[]; */
};

struct ss_bt_topn_item {          /* 32 bytes, then the payload */
	uint64_t key1;
	uint64_t key2;
	uint64_t value;
	uint32_t payload_len;
	uint32_t reserved;        /* 0 */
};

/* ---- projected fields (filter PROJECT mode, top-N payloads) --------------------------------
 * The fields in the order listed, concatenated without padding: an integer field as 8
 * bytes (two's complement for signed fields; a TEXT column that does not parse as 0), a
 * BYTES field as a uint16 length then the bytes (a missing TEXT column has length 0).
 */

/* ---- 3: filter ---------------------------------------------------------------------------
 * Params: ss_bt_filter_params, then nproj field indexes (uint8), then tree_len bytes of
 * predicate tree in prefix order (tree_len 0: every record matches):
 *
 *   AND  0x01 n:u8 child*n        (n >= 1)
 *   OR   0x02 n:u8 child*n        (n >= 1)
 *   NOT  0x03 child
 *   EQ 0x10, NE 0x11, LT 0x12, LE 0x13, GT 0x14, GE 0x15   field:u8 const:8 bytes
 *        integer fields only; signed fields compare signed
 *   BEQ 0x20, PREFIX 0x21, CONTAINS 0x22, SUFFIX 0x23       field:u8 len:u16 bytes[len]
 *        BYTES fields only (FIXED: the field's width bytes; TEXT: the column)
 *   ISNULL 0x30 field:u8     the field is NULL (FIXED: its null flag; TEXT: the column is
 *        missing or, integer columns, does not parse)
 *
 * Logic is SQL's, three-valued: a comparison with a NULL field is unknown, NOT unknown is
 * unknown, AND is false when a child is false, else unknown when one is, OR is true when a
 * child is true, else unknown when one is; a record matches when the tree is true.
 * F32/F64 fields compare their order keys (smartssd/tasklet.h ss_f64_key), so the constant
 * is the key of the float or double; DATE, TIMESTAMP and DECIMAL compare as signed.
 *
 * At most SS_BT_FILTER_MAX_NODES nodes and SS_BT_FILTER_MAX_DEPTH levels.
 *
 * Output by mode, then the trailer with aux = the records that matched (in PAGES mode:
 * the matches found, at most one per page as the rest of a matched page is skipped):
 *   RECORDS  the whole records: FIXED record_size bytes each; TEXT the line and line_delim
 *   PROJECT  the projected fields of each match, encoded as ss_bt_proj
 *   PAGES    one ss_bt_page_item per page holding a match (Kang §6.5.3: once a record of
 *            a page matches, that page's other records are not compared). The page is
 *            the one holding the record's first byte. Two splits that share a page may
 *            both report it; the host removes duplicates.
 *   COUNT    nothing but the trailer
 * limit != 0 stops the run once that many records matched (RECORDS, PROJECT, COUNT) or
 * pages were reported (PAGES); the output is then a prefix of the full answer.
 */
enum ss_bt_filter_mode {
	SS_BT_FILTER_RECORDS = 0,
	SS_BT_FILTER_PROJECT = 1,
	SS_BT_FILTER_PAGES = 2,
	SS_BT_FILTER_COUNT = 3,
};

enum ss_bt_pred_op {
	SS_BT_P_AND = 0x01,
	SS_BT_P_OR = 0x02,
	SS_BT_P_NOT = 0x03,
	SS_BT_P_EQ = 0x10,
	SS_BT_P_NE = 0x11,
	SS_BT_P_LT = 0x12,
	SS_BT_P_LE = 0x13,
	SS_BT_P_GT = 0x14,
	SS_BT_P_GE = 0x15,
	SS_BT_P_BEQ = 0x20,
	SS_BT_P_PREFIX = 0x21,
	SS_BT_P_CONTAINS = 0x22,
	SS_BT_P_SUFFIX = 0x23,
	SS_BT_P_ISNULL = 0x30,
};

#define SS_BT_FILTER_MAX_NODES 128
#define SS_BT_FILTER_MAX_DEPTH 16

struct ss_bt_filter_params {      /* 8 bytes + nproj + tree_len */
	uint8_t mode;             /* enum ss_bt_filter_mode */
	uint8_t nproj;            /* PROJECT: 1..SS_LAYOUT_MAX_FIELDS; otherwise 0 */
	uint16_t tree_len;
	uint32_t limit;           /* 0: none */
	/* uint8_t proj[nproj]; uint8_t tree[tree_len]; */
};

struct ss_bt_page_item {          /* 24 bytes */
	uint64_t lba;             /* 512-byte LBA of the page; UINT64_MAX for an inline object */
	uint64_t oid;             /* the input object */
	uint64_t page_offset;     /* byte offset of the page in the object */
};

/* ---- 4: grep / line count ----------------------------------------------------------------
 * TEXT layouts only. Counts lines, and lines containing `pattern` (pattern_len 0: every
 * line matches, a plain line count). With SS_BT_GREP_EMIT the matching lines are written,
 * each followed by line_delim. Trailer: records_in = lines, aux = matching lines,
 * items_out = lines written. Counts of splits add up.
 */
#define SS_BT_GREP_EMIT 0x1u

struct ss_bt_grep_params {        /* 4 bytes + pattern_len */
	uint8_t flags;            /* SS_BT_GREP_* */
	uint8_t reserved;         /* 0 */
	uint16_t pattern_len;     /* 0..1024 */
	/* uint8_t pattern[pattern_len]; */
};

/* ---- 5: dram-probe (Kang Fig. 6.6 calibration) ---------------------------------------------
 * For every input page, `accesses` 4-byte loads through ss_load32 at consecutive words of
 * the page (wrapping), each compared with `compare`. The layout may be NULL. Trailer:
 * records_in = pages, aux = loads that matched, items_out = 0.
 */
struct ss_bt_probe_params {       /* 8 bytes */
	uint32_t accesses;        /* per page, 0..1048576 */
	uint32_t compare;
};

/* ---- 6: parquet-scan (tasklets/README.md "6 parquet-scan") -------------------------------
 * A scan plan over a Parquet file stored as an object: the host read the footer and lists,
 * per row group, each wanted column's chunk (its byte range, codec, dictionary page); the
 * drive reassembles the chunks from the pages it is given (on_page, in object order),
 * decodes them with parquet/ and filters, projects or aggregates the rows. Params:
 * struct ss_bt_pq_params, ncols x struct ss_bt_pq_column, nrg x struct ss_bt_pq_rowgroup,
 * nrg x ncols x struct ss_bt_pq_chunk (row group major), nproj column indexes, tree_len
 * bytes of WHERE tree (the filter's encoding; a field is a plan column).
 */
enum ss_bt_pq_mode {
	SS_BT_PQ_ROWS = 0,        /* the projected columns of each match (nproj >= 1) */
	SS_BT_PQ_COUNT = 1,       /* nothing but the trailer: aux = matches */
	SS_BT_PQ_AGGREGATE = 2,   /* struct ss_bt_agg_item per group, as group-aggregate */
	SS_BT_PQ_TOPN = 3,        /* per group the `limit` rows best by `value`, as top-n's
				   * items with the projected row (no strings) as payload */
};

enum ss_bt_pq_logical {
	SS_BT_PQ_L_NONE = 0,
	SS_BT_PQ_L_STRING = 1,    /* BYTE_ARRAY, UTF-8 */
	SS_BT_PQ_L_DATE = 2,      /* INT32 days */
	SS_BT_PQ_L_TS_MILLIS = 3, /* INT64; the drive compares and returns microseconds */
	SS_BT_PQ_L_TS_MICROS = 4, /* INT64 */
	SS_BT_PQ_L_DECIMAL = 5,   /* INT32 / INT64 unscaled, scale 0..18 */
};

struct ss_bt_pq_params {          /* 24 bytes */
	uint8_t ncols;            /* 1..16 */
	uint8_t mode;             /* enum ss_bt_pq_mode */
	uint8_t nproj;            /* ROWS: 1..ncols; else 0 */
	uint8_t nkeys;            /* AGGREGATE: 0..2 group keys */
	uint16_t nrg;             /* row groups, >= 1 */
	uint16_t tree_len;        /* 0: every row */
	uint32_t limit;           /* ROWS, COUNT: stop after this many matches (0: none);
				   * TOPN: rows kept per group (1..1024) */
	uint8_t key1;
	uint8_t key2;
	uint8_t value;            /* AGGREGATE: the column SUM/MIN/MAX read */
	uint8_t ops;              /* SS_BT_AGG_COUNT | SUM | MIN | MAX */
	uint8_t flags;            /* SS_BT_PQ_ROW_EVAL, SS_BT_PQ_EAGER, SS_BT_PQ_SMALLEST */
	uint8_t reserved[7];      /* 0 */
};

struct ss_bt_pq_column {          /* 8 bytes */
	uint8_t type;             /* parquet.thrift Type: BOOLEAN, INT32, INT64, FLOAT, DOUBLE,
				   * BYTE_ARRAY (others: -ENOSYS) */
	uint8_t logical;          /* enum ss_bt_pq_logical */
	uint8_t scale;            /* DECIMAL */
	uint8_t max_def_level;    /* 0 required, 1 optional (more: -ENOSYS) */
	uint16_t encodings;       /* bit e: ColumnMetaData.encodings holds Encoding e; PLAIN,
				   * PLAIN_DICTIONARY, RLE, RLE_DICTIONARY only (else -ENOSYS) */
	uint16_t reserved;        /* 0 */
};

struct ss_bt_pq_rowgroup {        /* 8 bytes */
	uint32_t rows;            /* RowGroup.num_rows, >= 1 */
	uint32_t reserved;        /* 0 */
};

struct ss_bt_pq_chunk {           /* 32 bytes */
	uint64_t offset;          /* first page: the dictionary page's when there is one */
	uint64_t dict_offset;     /* 0: no dictionary page; else equal to offset */
	uint32_t length;          /* total_compressed_size: every page, headers included */
	uint32_t uncompressed;    /* total_uncompressed_size: bounds a page, the dictionary
				   * and the BYTE_ARRAY bytes */
	uint32_t values;          /* num_values: the row group's rows (flat columns) */
	uint8_t codec;            /* UNCOMPRESSED 0, SNAPPY 1 (others: -ENOSYS) */
	uint8_t reserved[3];      /* 0 */
};

#define SS_BT_PQ_MAX_COLS 16
/* flags: evaluate a one-column WHERE tree on every row, not once per dictionary entry (to
 * measure what that saves; the answer is the same) */
#define SS_BT_PQ_ROW_EVAL 0x1u
/* flags: decode every wanted column's pages whole, not only the pages holding a match (to
 * measure what late materialization saves; the answer is the same) */
#define SS_BT_PQ_EAGER 0x2u
/* flags, TOPN: keep the smallest values, not the largest */
#define SS_BT_PQ_SMALLEST 0x4u

/* ---- 7: bpf, a user's eBPF program (docs/tasklets.md, "Your own tasklets in eBPF") -------
 * Runs the program loaded with TASKLET_LOAD under `name` once per record (r1 = a context
 * of rec_len, rec_index and arg[6], r2 = the record, r3 = an output buffer of out_size
 * bytes kept from record to record). The drive reads the program from its store at
 * CREATE_OBJECT and verifies it against this instance's layout (records of record_size
 * bytes, FIXED; up to record_size, TEXT) before anything runs; a refusal fails the create
 * with PROGRAM_REFUSED. insn_budget: interpreted instructions per record (0: the program's
 * length, which bounds a loop-free program anyway); past it the run fails (TASKLET_STEPS).
 * The instance's mem_budget must hold SS_BT_BPF_BASE_BUDGET plus 40 bytes per group slot,
 * 16 per top-N entry and out_size.
 *
 * Output: the bytes the program emitted (ss_emit), in record order; then out_size bytes of
 * the output buffer; then one ss_bt_bpf_group per group (slot order: sort on the host);
 * then one ss_bt_bpf_top per top-N entry (heap order); then ss_bt_bpf_summary; then the
 * trailer with records_in, items_out = groups + top-N entries, aux = interpreted
 * instructions. Splits: emitted bytes concatenate, groups merge as group-aggregate's
 * (count and sum add, min and max fold, signed), top-N entries merge by score; the output
 * buffers are the program's own to merge.
 */
#define SS_BT_BPF_BASE_BUDGET (160u * 1024u)
#define SS_BT_BPF_MAX_OUT 4096u
#define SS_BT_BPF_MAX_GROUPS 65536u    /* a power of two; 0: no group table */
#define SS_BT_BPF_MAX_TOPN 1024u

struct ss_bt_bpf_params {         /* 136 bytes */
	uint8_t name_len;         /* 1..SS_TASKLET_NAME_MAX (ss_proto.h) */
	uint8_t reserved[7];
	char name[64];            /* name_len bytes, zero-padded */
	uint64_t arg[6];          /* the context's arg[] */
	uint32_t out_size;        /* 0..SS_BT_BPF_MAX_OUT */
	uint32_t group_slots;     /* 0 or a power of two up to SS_BT_BPF_MAX_GROUPS: at most
				   * group_slots - 1 groups; one more fails the run (-ENOMEM) */
	uint32_t topn;            /* 0..SS_BT_BPF_MAX_TOPN */
	uint32_t insn_budget;     /* per record; 0: the program's length */
};

struct ss_bt_bpf_group {          /* 40 bytes */
	uint64_t key;
	int64_t sum;              /* modulo 2^64 */
	uint64_t count;
	int64_t min;
	int64_t max;
};

struct ss_bt_bpf_top {            /* 16 bytes */
	int64_t score;
	uint64_t value;
};

struct ss_bt_bpf_summary {        /* 32 bytes, just before the trailer */
	uint64_t emitted_bytes;
	uint32_t out_size;
	uint32_t groups;
	uint32_t topn;
	uint32_t program_insns;   /* the program's length */
	uint64_t faults;          /* records whose run a run-time record check stopped: the
				   * run fails at the first, so 0 in a complete output */
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct ss_bt_trailer) == 32, "trailer is 32 bytes");
_Static_assert(sizeof(struct ss_bt_agg_params) == 16, "agg params are 16 bytes");
_Static_assert(sizeof(struct ss_bt_agg_item) == 48, "agg item is 48 bytes");
_Static_assert(sizeof(struct ss_bt_topn_params) == 12, "top-n params are 12 bytes");
_Static_assert(sizeof(struct ss_bt_topn_item) == 32, "top-n item header is 32 bytes");
_Static_assert(sizeof(struct ss_bt_filter_params) == 8, "filter params are 8 bytes");
_Static_assert(sizeof(struct ss_bt_page_item) == 24, "page item is 24 bytes");
_Static_assert(sizeof(struct ss_bt_grep_params) == 4, "grep params are 4 bytes");
_Static_assert(sizeof(struct ss_bt_probe_params) == 8, "probe params are 8 bytes");
_Static_assert(sizeof(struct ss_bt_pq_params) == 24, "parquet-scan params are 24 bytes");
_Static_assert(sizeof(struct ss_bt_pq_column) == 8, "parquet-scan column is 8 bytes");
_Static_assert(sizeof(struct ss_bt_pq_rowgroup) == 8, "parquet-scan row group is 8 bytes");
_Static_assert(sizeof(struct ss_bt_pq_chunk) == 32, "parquet-scan chunk is 32 bytes");
_Static_assert(sizeof(struct ss_bt_bpf_params) == 136, "bpf params are 136 bytes");
_Static_assert(sizeof(struct ss_bt_bpf_group) == 40, "bpf group is 40 bytes");
_Static_assert(sizeof(struct ss_bt_bpf_top) == 16, "bpf top entry is 16 bytes");
_Static_assert(sizeof(struct ss_bt_bpf_summary) == 32, "bpf summary is 32 bytes");
#endif

#define SS_BT_TOPN_MAX_N 1024
#define SS_BT_GREP_MAX_PATTERN 1024
#define SS_BT_PROBE_MAX_ACCESSES 1048576u

#endif
