/* The emulator's unit tests' harness: the shared one (testing/ss_test.h), a string check and
 * a scratch directory for image files. */
#ifndef EMU_TEST_H
#define EMU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_test.h"

#define CHECK_STR_HAS(s, sub)                                                          \
	do {                                                                           \
		const char *s_ = (s);                                                  \
		if (s_ == NULL || strstr(s_, (sub)) == NULL) {                         \
			fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__,   \
				__LINE__, s_ ? s_ : "(null)", (sub));                  \
			ss_test_failures++;                                           \
		}                                                                      \
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
