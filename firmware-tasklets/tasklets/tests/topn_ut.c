/*
 * top-N per group against a reference computed here (stable sort of each group's records,
 * ties to the earlier record): largest by an unsigned field with whole-record payloads,
 * smallest by a signed field with projected payloads, two keys, spills under a small
 * budget and splits merged as the host would, a TEXT layout, and bad params.
 */
#include "bt_test.h"

struct item {
	uint64_t k1, k2, value, order;
	uint32_t len;
	uint8_t payload[64];
};

static int smallest_mode;
static int signed_mode;

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->k1 != y->k1) {
		return x->k1 < y->k1 ? -1 : 1;
	}
	if (x->k2 != y->k2) {
		return x->k2 < y->k2 ? -1 : 1;
	}
	if (x->value != y->value) {
		int lt = signed_mode ? (int64_t)x->value < (int64_t)y->value : x->value < y->value;

		return (smallest_mode ? lt : !lt) ? -1 : 1;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Sort by group then rank, keep the first n of each group; \return the count kept. */
static size_t top(struct item *it, size_t n, uint32_t keep)
{
	size_t out = 0, same = 0;

	qsort(it, n, sizeof(*it), cmp_item);
	for (size_t i = 0; i < n; i++) {
		if (out && it[out - 1].k1 == it[i].k1 && it[out - 1].k2 == it[i].k2) {
			if (same == keep) {
				continue;
			}
			same++;
		} else {
			same = 1;
		}
		it[out++] = it[i];
	}
	return out;
}

/* Append the items of one output (in emission order) to `it`. */
static size_t parse(const uint8_t *o, uint64_t len, struct item *it, size_t n, uint64_t *spills)
{
	uint64_t body, at = 0, count = 0;
	struct trailer tr = get_trailer(o, len, SS_BT_TOPN, &body);

	while (at < body) {
		struct item *x = &it[n++];

		x->k1 = ss_get_le64(o + at);
		x->k2 = ss_get_le64(o + at + 8);
		x->value = ss_get_le64(o + at + 16);
		x->len = ss_get_le32(o + at + 24);
		CHECK(ss_get_le32(o + at + 28) == 0 && x->len <= sizeof(x->payload));
		memcpy(x->payload, o + at + 32, x->len);
		x->order = n;
		at += 32 + x->len;
		count++;
	}
	CHECK(at == body && count == tr.items_out);
	*spills += tr.aux;
	return n;
}

static void check_same(const struct item *a, size_t na, const struct item *b, size_t nb)
{
	CHECK(na == nb);
	for (size_t i = 0; i < na; i++) {
		CHECK(a[i].k1 == b[i].k1 && a[i].k2 == b[i].k2 && a[i].value == b[i].value);
		CHECK(a[i].len == b[i].len && memcmp(a[i].payload, b[i].payload, a[i].len) == 0);
	}
}

static void params(uint8_t *p, uint8_t nkeys, uint8_t k1, uint8_t k2, uint8_t val, uint8_t flags,
		   uint8_t nproj, uint16_t n, uint32_t max_groups, const uint8_t *proj)
{
	p[0] = nkeys;
	p[1] = k1;
	p[2] = k2;
	p[3] = val;
	p[4] = flags;
	p[5] = nproj;
	ss_put_le16(p + 6, n);
	ss_put_le32(p + 8, max_groups);
	if (nproj) {
		memcpy(p + 12, proj, nproj);
	}
}

static void test_fixed(struct tenv *e)
{
	uint32_t nrec = 12000;
	uint8_t *d = wc_make(nrec, 32);
	uint64_t size = (uint64_t)nrec * WC_RS;
	ss_oid_t f = tenv_put(e, "topn.bin", d, size), out = tenv_output(e, "topn.out");
	struct item *ref = calloc(nrec, sizeof(*ref)), *got = calloc(nrec, sizeof(*got));
	uint8_t prm[32];
	uint64_t cuts[4], spills;
	size_t nref, ngot;

	/* 1: top 5 sizes per region, whole records, three splits, a budget for ~3 groups */
	smallest_mode = 0;
	signed_mode = 0;
	for (uint32_t i = 0; i < nrec; i++) {
		const uint8_t *r = d + (size_t)i * WC_RS;
		struct wc_rec w = wc_decode(r);

		ref[i] = (struct item){ .k1 = w.region, .value = w.size, .order = i, .len = WC_RS };
		memcpy(ref[i].payload, r, WC_RS);
	}
	nref = top(ref, nrec, 5);
	params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 0, 5, 0, NULL);
	odd_cuts(size, cuts, 3);
	ngot = 0;
	spills = 0;
	for (int s = 0; s < 3; s++) {
		struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
		struct ss_isp_progress p;
		uint64_t len;
		uint8_t *o = bt_run(e, SS_BT_TOPN, prm, 12, &wc_layout, 1500, out, &in, 1, &len, &p);

		CHECK(p.state == SS_ISP_DONE);
		ngot = parse(o, len, got, ngot, &spills);
		free(o);
	}
	CHECK(spills > 0);
	ngot = top(got, ngot, 5);
	check_same(ref, nref, got, ngot);

	/* 2: 3 smallest deltas per (region, type), projected payloads, whole object */
	{
		static const uint8_t proj[] = { WC_OBJECT, WC_TAG, WC_DELTA };
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint64_t len;
		uint8_t *o;

		smallest_mode = 1;
		signed_mode = 1;
		for (uint32_t i = 0; i < nrec; i++) {
			const uint8_t *r = d + (size_t)i * WC_RS;
			struct wc_rec w = wc_decode(r);
			uint8_t *p = ref[i].payload;

			ref[i] = (struct item){ .k1 = w.region, .k2 = w.type, .value = (uint64_t)(int64_t)w.delta,
						.order = i, .len = 8 + 10 + 8 };
			ss_put_le64(p, w.object);
			ss_put_le16(p + 8, 8);
			memcpy(p + 10, w.tag, 8);
			ss_put_le64(p + 18, (uint64_t)(int64_t)w.delta);
		}
		nref = top(ref, nrec, 3);
		params(prm, 2, WC_REGION, WC_TYPE, WC_DELTA, SS_BT_TOPN_SMALLEST, 3, 3, 0, proj);
		for (int budget = 0; budget < 2; budget++) {
			o = bt_run(e, SS_BT_TOPN, prm, 15, &wc_layout, budget ? 4000 : 256 << 10, out, &in,
				   1, &len, NULL);
			spills = 0;
			ngot = parse(o, len, got, 0, &spills);
			CHECK(budget ? spills > 0 : spills == 0);
			ngot = top(got, ngot, 3);
			check_same(ref, nref, got, ngot);
			free(o);
		}
	}

	/* 3: WHERE delta < 0: top 4 sizes per region among those records only, whole records */
	{
		static const uint8_t tree[] = { SS_BT_P_LT, WC_DELTA, 0, 0, 0, 0, 0, 0, 0, 0 };
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint64_t len;
		size_t m = 0;
		uint8_t *o;

		smallest_mode = 0;
		signed_mode = 0;
		for (uint32_t i = 0; i < nrec; i++) {
			const uint8_t *r = d + (size_t)i * WC_RS;
			struct wc_rec w = wc_decode(r);

			if (w.delta < 0) {
				ref[m] = (struct item){ .k1 = w.region, .value = w.size, .order = i, .len = WC_RS };
				memcpy(ref[m].payload, r, WC_RS);
				m++;
			}
		}
		CHECK(m > 0 && m < nrec);
		nref = top(ref, m, 4);
		params(prm, 1, WC_REGION, 0, WC_SIZE, SS_BT_TOPN_WHERE, 0, 4, 0, NULL);
		ss_put_le16(prm + 12, sizeof(tree));
		memcpy(prm + 14, tree, sizeof(tree));
		o = bt_run(e, SS_BT_TOPN, prm, 14 + sizeof(tree), &wc_layout, 64 << 10, out, &in, 1,
			   &len, NULL);
		spills = 0;
		ngot = parse(o, len, got, 0, &spills);
		ngot = top(got, ngot, 4);
		check_same(ref, nref, got, ngot);
		free(o);
		/* WHERE flag with the tree cut short, and a tree without the flag */
		bt_fail(e, SS_BT_TOPN, prm, 13 + sizeof(tree), &wc_layout, 64 << 10, out, &in,
			-SS_EINVAL);
		prm[4] = 0;
		bt_fail(e, SS_BT_TOPN, prm, 14 + sizeof(tree), &wc_layout, 64 << 10, out, &in,
			-SS_EINVAL);
	}

	/* bad params */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		static const uint8_t badproj[] = { 40 };

		params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 0, 0, 0, NULL);           /* n = 0 */
		bt_fail(e, SS_BT_TOPN, prm, 12, &wc_layout, 8192, out, &in, -SS_EINVAL);
		params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 0, 1025, 0, NULL);
		bt_fail(e, SS_BT_TOPN, prm, 12, &wc_layout, 8192, out, &in, -SS_EINVAL);
		params(prm, 1, WC_REGION, 0, WC_TAG, 0, 0, 5, 0, NULL);            /* bytes value */
		bt_fail(e, SS_BT_TOPN, prm, 12, &wc_layout, 8192, out, &in, -SS_EINVAL);
		params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 1, 5, 0, badproj);
		bt_fail(e, SS_BT_TOPN, prm, 13, &wc_layout, 8192, out, &in, -SS_EINVAL);
		params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 0, 5, 0, NULL);
		bt_fail(e, SS_BT_TOPN, prm, 13, &wc_layout, 8192, out, &in, -SS_EINVAL); /* length */
		params(prm, 1, WC_REGION, 0, WC_SIZE, 0x80, 0, 5, 0, NULL);
		bt_fail(e, SS_BT_TOPN, prm, 12, &wc_layout, 8192, out, &in, -SS_EINVAL);
		params(prm, 1, WC_REGION, 0, WC_SIZE, 0, 0, 1024, 0, NULL);        /* over budget */
		bt_fail(e, SS_BT_TOPN, prm, 12, &wc_layout, 8192, out, &in, -SS_ENOMEM);
		bt_store_ok(e, "after-topn-failures");
	}
	free(ref);
	free(got);
	free(d);
}

