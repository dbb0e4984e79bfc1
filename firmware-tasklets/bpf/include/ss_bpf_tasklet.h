/*
 * The "bpf" tasklet kind on the ISP engine (bpf_tasklet.c): a program loaded with
 * TASKLET_LOAD, verified against the instance's layout and interpreted per record. Not in
 * the Jasmine image (cross/jasmine-features.sh).
 */
#ifndef SS_BPF_TASKLET_H
#define SS_BPF_TASKLET_H

#include "smartssd/builtin_tasklets.h"
#include "smartssd/tasklet.h"
#include "ss_bpf.h"

/* The ISP core's instructions one interpreted eBPF instruction costs: measured, not
 * assumed. valgrind --tool=callgrind counted the host instructions of ss_bpf_run (-O2, x86-64,
 * 2026-11-29), helpers excluded, over 200,000 records of three programs (bpf_cost --interp,
 * benchmarks/README.md "eBPF tasklets"): 67.9 (group_sum), 69.5 (filter_count) and 65.9
 * (unrolled) per interpreted instruction, the dispatch and per-record set-up included.
 * Rounded up; taken as the ARM core's count too, one instruction a cycle as the profile's
 * isp_ns_per_instruction. */
#define SS_BPF_CORE_INSNS_PER_INSN 70u
/* A helper's own work beside its call instruction, measured the same way: 74 host
 * instructions a ss_group_add, 69 a 4-byte ss_emit, 26 a ss_topn_push; the largest, rounded
 * up. ss_layout_field's field read is counted by the engine's field reader besides. */
#define SS_BPF_CORE_INSNS_PER_HELPER 75u

/* The params init takes: the host's struct ss_bt_bpf_params, then the instructions. */
#define SS_BPF_TASKLET_PARAMS_MAX \
	((uint32_t)sizeof(struct ss_bt_bpf_params) + SS_BPF_MAX_INSNS * 8u)

extern const struct ss_tasklet_desc ss_bpf_tasklet;

/** The helpers a bpf instance runs with: the built-ins, emit and the group table on the
 *  engine's output and failure rules, and ss_layout_field. */
void ss_bpf_tasklet_helpers(struct ss_bpf_helpers *t);

/** The configuration a program is verified against for an instance with layout l and
 *  these params (struct ss_bt_bpf_params first). \return 0 or -SS_EINVAL. */
int ss_bpf_tasklet_config(const struct ss_layout *l, const void *params, uint32_t params_len,
			  const struct ss_bpf_helpers *helpers, struct ss_bpf_config *cfg);

#endif
