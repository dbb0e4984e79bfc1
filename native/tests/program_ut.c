/*
 * eBPF tasklet programs through libsmartssd, in-process (argv[1] "emu") or through a
 * smartssd-devd child ("unix"), on programs clang compiled during the build
 * (firmware-tasklets/bpf/tests/progs):
 *   - the built-in filter and group-aggregate rewritten in eBPF (isp_filter, isp_group)
 *     give the built-ins' answers on the same records, and both equal a plain C loop;
 *   - one hostile program per refusal class is refused at load with its verifier reason
 *     and instruction (both in the message), and the drive serves on;
 *   - a loaded program is verified again against each instance's layout: one that reads
 *     past a shorter record is refused at create;
 *   - programs are invisible to the namespace (no path and no oid reaches them), survive a
 *     restart of the drive (unix: the daemon; emu: a reopen) and still run, and a load is
 *     durable on its reply (unix: the daemon SIGKILLed right after); rm removes them.
 * Without clang the programs do not exist and the test skips (77).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devtest.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ss_bpf_reasons.h"
#include "ss_proto.h"
#include "ut.h"

/* the host library restates the kind for its users, who do not include the firmware's header */
_Static_assert(SS_DEV_TASKLET_BPF == SS_BT_BPF, "one id for the bpf tasklet kind");

#define REC 16u
#define NREC 20000u
#define NKEYS 37u
#define THRESHOLD 1000

#define REASON_ENUM_(name, text) R_##name,
enum { SS_BPF_REASONS(REASON_ENUM_) };
#undef REASON_ENUM_

static const char *progs_dir = SS_BPF_PROGS_DIR;

static uint8_t *read_obj(const char *name, size_t *len)
{
	char path[512];
	uint8_t *b;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.o", progs_dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int load(struct ss_dev *d, const char *name, const char *as, uint32_t flags,
		struct ss_dev_program_refusal *why)
{
	size_t len = 0;
	uint8_t *obj = read_obj(name, &len);
	int rc;

	if (!obj) {
		fprintf(stderr, "program_ut: no %s/%s.o\n", progs_dir, name);
		ut_failures++;
		return -ENOENT;
	}
	rc = ss_dev_program_load(d, as, obj, len, flags, why);
	free(obj);
	return rc;
}

/* records: key (u32, big-endian) at 0, 4 bytes of noise, value (i64, big-endian) at 8 */
static int64_t rec_value(uint32_t i)
{
	return (int64_t)((i * 2654435761u) % 4001u) - 1500;
}

static uint32_t rec_key(uint32_t i)
{
	return (i * 7919u) % NKEYS;
}

static void make_records(uint8_t *b)
{
	for (uint32_t i = 0; i < NREC; i++) {
		uint8_t *r = b + i * REC;
		uint64_t v = (uint64_t)rec_value(i);

		r[0] = (uint8_t)(rec_key(i) >> 24);
		r[1] = (uint8_t)(rec_key(i) >> 16);
		r[2] = (uint8_t)(rec_key(i) >> 8);
		r[3] = (uint8_t)rec_key(i);
		r[4] = (uint8_t)i;
		r[5] = (uint8_t)(i >> 8);
		r[6] = 0xA5;
		r[7] = 0x5A;
		for (int k = 0; k < 8; k++)
			r[8 + k] = (uint8_t)(v >> (56 - 8 * k));
	}
}

static struct ss_dev_layout layout_of(uint32_t record_size)
{
	struct ss_dev_layout l;

	memset(&l, 0, sizeof(l));
	l.kind = 1;
	l.record_size = record_size;
	l.nfields = 2;
	l.fields[0].offset = 0;
	l.fields[0].type = 3;   /* U32 */
	l.fields[1].offset = (uint16_t)(record_size - 8);
	l.fields[1].type = 6;   /* I64 */
	return l;
}

