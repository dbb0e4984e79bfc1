/*
 * The fuzz harnesses' driver without libFuzzer, shared by the command layer's (replay.c),
 * the eBPF module's (bpf/fuzz/replay.c) and the Parquet decoder's (parquet/fuzz/replay.c):
 * replays a corpus, then runs deterministic random and mutated inputs (xorshift, fixed
 * seed). Each mutated input runs from an exact-size copy, so that reading past its end is
 * caught. A harness brings its entry point, its mutations and its final invariant checks.
 *   usage: NAME CORPUS_DIR [ITERATIONS] [SEED]
 */
#ifndef SS_FUZZ_REPLAY_DRIVER_H
#define SS_FUZZ_REPLAY_DRIVER_H

#include <stddef.h>
#include <stdint.h>

struct fz_replay_seed {
	uint8_t *data;
	size_t size;
};

struct fz_replay_harness {
	const char *name;		/* in messages */
	size_t max_input;		/* bytes read from a corpus file; mutations stay within it */
	int max_seeds;			/* corpus files read, in name order */
	long default_iterations;
	/* 1 in fresh_one_in inputs is fresh(), the rest mutated seeds; 0: mutations only, and
	 * the corpus must not be empty */
	uint32_t fresh_one_in;
	/* optional, after the corpus is read: \return 0 or negative errno */
	int (*setup)(void);
	/* the harness's LLVMFuzzerTestOneInput; aborts when an invariant breaks */
	int (*run)(const uint8_t *data, size_t size);
	/* a fresh input into out (max_input bytes): \return its size */
	size_t (*fresh)(uint8_t *out);
	/* mutate size bytes in buf (2 * max_input bytes) in place: \return the new size,
	 * at most max_input */
	size_t (*mutate)(uint8_t *buf, size_t size);
	/* the end-of-run invariant checks and the summary */
	void (*finish)(int nseeds, long iterations);
};

/** Run the harness as the program's main: \return the exit status (2: bad usage or corpus). */
int fz_replay_main(const struct fz_replay_harness *h, int argc, char **argv);

/** The driver's random stream, for fresh() and mutate(). */
uint64_t fz_replay_next(void);
/** \return a value in [0, n), 0 when n is 0 */
uint32_t fz_replay_below(uint32_t n);

/** The corpus, for splicing. */
int fz_replay_nseeds(void);
const struct fz_replay_seed *fz_replay_seed(int i);

#endif
