/*
 * parquet-scan over Parquet files stored as objects: files written by pyarrow 18.1.0 and
 * DuckDB 1.1.3 (dictionary and plain pages, SNAPPY and UNCOMPRESSED, nulls, several row
 * groups), plans and answers written by tests/gen_pq_scan.py (DuckDB ran each query; the
 * answer is encoded in the tasklet's output format). Each scan runs over the whole object,
 * over only its chunks' pages, and over two ranges split at a page; its output must equal
 * the answer byte for byte, and the decoder's work must be charged. Then hostile plans, each
 * refused with its typed error, the drive's next scan still right.
 */
#include "bt_test.h"

#include <stdbool.h>

#include "pq_items.h"
#include "pq_plan_cut.h"
#include "ss_parquet.h"
#include "ss_test_file.h"

#define BUDGET (2u << 20)
#define P_HDR ((uint32_t)sizeof(struct ss_bt_pq_params))
#define P_COL ((uint32_t)sizeof(struct ss_bt_pq_column))
#define P_RG ((uint32_t)sizeof(struct ss_bt_pq_rowgroup))
#define P_CHUNK ((uint32_t)sizeof(struct ss_bt_pq_chunk))

static uint8_t *slurp(const char *name, uint64_t *len)
{
	char path[512];
	size_t n;
	uint8_t *b;

	snprintf(path, sizeof(path), "%s/%s", PQ_SCAN_VECTORS, name);
	b = ss_test_read_file(path, &n);
	*len = n;
	return b;
}

struct plan_view {
	uint32_t ncols, nrg;
	uint8_t *cols, *rgs, *chunks;
};

static struct plan_view view(uint8_t *p)
{
	struct plan_view v;

	v.ncols = p[0];
	v.nrg = ss_get_le16(p + 4);
	v.cols = p + P_HDR;
	v.rgs = v.cols + v.ncols * P_COL;
	v.chunks = v.rgs + v.nrg * P_RG;
	return v;
}

static uint8_t *chunk(struct plan_view *v, uint32_t rg, uint32_t c)
{
	return v->chunks + (rg * v->ncols + c) * P_CHUNK;
}

/* Move a chunk (its dictionary page with it). */
static void set_offset(struct plan_view *v, uint32_t rg, uint32_t c, uint64_t off)
{
	uint8_t *k = chunk(v, rg, c);

	if (ss_get_le64(k + 8)) {
		ss_put_le64(k + 8, off);
	}
	ss_put_le64(k, off);
}

/* The byte span of the plan's chunks. */
static void span(uint8_t *p, uint64_t *lo, uint64_t *hi, uint64_t *bytes)
{
	struct plan_view v = view(p);

	*lo = UINT64_MAX;
	*hi = 0;
	*bytes = 0;
	for (uint32_t r = 0; r < v.nrg; r++) {
		for (uint32_t c = 0; c < v.ncols; c++) {
			uint8_t *k = chunk(&v, r, c);
			uint64_t off = ss_get_le64(k), len = ss_get_le32(k + 16);

			*lo = off < *lo ? off : *lo;
			*hi = off + len > *hi ? off + len : *hi;
			*bytes += len;
		}
	}
}

static void check_output(const char *name, const uint8_t *o, uint64_t len, const uint8_t *want,
			 uint64_t want_len)
{
	if (len != want_len || memcmp(o, want, len) != 0) {
		uint64_t i = 0;

		while (i < len && i < want_len && o[i] == want[i]) {
			i++;
		}
		FILE *dump = fopen("/tmp/pq_scan_ut.out", "wb");

		if (dump) {
			fwrite(o, 1, len, dump);
			fclose(dump);
		}
		fprintf(stderr, "%s: output of %llu bytes differs from the answer's %llu at byte %llu"
			" (the output: /tmp/pq_scan_ut.out)\n",
			name, (unsigned long long)len, (unsigned long long)want_len,
			(unsigned long long)i);
		abort();
	}
}