/* Run one instance over the whole object; its output in *out (malloc'd). */
static int run(struct ss_dev *d, uint64_t input, uint32_t tasklet, const void *params,
	       uint32_t plen, uint32_t budget, uint32_t record_size, uint8_t **out,
	       size_t *out_len)
{
	static unsigned seq;
	struct ss_dev_tasklet_spec spec;
	struct ss_dev_input in = { .oid = input, .offset = 0, .length = UINT64_MAX };
	struct ss_dev_progress p;
	uint64_t inst;
	char path[64];
	size_t off = 0;
	int rc;

	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = tasklet;
	spec.mem_budget = budget;
	spec.layout = layout_of(record_size);
	snprintf(path, sizeof(path), "/out/%u", seq++);
	rc = ss_dev_create_output(d, path, SS_DEV_CREATE_PARENTS, &spec.output_oid);
	if (rc)
		return rc;
	rc = ss_dev_tasklet_create(d, &spec, params, plen, &inst);
	if (rc)
		return rc;
	rc = ss_dev_tasklet_execute(d, inst, &in, 1);
	if (rc == 0)
		rc = devtest_wait_tasklet(d, inst, &p);
	if (rc == 0 && p.state != SS_DEV_TASKLET_DONE)
		rc = p.error ? p.error : -EIO;
	if (rc == 0) {
		*out = malloc(p.output_bytes + 1);
		while (off < p.output_bytes) {
			int64_t n = ss_dev_tasklet_read(d, inst, off, *out + off,
							p.output_bytes - off < (1u << 19)
								? p.output_bytes - off : (1u << 19),
							NULL);
			if (n <= 0) {
				rc = n < 0 ? (int)n : -EIO;
				break;
			}
			off += (size_t)n;
		}
		*out_len = off;
	}
	(void)ss_dev_tasklet_destroy(d, inst);
	return rc;
}

static void bpf_params(struct ss_bt_bpf_params *bp, const char *name, int64_t arg0,
		       uint32_t out_size, uint32_t group_slots)
{
	memset(bp, 0, sizeof(*bp));
	bp->name_len = (uint8_t)strlen(name);
	memcpy(bp->name, name, bp->name_len);
	bp->arg[0] = (uint64_t)arg0;
	bp->out_size = out_size;
	bp->group_slots = group_slots;
}

#define BPF_BUDGET (SS_BT_BPF_BASE_BUDGET + 64u * 40u + 4096u)

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void test_filter(struct ss_dev *d, uint64_t data, const uint8_t *recs)
{
	uint8_t fp[sizeof(struct ss_bt_filter_params) + 10];
	struct ss_bt_bpf_params bp;
	uint8_t *a = NULL, *b = NULL, *ref = malloc(NREC * REC);
	size_t alen = 0, blen = 0, nref = 0;
	int64_t thr = THRESHOLD;

	for (uint32_t i = 0; i < NREC; i++) {
		if (rec_value(i) > THRESHOLD) {
			memcpy(ref + nref * REC, recs + i * REC, REC);
			nref++;
		}
	}
	memset(fp, 0, sizeof(fp));
	fp[0] = SS_BT_FILTER_RECORDS;
	fp[2] = 10;   /* tree_len */
	fp[8] = SS_BT_P_GT;
	fp[9] = 1;
	memcpy(fp + 10, &thr, 8);   /* little-endian host */
	CHECK_EQ(run(d, data, SS_BT_FILTER, fp, sizeof(fp), 4096, REC, &a, &alen), 0);
	bpf_params(&bp, "isp-filter", THRESHOLD, 8, 0);
	CHECK_EQ(run(d, data, SS_DEV_TASKLET_BPF, &bp, sizeof(bp), BPF_BUDGET, REC, &b, &blen), 0);
	if (!a || !b) {
		fprintf(stderr, "program_ut: filter: %s\n", ss_dev_last_message());
		ut_failures++;
		goto out;
	}
	/* built-in: the records, the trailer; bpf: the emitted records, out (8), summary,
	 * trailer */
	CHECK(nref > 100 && nref < NREC / 2);
	CHECK_EQ(alen, nref * REC + 32);
	CHECK_EQ(blen, nref * REC + 8 + 32 + 32);
	CHECK(alen >= nref * REC && memcmp(a, ref, nref * REC) == 0);
	CHECK(blen >= nref * REC && memcmp(b, ref, nref * REC) == 0);
	if (blen == nref * REC + 72) {
		CHECK_EQ(le64(b + nref * REC), nref);            /* the program's own count */
		CHECK_EQ(le64(b + blen - 32 + 8), NREC);          /* records_in */
		CHECK_EQ(le64(b + blen - 64), nref * REC);        /* emitted bytes */
		CHECK(le64(b + blen - 8) >= NREC);                /* instructions interpreted */
	}
out:
	free(a);
	free(b);
	free(ref);
}

