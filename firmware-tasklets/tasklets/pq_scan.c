/*
 * parquet-scan (builtin_tasklets.h, README.md "6 parquet-scan"): a scan plan over a Parquet
 * file stored as an object. The pages arrive in object order; the bytes of the current row
 * group's column chunks are gathered from them, and once the row group is whole its columns
 * are decoded (parquet/), the WHERE tree's columns first: the other columns' data pages
 * holding no match are not decoded at all (late materialization, a page at a time). The
 * matches are projected, counted, or aggregated in the group table group-aggregate uses.
 * Dictionary-encoded pages are decoded to codes (no value looked up or copied: rows read
 * their values in the dictionary); a tree that reads one column only is evaluated once per
 * dictionary entry and then looked up by each row's code. The decoder's counted work
 * (struct ss_pq_stats) is charged to the ISP core.
 *
 * A plan that contradicts what it describes fails the run: bad params -EINVAL (reason
 * TASKLET_PARAMS), a column, codec, encoding or page the drive does not decode -ENOSYS
 * (INPUT_UNSUPPORTED), a malformed page -EILSEQ (INPUT_MALFORMED), chunk bytes missing
 * from the input or a chunk whose pages disagree with the plan -ENODATA (PLAN_MISMATCH).
 */
#include "tasklets_internal.h"

#include "ss_parquet.h"

#define P_HDR ((uint32_t)sizeof(struct ss_bt_pq_params))
#define P_COL ((uint32_t)sizeof(struct ss_bt_pq_column))
#define P_RG ((uint32_t)sizeof(struct ss_bt_pq_rowgroup))
#define P_CHUNK ((uint32_t)sizeof(struct ss_bt_pq_chunk))

/* The decoder's work in the engine's own units: a byte read, decompressed or copied costs
 * what the record reader charges for scanning a byte (isp_reader.c count_scan: 2
 * instructions, a DRAM access per 4 bytes), a level, value or dictionary lookup what it
 * charges for decoding a FIXED field (ISP_INSN_PER_FIELD, 4 instructions). */
#define PQS_INSN_PER_BYTE 2u
#define PQS_BYTES_PER_DRAM 4u
#define PQS_INSN_PER_VALUE 4u
/* a value of a row not kept passed over: its row's bit tested, a count added */
#define PQS_INSN_PER_SKIP 1u
/* a row counted by its two keys' codes: both valid bits tested, the cell's index multiplied
 * and added, the code checked against each dictionary's size, the cell incremented */
#define PQS_INSN_PER_PAIR 6u

/* by_pairs: a row group's cells (one per pair of dictionary indices) at most as many as its
 * largest row group's rows, so the cells and their order (6 bytes a cell) take less than the
 * keys' codes already take (8 bytes a row), and at most 2^16 so a cell's index fits the
 * order's 16 bits. A row group whose dictionaries' product is larger goes a row at a time. */
#define PQS_PAIR_CELLS_MAX 65536u

/* The encodings a column may list: PLAIN, PLAIN_DICTIONARY, RLE (levels, booleans),
 * RLE_DICTIONARY. */
#define PQS_ENCODINGS ((1u << SS_PQ_ENC_PLAIN) | (1u << SS_PQ_ENC_PLAIN_DICTIONARY) | \
		       (1u << SS_PQ_ENC_RLE) | (1u << SS_PQ_ENC_RLE_DICTIONARY))

struct pq_chunk {
	uint64_t offset;
	uint32_t length;
	uint32_t uncompressed;
	uint32_t values;
	uint8_t codec;
	bool dict;
};

struct pq_col {
	uint8_t type;                 /* enum ss_pq_type */
	uint8_t logical;
	uint8_t max_def;
	bool in_tree;                 /* read by the WHERE tree: decoded first, whole */
	uint8_t *verdict;             /* the one-column tree on each dictionary entry */
	uint32_t verdict_cap;
	bool wanted;                  /* projected, a key or the value */
	bool has_dict;                /* a dictionary page in one of the run's chunks */
	bool plain;                   /* the row group's chunk has a data page that is not
				       * dictionary-encoded */
	struct ss_pq_vector vec;
	struct ss_pq_dict dict;
	uint8_t *buf;                 /* the current row group's chunk bytes */
	uint32_t got;                 /* of them, received */
};

struct pq_scan {
	uint8_t ncols;
	uint8_t mode;
	uint8_t nproj;
	uint8_t nkeys;
	uint16_t nrg;
	uint8_t key1, key2, value, ops, flags;
	int tree_col;                 /* the one column the tree reads, else -1 */
	bool per_entry;               /* evaluate it once per dictionary entry */
	bool by_code;                 /* COUNT by one dictionary-encoded key, no WHERE: counted
				       * per dictionary index off the pages' runs */
	uint32_t *code_count;         /* the key chunk's rows per dictionary index */
	uint32_t code_cap;
	uint32_t counted;             /* of the row group's rows, those counted by index */
	bool by_pairs;                /* COUNT by two dictionary-encoded keys, no WHERE: counted
				       * per pair of dictionary indices off the codes */
	uint32_t *pair_count;         /* the row group's rows per cell code1 * dict2 + code2 */
	uint16_t *pair_order;         /* the cells with rows, in the order of their first row */
	uint32_t pair_cells;          /* cells allocated: the largest product counted so far */
	uint32_t pair_cap;            /* at most this many cells */
	bool value_signed;
	uint32_t limit;
	const uint8_t *proj;
	const uint8_t *rg;            /* params: row groups, then chunks */
	const uint8_t *chunks;
	struct ss_layout layout;      /* the columns typed for bt_pred_init */
	struct bt_pred where;
	struct pq_col col[SS_BT_PQ_MAX_COLS];
	uint8_t *scratch;
	uint32_t scratch_len;
	uint8_t *sel;                 /* the row group's matches, a bit a row */
	uint8_t *row;                 /* one projected row */
	uint32_t row_max;
	uint16_t cur;                 /* the row group being gathered */
	uint64_t page_end;            /* object offset past the last page seen */
	uint64_t rows_in;
	uint64_t matches;
	uint64_t items;
	uint64_t spills;
	struct ss_pq_stats stats;     /* the whole run's */
	struct bt_groups g;
	uint64_t *count, *sum, *min, *max;
	struct bt_topn tn;
};

static void chunk_at(const struct pq_scan *s, uint32_t rg, uint32_t c, struct pq_chunk *k)
{
	const uint8_t *p = s->chunks + ((size_t)rg * s->ncols + c) * P_CHUNK;

	k->offset = ss_get_le64(p + offsetof(struct ss_bt_pq_chunk, offset));
	k->dict = ss_get_le64(p + offsetof(struct ss_bt_pq_chunk, dict_offset)) != 0;
	k->length = ss_get_le32(p + offsetof(struct ss_bt_pq_chunk, length));
	k->uncompressed = ss_get_le32(p + offsetof(struct ss_bt_pq_chunk, uncompressed));
	k->values = ss_get_le32(p + offsetof(struct ss_bt_pq_chunk, values));
	k->codec = p[offsetof(struct ss_bt_pq_chunk, codec)];
}

static uint32_t rg_rows(const struct pq_scan *s, uint32_t rg)
{
	return ss_get_le32(s->rg + (size_t)rg * P_RG + offsetof(struct ss_bt_pq_rowgroup, rows));
}

/* The field type the WHERE tree, the keys and the aggregates see a column as. */
static uint8_t field_type(const struct pq_col *c)
{
	switch (c->type) {
	case SS_PQ_BOOLEAN:
		return SS_FIELD_U8;
	case SS_PQ_INT32:
		return c->logical == SS_BT_PQ_L_DATE ? SS_FIELD_DATE :
		       c->logical == SS_BT_PQ_L_DECIMAL ? SS_FIELD_DECIMAL : SS_FIELD_I32;
	case SS_PQ_INT64:
		return c->logical == SS_BT_PQ_L_DECIMAL ? SS_FIELD_DECIMAL :
		       c->logical == SS_BT_PQ_L_NONE ? SS_FIELD_I64 : SS_FIELD_TIMESTAMP;
	case SS_PQ_FLOAT:
		return SS_FIELD_F32;
	case SS_PQ_DOUBLE:
		return SS_FIELD_F64;
	default:
		return SS_FIELD_BYTES;
	}
}

