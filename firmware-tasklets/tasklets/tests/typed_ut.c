/*
 * The typed fields (F32, F64, DATE, TIMESTAMP, DECIMAL) and null flags: the order key
 * against double comparison, the layout rules, filter trees under SQL's three-valued logic,
 * and group-aggregate's COUNT/MIN/MAX/SUM over NULLs, NaN and infinities (float SUM in
 * double, checked signed SUM), both on the counted path (nullable fields) and the fast
 * path's field readers (the same field never NULL). References are computed here from the
 * decoded values with C's own double arithmetic, not from order keys.
 */
#include <math.h>

#include "bt_test.h"

/* byte 0: null flags (bit k = mask 0x80 >> k); then the fields */
enum { T_D = 0, T_F, T_DT, T_TS, T_DEC, T_S, T_NFIELDS };
#define T_RS 40u

static const struct ss_layout t_layout = {
	.kind = SS_LAYOUT_FIXED,
	.record_size = T_RS,
	.nfields = T_NFIELDS,
	.fields = {
		[T_D] = { .offset = 4, .type = SS_FIELD_F64, .null_bit = 1 },
		[T_F] = { .offset = 12, .type = SS_FIELD_F32, .null_bit = 2 },
		[T_DT] = { .offset = 16, .type = SS_FIELD_DATE, .null_bit = 3 },
		[T_TS] = { .offset = 20, .type = SS_FIELD_TIMESTAMP, .null_bit = 4 },
		[T_DEC] = { .offset = 28, .type = SS_FIELD_DECIMAL, .width = 2, .null_bit = 5 },
		[T_S] = { .offset = 36, .type = SS_FIELD_BYTES, .width = 4, .null_bit = 6 },
	},
};

struct t_rec {
	int null[T_NFIELDS];
	double d;
	float f;
	int32_t dt;
	int64_t ts, dec;
	char s[4];
};

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		p[i] = (uint8_t)(v >> (56 - 8 * i));
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static double odd_double(int specials)
{
	if (specials) {
		switch (rnd() % 16) {
		case 0: return NAN;
		case 1: return INFINITY;
		case 2: return -INFINITY;
		case 3: return -0.0;
		case 4: return 0.0;
		default: break;
		}
	}
	return ((double)(int64_t)(rnd() % 401) - 200) / 4;   /* exact sums */
}

static uint8_t *t_make(uint32_t n, int nulls, int specials, struct t_rec *ref)
{
	uint8_t *d = calloc(n, T_RS);

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *r = d + (size_t)i * T_RS;
		struct t_rec *t = &ref[i];
		union { double d; uint64_t u; } bd;
		union { float f; uint32_t u; } bf;

		memset(t, 0, sizeof(*t));
		for (int k = 0; k < T_NFIELDS; k++) {
			t->null[k] = nulls && rnd() % 5 == 0;
			if (t->null[k]) {
				r[0] |= (uint8_t)(0x80u >> k);
			}
		}
		t->d = odd_double(specials);
		t->f = (float)odd_double(specials);
		t->dt = (int32_t)(rnd() % 40000) - 20000;
		t->ts = (int64_t)(rnd() % 4000000000000ull) - 2000000000000ll;
		t->dec = (int64_t)(rnd() % 2000001) - 1000000;
		memcpy(t->s, rnd() % 2 ? "ab12" : "zz99", 4);
		/* a NULL field's bytes are whatever the writer left: not zero, to be sure they
		 * are not read */
		bd.d = t->d;
		bf.f = t->f;
		put64(r + 4, bd.u);
		put32(r + 12, bf.u);
		put32(r + 16, (uint32_t)t->dt);
		put64(r + 20, (uint64_t)t->ts);
		put64(r + 28, (uint64_t)t->dec);
		memcpy(r + 36, t->s, 4);
	}
	return d;
}

/* Spark's comparison of doubles: NaN equal to NaN and above everything, -0.0 = 0.0 */
static int spark_cmp(double a, double b)
{
	if (isnan(a) || isnan(b)) {
		return isnan(a) - isnan(b);
	}
	return a < b ? -1 : a > b;
}

