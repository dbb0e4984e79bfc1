/*
 * ss_dev_format: emu: images only, options from the URI, capacity rounded up to whole
 * blocks on every die, profiles by name; what the formatted drive then reports is checked
 * against the profile's numbers (PROFILES: firmware-tasklets/emu/profiles).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "smartssd/smartssd.h"
#include "ut.h"

#define MIB (1024ull * 1024ull)
/* kang-smartssd: 16 channels x 4 ways x 128 pages x 8 KiB = 64 MiB per block on every die */
#define KANG_ROW (16ull * 4 * 128 * 8192)

static char dir[] = "/tmp/ss_format_XXXXXX";
static char uri[256];

static uint64_t capacity_of(const char *profile, uint64_t raw, struct ss_dev_info *info)
{
	char err[256];
	struct ss_dev *d = NULL;

	CHECK_EQ(ss_dev_format(uri, profile, raw, err, sizeof(err)), 0);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (!d)
		return 0;
	CHECK_EQ(ss_dev_drive_info(d, info), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	return info->capacity_bytes;
}

static void test_capacity_rounds_to_whole_blocks(void)
{
	struct ss_dev_info a, b, c;
	uint64_t four = capacity_of(NULL, 4 * KANG_ROW, &a);

	/* anything above three block rows takes four */
	CHECK_EQ(capacity_of("", 3 * KANG_ROW + 1, &b), four);
	CHECK(capacity_of("kang-smartssd", 5 * KANG_ROW, &c) > four);
	CHECK_EQ(a.channels, 16);
	CHECK_EQ(a.ways, 4);
	CHECK_EQ(a.page_size, 8192);
	/* the host sees less than the raw flash: over-provisioning and metadata */
	CHECK(four > 0 && four < 4 * KANG_ROW);
	/* below one block on every die: refused, naming the minimum */
	{
		char err[256];

		CHECK_EQ(ss_dev_format(uri, NULL, 16ull << 20, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "minimum of 67108864 bytes (64 MiB") != NULL);
		CHECK(strstr(err, "64 dies") != NULL);
	}
}

static void test_profile_and_options(void)
{
	struct ss_dev_info info;
	struct ss_dev_fsstat st;
	struct ss_dev *d = NULL;
	char u[300], err[256];

	/* jasmine-openssd: 4 channels x 8 banks, 32 KiB virtual pages */
	capacity_of("jasmine-openssd", 0, &info);
	CHECK_EQ(info.channels, 4);
	CHECK_EQ(info.ways, 8);
	CHECK_EQ(info.page_size, 32768);
	/* max_objects from the URI; the open options are accepted and change nothing */
	snprintf(u, sizeof(u), "%s?max_objects=40&time=realtime", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d) {
		CHECK_EQ(ss_dev_fsstat(d, &st), 0);
		/* a table of 40, less the firmware's hidden lifetime record */
		CHECK_EQ(st.max_objects, 39);
		/* an image in use cannot be formatted under its user */
		CHECK_EQ(ss_dev_format(uri, NULL, 4 * KANG_ROW, err, sizeof(err)), -EBUSY);
		CHECK(strstr(err, "in use") != NULL);
		CHECK_EQ(ss_dev_close(d), 0);
	}
}

/* The drive's DRAM buffer from the URI: the policy and size hold across a remount; a bad
 * policy, size or threshold is refused with a message naming it. */
static void test_buffer_options(void)
{
	struct ss_dev_counters c;
	struct ss_dev_info info;
	struct ss_dev *d = NULL;
	char u[300], err[512];

	snprintf(u, sizeof(u), "%s?buffer=bplru&buffer_size=%u", uri, 2u << 20);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	for (int round = 0; round < 2; round++) {   /* as formatted, then after a remount */
		d = NULL;
		CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
		if (!d) {
			return;
		}
		CHECK_EQ(ss_dev_drive_info(d, &info), 0);
		CHECK_EQ(ss_dev_counters(d, &c), 0);
		CHECK_EQ(c.buffer_policy, 3);   /* enum ss_buf_policy: bplru */
		CHECK_EQ(c.buffer_pages, (2u << 20) / info.page_size);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	/* changed at mount: from this mount on, and kept */
	snprintf(u, sizeof(u), "%s?buffer=fab&buffer_size=%u", uri, 3u << 20);
	for (int round = 0; round < 2; round++) {
		d = NULL;
		CHECK_EQ(ss_dev_open(round == 0 ? u : uri, NULL, &d), 0);
		if (!d) {
			return;
		}
		CHECK_EQ(ss_dev_counters(d, &c), 0);
		CHECK_EQ(c.buffer_policy, 2);   /* fab */
		CHECK_EQ(c.buffer_pages, (3u << 20) / info.page_size);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	snprintf(u, sizeof(u), "%s?buffer=nope", uri);
	CHECK(ss_dev_open(u, NULL, &d) < 0);
	CHECK(strstr(ss_dev_last_message(), "policy 'nope'") != NULL);
	/* the default: hbm, 4 MiB */
	CHECK_EQ(ss_dev_format(uri, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d) {
		CHECK_EQ(ss_dev_counters(d, &c), 0);
		CHECK_EQ(c.buffer_policy, 5);
		CHECK_EQ(c.buffer_pages, (4u << 20) / info.page_size);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	snprintf(u, sizeof(u), "%s?buffer=lru2", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "policy 'lru2'") != NULL);
	snprintf(u, sizeof(u), "%s?buffer=fab&buffer_size=12345", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "12345 bytes") != NULL);
	snprintf(u, sizeof(u), "%s?buffer_size=lots", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "buffer_size must be") != NULL);
}

/* The solid-state cache's share and the DRAM buffer from one URI, in either order: both
 * hold as formatted and after a remount; a bad share is refused naming cache_share. */
static void test_cache_and_buffer_options(void)
{
	static const struct {
		const char *opts;
		uint32_t share_permille;   /* 0: no cache (block_size 0) */
		uint32_t policy;           /* enum ss_buf_policy */
		uint64_t buffer_bytes;     /* 0: the default, 4 MiB */
	} rows[] = {
		{ "?cache_share=25&buffer=lru&buffer_size=2097152", 250, 1, 2 * MIB },
		{ "?buffer=bplru&cache_share=default", 250, 3, 0 },
		{ "?buffer_size=8388608&cache_share=50&buffer_threshold=3", 500, 5, 8 * MIB },
		{ "?cache_share=0&buffer=none", 0, 0, 0 },
	};
	struct ss_dev_cache_info ci;
	struct ss_dev_counters c;
	struct ss_dev_info info;
	char u[300], err[512];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(u, sizeof(u), "%s%s", uri, rows[i].opts);
		CHECK_EQ(ss_dev_format(u, NULL, 8 * KANG_ROW, err, sizeof(err)), 0);
		for (int round = 0; round < 2; round++) {   /* as formatted, then remounted */
			struct ss_dev *d = NULL;
			uint64_t bytes = rows[i].buffer_bytes ? rows[i].buffer_bytes : 4 * MIB;

			CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
			if (!d) {
				return;
			}
			CHECK_EQ(ss_dev_drive_info(d, &info), 0);
			CHECK_EQ(ss_dev_counters(d, &c), 0);
			CHECK_EQ(ss_dev_cache_info(d, &ci), 0);
			CHECK_EQ(c.buffer_policy, rows[i].policy);
			CHECK_EQ(c.buffer_pages, rows[i].policy ? bytes / info.page_size : 0);
			CHECK_EQ(ci.share_permille, rows[i].share_permille);
			CHECK(rows[i].share_permille ? ci.block_size > 0 : ci.block_size == 0);
			CHECK_EQ(ss_dev_close(d), 0);
		}
	}
	snprintf(u, sizeof(u), "%s?buffer=lru&cache_share=91", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 8 * KANG_ROW, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "cache_share must be a percentage") != NULL);
	snprintf(u, sizeof(u), "%s?cache_share=", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 8 * KANG_ROW, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "cache_share must be a percentage") != NULL);
}