/* -EINVAL for a column the params describe wrongly, -ENOSYS for one the drive does not decode. */
static int check_column(const uint8_t *p, struct pq_col *c)
{
	uint8_t logical = p[offsetof(struct ss_bt_pq_column, logical)];
	uint8_t scale = p[offsetof(struct ss_bt_pq_column, scale)];
	uint16_t enc = ss_get_le16(p + offsetof(struct ss_bt_pq_column, encodings));

	c->type = p[offsetof(struct ss_bt_pq_column, type)];
	c->logical = logical;
	c->max_def = p[offsetof(struct ss_bt_pq_column, max_def_level)];
	if (ss_get_le16(p + offsetof(struct ss_bt_pq_column, reserved)) || c->type > SS_PQ_FIXED_LEN_BYTE_ARRAY ||
	    logical > SS_BT_PQ_L_DECIMAL || (scale && logical != SS_BT_PQ_L_DECIMAL) || scale > 18) {
		return -SS_EINVAL;
	}
	if (c->type == SS_PQ_INT96 || c->type == SS_PQ_FIXED_LEN_BYTE_ARRAY || c->max_def > 1 ||
	    (enc & ~PQS_ENCODINGS)) {
		return -SS_ENOSYS;
	}
	switch (logical) {
	case SS_BT_PQ_L_STRING:
		return c->type == SS_PQ_BYTE_ARRAY ? 0 : -SS_EINVAL;
	case SS_BT_PQ_L_DATE:
		return c->type == SS_PQ_INT32 ? 0 : -SS_EINVAL;
	case SS_BT_PQ_L_TS_MILLIS:
	case SS_BT_PQ_L_TS_MICROS:
		return c->type == SS_PQ_INT64 ? 0 : -SS_EINVAL;
	case SS_BT_PQ_L_DECIMAL:
		return c->type == SS_PQ_INT32 || c->type == SS_PQ_INT64 ? 0 : -SS_EINVAL;
	default:
		return 0;
	}
}

/* The columns the WHERE tree reads: every field byte of a leaf. */
static void mark_tree(struct pq_scan *s)
{
	uint32_t leaves = 0;
	bool bytes = false;

	s->tree_col = -1;
	for (uint32_t i = 0; i < s->where.nnodes; i++) {
		const struct bt_pnode *nd = &s->where.nodes[i];

		if (nd->op >= SS_BT_P_EQ) {
			s->col[nd->field].in_tree = true;
			s->tree_col = s->tree_col == -1 || s->tree_col == nd->field ? nd->field : -2;
			leaves++;
			bytes = bytes || (nd->op >= SS_BT_P_BEQ && nd->op <= SS_BT_P_SUFFIX);
		}
	}
	/* Once per entry pays where a row's evaluation costs more than looking its verdict up
	 * (the code, then the verdict: two loads): several leaves, or bytes compared. */
	if (s->tree_col < 0 || (leaves < 2 && !bytes)) {
		s->tree_col = -1;
	}
	s->per_entry = s->tree_col >= 0 && !(s->flags & SS_BT_PQ_ROW_EVAL);
}

/* Whether column c has a dictionary page in any of the run's chunks. */
static bool has_dict(const struct pq_scan *s, uint32_t c)
{
	for (uint32_t r = 0; r < s->nrg; r++) {
		struct pq_chunk k;

		chunk_at(s, r, c, &k);
		if (k.dict) {
			return true;
		}
	}
	return false;
}

/* Each column's buffers, sized from the plan's chunks; a run's allocations are charged as
 * the arena clears them, so only what the chunks can use: dictionary storage and codes for
 * a column with a dictionary page, and no scratch for a string column without one (its
 * PLAIN pages decompress into its heap). */
static int alloc_columns(struct ss_tasklet_ctx *ctx, struct pq_scan *s)
{
	uint32_t max_rows = 0, max_bytes = 0, max_unc = 0;

	for (uint32_t r = 0; r < s->nrg; r++) {
		uint64_t bytes = 0;

		max_rows = SS_MAX(max_rows, rg_rows(s, r));
		for (uint32_t c = 0; c < s->ncols; c++) {
			struct pq_chunk k;

			chunk_at(s, r, c, &k);
			bytes += k.length;
			if (s->col[c].type != SS_PQ_BYTE_ARRAY || s->col[c].has_dict) {
				max_unc = SS_MAX(max_unc, k.uncompressed);
			}
		}
		if (bytes > UINT32_MAX) {
			return -SS_ENOMEM;
		}
		max_bytes = SS_MAX(max_bytes, (uint32_t)bytes);
	}
	s->scratch_len = max_unc;
	s->scratch = ss_tasklet_alloc(ctx, max_unc);
	s->sel = ss_tasklet_alloc(ctx, max_rows / 8 + 1);
	if (!s->scratch || !s->sel) {
		return -SS_ENOMEM;
	}
	for (uint32_t c = 0; c < s->ncols; c++) {
		struct pq_col *pc = &s->col[c];
		uint32_t chunk_max = 0, unc_max = 0;
		uint32_t w = ss_pq_value_width(pc->type);

		for (uint32_t r = 0; r < s->nrg; r++) {
			struct pq_chunk k;

			chunk_at(s, r, c, &k);
			chunk_max = SS_MAX(chunk_max, k.length);
			unc_max = SS_MAX(unc_max, k.uncompressed);
		}
		/* values up to 8 bytes a row, codes 4 */
		if ((uint64_t)max_rows * 8 > UINT32_MAX) {
			return -SS_ENOMEM;
		}
		pc->buf = ss_tasklet_alloc(ctx, chunk_max);
		pc->vec.valid = ss_tasklet_alloc(ctx, max_rows / 8 + 1);
		pc->vec.cap = max_rows;
		if (!pc->buf || !pc->vec.valid) {
			return -SS_ENOMEM;
		}
		if (s->by_code && c == s->key1) {
			/* counted, not decoded: values only for a page that is not
			 * dictionary-encoded, allocated when one comes (alloc_groups leaves
			 * room), no codes */
			pc->dict.data = ss_tasklet_alloc(ctx, unc_max);
			pc->dict.data_cap = unc_max;
			if (!pc->dict.data) {
				return -SS_ENOMEM;
			}
			continue;
		}
		pc->vec.values = ss_tasklet_alloc(ctx, max_rows * w);
		if (!pc->vec.values) {
			return -SS_ENOMEM;
		}
		if (pc->type == SS_PQ_BYTE_ARRAY) {
			/* its PLAIN pages whole, their values pointing into them */
			pc->vec.heap = ss_tasklet_alloc(ctx, unc_max);
			pc->vec.heap_cap = unc_max;
			if (!pc->vec.heap) {
				return -SS_ENOMEM;
			}
		}
		if (!pc->has_dict) {
			continue;
		}
		pc->dict.data = ss_tasklet_alloc(ctx, unc_max);
		pc->dict.data_cap = unc_max;
		pc->vec.codes = ss_tasklet_alloc(ctx, max_rows * 4);
		if (!pc->dict.data || !pc->vec.codes) {
			return -SS_ENOMEM;
		}
		if ((int)c == s->tree_col) {
			/* an entry takes at least its 4-byte length (BYTE_ARRAY) or its width */
			pc->verdict_cap = unc_max / (w < 4 ? w : 4) + 1;
			pc->verdict = ss_tasklet_alloc(ctx, pc->verdict_cap);
			if (!pc->verdict) {
				return -SS_ENOMEM;
			}
		}
		if (pc->type == SS_PQ_BYTE_ARRAY) {
			/* every dictionary entry has a 4-byte length before its bytes */
			pc->dict.entries_cap = unc_max / 4 + 1;
			pc->dict.entries = ss_tasklet_alloc(ctx, pc->dict.entries_cap *
								(uint32_t)sizeof(struct ss_pq_bytes));
			if (!pc->dict.entries) {
				return -SS_ENOMEM;
			}
		}
	}
	return 0;
}