static void test_keys(void)
{
	static const double special[] = { NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
					  5e-324, -5e-324, 1.7976931348623157e308, -2.5, 2.5 };
	const size_t ns = sizeof(special) / sizeof(special[0]);

	for (uint32_t i = 0; i < 200000; i++) {
		union { double d; uint64_t u; } a, b;
		union { float f; uint32_t u; } fa, fb;

		a.u = i < ns * ns ? 0 : rnd();
		b.u = i < ns * ns ? 0 : rnd();
		if (i < ns * ns) {
			a.d = special[i / ns];
			b.d = special[i % ns];
		} else if (i % 3 == 0) {
			b.d = a.d * 2;
		}
		CHECK(((int64_t)ss_f64_key(a.u) < (int64_t)ss_f64_key(b.u)) ==
		      (spark_cmp(a.d, b.d) < 0));
		CHECK((ss_f64_key(a.u) == ss_f64_key(b.u)) == (spark_cmp(a.d, b.d) == 0));
		fa.f = (float)a.d;
		fb.f = (float)b.d;
		if (i >= ns * ns) {
			fa.u = (uint32_t)a.u;
			fb.u = (uint32_t)(b.u >> 32);
		}
		CHECK(((int64_t)ss_f32_key(fa.u) < (int64_t)ss_f32_key(fb.u)) ==
		      (spark_cmp(fa.f, fb.f) < 0));
		CHECK((ss_f32_key(fa.u) == ss_f32_key(fb.u)) == (spark_cmp(fa.f, fb.f) == 0));
	}
}

static void test_layout_rules(struct tenv *e, ss_oid_t out)
{
	struct ss_layout l;
	uint8_t prm[16] = { 0, 0, 0, T_D, SS_BT_AGG_MIN };
	uint32_t inst;

	l = t_layout;
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) == 0);
	CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
	l = t_layout;
	l.fields[T_D].bits = 8;   /* no bit fields of typed values */
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) < 0);
	l = t_layout;
	l.fields[T_DEC].width = 19;   /* a scale past 18 */
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) < 0);
	l = t_layout;
	l.fields[T_F].null_bit = 8 * T_RS + 1;   /* a flag past the record */
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) < 0);
	l = t_layout;
	l.fields[T_F].null_bit = 8 * T_RS;   /* the record's last bit */
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) == 0);
	CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
	l = t_layout;
	l.kind = SS_LAYOUT_TEXT;   /* typed values and flags are FIXED only */
	l.line_delim = '\n';
	l.field_sep = '|';
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &l, 65536, 0, out, &inst) < 0);
	/* a checked SUM of a float, or without SUM, is refused at init */
	prm[4] = SS_BT_AGG_SUM | SS_BT_AGG_SUM_CHECKED;
	CHECK(ss_isp_create(tenv_isp(e), SS_BT_GROUP_AGG, prm, 16, &t_layout, 65536, 0, out,
			    &inst) == 0);
	{
		struct ss_isp_input in = { .oid = tenv_put(e, "typed-empty.bin", "", 0),
					   .length = UINT64_MAX };
		struct ss_isp_progress p = tenv_run(e, inst, &in, 1);

		CHECK(p.state == SS_ISP_FAILED && p.error == -SS_EINVAL);
	}
	CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
}

/* ---- filter: trees against a reference in SQL's three-valued logic ---------------- */

enum { F, T, U };   /* false, true, unknown */

static int not3(int a)
{
	return a == U ? U : !a;
}

static int and3(int a, int b)
{
	return a == F || b == F ? F : a == U || b == U ? U : T;
}

static int or3(int a, int b)
{
	return a == T || b == T ? T : a == U || b == U ? U : F;
}

static int gt_d(const struct t_rec *t, double k)
{
	return t->null[T_D] ? U : spark_cmp(t->d, k) > 0;
}

struct tree {
	uint8_t b[256];
	uint32_t n;
};

static void op(struct tree *t, uint8_t o)
{
	t->b[t->n++] = o;
}

static void icmp(struct tree *t, uint8_t o, uint8_t field, uint64_t k)
{
	op(t, o);
	op(t, field);
	ss_put_le64(t->b + t->n, k);
	t->n += 8;
}

