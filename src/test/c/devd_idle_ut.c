/*
 * An idle client and an idle smartssd-devd cost no CPU, with the spinning of
 * SMARTSSD_SPIN_US and --spin-us at their default and at their largest setting: they spin
 * only while a command is in flight or just after one, then sleep. A functional check of
 * CPU time (getrusage, /proc/PID/stat), not a timing: each side serves some commands, then
 * stays idle for IDLE_MS; the client's CPU over that interval (RUSAGE_SELF) and the
 * daemon's (its utime + stime before and after) must stay far below what a spinning core
 * would take in the interval. The daemon may spin once, for its bound, after the last
 * command before the interval; its CPU before the interval is not counted, because there
 * it spins between commands for as long as a loaded machine keeps the client from sending
 * the next one, which is the setting's purpose, not idling. The same for a drive in the
 * client's process (emu:), whose controller thread and submitters spin by the same
 * setting: after writes, which give the controller background work, the process stays
 * idle. A setting that is not a number of microseconds is refused by name, at both ends
 * and in-process.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drive_fixture.h"
#include "ss_devd_spawn.h"

#define IDLE_MS 2000
#define COMMANDS 200
/* A core spinning through IDLE_MS takes about IDLE_MS of CPU; a sleeping one next to none.
 * The daemon's budget covers its start-up and the commands too (under ASan). */
#define CLIENT_IDLE_MAX_MS 50.0
#define DAEMON_IDLE_MAX_MS (IDLE_MS / 10.0)

static int failures;

static double cpu_ms(const struct rusage *u)
{
	return (u->ru_utime.tv_sec + u->ru_stime.tv_sec) * 1e3 +
	       (u->ru_utime.tv_usec + u->ru_stime.tv_usec) / 1e3;
}

/* A child's CPU time so far (user + system), from /proc/PID/stat; -1 when unreadable. */
static double proc_cpu_ms(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long utime, stime;
	FILE *f;
	size_t n;
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL) {
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');   /* the command name may hold spaces */
	/* after ") ": state, then fields 4..13, then utime (14) and stime (15) */
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&utime, &stime) != 2) {
		return -1;
	}
	return (utime + stime) * 1e3 / (double)sysconf(_SC_CLK_TCK);
}

static void run(const char *image, const char *sock, const char *spin)
{
	struct ss_dev_stat st;
	struct rusage before, after, daemon;
	double daemon_before, daemon_after, spin_ms = spin ? atof(spin) / 1e3 : 0.05;
	struct timespec idle = { IDLE_MS / 1000, (IDLE_MS % 1000) * 1000000L };
	struct ss_dev *dev;
	char uri[320];
	uint64_t oid;
	int status;
	pid_t pid;

	if (spin != NULL) {
		setenv("SMARTSSD_SPIN_US", spin, 1);
	} else {
		unsetenv("SMARTSSD_SPIN_US");
	}
	pid = drive_fixture_devd_start(SS_DEVD_PATH, image, sock, -1, spin);
	snprintf(uri, sizeof(uri), "unix:%s", sock);
	if (ss_dev_open(uri, NULL, &dev) != 0) {
		DIE("open %s", uri);
	}
	if (ss_dev_create(dev, spin ? "/idle-spin" : "/idle", SS_DEV_FILE, 0, &oid) != 0) {
		DIE("create");
	}
	for (int i = 0; i < COMMANDS; i++) {
		if (ss_dev_stat(dev, oid, &st) != 0) {
			DIE("stat");
		}
	}
	getrusage(RUSAGE_SELF, &before);
	daemon_before = proc_cpu_ms(pid);
	while (nanosleep(&idle, &idle) != 0) {
	}
	daemon_after = proc_cpu_ms(pid);
	getrusage(RUSAGE_SELF, &after);
	if (daemon_before < 0 || daemon_after < 0) {
		DIE("reading /proc/%d/stat", (int)pid);
	}
	/* the connection stays open through the idle interval: the daemon's reader waits on it */
	if (ss_dev_stat(dev, oid, &st) != 0) {
		DIE("stat after the idle interval");
	}
	ss_dev_close(dev);
	kill(pid, SIGTERM);
	if (wait4(pid, &status, 0, &daemon) != pid) {
		perror("wait4");
		exit(2);
	}
	double client = cpu_ms(&after) - cpu_ms(&before), idle_daemon = daemon_after - daemon_before;
	double daemon_max = DAEMON_IDLE_MAX_MS + spin_ms;

	printf("spin %s us: idle client %.1f ms CPU in %d ms (at most %.0f); idle daemon %.1f ms "
	       "CPU in %d ms (at most %.0f), %.1f ms over its life\n", spin ? spin : "default",
	       client, IDLE_MS, CLIENT_IDLE_MAX_MS, idle_daemon, IDLE_MS, daemon_max,
	       cpu_ms(&daemon));
	if (client > CLIENT_IDLE_MAX_MS || idle_daemon > daemon_max) {
		fprintf(stderr, "FAIL: an idle side kept a CPU busy (spin %s)\n",
			spin ? spin : "default");
		failures++;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "FAIL: the daemon exited with status %d\n", status);
		failures++;
	}
}