/* COUNT by one key with a dictionary page and no WHERE: the key's dictionary-encoded pages
 * are counted per index straight off their runs (ss_pq_count_page), each index's count folded
 * into the group table once a row group; no row decoded, no row looked up. A row group's
 * dictionary holds at most uncompressed / width entries (as verdict). ROW_EVAL aggregates
 * every row instead, to measure what it saves. */
static bool count_by_code(const struct pq_scan *s)
{
	return s->mode == SS_BT_PQ_AGGREGATE && s->ops == SS_BT_AGG_COUNT && s->nkeys == 1 &&
	       !s->where.nnodes && s->col[s->key1].has_dict && !(s->flags & SS_BT_PQ_ROW_EVAL);
}

static int alloc_by_code(struct ss_tasklet_ctx *ctx, struct pq_scan *s)
{
	uint32_t unc_max = 0;

	if (!s->by_code) {
		return 0;
	}
	for (uint32_t r = 0; r < s->nrg; r++) {
		struct pq_chunk k;

		chunk_at(s, r, s->key1, &k);
		unc_max = SS_MAX(unc_max, k.uncompressed);
	}
	s->code_cap = unc_max / ss_pq_value_width(s->col[s->key1].type) + 1;
	s->code_count = ss_tasklet_alloc(ctx, s->code_cap * 4);
	return s->code_count ? 0 : -SS_ENOMEM;
}

/* COUNT by two keys, each with a dictionary page, and no WHERE: both keys' chunks are
 * decoded to codes as for the row path, then each row counted in a cell of its pair of codes
 * instead of looked up in the group table; the cells with rows folded into the group table
 * once a row group, in the order of their first rows (the row path's order). A row group
 * with a key page that is not dictionary-encoded, or whose dictionaries' product passes
 * pair_cap, goes a row at a time. ROW_EVAL aggregates every row instead. */
static bool count_by_pairs(const struct pq_scan *s)
{
	return s->mode == SS_BT_PQ_AGGREGATE && s->ops == SS_BT_AGG_COUNT && s->nkeys == 2 &&
	       !s->where.nnodes && s->col[s->key1].has_dict && s->col[s->key2].has_dict &&
	       !(s->flags & SS_BT_PQ_ROW_EVAL);
}

/* The cells are allocated by the first row group whose dictionaries need them, as many as
 * their product (a cell a pair it could hold, not a cell a row), again should a later row
 * group's product be larger. */
static void set_pair_cap(struct pq_scan *s)
{
	uint32_t max_rows = 0;

	for (uint32_t r = 0; r < s->nrg; r++) {
		max_rows = SS_MAX(max_rows, rg_rows(s, r));
	}
	s->pair_cap = SS_MIN(max_rows, PQS_PAIR_CELLS_MAX);
}

/* 0, or -ENOMEM: the budget has no room for `cells` (the row group goes a row at a time) */
static int alloc_pairs(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t cells)
{
	uint32_t *count;
	uint16_t *order;

	if (cells <= s->pair_cells) {
		return 0;
	}
	count = ss_tasklet_alloc(ctx, cells * 4);
	order = ss_tasklet_alloc(ctx, cells * 2);
	if (!count || !order) {
		return -SS_ENOMEM;
	}
	s->pair_count = count;
	s->pair_order = order;
	s->pair_cells = cells;
	return 0;
}

/* The by_code key's values, for its first page that is not dictionary-encoded. */
static int alloc_key_values(struct ss_tasklet_ctx *ctx, struct pq_col *pc)
{
	pc->vec.values = ss_tasklet_alloc(ctx, pc->vec.cap * ss_pq_value_width(pc->type));
	return pc->vec.values ? 0 : -SS_ENOMEM;
}

static int check_chunks(struct pq_scan *s)
{
	for (uint32_t r = 0; r < s->nrg; r++) {
		uint32_t rows = rg_rows(s, r);

		if (!rows || ss_get_le32(s->rg + (size_t)r * P_RG +
					 offsetof(struct ss_bt_pq_rowgroup, reserved))) {
			return -SS_EINVAL;
		}
		for (uint32_t c = 0; c < s->ncols; c++) {
			const uint8_t *p = s->chunks + ((size_t)r * s->ncols + c) * P_CHUNK;
			uint64_t dict = ss_get_le64(p + offsetof(struct ss_bt_pq_chunk, dict_offset));
			struct pq_chunk k;

			chunk_at(s, r, c, &k);
			if (!k.length || k.offset + k.length < k.offset || k.values != rows ||
			    (dict && dict != k.offset) || p[29] || p[30] || p[31]) {
				return -SS_EINVAL;
			}
			if (k.codec != SS_PQ_UNCOMPRESSED && k.codec != SS_PQ_SNAPPY) {
				return -SS_ENOSYS;
			}
		}
	}
	return 0;
}

static int check_agg(struct pq_scan *s)
{
	const struct ss_layout *l = &s->layout;

	if (s->nkeys > 2 || !s->ops || (s->ops & ~(SS_BT_AGG_COUNT | SS_BT_AGG_SUM |
						    SS_BT_AGG_MIN | SS_BT_AGG_MAX)) ||
	    (s->nkeys >= 1 && !bt_field_is_int(l, s->key1)) ||
	    (s->nkeys >= 2 && !bt_field_is_int(l, s->key2)) ||
	    (s->ops != SS_BT_AGG_COUNT && !bt_field_is_int(l, s->value)) ||
	    /* a float SUM is the host's: no floating point in the drive's row path */
	    ((s->ops & SS_BT_AGG_SUM) && bt_field_is_float(l, s->value))) {
		return -SS_EINVAL;
	}
	if (s->nkeys >= 1) {
		s->col[s->key1].wanted = true;
	}
	if (s->nkeys >= 2) {
		s->col[s->key2].wanted = true;
	}
	if (s->ops != SS_BT_AGG_COUNT) {
		s->col[s->value].wanted = true;
		s->value_signed = bt_field_is_signed(l, s->value);
	}
	return 0;
}

/* TOPN: integer (or float) keys and value, as top-n's; no strings in the payload. */
static int check_topn(struct pq_scan *s)
{
	const struct ss_layout *l = &s->layout;

	if (s->nkeys > 2 || (s->nkeys >= 1 && !bt_field_is_int(l, s->key1)) ||
	    (s->nkeys >= 2 && !bt_field_is_int(l, s->key2)) || !bt_field_is_int(l, s->value)) {
		return -SS_EINVAL;
	}
	for (uint32_t j = 0; j < s->nproj; j++) {
		if (s->col[s->proj[j]].type == SS_PQ_BYTE_ARRAY) {
			return -SS_EINVAL;
		}
	}
	if (s->nkeys >= 1) {
		s->col[s->key1].wanted = true;
	}
	if (s->nkeys >= 2) {
		s->col[s->key2].wanted = true;
	}
	s->col[s->value].wanted = true;
	s->tn.smallest = (s->flags & SS_BT_PQ_SMALLEST) != 0;
	s->tn.sgn = bt_field_is_signed(l, s->value);
	return 0;
}

/* How many distinct values key column c can hold over the run: a chunk stores each of its
 * values at least once PLAIN, in its dictionary page or its data pages, at the column's
 * width (a BOOLEAN has two). A plan that understates the sizes costs spills, not answers. */