static uint64_t dkey(double d)
{
	union { double d; uint64_t u; } b = { .d = d };

	return ss_f64_key(b.u);
}

static uint64_t fkey(float f)
{
	union { float f; uint32_t u; } b = { .f = f };

	return ss_f32_key(b.u);
}

static uint64_t count_matches(struct tenv *e, ss_oid_t in_oid, ss_oid_t out,
			      const struct tree *t)
{
	uint8_t prm[8 + 256];
	struct ss_isp_input in = { .oid = in_oid, .length = UINT64_MAX };
	uint64_t len, body;
	struct trailer tr;
	uint8_t *o;

	prm[0] = SS_BT_FILTER_COUNT;
	prm[1] = 0;
	ss_put_le16(prm + 2, (uint16_t)t->n);
	ss_put_le32(prm + 4, 0);
	memcpy(prm + 8, t->b, t->n);
	o = bt_run(e, SS_BT_FILTER, prm, 8 + t->n, &t_layout, 65536, out, &in, 1, &len, NULL);
	tr = get_trailer(o, len, SS_BT_FILTER, &body);
	free(o);
	return tr.aux;
}

static void test_filter(struct tenv *e, ss_oid_t f, ss_oid_t out, const struct t_rec *ref,
			uint32_t n)
{
	uint64_t want[8] = { 0 };
	struct tree t[8];

	memset(t, 0, sizeof(t));
	/* 0: d > 5 */
	icmp(&t[0], SS_BT_P_GT, T_D, dkey(5));
	/* 1: d IS NULL */
	op(&t[1], SS_BT_P_ISNULL);
	op(&t[1], T_D);
	/* 2: NOT (d > 5) */
	op(&t[2], SS_BT_P_NOT);
	icmp(&t[2], SS_BT_P_GT, T_D, dkey(5));
	/* 3: NOT (d > 5 AND f < 0) OR s = "ab12" */
	op(&t[3], SS_BT_P_OR);
	op(&t[3], 2);
	op(&t[3], SS_BT_P_NOT);
	op(&t[3], SS_BT_P_AND);
	op(&t[3], 2);
	icmp(&t[3], SS_BT_P_GT, T_D, dkey(5));
	icmp(&t[3], SS_BT_P_LT, T_F, fkey(0));
	op(&t[3], SS_BT_P_BEQ);
	op(&t[3], T_S);
	ss_put_le16(t[3].b + t[3].n, 4);
	memcpy(t[3].b + t[3].n + 2, "ab12", 4);
	t[3].n += 6;
	/* 4: d = NaN (Spark: NaN = NaN) */
	icmp(&t[4], SS_BT_P_EQ, T_D, dkey(NAN));
	/* 5: d = 0.0 (matches -0.0) */
	icmp(&t[5], SS_BT_P_EQ, T_D, dkey(-0.0));
	/* 6: dt >= -100 AND ts < 0 AND dec <= 12345 */
	op(&t[6], SS_BT_P_AND);
	op(&t[6], 3);
	icmp(&t[6], SS_BT_P_GE, T_DT, (uint64_t)-100);
	icmp(&t[6], SS_BT_P_LT, T_TS, 0);
	icmp(&t[6], SS_BT_P_LE, T_DEC, 12345);
	/* 7: NOT (s IS NULL) AND NOT (f >= 10) */
	op(&t[7], SS_BT_P_AND);
	op(&t[7], 2);
	op(&t[7], SS_BT_P_NOT);
	op(&t[7], SS_BT_P_ISNULL);
	op(&t[7], T_S);
	op(&t[7], SS_BT_P_NOT);
	icmp(&t[7], SS_BT_P_GE, T_F, fkey(10));

	for (uint32_t i = 0; i < n; i++) {
		const struct t_rec *r = &ref[i];
		int f_lt0 = r->null[T_F] ? U : spark_cmp(r->f, 0) < 0;
		int s_ab = r->null[T_S] ? U : memcmp(r->s, "ab12", 4) == 0;
		int dt = r->null[T_DT] ? U : r->dt >= -100;
		int ts = r->null[T_TS] ? U : r->ts < 0;
		int dec = r->null[T_DEC] ? U : r->dec <= 12345;
		int f_ge10 = r->null[T_F] ? U : spark_cmp(r->f, 10) >= 0;

		want[0] += gt_d(r, 5) == T;
		want[1] += r->null[T_D];
		want[2] += not3(gt_d(r, 5)) == T;
		want[3] += or3(not3(and3(gt_d(r, 5), f_lt0)), s_ab) == T;
		want[4] += !r->null[T_D] && isnan(r->d);
		want[5] += !r->null[T_D] && r->d == 0;
		want[6] += and3(and3(dt, ts), dec) == T;
		want[7] += and3(!r->null[T_S], not3(f_ge10)) == T;
	}
	for (int k = 0; k < 8; k++) {
		uint64_t got = count_matches(e, f, out, &t[k]);

		if (got != want[k]) {
			fprintf(stderr, "tree %d: %llu matches, want %llu\n", k,
				(unsigned long long)got, (unsigned long long)want[k]);
		}
		CHECK(got == want[k]);
	}
	CHECK(want[1] > 0 && want[4] > 0 && want[5] > 0 && want[2] > want[0] / 4);
}

