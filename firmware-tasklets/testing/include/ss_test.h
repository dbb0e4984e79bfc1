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
#include <sys/types.h>

#include "ss_test_file.h"

/* Failed checks so far, in the whole test program. */
extern int ss_test_failures;
/* Tests that could not run here (SKIP), in the whole test program. */
extern int ss_test_skips;

/* CTest's SKIP_RETURN_CODE for a test program whose tests could not run here. */
#define SS_TEST_SKIPPED 77

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

/* End the test without a verdict, saying why it cannot run on this machine. A program whose
 * tests skip exits SS_TEST_SKIPPED (ss_test_status), so CTest reports it skipped, not passed. */
#define SKIP(...)                                                                        \
	do {                                                                             \
		fprintf(stderr, "skip: " __VA_ARGS__);                                   \
		fputc('\n', stderr);                                                     \
		ss_test_skips++;                                                         \
		return;                                                                  \
	} while (0)

#define RUN(t)                                                                           \
	do {                                                                             \
		int before_ = ss_test_failures, skips_ = ss_test_skips;                  \
		t();                                                                     \
		fprintf(stderr, "%s %s\n", ss_test_failures != before_ ? "FAIL"            \
				: ss_test_skips != skips_ ? "skip" : "ok  ", #t);          \
	} while (0)

/** \return the test program's exit status: 1 when a check failed, else SS_TEST_SKIPPED when
 *  a test skipped, else 0. */
int ss_test_status(void);

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

/*
 * Waits on a forked child (the crash tests' children), each bounded by SS_TEST_CHILD_WAIT_S
 * seconds (default 300): a child that hangs fails the test with a message naming `what` the
 * test waited for, and is killed and reaped, instead of hanging the test until CTest's
 * timeout.
 */
/** read(2) from the child's pipe fd: \return bytes read, 0 at its end, or -1 (a failure
 *  counted and the child killed; reap it with ss_test_child_wait) when nothing came
 *  within the bound. */
ssize_t ss_test_child_read(int fd, void *buf, size_t n, pid_t child, const char *what);
/** waitpid(2) for the child: \return 0 and its status, or -1 (a failure counted; the child
 *  is killed and reaped) when it did not exit within the bound. */
int ss_test_child_wait(pid_t child, int *status, const char *what);

#endif
