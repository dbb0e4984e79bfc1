/*
 * Start smartssd-devd as a child and wait, bounded, for its readiness signal: the daemon
 * writes "READY=1\n" on the pipe it is given with --ready-fd once its socket listens.
 * Never a poll on the socket file or a sleep: the file can exist before anyone listens.
 * Also a bounded wait for a child's exit (a daemon that should refuse to start, or stop).
 * Header-only, for the C tests and tools that start daemons.
 */
#ifndef SS_DEVD_SPAWN_H
#define SS_DEVD_SPAWN_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SS_DEVD_READY_LINE "READY=1\n"

static inline long long ss_devd_spawn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Where there is no pidfd_open (kernels before 5.3, and Valgrind): a thread blocks in
 * waitpid and signals the exit on a pipe, which the waiter polls with its bound. */
struct ss_devd_reaper {
	pid_t pid;
	int status;
	int err;
	int wfd;
};

static inline void *ss_devd_reap(void *arg)
{
	struct ss_devd_reaper *r = (struct ss_devd_reaper *)arg;

	r->err = 0;
	while (waitpid(r->pid, &r->status, 0) < 0) {
		if (errno != EINTR) {
			r->err = errno;
			break;
		}
	}
	(void)!write(r->wfd, "x", 1);
	return NULL;
}

/* \return a descriptor that becomes readable when `pid` exits (a pidfd, or the read end of
 * a reaper's pipe when *reaper is started), or a negative errno. */
static inline int ss_devd_exit_fd(pid_t pid, struct ss_devd_reaper *r, pthread_t *reaper,
				  int *started)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int p[2];

	*started = 0;
	if (pfd >= 0 || errno != ENOSYS) {
		return pfd >= 0 ? pfd : -errno;
	}
	if (pipe(p) != 0) {
		return -errno;
	}
	r->pid = pid;
	r->wfd = p[1];
	if (pthread_create(reaper, NULL, ss_devd_reap, r) != 0) {
		close(p[0]);
		close(p[1]);
		return -EAGAIN;
	}
	*started = 1;
	return p[0];
}

/*
 * Wait up to timeout_ms for child `pid` to exit, woken by its exit (a pidfd, or a reaper
 * thread's pipe), never by a sleep. \return 0 and its wait status in *status; or
 * -ETIMEDOUT after writing `what` and the time waited into err: the child is then killed
 * and reaped, so a test that expected an exit fails with a message instead of hanging.
 */
static inline int ss_devd_wait_exit(pid_t pid, int timeout_ms, int *status, const char *what,
				    char *err, size_t err_cap)
{
	long long deadline = ss_devd_spawn_now_ms() + timeout_ms;
	struct ss_devd_reaper r = { 0 };
	pthread_t reaper;
	int started, rc = 0;
	int pfd = ss_devd_exit_fd(pid, &r, &reaper, &started);

	if (pfd < 0) {
		snprintf(err, err_cap, "waiting for %d to exit: %s", (int)pid, strerror(-pfd));
		return pfd;
	}
	for (;;) {
		long long left = deadline - ss_devd_spawn_now_ms();
		struct pollfd pf = { .fd = pfd, .events = POLLIN };
		int n = left > 0 ? poll(&pf, 1, (int)left) : 0;

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n > 0) {
			break;
		}
		kill(pid, SIGKILL);
		snprintf(err, err_cap, "%s did not exit within %d ms (killed)", what, timeout_ms);
		rc = -ETIMEDOUT;
		break;
	}
	close(pfd);
	if (started) {
		pthread_join(reaper, NULL);
		close(r.wfd);
		*status = r.status;
		if (rc == 0 && r.err) {
			snprintf(err, err_cap, "waitpid(%d): %s", (int)pid, strerror(r.err));
			rc = -r.err;
		}
		return rc;
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			if (rc == 0) {
				snprintf(err, err_cap, "waitpid(%d): %s", (int)pid, strerror(errno));
				rc = -errno;
			}
			break;
		}
	}
	return rc;
}

