/*
 * filter against predicates evaluated here on the raw records: every output mode (whole
 * records, projected fields, first-match pages with their LBAs from the store's extents,
 * count), splits whose concatenated outputs equal the whole, the limit, a TEXT layout with
 * lines straddling pages, the first-match saving of Kang §6.5.3 in counted work, and
 * malformed trees.
 */
#include "bt_test.h"

/* ---- a tiny tree encoder ---- */
struct tree {
	uint8_t b[512];
	uint32_t n;
};

static void op(struct tree *t, uint8_t o)
{
	t->b[t->n++] = o;
}

static void group(struct tree *t, uint8_t o, uint8_t nchild)
{
	op(t, o);
	op(t, nchild);
}

static void icmp(struct tree *t, uint8_t o, uint8_t field, int64_t k)
{
	op(t, o);
	op(t, field);
	ss_put_le64(t->b + t->n, (uint64_t)k);
	t->n += 8;
}

static void bcmp_(struct tree *t, uint8_t o, uint8_t field, const char *s)
{
	uint16_t len = (uint16_t)strlen(s);

	op(t, o);
	op(t, field);
	ss_put_le16(t->b + t->n, len);
	memcpy(t->b + t->n + 2, s, len);
	t->n += 2u + len;
}

static uint32_t params(uint8_t *p, uint8_t mode, const uint8_t *proj, uint8_t nproj,
		       const struct tree *t, uint32_t limit)
{
	p[0] = mode;
	p[1] = nproj;
	ss_put_le16(p + 2, (uint16_t)t->n);
	ss_put_le32(p + 4, limit);
	if (nproj) {
		memcpy(p + 8, proj, nproj);
	}
	memcpy(p + 8 + nproj, t->b, t->n);
	return 8u + nproj + t->n;
}

/* P1 = (region == 2 AND size > 2500) OR NOT(type < 28) OR (PREFIX(tag, "ab") AND delta >= 9000) */
static void tree1(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	group(t, SS_BT_P_OR, 3);
	group(t, SS_BT_P_AND, 2);
	icmp(t, SS_BT_P_EQ, WC_REGION, 2);
	icmp(t, SS_BT_P_GT, WC_SIZE, 2500);
	op(t, SS_BT_P_NOT);
	icmp(t, SS_BT_P_LT, WC_TYPE, 28);
	group(t, SS_BT_P_AND, 2);
	bcmp_(t, SS_BT_P_PREFIX, WC_TAG, "ab");
	icmp(t, SS_BT_P_GE, WC_DELTA, 9000);
}

static int p1(struct wc_rec w)
{
	return (w.region == 2 && w.size > 2500) || !(w.type < 28) ||
	       (memcmp(w.tag, "ab", 2) == 0 && w.delta >= 9000);
}

/* P2 (rare) = region == 5 AND type == 7 AND (CONTAINS(tag, "q1") OR SUFFIX(tag, "gh") OR
 * delta <= -9000) AND method != 2 */
static void tree2(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	group(t, SS_BT_P_AND, 4);
	icmp(t, SS_BT_P_EQ, WC_REGION, 5);
	icmp(t, SS_BT_P_EQ, WC_TYPE, 7);
	group(t, SS_BT_P_OR, 3);
	bcmp_(t, SS_BT_P_CONTAINS, WC_TAG, "q1");
	bcmp_(t, SS_BT_P_SUFFIX, WC_TAG, "gh");
	icmp(t, SS_BT_P_LE, WC_DELTA, -9000);
	icmp(t, SS_BT_P_NE, WC_METHOD, 2);
}

static int p2(const uint8_t *r)
{
	struct wc_rec w = wc_decode(r);

	return w.region == 5 && w.type == 7 && (memmem(w.tag, 8, "q1", 2) ||
		memcmp(w.tag + 6, "gh", 2) == 0 || w.delta <= -9000) &&
	       r[16] != 2;
}

/* P3 (common, ~60%) = size < 3000 */
static void tree3(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	icmp(t, SS_BT_P_LT, WC_SIZE, 3000);
}

static int p3(const uint8_t *r)
{
	return wc_decode(r).size < 3000;
}

static uint8_t *body_of(uint8_t *o, uint64_t len, uint64_t *body, struct trailer *tr)
{
	*tr = get_trailer(o, len, SS_BT_FILTER, body);
	return o;
}