/* The drive in this process: its controller polls for work after its last slice, then
 * sleeps. */
static void run_in_process(const char *image, const char *spin)
{
	static char data[256 << 10];
	struct timespec idle = { IDLE_MS / 1000, (IDLE_MS % 1000) * 1000000L };
	/* the drive is the daemon's, here in this process: the daemon's budget */
	double spin_ms = spin ? atof(spin) / 1e3 : 0.05, used, most = DAEMON_IDLE_MAX_MS + spin_ms;
	struct rusage before, after;
	struct ss_dev_stat st;
	struct ss_dev *dev;
	char uri[320];
	uint64_t oid;

	if (spin != NULL) {
		setenv("SMARTSSD_SPIN_US", spin, 1);
	} else {
		unsetenv("SMARTSSD_SPIN_US");
	}
	snprintf(uri, sizeof(uri), "emu:%s", image);
	if (ss_dev_open(uri, NULL, &dev) != 0) {
		DIE("open %s: %s", uri, ss_dev_last_message());
	}
	if (ss_dev_create(dev, spin ? "/emu-idle-spin" : "/emu-idle", SS_DEV_FILE, 0, &oid) != 0) {
		DIE("create");
	}
	memset(data, 'x', sizeof(data));
	for (int i = 0; i < 16; i++) {
		if (ss_dev_write(dev, oid, (uint64_t)i * sizeof(data), data, sizeof(data), 0) !=
		    (int64_t)sizeof(data)) {
			DIE("write");
		}
	}
	for (int i = 0; i < COMMANDS; i++) {
		if (ss_dev_stat(dev, oid, &st) != 0) {
			DIE("stat");
		}
	}
	getrusage(RUSAGE_SELF, &before);
	while (nanosleep(&idle, &idle) != 0) {
	}
	getrusage(RUSAGE_SELF, &after);
	ss_dev_close(dev);
	used = cpu_ms(&after) - cpu_ms(&before);
	printf("spin %s us: idle process with its drive (emu:) %.1f ms CPU in %d ms (at most "
	       "%.0f)\n", spin ? spin : "default", used, IDLE_MS, most);
	if (used > most) {
		fprintf(stderr, "FAIL: an idle in-process drive kept a CPU busy (spin %s)\n",
			spin ? spin : "default");
		failures++;
	}
}

static void bad_setting(const char *image, const char *sock)
{
	const char *args[] = { "--image", image, "--socket", sock, NULL };
	struct ss_dev *dev = NULL;
	char uri[340], err[512];
	pid_t pid = -1;
	int rc;

	setenv("SMARTSSD_SPIN_US", "fast", 1);
	rc = ss_devd_spawn(SS_DEVD_PATH, args, 30000, &pid, err, sizeof(err));
	printf("daemon with SMARTSSD_SPIN_US=fast: %d (%s)\n", rc, err);
	if (rc != -ECHILD) {
		fprintf(stderr, "FAIL: the daemon started with SMARTSSD_SPIN_US=fast\n");
		failures++;
		if (rc == 0) {
			kill(pid, SIGTERM);
			waitpid(pid, NULL, 0);
		}
	}
	snprintf(uri, sizeof(uri), "unix:%s", sock);
	rc = ss_dev_open(uri, NULL, &dev);
	printf("client with SMARTSSD_SPIN_US=fast: %d (%s)\n", rc, ss_dev_last_message());
	if (rc != -EINVAL || strstr(ss_dev_last_message(), "SMARTSSD_SPIN_US") == NULL) {
		fprintf(stderr, "FAIL: the client did not refuse SMARTSSD_SPIN_US=fast by name\n");
		failures++;
	}
	if (rc == 0) {
		ss_dev_close(dev);
	}
	snprintf(uri, sizeof(uri), "emu:%s", image);
	rc = ss_dev_open(uri, NULL, &dev);
	printf("in-process drive with SMARTSSD_SPIN_US=fast: %d (%s)\n", rc,
	       ss_dev_last_message());
	if (rc != -EINVAL || strstr(ss_dev_last_message(), "SMARTSSD_SPIN_US") == NULL) {
		fprintf(stderr, "FAIL: emu: did not refuse SMARTSSD_SPIN_US=fast by name\n");
		failures++;
	}
	if (rc == 0) {
		ss_dev_close(dev);
	}
	unsetenv("SMARTSSD_SPIN_US");
}

int main(void)
{
	struct drive_fixture f;
	char sock[320];

	drive_fixture_open(&f, "kang-smartssd", 8, NULL);
	ss_dev_close(f.dev);
	snprintf(sock, sizeof(sock), "%s/dev0.sock", f.dir);
	run(f.image, sock, NULL);
	run(f.image, sock, "100000");   /* the largest spin either side accepts */
	run_in_process(f.image, NULL);
	run_in_process(f.image, "100000");
	bad_setting(f.image, sock);
	unlink(sock);
	unlink(f.image);
	rmdir(f.dir);
	return failures ? 1 : 0;
}
