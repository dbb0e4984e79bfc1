/* The built-in helpers: the group table and the top-N heap against plain C references,
 * emit's refusal when the stream is full, the field reader, and the helpers' table. */
#include "bpf_test.h"

static int cmp_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void test_groups_against_reference(void)
{
	enum { CAP = 64, KEYS = 40, N = 5000 };
	static struct ss_bpf_group slots[CAP];
	struct ss_bpf_groups g;
	int64_t sum[KEYS] = { 0 }, mn[KEYS] = { 0 }, mx[KEYS] = { 0 };
	uint64_t cnt[KEYS] = { 0 }, s = ss_test_seed(11);

	ss_bpf_groups_init(&g, slots, CAP);
	for (int i = 0; i < N; i++) {
		/* keys spread over the u64 range, so that the hash is exercised */
		uint32_t k = ss_test_rand_below(&s, KEYS);
		uint64_t key = (uint64_t)k * 0x9e3779b97f4a7c15ull;
		int64_t v = (int64_t)ss_test_rand(&s) >> 20;

		CHECK_EQ(ss_bpf_groups_add(&g, key, v), 0);
		mn[k] = cnt[k] && mn[k] < v ? mn[k] : v;
		mx[k] = cnt[k] && mx[k] > v ? mx[k] : v;
		sum[k] += v;
		cnt[k]++;
	}
	CHECK_EQ(g.used, KEYS);
	for (uint32_t k = 0; k < KEYS; k++) {
		const struct ss_bpf_group *e = ss_bpf_groups_find(&g, (uint64_t)k * 0x9e3779b97f4a7c15ull);

		REQUIRE(e);
		CHECK_EQ(e->count, cnt[k]);
		CHECK_EQ(e->sum, sum[k]);
		CHECK_EQ(e->min, mn[k]);
		CHECK_EQ(e->max, mx[k]);
	}
	/* full: one slot stays free, new keys are refused, known keys still add */
	for (uint64_t key = 1000; g.used < CAP - 1; key++)
		CHECK_EQ(ss_bpf_groups_add(&g, key * 7919, 1), 0);
	CHECK_EQ(ss_bpf_groups_add(&g, 0xffffffffffffull, 1), -SS_ENOSPC);
	CHECK_EQ(ss_bpf_groups_add(&g, 0, 1), 0); /* key 0 is k = 0's */
	CHECK(ss_bpf_groups_find(&g, 0xffffffffffffull) == NULL);
}

static void test_topn_against_reference(void)
{
	enum { CAP = 10, N = 3000 };
	static struct ss_bpf_top heap[CAP];
	static int64_t all[N];
	struct ss_bpf_topn t;
	uint64_t s = ss_test_seed(12);
	int64_t got[CAP];

	ss_bpf_topn_init(&t, heap, CAP);
	for (int i = 0; i < N; i++) {
		/* few distinct values: ties must not lose a place */
		all[i] = (int64_t)ss_test_rand_below(&s, 200) - 100;
		ss_bpf_topn_push(&t, all[i], (uint64_t)i);
	}
	CHECK_EQ(t.n, CAP);
	qsort(all, N, sizeof(all[0]), cmp_desc);
	for (int i = 0; i < CAP; i++)
		got[i] = heap[i].score;
	qsort(got, CAP, sizeof(got[0]), cmp_desc);
	for (int i = 0; i < CAP; i++)
		CHECK_EQ(got[i], all[i]);
	/* a heap of 0 keeps nothing */
	ss_bpf_topn_init(&t, heap, 0);
	CHECK_EQ(ss_bpf_topn_push(&t, 5, 5), 0);
}

