/*
 * The firmware tests' harness, shared by the FTL, object-store and ISP tests: checks that
 * count failures (CHECK, CHECK_EQ), a check that ends the test (REQUIRE), a runner (RUN),
 * a reproducible PRNG with a seed from SS_TEST_SEED, and a scratch directory on tmpfs.
 */
#ifndef SS_TEST_H
#define SS_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Failed checks so far, in the whole test program. */
extern int ss_test_failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			ss_test_failures++;                                              \
		}                                                                        \
	} while (0)

#define CHECK_EQ(a, b)                                                                   \
	do {                                                                             \
		long long va_ = (long long)(a), vb_ = (long long)(b);                    \
		if (va_ != vb_) {                                                        \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n",    \
				__FILE__, __LINE__, #a, va_, #b, vb_);                   \
			ss_test_failures++;                                              \
		}                                                                        \
	} while (0)

/* Abort the test on a failed setup step: nothing after it would mean anything. */
#define REQUIRE(cond)                                                                    \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);                                                         \
		}                                                                        \
	} while (0)

#define RUN(t)                                                                           \
	do {                                                                             \
		int before_ = ss_test_failures;                                          \
		t();                                                                     \
		fprintf(stderr, "%s %s\n", ss_test_failures == before_ ? "ok  " : "FAIL", #t); \
	} while (0)

/** Deterministic PRNG (xorshift64*), seeded per test so failures reproduce. */
uint64_t ss_test_rand(uint64_t *state);
/** \return a number below n (0 when n is 0). */
uint32_t ss_test_rand_below(uint64_t *state, uint32_t n);
/** \return SS_TEST_SEED from the environment, else dflt. */
uint64_t ss_test_seed(uint64_t dflt);

/**
 * Make a fresh directory `prefix.XXXXXX` on tmpfs when there is one (the flash layers sync
 * often, and fdatasync on a disk would dominate the run time without changing what is
 * tested), else under /tmp, into dir[cap]. Exits the test on failure.
 */
void ss_test_tmpdir(char *dir, size_t cap, const char *prefix);

#endif