struct group {
	uint64_t count;
	int64_t sum, min, max;
};

static void test_group(struct ss_dev *d, uint64_t data, const char *name)
{
	struct ss_bt_agg_params ap;
	struct ss_bt_bpf_params bp;
	struct group ref[NKEYS], got_a[NKEYS], got_b[NKEYS];
	uint8_t *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	uint32_t ngroups;

	memset(ref, 0, sizeof(ref));
	for (uint32_t i = 0; i < NREC; i++) {
		struct group *g = &ref[rec_key(i)];
		int64_t v = rec_value(i);

		if (g->count == 0 || v < g->min)
			g->min = v;
		if (g->count == 0 || v > g->max)
			g->max = v;
		g->count++;
		g->sum += v;
	}
	memset(&ap, 0, sizeof(ap));
	ap.nkeys = 1;
	ap.key1 = 0;
	ap.value = 1;
	ap.ops = SS_BT_AGG_COUNT | SS_BT_AGG_SUM | SS_BT_AGG_MIN | SS_BT_AGG_MAX;
	CHECK_EQ(run(d, data, SS_BT_GROUP_AGG, &ap, sizeof(ap), 65536, REC, &a, &alen), 0);
	bpf_params(&bp, name, 0, 0, 64);
	CHECK_EQ(run(d, data, SS_DEV_TASKLET_BPF, &bp, sizeof(bp), BPF_BUDGET, REC, &b, &blen), 0);
	if (!a || !b) {
		fprintf(stderr, "program_ut: group: %s\n", ss_dev_last_message());
		ut_failures++;
		goto out;
	}
	memset(got_a, 0, sizeof(got_a));
	memset(got_b, 0, sizeof(got_b));
	/* built-in: 48-byte items (no spill with this budget), then the trailer */
	CHECK_EQ(alen, NKEYS * 48 + 32);
	for (size_t off = 0; off + 48 <= alen - 32; off += 48) {
		uint64_t k = le64(a + off);

		if (k >= NKEYS) {
			CHECK(k < NKEYS);
			continue;
		}
		got_a[k].count += le64(a + off + 16);
		got_a[k].sum += (int64_t)le64(a + off + 24);
		got_a[k].min = (int64_t)le64(a + off + 32);
		got_a[k].max = (int64_t)le64(a + off + 40);
	}
	/* bpf: no emit, no out buffer, 40-byte groups, summary, trailer */
	CHECK_EQ(blen, NKEYS * 40 + 64);
	ngroups = blen >= 64 ? (uint32_t)(le64(b + blen - 64 + 8) >> 32) : 0;
	CHECK_EQ(ngroups, NKEYS);
	for (size_t off = 0; blen >= 64 && off + 40 <= blen - 64; off += 40) {
		uint64_t k = le64(b + off);

		if (k >= NKEYS) {
			CHECK(k < NKEYS);
			continue;
		}
		got_b[k].sum = (int64_t)le64(b + off + 8);
		got_b[k].count = le64(b + off + 16);
		got_b[k].min = (int64_t)le64(b + off + 24);
		got_b[k].max = (int64_t)le64(b + off + 32);
	}
	for (uint32_t k = 0; k < NKEYS; k++) {
		CHECK_EQ(got_a[k].count, ref[k].count);
		CHECK_EQ(got_b[k].count, ref[k].count);
		CHECK_EQ(got_a[k].sum, ref[k].sum);
		CHECK_EQ(got_b[k].sum, ref[k].sum);
		CHECK_EQ(got_a[k].min, ref[k].min);
		CHECK_EQ(got_b[k].min, ref[k].min);
		CHECK_EQ(got_a[k].max, ref[k].max);
		CHECK_EQ(got_b[k].max, ref[k].max);
	}
out:
	free(a);
	free(b);
}

/* The hostile programs, the reason each is refused for and the instruction (read off
 * llvm-objdump -d of the object). */