static ss_oid_t file_oid(struct tenv *e, const char *file)
{
	static char names[8][64];
	static ss_oid_t oids[8];
	static uint32_t n;
	uint64_t len;
	uint8_t *b;

	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(names[i], file) == 0) {
			return oids[i];
		}
	}
	CHECK(n < 8);
	b = slurp(file, &len);
	snprintf(names[n], sizeof(names[n]), "%s", file);
	oids[n] = tenv_put(e, file, b, len);
	free(b);
	return oids[n++];
}

static void run_scan(struct tenv *e, ss_oid_t out, const char *name, const char *file)
{
	char fn[256];
	uint64_t plen, wlen, olen, lo, hi, bytes, fsize;
	uint8_t *plan, *want, *o;
	ss_oid_t oid = file_oid(e, file);
	uint32_t ps = tenv_page_size(e);
	struct ss_isp_progress p;
	uint8_t *fb;

	snprintf(fn, sizeof(fn), "%s.plan", name);
	plan = slurp(fn, &plen);
	snprintf(fn, sizeof(fn), "%s.expect", name);
	want = slurp(fn, &wlen);
	fb = slurp(file, &fsize);
	free(fb);
	span(plan, &lo, &hi, &bytes);

	/* the whole object */
	struct ss_isp_input whole = { oid, 0, UINT64_MAX };
	o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1, &olen, &p);
	CHECK(p.state == SS_ISP_DONE);
	check_output(name, o, olen, want, wlen);
	free(o);
	/* the decoder's work is charged: at least PQS_INSN_PER_BYTE per chunk byte read (the
	 * chunks of a LIMIT's row groups past its last match are not read) */
	if (!strstr(name, "-limit")) {
		CHECK(p.instructions >= 2 * bytes);
	}

	/* a one-column WHERE tree once per dictionary entry against on every row: the same
	 * answer, less counted work where the chunk is dictionary-encoded, the same where it is
	 * not or where the tree reads several columns */
	if (ss_get_le16(plan + 6)) {
		uint64_t codes_work = p.instructions + p.dram_accesses;
		struct ss_isp_progress q;

		plan[16] |= SS_BT_PQ_ROW_EVAL;
		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
			   &olen, &q);
		plan[16] &= (uint8_t)~SS_BT_PQ_ROW_EVAL;
		CHECK(q.state == SS_ISP_DONE);
		check_output(name, o, olen, want, wlen);
		free(o);
		/* once per entry: a one-column tree of several leaves or on bytes */
		bool per_entry = strstr(name, "-limit") || strstr(name, "-set");

		if (strncmp(name, "plain_", 6) == 0 || !per_entry) {
			CHECK(q.instructions + q.dram_accesses == codes_work);
		} else if (strncmp(name, "dict_", 5) == 0) {
			CHECK(q.instructions + q.dram_accesses > codes_work);
		} else {
			CHECK(q.instructions + q.dram_accesses >= codes_work);
		}
		printf("%-22s counted work %llu on the codes, %llu per row\n", name,
		       (unsigned long long)codes_work,
		       (unsigned long long)(q.instructions + q.dram_accesses));
	}

	/* every wanted column decoded whole against only the matches' values (late
	 * materialization): the same answer, less counted work where the tree rejects rows,
	 * never more */
	{
		uint64_t late_work = p.instructions + p.dram_accesses;
		struct ss_isp_progress q;

		plan[16] |= SS_BT_PQ_EAGER;
		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
			   &olen, &q);
		plan[16] &= (uint8_t)~SS_BT_PQ_EAGER;
		CHECK(q.state == SS_ISP_DONE);
		check_output(name, o, olen, want, wlen);
		free(o);
		/* a tree that rejects rows: their dictionary indices and numbers are passed over
		 * in the pages decoded, even where a row group's column is one page (DuckDB) */
		if (ss_get_le16(plan + 6) && plan[1] != SS_BT_PQ_COUNT) {
			CHECK(q.instructions + q.dram_accesses > late_work);
		} else {
			CHECK(q.instructions + q.dram_accesses >= late_work);
		}
		printf("%-22s counted work %llu decoding late, %llu eagerly\n", name,
		       (unsigned long long)late_work,
		       (unsigned long long)(q.instructions + q.dram_accesses));
	}

	/* an aggregate's counted work does not grow with the budget: its group table is sized
	 * by the run's rows, not by the memory it is given */
	if (plan[1] == SS_BT_PQ_AGGREGATE) {
		struct ss_isp_progress q;

		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET / 2, out,
			   &whole, 1, &olen, &q);
		CHECK(q.state == SS_ISP_DONE);
		check_output(name, o, olen, want, wlen);
		free(o);
		CHECK(q.instructions == p.instructions && q.dram_accesses == p.dram_accesses);
	}

	/* only the pages holding the plan's chunks */
	struct ss_isp_input part = { oid, lo / ps * ps, hi - lo / ps * ps };
	o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &part, 1, &olen, &p);
	CHECK(p.state == SS_ISP_DONE);
	check_output(name, o, olen, want, wlen);
	free(o);

	/* two ranges, split at a page inside the span */
	uint64_t mid = (lo + (hi - lo) / 2) / ps * ps;
	struct ss_isp_input two[2] = { { oid, lo / ps * ps, mid - lo / ps * ps },
				       { oid, mid, fsize - mid } };
	if (mid > lo / ps * ps) {
		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, two, 2,
			   &olen, &p);
		CHECK(p.state == SS_ISP_DONE);
		check_output(name, o, olen, want, wlen);
		free(o);
	}
	free(plan);
	free(want);
}

