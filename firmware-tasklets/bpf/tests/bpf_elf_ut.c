/*
 * Programs in restricted C (tests/progs/), compiled by clang -target bpf during the build,
 * loaded from their ELF objects and run over records; every answer is computed again here
 * by plain C loops over the same bytes. And the loader's refusals of bad objects.
 * The objects' directory is SS_BPF_PROGS_DIR (CMake's; empty when there is no clang, and
 * then the test skips), or the first argument.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf_test.h"

static const char *progs_dir;
static uint8_t obj[1 << 16];
static size_t obj_len;

/* Read progs_dir/name.o into obj: \return 0, or skip the caller when there is no clang. */
static int read_obj(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.o", progs_dir, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		ss_test_failures++;
		return -1;
	}
	obj_len = fread(obj, 1, sizeof(obj), f);
	fclose(f);
	return 0;
}

static int load_obj(const char *name, struct ss_bpf_config *c)
{
	int rc;

	if (read_obj(name))
		return -1;
	rc = ss_bpf_load_elf(&t_prog, c, obj, obj_len, "tasklet", &t_ws, &t_err);
	if (rc)
		fprintf(stderr, "%s: refused: %s at %u\n", name, ss_bpf_reason_str(t_err.reason),
			t_err.insn);
	return rc;
}

#define NEED_CLANG()                                                                     \
	do {                                                                             \
		if (!progs_dir || !*progs_dir)                                           \
			SKIP("no clang with a BPF target: the restricted-C programs were not built"); \
	} while (0)

static int64_t get_s64(const uint8_t *p)
{
	int64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

enum { NREC = 500, RLEN = 16 };
static uint8_t recs[NREC][RLEN];

static void make_records(uint64_t seed)
{
	uint64_t s = ss_test_seed(seed);

	for (int i = 0; i < NREC; i++) {
		uint32_t key = ss_test_rand_below(&s, 10);
		/* distinct values, so that the top-N is one answer */
		int64_t v = (int64_t)ss_test_rand_below(&s, 10000) * NREC + i - 5000 * NREC;

		memset(recs[i], 0, RLEN);
		memcpy(recs[i], &key, 4);
		memcpy(recs[i] + 8, &v, 8);
	}
}

static void test_filter_count(void)
{
	struct ss_bpf_config c = t_cfg();
	const int64_t k = 1000 * NREC;
	uint8_t want_emit[NREC * 4];
	uint64_t want = 0, path_insns[2] = { 0, 0 };
	size_t want_len = 0;

	NEED_CLANG();
	c.rec_min = c.rec_max = RLEN;
	c.out_size = 8;
	REQUIRE(load_obj("filter_count", &c) == 0);
	make_records(1);
	t_env_reset();
	t_env.ctx.arg[0] = (uint64_t)k;
	for (int i = 0; i < NREC; i++) {
		uint64_t r = 99, before = t_env.stats.insns;
		int match = get_s64(recs[i] + 8) > k;

		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, recs[i], RLEN, i, &r), 0);
		CHECK_EQ(r, match);
		/* one path per outcome: the same count of instructions for each record on it */
		if (!path_insns[match])
			path_insns[match] = t_env.stats.insns - before;
		CHECK_EQ(t_env.stats.insns - before, path_insns[match]);
		if (match) {
			want++;
			memcpy(want_emit + want_len, recs[i], 4);
			want_len += 4;
		}
	}
	CHECK(want > 0 && want < NREC);
	CHECK_EQ(get_s64(t_out), want);
	CHECK_EQ(t_env.emit_len, want_len);
	CHECK(memcmp(t_emit, want_emit, want_len) == 0);
	CHECK_EQ(t_env.stats.runs, NREC);
	/* the match path does more, within the program's length (no loops) */
	CHECK(path_insns[1] > path_insns[0] && path_insns[1] <= t_prog.n_insns);
	CHECK_EQ(t_env.stats.insns, want * path_insns[1] + (NREC - want) * path_insns[0]);
}