/*
 * Run `bin` with `args` (NULL-terminated, without argv[0] and without --ready-fd) and wait
 * up to timeout_ms for READY=1. \return 0 and the child's pid in *pid; or a negative errno
 * after writing what went wrong into err: -ECHILD when the daemon exited first (its status
 * is in the message), -ETIMEDOUT when it neither exited nor signalled in time (it is killed).
 * With `notify` (not NULL), what the daemon wrote after READY=1 before it closed the fd
 * ("METRICS=ADDRESS:PORT\n" with --metrics), NUL-terminated, is left there.
 */
static inline int ss_devd_spawn_notify(const char *bin, const char *const *args, int timeout_ms,
				       pid_t *pid, char *notify, size_t notify_cap, char *err,
				       size_t err_cap)
{
	char fdarg[16], got[sizeof(SS_DEVD_READY_LINE)] = "";
	const char *argv[64];
	size_t n = 0, have = 0;
	long long deadline;
	int p[2], argc = 0, status;
	pid_t child;

	argv[argc++] = "smartssd-devd";
	while (args[n] != NULL && argc < 60) {
		argv[argc++] = args[n++];
	}
	if (pipe(p) != 0 || fcntl(p[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(p[1], F_SETFD, FD_CLOEXEC) != 0) {
		snprintf(err, err_cap, "pipe: %s", strerror(errno));
		return -errno;
	}
	child = fork();
	if (child < 0) {
		snprintf(err, err_cap, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -EAGAIN;
	}
	if (child == 0) {
		/* The write end keeps its number but loses close-on-exec. */
		int w = dup(p[1]);

		snprintf(fdarg, sizeof(fdarg), "%d", w);
		argv[argc++] = "--ready-fd";
		argv[argc++] = fdarg;
		argv[argc] = NULL;
		execv(bin, (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	deadline = ss_devd_spawn_now_ms() + timeout_ms;
	while (have < sizeof(got) - 1) {
		long long left = deadline - ss_devd_spawn_now_ms();
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		ssize_t r;

		if (left <= 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			close(p[0]);
			snprintf(err, err_cap, "%s did not signal readiness within %d ms", bin,
				 timeout_ms);
			return -ETIMEDOUT;
		}
		if (poll(&pf, 1, (int)left) < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (pf.revents == 0) {
			continue;
		}
		r = read(p[0], got + have, sizeof(got) - 1 - have);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			break;   /* end of stream: the daemon closed the pipe without READY */
		}
		have += (size_t)r;
	}
	if (notify != NULL && notify_cap > 0) {
		size_t more = 0;

		/* the rest of the one write that carried READY=1, up to the fd's close */
		while (more < notify_cap - 1) {
			long long left = deadline - ss_devd_spawn_now_ms();
			struct pollfd pf = { .fd = p[0], .events = POLLIN };
			ssize_t r;

			if (left <= 0 || (poll(&pf, 1, (int)left) < 0 && errno != EINTR)) {
				break;
			}
			if (pf.revents == 0) {
				continue;
			}
			r = read(p[0], notify + more, notify_cap - 1 - more);
			if (r < 0 && errno == EINTR) {
				continue;
			}
			if (r <= 0) {
				break;
			}
			more += (size_t)r;
		}
		notify[more] = '\0';
	}
	close(p[0]);
	if (have == sizeof(got) - 1 && memcmp(got, SS_DEVD_READY_LINE, have) == 0) {
		*pid = child;
		return 0;
	}
	/* Not ready: the pipe's end means the daemon is exiting; anything else is killed. */
	if (have > 0) {
		kill(child, SIGKILL);
	}
	if (ss_devd_wait_exit(child, timeout_ms, &status, bin, err, err_cap) != 0) {
		return -ECHILD;   /* err says it did not exit */
	}
	if (WIFEXITED(status)) {
		snprintf(err, err_cap, "%s exited with status %d before it was ready", bin,
			 WEXITSTATUS(status));
	} else {
		snprintf(err, err_cap, "%s ended before it was ready (%s)", bin,
			 have ? "garbled readiness line" : "killed by a signal");
	}
	return -ECHILD;
}

static inline int ss_devd_spawn(const char *bin, const char *const *args, int timeout_ms,
				pid_t *pid, char *err, size_t err_cap)
{
	return ss_devd_spawn_notify(bin, args, timeout_ms, pid, NULL, 0, err, err_cap);
}

#endif