/* ---- COUNT by a dictionary-encoded key, counted off the runs ------------------------------ */

/* Runs and bit-packed values of an RLE/bit-packed hybrid holding n values of width bw (walked
 * here, apart from parquet/'s decoder), and how many of them are 1 (levels: the non-nulls). */
static void walk_hybrid(const uint8_t *p, uint32_t bw, uint32_t n, uint64_t *runs,
			uint64_t *packed, uint32_t *ones)
{
	size_t pos = 0;

	*ones = 0;
	while (n) {
		uint64_t h = 0;
		uint32_t k;

		for (unsigned sh = 0;; sh += 7) {
			uint8_t b = p[pos++];

			h |= (uint64_t)(b & 0x7f) << sh;
			if (!(b & 0x80)) {
				break;
			}
		}
		(*runs)++;
		if (h & 1) {
			k = (uint32_t)((h >> 1) * 8 < n ? (h >> 1) * 8 : n);
			for (uint32_t i = 0; bw == 1 && i < k; i++) {
				*ones += p[pos + i / 8] >> (i % 8) & 1;
			}
			*packed += k;
			pos += (size_t)(h >> 1) * bw;
		} else {
			k = (uint32_t)(h >> 1);
			*ones += bw == 1 && p[pos] ? k : 0;
			pos += (bw + 7) / 8;
		}
		n -= k;
	}
}

struct chunk_work {
	uint64_t levels;              /* the data pages' values, NULLs included */
	uint64_t values;              /* of them, not NULL */
	uint64_t entries;             /* dictionary entries */
	uint64_t bytes;               /* stored, and decompressed as the plan's size says */
	uint64_t runs;                /* dictionary-encoded pages' runs, levels and indices */
	uint64_t packed;              /* and their bit-packed values */
	bool plain;                   /* a data page that is not dictionary-encoded */
};

/* Column col's chunk of a one-row-group plan, walked here apart from parquet/'s decoder. */
static void chunk_work(const uint8_t *file, const uint8_t *c, uint32_t col,
		       struct chunk_work *w)
{
	const uint8_t *k = c + P_HDR + c[0] * P_COL + P_RG + col * P_CHUNK;
	uint64_t off = ss_get_le64(k);
	uint32_t len = ss_get_le32(k + 16), unc = ss_get_le32(k + 20), pos = 0;
	uint8_t *page = malloc(unc + 1);

