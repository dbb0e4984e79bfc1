/*
 * Bounded polling, for the threads of the emulated drive that wait for each other: waking
 * a thread that slept on another CPU is most of a short wait on a virtual machine, so a
 * waiter polls for a while first, and then sleeps.
 */
#include <time.h>

#include "emu_internal.h"

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

bool emu_poll(uint32_t spin_us, bool (*done)(void *arg), void *arg)
{
	uint64_t until;

	if (done(arg)) {
		return true;
	}
	if (spin_us == 0) {
		return false;
	}
	until = mono_ns() + (uint64_t)spin_us * 1000u;
	do {
		for (int i = 0; i < 64; i++) {
			if (done(arg)) {
				return true;
			}
			cpu_relax();
		}
	} while (mono_ns() < until);
	return done(arg);
}
