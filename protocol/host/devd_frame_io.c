/* Socket I/O of smartssd-devd's framing (include/ss_devd_frame.h): one copy for the daemon
 * and the host library. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ss_devd_frame.h"

int ss_spin_us_parse(const char *v, uint32_t *us)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *v < '0' || *v > '9' || *end || n > SS_SPIN_US_MAX) {
		return -1;
	}
	*us = (uint32_t)n;
	return 0;
}

long long ss_frame_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* \return 0 when fd is readable, -ETIMEDOUT at the deadline, or a negative errno. */
static int wait_readable(int fd, long long deadline_ms)
{
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		long long left = deadline_ms - ss_frame_now_ms();
		int rc;

		if (left <= 0) {
			return -ETIMEDOUT;
		}
		rc = poll(&pf, 1, left > 60000 ? 60000 : (int)left);
		if (rc > 0) {
			return 0;
		}
		if (rc < 0 && errno != EINTR) {
			return -errno;
		}
	}
}

int ss_frame_read(struct ss_frame_reader *r, void *dst, size_t n, long long deadline_ms)
{
	uint8_t *p = dst;

	while (n > 0) {
		ssize_t got;

		if (r->end > r->start) {
			size_t k = n < r->end - r->start ? n : r->end - r->start;

			memcpy(p, r->buf + r->start, k);
			r->start += k;
			p += k;
			n -= k;
			continue;
		}
		if (deadline_ms != 0) {
			int rc = wait_readable(r->fd, deadline_ms);

			if (rc != 0) {
				return rc;
			}
		}
		got = n >= SS_FRAME_RBUF ? recv(r->fd, p, n, 0) : recv(r->fd, r->buf, SS_FRAME_RBUF, 0);
		if (got == 0) {
			return -ECONNRESET;
		}
		if (got < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -errno;
		}
		if (n >= SS_FRAME_RBUF) {
			p += got;
			n -= (size_t)got;
		} else {
			r->start = 0;
			r->end = (size_t)got;
		}
	}
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int ss_frame_spin(struct ss_frame_reader *r, uint32_t spin_us)
{
	long long until;

	if (r->end > r->start) {
		return 1;
	}
	if (spin_us == 0) {
		return 0;
	}
	until = now_ns() + (long long)spin_us * 1000;
	do {
		ssize_t got = recv(r->fd, r->buf, SS_FRAME_RBUF, MSG_DONTWAIT);

		if (got > 0) {
			r->start = 0;
			r->end = (size_t)got;
			return 1;
		}
		if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			return 0;
		}
		/* When the peer shares this CPU, it runs now instead of after the spin. */
		sched_yield();
	} while (now_ns() < until);
	return 0;
}

int ss_frame_send(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		struct msghdr m = { .msg_iov = iov, .msg_iovlen = (size_t)n };
		ssize_t sent = sendmsg(fd, &m, MSG_NOSIGNAL);

		if (sent < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -errno;
		}
		while (n > 0 && (size_t)sent >= iov->iov_len) {
			sent -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + sent;
			iov->iov_len -= (size_t)sent;
		}
	}
	return 0;
}