	memset(w, 0, sizeof(*w));
	w->bytes = (uint64_t)len + unc;
	while (pos < len) {
		struct ss_pq_page_header h;
		struct ss_pq_error err;
		size_t hl, n;
		uint64_t runs = 0, packed = 0;
		uint32_t nonnull;

		CHECK(ss_pq_read_page_header(file + off + pos, len - pos, &h, &hl, &err) == 0);
		CHECK(ss_pq_snappy_decompress(file + off + pos + hl, h.compressed_size, page, unc, &n,
					      &err) == 0);
		pos += (uint32_t)hl + h.compressed_size;
		if (h.type == SS_PQ_DICTIONARY_PAGE) {
			w->entries += h.num_values;
			continue;
		}
		walk_hybrid(page + 4, 1, h.num_values, &runs, &packed, &nonnull);
		w->levels += h.num_values;
		w->values += nonnull;
		if (h.encoding != SS_PQ_ENC_PLAIN_DICTIONARY &&
		    h.encoding != SS_PQ_ENC_RLE_DICTIONARY) {
			w->plain = true;
			continue;
		}
		if (nonnull) {
			uint32_t lsize = ss_get_le32(page);

			walk_hybrid(page + 4 + lsize + 1, page[4 + lsize], nonnull, &runs, &packed,
				    &nonnull);
		}
		w->runs += runs;
		w->packed += packed;
	}
	free(page);
}

/* One run per row group, as the connector runs Q1; the answers' counts summed. `bounded`: the
 * key chunks are dictionary-encoded throughout (no PLAIN page aggregated a row at a time). */
static void q1_by_code(struct tenv *e, ss_oid_t out, const char *name, bool bounded)
{
	char fn[256];
	uint64_t plen, wlen, flen, olen, total = 0;
	uint8_t *plan = slurp((snprintf(fn, sizeof(fn), "%s.plan", name), fn), &plen);
	uint8_t *want = slurp((snprintf(fn, sizeof(fn), "%s.expect", name), fn), &wlen);
	uint8_t *file = slurp("q1.parquet", &flen);
	ss_oid_t oid = file_oid(e, "q1.parquet");
	uint32_t nrg = ss_get_le16(plan + 4), ps = tenv_page_size(e);
	uint64_t want_rows = 0;
	uint8_t *o;

	/* the whole plan, and every row aggregated on its own (ROW_EVAL): DuckDB's answer */
	run_scan(e, out, name, "q1.parquet");
	{
		struct ss_isp_input whole = { oid, 0, UINT64_MAX };
		struct ss_isp_progress p, q;

		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
			   &olen, &p);
		free(o);
		plan[16] |= SS_BT_PQ_ROW_EVAL;
		o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
			   &olen, &q);
		plan[16] &= (uint8_t)~SS_BT_PQ_ROW_EVAL;
		CHECK(q.state == SS_ISP_DONE);
		check_output(name, o, olen, want, wlen);
		free(o);
		printf("%-22s counted work %llu by dictionary index, %llu a row at a time\n", name,
		       (unsigned long long)(p.instructions + p.dram_accesses),
		       (unsigned long long)(q.instructions + q.dram_accesses));
	}
	for (uint64_t i = 0; i + 32 < wlen; i += 48) {
		want_rows += ss_get_le64(want + i + 16);
	}
	/* A run per row group: its counted work past a COUNT run's over the same chunk (the same
	 * buffers, nothing decoded) is bounded by the chunk's runs, bit-packed values, dictionary
	 * entries and bytes, not its rows: a run or bit-packed value 5 (4 instructions, a counter
	 * updated), a byte under 3 (2 instructions, a quarter DRAM access, half gathered), an
	 * entry 29 (4 decoded, 4 to read and zero its count and value, a probe 9 and its group's
	 * update 12), the group table and counts 68 bytes an entry the chunk could hold
	 * (alloc_groups), half a unit a byte; the rows' valid bits cleared, a word per 32. */
	for (uint32_t r = 0; r < nrg; r++) {
		uint32_t clen, unc;
		uint8_t *c = pq_plan_cut(plan, plen, r, &clen);
		struct ss_isp_input in = pq_plan_pages(c, oid, ps);
		struct ss_isp_progress p, q;
		struct chunk_work key;
		uint64_t bound;

		o = bt_run(e, SS_BT_PARQUET_SCAN, c, clen, NULL, BUDGET, out, &in, 1, &olen, &p);
		CHECK(p.state == SS_ISP_DONE && olen >= 32);
		for (uint64_t i = 0; i + 32 < olen; i += 48) {
			total += ss_get_le64(o + i + 16);
		}
		free(o);
		c[1] = SS_BT_PQ_COUNT;
		c[3] = 0;
		c[12] = c[15] = 0;
		o = bt_run(e, SS_BT_PARQUET_SCAN, c, clen, NULL, BUDGET, out, &in, 1, &olen, &q);
		CHECK(q.state == SS_ISP_DONE);
		free(o);
		if (!bounded) {
			free(c);
			continue;
		}
		chunk_work(file, c, 0, &key);
		unc = ss_get_le32(c + P_HDR + c[0] * P_COL + P_RG + 20);
		bound = 5 * (key.runs + key.packed) + 3 * key.bytes + 29 * key.entries +
			34 * (unc / 4 + 1) +
			ss_get_le32(c + P_HDR + c[0] * P_COL) / 32 + 64;
		if (bounded &&
		    p.instructions + p.dram_accesses > q.instructions + q.dram_accesses + bound) {
			fprintf(stderr, "%s row group %u: counted work %llu past the COUNT run's %llu "
				"by more than %llu (%llu runs, %llu bit-packed, %llu entries, %llu B)\n",
				name, r, (unsigned long long)(p.instructions + p.dram_accesses),
				(unsigned long long)(q.instructions + q.dram_accesses),
				(unsigned long long)bound, (unsigned long long)key.runs,
				(unsigned long long)key.packed, (unsigned long long)key.entries,
				(unsigned long long)key.bytes);
			abort();
		}
		free(c);
	}
	CHECK(total == want_rows);
	free(file);
	free(plan);
	free(want);
}

