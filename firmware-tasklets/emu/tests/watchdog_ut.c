/*
 * The watchdog's timer after a disarm: on a host thread (a cached scan's sections run in
 * the host command) it stops at once, so no stray signal reaches the host's own code; on
 * the drive's controller thread (emu_watchdog_lazy_stop) it is left to stop at its next
 * tick, with no system call. Either way a section that never returns is still stopped
 * when the watchdog is armed again.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#include "emu_internal.h"
#include "emu_test.h"
#include "ss_rt.h"

static uint64_t clock_ms(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* This thread's CPU time advanced by `ms`, within a bound of wall-clock time. */
static void burn_cpu_ms(uint64_t ms)
{
	uint64_t cpu_end = clock_ms(CLOCK_THREAD_CPUTIME_ID) + ms;
	uint64_t wall_end = clock_ms(CLOCK_MONOTONIC) + 60000u;

	while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < cpu_end) {
		if (clock_ms(CLOCK_MONOTONIC) > wall_end) {
			fprintf(stderr, "no %llu ms of CPU time within 60 s of wall clock\n",
				(unsigned long long)ms);
			exit(2);
		}
	}
}

static int quick(void *arg)
{
	(void)arg;
	return 7;
}

static int runaway(void *arg)
{
	(void)arg;
	burn_cpu_ms(60000);
	return 0;
}

static void *one_thread(void *arg)
{
	int lazy = *(const int *)arg;

	if (lazy) {
		emu_watchdog_lazy_stop();
	}
	emu_watchdog_arm(NULL, 50);
	CHECK_EQ(emu_section_run(NULL, quick, NULL), 7);
	CHECK(emu_watchdog_ticking());
	emu_watchdog_arm(NULL, 0);
	if (lazy) {
		CHECK(emu_watchdog_ticking());
		burn_cpu_ms(100);   /* ten ticks' worth: the first one stops it */
	}
	CHECK(!emu_watchdog_ticking());
	emu_watchdog_arm(NULL, 50);
	CHECK_EQ(emu_section_run(NULL, runaway, NULL), -SS_ETIMEDOUT);
	emu_watchdog_arm(NULL, 0);
	if (!lazy) {
		CHECK(!emu_watchdog_ticking());
	}
	return NULL;
}

static void test_disarm(int lazy)
{
	pthread_t t;

	CHECK_EQ(pthread_create(&t, NULL, one_thread, &lazy), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}

static void test_disarm_host_thread(void)
{
	test_disarm(0);
}

static void test_disarm_controller_thread(void)
{
	test_disarm(1);
}

int main(void)
{
	RUN(test_disarm_host_thread);
	RUN(test_disarm_controller_thread);
	return ss_test_failures ? 1 : 0;
}