static uint64_t key_values(const struct pq_scan *s, uint32_t c)
{
	uint32_t w = ss_pq_value_width(s->col[c].type);
	uint64_t n = 0;

	for (uint32_t r = 0; r < s->nrg; r++) {
		struct pq_chunk k;

		chunk_at(s, r, c, &k);
		n += s->col[c].type == SS_PQ_BOOLEAN ? 2 : k.uncompressed / w;
	}
	return n;
}

/* The group table, from what the columns left of the budget, and no larger than the run can
 * fill: no more groups than rows, nor than the keys' values, nor than `fill` (a table sized
 * to the budget, then to the rows, was allocated, and charged, at every run: the connector
 * runs a row group at a time, whose 1,024 rows of a four-value key took a 1,024-group
 * table). */
static int alloc_groups(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint64_t fill)
{
	uint32_t cap = bt_groups_fit(ctx, 4 * 8, 0);
	uint64_t rows = 0, keys = 1;

	if (s->by_code) {
		/* room left for the key's values, should a page need them */
		const struct pq_col *kc = &s->col[s->key1];
		uint32_t room = SS_DIV_ROUND_UP(kc->vec.cap * ss_pq_value_width(kc->type) + 8,
						4 * 8 + BT_GROUPS_BYTES_PER_GROUP);

		cap = cap > room ? cap - room : 1;
	}

	for (uint32_t r = 0; r < s->nrg && rows < cap; r++) {
		rows += rg_rows(s, r);
	}
	if (s->nkeys >= 1) {
		keys = key_values(s, s->key1);
	}
	if (s->nkeys >= 2) {
		keys *= key_values(s, s->key2);   /* each below 2^33: no overflow */
	}
	rows = SS_MIN(SS_MIN(rows, keys), fill);
	if (rows < cap) {
		cap = rows ? (uint32_t)rows : 1;
	}

	if (bt_groups_init(ctx, &s->g, cap)) {
		return -SS_ENOMEM;
	}
	s->count = ss_tasklet_alloc(ctx, cap * 8);
	s->sum = ss_tasklet_alloc(ctx, cap * 8);
	s->min = ss_tasklet_alloc(ctx, cap * 8);
	s->max = ss_tasklet_alloc(ctx, cap * 8);
	return s->max ? 0 : -SS_ENOMEM;
}

static int pq_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	struct pq_scan *s;
	uint32_t need, tree_len;
	int rc;

	if (len < P_HDR) {
		return -SS_EINVAL;
	}
	s = ss_tasklet_alloc(ctx, sizeof(*s));
	if (!s) {
		return -SS_ENOMEM;
	}
	ss_tasklet_set_state(ctx, s);
	s->ncols = p[offsetof(struct ss_bt_pq_params, ncols)];
	s->mode = p[offsetof(struct ss_bt_pq_params, mode)];
	s->nproj = p[offsetof(struct ss_bt_pq_params, nproj)];
	s->nkeys = p[offsetof(struct ss_bt_pq_params, nkeys)];
	s->nrg = ss_get_le16(p + offsetof(struct ss_bt_pq_params, nrg));
	tree_len = ss_get_le16(p + offsetof(struct ss_bt_pq_params, tree_len));
	s->limit = ss_get_le32(p + offsetof(struct ss_bt_pq_params, limit));
	s->key1 = p[offsetof(struct ss_bt_pq_params, key1)];
	s->key2 = p[offsetof(struct ss_bt_pq_params, key2)];
	s->value = p[offsetof(struct ss_bt_pq_params, value)];
	s->ops = p[offsetof(struct ss_bt_pq_params, ops)];
	s->flags = p[offsetof(struct ss_bt_pq_params, flags)];
	for (uint32_t i = 0; i < sizeof(((struct ss_bt_pq_params *)0)->reserved); i++) {
		if (p[offsetof(struct ss_bt_pq_params, reserved) + i]) {
			return -SS_EINVAL;
		}
	}
	if (!s->ncols || s->ncols > SS_BT_PQ_MAX_COLS || !s->nrg || s->mode > SS_BT_PQ_TOPN ||
	    (s->flags & ~(SS_BT_PQ_ROW_EVAL | SS_BT_PQ_EAGER | SS_BT_PQ_SMALLEST)) ||
	    ((s->flags & SS_BT_PQ_SMALLEST) && s->mode != SS_BT_PQ_TOPN) ||
	    (s->mode == SS_BT_PQ_ROWS && !s->nproj) || s->nproj > s->ncols ||
	    ((s->mode == SS_BT_PQ_COUNT || s->mode == SS_BT_PQ_AGGREGATE) && s->nproj) ||
	    (s->mode < SS_BT_PQ_AGGREGATE && (s->nkeys || s->key1 || s->key2 || s->value || s->ops)) ||
	    (s->mode == SS_BT_PQ_AGGREGATE && s->limit) ||
	    (s->mode == SS_BT_PQ_TOPN && (s->ops || !s->limit || s->limit > SS_BT_TOPN_MAX_N))) {
		return -SS_EINVAL;
	}
	need = P_HDR + s->ncols * P_COL + s->nrg * P_RG + (uint32_t)s->nrg * s->ncols * P_CHUNK +
	       s->nproj + tree_len;
	if (len != need) {
		return -SS_EINVAL;
	}
	s->layout.kind = SS_LAYOUT_FIXED;
	s->layout.nfields = s->ncols;
	for (uint32_t c = 0; c < s->ncols; c++) {
		rc = check_column(p + P_HDR + c * P_COL, &s->col[c]);
		if (rc) {
			return rc;
		}
		s->layout.fields[c].type = field_type(&s->col[c]);
		s->layout.fields[c].width = p[P_HDR + c * P_COL + offsetof(struct ss_bt_pq_column, scale)];
	}
	s->rg = p + P_HDR + s->ncols * P_COL;
	s->chunks = s->rg + s->nrg * P_RG;
	s->proj = s->chunks + (size_t)s->nrg * s->ncols * P_CHUNK;
	rc = check_chunks(s);
	if (rc) {
		return rc;
	}
	s->row_max = (s->nproj + 7) / 8;
	for (uint32_t i = 0; i < s->nproj; i++) {
		if (s->proj[i] >= s->ncols) {
			return -SS_EINVAL;
		}
		s->col[s->proj[i]].wanted = true;
		s->row_max += 8;
	}
	rc = bt_pred_init(ctx, &s->layout, s->proj + s->nproj, tree_len, &s->where);
	if (rc) {
		return rc;
	}
	mark_tree(s);
	if (s->mode == SS_BT_PQ_AGGREGATE) {
		rc = check_agg(s);
	} else if (s->mode == SS_BT_PQ_TOPN) {
		rc = check_topn(s);
	}
	if (rc) {
		return rc;
	}
	for (uint32_t c = 0; c < s->ncols; c++) {
		s->col[c].has_dict = has_dict(s, c);
	}
	s->by_code = count_by_code(s);
	s->by_pairs = count_by_pairs(s);
	PQS_MARK(ctx, PQS_ALLOC_COLUMNS);
	rc = alloc_columns(ctx, s);
	if (rc == 0) {
		rc = alloc_by_code(ctx, s);
	}
	if (s->by_pairs) {
		set_pair_cap(s);
	}
	PQS_MARK(ctx, PQS_OTHER);
	if (rc) {
		return rc;
	}
	s->row = ss_tasklet_alloc(ctx, s->row_max);
	if (!s->row) {
		return -SS_ENOMEM;
	}
	PQS_MARK(ctx, PQS_ALLOC_GROUPS);
	if (s->mode == SS_BT_PQ_TOPN) {
		/* an entry's payload is its projected row, whose strings are refused */
		return bt_topn_init(ctx, &s->tn, s->limit, s->row_max, 0);
	}
	/* by_pairs: once the first row group's pairs are counted, to as many groups as they
	 * and the later row groups' rows can fill */
	return s->mode == SS_BT_PQ_AGGREGATE && !s->by_pairs ? alloc_groups(ctx, s, UINT64_MAX) : 0;
}

