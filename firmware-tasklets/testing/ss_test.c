#define _GNU_SOURCE
#include "ss_test.h"

#include <unistd.h>

int ss_test_failures;

uint64_t ss_test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

uint32_t ss_test_rand_below(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(ss_test_rand(s) % n) : 0;
}

uint64_t ss_test_seed(uint64_t dflt)
{
	const char *v = getenv("SS_TEST_SEED");

	return v ? strtoull(v, NULL, 0) : dflt;
}

void ss_test_tmpdir(char *dir, size_t cap, const char *prefix)
{
	int n = snprintf(dir, cap, "%s/%s.XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", prefix);

	if (n < 0 || (size_t)n >= cap || mkdtemp(dir) == NULL) {
		fprintf(stderr, "fatal: cannot make a scratch directory %s\n", dir);
		exit(2);
	}
}
