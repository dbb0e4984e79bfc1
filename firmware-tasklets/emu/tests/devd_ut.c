/* smartssd-devd as a child process: framing, tags, a client leaving mid-request,
 * SIGTERM. Request and reply bytes are built here from the framing in README.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "emu_test.h"
#include "ss_devd_frame.h"
#include "ss_devd_spawn.h"
#include "ss_emu.h"
#include "ss_rt.h"

static char dir[64], image[96], sock[96];

static const uint8_t identify_cdb[16] = { 0x85, 0x08, 0x0E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
					  0xEC, 0 };

static int connect_sock(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int write_all(int fd, const void *b, size_t n)
{
	return write(fd, b, n) == (ssize_t)n ? 0 : -1;
}

static int read_all(int fd, void *b, size_t n)
{
	uint8_t *p = b;
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	while (n > 0) {
		ssize_t r;

		if (poll(&pf, 1, 20000) != 1) {
			return -1;             /* a hung daemon fails the test, not the CI job */
		}
		r = read(fd, p, n);
		if (r <= 0) {
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void send_request(int fd, uint32_t tag, const uint8_t cdb[16], uint32_t d, uint32_t len)
{
	uint8_t h[32] = { 'S', 'S', 'D', 'Q' };

	h[4] = (uint8_t)tag;
	h[5] = (uint8_t)(tag >> 8);
	h[6] = (uint8_t)(tag >> 16);
	h[7] = (uint8_t)(tag >> 24);
	memcpy(h + 8, cdb, 16);
	h[24] = (uint8_t)d;
	h[28] = (uint8_t)len;
	h[29] = (uint8_t)(len >> 8);
	h[30] = (uint8_t)(len >> 16);
	h[31] = (uint8_t)(len >> 24);
	CHECK_EQ(write_all(fd, h, sizeof(h)), 0);
}

struct reply {
	uint32_t tag;
	uint8_t status, sense_len;
	uint8_t sense[32];
	uint32_t len;
	uint8_t data[512];
};

static void send_model_request(int fd, uint32_t tag, uint8_t reserved_byte)
{
	uint8_t h[32] = { 'S', 'S', 'D', 'M' };

	h[4] = (uint8_t)tag;
	h[5] = (uint8_t)(tag >> 8);
	h[6] = (uint8_t)(tag >> 16);
	h[7] = (uint8_t)(tag >> 24);
	h[20] = reserved_byte;
	CHECK_EQ(write_all(fd, h, sizeof(h)), 0);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

static int read_reply(int fd, struct reply *r)
{
	uint8_t h[48];

	if (read_all(fd, h, sizeof(h)) != 0 || memcmp(h, "SSDA", 4) != 0) {
		return -1;
	}
	r->tag = h[4] | (h[5] << 8) | (h[6] << 16) | ((uint32_t)h[7] << 24);
	r->status = h[8];
	r->sense_len = h[9];
	memcpy(r->sense, h + 12, 32);
	r->len = h[44] | (h[45] << 8) | (h[46] << 16) | ((uint32_t)h[47] << 24);
	if (r->len > sizeof(r->data) || read_all(fd, r->data, r->len) != 0) {
		return -1;
	}
	return 0;
}

/* A small drive (4 channels x 32 blocks of 32 8-KiB pages) at path, with options o. */
static int format_small(const char *path, struct ss_emu_drive_opts *o, char *err, size_t cap)
{
	o->flash.geo.channels = 4;
	o->flash.geo.ways = 1;
	o->flash.geo.blocks_per_die = 32;
	o->flash.geo.pages_per_block = 32;
	o->flash.geo.page_size = 8192;
	o->flash.geo.spare_size = 256;
	return ss_emu_format(path, o, NULL, err, cap);
}

/* A child the test expects to exit: its wait status, or -1 with a message after EXIT_WAIT_MS
 * (the child is then killed): a daemon that should have refused to start, or failed to
 * stop, fails the test instead of hanging it. */
#define EXIT_WAIT_MS 60000
static int exit_status(pid_t pid, const char *what)
{
	char err[256];
	int status = -1;

	if (ss_devd_wait_exit(pid, EXIT_WAIT_MS, &status, what, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return status;
}

static pid_t start_daemon_on(const char *img, const char *path, const char *mode)
{
	const char *args[] = { "--image", img, "--socket", path, "--time-mode", mode, NULL };
	char err[256];
	pid_t pid;

	if (ss_devd_spawn(SS_DEVD_PATH, args, 60000, &pid, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return pid;
}

static pid_t start_daemon_with(const char *mode, const char *const *extra);

static pid_t start_daemon_mode(const char *mode)
{
	return start_daemon_on(image, sock, mode);
}

static pid_t start_daemon(void)
{
	return start_daemon_mode("virtual");
}

static void model_of(const uint8_t *id, char *out)
{
	for (int i = 0; i < 40; i++) {
		out[i] = (char)id[27 * 2 + (i ^ 1)];
	}
	out[40] = '\0';
	for (int i = 39; i >= 0 && out[i] == ' '; i--) {
		out[i] = '\0';
	}
}

static void test_daemon(void)
{
	struct ss_emu_drive_opts o = { 0 };
	struct ss_emu_profile prof;
	struct reply r1, r2;
	struct stat st;
	char err[512], model[41];
	int fd, quitter, status = -1;
	pid_t pid;

	CHECK_EQ(format_small(image, &o, err, sizeof(err)), 0);
	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &prof, err, sizeof(err)), 0);

	pid = start_daemon();
	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	CHECK_EQ(stat(sock, &st), 0);
	CHECK(S_ISSOCK(st.st_mode));
	CHECK_EQ(st.st_mode & 0777, 0660);

	/* a client that leaves in the middle of sending a request disturbs nobody */
	quitter = connect_sock();
	CHECK(quitter >= 0);
	send_request(quitter, 9, identify_cdb, 1, 512);   /* promises 512 bytes, sends 100 */
	{
		uint8_t part[100] = { 0 };

		CHECK_EQ(write_all(quitter, part, sizeof(part)), 0);
	}
	close(quitter);

	/* two requests outstanding on one connection; replies carry their tags */
	fd = connect_sock();
	CHECK(fd >= 0);
	send_request(fd, 0x11223344, identify_cdb, 2, 512);
	send_request(fd, 7, identify_cdb, 2, 512);
	CHECK_EQ(read_reply(fd, &r1), 0);
	CHECK_EQ(read_reply(fd, &r2), 0);
	CHECK((r1.tag == 0x11223344 && r2.tag == 7) || (r1.tag == 7 && r2.tag == 0x11223344));
	CHECK_EQ(r1.status, SS_EMU_SCSI_GOOD);
	CHECK_EQ(r1.sense_len, 0);
	CHECK_EQ(r1.len, 512);
	model_of(r1.data, model);
	CHECK(strcmp(model, prof.model) == 0);
	CHECK(memcmp(r1.data, r2.data, 512) == 0);

	/* the model counters: 35 u64 fields in struct ss_emu_counters order after a count */
	{
		uint64_t cmds1, cmds2, link_out, now;

		send_model_request(fd, 0xAB, 0);
		CHECK_EQ(read_reply(fd, &r1), 0);
		CHECK_EQ(r1.tag, 0xAB);
		CHECK_EQ(r1.status, SS_EMU_SCSI_GOOD);
		CHECK_EQ(r1.sense_len, 0);
		CHECK_EQ(r1.len, 8 + 8 * 35);
		CHECK_EQ(le64(r1.data) & 0xFFFFFFFFu, 35);
		CHECK_EQ(le64(r1.data) >> 32, 0);
		cmds1 = le64(r1.data + 8 + 8 * 10);        /* host_commands */
		link_out = le64(r1.data + 8 + 8 * 12);     /* link_bytes_out */
		now = le64(r1.data + 8 + 8 * 20);          /* now_ns */
		CHECK(cmds1 >= 2);                          /* the two IDENTIFYs at least */
		CHECK(link_out >= 2 * 512);
		CHECK(now > 0);
		/* one more IDENTIFY moves host_commands by one and link_bytes_out by 512 */
		send_request(fd, 5, identify_cdb, 2, 512);
		CHECK_EQ(read_reply(fd, &r1), 0);
		send_model_request(fd, 0xAC, 0);
		CHECK_EQ(read_reply(fd, &r2), 0);
		CHECK_EQ(r2.tag, 0xAC);
		cmds2 = le64(r2.data + 8 + 8 * 10);
		CHECK_EQ(cmds2, cmds1 + 1);
		CHECK_EQ(le64(r2.data + 8 + 8 * 12), link_out + 512);
		CHECK(le64(r2.data + 8 + 8 * 20) > now);
		/* host_now_ns: no background work ran ahead here, so it is the device clock */
		CHECK_EQ(le64(r2.data + 8 + 8 * 28), le64(r2.data + 8 + 8 * 20));
		/* energy_total is the sum of the six parts before it */
		{
			uint64_t sum = 0;

			for (int i = 21; i < 27; i++) {
				sum += le64(r2.data + 8 + 8 * i);
			}
			CHECK_EQ(le64(r2.data + 8 + 8 * 27), sum);
		}
		/* the profile's prices of a tasklet's work follow */
		CHECK_EQ(le64(r2.data + 8 + 8 * 29), prof.nand_read_nj);
		CHECK_EQ(le64(r2.data + 8 + 8 * 34), prof.link_pj_per_byte);
	}

	/* a model request with reserved bytes set breaks the framing: the connection closes */
	{
		int bad = connect_sock();
		uint8_t b;

		CHECK(bad >= 0);
		send_model_request(bad, 1, 0x5A);
		CHECK(read_all(bad, &b, 1) != 0);
		close(bad);
	}

	/* a CDB the drive refuses is answered, with CHECK CONDITION sense */
	{
		uint8_t bad[16];

		memcpy(bad, identify_cdb, 16);
		bad[1] = 0;                            /* PROTOCOL 0: hard reset */
		send_request(fd, 3, bad, 2, 512);
		CHECK_EQ(read_reply(fd, &r1), 0);
		CHECK_EQ(r1.tag, 3);
		CHECK_EQ(r1.status, SS_EMU_SCSI_CHECK_CONDITION);
		CHECK_EQ(r1.sense_len, 8);
		CHECK_EQ(r1.sense[0], 0x72);
		CHECK_EQ(r1.sense[1], 0x05);
		CHECK_EQ(r1.sense[2], 0x24);
	}
	close(fd);

	/* SIGTERM: exit 0, socket removed */
	kill(pid, SIGTERM);
	status = exit_status(pid, "smartssd-devd after SIGTERM");
	CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(stat(sock, &st) != 0 && errno == ENOENT);

	/* the drive was shut down cleanly: it opens again in-process */
	{
		struct ss_emu_drive *d = NULL;

		CHECK_EQ(ss_emu_open(image, &o, &d, err, sizeof(err)), 0);
		CHECK_EQ(ss_emu_close(d), 0);
	}
}

/* Realtime mode: commands go through the worker pool, several in flight per connection;
 * the model request is answered as in virtual time. */
static void test_daemon_realtime(void)
{
	struct reply r[3];
	int fd, status = -1, tags = 0;
	pid_t pid = start_daemon_mode("realtime");

	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	fd = connect_sock();
	CHECK(fd >= 0);
	send_request(fd, 1, identify_cdb, 2, 512);
	send_request(fd, 2, identify_cdb, 2, 512);
	send_model_request(fd, 3, 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(read_reply(fd, &r[i]), 0);
		CHECK(r[i].tag >= 1 && r[i].tag <= 3);
		tags |= 1 << r[i].tag;
		CHECK_EQ(r[i].status, SS_EMU_SCSI_GOOD);
		CHECK_EQ(r[i].len, r[i].tag == 3 ? 8 + 8 * 35 : 512);
	}
	CHECK_EQ(tags, 0xE);
	close(fd);
	kill(pid, SIGTERM);
	status = exit_status(pid, "smartssd-devd (realtime) after SIGTERM");
	CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_daemon_usage_errors(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		execl(SS_DEVD_PATH, "smartssd-devd", "--image", image, (char *)NULL);
		_exit(127);
	}
	status = exit_status(pid, "smartssd-devd without --socket");
	CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 2);
}

/* Status of smartssd-devd run with args to its end (it must fail fast); with `said`, what
 * it wrote to stderr (up to cap - 1 bytes, through a file: the child cannot block on it). */
static int run_to_exit_saying(const char *const *args, char *said, size_t cap)
{
	const char *argv[16] = { "smartssd-devd" };
	char path[128];
	int status = -1, n = 1, fd = -1;
	pid_t pid;

	while (*args != NULL && n < 15) {
		argv[n++] = *args++;
	}
	argv[n] = NULL;
	if (said != NULL) {
		snprintf(path, sizeof(path), "%s/stderr.txt", dir);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		CHECK(fd >= 0);
	}
	pid = fork();
	if (pid == 0) {
		if (fd >= 0) {
			dup2(fd, 2);
		}
		execv(SS_DEVD_PATH, (char *const *)argv);
		_exit(127);
	}
	status = exit_status(pid, "smartssd-devd, expected to refuse to start");
	if (fd >= 0) {
		ssize_t got = pread(fd, said, cap - 1, 0);

		said[got > 0 ? got : 0] = '\0';
		close(fd);
		unlink(path);
	}
	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_to_exit(const char *const *args)
{
	return run_to_exit_saying(args, NULL, 0);
}

static void stop_daemon(pid_t pid)
{
	int status = -1;

	kill(pid, SIGTERM);
	status = exit_status(pid, "smartssd-devd after SIGTERM");
	CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* One IDENTIFY on a fresh connection: the daemon answers. */
static int answers(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct reply r;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), ok;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return 0;
	}
	send_request(fd, 1, identify_cdb, 2, 512);
	ok = read_reply(fd, &r) == 0 && r.status == SS_EMU_SCSI_GOOD;
	close(fd);
	return ok;
}

/* A socket file left by a killed daemon: the new daemon replaces it, and the moment it
 * signals readiness the path accepts connections (it was refusing them before). */
static void test_stale_socket_is_replaced_before_ready(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat before, after;
	int stale = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t pid;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	unlink(sock);
	CHECK_EQ(bind(stale, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(stale);   /* the file stays; nobody listens on it */
	CHECK_EQ(stat(sock, &before), 0);
	CHECK(connect_sock() < 0);
	for (int round = 0; round < 5; round++) {
		pid = start_daemon();
		CHECK(pid > 0);
		if (pid <= 0) {
			return;
		}
		CHECK(answers(sock));
		CHECK_EQ(stat(sock, &after), 0);
		CHECK(after.st_ino != before.st_ino);
		kill(pid, SIGKILL);   /* leaves a stale socket again */
		waitpid(pid, NULL, 0);
		CHECK_EQ(stat(sock, &before), 0);
	}
}

/* --socket at a file that is not a socket (a typo naming the image) deletes nothing. */
static void test_refuses_a_path_that_is_not_a_socket(void)
{
	char other[128];
	struct stat before, after;
	const char *on_image[] = { "--image", image, "--socket", image, NULL };
	const char *on_file[] = { "--image", image, "--socket", other, NULL };
	FILE *f;

	CHECK_EQ(stat(image, &before), 0);
	CHECK_EQ(run_to_exit(on_image), 1);
	CHECK_EQ(stat(image, &after), 0);
	CHECK_EQ(after.st_ino, before.st_ino);
	CHECK_EQ(after.st_size, before.st_size);
	snprintf(other, sizeof(other), "%s/notes.txt", dir);
	f = fopen(other, "w");
	CHECK(f != NULL);
	if (f != NULL) {
		fputs("keep me\n", f);
		fclose(f);
	}
	CHECK_EQ(run_to_exit(on_file), 1);
	CHECK_EQ(stat(other, &after), 0);
	CHECK_EQ(after.st_size, 8);
	unlink(other);
}

/* A second daemon on a live daemon's path fails and leaves the first one serving. */
static void test_live_daemon_keeps_its_path(void)
{
	char image2[128];
	struct ss_emu_drive_opts o = { 0 };
	char err[256];
	pid_t pid = start_daemon();
	const char *second[] = { "--image", image2, "--socket", sock, NULL };

	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	snprintf(image2, sizeof(image2), "%s/second.img", dir);
	CHECK_EQ(format_small(image2, &o, err, sizeof(err)), 0);
	CHECK_EQ(run_to_exit(second), 1);
	CHECK(answers(sock));
	stop_daemon(pid);
	unlink(image2);
}

static void test_ready_fd_must_be_open(void)
{
	const char *args[] = { "--image", image, "--socket", sock, "--ready-fd", "97", NULL };
	const char *junk[] = { "--image", image, "--socket", sock, "--ready-fd", "x1", NULL };

	CHECK_EQ(run_to_exit(args), 2);
	CHECK_EQ(run_to_exit(junk), 2);
}

/* smartssd-devd run with args exits with `code`, saying `expect` on stderr. */
static void check_refused(const char *const *args, int code, const char *expect)
{
	char said[4096];

	CHECK_EQ(run_to_exit_saying(args, said, sizeof(said)), code);
	if (strstr(said, expect) == NULL) {
		fprintf(stderr, "devd_ut: expected '%s', got: %s\n", expect, said);
		ss_test_failures++;
	}
}

/* A daemon started with `extra` in time mode `mode` answers, and stops cleanly. */
static void check_serves_with(const char *mode, const char *const *extra)
{
	pid_t pid = start_daemon_with(mode, extra);

	CHECK(pid > 0);
	if (pid > 0) {
		CHECK(answers(sock));
		stop_daemon(pid);
	}
}

/* --background: thread (the default) or manual (no controller thread; isp_queue_ut
 * relies on it); anything else is refused, naming the option and the value. */
static void test_background_option(void)
{
	const char *bad[] = { "--image", image, "--socket", sock, "--background", "sometimes",
			      NULL };
	const char *manual[] = { "--background", "manual", NULL };
	const char *thread[] = { "--background", "thread", NULL };

	check_refused(bad, 2, "--background is thread or manual, not 'sometimes'");
	check_serves_with("virtual", manual);
	check_serves_with("realtime", thread);
}

/* --withhold-opcodes reaches the firmware (drive_ut checks the answers): a name it lacks
 * stops the daemon before it serves, naming the name. */
static void test_withhold_opcodes_option(void)
{
	const char *typo[] = { "--image", image, "--socket", sock, "--withhold-opcodes",
			       "ISP_QUEUE,ISP_QEUE", NULL };
	const char *good[] = { "--withhold-opcodes", "ISP_QUEUE", NULL };

	check_refused(typo, 1, "no opcode 'ISP_QEUE'");
	CHECK(!answers(sock));
	check_serves_with("virtual", good);
}

/* Under systemd (Type=notify) readiness is READY=1 on $NOTIFY_SOCKET. */
static void test_sd_notify_ready(void)
{
#ifdef SS_HAVE_SYSTEMD
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[96], msg[512] = "";
	int nfd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct pollfd p = { .fd = nfd, .events = POLLIN };
	pid_t pid;

	snprintf(path, sizeof(path), "%s/notify", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	CHECK_EQ(bind(nfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	setenv("NOTIFY_SOCKET", path, 1);
	pid = start_daemon();
	unsetenv("NOTIFY_SOCKET");
	CHECK(pid > 0);
	if (pid <= 0) {
		close(nfd);
		return;
	}
	/* sd_notify is sent before --ready-fd's line, so it is already queued here */
	CHECK_EQ(poll(&p, 1, 0), 1);
	CHECK(recv(nfd, msg, sizeof(msg) - 1, MSG_DONTWAIT) > 0);
	CHECK_STR_HAS(msg, "READY=1");
	stop_daemon(pid);
	close(nfd);
	unlink(path);
#else
	SKIP("built without libsystemd (install libsystemd-dev)");
#endif
}

/* A listening unix socket at path, as a .socket unit's ListenStream= makes it. */
static int listen_at(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, 16) != 0) {
		perror("listen_at");
		return -1;
	}
	return fd;
}

/*
 * The daemon started as systemd starts it for a .socket unit: lfd as fd 3, LISTEN_FDS=1
 * and LISTEN_PID naming the child; readiness on --ready-fd 4. \return the pid once it
 * signalled ready (*exit_code -1), or -1 with *exit_code its exit status when it
 * exited instead (bounded: 60 s each).
 */
static pid_t start_activated(int lfd, int *exit_code)
{
	const char *argv[] = { "smartssd-devd", "--image", image, "--socket", sock,
			       "--ready-fd", "4", NULL };
	char line[16] = "";
	int rp[2], status = -1;
	struct pollfd p;
	pid_t pid;

	*exit_code = -1;
	if (pipe(rp) != 0) {
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		char v[32];
		/* first out of the way: either fd may be 3 or 4 already */
		int l = fcntl(lfd, F_DUPFD, 10), w = fcntl(rp[1], F_DUPFD, 10);

		if (l < 0 || w < 0 || dup2(l, 3) != 3 || dup2(w, 4) != 4) {
			_exit(120);
		}
		snprintf(v, sizeof(v), "%ld", (long)getpid());
		setenv("LISTEN_PID", v, 1);
		setenv("LISTEN_FDS", "1", 1);
		execv(SS_DEVD_PATH, (char *const *)argv);
		_exit(127);
	}
	close(rp[1]);
	p = (struct pollfd){ .fd = rp[0], .events = POLLIN };
	if (poll(&p, 1, 60000) == 1 && read(rp[0], line, sizeof(line) - 1) > 0 &&
	    strncmp(line, "READY=1", 7) == 0) {
		close(rp[0]);
		return pid;
	}
	close(rp[0]);
	status = exit_status(pid, "smartssd-devd (socket-activated) without READY=1");
	if (status != -1 && WIFEXITED(status)) {
		*exit_code = WEXITSTATUS(status);
	}
	return -1;
}

/* Socket activation: the daemon serves the socket it is passed, creates no lock file, and
 * leaves the socket (systemd's) listening when it stops; a passed socket bound to another
 * path than --socket is refused. */
static void test_socket_activation(void)
{
	char lock[160], other[160];
	struct stat st;
	int lfd = listen_at(sock), status, fd;
	pid_t pid;

	CHECK(lfd >= 0);
	snprintf(lock, sizeof(lock), "%s.lock", sock);
	unlink(lock); /* left by the daemons before */
	pid = start_activated(lfd, &status);
	CHECK(pid > 0);
	if (pid > 0) {
		CHECK(answers(sock));
		CHECK(lstat(lock, &st) != 0 && errno == ENOENT);
		stop_daemon(pid);
		/* still systemd's socket: a client connects (queued until the next start) */
		CHECK_EQ(lstat(sock, &st), 0);
		CHECK(S_ISSOCK(st.st_mode));
		fd = connect_sock();
		CHECK(fd >= 0);
		if (fd >= 0) {
			close(fd);
		}
		/* and the next start serves it again */
		pid = start_activated(lfd, &status);
		CHECK(pid > 0);
		if (pid > 0) {
			CHECK(answers(sock));
			stop_daemon(pid);
		}
	}
	close(lfd);
	unlink(sock);

	snprintf(other, sizeof(other), "%s/other.sock", dir);
	lfd = listen_at(other);
	CHECK(lfd >= 0);
	pid = start_activated(lfd, &status);
	CHECK_EQ(pid, -1);
	CHECK_EQ(status, 1);
	close(lfd);
	unlink(other);
}

static pid_t start_daemon_with(const char *mode, const char *const *extra)
{
	const char *args[24] = { "--image", image, "--socket", sock, "--time-mode", mode };
	int n = 6;
	char err[256];
	pid_t pid;

	while (*extra != NULL && n < 23) {
		args[n++] = *extra++;
	}
	args[n] = NULL;
	if (ss_devd_spawn(SS_DEVD_PATH, args, 60000, &pid, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return pid;
}

/* In a child running as `uid`: one IDENTIFY. \return the child's exit status: 0 served,
 * 3 refused with DATA PROTECT / ACCESS NOT AUTHORIZED, other values for anything else. */
static int identify_as(uid_t uid)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		struct reply r;
		int fd;

		if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0) {
			_exit(10);
		}
		fd = connect_sock();
		if (fd < 0) {
			_exit(11);
		}
		send_request(fd, 77, identify_cdb, 2, 512);
		/* a refused peer gets the notice first, whether or not its request got through */
		if (read_reply(fd, &r) != 0 || (r.tag != 77 && r.tag != SS_FRAME_TAG_NOTICE)) {
			_exit(12);
		}
		if (r.status == SS_EMU_SCSI_GOOD && r.tag == 77) {
			_exit(0);
		}
		if (r.tag == SS_FRAME_TAG_NOTICE && read_reply(fd, &r) == 0) {
			_exit(14);   /* nothing follows a notice: the connection is closed */
		}
		_exit(r.sense_len >= 4 && r.sense[1] == 0x07 && r.sense[2] == 0x74 &&
		      r.sense[3] == 0x71 ? 3 : 13);
	}
	status = exit_status(pid, "the client process");
	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Only allowed users reach the drive; everyone else gets ACCESS DENIED, and the socket
 * gets the mode asked for. */
static void test_access_is_checked(void)
{
	const char *open_mode[] = { "--socket-mode", "0666", NULL };
	const char *allow_nobody[] = { "--socket-mode", "0666", "--allow-uid", "65534", NULL };
	const char *bad_user[] = { "--image", image, "--socket", sock, "--allow-uid",
				   "no-such-user-here", NULL };
	struct stat st;
	pid_t pid;

	if (geteuid() != 0)
		SKIP("the access test switches users and needs root");
	CHECK_EQ(chmod(dir, 0755), 0);   /* other users may reach the socket file */
	pid = start_daemon_with("virtual", open_mode);
	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	CHECK_EQ(stat(sock, &st), 0);
	CHECK_EQ(st.st_mode & 0777, 0666);
	CHECK_EQ(identify_as(65534), 3);   /* default: the daemon's own user only */
	CHECK_EQ(identify_as(0), 0);
	CHECK(answers(sock));              /* a refusal disturbs nobody */
	stop_daemon(pid);
	pid = start_daemon_with("virtual", allow_nobody);
	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	CHECK_EQ(identify_as(65534), 0);
	CHECK_EQ(identify_as(0), 3);       /* a list replaces the default */
	stop_daemon(pid);
	CHECK_EQ(run_to_exit(bad_user), 2);
	CHECK_EQ(chmod(dir, 0700), 0);
}

static long vm_kib(pid_t pid, const char *field)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	f = fopen(path, "r");
	if (f == NULL) {
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, field, strlen(field)) == 0) {
			v = strtol(line + strlen(field) + 1, NULL, 10);
		}
	}
	fclose(f);
	return v;
}

/* Fill a peer's socket with IDENTIFY requests without ever reading a reply. */
static int flood_without_reading(void)
{
	int fd = connect_sock(), sent = 0;

	for (int i = 0; fd >= 0 && i < 100000; i++) {
		uint8_t h[32] = { 'S', 'S', 'D', 'Q' };

		h[4] = (uint8_t)i;
		memcpy(h + 8, identify_cdb, 16);
		h[24] = 2;
		h[29] = 2;   /* 512 bytes */
		if (send(fd, h, sizeof(h), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(h)) {
			break;   /* the daemon stopped reading us: our side is full */
		}
		sent++;
	}
	CHECK(sent > 32);
	return fd;
}

/* Sends the header of a frame that declares the largest data phase allowed, and none of
 * the data. \return the connection. */
static int declare_maximal_frame(void)
{
	uint8_t h[32] = { 'S', 'S', 'D', 'Q' };
	int fd = connect_sock();

	CHECK(fd >= 0);
	memcpy(h + 8, identify_cdb, 16);
	h[24] = 1;                       /* to the drive */
	ss_put_le32(h + 28, 65536u * 512u);
	CHECK_EQ(write_all(fd, h, sizeof(h)), 0);
	return fd;
}

/*
 * What a client can make the daemon hold is bounded: 64 connections that each declare a
 * maximal frame and send none of its data, plus one that never reads its replies, leave
 * the daemon's memory where it was and a normal client served; connections past
 * --max-connections are closed. The frame timeout is long here, so that no half-sent
 * frame times out while the test counts connections, however slow the machine is:
 * test_frame_timeout checks the timeout on its own.
 */
static void test_limits(const char *mode)
{
	const char *limits[] = { "--frame-timeout", "3600", "--max-connections", "80", NULL };
	int half[64], flood, extra[16], nextra = 0, closed = 0, served = 0, told = 0;
	long data_before, data_after;
	pid_t pid = start_daemon_with(mode, limits);

	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	CHECK(answers(sock));
	data_before = vm_kib(pid, "VmData:");
	for (int i = 0; i < 64; i++) {
		half[i] = declare_maximal_frame();
	}
	flood = flood_without_reading();
	CHECK(answers(sock));
	CHECK(answers(sock));
	data_after = vm_kib(pid, "VmData:");
	fprintf(stderr, "%s: VmData %ld KiB before, %ld KiB with 64 maximal frames declared\n",
		mode, data_before, data_after);
	/* the connections' threads take their stacks (2 MiB each, plus a sanitizer's
	 * per-thread state); a buffer per declared frame would take 2 GiB more */
	CHECK(data_before > 0 && data_after - data_before < 1024 * 1024);
	/* past --max-connections (80, with the flood and the 64 open): told so, then closed at
	 * once */
	for (int i = 0; i < 16; i++) {
		struct reply r;

		extra[nextra] = connect_sock();
		if (extra[nextra] < 0) {
			continue;
		}
		uint8_t h[32] = { 'S', 'S', 'D', 'Q', 5 };

		memcpy(h + 8, identify_cdb, 16);
		h[24] = 2;
		h[29] = 2;   /* 512 bytes; a closed connection may refuse even the request */
		(void)!send(extra[nextra], h, sizeof(h), MSG_NOSIGNAL);
		if (read_reply(extra[nextra], &r) != 0) {
			closed++;
		} else if (r.tag == 5) {
			served++;
		} else if (r.tag == SS_FRAME_TAG_NOTICE && r.sense_len == 8 && r.sense[1] == 0x0B &&
			   r.sense[2] == 0x55 && r.sense[3] == 0x03) {
			told++;
		}
		nextra++;
	}
	CHECK(told >= 1);
	CHECK_EQ(closed, 0);   /* every one is served or told why not */
	CHECK(served >= 1);
	for (int i = 0; i < 64; i++) {
		close(half[i]);
	}
	close(flood);
	for (int i = 0; i < nextra; i++) {
		close(extra[i]);
	}
	CHECK(answers(sock));
	stop_daemon(pid);
}

/* Each half-sent frame times out: the daemon closes those connections (each wait bounded)
 * and goes on serving. */
static void test_frame_timeout(const char *mode)
{
	const char *limits[] = { "--frame-timeout", "2", NULL };
	int half[8];
	pid_t pid = start_daemon_with(mode, limits);

	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	for (int i = 0; i < 8; i++) {
		half[i] = declare_maximal_frame();
	}
	for (int i = 0; i < 8; i++) {
		uint8_t b;
		struct pollfd pf = { .fd = half[i], .events = POLLIN };

		CHECK_EQ(poll(&pf, 1, 60000), 1);   /* 60 s: the daemon never closed it */
		CHECK(read(half[i], &b, 1) <= 0);
		close(half[i]);
	}
	CHECK(answers(sock));
	stop_daemon(pid);
}

/*
 * Connections a client has closed do not count against --max-connections, however late
 * the daemon's threads see the close: a client that closes all its connections and opens a
 * new one at once is served (the daemon once refused it while the closed ones' threads had
 * not yet wound down: test_limits failed so in one round of 28 at load 28). Each round
 * fills the limit with connections blocked in a frame's data, closes them and connects at
 * once.
 */
static void test_closed_connections_free_their_places(void)
{
	const char *limits[] = { "--frame-timeout", "3600", "--max-connections", "8", NULL };
	int held[8], refused = 0;
	pid_t pid = start_daemon_with("virtual", limits);

	CHECK(pid > 0);
	if (pid <= 0) {
		return;
	}
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 8; i++) {
			held[i] = declare_maximal_frame();
		}
		for (int i = 0; i < 8; i++) {
			close(held[i]);
		}
		refused += !answers(sock);
	}
	CHECK_EQ(refused, 0);
	stop_daemon(pid);
}

static void test_limits_virtual(void)
{
	test_limits("virtual");
	test_frame_timeout("virtual");
}

static void test_limits_realtime(void)
{
	test_limits("realtime");
	test_frame_timeout("realtime");
}

/*
 * With no argument, every test that runs on any machine. "sd_notify" and "access" run the
 * tests that need libsystemd or root alone, as CTests of their own, so that where they
 * cannot run CTest reports them skipped without hiding the others' verdicts.
 */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "";

	signal(SIGPIPE, SIG_IGN);
	emu_test_mkdir(dir, sizeof(dir));   /* short: a socket path holds 108 bytes */
	snprintf(image, sizeof(image), "%s/d.img", dir);
	snprintf(sock, sizeof(sock), "%s/d.sock", dir);
	if (strcmp(only, "sd_notify") == 0 || strcmp(only, "access") == 0) {
		struct ss_emu_drive_opts o = { 0 };
		char err[512];

		REQUIRE(format_small(image, &o, err, sizeof(err)) == 0);
	}
	if (strcmp(only, "sd_notify") == 0) {
		RUN(test_sd_notify_ready);
	} else if (strcmp(only, "access") == 0) {
		RUN(test_access_is_checked);
	} else if (*only) {
		fprintf(stderr, "emu_devd_ut: no test group '%s' (sd_notify, access)\n", only);
		ss_test_failures++;
	} else {
		RUN(test_daemon);
		RUN(test_daemon_realtime);
		RUN(test_daemon_usage_errors);
		RUN(test_stale_socket_is_replaced_before_ready);
		RUN(test_refuses_a_path_that_is_not_a_socket);
		RUN(test_live_daemon_keeps_its_path);
		RUN(test_ready_fd_must_be_open);
		RUN(test_background_option);
		RUN(test_withhold_opcodes_option);
		RUN(test_socket_activation);
		RUN(test_limits_virtual);
		RUN(test_limits_realtime);
		RUN(test_closed_connections_free_their_places);
	}
	emu_test_rmdir(dir);
	return ss_test_status();
}