/* ---- charging the decoder's work --------------------------------------------------------- */

static int charge(struct ss_tasklet_ctx *ctx, struct pq_scan *s, const struct ss_pq_stats *st)
{
	uint64_t bytes = st->header_bytes + st->bytes_in + st->bytes_decompressed + st->bytes_copied;
	uint64_t vals = st->levels_decoded + st->values_decoded + st->dict_lookups;
	/* a run or bit-packed value counted: its header or bits decoded, one counter updated */
	uint64_t counted = st->runs + st->packed_values;
	uint64_t insn = bytes * PQS_INSN_PER_BYTE + (vals + counted) * PQS_INSN_PER_VALUE +
			st->values_skipped * PQS_INSN_PER_SKIP;

	s->stats.pages += st->pages;
	s->stats.header_bytes += st->header_bytes;
	s->stats.bytes_in += st->bytes_in;
	s->stats.bytes_decompressed += st->bytes_decompressed;
	s->stats.levels_decoded += st->levels_decoded;
	s->stats.values_decoded += st->values_decoded;
	s->stats.dict_lookups += st->dict_lookups;
	s->stats.bytes_copied += st->bytes_copied;
	s->stats.runs += st->runs;
	s->stats.packed_values += st->packed_values;
	s->stats.values_skipped += st->values_skipped;
	ss_tasklet_dram(ctx, (uint32_t)SS_MIN(SS_DIV_ROUND_UP(bytes, PQS_BYTES_PER_DRAM) + counted,
					      UINT32_MAX));
	return ss_tasklet_step(ctx, (uint32_t)SS_MIN(insn, UINT32_MAX));
}

/* ---- decoding a column chunk ------------------------------------------------------------- */

static int decode_errno(int rc)
{
	switch (rc) {
	case -SS_EBADMSG:
		return -SS_EILSEQ;
	case -SS_ENOSYS:
		return -SS_ENOSYS;
	default:
		/* a buffer sized from the plan's sizes too small, or arguments that disagree:
		 * the plan lied about the chunk */
		return -SS_ENODATA;
	}
}

/* Whether a data page of `n` rows from row `first` holds a match. */
static bool page_matches(const struct pq_scan *s, uint32_t first, uint32_t n)
{
	for (uint32_t i = first; i < first + n; i++) {
		if (s->sel[i / 8] >> (i % 8) & 1) {
			return true;
		}
	}
	return false;
}

/* n rows of the vector left NULL: a page skipped or counted. Their valid bits cleared a
 * byte at a time between the partial bytes at either end: a word written per 32 rows. */
static void skip_rows(struct ss_tasklet_ctx *ctx, struct pq_col *pc, uint32_t n)
{
	uint32_t i = pc->vec.rows, end = pc->vec.rows + n;

	for (; i < end && i % 8; i++) {
		pc->vec.valid[i / 8] &= (uint8_t)~(1u << (i % 8));
	}
	if (end / 8 > i / 8) {
		ss_memset(pc->vec.valid + i / 8, 0, end / 8 - i / 8);
		i = end / 8 * 8;
	}
	for (; i < end; i++) {
		pc->vec.valid[i / 8] &= (uint8_t)~(1u << (i % 8));
	}
	pc->vec.rows = end;
	ss_tasklet_dram(ctx, SS_DIV_ROUND_UP(n, 32) + 2);
}

static bool dict_encoded(const struct ss_pq_page_header *h)
{
	return h->type == SS_PQ_DATA_PAGE && (h->encoding == SS_PQ_ENC_PLAIN_DICTIONARY ||
					      h->encoding == SS_PQ_ENC_RLE_DICTIONARY);
}

/* Decode column c of row group rg from its gathered bytes. `late`: skip the data pages that
 * hold no match (their rows stay NULL and are never read). The key of a by_code run: its
 * dictionary-encoded pages counted per index (their rows left NULL), its others decoded. */
static int decode_chunk(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t rg, uint32_t c,
			bool late)
{
	struct pq_col *pc = &s->col[c];
	struct ss_pq_column desc = { .type = pc->type, .max_def_level = pc->max_def };
	struct ss_pq_reader r;
	struct pq_chunk k;
	size_t pos = 0;
	bool seen_data = false;
	int rc, crc = 0;

	chunk_at(s, rg, c, &k);
	desc.codec = k.codec;
	pc->vec.rows = 0;
	pc->vec.heap_used = 0;
	pc->vec.sel = late ? s->sel : NULL;   /* the rows not matched are not decoded */
	pc->dict.count = 0;
	pc->dict.data_used = 0;
	pc->plain = false;
	rc = ss_pq_reader_init(&r, &desc, &pc->dict);
	if (rc) {
		return decode_errno(rc);
	}
	while (pos < k.length && rc == 0) {
		struct ss_pq_page_header h;
		size_t hl;

		rc = ss_pq_read_page_header(pc->buf + pos, k.length - pos, &h, &hl, &r.err);
		if (rc) {
			break;
		}
		r.stats.header_bytes += hl;
		if (hl + h.compressed_size > k.length - pos) {
			rc = -SS_ENODATA;   /* the page runs past the plan's chunk length */
			break;
		}
		if (h.type == SS_PQ_DICTIONARY_PAGE && (!k.dict || seen_data)) {
			rc = -SS_ENODATA;   /* the plan said the chunk has no dictionary page */
			break;
		}
		if (h.type == SS_PQ_DATA_PAGE) {
			seen_data = true;
		}
		if (late && h.type == SS_PQ_DATA_PAGE &&
		    (h.num_values > pc->vec.cap - pc->vec.rows ||
		     !page_matches(s, pc->vec.rows, h.num_values))) {
			if (h.num_values > pc->vec.cap - pc->vec.rows) {
				rc = -SS_ENODATA;
				break;
			}
			skip_rows(ctx, pc, h.num_values);
		} else if (s->by_code && c == s->key1 && dict_encoded(&h)) {
			uint32_t nonnull = 0;

			if (h.num_values > pc->vec.cap - pc->vec.rows ||
			    pc->dict.count > s->code_cap) {
				rc = -SS_ENODATA;   /* more rows or entries than the plan's sizes */
				break;
			}
			rc = ss_pq_count_page(&r, &h, pc->buf + pos + hl, h.compressed_size,
					      s->scratch, s->scratch_len, s->code_count, &nonnull);
			if (rc == 0) {
				skip_rows(ctx, pc, h.num_values);
				s->counted += h.num_values;
			}
		} else {
			if (h.type == SS_PQ_DATA_PAGE && !pc->vec.values) {
				crc = alloc_key_values(ctx, pc);
				if (crc) {
					break;
				}
			}
			pc->plain = pc->plain || (h.type == SS_PQ_DATA_PAGE && !dict_encoded(&h));
			rc = ss_pq_decode_page(&r, &h, pc->buf + pos + hl, h.compressed_size, s->scratch,
					       s->scratch_len, &pc->vec);
		}
		pos += hl + h.compressed_size;
	}
	if (crc) {
		charge(ctx, s, &r.stats);
		return crc;   /* no budget left for the key's values */
	}
	if (rc == 0 && pc->vec.rows != k.values) {
		rc = -SS_ENODATA;   /* the chunk's rows are not the row group's */
	}
	crc = charge(ctx, s, &r.stats);
	return rc ? decode_errno(rc) : crc;
}

/* ---- a row's fields, as bt_pred_eval_row and the outputs read them ----------------------- */

struct pq_row {
	struct pq_scan *s;
	uint32_t i;
	bool entry;                   /* i is an entry of the tree column's dictionary */
};

static bool is_valid(const struct pq_col *pc, uint32_t i)
{
	return pc->vec.valid[i / 8] >> (i % 8) & 1;
}

/* Where a non-NULL value is: row i's slot in the vector, or (by its code, or `entry`) the
 * dictionary's; *heap: where a BYTE_ARRAY's bytes are. */
