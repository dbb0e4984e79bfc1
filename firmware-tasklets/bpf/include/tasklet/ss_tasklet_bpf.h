/*
 * What an eBPF tasklet written in restricted C includes (compiled with
 * `clang -O2 -target bpf -c`). The program is one function, in its own section:
 *
 *   SS_TASKLET long filter(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
 *                          unsigned char *out) { ... }
 *
 * It runs once per record: ctx and rec are read-only, out is the output buffer (kept from
 * record to record), the stack is at most 512 bytes. No loops (the verifier refuses
 * backward jumps: unroll them), no globals, no calls but to the helpers below, which are
 * called by id so that the object needs no relocation.
 */
#ifndef SS_TASKLET_BPF_H
#define SS_TASKLET_BPF_H

typedef __UINT8_TYPE__ ss_u8;
typedef __UINT16_TYPE__ ss_u16;
typedef __UINT32_TYPE__ ss_u32;
typedef __UINT64_TYPE__ ss_u64;
typedef __INT64_TYPE__ ss_s64;

/* = struct ss_bpf_ctx of firmware-tasklets/bpf/include/ss_bpf.h */
struct ss_tasklet_ctx {
	ss_u64 rec_len;
	ss_u64 rec_index;
	ss_u64 arg[6];
};

#define SS_TASKLET __attribute__((section("tasklet"), used))

/* Append len (1..256, known to the verifier) bytes at p to the output stream; 0, or
 * -28 (ENOSPC) when the stream is full. */
static long (*ss_emit)(const void *p, ss_u64 len) = (void *)1;
/* Add value to the group of key: sum, count, min, max. 0, or -28 when the table is full. */
static long (*ss_group_add)(ss_u64 key, ss_s64 value) = (void *)2;
/* Offer (score, value) to the top-N heap: 1 if kept. */
static long (*ss_topn_push)(ss_s64 score, ss_u64 value) = (void *)3;
/* The little-endian field of width 1, 2, 4 or 8 (a constant) at offset of the record
 * (offset + width <= the largest record, proven by the verifier; checked at run time
 * against this record). */
static ss_u64 (*ss_field)(ss_u64 offset, ss_u64 width) = (void *)4;
/* A field of the object's layout by its number (filled by the ISP). */
static ss_u64 (*ss_layout_field)(ss_u64 field) = (void *)5;

#endif
