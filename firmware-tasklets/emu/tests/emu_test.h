/* Minimal test harness shared by the emulator's unit tests. */
#ifndef EMU_TEST_H
#define EMU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int emu_test_failures;

#define CHECK(cond)                                                                    \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			emu_test_failures++;                                           \
		}                                                                      \
	} while (0)

#define CHECK_EQ(a, b)                                                                 \
	do {                                                                           \
		unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
		if (va_ != vb_) {                                                      \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %llu, %s = %llu\n",  \
				__FILE__, __LINE__, #a, va_, #b, vb_);                 \
			emu_test_failures++;                                           \
		}                                                                      \
	} while (0)

#define CHECK_STR_HAS(s, sub)                                                          \
	do {                                                                           \
		const char *s_ = (s);                                                  \
		if (s_ == NULL || strstr(s_, (sub)) == NULL) {                         \
			fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__,   \
				__LINE__, s_ ? s_ : "(null)", (sub));                  \
			emu_test_failures++;                                           \
		}                                                                      \
	} while (0)

#define RUN(t)                                                                         \
	do {                                                                           \
		int before_ = emu_test_failures;                                       \
		t();                                                                   \
		fprintf(stderr, "%s %s\n", emu_test_failures == before_ ? "ok  " : "FAIL", #t); \
	} while (0)

/* A fresh temp directory for image files; removed with its files by emu_test_rmdir. */
static inline void emu_test_mkdir(char *dir, size_t cap)
{
	snprintf(dir, cap, "/tmp/ss_emu_ut.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
}

static inline void emu_test_rmdir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot remove %s\n", dir);
	}
}

#endif