/* ---- COUNT by two dictionary-encoded keys, counted per pair of codes ----------------------- */

/* Q2's shape: the whole plan's answer, the generator's (counted in Python from the rows it
 * wrote), with the pairs counted and with every row aggregated on its own (ROW_EVAL); then a
 * run per row group, as the connector runs it, the runs' counts summed. Row groups 5, 8 and
 * 11 have a key chunk that goes on PLAIN (checked here) and are counted a row at a time. */
static void q2_by_pairs(struct tenv *e, ss_oid_t out)
{
	uint64_t plen, wlen, flen, olen, total = 0, want_rows = 0;
	uint8_t *plan = slurp("q2.plan", &plen);
	uint8_t *want = slurp("q2.expect", &wlen);
	uint8_t *file = slurp("q2.parquet", &flen);
	ss_oid_t oid = file_oid(e, "q2.parquet");
	uint32_t nrg = ss_get_le16(plan + 4), ps = tenv_page_size(e);
	struct ss_isp_input whole = { oid, 0, UINT64_MAX };
	struct ss_isp_progress p, q;
	uint8_t *o;

	/* by pairs: the table is sized by the first row group's pairs, so the wide row groups'
	 * pairs spill it; merged as the host merges them, the spills are the answer */
	o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
		   &olen, &p);
	CHECK(p.state == SS_ISP_DONE && olen >= 32);
	{
		uint8_t *merged = NULL;
		uint64_t mlen = 0;

		pq_items_merge(&merged, &mlen, o, olen - 32);
		CHECK(ss_get_le64(o + olen - 32 + 24) > 0);   /* it did spill */
		CHECK(ss_get_le64(o + olen - 32 + 8) == ss_get_le64(want + wlen - 32 + 8));
		check_output("q2 (spills merged)", merged, mlen, want, wlen - 32);
		free(merged);
	}
	free(o);
	plan[16] |= SS_BT_PQ_ROW_EVAL;
	o = bt_run(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, 1,
		   &olen, &q);
	plan[16] &= (uint8_t)~SS_BT_PQ_ROW_EVAL;
	CHECK(q.state == SS_ISP_DONE);
	check_output("q2 (ROW_EVAL)", o, olen, want, wlen);
	free(o);
	for (uint64_t i = 0; i + 32 < wlen; i += 48) {
		want_rows += ss_get_le64(want + i + 16);
	}
	/* A run per row group whose key chunks are dictionary-encoded throughout: its counted
	 * work past a COUNT run's over the same chunks (the same buffers, nothing decoded) is
	 * bounded by the chunks' values, entries and bytes and the pairs it answers, not a group
	 * table of its rows: a level or value decoded 4 (to its code), a byte under 3 (2
	 * instructions, a quarter DRAM access, half gathered), an entry 4; a first key's level 2
	 * (the row's valid bits tested), a pair of non-NULL keys 9 (its codes and cell read, the
	 * cell's index and increment); a cell 3 (6 bytes cleared); a pair answered 80 (its order
	 * slot and cell, the group's probe, update, 64 bytes of table, and item). */
	for (uint32_t r = 0; r < nrg; r++) {
		uint32_t clen;
		uint8_t *c = pq_plan_cut(plan, plen, r, &clen);
		struct ss_isp_input in = pq_plan_pages(c, oid, ps);
		struct chunk_work a, b;
		uint64_t items = 0, bound;

		o = bt_run(e, SS_BT_PARQUET_SCAN, c, clen, NULL, BUDGET, out, &in, 1, &olen, &p);
		CHECK(p.state == SS_ISP_DONE && olen >= 32);
		for (uint64_t i = 0; i + 32 < olen; i += 48) {
			total += ss_get_le64(o + i + 16);
			items++;
		}
		free(o);
		c[1] = SS_BT_PQ_COUNT;
		c[3] = 0;
		c[12] = c[13] = c[15] = 0;
		o = bt_run(e, SS_BT_PARQUET_SCAN, c, clen, NULL, BUDGET, out, &in, 1, &olen, &q);
		CHECK(q.state == SS_ISP_DONE);
		free(o);
		chunk_work(file, c, 0, &a);
		chunk_work(file, c, 1, &b);
		CHECK((a.plain || b.plain) == (r == 5 || r == 8 || r == 11));
		if (a.plain || b.plain) {
			free(c);
			continue;
		}
		bound = 4 * (a.levels + a.values + b.levels + b.values + a.entries + b.entries) +
			3 * (a.bytes + b.bytes) + 2 * a.levels + 9 * SS_MIN(a.values, b.values) +
			3 * a.entries * b.entries + 80 * items + 64;
		if (p.instructions + p.dram_accesses > q.instructions + q.dram_accesses + bound) {
			fprintf(stderr, "q2 row group %u: counted work %llu past the COUNT run's %llu by "
				"more than %llu (levels %llu + %llu, values %llu + %llu, entries %llu x "
				"%llu, %llu B, %llu pairs)\n", r,
				(unsigned long long)(p.instructions + p.dram_accesses),
				(unsigned long long)(q.instructions + q.dram_accesses),
				(unsigned long long)bound, (unsigned long long)a.levels,
				(unsigned long long)b.levels, (unsigned long long)a.values,
				(unsigned long long)b.values, (unsigned long long)a.entries,
				(unsigned long long)b.entries, (unsigned long long)(a.bytes + b.bytes),
				(unsigned long long)items);
			abort();
		}
		printf("q2 row group %-2u       counted work %llu past COUNT's, bound %llu\n", r,
		       (unsigned long long)(p.instructions + p.dram_accesses -
					    q.instructions - q.dram_accesses),
		       (unsigned long long)bound);
		free(c);
	}
	CHECK(total == want_rows);
	free(file);
	free(plan);
	free(want);
}