static const uint8_t *value_at(const struct pq_col *pc, uint32_t i, bool entry,
			       const uint8_t **heap)
{
	uint32_t w = ss_pq_value_width(pc->type);

	if (!entry && pc->vec.codes && pc->vec.codes[i] != SS_PQ_NO_CODE) {
		i = pc->vec.codes[i];
		entry = true;
	}
	if (entry) {
		*heap = pc->dict.data;
		return pc->type == SS_PQ_BYTE_ARRAY ? (const uint8_t *)&pc->dict.entries[i] :
		       pc->dict.data + (size_t)i * w;
	}
	*heap = pc->vec.heap;
	return (const uint8_t *)pc->vec.values + (size_t)i * w;
}

/* The value as the filter encoding has it: integers sign-extended, TIMESTAMP in
 * microseconds, floats as their order key. */
static uint64_t col_u64(const struct pq_col *pc, uint32_t i, bool entry)
{
	const uint8_t *heap;
	const uint8_t *v = value_at(pc, i, entry, &heap);
	uint32_t w32;
	uint64_t w64;

	switch (pc->type) {
	case SS_PQ_BOOLEAN:
		return v[0];
	case SS_PQ_INT32:
		ss_memcpy(&w32, v, 4);
		return (uint64_t)(int64_t)(int32_t)w32;
	case SS_PQ_FLOAT:
		ss_memcpy(&w32, v, 4);
		return ss_f32_key(w32);
	case SS_PQ_DOUBLE:
		ss_memcpy(&w64, v, 8);
		return ss_f64_key(w64);
	default:
		ss_memcpy(&w64, v, 8);
		return pc->logical == SS_BT_PQ_L_TS_MILLIS ? w64 * 1000u : w64;
	}
}

static const uint8_t *col_bytes(const struct pq_col *pc, uint32_t i, bool entry, uint32_t *len)
{
	const uint8_t *heap;
	struct ss_pq_bytes b;

	ss_memcpy(&b, value_at(pc, i, entry, &heap), sizeof(b));
	*len = b.len;
	return heap + b.off;
}

/* 1 when the row's value is read through its code (one more load), else 0 */
static uint32_t via_code(const struct pq_col *pc, const struct pq_row *r)
{
	return !r->entry && pc->vec.codes && pc->vec.codes[r->i] != SS_PQ_NO_CODE;
}

static uint64_t row_u64(struct ss_tasklet_ctx *ctx, const void *row, unsigned field, int *ok)
{
	const struct pq_row *r = row;
	const struct pq_col *pc = &r->s->col[field];

	ss_tasklet_dram(ctx, 1 + via_code(pc, r));
	if (!r->entry && !is_valid(pc, r->i)) {
		if (ok) {
			*ok = 0;
		}
		return 0;
	}
	if (ok) {
		*ok = 1;
	}
	return col_u64(pc, r->i, r->entry);
}

static const uint8_t *row_bytes(struct ss_tasklet_ctx *ctx, const void *row, unsigned field,
				uint32_t *len)
{
	const struct pq_row *r = row;
	const struct pq_col *pc = &r->s->col[field];

	ss_tasklet_dram(ctx, 2 + via_code(pc, r));
	if (!r->entry && !is_valid(pc, r->i)) {
		*len = 0;
		return NULL;
	}
	return col_bytes(pc, r->i, r->entry, len);
}

static const struct bt_row_src pq_rows = { row_u64, row_bytes };

/* ---- outputs ----------------------------------------------------------------------------- */

/* One projected row (README: a NULL bitmap, then each non-NULL column). */
static int emit_row(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t i)
{
	uint32_t len = (s->nproj + 7) / 8;
	int rc;

	ss_memset(s->row, 0, len);
	for (uint32_t j = 0; j < s->nproj; j++) {
		if (!is_valid(&s->col[s->proj[j]], i)) {
			s->row[j / 8] |= (uint8_t)(1u << (j % 8));
		}
	}
	for (uint32_t j = 0; j < s->nproj; j++) {
		const struct pq_col *pc = &s->col[s->proj[j]];
		const uint8_t *b;
		uint32_t blen;

		if (!is_valid(pc, i)) {
			continue;
		}
		if (pc->type != SS_PQ_BYTE_ARRAY) {
			ss_put_le64(s->row + len, col_u64(pc, i, false));
			len += 8;
			continue;
		}
		/* a string goes out in pieces: the row buffer holds what comes before it */
		b = col_bytes(pc, i, false, &blen);
		ss_put_le32(s->row + len, blen);
		len += 4;
		rc = ss_tasklet_emit(ctx, s->row, len);
		if (rc == 0 && blen) {
			rc = ss_tasklet_emit(ctx, b, blen);
		}
		if (rc) {
			return rc;
		}
		ss_tasklet_dram(ctx, SS_DIV_ROUND_UP(len + blen, 4));
		len = 0;
	}
	s->items++;
	if (!len) {
		return 0;
	}
	ss_tasklet_dram(ctx, SS_DIV_ROUND_UP(len, 4));
	return ss_tasklet_emit(ctx, s->row, len);
}

static int emit_groups(struct ss_tasklet_ctx *ctx, struct pq_scan *s)
{
	uint8_t it[sizeof(struct ss_bt_agg_item)];

	for (uint32_t i = 0; i < s->g.n; i++) {
		int rc;

		ss_put_le64(it + offsetof(struct ss_bt_agg_item, key1), s->g.k1[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, key2), s->g.k2[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, count), s->count[i]);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, sum),
			    s->ops & SS_BT_AGG_SUM ? s->sum[i] : 0);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, min),
			    s->ops & SS_BT_AGG_MIN ? s->min[i] : 0);
		ss_put_le64(it + offsetof(struct ss_bt_agg_item, max),
			    s->ops & SS_BT_AGG_MAX ? s->max[i] : 0);
		ss_tasklet_dram(ctx, 12);
		rc = ss_tasklet_emit(ctx, it, sizeof(it));
		if (rc) {
			return rc;
		}
		s->items++;
	}
	return 0;
}

static bool less(bool sgn, uint64_t x, uint64_t y)
{
	return sgn ? (int64_t)x < (int64_t)y : x < y;
}

/* n rows of group (k1, k2) whose value is v (COUNT alone: n rows at once). */
static int fold(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint64_t k1, uint64_t k2,
		uint64_t v, uint32_t n)
{
	bool fresh;
	int64_t slot;
	int rc;

	slot = bt_groups_get(ctx, &s->g, k1, k2, &fresh);
	if (slot == -SS_ENOSPC) {
		rc = emit_groups(ctx, s);
		if (rc) {
			return rc;
		}
		bt_groups_clear(ctx, &s->g);
		s->spills++;
		slot = bt_groups_get(ctx, &s->g, k1, k2, &fresh);
	}
	if (slot < 0) {
		return (int)slot;
	}
	if (fresh) {
		s->count[slot] = 0;
		s->sum[slot] = 0;
		s->min[slot] = v;
		s->max[slot] = v;
	}
	s->count[slot] += n;
	s->sum[slot] += v * n;
	if (less(s->value_signed, v, s->min[slot])) {
		s->min[slot] = v;
	}
	if (less(s->value_signed, s->max[slot], v)) {
		s->max[slot] = v;
	}
	ss_tasklet_dram(ctx, 8);
	return ss_tasklet_step(ctx, 4);
}

/* As group-aggregate: a row with a NULL key, or a NULL value when the value is read, is
 * left out. */
static int aggregate(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t i)
{
	struct pq_row row = { s, i, false };
	uint64_t k1 = 0, k2 = 0, v = 0;
	int ok = 1, ok2 = 1, ok3 = 1;

	if (s->nkeys >= 1) {
		k1 = row_u64(ctx, &row, s->key1, &ok);
	}
	if (s->nkeys >= 2) {
		k2 = row_u64(ctx, &row, s->key2, &ok2);
	}
	if (s->ops != SS_BT_AGG_COUNT) {
		v = row_u64(ctx, &row, s->value, &ok3);
	}
	if (!ok || !ok2 || !ok3) {
		return 0;
	}
	return fold(ctx, s, k1, k2, v, 1);
}