/* ---- group-aggregate ---------------------------------------------------------------- */

struct agg_out {
	uint64_t count, sum, min, max;
};

static struct agg_out agg1(struct tenv *e, ss_oid_t in_oid, ss_oid_t out,
			   const struct ss_layout *l, uint8_t value, uint8_t ops)
{
	uint8_t prm[16] = { 0, 0, 0, value, ops };
	struct ss_isp_input in = { .oid = in_oid, .length = UINT64_MAX };
	uint64_t len, body;
	struct agg_out a;
	uint8_t *o;

	o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, l, 65536, out, &in, 1, &len, NULL);
	get_trailer(o, len, SS_BT_GROUP_AGG, &body);
	CHECK(body == 48);
	a.count = ss_get_le64(o + 16);
	a.sum = ss_get_le64(o + 24);
	a.min = ss_get_le64(o + 32);
	a.max = ss_get_le64(o + 40);
	free(o);
	return a;
}

static void test_agg(struct tenv *e, ss_oid_t f, ss_oid_t out, const struct t_rec *ref,
		     uint32_t n, int fast)
{
	const uint8_t all = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;
	struct ss_layout l = t_layout;
	union { double d; uint64_t u; } sum = { .d = 0 }, fsum = { .d = 0 };
	double mn = 0, mx = 0, fmn = 0, fmx = 0;
	uint64_t cnt = 0, fcnt = 0, dcnt = 0;
	int64_t dsum = 0, dmin = INT64_MAX, dmax = INT64_MIN;
	struct agg_out a;

	if (fast) {   /* never NULL: the fast path's readers */
		l.fields[T_D].null_bit = 0;
		l.fields[T_F].null_bit = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct t_rec *r = &ref[i];

		if (fast || !r->null[T_D]) {
			if (!cnt++ || spark_cmp(r->d, mn) < 0) {
				mn = r->d;
			}
			if (cnt == 1 || spark_cmp(r->d, mx) > 0) {
				mx = r->d;
			}
			sum.d += r->d;
		}
		if (fast || !r->null[T_F]) {
			if (!fcnt++ || spark_cmp(r->f, fmn) < 0) {
				fmn = r->f;
			}
			if (fcnt == 1 || spark_cmp(r->f, fmx) > 0) {
				fmx = r->f;
			}
			fsum.d += (double)r->f;
		}
		if (!r->null[T_DEC]) {
			dcnt++;
			dsum += r->dec;
			dmin = r->dec < dmin ? r->dec : dmin;
			dmax = r->dec > dmax ? r->dec : dmax;
		}
	}
	if (fast) {   /* a SUM of floats takes the counted path */
		a = agg1(e, f, out, &l, T_D, SS_BT_AGG_COUNT | SS_BT_AGG_MIN | SS_BT_AGG_MAX);
		CHECK(a.count == cnt && a.min == dkey(mn) && a.max == dkey(mx));
		a = agg1(e, f, out, &l, T_F, SS_BT_AGG_COUNT | SS_BT_AGG_MIN | SS_BT_AGG_MAX);
		CHECK(a.count == fcnt && a.min == fkey((float)fmn) && a.max == fkey((float)fmx));
	}
	a = agg1(e, f, out, &l, T_D, all);
	CHECK(a.count == cnt);
	CHECK(a.min == dkey(mn) && a.max == dkey(mx));
	CHECK(a.sum == sum.u || (isnan(sum.d) && (a.sum & 0x7ff0000000000000ull) == 0x7ff0000000000000ull
				 && (a.sum & 0xfffffffffffffull)));
	a = agg1(e, f, out, &l, T_F, all);
	CHECK(a.count == fcnt);
	CHECK(a.min == fkey((float)fmn) && a.max == fkey((float)fmx));
	CHECK(a.sum == fsum.u || (isnan(fsum.d) && (a.sum & 0x7ff0000000000000ull) == 0x7ff0000000000000ull
				  && (a.sum & 0xfffffffffffffull)));
	a = agg1(e, f, out, &l, T_DEC, all | SS_BT_AGG_SUM_CHECKED);
	CHECK(a.count == dcnt && (int64_t)a.sum == dsum && (int64_t)a.min == dmin &&
	      (int64_t)a.max == dmax);
	/* COUNT alone counts every record; with MIN it counts the values not NULL */
	a = agg1(e, f, out, &l, T_DEC, SS_BT_AGG_COUNT);
	CHECK(a.count == n);
	a = agg1(e, f, out, &l, T_DEC, SS_BT_AGG_COUNT | SS_BT_AGG_MIN);
	CHECK(a.count == dcnt);
}

