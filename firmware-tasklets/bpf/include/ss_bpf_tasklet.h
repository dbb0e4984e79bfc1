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
 * assumed (benchmarks/README.md, "eBPF tasklets"): the host instructions the interpreter
 * (bpf_interp.c, -O2) executes per interpreted instruction over the filter and group
 * programs of benchmarks/bpf, counted by valgrind --tool=callgrind, rounded up. */
#define SS_BPF_CORE_INSNS_PER_INSN 12u

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
