/*
 * eBPF tasklets on the drive (issue #37): a loader, a verifier and an interpreter of the
 * RFC 9669 instruction set. The drive trusts no host: every program is verified at load,
 * and a refusal names the instruction and the reason.
 *
 * Nothing here allocates: the caller gives the program's storage (struct ss_bpf_prog),
 * the verifier's workspace (struct ss_bpf_verifier) and, per run, the stack, the output
 * buffer and the helpers' tables (struct ss_bpf_env).
 *
 * A program's entry (its first instruction) is called once per record with
 *   r1 = the context (struct ss_bpf_ctx, read-only),
 *   r2 = the record (read-only, ctx->rec_len bytes),
 *   r3 = the output buffer (read-write, cfg.out_size bytes, kept across records),
 *   r10 = the top of a stack of cfg.stack_size bytes,
 * and returns a scalar in r0.
 */
#ifndef SS_BPF_H
#define SS_BPF_H

#include <stddef.h>
#include <stdint.h>

#include "ss_bpf_reasons.h"

/* Limits. Programs over them are refused at load. */
#define SS_BPF_MAX_INSNS 4096u
#define SS_BPF_STACK_MAX 512u
#define SS_BPF_MAX_HELPERS 16u
/* Forward jumps waiting for their target while the verifier walks the program. */
#define SS_BPF_MAX_PENDING 32u
/* Longest ss_emit() */
#define SS_BPF_EMIT_MAX 256u

/* One instruction, as in RFC 9669 section 3 (little-endian: dst in the low nibble). */
struct ss_bpf_insn {
	uint8_t opcode;
	uint8_t regs;
	int16_t off;
	int32_t imm;
};

/* The context a program reads through r1 (the layout of include/tasklet/ss_tasklet_bpf.h). */
struct ss_bpf_ctx {
	uint64_t rec_len;
	uint64_t rec_index;
	uint64_t arg[6];
};

/* Why a program was refused: SS_BPF_REASONS, one list in the protocol (the load error
 * carries the code to the host, which names it). */
#define SS_BPF_REASON_ENUM(name, text) SS_BPF_R_##name,
enum ss_bpf_reason { SS_BPF_REASONS(SS_BPF_REASON_ENUM) SS_BPF_R_COUNT };
#undef SS_BPF_REASON_ENUM

/** \return the reason's text (never NULL). */
const char *ss_bpf_reason_str(int reason);

/* A refusal: the reason and the index of the instruction it is about. */
struct ss_bpf_error {
	int reason;
	uint32_t insn;
};

/* Helper ids (the `(void *)ID` of the user header). */
enum ss_bpf_helper_id {
	SS_BPF_H_EMIT = 1,      /* long ss_emit(const void *p, u64 len) */
	SS_BPF_H_GROUP_ADD = 2, /* long ss_group_add(u64 key, s64 value) */
	SS_BPF_H_TOPN_PUSH = 3, /* long ss_topn_push(s64 score, u64 value) */
	SS_BPF_H_FIELD = 4,     /* u64 ss_field(u64 offset, u64 width): little-endian */
	SS_BPF_H_LAYOUT_FIELD = 5, /* u64 ss_layout_field(u64 field): the ISP fills this slot */
};

/* How the verifier checks a helper argument. */
enum ss_bpf_arg {
	SS_BPF_ARG_NONE = 0,  /* not passed */
	SS_BPF_ARG_SCALAR,    /* any initialised scalar */
	SS_BPF_ARG_MEM,       /* pointer readable for the next argument's bytes */
	SS_BPF_ARG_MEM_LEN,   /* scalar length 1..SS_BPF_EMIT_MAX of the previous argument */
	SS_BPF_ARG_REC_OFF,   /* scalar record offset, + next argument <= cfg.rec_max */
	SS_BPF_ARG_WIDTH,     /* constant 1, 2, 4 or 8 */
};

struct ss_bpf_env;

