/*
 * The tasklet watchdog of the emulated controller: the hal's sections (ss_hal.h) on a
 * per-thread CPU-time timer.
 *
 * A board would use a hardware timer interrupt; here a POSIX timer on the calling thread's
 * CPU clock sends a signal to that thread every tick while the watchdog is armed, and the
 * handler leaves a section that has run for `limit` ticks with siglongjmp, as the board's
 * IRQ handler would return into the section's exit. CPU time, not wall time: a loaded
 * machine slows a callback down but does not make it look hung. The watchdog is a net for
 * tasklets that never return; its limit is orders of magnitude above any callback that
 * does (one callback sees at most 128 records), so its timing never decides the outcome
 * of a run that terminates, and modelled time still comes only from counted work.
 *
 * On the drive's controller thread (emu_watchdog_lazy_stop), disarming leaves the timer
 * ticking and the next tick stops it: every slice arms and disarms the watchdog, and two
 * timer_settime calls a slice were a measurable part of an in-process round trip. A
 * ticking timer costs nothing while its thread sleeps (it counts the thread's CPU time),
 * and a section's ticks are counted from its own first tick, so a timer left running
 * stops a runaway as soon as a freshly started one would. Other threads run sections
 * only inside a host command (a cached scan) and then go back to the host's own code (a
 * JVM's, say), where a stray signal has no business: their disarm stops the timer at once.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "emu_internal.h"
#include "ss_rt.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid   /* glibc before 2.35 spells it so */
#endif

#define WD_TICK_MS 10u

struct wd_thread {
	sigjmp_buf exit;
	volatile sig_atomic_t in_section;
	volatile sig_atomic_t masked;
	volatile sig_atomic_t due;
	volatile sig_atomic_t armed;
	volatile sig_atomic_t ticking;   /* the timer runs (it may outlive `armed`) */
	bool lazy_stop;                  /* emu_watchdog_lazy_stop: disarm leaves it ticking */
	uint64_t section;        /* sections run so far: which one a tick sees */
	uint64_t seen;
	uint32_t ticks;          /* consecutive ticks inside section `seen` */
	uint32_t limit_ticks;
	int err;
	bool have_timer;
	timer_t timer;
};

static __thread struct wd_thread wd;
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static pthread_key_t wd_key;
static int wd_signal;

static void wd_leave(int err)
{
	wd.err = err;
	wd.in_section = 0;
	wd.due = 0;
	wd.masked = 0;
	siglongjmp(wd.exit, 1);
}

static void wd_stop(void)
{
	struct itimerspec off;

	memset(&off, 0, sizeof(off));
	timer_settime(wd.timer, 0, &off, NULL);   /* async-signal-safe */
	wd.ticking = 0;
}

static void wd_tick(int sig)
{
	(void)sig;
	if (!wd.armed) {
		wd_stop();
		return;
	}
	if (!wd.in_section) {
		return;
	}
	if (wd.seen != wd.section) {
		wd.seen = wd.section;
		wd.ticks = 0;
	}
	if (++wd.ticks < wd.limit_ticks) {
		return;
	}
	if (wd.masked) {
		wd.due = 1;   /* inside a firmware service: act when it returns */
		return;
	}
	wd_leave(-SS_ETIMEDOUT);
}

static void wd_thread_exit(void *arg)
{
	(void)arg;
	if (wd.have_timer) {
		timer_delete(wd.timer);
		wd.have_timer = false;
	}
}

static void wd_setup(void)
{
	struct sigaction sa;

	wd_signal = SIGRTMAX - 3;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wd_tick;
	/* NODEFER: the handler may leave by siglongjmp without restoring a signal mask, and
	 * the signal must not stay blocked after it. RESTART: a tick that lands in a system
	 * call of the firmware (image I/O) restarts it. */
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(wd_signal, &sa, NULL);
	pthread_key_create(&wd_key, wd_thread_exit);
}

static int wd_timer(void)
{
	struct sigevent ev;

	if (wd.have_timer) {
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = wd_signal;
	ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &wd.timer) != 0) {
		return -SS_EIO;
	}
	wd.have_timer = true;
	pthread_setspecific(wd_key, &wd);   /* so that the thread's exit deletes the timer */
	return 0;
}

void emu_watchdog_arm(void *ctx, uint32_t limit_ms)
{
	struct itimerspec its;

	(void)ctx;
	pthread_once(&wd_once, wd_setup);
	if (limit_ms != 0 && wd_timer() != 0) {
		return;   /* no timer: the counted budgets still stop a tasklet */
	}
	if (!wd.have_timer || limit_ms == 0) {
		wd.armed = 0;   /* a tick from now on stops the timer */
		if (wd.have_timer && wd.ticking && !wd.lazy_stop) {
			wd_stop();
		}
		return;
	}
	wd.limit_ticks = SS_DIV_ROUND_UP(limit_ms, WD_TICK_MS) + 1u;
	/* armed before ticking is read: a tick in between sees armed and keeps the timer */
	wd.armed = 1;
	if (!wd.ticking) {
		memset(&its, 0, sizeof(its));
		its.it_interval.tv_nsec = (long)WD_TICK_MS * 1000000L;
		its.it_value = its.it_interval;
		wd.ticking = 1;
		timer_settime(wd.timer, 0, &its, NULL);
	}
}

void emu_watchdog_lazy_stop(void)
{
	wd.lazy_stop = true;
}

int emu_watchdog_ticking(void)
{
	return wd.ticking != 0;
}

int emu_section_run(void *ctx, int (*fn)(void *arg), void *arg)
{
	int rc;

	(void)ctx;
	wd.section++;
	if (sigsetjmp(wd.exit, 0) != 0) {
		return wd.err;
	}
	wd.in_section = 1;
	rc = fn(arg);
	wd.in_section = 0;
	return rc;
}

void emu_section_abort(void *ctx, int err)
{
	(void)ctx;
	if (wd.in_section) {
		wd_leave(err);
	}
}

void emu_section_mask(void *ctx, int on)
{
	(void)ctx;
	if (on) {
		wd.masked++;
		return;
	}
	if (wd.masked > 0 && --wd.masked == 0 && wd.due && wd.in_section) {
		wd_leave(-SS_ETIMEDOUT);
	}
}