/* TOPN: a matching row offered to its group's list, as top-n's records (a NULL key or value
 * leaves it out); its payload, the projected row, written only when it enters. */
struct topn_row {
	struct pq_scan *s;
	uint32_t i;
};

static void topn_capture(struct ss_tasklet_ctx *ctx, void *arg, struct bt_topn_ent *e,
			 uint8_t *dst)
{
	const struct topn_row *r = arg;
	const struct pq_scan *s = r->s;
	uint32_t len = (s->nproj + 7) / 8;

	ss_memset(dst, 0, len);
	for (uint32_t j = 0; j < s->nproj; j++) {
		const struct pq_col *pc = &s->col[s->proj[j]];

		if (!is_valid(pc, r->i)) {
			dst[j / 8] |= (uint8_t)(1u << (j % 8));
			continue;
		}
		ss_put_le64(dst + len, col_u64(pc, r->i, false));
		len += 8;
	}
	ss_tasklet_dram(ctx, 2 * SS_DIV_ROUND_UP(len, 4));
	e->len = len;
}

static int topn(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t i, uint64_t seq)
{
	struct pq_row row = { s, i, false };
	struct topn_row tr = { s, i };
	struct bt_topn_ent e = { .seq = seq };
	uint64_t k1 = 0, k2 = 0;
	int ok = 1, ok2 = 1, ok3 = 1;

	if (s->nkeys >= 1) {
		k1 = row_u64(ctx, &row, s->key1, &ok);
	}
	if (s->nkeys >= 2) {
		k2 = row_u64(ctx, &row, s->key2, &ok2);
	}
	e.value = row_u64(ctx, &row, s->value, &ok3);
	if (!ok || !ok2 || !ok3) {
		return 0;
	}
	return bt_topn_add(ctx, &s->tn, k1, k2, &e, topn_capture, &tr);
}

/* ---- a whole row group ------------------------------------------------------------------- */

/* A tree that reads one column, on each entry of that column's dictionary: what its rows
 * with a code are then looked up in. */
static int eval_entries(struct ss_tasklet_ctx *ctx, struct pq_scan *s)
{
	struct pq_col *pc;

	if (!s->per_entry) {
		return 0;
	}
	pc = &s->col[s->tree_col];
	if (pc->dict.count > pc->verdict_cap) {
		return -SS_ENODATA;   /* more entries than the plan's sizes allow */
	}
	for (uint32_t e = 0; e < pc->dict.count; e++) {
		struct pq_row row = { s, e, true };
		int rc = bt_pred_eval_row(ctx, &s->where, &pq_rows, &row);

		if (rc < 0) {
			return rc;
		}
		pc->verdict[e] = (uint8_t)rc;
	}
	return 0;
}

/* A by_code row group's counts into the group table, each dictionary entry with rows once,
 * in dictionary order (the writers' order of first appearance); the counts zeroed. */
static int fold_codes(struct ss_tasklet_ctx *ctx, struct pq_scan *s)
{
	const struct pq_col *pc = &s->col[s->key1];

	ss_tasklet_dram(ctx, 2 * pc->dict.count);   /* each count read, and zeroed */
	if (ss_tasklet_step(ctx, pc->dict.count)) {
		return -SS_ETIME;
	}
	for (uint32_t e = 0; e < pc->dict.count; e++) {
		uint32_t n = s->code_count[e];
		int rc;

		if (!n) {
			continue;
		}
		s->code_count[e] = 0;
		ss_tasklet_dram(ctx, 1);                   /* the entry's value */
		rc = fold(ctx, s, col_u64(pc, e, true), 0, 0, n);
		if (rc) {
			return rc;
		}
	}
	return 0;
}

/* A by_pairs row group's rows counted per pair of codes, a row with a NULL key left out (as
 * aggregate), each code checked against its dictionary's size before it indexes a cell.
 * \return the cells with rows (in pair_order), or 1 + pair_cap when the row group goes a row
 * at a time, or a negative errno. */
static int64_t count_pairs(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t rows)
{
	const struct pq_col *a = &s->col[s->key1], *b = &s->col[s->key2];
	uint32_t d1 = a->dict.count, d2 = b->dict.count, n = 0, counted = 0;

	if (a->plain || b->plain || (uint64_t)d1 * d2 > s->pair_cap ||
	    alloc_pairs(ctx, s, d1 * d2)) {
		return 1 + (int64_t)s->pair_cap;
	}
	for (uint32_t i = 0; i < rows; i++) {
		uint32_t c1, c2, cell;

		if (!is_valid(a, i) || !is_valid(b, i)) {
			continue;
		}
		c1 = a->vec.codes[i];
		c2 = b->vec.codes[i];
		if (c1 >= d1 || c2 >= d2) {
			return -SS_EILSEQ;   /* a non-NULL key without its dictionary index */
		}
		cell = c1 * d2 + c2;
		if (!s->pair_count[cell]++) {
			s->pair_order[n++] = (uint16_t)cell;
		}
		counted++;
	}
	/* each row's two valid bits and codes and its cell; a cell's first row its order slot */
	ss_tasklet_dram(ctx, 2 * SS_DIV_ROUND_UP(rows, 8) + 3 * counted + n);
	if (ss_tasklet_step(ctx, rows + PQS_INSN_PER_PAIR * counted + n)) {
		return -SS_ETIME;
	}
	return n;
}

/* The n cells with rows into the group table, in the order of their first rows, each with
 * its keys' dictionary values; the cells zeroed. */
static int fold_pairs(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t n)
{
	const struct pq_col *a = &s->col[s->key1], *b = &s->col[s->key2];
	uint32_t d2 = b->dict.count;

	for (uint32_t j = 0; j < n; j++) {
		uint32_t cell = s->pair_order[j], c = s->pair_count[cell];
		int rc;

		s->pair_count[cell] = 0;
		/* the order slot, the cell read and zeroed, the two entries' values */
		ss_tasklet_dram(ctx, 5);
		if (ss_tasklet_step(ctx, 4)) {
			return -SS_ETIME;
		}
		rc = fold(ctx, s, col_u64(a, cell / d2, true), col_u64(b, cell % d2, true), 0, c);
		if (rc) {
			return rc;
		}
	}
	return 0;
}

/* The group table of a COUNT by pairs, sized by the first row group that needs it (n
 * pairs): room for as many more, never more than the later row groups' rows can add. Past
 * that the table spills, as any full table does. A slot cleared and never used costs the
 * run more (its bytes charged as cleared, 12 DRAM accesses and more) than a spilled item
 * (48 bytes over the link and the host's merge), so the table is not sized for the worst
 * case of every later row a new pair: a run of 16 row groups of 1,024 rows allocated 16,000
 * slots for Q2's 20 pairs. */
static uint64_t pairs_fill(const struct pq_scan *s, uint32_t rg, uint64_t n)
{
	uint64_t later = 0;

	for (uint32_t r = rg + 1; r < s->nrg && later < n; r++) {
		later += rg_rows(s, r);
	}
	return n + SS_MIN(n, later);
}