static void test_fixed(struct tenv *e)
{
	uint32_t nrec = 40000, ps = tenv_page_size(e);
	uint8_t *d = wc_make(nrec, 32);
	uint64_t size = (uint64_t)nrec * WC_RS;
	ss_oid_t f = tenv_put(e, "filter.bin", d, size), out = tenv_output(e, "filter.out");
	struct ss_isp_input whole = { .oid = f, .offset = 0, .length = size };
	uint8_t prm[600], *exp = malloc(size), *o;
	uint64_t nexp = 0, nmatch = 0, len, body;
	struct trailer tr;
	struct tree t;
	uint32_t plen;

	/* RECORDS */
	tree1(&t);
	for (uint32_t i = 0; i < nrec; i++) {
		if (p1(wc_decode(d + (size_t)i * WC_RS))) {
			memcpy(exp + nexp, d + (size_t)i * WC_RS, WC_RS);
			nexp += WC_RS;
			nmatch++;
		}
	}
	CHECK(nmatch > nrec / 10 && nmatch < nrec / 2);
	plen = params(prm, SS_BT_FILTER_RECORDS, NULL, 0, &t, 0);
	o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, NULL);
	body_of(o, len, &body, &tr);
	CHECK(body == nexp && memcmp(o, exp, nexp) == 0);
	CHECK(tr.records_in == nrec && tr.aux == nmatch && tr.items_out == nmatch);
	free(o);

	/* RECORDS over splits: the outputs concatenated are the whole answer */
	{
		uint64_t cuts[6], at = 0;

		odd_cuts(size, cuts, 5);
		for (int s = 0; s < 5; s++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };

			o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &in, 1, &len, NULL);
			body_of(o, len, &body, &tr);
			CHECK(at + body <= nexp && memcmp(o, exp + at, body) == 0);
			at += body;
			free(o);
		}
		CHECK(at == nexp);
	}

	/* limit */
	plen = params(prm, SS_BT_FILTER_RECORDS, NULL, 0, &t, 7);
	o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, NULL);
	body_of(o, len, &body, &tr);
	CHECK(body == 7 * WC_RS && memcmp(o, exp, body) == 0 && tr.aux == 7);
	free(o);

	/* PROJECT: size, tag, delta */
	{
		static const uint8_t proj[] = { WC_SIZE, WC_TAG, WC_DELTA };
		uint64_t at = 0;

		for (uint32_t i = 0; i < nrec; i++) {
			struct wc_rec w = wc_decode(d + (size_t)i * WC_RS);

			if (p1(w)) {
				ss_put_le64(exp + at, w.size);
				ss_put_le16(exp + at + 8, 8);
				memcpy(exp + at + 10, w.tag, 8);
				ss_put_le64(exp + at + 18, (uint64_t)(int64_t)w.delta);
				at += 26;
			}
		}
		plen = params(prm, SS_BT_FILTER_PROJECT, proj, 3, &t, 0);
		o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, NULL);
		body_of(o, len, &body, &tr);
		CHECK(body == at && memcmp(o, exp, at) == 0 && tr.aux == nmatch);
		free(o);
	}

	/* COUNT */
	plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &t, 0);
	o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, NULL);
	body_of(o, len, &body, &tr);
	CHECK(body == 0 && tr.aux == nmatch && tr.records_in == nrec && tr.items_out == 0);
	free(o);

	/* PAGES with a rare predicate: exactly the pages holding a matching record's first
	 * byte, with the LBAs the store maps them to */
	{
		uint64_t pages[4096], np = 0, last = UINT64_MAX;

		tree2(&t);
		for (uint32_t i = 0; i < nrec; i++) {
			uint64_t pg = (uint64_t)i * WC_RS / ps;

			if (p2(d + (size_t)i * WC_RS) && pg != last) {
				pages[np++] = pg;
				last = pg;
			}
		}
		CHECK(np >= 5 && np < size / ps / 2);
		plen = params(prm, SS_BT_FILTER_PAGES, NULL, 0, &t, 0);
		o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, NULL);
		body_of(o, len, &body, &tr);
		CHECK(body == np * 24 && tr.items_out == np && tr.aux == np);
		for (uint64_t k = 0; k < np; k++) {
			CHECK(ss_get_le64(o + k * 24) == tenv_page_lba(e, f, pages[k]));
			CHECK(ss_get_le64(o + k * 24 + 8) == f);
			CHECK(ss_get_le64(o + k * 24 + 16) == pages[k] * ps);
		}
		free(o);
	}

	/* first match: with a common predicate nearly every page matches early, so the pages
	 * mode compares far fewer records than a full count (Kang §6.5.3) */
	{
		struct ss_isp_progress pc, pp;
		uint64_t npages = SS_DIV_ROUND_UP(size, ps), cnt = 0;

		tree3(&t);
		for (uint32_t i = 0; i < nrec; i++) {
			cnt += (uint64_t)p3(d + (size_t)i * WC_RS);
		}
		plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &t, 0);
		o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, &pc);
		body_of(o, len, &body, &tr);
		CHECK(tr.aux == cnt);
		free(o);
		plen = params(prm, SS_BT_FILTER_PAGES, NULL, 0, &t, 0);
		o = bt_run(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, 1, &len, &pp);
		body_of(o, len, &body, &tr);
		CHECK(tr.items_out == npages);
		CHECK(pp.dram_accesses < pc.dram_accesses && pp.instructions < pc.instructions);
		free(o);
	}

	/* malformed trees and params */
	{
		static const uint8_t bad_trees[][16] = {
			{ 0x01, 0x00 },                                        /* AND of nothing */
			{ 0x77 },                                              /* unknown op */
			{ 0x10, WC_TAG, 0, 0, 0, 0, 0, 0, 0, 0 },             /* int op on bytes */
			{ 0x21, WC_SIZE, 1, 0, 'a' },                          /* bytes op on int */
			{ 0x10, WC_SIZE, 0, 0, 0 },                            /* truncated */
			{ 0x03 },                                              /* NOT of nothing */
			{ 0x10, 60, 0, 0, 0, 0, 0, 0, 0, 0 },                 /* no such field */
			{ 0x21, WC_TAG, 9, 0, 'a' },                           /* length past end */
		};
		static const uint8_t bad_len[] = { 2, 1, 10, 5, 5, 1, 10, 5 };
		struct tree deep = { .n = 0 };

		for (size_t i = 0; i < SS_ARRAY_SIZE(bad_trees); i++) {
			memset(&t, 0, sizeof(t));
			memcpy(t.b, bad_trees[i], bad_len[i]);
			t.n = bad_len[i];
			plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &t, 0);
			bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		}
		/* trailing bytes after a complete tree */
		tree3(&t);
		op(&t, 0x03);
		plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &t, 0);
		bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		/* too deep */
		for (int i = 0; i < SS_BT_FILTER_MAX_DEPTH; i++) {
			op(&deep, SS_BT_P_NOT);
		}
		icmp(&deep, SS_BT_P_EQ, WC_SIZE, 1);
		plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &deep, 0);
		bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		/* PROJECT without fields, unknown mode, projection past the layout */
		tree3(&t);
		plen = params(prm, SS_BT_FILTER_PROJECT, NULL, 0, &t, 0);
		bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		plen = params(prm, 9, NULL, 0, &t, 0);
		bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		{
			static const uint8_t proj[] = { 30 };

			plen = params(prm, SS_BT_FILTER_PROJECT, proj, 1, &t, 0);
			bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 4096, out, &whole, -SS_EINVAL);
		}
		/* a budget too small for the decoded tree */
		plen = params(prm, SS_BT_FILTER_COUNT, NULL, 0, &t, 0);
		bt_fail(e, SS_BT_FILTER, prm, plen, &wc_layout, 256, out, &whole, -SS_ENOMEM);
		bt_store_ok(e, "after-filter-failures");
	}
	free(exp);
	free(d);
}