/* TEXT: "key,score,word" lines; top 2 scores per key, whole lines as payload. */
static void test_text(struct tenv *e)
{
	static const struct ss_layout csv = {
		.kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = ',', .record_size = 64,
		.nfields = 3,
		.fields = { { .offset = 0, .type = SS_FIELD_U32 }, { .offset = 1, .type = SS_FIELD_I64 },
			    { .offset = 2, .type = SS_FIELD_BYTES } },
	};
	size_t cap = 120000, at = 0, n = 0;
	char *txt = malloc(cap);
	struct item *ref = calloc(cap / 8, sizeof(*ref)), *got = calloc(cap / 8, sizeof(*got));
	uint8_t prm[12];
	uint64_t cuts[4], spills = 0;
	size_t nref, ngot = 0;

	while (at < cap - 80) {
		uint32_t k = (uint32_t)(rnd() % 20);
		int64_t s = (int64_t)(rnd() % 200) - 100;
		int w = (int)(rnd() % 30);
		size_t start = at;

		at += (size_t)sprintf(txt + at, "%u,%lld,%.*s\n", k, (long long)s, w,
				      "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww");
		ref[n] = (struct item){ .k1 = k, .value = (uint64_t)s, .order = n,
					.len = (uint32_t)(at - start - 1) };
		memcpy(ref[n].payload, txt + start, ref[n].len);
		n++;
	}
	smallest_mode = 0;
	signed_mode = 1;
	nref = top(ref, n, 2);
	ss_oid_t f = tenv_put(e, "topn.csv", txt, at), out = tenv_output(e, "topn-csv.out");

	params(prm, 1, 0, 0, 1, 0, 0, 2, 0, NULL);
	odd_cuts(at, cuts, 3);
	for (int s = 0; s < 3; s++) {
		struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
		uint64_t len;
		uint8_t *o = bt_run(e, SS_BT_TOPN, prm, 12, &csv, 2000, out, &in, 1, &len, NULL);

		ngot = parse(o, len, got, ngot, &spills);
		free(o);
	}
	ngot = top(got, ngot, 2);
	check_same(ref, nref, got, ngot);
	free(ref);
	free(got);
	free(txt);
}

int main(void)
{
	struct tenv *e = bt_env();

	test_fixed(e);
	test_text(e);
	tenv_close(e);
	printf("topn_ut: ok\n");
	return 0;
}
