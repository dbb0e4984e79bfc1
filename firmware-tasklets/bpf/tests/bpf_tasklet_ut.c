/*
 * The "bpf" tasklet kind on the ISP engine over the real object store (isp/tests/tenv.h),
 * with hand-assembled programs handed straight to ss_isp_create, past the command layer's
 * checks: init verifies them itself, so an unverified program never runs; a verified one
 * counts its records in the output buffer, and its interpreted instructions are charged at
 * SS_BPF_CORE_INSNS_PER_INSN each; the per-record budget and a full group table stop runs.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf_asm.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_bpf_tasklet.h"
#include "ss_isp.h"
#include "ss_test.h"
#include "tenv.h"

#define REC 16u
#define NREC 3000u
#define PARAMS ((uint32_t)sizeof(struct ss_bt_bpf_params))
#define BUDGET (SS_BT_BPF_BASE_BUDGET + 64u * 40u + 4096u)

static struct tenv *env;
static ss_oid_t data, out;
static struct ss_isp_input in;
static const struct ss_layout layout = {
	.kind = SS_LAYOUT_FIXED, .record_size = REC, .nfields = 1,
	.fields = { { .offset = 0, .type = SS_FIELD_U32 } },
};

/* params (name "t", out_size 8, the given group slots and budget), then the program */
static uint32_t params(uint8_t *p, const struct ss_bpf_insn *prog, uint32_t n, uint32_t slots,
		       uint32_t insn_budget)
{
	memset(p, 0, PARAMS);
	p[offsetof(struct ss_bt_bpf_params, name_len)] = 1;
	p[offsetof(struct ss_bt_bpf_params, name)] = 't';
	ss_put_le32(p + offsetof(struct ss_bt_bpf_params, out_size), 8);
	ss_put_le32(p + offsetof(struct ss_bt_bpf_params, group_slots), slots);
	ss_put_le32(p + offsetof(struct ss_bt_bpf_params, insn_budget), insn_budget);
	memcpy(p + PARAMS, prog, n * sizeof(*prog));
	return PARAMS + n * (uint32_t)sizeof(*prog);
}

static struct ss_isp_progress run(const struct ss_bpf_insn *prog, uint32_t n, uint32_t slots,
				  uint32_t insn_budget)
{
	static uint8_t p[PARAMS + 64 * 8];
	uint32_t len = params(p, prog, n, slots, insn_budget), id;
	struct ss_isp_progress pr;

	memset(&pr, 0, sizeof(pr));
	REQUIRE(ss_isp_create(tenv_isp(env), SS_BT_BPF, p, len, &layout, BUDGET, 0, out, &id) ==
		0);
	pr = tenv_run(env, id, &in, 1);
	CHECK_EQ(ss_isp_destroy(tenv_isp(env), id), 0);
	return pr;
}

/* out[0..8) += 1 per record */
static const struct ss_bpf_insn count[] = {
	LDX_MEM(DW, 0, 3, 0),
	ALU64_K(ADD, 0, 1),
	STX_MEM(DW, 3, 0, 0),
	MOV64_K(0, 0),
	EXIT(),
};

static void test_counts_and_charges(void)
{
	struct tenv_isp_counts before, after;
	struct ss_isp_progress p;
	uint64_t len;
	uint8_t *o;

	tenv_isp_counts(env, &before);
	p = run(count, SS_ARRAY_SIZE(count), 0, 0);
	tenv_isp_counts(env, &after);
	CHECK_EQ(p.state, SS_ISP_DONE);
	CHECK_EQ(p.records, NREC);
	o = tenv_read(env, out, &len);
	/* out buffer (8), summary (32), trailer (32) */
	CHECK_EQ(len, 8 + 32 + 32);
	if (len == 72) {
		CHECK_EQ(ss_get_le64(o), NREC);
		CHECK_EQ(ss_get_le64(o + 72 - 8), NREC * SS_ARRAY_SIZE(count));  /* aux */
	}
	free(o);
	/* every interpreted instruction charged as SS_BPF_CORE_INSNS_PER_INSN, and the
	 * program's verification as one per instruction: the rest is the engine's own */
	CHECK(after.insn - before.insn >=
	      (uint64_t)NREC * SS_ARRAY_SIZE(count) * SS_BPF_CORE_INSNS_PER_INSN);
	CHECK(p.instructions >= (uint64_t)NREC * SS_ARRAY_SIZE(count) * SS_BPF_CORE_INSNS_PER_INSN);
	CHECK(p.instructions < (uint64_t)NREC * (SS_ARRAY_SIZE(count) + 1) *
			       SS_BPF_CORE_INSNS_PER_INSN);
}