static int by_score_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void test_group_sum_and_top(void)
{
	enum { TOPN = 7 };
	struct ss_bpf_config c = t_cfg();
	static struct ss_bpf_group slots[32];
	static struct ss_bpf_top heap[TOPN];
	struct ss_bpf_groups g;
	struct ss_bpf_topn t;
	int64_t sum[10] = { 0 }, mn[10], mx[10], all[NREC];
	uint64_t cnt[10] = { 0 };

	NEED_CLANG();
	c.rec_min = c.rec_max = RLEN;
	REQUIRE(load_obj("group_sum", &c) == 0);
	make_records(2);
	t_env_reset();
	ss_bpf_groups_init(&g, slots, 32);
	ss_bpf_topn_init(&t, heap, TOPN);
	t_env.groups = &g;
	t_env.topn = &t;
	for (int i = 0; i < NREC; i++) {
		uint64_t r = 99;
		uint32_t key = get_u32(recs[i]);
		int64_t v = get_s64(recs[i] + 8);

		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, recs[i], RLEN, i, &r), 0);
		CHECK_EQ(r, 0);
		mn[key] = cnt[key] ? (v < mn[key] ? v : mn[key]) : v;
		mx[key] = cnt[key] ? (v > mx[key] ? v : mx[key]) : v;
		sum[key] += v;
		cnt[key]++;
		all[i] = v;
	}
	for (uint32_t key = 0; key < 10; key++) {
		const struct ss_bpf_group *e = ss_bpf_groups_find(&g, key);

		REQUIRE(cnt[key] > 0 && e);
		CHECK_EQ(e->count, cnt[key]);
		CHECK_EQ(e->sum, sum[key]);
		CHECK_EQ(e->min, mn[key]);
		CHECK_EQ(e->max, mx[key]);
	}
	CHECK(ss_bpf_groups_find(&g, 10) == NULL);
	qsort(all, NREC, sizeof(all[0]), by_score_desc);
	qsort(heap, TOPN, sizeof(heap[0]), by_score_desc); /* score is the first field */
	CHECK_EQ(t.n, TOPN);
	for (int i = 0; i < TOPN; i++) {
		CHECK_EQ(heap[i].score, all[i]);
		/* the value pushed is the record's index */
		CHECK_EQ(get_s64(recs[heap[i].value] + 8), all[i]);
	}
}

static void test_unrolled(void)
{
	struct ss_bpf_config c = t_cfg();
	uint64_t s = ss_test_seed(3);

	NEED_CLANG();
	REQUIRE(load_obj("unrolled", &c) == 0);
	t_env_reset();
	for (int i = 0; i < 100; i++) {
		uint8_t rec[T_REC_MAX];
		uint64_t want[2] = { 0, 0 }, r = 0;
		uint32_t len = T_REC_MIN + ss_test_rand_below(&s, T_REC_MAX - T_REC_MIN + 1);

		for (unsigned j = 0; j < sizeof(rec); j++)
			rec[j] = (uint8_t)ss_test_rand(&s);
		for (int j = 0; j < 4; j++)
			want[0] += (uint64_t)(rec[2 * j] | (rec[2 * j + 1] << 8));
		for (int j = 8; j < 16; j++)
			want[1] ^= rec[j];
		t_env.emit_len = 0;
		CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, len, i, &r), 0);
		CHECK_EQ(r, want[0]);
		CHECK_EQ(t_env.emit_len, 16);
		CHECK(memcmp(t_emit, want, 16) == 0);
	}
}

/* rec_min 8, rec_max 16: ss_field at an offset of up to 8, and a load at 12..16, both
 * checked at run time against each record's length */
