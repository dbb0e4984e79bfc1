/*
 * The record reader against references computed here: FIXED records straddling pages and
 * batches, TEXT lines straddling them, the split rules (every record of an object exactly
 * once across splits at odd offsets), batch sizes from one page up, and over-long lines.
 */
#include "ss_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isp_internal.h"

#define PS 512u

struct got {
	uint64_t off;
	uint32_t len;
	uint64_t lba;
	uint8_t *copy;
};

struct collector {
	struct got *g;
	size_t n, cap;
	/* pointers handed over but not yet consumed: the reader may reuse its carry only
	 * after a flush, so copying at flush time checks that contract */
	const uint8_t *pend[4096];
	size_t npend;
	int stop_after;     /* return SS_TASKLET_DONE after this many records (0: never) */
};

static void consume(struct collector *c)
{
	for (size_t i = 0; i < c->npend; i++) {
		struct got *g = &c->g[c->n - c->npend + i];

		g->copy = malloc(g->len ? g->len : 1);
		memcpy(g->copy, c->pend[i], g->len);
	}
	c->npend = 0;
}

static int c_emit(void *arg, const uint8_t *data, uint32_t len, uint64_t off, uint64_t lba)
{
	struct collector *c = arg;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->g = realloc(c->g, c->cap * sizeof(*c->g));
	}
	c->g[c->n++] = (struct got){ .off = off, .len = len, .lba = lba };
	c->pend[c->npend++] = data;
	if (c->npend == 4096) {
		consume(c);
	}
	if (c->stop_after && c->n == (size_t)c->stop_after) {
		return SS_TASKLET_DONE;
	}
	return 0;
}

/* Whole FIXED records in one call: records them one by one, as the engine's sink does. */
static int c_emit_fixed(void *arg, const uint8_t *buf, uint64_t bo, const uint64_t *lbas,
			uint64_t off, uint32_t size, uint32_t count, uint32_t *emitted)
{
	int rc = 0;

	for (*emitted = 0; *emitted < count && !rc; off += size) {
		rc = c_emit(arg, buf + (off - bo), size, off, lbas[(off - bo) / PS]);
		++*emitted;
	}
	return rc;
}

static int c_flush(void *arg)
{
	consume(arg);
	return 0;
}

static void c_free(struct collector *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->g[i].copy);
	}
	free(c->g);
	memset(c, 0, sizeof(*c));
}

static uint64_t lba_of(uint64_t page)
{
	return page * 1000 + 7;
}

/* Drive the reader like the engine: page-aligned batches of `bpages` (or random when 0),
 * tail pages on demand. \return the reader's final code. */
static int run(const uint8_t *data, uint64_t size, enum isp_rd_kind kind,
	       const struct ss_layout *lay, uint64_t start, uint64_t len, uint32_t bpages,
	       struct collector *c)
{
	struct isp_reader r;
	uint8_t *carry = malloc(lay->record_size ? lay->record_size : 1);
	struct isp_sink sink = { .emit = c_emit, .emit_fixed = c_emit_fixed, .flush = c_flush,
				 .arg = c };
	uint64_t lbas[64];
	uint64_t off;
	int rc = 0;

	isp_reader_begin(&r, kind, lay, PS, size, start, len, carry);
	off = r.rd_start / PS * PS;
	while (!isp_reader_done(&r)) {
		uint64_t nominal_end = (r.rd_end + PS - 1) / PS * PS;
		uint32_t pages = bpages ? bpages : 1 + (uint32_t)(rand() % 9);
		uint32_t bl;

		if (off >= size) {
			break;
		}
		if (off >= nominal_end) {
			CHECK(isp_reader_wants(&r, off));
			pages = 1;
		} else if (off + (uint64_t)pages * PS > nominal_end) {
			pages = (uint32_t)((nominal_end - off) / PS);
		}
		bl = (uint32_t)SS_MIN((uint64_t)pages * PS, size - off);
		for (uint32_t i = 0; i < pages; i++) {
			lbas[i] = lba_of(off / PS + i);
		}
		rc = isp_reader_feed(&r, data + off, off, bl, lbas, &sink);
		consume(c);
		if (rc) {
			break;
		}
		off += (uint64_t)pages * PS;
	}
	CHECK(rc || isp_reader_done(&r));
	free(carry);
	return rc;
}

/* ---- FIXED -------------------------------------------------------------------------- */

static void check_fixed(const uint8_t *data, uint64_t size, uint32_t rs, uint64_t s, uint64_t e,
			const struct collector *c)
{
	size_t k = 0;

	for (uint64_t p = 0; p + rs <= size; p += rs) {
		if (p < s || p >= e) {
			continue;
		}
		CHECK(k < c->n);
		CHECK(c->g[k].off == p);
		CHECK(c->g[k].len == rs);
		CHECK(c->g[k].lba == lba_of(p / PS));
		CHECK(memcmp(c->g[k].copy, data + p, rs) == 0);
		k++;
	}
	CHECK(k == c->n);
}