static const struct {
	const char *prog;
	int reason;
	uint32_t insn;
	int err;
} hostile[] = {
	{ "hostile_oob", R_OUT_OF_BOUNDS, 1, -EINVAL },
	{ "hostile_jump_out", R_JUMP_OUT, 1, -EINVAL },
	{ "hostile_jump_mid", R_JUMP_MID_LDDW, 1, -EINVAL },
	{ "hostile_loop", R_BACK_EDGE, 8, -EINVAL },
	{ "hostile_helper", R_UNKNOWN_HELPER, 1, -EINVAL },
	{ "hostile_helper_arg", R_HELPER_ARG, 3, -EINVAL },
	{ "hostile_div", R_DIV_BY_ZERO, 2, -EINVAL },
	{ "hostile_stack", R_STACK_LIMIT, 1, -EINVAL },
	{ "hostile_too_big", R_TOO_BIG, 4096, -E2BIG },
};

static int count_programs(struct ss_dev *d)
{
	struct ss_dev_program p[SS_DEV_PROGRAMS_MAX];

	return ss_dev_program_list(d, p, SS_DEV_PROGRAMS_MAX);
}

static void test_hostile(struct ss_dev *d)
{
	int before = count_programs(d);

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		struct ss_dev_program_refusal why = { -1, 0 };
		char want[96];
		int rc = load(d, hostile[i].prog, "hostile", 0, &why);

		if (rc != hostile[i].err || why.reason != hostile[i].reason ||
		    why.insn != hostile[i].insn)
			fprintf(stderr, "program_ut: %s: rc %d, reason %d (%s) at %u: %s\n",
				hostile[i].prog, rc, why.reason,
				ss_dev_verifier_reason_name(why.reason), why.insn,
				ss_dev_last_message());
		CHECK_EQ(rc, hostile[i].err);
		CHECK_EQ(ss_dev_last_reason(), SS_R_PROGRAM_REFUSED);
		CHECK_EQ(why.reason, hostile[i].reason);
		CHECK_EQ(why.insn, hostile[i].insn);
		snprintf(want, sizeof(want), "instruction %u: ", hostile[i].insn);
		CHECK(strstr(ss_dev_last_message(), want) != NULL);
		CHECK(strstr(ss_dev_last_message(),
			      ss_dev_verifier_reason_name(hostile[i].reason)) != NULL);
		/* the drive serves on, and kept nothing */
		CHECK_EQ(count_programs(d), before);
	}
	/* not an ELF object at all */
	{
		struct ss_dev_program_refusal why;

		CHECK_EQ(ss_dev_program_load(d, "junk", "not an elf", 10, 0, &why), -EINVAL);
		CHECK_EQ(why.reason, R_BAD_ELF);
	}
	CHECK_EQ(count_programs(d), before);
}

/* A loaded program verified again for each instance: isp_filter emits 16-byte records,
 * which an instance of 12-byte records cannot give it. */
static void test_layout_refusal(struct ss_dev *d, uint64_t data)
{
	struct ss_bt_bpf_params bp;
	uint8_t *out = NULL;
	size_t len = 0;
	bpf_params(&bp, "isp-filter", 0, 8, 0);
	CHECK_EQ(run(d, data, SS_DEV_TASKLET_BPF, &bp, sizeof(bp), BPF_BUDGET, 12, &out, &len),
		 -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_PROGRAM_REFUSED);
	CHECK(strstr(ss_dev_last_message(), "HELPER_ARG") != NULL);
	free(out);
	/* an unknown program */
	bpf_params(&bp, "no-such-program", 0, 8, 0);
	CHECK_EQ(run(d, data, SS_DEV_TASKLET_BPF, &bp, sizeof(bp), BPF_BUDGET, REC, &out, &len),
		 -ENOENT);
	CHECK_EQ(ss_dev_last_reason(), SS_R_UNKNOWN_TASKLET);
}

static void check_listed(struct ss_dev *d)
{
	struct ss_dev_program p[SS_DEV_PROGRAMS_MAX];
	int n = ss_dev_program_list(d, p, SS_DEV_PROGRAMS_MAX), seen = 0;

	CHECK_EQ(n, 2);
	for (int i = 0; i < n && i < (int)SS_DEV_PROGRAMS_MAX; i++) {
		seen += !strcmp(p[i].name, "isp-filter") || !strcmp(p[i].name, "isp-group");
		CHECK(p[i].insns > 2 && p[i].insns < 64);
		CHECK(p[i].loaded_ns > 0);
	}
	CHECK_EQ(seen, 2);
}

/* No oid a host can name reaches a program or the programs' directory: stat every oid the
 * store can have given so far (generation << 32 | slot, the generation counting creates). */