static void fail_with(struct tenv *e, ss_oid_t out, ss_oid_t oid, const uint8_t *plan,
		      uint64_t plen, int err, const char *what)
{
	struct ss_isp_input whole = { oid, 0, UINT64_MAX };

	fprintf(stderr, "hostile: %s\n", what);
	bt_fail(e, SS_BT_PARQUET_SCAN, plan, (uint32_t)plen, NULL, BUDGET, out, &whole, err);
}

static void hostile(struct tenv *e, ss_oid_t out)
{
	uint64_t plen, lo, hi, bytes;
	uint8_t *good = slurp("dict_snappy-eq.plan", &plen);
	uint8_t *p = malloc(plen + 64);
	ss_oid_t oid = file_oid(e, "dict_snappy.parquet");
	struct plan_view v;

#define MUTATE() (memcpy(p, good, plen), v = view(p))
	span(good, &lo, &hi, &bytes);

	MUTATE();
	set_offset(&v, v.nrg - 1, 1, 1u << 30);            /* a chunk past the object's end */
	fail_with(e, out, oid, p, plen, -SS_ENODATA, "chunk offset past the object");
	MUTATE();
	ss_put_le32(chunk(&v, 0, 0) + 16, ss_get_le32(chunk(&v, 0, 0) + 16) - 7);
	fail_with(e, out, oid, p, plen, -SS_ENODATA, "chunk length short of its pages");
	MUTATE();
	for (uint32_t r = 0; r < v.nrg; r++) {
		ss_put_le32(chunk(&v, r, 0) + 20, 16);     /* total_uncompressed_size lies */
	}
	fail_with(e, out, oid, p, plen, -SS_ENODATA, "uncompressed size too small");
	MUTATE();
	ss_put_le32(v.rgs, ss_get_le32(v.rgs) + 1);        /* rows != the chunks' values */
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "row group rows against chunk values");
	MUTATE();
	ss_put_le32(v.rgs, ss_get_le32(v.rgs) + 1);        /* rows and values both lie */
	ss_put_le32(chunk(&v, 0, 0) + 24, ss_get_le32(v.rgs));
	ss_put_le32(chunk(&v, 0, 1) + 24, ss_get_le32(v.rgs));
	ss_put_le32(chunk(&v, 0, 2) + 24, ss_get_le32(v.rgs));
	ss_put_le32(chunk(&v, 0, 3) + 24, ss_get_le32(v.rgs));
	ss_put_le32(chunk(&v, 0, 4) + 24, ss_get_le32(v.rgs));
	fail_with(e, out, oid, p, plen, -SS_ENODATA, "rows the pages do not hold");
	MUTATE();
	chunk(&v, 0, 2)[28] = SS_PQ_GZIP;
	fail_with(e, out, oid, p, plen, -SS_ENOSYS, "GZIP codec");
	MUTATE();
	chunk(&v, 1, 0)[28] = SS_PQ_UNCOMPRESSED;          /* a SNAPPY chunk said uncompressed */
	fail_with(e, out, oid, p, plen, -SS_EILSEQ, "codec lies");
	MUTATE();
	v.cols[2 * P_COL] = SS_PQ_INT96;
	v.cols[2 * P_COL + 1] = 0;
	fail_with(e, out, oid, p, plen, -SS_ENOSYS, "INT96 column");
	MUTATE();
	v.cols[0] = SS_PQ_FIXED_LEN_BYTE_ARRAY;
	fail_with(e, out, oid, p, plen, -SS_ENOSYS, "FIXED_LEN_BYTE_ARRAY column");
	MUTATE();
	v.cols[0] = SS_PQ_INT64;                             /* an INT32 column said INT64 */
	fail_with(e, out, oid, p, plen, -SS_EILSEQ, "physical type lies");
	MUTATE();
	v.cols[3] = 2;                                       /* max definition level 2 */
	fail_with(e, out, oid, p, plen, -SS_ENOSYS, "nested column");
	MUTATE();
	ss_put_le16(v.cols + 4, ss_get_le16(v.cols + 4) | 1u << SS_PQ_ENC_DELTA_BINARY_PACKED);
	fail_with(e, out, oid, p, plen, -SS_ENOSYS, "DELTA_BINARY_PACKED in the encodings");
	MUTATE();
	v.cols[P_COL + 1] = SS_BT_PQ_L_DATE;                /* DATE on an INT64 column */
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "logical type on the wrong physical type");
	MUTATE();
	ss_put_le64(chunk(&v, 0, 1) + 8, 5);                 /* dictionary page elsewhere */
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "dictionary offset not the chunk's start");
	MUTATE();
	set_offset(&v, 0, 1, ss_get_le64(chunk(&v, 0, 1)) + 1);
	fail_with(e, out, oid, p, plen, -SS_EILSEQ, "chunk offset one byte off");
	MUTATE();
	p[P_HDR + v.ncols * P_COL + v.nrg * P_RG + v.nrg * v.ncols * P_CHUNK] = 9;  /* proj */
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "projected column past the plan's");
	MUTATE();
	p[plen - 9] = 7;                                     /* tree leaf field past ncols */
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "tree field past the plan's columns");
	MUTATE();
	fail_with(e, out, oid, p, plen - 1, -SS_EINVAL, "params one byte short");
	MUTATE();
	p[17] = 1;
	fail_with(e, out, oid, p, plen, -SS_EINVAL, "reserved byte set");
	MUTATE();
	fail_with(e, out, oid, p, 10, -SS_EINVAL, "params shorter than the header");

	/* TOPN: n 0 or past 1024, a string in the payload */
	{
		uint64_t tlen;
		uint8_t *top = slurp("dict_snappy-top.plan", &tlen);

		ss_put_le32(top + 8, 0);
		fail_with(e, out, oid, top, tlen, -SS_EINVAL, "top-N of 0 rows");
		ss_put_le32(top + 8, 1025);
		fail_with(e, out, oid, top, tlen, -SS_EINVAL, "top-N of 1025 rows");
		free(top);
		top = slurp("dict_snappy-eq.plan", &tlen);
		top[1] = SS_BT_PQ_TOPN;                  /* projecting name, a string */
		ss_put_le32(top + 8, 3);
		top[14] = 1;                              /* ranked by id */
		fail_with(e, out, oid, top, tlen, -SS_EINVAL, "a string in a top-N payload");
		free(top);
	}

	/* input that does not hold the chunks: pages after their start, pages backwards */
	memcpy(p, good, plen);
	{
		uint32_t ps = tenv_page_size(e);
		struct ss_isp_input late = { oid, (lo / ps + 1) * ps, UINT64_MAX };
		struct ss_isp_input back[2] = { { oid, (lo / ps + 1) * ps, UINT64_MAX },
						{ oid, 0, UINT64_MAX } };

		bt_fail(e, SS_BT_PARQUET_SCAN, p, (uint32_t)plen, NULL, BUDGET, out, &late,
			-SS_ENODATA);
		struct ss_isp_progress pr;
		uint32_t inst;

		CHECK(ss_isp_create(tenv_isp(e), SS_BT_PARQUET_SCAN, p, (uint32_t)plen, NULL, BUDGET,
				    0, out, &inst) == 0);
		pr = tenv_run(e, inst, back, 2);
		CHECK(pr.state == SS_ISP_FAILED && pr.error == -SS_ENODATA);
		CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
	}
	/* a budget too small for the plan's chunks */
	{
		struct ss_isp_input whole = { oid, 0, UINT64_MAX };

		bt_fail(e, SS_BT_PARQUET_SCAN, good, (uint32_t)plen, NULL, 4096, out, &whole,
			-SS_ENOMEM);
	}
	free(p);
	free(good);