static void test_refusals(void)
{
	static const struct {
		const char *uri, *profile;
		int rc;
		const char *msg;
	} rows[] = {
		{ "unix:/run/smartssd/dev0.sock", NULL, -ENOTSUP, "smartssd-devd --format" },
		{ "sg:/dev/sdb", NULL, -ENOTSUP, "vendor" },
		{ "/tmp/x.img", NULL, -EINVAL, "not emu:PATH" },
		{ "emu:", NULL, -EINVAL, "no image path" },
		{ "emu:/tmp/x.img?colour=red", NULL, -EINVAL, "unknown option 'colour=red'" },
		{ "emu:/tmp/x.img?max_objects=lots", NULL, -EINVAL, "max_objects must be" },
		{ "emu:/tmp/x.img?max_objects=4294967296", NULL, -EINVAL, "max_objects must be" },
		{ NULL, NULL, -EINVAL, "no device URI" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc = ss_dev_format(rows[i].uri, rows[i].profile, 0, err, sizeof(err));

		if (rc != rows[i].rc || !strstr(err, rows[i].msg) ||
		    strcmp(err, ss_dev_last_message()) != 0) {
			fprintf(stderr, "%s: rc %d (want %d), message '%s' (want '%s')\n",
				rows[i].uri ? rows[i].uri : "NULL", rc, rows[i].rc, err, rows[i].msg);
			ut_failures++;
		}
	}
	/* an unknown profile: named in the message, and nothing is left half-made */
	CHECK_EQ(ss_dev_format(uri, "no-such-profile", 0, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "no-such-profile") != NULL);
	/* a NULL err buffer is fine */
	CHECK_EQ(ss_dev_format("sg:/dev/sdb", NULL, 0, NULL, 0), -ENOTSUP);
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

/* Format overwrites only what loses nothing: a text file and an image holding an object
 * are refused, each named, and left as they were; force=1 formats them. */
static void test_refuses_what_it_would_destroy(void)
{
	static const char notes[] = "meeting notes: nothing here is an image\n";
	char path[200], u[300], err[512];
	struct ss_dev_fsstat st;
	struct ss_dev *d = NULL;
	uint64_t oid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(notes, f);
	fclose(f);
	snprintf(u, sizeof(u), "emu:%s", path);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), -EEXIST);
	CHECK(strstr(err, "is not a smartssd image") != NULL);
	CHECK(strstr(err, "--force") != NULL);
	CHECK(file_is(path, notes));
	snprintf(u, sizeof(u), "emu:%s?force=1", path);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	CHECK(!file_is(path, notes));

	/* an image holding an object */
	CHECK_EQ(ss_dev_format(uri, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(ss_dev_create(d, "/kept", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, notes, sizeof(notes), 0), (int64_t)sizeof(notes));
	CHECK_EQ(ss_dev_close(d), 0);
	CHECK_EQ(ss_dev_format(uri, NULL, 4 * KANG_ROW, err, sizeof(err)), -EEXIST);
	CHECK(strstr(err, "holds 1 object") != NULL);
	d = NULL;
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(ss_dev_fsstat(d, &st), 0);
	CHECK_EQ(st.objects, 2);   /* the root directory and /kept */
	CHECK_EQ(ss_dev_close(d), 0);
	snprintf(u, sizeof(u), "%s?force=1", uri);
	CHECK_EQ(ss_dev_format(u, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
	d = NULL;
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(ss_dev_fsstat(d, &st), 0);
	CHECK_EQ(st.objects, 1);   /* the root directory alone */
	CHECK_EQ(ss_dev_close(d), 0);
	/* an empty image formats again without force */
	CHECK_EQ(ss_dev_format(uri, NULL, 4 * KANG_ROW, err, sizeof(err)), 0);
}

static void test_profile_names(void)
{
	int kang = 0, n = 0;

	for (size_t i = 0; ss_dev_profile_name(i) != NULL && i < 64; i++, n++)
		kang |= !strcmp(ss_dev_profile_name(i), "kang-smartssd");
	CHECK(kang);
	CHECK(n >= 3);
	CHECK(ss_dev_profile_name((size_t)n) == NULL);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(uri, sizeof(uri), "emu:%s/d.img", dir);
	test_capacity_rounds_to_whole_blocks();
	test_profile_and_options();
	test_buffer_options();
	test_cache_and_buffer_options();
	test_refusals();
	test_refuses_what_it_would_destroy();
	test_profile_names();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return ut_report("format_ut");
}
