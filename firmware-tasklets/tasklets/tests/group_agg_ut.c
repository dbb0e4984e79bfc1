/*
 * group-aggregate against aggregates computed here from the raw records: one key, two keys
 * with a signed value, a budget so small the groups spill (partials merged here), splits
 * at odd offsets, a TEXT layout with lines straddling pages, bad params / budgets, and three
 * and four keys (keys 2..4 packed into key2), a signed key among them.
 */
#include "bt_test.h"

#define NK1 8
#define NK2 32

struct agg {
	uint64_t count;
	int64_t sum, min, max;
};

static void agg_add(struct agg *a, int64_t v)
{
	if (!a->count) {
		a->min = a->max = v;
	}
	a->count++;
	a->sum += v;
	a->min = v < a->min ? v : a->min;
	a->max = v > a->max ? v : a->max;
}

static void put_params(uint8_t *p, uint8_t nkeys, uint8_t k1, uint8_t k2, uint8_t val,
		       uint8_t ops, uint32_t max_groups)
{
	memset(p, 0, 16);
	p[0] = nkeys;
	p[1] = k1;
	p[2] = k2;
	p[3] = val;
	p[4] = ops;
	ss_put_le32(p + 8, max_groups);
}

/* Merge an output's items into table[k1][k2]; \return the trailer. */
static struct trailer merge(const uint8_t *o, uint64_t len, struct agg t[NK1][NK2], uint8_t ops)
{
	uint64_t body;
	struct trailer tr = get_trailer(o, len, SS_BT_GROUP_AGG, &body);

	CHECK(body % 48 == 0 && body / 48 == tr.items_out);
	for (uint64_t i = 0; i < body; i += 48) {
		uint64_t k1 = ss_get_le64(o + i), k2 = ss_get_le64(o + i + 8);
		uint64_t c = ss_get_le64(o + i + 16);
		int64_t s = (int64_t)ss_get_le64(o + i + 24);
		int64_t mn = (int64_t)ss_get_le64(o + i + 32), mx = (int64_t)ss_get_le64(o + i + 40);
		struct agg *a;

		CHECK(k1 < NK1 && k2 < NK2 && c > 0);
		a = &t[k1][k2];
		if (!(ops & SS_BT_AGG_SUM)) {
			CHECK(s == 0);
		}
		if (!(ops & SS_BT_AGG_MIN)) {
			CHECK(mn == 0 && mx == 0);
		}
		if (!a->count) {
			a->min = mn;
			a->max = mx;
		}
		a->count += c;
		a->sum += s;
		if (ops & SS_BT_AGG_MIN) {
			a->min = mn < a->min ? mn : a->min;
			a->max = mx > a->max ? mx : a->max;
		}
	}
	return tr;
}

static void check_equal(struct agg got[NK1][NK2], struct agg exp[NK1][NK2], uint8_t ops)
{
	for (int i = 0; i < NK1; i++) {
		for (int j = 0; j < NK2; j++) {
			CHECK(got[i][j].count == exp[i][j].count);
			if (!exp[i][j].count) {
				continue;
			}
			if (ops & SS_BT_AGG_SUM) {
				CHECK(got[i][j].sum == exp[i][j].sum);
			}
			if (ops & SS_BT_AGG_MIN) {
				CHECK(got[i][j].min == exp[i][j].min);
			}
			if (ops & SS_BT_AGG_MAX) {
				CHECK(got[i][j].max == exp[i][j].max);
			}
		}
	}
}

