/*
 * Test fixtures: a small formatted drive image in a temp folder, served in-process (emu:)
 * or by a smartssd-devd child (unix:).
 */
#ifndef SS_NATIVE_DEVTEST_H
#define SS_NATIVE_DEVTEST_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smartssd/smartssd.h"
#include "ss_devd_spawn.h"
#include "ss_emu.h"
#include "ut.h"

struct devtest {
	char dir[40];
	char image[100];
	char sock[100];
	char uri[160];
	pid_t daemon;
};

/* A small drive: 4 channels x 1 way x blocks_per_die x 32 pages of 8 KiB (64 blocks:
 * 64 MiB). max_objects 0: the object store's default. */
static inline int devtest_format_cache(struct devtest *t, uint32_t max_objects,
				       uint32_t blocks_per_die, uint32_t cache_share_permille);

static inline int devtest_format_geo(struct devtest *t, uint32_t max_objects,
				     uint32_t blocks_per_die)
{
	return devtest_format_cache(t, max_objects, blocks_per_die, 0);
}

/* The same with cache_share_permille of the flash for the solid-state cache. */
static inline int devtest_format_cache(struct devtest *t, uint32_t max_objects,
				       uint32_t blocks_per_die, uint32_t cache_share_permille)
{
	struct ss_emu_drive_opts o;
	char err[256] = "";
	int rc;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/ss_native_XXXXXX");
	if (!mkdtemp(t->dir)) {
		perror("mkdtemp");
		return -errno;
	}
	snprintf(t->image, sizeof(t->image), "%s/drive.img", t->dir);
	snprintf(t->sock, sizeof(t->sock), "%s/devd.sock", t->dir);
	memset(&o, 0, sizeof(o));
	o.flash.geo.channels = 4;
	o.flash.geo.ways = 1;
	o.flash.geo.blocks_per_die = blocks_per_die;
	o.flash.geo.pages_per_block = 32;
	o.flash.geo.page_size = 8192;
	o.flash.geo.spare_size = 256;
	o.max_objects = max_objects;
	o.cache_share_permille = cache_share_permille;
	rc = ss_emu_format(t->image, &o, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "format %s: %d %s\n", t->image, rc, err);
	snprintf(t->uri, sizeof(t->uri), "emu:%s", t->image);
	return rc;
}

static inline int devtest_format(struct devtest *t, uint32_t max_objects)
{
	return devtest_format_geo(t, max_objects, 64);
}

/* Start smartssd-devd on the image, with further options (NULL-terminated, or NULL), and
 * wait (bounded) for its readiness signal. */
static inline int devtest_start_daemon_with(struct devtest *t, const char *const *extra)
{
	const char *args[16] = { "--image", t->image, "--socket", t->sock };
	char err[256];
	int n = 4;

	while (extra != NULL && *extra != NULL && n < 15)
		args[n++] = *extra++;
	args[n] = NULL;
	int rc = ss_devd_spawn(SS_DEVD_PATH, args, 60000, &t->daemon, err, sizeof(err));

	if (rc != 0) {
		t->daemon = 0;
		fprintf(stderr, "devtest: %s\n", err);
		return rc;
	}
	snprintf(t->uri, sizeof(t->uri), "unix:%s", t->sock);
	return 0;
}

static inline int devtest_start_daemon(struct devtest *t)
{
	return devtest_start_daemon_with(t, NULL);
}

/*
 * Poll a tasklet until it leaves CREATED/RUNNING. The bound (120 s of wall time) only keeps
 * a broken run from hanging the suite; a sanitized build on a loaded machine is slow.
 * \return the poll's result, or -ETIMEDOUT after saying so.
 */
static inline int devtest_wait_tasklet(struct ss_dev *d, uint64_t inst, struct ss_dev_progress *p)
{
	long long deadline = ss_devd_spawn_now_ms() + 120000;
	int rc;

	for (;;) {
		memset(p, 0, sizeof(*p));
		rc = ss_dev_tasklet_poll(d, inst, p);
		if (rc || p->state == SS_DEV_TASKLET_DONE || p->state == SS_DEV_TASKLET_FAILED)
			return rc;
		if (ss_devd_spawn_now_ms() > deadline) {
			fprintf(stderr, "devtest: tasklet instance %llu still running after 120 s\n",
				(unsigned long long)inst);
			return -ETIMEDOUT;
		}
		usleep(500);
	}
}

/* Signal the daemon and reap it; a daemon that does not exit within 60 s (a SIGTERM it
 * does not act on) is killed, and the test fails saying so. */
static inline void devtest_kill_daemon(struct devtest *t, int sig)
{
	char err[256];
	int status;

	if (t->daemon > 0) {
		kill(t->daemon, sig);
		if (ss_devd_wait_exit(t->daemon, 60000, &status, "smartssd-devd, signalled,", err,
				      sizeof(err)) != 0) {
			fprintf(stderr, "devtest: %s\n", err);
			ut_failures++;
		} else if (sig == SIGTERM && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
			/* a clean stop exits 0: anything else is a sanitizer's report or a crash
			 * on the way out, which the daemon's stderr above shows */
			fprintf(stderr, "devtest: smartssd-devd, stopped by SIGTERM, %s %d\n",
				WIFEXITED(status) ? "exited" : "died of signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			ut_failures++;
		}
		t->daemon = 0;
	}
}

static inline void devtest_cleanup(struct devtest *t)
{
	char nvram[sizeof(t->image) + 8];

	devtest_kill_daemon(t, SIGTERM);
	unlink(t->sock);
	unlink(t->image);
	snprintf(nvram, sizeof(nvram), "%s.nvram", t->image);   /* a merge cache's NVM */
	unlink(nvram);
	rmdir(t->dir);
}

#endif