/**
 * A helper: args are r1..r5; set *ret (r0). \return 0, or a negative errno that stops the
 * run (ss_bpf_run() returns it).
 */
typedef int (*ss_bpf_helper_fn)(struct ss_bpf_env *env, const uint64_t args[5], uint64_t *ret);

struct ss_bpf_helper {
	const char *name;
	ss_bpf_helper_fn fn; /* NULL: a slot not filled; calls to it are refused */
	uint8_t arg[5];      /* enum ss_bpf_arg */
	uint64_t ret_max;    /* r0 after the call is a scalar in [0, ret_max] */
};

/* The allow-list: indexed by helper id, SS_BPF_MAX_HELPERS entries (id 0 is never valid). */
struct ss_bpf_helpers {
	struct ss_bpf_helper h[SS_BPF_MAX_HELPERS];
};

/** Fill *t with the built-in helpers (emit, group table, top-N, fixed-width field); the
 *  layout-aware field reader's slot is left for the ISP (name set, fn NULL). */
void ss_bpf_helpers_builtin(struct ss_bpf_helpers *t);

/* What a program may touch, fixed at load. */
struct ss_bpf_config {
	uint32_t rec_min;    /* every record has at least this many bytes */
	uint32_t rec_max;    /* and at most this many */
	uint32_t out_size;   /* the output buffer */
	uint32_t stack_size; /* <= SS_BPF_STACK_MAX */
	uint32_t max_insns;  /* <= SS_BPF_MAX_INSNS; 0: SS_BPF_MAX_INSNS */
	const struct ss_bpf_helpers *helpers; /* must outlive the program */
};

/* Per instruction, what the verifier tells the interpreter. */
#define SS_BPF_AUX_RUNTIME_CHECK 0x01 /* a record access proven below rec_max, not rec_min */

/* A loaded program: the caller's storage. */
struct ss_bpf_prog {
	struct ss_bpf_config cfg;
	uint32_t n_insns;
	int verified;
	struct ss_bpf_insn insns[SS_BPF_MAX_INSNS];
	uint8_t aux[SS_BPF_MAX_INSNS];
};

/* Register and stack-slot states of the abstract interpreter (bpf_verify.c). */
struct ss_bpf_vreg {
	uint8_t type;
	uint8_t init;    /* stack slots: the bytes written */
	uint32_t id;     /* scalars: copies share an id, so a bound learnt on one holds for all */
	uint64_t lo, hi; /* scalar: unsigned range; pointer: signed offset range (as int64) */
	uint32_t lo32, hi32; /* scalar: the unsigned range of its low 32 bits (ALU32, JMP32) */
};

struct ss_bpf_vstate {
	struct ss_bpf_vreg r[11];
	struct ss_bpf_vreg slot[SS_BPF_STACK_MAX / 8];
};

/* The verifier's workspace (80 KB on a 64-bit host): the caller's, reused from load to load. */
struct ss_bpf_verifier {
	struct ss_bpf_vstate cur;
	struct ss_bpf_vstate scratch;
	struct ss_bpf_vstate pending[SS_BPF_MAX_PENDING];
	uint32_t pending_pc[SS_BPF_MAX_PENDING];
	uint8_t pending_used[SS_BPF_MAX_PENDING];
	uint32_t next_id;
};

/**
 * Load raw instructions (n of them, RFC 9669 encoding, little-endian) into *prog and verify
 * them against cfg. \return 0, or -SS_E2BIG (too long, too complex) or -SS_EINVAL (any
 * other refusal), with *err naming the reason and the instruction.
 */
int ss_bpf_load(struct ss_bpf_prog *prog, const struct ss_bpf_config *cfg, const void *insns,
		size_t n, struct ss_bpf_verifier *ws, struct ss_bpf_error *err);

/**
 * Load the program in section `section` (NULL: the only executable section with code) of
 * an ELF64 little-endian EM_BPF relocatable object, as clang -target bpf -c writes it.
 * \return as ss_bpf_load(); a malformed object gives -SS_EINVAL with SS_BPF_R_BAD_ELF.
 */