static void test_fixed(struct tenv *e)
{
	uint32_t n = 9000;
	uint8_t *d = wc_make(n, NK2);
	uint64_t size = (uint64_t)n * WC_RS + 17;   /* a trailing partial record is ignored */
	ss_oid_t f, out = tenv_output(e, "agg.out");
	static struct agg exp1[NK1][NK2], got1[NK1][NK2], exp2[NK1][NK2], got2[NK1][NK2];
	uint8_t prm[16];
	uint64_t len;
	uint8_t *o;
	struct ss_isp_progress p;
	struct trailer tr;

	d = realloc(d, size);
	memset(d + (size_t)n * WC_RS, 0x5A, 17);
	f = tenv_put(e, "wc.bin", d, size);
	for (uint32_t i = 0; i < n; i++) {
		struct wc_rec w = wc_decode(d + (size_t)i * WC_RS);

		agg_add(&exp1[w.region][0], w.size);
		agg_add(&exp2[w.region][w.type], w.delta);
	}

	/* COUNT SUM MIN MAX of size per region, whole object, room for every group */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint8_t ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;

		put_params(prm, 1, WC_REGION, 0, WC_SIZE, ops, 0);
		o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 64 << 10, out, &in, 1, &len, &p);
		CHECK(p.state == SS_ISP_DONE);
		tr = merge(o, len, got1, ops);
		CHECK(tr.aux == 0 && tr.records_in == n && tr.items_out <= NK1);
		check_equal(got1, exp1, ops);
		CHECK(p.records == n && p.dram_accesses > 0 && p.instructions > p.dram_accesses);
		free(o);
	}
	/* two keys, signed value, a budget for a few dozen of the 256 groups, three splits */
	{
		uint8_t ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;
		uint64_t cuts[4], records = 0, spills = 0;

		memset(got2, 0, sizeof(got2));
		odd_cuts(size, cuts, 3);
		put_params(prm, 2, WC_REGION, WC_TYPE, WC_DELTA, ops, 0);
		for (int s = 0; s < 3; s++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };

			o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 2048, out, &in, 1, &len, &p);
			CHECK(p.state == SS_ISP_DONE);
			tr = merge(o, len, got2, ops);
			records += tr.records_in;
			spills += tr.aux;
			free(o);
		}
		CHECK(records == n);
		CHECK(spills >= 3);
		check_equal(got2, exp2, ops);
	}
	/* COUNT only, max_groups 5: partials still merge exactly */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		memset(got2, 0, sizeof(got2));
		put_params(prm, 2, WC_REGION, WC_TYPE, 0xEE, SS_BT_AGG_COUNT, 5);
		o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 64 << 10, out, &in, 1, &len, &p);
		tr = merge(o, len, got2, SS_BT_AGG_COUNT);
		CHECK(tr.aux > 10);
		check_equal(got2, exp2, SS_BT_AGG_COUNT);
		free(o);
	}
	/* no keys: one group */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		uint64_t body;
		int64_t sum = 0;

		for (int i = 0; i < NK1; i++) {
			for (int j = 0; j < NK2; j++) {
				sum += exp2[i][j].sum;
			}
		}
		put_params(prm, 0, 0, 0, WC_DELTA, SS_BT_AGG_SUM, 0);
		o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 4096, out, &in, 1, &len, &p);
		tr = get_trailer(o, len, SS_BT_GROUP_AGG, &body);
		CHECK(body == 48 && ss_get_le64(o + 16) == n && (int64_t)ss_get_le64(o + 24) == sum);
		free(o);
	}

	/* WHERE size >= 1000 AND tag starts with "ab": SUM/MIN/MAX per region over the matches
	 * only, three splits, a budget that spills */
	{
		static const uint8_t tree[] = {
			SS_BT_P_AND, 2,
			SS_BT_P_GE, WC_SIZE, 0xe8, 0x03, 0, 0, 0, 0, 0, 0,
			SS_BT_P_PREFIX, WC_TAG, 2, 0, 'a', 'b',
		};
		static struct agg expw[NK1][NK2], gotw[NK1][NK2];
		uint8_t ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;
		uint8_t wprm[16 + sizeof(tree)];
		struct ss_isp_input whole = { .oid = f, .offset = 0, .length = size };
		uint64_t cuts[4], records = 0, matched = 0;

		for (uint32_t i = 0; i < n; i++) {
			struct wc_rec w = wc_decode(d + (size_t)i * WC_RS);

			if (w.size >= 1000 && w.tag[0] == 'a' && w.tag[1] == 'b') {
				agg_add(&expw[w.region][w.type], w.size);
				matched++;
			}
		}
		CHECK(matched > 0 && matched < n);
		put_params(wprm, 2, WC_REGION, WC_TYPE, WC_SIZE, ops, 0);
		ss_put_le16(wprm + 12, sizeof(tree));
		memcpy(wprm + 16, tree, sizeof(tree));
		odd_cuts(size, cuts, 3);
		for (int s = 0; s < 3; s++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };

			o = bt_run(e, SS_BT_GROUP_AGG, wprm, sizeof(wprm), &wc_layout, 2048, out, &in, 1,
				   &len, &p);
			CHECK(p.state == SS_ISP_DONE);
			tr = merge(o, len, gotw, ops);
			records += tr.records_in;
			free(o);
		}
		CHECK(records == n);
		check_equal(gotw, expw, ops);

		/* a tree shorter than tree_len, a bad tree, non-zero reserved bytes */
		bt_fail(e, SS_BT_GROUP_AGG, wprm, sizeof(wprm) - 1, &wc_layout, 4096, out, &whole,
			-SS_EINVAL);
		wprm[16 + 2] = 0x7f;
		bt_fail(e, SS_BT_GROUP_AGG, wprm, sizeof(wprm), &wc_layout, 4096, out, &whole,
			-SS_EINVAL);
		wprm[16 + 2] = SS_BT_P_GE;
		wprm[15] = 1;
		bt_fail(e, SS_BT_GROUP_AGG, wprm, sizeof(wprm), &wc_layout, 4096, out, &whole,
			-SS_EINVAL);
	}

	/* failures: bad params, a budget that cannot hold the groups asked for */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };
		struct {
			uint8_t nkeys, k1, k2, val, ops;
			int len_delta;
		} bad[] = {
			{ 5, WC_REGION, 0, WC_SIZE, 1, 0 },              /* > SS_BT_AGG_MAX_KEYS */
			{ 1, WC_TAG, 0, WC_SIZE, 1, 0 },                 /* bytes key */
			{ 1, 40, 0, WC_SIZE, 1, 0 },                     /* no such field */
			{ 1, WC_REGION, 0, WC_TAG, SS_BT_AGG_SUM, 0 },   /* bytes value */
			{ 1, WC_REGION, 0, WC_SIZE, 0, 0 },              /* no ops */
			{ 1, WC_REGION, 0, WC_SIZE, 0x10, 0 },           /* unknown op */
			{ 1, WC_REGION, 0, WC_SIZE, 1, -1 },             /* short */
		};

		for (size_t i = 0; i < SS_ARRAY_SIZE(bad); i++) {
			put_params(prm, bad[i].nkeys, bad[i].k1, bad[i].k2, bad[i].val, bad[i].ops, 0);
			bt_fail(e, SS_BT_GROUP_AGG, prm, (uint32_t)(16 + bad[i].len_delta), &wc_layout,
				4096, out, &in, -SS_EINVAL);
		}
		put_params(prm, 1, WC_REGION, 0, WC_SIZE, 1, 0);
		prm[6] = 1;   /* key4 without a fourth key */
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 4096, out, &in, -SS_EINVAL);
		put_params(prm, 4, WC_REGION, WC_TYPE, WC_SIZE, 1, 0);
		prm[5] = WC_METHOD;
		prm[6] = WC_STATUS;
		prm[7] = 1;   /* reserved */
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 4096, out, &in, -SS_EINVAL);
		put_params(prm, 1, WC_REGION, 0, WC_SIZE, 1, 100000);
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 4096, out, &in, -SS_ENOMEM);
		put_params(prm, 1, WC_REGION, 0, WC_SIZE, 1, 0);
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 16, out, &in, -SS_ENOMEM);
		bt_store_ok(e, "after-agg-failures");

		/* and a healthy instance still completes exactly */
		memset(got1, 0, sizeof(got1));
		o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 4096, out, &in, 1, &len, &p);
		CHECK(p.state == SS_ISP_DONE);
		merge(o, len, got1, SS_BT_AGG_COUNT);
		check_equal(got1, exp1, SS_BT_AGG_COUNT);
		free(o);
	}
	free(d);
}