/* Unverified bytes never run: each of these fails the run in init (-SS_EINVAL) with the
 * output object left empty, though the command layer never saw them. */
static void test_unverified_refused(void)
{
	static const struct ss_bpf_insn oob[] = {
		ST_MEM(DW, 3, 4096, 1),   /* past the 8-byte output buffer */
		MOV64_K(0, 0),
		EXIT(),
	};
	static const struct ss_bpf_insn loop[] = {
		MOV64_K(0, 0),
		JA(-2),
		EXIT(),
	};
	static const struct ss_bpf_insn rec_store[] = {
		ST_MEM(B, 2, 0, 1),       /* into the record */
		MOV64_K(0, 0),
		EXIT(),
	};
	const struct {
		const struct ss_bpf_insn *p;
		uint32_t n;
	} bad[] = { { oob, 3 }, { loop, 3 }, { rec_store, 3 } };

	for (size_t i = 0; i < SS_ARRAY_SIZE(bad); i++) {
		struct ss_isp_progress p = run(bad[i].p, bad[i].n, 0, 0);
		uint64_t len;
		uint8_t *o;

		CHECK_EQ(p.state, SS_ISP_FAILED);
		CHECK_EQ(p.error, -SS_EINVAL);
		CHECK_EQ(p.records, 0);
		o = tenv_read(env, out, &len);
		CHECK_EQ(len, 0);
		free(o);
	}
}

/* A record that needs more than insn_budget instructions stops the run (-SS_ETIME). */
static void test_budget(void)
{
	struct ss_isp_progress p = run(count, SS_ARRAY_SIZE(count), 0, 3);

	CHECK_EQ(p.state, SS_ISP_FAILED);
	CHECK_EQ(p.error, -SS_ETIME);
	p = run(count, SS_ARRAY_SIZE(count), 0, SS_ARRAY_SIZE(count));
	CHECK_EQ(p.state, SS_ISP_DONE);
}

/* ss_group_add(the u32 at 0, 1) into a table of 4 slots (3 groups): the records have more
 * keys, so the run fails (-SS_ENOMEM) rather than drop a value; with 64 slots it is done. */
static void test_group_table_full(void)
{
	static const struct ss_bpf_insn group[] = {
		LDX_MEM(W, 1, 2, 0),
		MOV64_K(2, 1),
		CALL(SS_BPF_H_GROUP_ADD),
		MOV64_K(0, 0),
		EXIT(),
	};
	struct ss_isp_progress p = run(group, SS_ARRAY_SIZE(group), 4, 0);

	CHECK_EQ(p.state, SS_ISP_FAILED);
	CHECK_EQ(p.error, -SS_ENOMEM);
	p = run(group, SS_ARRAY_SIZE(group), 64, 0);
	CHECK_EQ(p.state, SS_ISP_DONE);
}

int main(void)
{
	static uint8_t recs[NREC * REC];

	for (uint32_t i = 0; i < NREC; i++) {
		ss_put_le32(recs + i * REC, i % 7);
	}
	env = tenv_open();
	REQUIRE(ss_isp_register(tenv_isp(env), &ss_bpf_tasklet) == 0);
	data = tenv_put(env, "recs.bin", recs, sizeof(recs));
	out = tenv_output(env, "bpf.out");
	in = (struct ss_isp_input){ .oid = data, .offset = 0, .length = sizeof(recs) };
	RUN(test_counts_and_charges);
	RUN(test_unverified_refused);
	RUN(test_budget);
	RUN(test_group_table_full);
	tenv_close(env);
	return ss_test_status();
}