/* emit until the stream is full: the program sees -ENOSPC and the stream is intact */
static void test_emit_full(void)
{
	struct ss_bpf_insn p[] = {
		LDX_MEM(DW, 4, 2, 0), STX_MEM(DW, 10, 4, -8), MOV64_X(1, 10), ALU64_K(ADD, 1, -8),
		MOV64_K(2, 8), CALL(SS_BPF_H_EMIT), EXIT(),
	};
	uint8_t rec[T_REC_MIN];
	uint64_t r = 0;

	REQUIRE(T_LOAD(p) == 0);
	t_env_reset();
	t_env.emit_cap = 20;
	for (int i = 0; i < 3; i++) {
		memset(rec, 'a' + i, sizeof(rec));
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), i, &r), 0);
		CHECK_EQ(r, i < 2 ? 0 : (uint64_t)-SS_ENOSPC);
	}
	CHECK_EQ(t_env.emit_len, 16);
	CHECK(memcmp(t_emit, "aaaaaaaabbbbbbbb", 16) == 0);
	CHECK_EQ(t_env.stats.emitted_bytes, 16);
	CHECK_EQ(t_env.stats.emit_refused, 1);
	/* without tables the group and top-N helpers say so */
	{
		struct ss_bpf_insn q[] = { MOV64_K(1, 1), MOV64_K(2, 2), CALL(SS_BPF_H_GROUP_ADD),
					   EXIT() };

		CHECK_EQ(t_run_ok(q, SS_ARRAY_SIZE(q), "group without a table"),
			 (uint64_t)-SS_ENOSPC);
	}
}

/* ss_field of each width, little-endian, against the bytes */
static void test_field(void)
{
	static const int widths[] = { 1, 2, 4, 8 };
	uint8_t rec[T_REC_MIN];

	for (unsigned i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(0xa0 + i);
	for (unsigned w = 0; w < 4; w++) {
		struct ss_bpf_insn p[] = { MOV64_K(1, 3), MOV64_K(2, widths[w]), CALL(SS_BPF_H_FIELD),
					   EXIT() };
		uint64_t r = 0, want = 0;

		REQUIRE(T_LOAD(p) == 0);
		t_env_reset();
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), 0);
		for (int b = widths[w] - 1; b >= 0; b--)
			want = (want << 8) | rec[3 + b];
		CHECK_EQ(r, want);
	}
}

/* the ISP's slot: refused while empty, called once filled */
static int layout_field(struct ss_bpf_env *env, const uint64_t a[5], uint64_t *ret)
{
	*ret = a[0] * 10 + (uint64_t)(uintptr_t)env->isp;
	return 0;
}

static void test_isp_slot(void)
{
	struct ss_bpf_insn p[] = { MOV64_K(1, 4), CALL(SS_BPF_H_LAYOUT_FIELD), EXIT() };
	struct ss_bpf_config c = t_cfg();
	uint8_t rec[T_REC_MIN] = { 0 };
	uint64_t r = 0;

	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_ARRAY_SIZE(p), &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_UNKNOWN_HELPER);
	t_helpers.h[SS_BPF_H_LAYOUT_FIELD].fn = layout_field;
	CHECK_EQ(ss_bpf_load(&t_prog, &c, p, SS_ARRAY_SIZE(p), &t_ws, &t_err), 0);
	t_env_reset();
	t_env.isp = (void *)(uintptr_t)2;
	CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), 0);
	CHECK_EQ(r, 42);
	CHECK_EQ(t_env.stats.helper_calls, 1);
}

static void test_reason_names(void)
{
	CHECK(strcmp(ss_bpf_reason_str(SS_BPF_R_DIV_BY_ZERO),
		     "division or modulo by a value not proven non-zero") == 0);
	CHECK(strcmp(ss_bpf_reason_str(-1), "unknown reason") == 0);
	CHECK(strcmp(ss_bpf_reason_str(SS_BPF_R_COUNT), "unknown reason") == 0);
}

int main(void)
{
	RUN(test_groups_against_reference);
	RUN(test_topn_against_reference);
	RUN(test_emit_full);
	RUN(test_field);
	RUN(test_isp_slot);
	RUN(test_reason_names);
	return ss_test_status();
}