int ss_bpf_load_elf(struct ss_bpf_prog *prog, const struct ss_bpf_config *cfg, const void *elf,
		    size_t size, const char *section, struct ss_bpf_verifier *ws,
		    struct ss_bpf_error *err);

/** Verify prog->insns[0..n_insns) against prog->cfg; used by the loaders. */
int ss_bpf_verify(struct ss_bpf_prog *prog, struct ss_bpf_verifier *ws, struct ss_bpf_error *err);

/* Group table for aggregates: open addressing on the key, caller's storage. */
struct ss_bpf_group {
	uint64_t key;
	int64_t sum;
	uint64_t count; /* 0: a free slot */
	int64_t min;
	int64_t max;
};

struct ss_bpf_groups {
	struct ss_bpf_group *slot;
	uint32_t cap; /* a power of two */
	uint32_t used;
};

/* Bounded top-N: a min-heap on score of the N largest pushed. */
struct ss_bpf_top {
	int64_t score;
	uint64_t value;
};

struct ss_bpf_topn {
	struct ss_bpf_top *heap;
	uint32_t cap;
	uint32_t n;
};

/* What a run did; the ISP charges insns at its cost per instruction. */
struct ss_bpf_stats {
	uint64_t runs;
	uint64_t insns;
	uint64_t record_loads;  /* loads from the record: DRAM */
	uint64_t stack_accesses; /* loads and stores of the stack: SRAM */
	uint64_t out_accesses;   /* loads and stores of the output buffer: SRAM */
	uint64_t ctx_loads;
	uint64_t helper_calls;
	uint64_t emitted_bytes;
	uint64_t emit_refused;   /* ss_emit() calls refused for want of space */
	uint64_t faults;         /* runs stopped by a run-time bounds check */
	uint64_t budget_stops;   /* runs stopped by the instruction budget */
};

/* A run's surroundings: all the caller's memory. */
struct ss_bpf_env {
	uint8_t *stack;     /* prog->cfg.stack_size bytes */
	uint8_t *out;       /* prog->cfg.out_size bytes */
	uint8_t *emit;      /* ss_emit() appends here */
	uint32_t emit_cap;
	uint32_t emit_len;
	struct ss_bpf_groups *groups; /* NULL: ss_group_add() returns -SS_ENOSPC */
	struct ss_bpf_topn *topn;     /* NULL: ss_topn_push() returns -SS_ENOSPC */
	uint64_t budget;    /* instructions per record; 0: no limit but the program's length */
	void *isp;          /* the ISP's, for the helpers it fills */
	struct ss_bpf_stats stats;
	struct ss_bpf_ctx ctx;
	/* the current record, for the helpers */
	const uint8_t *rec;
	uint32_t rec_len;
};

/**
 * Run a verified program over one record. \return 0 with *ret = r0, or -SS_EFAULT when a
 * run-time bounds check stops it, -SS_ETIME when the budget does, or a helper's error.
 */
int ss_bpf_run(const struct ss_bpf_prog *prog, struct ss_bpf_env *env, const void *rec,
	       uint32_t rec_len, uint64_t rec_index, uint64_t *ret);

/** Group table and top-N on the caller's arrays (cap of groups a power of two). */
void ss_bpf_groups_init(struct ss_bpf_groups *g, struct ss_bpf_group *slot, uint32_t cap);
int ss_bpf_groups_add(struct ss_bpf_groups *g, uint64_t key, int64_t value);
const struct ss_bpf_group *ss_bpf_groups_find(const struct ss_bpf_groups *g, uint64_t key);
void ss_bpf_topn_init(struct ss_bpf_topn *t, struct ss_bpf_top *heap, uint32_t cap);
int ss_bpf_topn_push(struct ss_bpf_topn *t, int64_t score, uint64_t value);

#endif