static void test_runtime_checks(void)
{
	struct ss_bpf_config c = t_cfg();
	uint8_t rec[16];

	NEED_CLANG();
	for (unsigned j = 0; j < sizeof(rec); j++)
		rec[j] = (uint8_t)(0x10 + j);
	c.rec_min = 8;
	c.rec_max = 16;
	REQUIRE(load_obj("field", &c) == 0);
	t_env_reset();
	for (uint32_t len = 8; len <= 16; len++) {
		for (uint64_t off = 0; off <= 10; off++) {
			uint64_t r = 0, want = 0;
			int rc;

			t_env.ctx.arg[1] = off;
			rc = ss_bpf_run(&t_prog, &t_env, rec, len, 0, &r);
			if (off > 8) {
				CHECK_EQ(rc, 0);
				CHECK_EQ(r, (uint64_t)-1);
			} else if (off + 8 > len) {
				CHECK_EQ(rc, -SS_EFAULT);
			} else {
				for (int b = 7; b >= 0; b--)
					want = (want << 8) | rec[off + b];
				CHECK_EQ(rc, 0);
				CHECK_EQ(r, want);
			}
		}
	}
	REQUIRE(load_obj("tail", &c) == 0);
	CHECK(t_prog.aux[0] & SS_BPF_AUX_RUNTIME_CHECK);
	for (uint32_t len = 8; len <= 16; len++) {
		uint64_t r = 0;
		int rc = ss_bpf_run(&t_prog, &t_env, rec, len, 0, &r);

		CHECK_EQ(rc, len == 16 ? 0 : -SS_EFAULT);
		if (len == 16)
			CHECK_EQ(r, get_u32(rec + 12));
	}
}

/* a variable index bounded by the program, and a byte swap: as clang emits it for BPF v1
 * (64-bit compare after a zero-extending shift pair) and v3 (a JMP32 compare first) */
static void test_bounded_index(void)
{
	static const char *const objs[] = { "byte_at", "byte_at_v3" };
	struct ss_bpf_config c = t_cfg();
	uint8_t rec[T_REC_MIN];

	NEED_CLANG();
	for (unsigned i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(0x30 + 3 * i);
	for (unsigned o = 0; o < 2; o++) {
		REQUIRE(load_obj(objs[o], &c) == 0);
		t_env_reset();
		for (uint64_t i = 0; i < 40; i++) {
			uint64_t r = 0;

			/* the upper half of arg[0] is dropped by the program's (u32) cast */
			t_env.ctx.arg[0] = i | (i << 33);
			CHECK_EQ(ss_bpf_run(&t_prog, &t_env, rec, sizeof(rec), 0, &r), 0);
			CHECK_EQ(r, i < 16 ? rec[i] : (uint64_t)-1);
			CHECK_EQ(get_u32(t_out + 4), (uint32_t)rec[0] << 24 | (uint32_t)rec[1] << 16 |
							   (uint32_t)rec[2] << 8 | rec[3]);
		}
	}
}

static void test_refused_objects(void)
{
	struct ss_bpf_config c = t_cfg();

	NEED_CLANG();
	/* rec[ctx->arg[0]]: the load (after the add) is the instruction named */
	REQUIRE(read_obj("unbounded") == 0);
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, "tasklet", &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_OUT_OF_BOUNDS);
	REQUIRE(t_err.insn < t_prog.n_insns);
	CHECK_EQ(t_prog.insns[t_err.insn].opcode, LDX | MEM | B);
	/* a global needs a relocation */
	REQUIRE(read_obj("global") == 0);
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, NULL, &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_RELOCATION);
	/* a section that is not there */
	REQUIRE(read_obj("tail") == 0);
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, "nosuch", &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_NO_SECTION);
	/* the only code section, unnamed */
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, NULL, &t_ws, &t_err), 0);
	/* every truncation of a good object is refused, never read past */
	for (size_t n = 0; n < obj_len; n++) {
		int rc = ss_bpf_load_elf(&t_prog, &c, obj, n, NULL, &t_ws, &t_err);

		if (rc == 0)
			continue; /* cut after the program and its section headers' data */
		CHECK_EQ(rc, -SS_EINVAL);
	}
	/* a wrong machine, a wrong class */
	obj[18] = 62;
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, NULL, &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_BAD_ELF);
	obj[18] = 247;
	obj[4] = 1;
	CHECK_EQ(ss_bpf_load_elf(&t_prog, &c, obj, obj_len, NULL, &t_ws, &t_err), -SS_EINVAL);
	CHECK_EQ(t_err.reason, SS_BPF_R_BAD_ELF);
}

int main(int argc, char **argv)
{
	progs_dir = argc > 1 ? argv[1] : SS_BPF_PROGS_DIR;
	RUN(test_filter_count);
	RUN(test_group_sum_and_top);
	RUN(test_unrolled);
	RUN(test_runtime_checks);
	RUN(test_bounded_index);
	RUN(test_refused_objects);
	return ss_test_status();
}
