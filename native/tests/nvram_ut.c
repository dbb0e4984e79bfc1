/*
 * The merge cache's NVRAM (<image>.nvram) is tied to its image and checked (issue #35,
 * item 2). A drive formatted with nv-wb holds an object whose last writes are sub-page, so
 * they are acknowledged into the NVRAM and are nowhere else: then
 *   - the image copied without its .nvram,
 *   - another image's .nvram placed beside it,
 *   - its own .nvram with 20 bytes flipped in a held sector,
 *   - its own .nvram as it was before a discard (an older generation),
 * each refuse the open (in-process and by smartssd-devd), with a message naming the
 * problem and the way back; --discard-nvram / discard_nvram=1 opens it, saying what it
 * dropped; a copy made with its .nvram reads back every acknowledged byte; and CHECK
 * (smartssd info --check) reports an NVRAM corrupted under a running drive, whose read of
 * the sector then fails instead of returning wrong bytes.
 * Also smartssd-devd --format (item 5): it refuses a text file and an image holding an
 * object, leaving them as they were, and formats them with --force.
 */
#include <fcntl.h>

#include "devtest.h"

#define PAGE 8192
#define OBJ_BYTES (3 * PAGE)

static char dir[] = "/tmp/ss_nvram_XXXXXX";

static void path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

/* Byte i of the object's contents after the writes of write_object. */
static uint8_t expected(uint64_t i, uint8_t seed)
{
	uint8_t v = (uint8_t)(i * 131u + seed);

	/* the last writes: 700 bytes at 1000, 300 at PAGE + 5000 */
	if ((i >= 1000 && i < 1700) || (i >= PAGE + 5000 && i < PAGE + 5300))
		v = (uint8_t)(0x5A ^ i ^ seed);
	return v;
}

static int copy_file(const char *from, const char *to)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cp --sparse=always '%s' '%s'", from, to);
	return system(cmd) == 0 ? 0 : -1;
}

/* A small drive with the merge cache (geometry as devtest's), at `image`. */
static int format_nv(const char *image)
{
	struct ss_emu_drive_opts o;
	char err[512] = "";
	int rc;

	memset(&o, 0, sizeof(o));
	o.flash.geo = (struct ss_geometry){ .channels = 4, .ways = 1, .blocks_per_die = 64,
					    .pages_per_block = 32, .page_size = PAGE,
					    .spare_size = 256 };
	o.buffer_policy = "nv-wb";
	rc = ss_emu_format(image, &o, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "format %s: %d %s\n", image, rc, err);
	return rc;
}

/* /obj: three pages written whole, then two sub-page writes, which stay in the NVRAM. */
static int write_object(const char *image, uint8_t seed)
{
	uint8_t buf[OBJ_BYTES];
	char uri[300];
	struct ss_dev *d = NULL;
	uint64_t oid = 0;
	int rc;

	snprintf(uri, sizeof(uri), "emu:%s", image);
	rc = ss_dev_open(uri, NULL, &d);
	if (rc)
		return rc;
	for (uint64_t i = 0; i < OBJ_BYTES; i++)
		buf[i] = (uint8_t)(i * 131u + seed);
	CHECK_EQ(ss_dev_create(d, "/obj", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, buf, OBJ_BYTES, 0), OBJ_BYTES);
	CHECK_EQ(ss_dev_flush(d), 0);
	for (uint64_t i = 0; i < OBJ_BYTES; i++)
		buf[i] = expected(i, seed);
	CHECK_EQ(ss_dev_write(d, oid, 1000, buf + 1000, 700, 0), 700);
	CHECK_EQ(ss_dev_write(d, oid, PAGE + 5000, buf + PAGE + 5000, 300, 0), 300);
	return ss_dev_close(d);
}

/* The object reads back as written, through `uri`. */
static void check_object(const char *uri, uint8_t seed)
{
	static uint8_t buf[OBJ_BYTES];
	struct ss_dev *d = NULL;
	struct ss_dev_stat st;
	uint64_t bad = 0;

	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (!d)
		return;
	CHECK_EQ(ss_dev_lookup(d, "/obj", &st), 0);
	CHECK_EQ(ss_dev_read(d, st.oid, 0, buf, OBJ_BYTES), OBJ_BYTES);
	for (uint64_t i = 0; i < OBJ_BYTES; i++)
		bad += buf[i] != expected(i, seed);
	CHECK_EQ(bad, 0);
	CHECK_EQ(ss_dev_close(d), 0);
}

/* The open of `image` is refused, and the message says `what` and how to recover. */
static void refused(const char *image, const char *what)
{
	char uri[300];
	struct ss_dev *d = NULL;
	const char *msg;

	snprintf(uri, sizeof(uri), "emu:%s", image);
	CHECK(ss_dev_open(uri, NULL, &d) < 0);
	msg = ss_dev_last_message();
	if (!strstr(msg, what) || !strstr(msg, "NVRAM") || !strstr(msg, "--discard-nvram") ||
	    !strstr(msg, "discard_nvram=1")) {
		fprintf(stderr, "open %s: message '%s' does not say '%s' and the way back\n", image,
			msg, what);
		ut_failures++;
	}
	if (d)
		ss_dev_close(d);
}