/* One (k1, k2, count, sum) per group, sorted: the reference and the merged output alike. */
struct gitem {
	uint64_t k1, k2, count;
	int64_t sum;
};

static int gcmp(const void *x, const void *y)
{
	const struct gitem *a = x, *b = y;

	if (a->k1 != b->k1) {
		return a->k1 < b->k1 ? -1 : 1;
	}
	return a->k2 < b->k2 ? -1 : a->k2 > b->k2;
}

/* Sorts and sums equal keys in place; \return the groups left. */
static size_t greduce(struct gitem *g, size_t n)
{
	size_t m = 0;

	qsort(g, n, sizeof(*g), gcmp);
	for (size_t i = 0; i < n; i++) {
		if (m && gcmp(&g[m - 1], &g[i]) == 0) {
			g[m - 1].count += g[i].count;
			g[m - 1].sum += g[i].sum;
		} else {
			g[m++] = g[i];
		}
	}
	return m;
}

/* GROUP BY region, type, method, status (4 keys; 3 + 8 + 6 bits packed) and GROUP BY
 * region, method, delta (3 keys, delta signed: its 32 low bits), SUM(size), small budgets
 * (spills), two splits. */
static void test_many_keys(struct tenv *e)
{
	uint32_t n = 6000;
	uint8_t *d = wc_make(n, NK2);
	uint64_t size = (uint64_t)n * WC_RS, cuts[3];
	ss_oid_t f = tenv_put(e, "wc4.bin", d, size), out = tenv_output(e, "agg4.out");
	struct gitem *exp = calloc(n, sizeof(*exp)), *got = calloc(4 * n, sizeof(*got));
	uint8_t prm[16];

	odd_cuts(size, cuts, 2);
	for (int nkeys = 3; nkeys <= 4; nkeys++) {
		size_t ne, ng = 0;
		uint64_t spills = 0;

		for (uint32_t i = 0; i < n; i++) {
			const uint8_t *r = d + (size_t)i * WC_RS;
			struct wc_rec w = wc_decode(r);

			exp[i].k1 = w.region;
			exp[i].k2 = nkeys == 4 ? ((uint64_t)w.type << 8 | r[16]) << 6 | w.status
					       : ((uint64_t)r[16] << 32) | (uint32_t)w.delta;
			exp[i].count = 1;
			exp[i].sum = w.size;
		}
		ne = greduce(exp, n);
		put_params(prm, (uint8_t)nkeys, WC_REGION, nkeys == 4 ? WC_TYPE : WC_METHOD, WC_SIZE,
			   SS_BT_AGG_COUNT | SS_BT_AGG_SUM, 0);
		prm[5] = nkeys == 4 ? WC_METHOD : WC_DELTA;
		prm[6] = nkeys == 4 ? WC_STATUS : 0;
		for (int s = 0; s < 2; s++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
			struct ss_isp_progress p;
			uint64_t len, body;
			uint8_t *o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 8192, out, &in, 1, &len, &p);
			struct trailer tr = get_trailer(o, len, SS_BT_GROUP_AGG, &body);

			CHECK(p.state == SS_ISP_DONE && body % 48 == 0);
			for (uint64_t i = 0; i < body; i += 48) {
				CHECK(ng < 4 * (size_t)n);
				got[ng].k1 = ss_get_le64(o + i);
				got[ng].k2 = ss_get_le64(o + i + 8);
				got[ng].count = ss_get_le64(o + i + 16);
				got[ng].sum = (int64_t)ss_get_le64(o + i + 24);
				ng++;
			}
			spills += tr.aux;
			free(o);
		}
		CHECK(spills > 0);   /* the budget holds far fewer groups than there are */
		CHECK(greduce(got, ng) == ne);
		for (size_t i = 0; i < ne; i++) {
			CHECK(got[i].k1 == exp[i].k1 && got[i].k2 == exp[i].k2 &&
			      got[i].count == exp[i].count && got[i].sum == exp[i].sum);
		}
	}
	/* keys 2..4 wider than 64 bits together, a key3 with nkeys 2, a bytes key3 */
	put_params(prm, 4, WC_REGION, WC_TIME, WC_SIZE, 1, 0);
	prm[5] = WC_CLIENT;
	prm[6] = WC_OBJECT;
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = size };

		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 8192, out, &in, -SS_EINVAL);
		put_params(prm, 2, WC_REGION, WC_TYPE, WC_SIZE, 1, 0);
		prm[5] = WC_METHOD;
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 8192, out, &in, -SS_EINVAL);
		put_params(prm, 3, WC_REGION, WC_TYPE, WC_SIZE, 1, 0);
		prm[5] = WC_TAG;
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 8192, out, &in, -SS_EINVAL);
		put_params(prm, 5, WC_REGION, WC_TYPE, WC_SIZE, 1, 0);
		bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &wc_layout, 8192, out, &in, -SS_EINVAL);
	}
	free(exp);
	free(got);
	free(d);
}

