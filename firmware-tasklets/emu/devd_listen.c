/*
 * The daemon's socket and its readiness signal. The socket path is only ever a listening
 * socket or a stale one; a starter learns that the daemon serves from a line on a file
 * descriptor it passed (--ready-fd) or from systemd's notification, never from the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef SS_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "devd_internal.h"

/*
 * The socket path is only ever a listening socket: bind under a temporary name beside it,
 * listen, then rename into place, so a client that finds the path can always connect.
 * A lock file beside the path keeps a second daemon from taking over a live one's path
 * between its probe and its rename. \return the listening fd, or -1 after a message.
 */
int devd_listen(const char *path, mode_t mode, gid_t group, int *lock_fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char tmp[sizeof(sa.sun_path)], lock[PATH_MAX];
	struct stat st;
	int fd, probe;

	if (strlen(path) + 16 >= sizeof(sa.sun_path)) {
		fprintf(stderr, "smartssd-devd: socket path %s is too long (at most %zu bytes)\n",
			path, sizeof(sa.sun_path) - 17);
		return -1;
	}
	snprintf(lock, sizeof(lock), "%s.lock", path);
	*lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (*lock_fd < 0) {
		fprintf(stderr, "smartssd-devd: cannot open the lock file %s: %s\n", lock,
			strerror(errno));
		return -1;
	}
	if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0) {
		fprintf(stderr, "smartssd-devd: another daemon is serving %s (it holds %s)\n", path,
			lock);
		return -1;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "smartssd-devd: %s exists and is not a socket; refusing to "
				"replace it (is --socket pointing at the wrong file?)\n", path);
			return -1;
		}
		strcpy(sa.sun_path, path);
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			fprintf(stderr, "smartssd-devd: another daemon is serving %s\n", path);
			close(probe);
			return -1;
		}
		if (probe >= 0) {
			close(probe);
		}
		/* A socket nobody answers on is left over from a killed daemon: the rename
		 * below replaces it. */
	} else if (errno != ENOENT) {
		fprintf(stderr, "smartssd-devd: cannot inspect %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", tmp);
	unlink(tmp);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("smartssd-devd: socket");
		return -1;
	}
	{
		mode_t old = umask(0117);
		int rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));

		umask(old);
		if (rc != 0 || (group != (gid_t)-1 && chown(tmp, (uid_t)-1, group) != 0) ||
		    chmod(tmp, mode) != 0 || listen(fd, 128) != 0 || rename(tmp, path) != 0) {
			fprintf(stderr, "smartssd-devd: cannot listen on %s: %s\n", path,
				strerror(errno));
			unlink(tmp);
			close(fd);
			return -1;
		}
	}
	return fd;
}

/*
 * Socket activation (sd_listen_fds(3)'s protocol, read here so that a build without
 * libsystemd takes it too): LISTEN_PID names this process and LISTEN_FDS=1 passes fd 3, a
 * listening unix stream socket, which must be bound to path: a unit whose ListenStream=
 * differs from --socket is refused rather than served on a path clients do not use.
 * The variables are removed so that nothing started later inherits them.
 * \return the fd, DEVD_NOT_ACTIVATED, or -1 after a message.
 */
int devd_listen_fds(const char *path)
{
	const char *pid_s = getenv("LISTEN_PID"), *fds_s = getenv("LISTEN_FDS");
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int fd = 3, type = 0, listening = 0;
	socklen_t olen = sizeof(int);
	char *end;
	long pid, n;

	if (pid_s == NULL || fds_s == NULL) {
		return DEVD_NOT_ACTIVATED;
	}
	pid = strtol(pid_s, &end, 10);
	if (*end != '\0' || pid != (long)getpid()) {
		return DEVD_NOT_ACTIVATED; /* meant for another process */
	}
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	n = strtol(fds_s, &end, 10);
	if (*end != '\0' || n != 1) {
		fprintf(stderr, "smartssd-devd: LISTEN_FDS=%s: socket activation passes exactly "
			"one socket (one ListenStream= in the .socket unit)\n", fds_s);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &olen) != 0 || type != SOCK_STREAM ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &olen) != 0 || !listening ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0 || sa.sun_family != AF_UNIX) {
		fprintf(stderr, "smartssd-devd: the socket passed by socket activation (fd 3) is "
			"not a listening unix stream socket\n");
		return -1;
	}
	if (strncmp(sa.sun_path, path, sizeof(sa.sun_path)) != 0) {
		fprintf(stderr, "smartssd-devd: the activated socket is %.*s but --socket is %s: "
			"make the unit's ListenStream= and --socket the same path\n",
			(int)sizeof(sa.sun_path), sa.sun_path, path);
		return -1;
	}
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
		perror("smartssd-devd: fcntl");
		return -1;
	}
	return fd;
}

/*
 * Tell whoever started us that the socket listens: "READY=1\n" on --ready-fd, with
 * "METRICS=ADDRESS:PORT\n" after it when metrics are served (one write: a reader that takes
 * only the first line still sees READY=1 whole), then that fd is closed (0-2 are pointed at
 * /dev/null instead so no later open() takes their number); and sd_notify when systemd's
 * NOTIFY_SOCKET is set.
 */
void devd_signal_ready(int ready_fd, const char *image, const char *sock, const char *metrics)
{
	char line[128];
	int len = snprintf(line, sizeof(line), "READY=1\n%s%s%s", metrics ? "METRICS=" : "",
			   metrics ? metrics : "", metrics ? "\n" : "");

	/* systemd first: a starter that waits on --ready-fd then sees both done */
#ifdef SS_HAVE_SYSTEMD
	if (getenv("NOTIFY_SOCKET") != NULL) {
		int rc = sd_notifyf(0, "READY=1\nSTATUS=serving %s on %s%s%s\nMAINPID=%ld", image,
				    sock, metrics ? ", metrics on " : "", metrics ? metrics : "",
				    (long)getpid());

		if (rc < 0) {
			fprintf(stderr, "smartssd-devd: sd_notify failed: %s\n", strerror(-rc));
		}
	}
#else
	(void)image;
	(void)sock;
	if (getenv("NOTIFY_SOCKET") != NULL) {
		fprintf(stderr, "smartssd-devd: NOTIFY_SOCKET is set but this build has no "
			"libsystemd; readiness is not notified\n");
	}
#endif
	if (ready_fd >= 0) {
		ssize_t r;

		do {
			r = write(ready_fd, line, (size_t)len);
		} while (r < 0 && errno == EINTR);
		if (r != (ssize_t)len) {
			fprintf(stderr, "smartssd-devd: cannot signal readiness on fd %d: %s\n",
				ready_fd, strerror(errno));
		}
		if (ready_fd <= 2) {
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (null >= 0) {
				dup2(null, ready_fd);
				close(null);
			}
		} else {
			close(ready_fd);
		}
	}
}

/* \return the fd named by --ready-fd, or -1 after a message when it is not open. */
int devd_parse_ready_fd(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || *end != '\0' || end == arg || v < 0 || v > INT_MAX) {
		fprintf(stderr, "smartssd-devd: --ready-fd takes a file descriptor number, not "
			"'%s'\n", arg);
		return -1;
	}
	if (fcntl((int)v, F_GETFD) < 0) {
		fprintf(stderr, "smartssd-devd: --ready-fd %ld is not an open file descriptor\n", v);
		return -1;
	}
	return (int)v;
}