#undef MUTATE
}

int main(void)
{
	struct tenv *e = bt_env();
	ss_oid_t out = tenv_output(e, "pq-out");
	char line[256], name[128], file[128];
	uint64_t len;
	uint8_t *list = slurp("scans.txt", &len);
	uint32_t scans = 0;
	FILE *f;

	list[len] = 0;
	f = fmemopen(list, len, "r");
	CHECK(f);
	while (fgets(line, sizeof(line), f)) {
		CHECK(sscanf(line, "%127s %127s", name, file) == 2);
		if (strncmp(name, "v2_", 3) == 0) {
			uint64_t plen;
			uint8_t *plan = slurp((snprintf(line, sizeof(line), "%s.plan", name), line), &plen);

			fail_with(e, out, file_oid(e, file), plan, plen, -SS_ENOSYS, "v2 data pages");
			free(plan);
			continue;
		}
		run_scan(e, out, name, file);
		scans++;
	}
	fclose(f);
	free(list);
	CHECK(scans == 30);
	q1_by_code(e, out, "q1-region", true);
	q1_by_code(e, out, "q1-zone", true);
	q1_by_code(e, out, "q1-wide", false);   /* PLAIN pages after the dictionary's */
	q2_by_pairs(e, out);
	hostile(e, out);
	/* still serving: a scan after every refusal is right, and the store reads and writes */
	run_scan(e, out, "duckdb_snappy-agg", "duckdb_snappy.parquet");
	bt_store_ok(e, "after-hostile");
	tenv_close(e);
	printf("pq_scan_ut: %u scans x 3 inputs, hostile plans refused\n", scans);
	return 0;
}
