/*
 * The eBPF fuzz harness, shared by the libFuzzer target (fuzz_bpf.c) and the plain replay
 * and mutation driver (replay.c): one input is a program (raw instructions, an ELF object,
 * or a recipe that generates mostly well-formed instructions), a configuration and some
 * records. The program goes through the loader and the verifier; an accepted one runs over
 * every record. Built with SS_BPF_ASSERT_BOUNDS, the interpreter traps on any load or store
 * outside its buffer, so a program the verifier wrongly accepts crashes the run.
 *
 * Input, little-endian:
 *   u8  mode         0 raw instructions, 1 ELF object, 2 recipe (4 bytes an instruction)
 *   u8  rec_min      (% 65)
 *   u8  rec_span     rec_max = rec_min + rec_span % 65
 *   u8  out_size     (% 129)
 *   u8  stack        stack_size = 8 * (stack % 65)
 *   u8  budget       0: none; else the per-record budget
 *   u8  nrec         records to run (% 9)
 *   u8  reserved
 *   u64 arg[2]       ctx->arg[0], ctx->arg[1]
 *   u16 prog_len     bytes of program that follow
 *   prog_len bytes
 *   the rest         the records' bytes, each record's length chosen by its first byte
 */
#ifndef SS_BPF_FUZZ_H
#define SS_BPF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#define FZB_HDR 26u
#define FZB_MAX_INPUT 65536u

struct fzb_stats {
	uint64_t inputs;
	uint64_t accepted;
	uint64_t runs;
	uint64_t runs_ok;
	uint64_t insns;
};

/** Run one input; aborts (a crash for the fuzzer) when an invariant breaks. */
int fzb_run(const uint8_t *data, size_t size);
const struct fzb_stats *fzb_stats(void);

/** Encode an input: \return its length (out must hold FZB_HDR + prog_len + rec_len). */
size_t fzb_input(uint8_t *out, uint8_t mode, uint8_t rec_min, uint8_t rec_span, uint8_t out_size,
		 uint8_t stack, uint8_t nrec, uint64_t arg0, uint64_t arg1, const void *prog,
		 uint16_t prog_len, const void *recs, size_t rec_len);

#endif