static int run_rowgroup(struct ss_tasklet_ctx *ctx, struct pq_scan *s, uint32_t rg)
{
	uint32_t rows = rg_rows(s, rg);
	bool eager = (s->flags & SS_BT_PQ_EAGER) != 0;
	bool any = false;
	int rc;

	s->counted = 0;
	PQS_MARK(ctx, PQS_DECODE);
	for (uint32_t c = 0; c < s->ncols; c++) {
		if (s->col[c].in_tree) {
			rc = decode_chunk(ctx, s, rg, c, false);
			if (rc) {
				return rc;
			}
		}
	}
	PQS_MARK(ctx, PQS_FILTER);
	rc = eval_entries(ctx, s);
	if (rc) {
		return rc;
	}
	ss_memset(s->sel, 0, rows / 8 + 1);
	for (uint32_t i = 0; i < rows; i++) {
		struct pq_row row = { s, i, false };
		const struct pq_col *tc = s->per_entry ? &s->col[s->tree_col] : NULL;

		if (tc && tc->dict.count && tc->vec.codes[i] != SS_PQ_NO_CODE) {
			rc = tc->verdict[tc->vec.codes[i]];
			ss_tasklet_dram(ctx, 2);
			if (ss_tasklet_step(ctx, 1)) {
				return -SS_ETIME;
			}
		} else {
			rc = bt_pred_eval_row(ctx, &s->where, &pq_rows, &row);
		}
		if (rc < 0) {
			return rc;
		}
		if (rc) {
			s->sel[i / 8] |= (uint8_t)(1u << (i % 8));
			any = true;
		}
	}
	s->rows_in += rows;
	PQS_MARK(ctx, PQS_DECODE);
	for (uint32_t c = 0; (any || eager) && c < s->ncols; c++) {
		if (!s->col[c].in_tree && s->col[c].wanted) {
			rc = decode_chunk(ctx, s, rg, c, !eager);
			if (rc) {
				return rc;
			}
		}
	}
	PQS_MARK(ctx, s->mode == SS_BT_PQ_AGGREGATE ? PQS_AGGREGATE : PQS_OUTPUT);
	if (s->by_code) {
		rc = fold_codes(ctx, s);
		if (rc) {
			return rc;
		}
		if (s->counted == rows) {
			return 0;   /* every row counted by its index */
		}
	}
	if (s->by_pairs) {
		int64_t n = count_pairs(ctx, s, rows);

		if (n < 0) {
			return (int)n;
		}
		if (!s->count) {
			PQS_MARK(ctx, PQS_ALLOC_GROUPS);
			rc = alloc_groups(ctx, s, n <= s->pair_cap ? pairs_fill(s, rg, (uint64_t)n) :
					  UINT64_MAX);
			PQS_MARK(ctx, PQS_AGGREGATE);
			if (rc) {
				return rc;
			}
		}
		if (n <= s->pair_cap) {
			return fold_pairs(ctx, s, (uint32_t)n);
		}
	}
	for (uint32_t i = 0; any && i < rows; i++) {
		if (!(s->sel[i / 8] >> (i % 8) & 1)) {
			continue;
		}
		s->matches++;
		if (s->mode == SS_BT_PQ_ROWS) {
			rc = emit_row(ctx, s, i);
		} else if (s->mode == SS_BT_PQ_AGGREGATE) {
			rc = aggregate(ctx, s, i);
		} else if (s->mode == SS_BT_PQ_TOPN) {
			rc = topn(ctx, s, i, s->rows_in - rows + i);
		} else {
			rc = 0;
		}
		if (rc) {
			return rc;
		}
		if (s->mode < SS_BT_PQ_AGGREGATE && s->limit && s->matches == s->limit) {
			return SS_TASKLET_DONE;
		}
	}
	return 0;
}

/* ---- gathering the chunks from the pages ------------------------------------------------- */

/* Copy what [po, po + len) holds of the current row group's chunks. \return 1 when the row
 * group is whole, 0, -ENODATA when a chunk's bytes before this page were not delivered. */
static int gather(struct ss_tasklet_ctx *ctx, struct pq_scan *s, const uint8_t *page,
		  uint32_t len, uint64_t po)
{
	bool whole = true;

	for (uint32_t c = 0; c < s->ncols; c++) {
		struct pq_col *pc = &s->col[c];
		struct pq_chunk k;
		uint64_t from, to;

		chunk_at(s, s->cur, c, &k);
		from = SS_MAX(po, k.offset + pc->got);
		to = SS_MIN(po + len, k.offset + k.length);
		if (pc->got < k.length && po > k.offset + pc->got) {
			return -SS_ENODATA;   /* bytes of the chunk went by before this page */
		}
		if (from < to) {
			ss_memcpy(pc->buf + (from - k.offset), page + (from - po), (size_t)(to - from));
			pc->got += (uint32_t)(to - from);
			ss_tasklet_dram(ctx, (uint32_t)SS_DIV_ROUND_UP(to - from, 4) * 2);
		}
		whole = whole && pc->got == k.length;
	}
	return whole;
}

static int pq_page(struct ss_tasklet_ctx *ctx, const uint8_t *page, uint32_t len, uint64_t lba)
{
	struct pq_scan *s = ss_tasklet_state(ctx);
	struct ss_record_origin o;
	int rc;

	(void)lba;
	rc = ss_tasklet_page_origin(ctx, &o);
	if (rc) {
		return rc;
	}
	if (o.offset < s->page_end) {
		return -SS_ENODATA;   /* the input ranges overlap or go backwards */
	}
	s->page_end = o.offset + len;
	while (s->cur < s->nrg) {
		PQS_MARK(ctx, PQS_GATHER);
		rc = gather(ctx, s, page, len, o.offset);
		if (rc <= 0) {
			return rc;
		}
		rc = run_rowgroup(ctx, s, s->cur);
		s->cur++;
		for (uint32_t c = 0; c < s->ncols; c++) {
			s->col[c].got = 0;
		}
		if (rc) {
			return rc;
		}
	}
	return SS_TASKLET_DONE;
}

static int pq_finish(struct ss_tasklet_ctx *ctx)
{
	struct pq_scan *s = ss_tasklet_state(ctx);
	int rc;

	if (s->cur < s->nrg &&
	    !(s->mode < SS_BT_PQ_AGGREGATE && s->limit && s->matches == s->limit)) {
		return -SS_ENODATA;   /* the plan's chunks are not all in the input */
	}
	PQS_MARK(ctx, PQS_EMIT_GROUPS);
	if (s->mode == SS_BT_PQ_AGGREGATE) {
		rc = emit_groups(ctx, s);
		if (rc) {
			return rc;
		}
	} else if (s->mode == SS_BT_PQ_TOPN) {
		rc = bt_topn_emit(ctx, &s->tn);
		if (rc) {
			return rc;
		}
		return bt_emit_trailer(ctx, SS_BT_PARQUET_SCAN, s->rows_in, s->tn.items,
				       s->tn.spills);
	}
	return bt_emit_trailer(ctx, SS_BT_PARQUET_SCAN, s->rows_in,
			       s->items, s->mode == SS_BT_PQ_AGGREGATE ? s->spills : s->matches);
}

#ifdef PQS_PROFILE
static int pq_init_profiled(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	int rc;

	PQS_MARK(ctx, PQS_ENTER);
	rc = pq_init(ctx, p, len);
	PQS_MARK(ctx, PQS_LEAVE);
	return rc;
}

static int pq_page_profiled(struct ss_tasklet_ctx *ctx, const uint8_t *page, uint32_t len,
			    uint64_t lba)
{
	int rc;

	PQS_MARK(ctx, PQS_ENTER);
	rc = pq_page(ctx, page, len, lba);
	PQS_MARK(ctx, PQS_LEAVE);
	return rc;
}

static int pq_finish_profiled(struct ss_tasklet_ctx *ctx)
{
	struct pq_scan *s = ss_tasklet_state(ctx);
	int rc;

	PQS_MARK(ctx, PQS_ENTER);
	rc = pq_finish(ctx);
	PQS_MARK(ctx, PQS_LEAVE);
	if (s) {
		pqs_decoder(&s->stats);
	}
	return rc;
}

#define pq_init pq_init_profiled
#define pq_page pq_page_profiled
#define pq_finish pq_finish_profiled
#endif

const struct ss_tasklet_desc ss_bt_parquet_scan = {
	.name = "parquet-scan",
	.id = SS_BT_PARQUET_SCAN,
	.init = pq_init,
	.on_page = pq_page,
	.finish = pq_finish,
};