/* CSV "region,type,size,name": lines straddle pages; a line with a bad number is skipped. */
static void test_text(struct tenv *e)
{
	static const struct ss_layout csv = {
		.kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = ',', .record_size = 200,
		.nfields = 4,
		.fields = { { .offset = 0, .type = SS_FIELD_U8 }, { .offset = 1, .type = SS_FIELD_U8 },
			    { .offset = 2, .type = SS_FIELD_I64 }, { .offset = 3, .type = SS_FIELD_BYTES } },
	};
	static struct agg exp[NK1][NK2], got[NK1][NK2];
	size_t cap = 400000, at = 0;
	char *txt = malloc(cap);
	uint32_t lines = 0;
	uint64_t cuts[5];
	uint8_t prm[16];

	while (at < cap - 300) {
		uint32_t r = (uint32_t)(rnd() % NK1), t = (uint32_t)(rnd() % NK2);
		int64_t v = (int64_t)(rnd() % 2000001) - 1000000;
		int pad = (int)(rnd() % 120);

		if (rnd() % 50 == 0) {
			at += (size_t)sprintf(txt + at, "%u,x%u,%lld,%.*s\n", r, t, (long long)v, pad,
					      "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
		} else {
			at += (size_t)sprintf(txt + at, "%u,%u,%lld,%.*s\n", r, t, (long long)v, pad,
					      "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
			agg_add(&exp[r][t], v);
		}
		lines++;
	}
	ss_oid_t f = tenv_put(e, "agg.csv", txt, at);
	ss_oid_t out = tenv_output(e, "agg-csv.out");
	uint64_t records = 0;

	put_params(prm, 2, 0, 1, 2, SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX, 0);
	odd_cuts(at, cuts, 4);
	for (int s = 0; s < 4; s++) {
		struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
		struct ss_isp_progress p;
		uint64_t len;
		uint8_t *o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &csv, 3000, out, &in, 1, &len, &p);

		CHECK(p.state == SS_ISP_DONE);
		records += merge(o, len, got, 0xF).records_in;
		free(o);
	}
	CHECK(records == lines);
	check_equal(got, exp, 0xF);
	free(txt);
}

int main(void)
{
	struct tenv *e = bt_env();

	test_fixed(e);
	test_text(e);
	test_many_keys(e);
	tenv_close(e);
	printf("group_agg_ut: ok\n");
	return 0;
}