/* Offset of the first `n` bytes equal to `pat` in the file, or -1. */
static long long find_in_file(const char *path, const uint8_t *pat, size_t n)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];
	long long at = -1, base = 0;
	size_t got;

	if (!f)
		return -1;
	/* the NVRAM's sectors start 64-byte aligned (buffer/buf_nv.c's layout) */
	while (at < 0 && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t i = 0; i + n <= got; i += 64) {
			if (!memcmp(buf + i, pat, n)) {
				at = base + (long long)i;
				break;
			}
		}
		base += (long long)got;
	}
	fclose(f);
	return at;
}

/* Flip 20 bytes of the held sector that holds object bytes [1024, 1536). */
static int flip_held_sector(const char *nvram, uint8_t seed)
{
	uint8_t pat[64];
	long long at;
	uint8_t x[20];
	int fd, rc = -1;

	for (int i = 0; i < 64; i++)
		pat[i] = expected(1024 + (uint64_t)i, seed);
	at = find_in_file(nvram, pat, sizeof(pat));
	CHECK(at >= 0);
	if (at < 0)
		return -1;
	fd = open(nvram, O_RDWR);
	if (fd >= 0 && pread(fd, x, sizeof(x), at + 100) == (ssize_t)sizeof(x)) {
		for (int i = 0; i < 20; i++)
			x[i] ^= 0xFF;
		rc = pwrite(fd, x, sizeof(x), at + 100) == (ssize_t)sizeof(x) ? 0 : -1;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Run smartssd-devd with `args` to its end (it is expected to refuse); its stderr into
 * msg. \return its exit status, or -1 (it served instead: stopped after 60 s). */
static int devd_refusal(const char *const *args, char *msg, size_t len)
{
	const char *argv[16] = { SS_DEVD_PATH };
	int p[2], status = 0, n = 1;
	char err[256];
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe(p) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		execv(SS_DEVD_PATH, (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	/* a daemon that serves instead of refusing keeps the pipe open: bounded below */
	if (ss_devd_wait_exit(pid, 60000, &status, "smartssd-devd, expected to refuse,", err,
			      sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		close(p[0]);
		return -1;
	}
	while (got + 1 < len && (r = read(p[0], msg + got, len - 1 - got)) > 0)
		got += (size_t)r;
	msg[got] = '\0';
	close(p[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_nvram_is_tied_to_its_image(void)
{
	char a[96], a_nv[110], b[96], b_nv[110], c[96], c_nv[110], sock[96], uri[300];
	char msg[2048];
	struct ss_emu_drive_opts o;
	struct ss_emu_drive *drv = NULL;
	struct ss_dev_check chk;
	struct ss_dev *d = NULL;
	struct devtest t;

	path_in(a, sizeof(a), "a.img");
	path_in(b, sizeof(b), "b.img");
	path_in(c, sizeof(c), "c.img");
	path_in(sock, sizeof(sock), "devd.sock");
	snprintf(a_nv, sizeof(a_nv), "%s.nvram", a);
	snprintf(b_nv, sizeof(b_nv), "%s.nvram", b);
	snprintf(c_nv, sizeof(c_nv), "%s.nvram", c);
	if (format_nv(a) || write_object(a, 1) || format_nv(c) || write_object(c, 2)) {
		CHECK(0);
		return;
	}

	/* a copy with its own NVRAM is the same drive: every acknowledged byte */
	CHECK_EQ(copy_file(a, b), 0);
	CHECK_EQ(copy_file(a_nv, b_nv), 0);
	snprintf(uri, sizeof(uri), "emu:%s", b);
	check_object(uri, 1);

	/* the image copied without its .nvram */
	unlink(b_nv);
	refused(b, "is missing");
	CHECK(access(b_nv, F_OK) != 0);   /* and no empty one made in its place */

	/* another image's .nvram beside it */
	CHECK_EQ(copy_file(c_nv, b_nv), 0);
	refused(b, "belongs to another drive");

	/* its own .nvram, 20 bytes flipped in a held sector */
	CHECK_EQ(copy_file(a_nv, b_nv), 0);
	CHECK_EQ(flip_held_sector(b_nv, 1), 0);
	refused(b, "fails its CRC-32C");

	/* smartssd-devd refuses it the same way */
	{
		const char *args[] = { "--image", b, "--socket", sock, NULL };

		CHECK_EQ(devd_refusal(args, msg, sizeof(msg)), 1);
		CHECK(strstr(msg, "fails its CRC-32C") != NULL);
		CHECK(strstr(msg, "--discard-nvram") != NULL);
	}

	/* --discard-nvram opens it, saying what it dropped: the sectors the NVRAM held */
	memset(&o, 0, sizeof(o));
	o.discard_nvram = 1;
	CHECK_EQ(ss_emu_open(b, &o, &drv, msg, sizeof(msg)), 0);
	if (drv) {
		const char *notice = ss_emu_notice(drv);

		if (!strstr(notice, "started empty, dropping the") ||
		    !strstr(notice, "acknowledged sectors") || !strstr(notice, "fails its CRC-32C")) {
			fprintf(stderr, "discard notice: '%s'\n", notice);
			ut_failures++;
		}
		CHECK_EQ(ss_emu_close(drv), 0);
	}
	/* from then on it opens: the NVRAM is its own again, empty */
	snprintf(uri, sizeof(uri), "emu:%s", b);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d)
		CHECK_EQ(ss_dev_close(d), 0);
	/* the discard raised the NVRAM's generation on the flash: the NVRAM as it was before
	 * (a copy of the copy's, same drive) is stale, refused */
	CHECK_EQ(copy_file(a_nv, b_nv), 0);
	refused(b, "of NVRAM generation 1");
	/* and by the daemon, which says what a discard of a missing NVRAM drops */
	unlink(b_nv);
	memset(&t, 0, sizeof(t));
	snprintf(t.image, sizeof(t.image), "%s", b);
	snprintf(t.sock, sizeof(t.sock), "%s", sock);
	{
		const char *extra[] = { "--discard-nvram", NULL };

		CHECK_EQ(devtest_start_daemon_with(&t, extra), 0);
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		if (d)
			CHECK_EQ(ss_dev_close(d), 0);
		devtest_kill_daemon(&t, SIGTERM);
	}

	/* CHECK reports an NVRAM corrupted under the running drive; the read fails */
	snprintf(uri, sizeof(uri), "emu:%s", a);
	d = NULL;
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d) {
		static uint8_t buf[OBJ_BYTES];
		struct ss_dev_stat st;

		CHECK_EQ(ss_dev_check(d, &chk), 0);
		CHECK_EQ(chk.problem, 0);
		CHECK_EQ(flip_held_sector(a_nv, 1), 0);
		CHECK_EQ(ss_dev_check(d, &chk), 0);
		CHECK_EQ(chk.problem, 22);   /* the merge cache's NVRAM (PROTOCOL.md section 5) */
		CHECK_EQ(ss_dev_lookup(d, "/obj", &st), 0);
		CHECK(ss_dev_read(d, st.oid, 0, buf, OBJ_BYTES) < 0);
		ss_dev_close(d);
	}
	refused(a, "fails its CRC-32C");
	unlink(a);
	unlink(a_nv);
	unlink(b);
	unlink(b_nv);
	unlink(c);
	unlink(c_nv);
}

static int file_is(const char *path, const char *want)
{
	char got[256] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(got, 1, sizeof(got) - 1, f) : 0;

	if (f)
		fclose(f);
	got[n] = '\0';
	return strcmp(got, want) == 0;
}

static void test_devd_format_refuses(void)
{
	static const char notes[] = "notes: not an image\n";
	char txt[96], img[96], sock[96], msg[2048];
	struct devtest t;
	struct ss_dev *d = NULL;
	FILE *f;

	path_in(txt, sizeof(txt), "notes2.txt");
	path_in(img, sizeof(img), "full.img");
	path_in(sock, sizeof(sock), "fmt.sock");
	f = fopen(txt, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(notes, f);
	fclose(f);
	{
		const char *args[] = { "--image", txt, "--socket", sock, "--format", NULL };

		CHECK_EQ(devd_refusal(args, msg, sizeof(msg)), 1);
		CHECK(strstr(msg, "is not a smartssd image") != NULL);
		CHECK(strstr(msg, "--force") != NULL);
		CHECK(file_is(txt, notes));
	}
	if (format_nv(img) || write_object(img, 3)) {
		CHECK(0);
		return;
	}
	{
		const char *args[] = { "--image", img, "--socket", sock, "--format", NULL };

		CHECK_EQ(devd_refusal(args, msg, sizeof(msg)), 1);
		CHECK(strstr(msg, "holds 1 object") != NULL);
	}
	{
		char uri[300];

		snprintf(uri, sizeof(uri), "emu:%s", img);
		check_object(uri, 3);   /* left as it was */
	}
	/* --force formats both */
	memset(&t, 0, sizeof(t));
	snprintf(t.sock, sizeof(t.sock), "%s", sock);
	for (int i = 0; i < 2; i++) {
		const char *extra[] = { "--format", "--force", NULL };
		struct ss_dev_fsstat st;

		snprintf(t.image, sizeof(t.image), "%s", i ? img : txt);
		CHECK_EQ(devtest_start_daemon_with(&t, extra), 0);
		d = NULL;
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		if (d) {
			CHECK_EQ(ss_dev_fsstat(d, &st), 0);
			CHECK_EQ(st.objects, 1);   /* the root directory alone */
			CHECK_EQ(ss_dev_close(d), 0);
		}
		devtest_kill_daemon(&t, SIGTERM);
	}
	CHECK(!file_is(txt, notes));
	/* --force without --format is a usage error */
	{
		const char *args[] = { "--image", img, "--socket", sock, "--force", NULL };

		CHECK_EQ(devd_refusal(args, msg, sizeof(msg)), 2);
	}
	unlink(txt);
	unlink(img);
	snprintf(msg, sizeof(msg), "%s.nvram", img);
	unlink(msg);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_nvram_is_tied_to_its_image();
	test_devd_format_refuses();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return ut_report("nvram_ut");
}