static void test_fixed(void)
{
	static const uint32_t sizes[] = { 20, 37, 100, 512, 700, 1500 };
	uint64_t size = 23 * PS + 77;
	uint8_t *data = malloc(size);

	for (uint64_t i = 0; i < size; i++) {
		data[i] = (uint8_t)(i * 131 + (i >> 8));
	}
	for (size_t t = 0; t < SS_ARRAY_SIZE(sizes); t++) {
		struct ss_layout lay = { .kind = SS_LAYOUT_FIXED, .record_size = sizes[t] };
		uint32_t bps[] = { 1, 2, 3, 0, 64 };

		for (size_t b = 0; b < SS_ARRAY_SIZE(bps); b++) {
			struct collector c = { 0 };

			CHECK(run(data, size, ISP_RD_FIXED, &lay, 0, size, bps[b], &c) == 0);
			check_fixed(data, size, sizes[t], 0, size, &c);
			c_free(&c);
		}
		/* splits at odd offsets: union is every record once */
		for (int rep = 0; rep < 20; rep++) {
			uint64_t cuts[6] = { 0 };
			size_t total = 0;

			for (int i = 1; i < 5; i++) {
				cuts[i] = (uint64_t)rand() % size;
			}
			cuts[5] = size + (uint64_t)(rand() % 50);  /* past the end is clamped */
			for (int i = 1; i < 5; i++) {
				for (int j = i + 1; j < 5; j++) {
					if (cuts[j] < cuts[i]) {
						uint64_t x = cuts[i];

						cuts[i] = cuts[j];
						cuts[j] = x;
					}
				}
			}
			for (int i = 0; i < 5; i++) {
				struct collector c = { 0 };

				CHECK(run(data, size, ISP_RD_FIXED, &lay, cuts[i], cuts[i + 1] - cuts[i],
					   0, &c) == 0);
				check_fixed(data, size, sizes[t], cuts[i], cuts[i + 1], &c);
				total += c.n;
				c_free(&c);
			}
			CHECK(total == size / sizes[t]);
		}
	}
	free(data);
}

/* ---- TEXT --------------------------------------------------------------------------- */

/* Reference: line starts and lengths of the whole object, by a plain scan. */
static size_t ref_lines(const uint8_t *d, uint64_t size, uint8_t delim, uint64_t *st, uint32_t *ln)
{
	size_t n = 0;
	uint64_t b = 0;

	for (uint64_t i = 0; i < size; i++) {
		if (d[i] == delim) {
			st[n] = b;
			ln[n++] = (uint32_t)(i - b);
			b = i + 1;
		}
	}
	if (b < size) {
		st[n] = b;
		ln[n++] = (uint32_t)(size - b);
	}
	return n;
}

static void check_text(const uint8_t *data, uint64_t size, uint64_t s, uint64_t e,
		       const struct collector *c, const uint64_t *st, const uint32_t *ln, size_t nl)
{
	size_t k = 0;

	for (size_t i = 0; i < nl; i++) {
		if (st[i] < s || st[i] >= e) {
			continue;
		}
		CHECK(k < c->n);
		CHECK(c->g[k].off == st[i]);
		CHECK(c->g[k].len == ln[i]);
		CHECK(c->g[k].lba == lba_of(st[i] / PS));
		CHECK(memcmp(c->g[k].copy, data + st[i], ln[i]) == 0);
		k++;
	}
	CHECK(k == c->n);
}

static uint8_t *make_text(uint64_t size, uint32_t maxline, int trailing_delim)
{
	uint8_t *d = malloc(size);
	uint64_t i = 0;

	while (i < size) {
		uint32_t len = (uint32_t)(rand() % (maxline + 1));

		if (rand() % 7 == 0) {
			len = 0;   /* empty lines count too */
		}
		for (uint32_t k = 0; k < len && i < size; k++) {
			d[i++] = (uint8_t)('a' + rand() % 26);
		}
		if (i < size) {
			d[i++] = '\n';
		}
	}
	if (!trailing_delim) {
		d[size - 1] = 'z';
	}
	return d;
}

