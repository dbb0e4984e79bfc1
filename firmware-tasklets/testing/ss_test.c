#define _GNU_SOURCE
#include "ss_test.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ss_devd_spawn.h"

int ss_test_failures;
int ss_test_skips;

int ss_test_status(void)
{
	if (ss_test_failures)
		return 1;
	return ss_test_skips ? SS_TEST_SKIPPED : 0;
}

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

uint8_t *ss_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n = -1;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n + 1)) != NULL &&
	    fread(b, 1, (size_t)n, f) == (size_t)n) {
		fclose(f);
		*len = (size_t)n;
		return b;
	}
	fprintf(stderr, "cannot read %s: %s\n", path, f ? "short read" : strerror(errno));
	exit(1);
}

static int child_wait_ms(void)
{
	const char *v = getenv("SS_TEST_CHILD_WAIT_S");
	long s = v ? strtol(v, NULL, 10) : 300;

	return (int)((s > 0 && s < 86400 ? s : 300) * 1000);
}

ssize_t ss_test_child_read(int fd, void *buf, size_t n, pid_t child, const char *what)
{
	int ms = child_wait_ms();

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, ms);
		ssize_t got;

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r == 0) {
			fprintf(stderr, "child %d: nothing on its pipe within %d s while waiting for "
				"%s (killed)\n", (int)child, ms / 1000, what);
			kill(child, SIGKILL);
			ss_test_failures++;
			return -1;
		}
		got = read(fd, buf, n);
		if (got < 0 && errno == EINTR) {
			continue;
		}
		return got;
	}
}

int ss_test_child_wait(pid_t child, int *status, const char *what)
{
	char err[256];

	if (ss_devd_wait_exit(child, child_wait_ms(), status, what, err, sizeof(err)) != 0) {
		fprintf(stderr, "child %d: %s\n", (int)child, err);
		ss_test_failures++;
		return -1;
	}
	return 0;
}
