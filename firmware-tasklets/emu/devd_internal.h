/* smartssd-devd's parts: the listening socket and readiness (devd_listen.c), who may
 * connect (devd_access.c), and the connections and commands (devd.c). */
#ifndef SS_DEVD_INTERNAL_H
#define SS_DEVD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DEVD_ALLOW_MAX 32

/* Who may use the drive: peers whose uid or any of whose groups is listed. */
struct devd_access {
	uid_t uids[DEVD_ALLOW_MAX];
	int nuids;
	gid_t gids[DEVD_ALLOW_MAX];
	int ngids;
};

/* A connected peer, from SO_PEERCRED. */
struct devd_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

/* Add a comma-separated list of user (or, with `groups`, group) names or numbers.
 * \return 0, or -1 after a message naming the entry it could not resolve. */
int devd_access_add(struct devd_access *a, const char *list, int groups);

/* \return 1 when the peer on fd may use the drive, 0 when not, -1 when its credentials
 * cannot be read; *peer is filled in either of the first two cases. */
int devd_access_check(const struct devd_access *a, int fd, struct devd_peer *peer);

/* Listen on path with the given mode and group (-1 keeps the daemon's), only ever
 * replacing a stale socket. \return the listening fd, or -1 after a message. */
int devd_listen(const char *path, mode_t mode, gid_t group, int *lock_fd);

#define DEVD_NOT_ACTIVATED (-2)

/* The listening socket passed by socket activation (LISTEN_FDS=1, fd 3, bound to path).
 * \return the fd, DEVD_NOT_ACTIVATED when none was passed to this process, or -1 after a
 * message when one was passed but cannot be served on path. */
int devd_listen_fds(const char *path);

/* Readiness: READY=1 on ready_fd (unless -1) and to systemd's NOTIFY_SOCKET if set; with
 * metrics (not NULL: the address they are served on), METRICS=ADDRESS:PORT after it on the
 * fd, and in systemd's STATUS. */
void devd_signal_ready(int ready_fd, const char *image, const char *sock, const char *metrics);

/* \return the open fd named by --ready-fd's argument, or -1 after a message. */
int devd_parse_ready_fd(const char *arg);

/* The daemon's own counts, for its metrics (devd_metrics.c). */
#define DEVD_LEDGER_UIDS 16
struct devd_stats {
	int conns;                 /* open now */
	int max_conns;
	uint64_t accepted;
	uint64_t refused_access;
	uint64_t refused_limit;
	int nledger;
	struct {
		uint32_t uid;
		uint64_t tasks;    /* energy-ledger shares delivered */
		uint64_t nj;       /* their energy */
	} ledger[DEVD_LEDGER_UIDS];
};

typedef void (*devd_stats_fn)(struct devd_stats *st);

struct devd_metrics;
struct ss_emu_drive;

/* --metrics' argument: PORT (on 127.0.0.1), ADDRESS:PORT or [IPV6]:PORT. */
struct devd_metrics_addr {
	char host[256];
	char port[8];
};

/* \return 0 and the address of --metrics' argument, or -1 after a message. */
int devd_metrics_addr(const char *arg, struct devd_metrics_addr *a);

/* Listen on the address; port 0 takes one the system chooses. \return the listening fd and
 * the address it is bound to in bound ("127.0.0.1:PORT"), or -1 after a message. */
int devd_metrics_listen(const struct devd_metrics_addr *a, char *bound, size_t bound_cap);

/* Serve GET /metrics on lfd from a thread of its own until devd_metrics_stop, which closes
 * lfd. \return 0 or a negative errno. */
int devd_metrics_start(int lfd, struct ss_emu_drive *drive, devd_stats_fn stats,
		       struct devd_metrics **out);
void devd_metrics_stop(struct devd_metrics *m);

#endif