/* TEXT "id|name|score": CONTAINS on a column and a signed compare; lines straddle pages. */
static void test_text(struct tenv *e)
{
	static const struct ss_layout psv = {
		.kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = '|', .record_size = 300,
		.nfields = 3,
		.fields = { { .offset = 0, .type = SS_FIELD_U64 }, { .offset = 1, .type = SS_FIELD_BYTES },
			    { .offset = 2, .type = SS_FIELD_I32 } },
	};
	static const char *names[] = { "alpha", "foobar", "xfoo", "bar", "fo", "zzfoozz" };
	size_t cap = 200000, at = 0, nexp = 0;
	char *txt = malloc(cap), *exp = malloc(cap);
	struct tree t = { .n = 0 };
	uint8_t prm[128];
	uint64_t cuts[4], got = 0;
	uint32_t plen, id = 0;

	while (at < cap - 400) {
		const char *nm = names[rnd() % 6];
		int score = (int)(rnd() % 201) - 100;
		int pad = (int)(rnd() % 250);
		size_t start = at;

		if (rnd() % 40 == 0) {
			at += (size_t)sprintf(txt + at, "%u|%s%.*s\n", id++, nm, pad % 20, "----------------------");
		} else {
			at += (size_t)sprintf(txt + at, "%u|%s%.*s|%d\n", id++, nm, pad,
					      "................................................................................................................................................................................................................................................................", score);
			if (strstr(nm, "foo") && score > -20) {
				memcpy(exp + nexp, txt + start, at - start);
				nexp += at - start;
			}
		}
	}
	group(&t, SS_BT_P_AND, 2);
	bcmp_(&t, SS_BT_P_CONTAINS, 1, "foo");
	icmp(&t, SS_BT_P_GT, 2, -20);
	plen = params(prm, SS_BT_FILTER_RECORDS, NULL, 0, &t, 0);
	ss_oid_t f = tenv_put(e, "filter.psv", txt, at), out = tenv_output(e, "filter-psv.out");

	odd_cuts(at, cuts, 3);
	for (int s = 0; s < 3; s++) {
		struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
		uint64_t len, body;
		struct trailer tr;
		uint8_t *o = bt_run(e, SS_BT_FILTER, prm, plen, &psv, 4096, out, &in, 1, &len, NULL);

		body_of(o, len, &body, &tr);
		CHECK(got + body <= nexp && memcmp(o, exp + got, body) == 0);
		got += body;
		free(o);
	}
	CHECK(got == nexp && nexp > 1000);
	free(txt);
	free(exp);
}

int main(void)
{
	struct tenv *e = bt_env();

	test_fixed(e);
	test_text(e);
	tenv_close(e);
	printf("filter_ut: ok\n");
	return 0;
}