static void test_text(void)
{
	for (int variant = 0; variant < 4; variant++) {
		uint64_t size = 9 * PS + 311 + (uint64_t)variant * 1000;
		uint32_t maxline = variant == 3 ? 1600 : 90;   /* lines longer than 3 pages */
		uint8_t *data = make_text(size, maxline, variant & 1);
		struct ss_layout lay = { .kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = '\t',
					 .record_size = maxline };
		uint64_t *st = malloc(size * sizeof(*st));
		uint32_t *ln = malloc(size * sizeof(*ln));
		size_t nl = ref_lines(data, size, '\n', st, ln);
		uint32_t bps[] = { 1, 2, 0, 64 };

		for (size_t b = 0; b < SS_ARRAY_SIZE(bps); b++) {
			struct collector c = { 0 };

			CHECK(run(data, size, ISP_RD_TEXT, &lay, 0, size, bps[b], &c) == 0);
			check_text(data, size, 0, size, &c, st, ln, nl);
			c_free(&c);
		}
		for (int rep = 0; rep < 40; rep++) {
			uint64_t a = (uint64_t)rand() % size, b2 = (uint64_t)rand() % size;
			uint64_t cuts[4] = { 0, SS_MIN(a, b2), SS_MAX(a, b2), size };
			size_t total = 0;

			if (rep == 0) {
				/* cut right after a delimiter and right on one */
				cuts[1] = st[nl / 3];
				cuts[2] = st[nl / 2] + ln[nl / 2];
			}
			for (int i = 0; i < 3; i++) {
				struct collector c = { 0 };

				CHECK(run(data, size, ISP_RD_TEXT, &lay, cuts[i], cuts[i + 1] - cuts[i],
					   0, &c) == 0);
				check_text(data, size, cuts[i], cuts[i + 1], &c, st, ln, nl);
				total += c.n;
				c_free(&c);
			}
			CHECK(total == nl);
		}
		free(st);
		free(ln);
		free(data);
	}
}

static void test_text_long_line(void)
{
	uint64_t size = 4 * PS;
	uint8_t *data = malloc(size);
	struct ss_layout lay = { .kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = ',',
				 .record_size = 100 };
	struct collector c = { 0 };

	memset(data, 'x', size);
	data[50] = '\n';
	data[50 + 101 + 1] = '\n';          /* a 101-byte line inside one page */
	CHECK(run(data, size, ISP_RD_TEXT, &lay, 0, size, 4, &c) == -SS_E2BIG);
	c_free(&c);

	memset(data, 'x', size);
	for (uint32_t i = 0; i <= PS - 20; i += 50) {
		data[i] = '\n';              /* short lines, then one straddling pages, too long */
	}
	CHECK(run(data, size, ISP_RD_TEXT, &lay, 0, size, 1, &c) == -SS_E2BIG);
	c_free(&c);

	/* exactly record_size is accepted, across a batch boundary */
	memset(data, 'y', size);
	data[PS - 40] = '\n';
	data[PS - 40 + 101] = '\n';
	data[size - 1] = '\n';
	lay.record_size = (uint32_t)(size - (PS - 40 + 102) - 1);
	CHECK(run(data, size, ISP_RD_TEXT, &lay, 0, size, 1, &c) == 0);
	CHECK(c.n == 3 && c.g[1].len == 100 && c.g[2].len == lay.record_size);
	c_free(&c);
	free(data);
}

/* ---- pages, empty ranges, early stop --------------------------------------------------- */

static void test_pages_and_edges(void)
{
	uint64_t size = 7 * PS + 100;
	uint8_t *data = calloc(1, size);
	struct ss_layout lay = { .kind = SS_LAYOUT_FIXED, .record_size = 32 };
	struct collector c = { 0 };
	size_t total = 0;
	uint64_t cuts[] = { 0, 1, PS, PS + 1, 5 * PS - 3, size };

	for (size_t i = 0; i + 1 < SS_ARRAY_SIZE(cuts); i++) {
		CHECK(run(data, size, ISP_RD_PAGES, &lay, cuts[i], cuts[i + 1] - cuts[i], 0, &c) == 0);
		for (size_t k = 0; k < c.n; k++) {
			CHECK(c.g[k].off % PS == 0 && c.g[k].off >= cuts[i] && c.g[k].off < cuts[i + 1]);
			CHECK(c.g[k].len == SS_MIN((uint64_t)PS, size - c.g[k].off));
			CHECK(c.g[k].lba == lba_of(c.g[k].off / PS));
		}
		total += c.n;
		c_free(&c);
	}
	CHECK(total == 8);

	/* empty and out-of-range splits deliver nothing */
	CHECK(run(data, size, ISP_RD_FIXED, &lay, 40, 0, 0, &c) == 0 && c.n == 0);
	CHECK(run(data, size, ISP_RD_FIXED, &lay, size + 10, 100, 0, &c) == 0 && c.n == 0);
	CHECK(run(data, size, ISP_RD_FIXED, &lay, 33, 31, 0, &c) == 0 && c.n == 0);
	lay.kind = SS_LAYOUT_TEXT;
	lay.line_delim = '\n';
	CHECK(run(data, size, ISP_RD_TEXT, &lay, 5, 10, 0, &c) == 0 && c.n == 0);

	/* a sink's SS_TASKLET_DONE stops the reader at once */
	lay.kind = SS_LAYOUT_FIXED;
	c.stop_after = 5;
	CHECK(run(data, size, ISP_RD_FIXED, &lay, 0, size, 0, &c) == SS_TASKLET_DONE && c.n == 5);
	c_free(&c);
	free(data);
}

int main(void)
{
	srand(12345);
	test_fixed();
	test_text();
	test_text_long_line();
	test_pages_and_edges();
	printf("isp_reader_ut: ok\n");
	return 0;
}
