/*
 * Who may use the drive. Anyone who can open the socket could otherwise create, remove and
 * read raw LBAs, so each connection's peer (SO_PEERCRED, and its supplementary groups from
 * SO_PEERGROUPS) is checked against allow-lists of users and groups. Filesystem
 * permissions on the socket (mode and group) are the first gate; this is the second.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "devd_internal.h"

static int parse_id(const char *name, int groups, unsigned long *id)
{
	char *end;

	errno = 0;
	*id = strtoul(name, &end, 10);
	if (*name != '\0' && *end == '\0' && errno == 0) {
		return 0;
	}
	if (groups) {
		struct group *g = getgrnam(name);

		if (g != NULL) {
			*id = g->gr_gid;
			return 0;
		}
	} else {
		struct passwd *p = getpwnam(name);

		if (p != NULL) {
			*id = p->pw_uid;
			return 0;
		}
	}
	return -1;
}

int devd_access_add(struct devd_access *a, const char *list, int groups)
{
	char buf[1024], *save = NULL;

	if (strlen(list) >= sizeof(buf)) {
		fprintf(stderr, "smartssd-devd: the --allow-%s list is too long\n",
			groups ? "gid" : "uid");
		return -1;
	}
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
		unsigned long id;

		if (parse_id(t, groups, &id) != 0) {
			fprintf(stderr, "smartssd-devd: --allow-%s: no such %s '%s'\n",
				groups ? "gid" : "uid", groups ? "group" : "user", t);
			return -1;
		}
		if ((groups ? a->ngids : a->nuids) == DEVD_ALLOW_MAX) {
			fprintf(stderr, "smartssd-devd: at most %d entries in --allow-%s\n",
				DEVD_ALLOW_MAX, groups ? "gid" : "uid");
			return -1;
		}
		if (groups) {
			a->gids[a->ngids++] = (gid_t)id;
		} else {
			a->uids[a->nuids++] = (uid_t)id;
		}
	}
	return 0;
}

static int gid_allowed(const struct devd_access *a, gid_t g)
{
	for (int i = 0; i < a->ngids; i++) {
		if (a->gids[i] == g) {
			return 1;
		}
	}
	return 0;
}

int devd_access_check(const struct devd_access *a, int fd, struct devd_peer *peer)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	gid_t groups[256];

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		return -1;
	}
	peer->pid = cred.pid;
	peer->uid = cred.uid;
	peer->gid = cred.gid;
	for (int i = 0; i < a->nuids; i++) {
		if (a->uids[i] == cred.uid) {
			return 1;
		}
	}
	if (gid_allowed(a, cred.gid)) {
		return 1;
	}
	len = sizeof(groups);
	if (a->ngids > 0 && getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0) {
		for (size_t i = 0; i < len / sizeof(gid_t); i++) {
			if (gid_allowed(a, groups[i])) {
				return 1;
			}
		}
	}
	return 0;
}