static void check_hidden_by_oid(struct ss_dev *d)
{
	int seen = 0;

	for (uint64_t gen = 0; gen < 48; gen++) {
		for (uint64_t slot = 0; slot < 48; slot++) {
			struct ss_dev_stat st;

			if (ss_dev_stat(d, gen << 32 | slot, &st) != 0)
				continue;
			seen++;
			CHECK(strcmp(st.name, "isp-filter") != 0 && strcmp(st.name, "isp-group") != 0);
			CHECK(st.name[0] != 0x7f);
		}
	}
	CHECK_EQ(seen, 2);   /* the root and /data: the probe reaches the host's objects */
}

int main(int argc, char **argv)
{
	struct devtest t;
	struct ss_dev *d = NULL;
	struct ss_dev_fsstat fs0, fs1;
	struct ss_dev_dirent ents[8];
	uint8_t *recs = malloc(NREC * REC);
	int unix_mode = argc > 1 && !strcmp(argv[1], "unix");
	uint64_t data;
	size_t objlen;
	uint8_t *probe;

	if (!progs_dir[0] || !(probe = read_obj("isp_filter", &objlen))) {
		fprintf(stderr, "skip: no eBPF programs (clang -target bpf not found at configure "
			"time)\n");
		return UT_SKIPPED;
	}
	free(probe);
	if (devtest_format(&t, 0))
		return 1;
	if (unix_mode && devtest_start_daemon(&t))
		return 1;
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d)
		return 1;
	make_records(recs);
	CHECK_EQ(ss_dev_create(d, "/data", SS_DEV_FILE, 0, &data), 0);
	CHECK_EQ(ss_dev_write(d, data, 0, recs, NREC * REC, 0), (int64_t)(NREC * REC));
	CHECK_EQ(ss_dev_fsstat(d, &fs0), 0);

	CHECK_EQ(count_programs(d), 0);
	CHECK(load(d, "isp_filter", "isp-filter", 0, NULL) > 0);
	CHECK(load(d, "isp_group", "isp-group", 0, NULL) > 0);
	CHECK_EQ(load(d, "isp_group", "isp-group", 0, NULL), -EEXIST);
	CHECK(load(d, "isp_group", "isp-group", SS_DEV_PROGRAM_REPLACE, NULL) > 0);
	CHECK_EQ(load(d, "isp_group", "bad/name", 0, NULL), -EINVAL);
	check_listed(d);
	check_hidden_by_oid(d);
	/* not in the namespace: the root lists /data and /out only, the objects count as
	 * before */
	CHECK_EQ(ss_dev_fsstat(d, &fs1), 0);
	CHECK_EQ(fs1.objects, fs0.objects);

	test_filter(d, data, recs);
	test_group(d, data, "isp-group");
	test_hostile(d);
	test_layout_refusal(d, data);
	{
		uint64_t cursor = 0;

		CHECK_EQ(ss_dev_list(d, "/", &cursor, ents, 8), 2);
	}

	/* a restart of the drive: the programs are still there and run */
	CHECK_EQ(ss_dev_flush(d), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	d = NULL;
	if (unix_mode) {
		devtest_kill_daemon(&t, SIGTERM);
		if (devtest_start_daemon(&t))
			return 1;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d)
		return 1;
	check_listed(d);
	test_group(d, data, "isp-group");

	/* a load is durable on its reply: a daemon killed (no shutdown) right after it, as a
	 * power loss would, comes back with the program */
	if (unix_mode) {
		CHECK(load(d, "isp_count", "isp-count", 0, NULL) > 0);
		CHECK_EQ(ss_dev_close(d), 0);
		d = NULL;
		devtest_kill_daemon(&t, SIGKILL);
		if (devtest_start_daemon(&t))
			return 1;
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		if (!d)
			return 1;
		CHECK_EQ(count_programs(d), 3);
		CHECK_EQ(ss_dev_program_remove(d, "isp-count"), 0);
	}
	CHECK_EQ(ss_dev_program_remove(d, "isp-group"), 0);
	CHECK_EQ(ss_dev_program_remove(d, "isp-group"), -ENOENT);
	CHECK_EQ(ss_dev_last_reason(), SS_R_UNKNOWN_TASKLET);
	CHECK_EQ(count_programs(d), 1);

	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
	free(recs);
	return ut_report("program_ut");
}