/* A signed SUM past 2^63 - 1: checked, the run fails; unchecked, it wraps. */
static void test_overflow(struct tenv *e, ss_oid_t out)
{
	struct t_rec ref[3];
	uint8_t *d = t_make(3, 0, 0, ref);
	uint8_t prm[16] = { 0, 0, 0, T_TS, SS_BT_AGG_SUM | SS_BT_AGG_SUM_CHECKED };
	struct ss_isp_input in;
	struct agg_out a;

	for (int i = 0; i < 3; i++) {
		put64(d + (size_t)i * T_RS + 20, (uint64_t)INT64_MAX / 2);
	}
	in.oid = tenv_put(e, "typed-ovf.bin", d, 3 * T_RS);
	in.offset = 0;
	in.length = UINT64_MAX;
	bt_fail(e, SS_BT_GROUP_AGG, prm, 16, &t_layout, 65536, out, &in, -SS_EOVERFLOW);
	a = agg1(e, in.oid, out, &t_layout, T_TS, SS_BT_AGG_SUM);
	CHECK(a.sum == 3 * ((uint64_t)INT64_MAX / 2));
	/* two of them fit: no failure */
	in.length = 2 * T_RS;
	{
		uint64_t len;
		struct ss_isp_progress p;
		uint8_t *o = bt_run(e, SS_BT_GROUP_AGG, prm, 16, &t_layout, 65536, out, &in, 1,
				    &len, &p);

		CHECK(p.state == SS_ISP_DONE && ss_get_le64(o + 24) == 2 * ((uint64_t)INT64_MAX / 2));
		free(o);
	}
	free(d);
}

int main(void)
{
	struct tenv *e = bt_env();
	ss_oid_t out = tenv_output(e, "typed.out");
	const uint32_t n = 3000;
	struct t_rec *ref = calloc(n, sizeof(*ref));
	uint8_t *d;
	ss_oid_t f;

	test_keys();
	test_layout_rules(e, out);

	d = t_make(n, 1, 1, ref);
	f = tenv_put(e, "typed.bin", d, (uint64_t)n * T_RS);
	test_filter(e, f, out, ref, n);
	test_agg(e, f, out, ref, n, 0);
	test_agg(e, f, out, ref, n, 1);
	free(d);

	d = t_make(n, 1, 0, ref);   /* no NaN nor infinities: exact finite sums */
	f = tenv_put(e, "typed-finite.bin", d, (uint64_t)n * T_RS);
	test_agg(e, f, out, ref, n, 0);
	test_agg(e, f, out, ref, n, 1);
	free(d);

	test_overflow(e, out);
	free(ref);
	tenv_close(e);
	printf("typed_ut: ok\n");
	return 0;
}
