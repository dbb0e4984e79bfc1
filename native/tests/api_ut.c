/*
 * Every public call round-trips through a real emulated drive, over the transport named
 * by argv[1]: "emu" (in-process) or "unix" (a smartssd-devd child). Expected values come
 * from what the test itself wrote, never from the library.
 */
#include <errno.h>
#include <stdlib.h>

#include "devtest.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ss_proto.h"
#include "ut.h"

#define BIG (1536u * 1024u) /* spans two WRITE/READ chunks */

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static void test_info(struct ss_dev *d, const char *transport)
{
	struct ss_dev_info info;
	struct ss_dev_fsstat fs;

	CHECK(!strcmp(ss_dev_transport(d), transport));
	CHECK_EQ(ss_dev_drive_info(d, &info), 0);
	CHECK_EQ(info.proto_version, SS_PROTO_VERSION);
	CHECK_EQ(info.page_size, 8192);
	CHECK_EQ(info.channels, 4);
	CHECK_EQ(info.ways, 1);
	CHECK_EQ(info.queue_depth, 32);
	CHECK(info.capacity_bytes > 0 && info.capacity_bytes <= 64ull << 20);
	CHECK(info.model[0] != '\0');
	CHECK_EQ(ss_dev_fsstat(d, &fs), 0);
	CHECK_EQ(fs.page_size, 8192);
	CHECK(fs.free_bytes > 0 && fs.free_bytes <= fs.capacity_bytes);
	CHECK(fs.max_objects > 0);
}

static void test_namespace(struct ss_dev *d)
{
	struct ss_dev_stat st;
	struct ss_dev_dirent ents[7];
	uint64_t dir, f, g, cursor;
	int seen[20] = {0}, total = 0, n;
	char path[64];

	/* create with parents; exclusive create of an existing name fails */
	CHECK_EQ(ss_dev_create(d, "/a/b/c", SS_DEV_DIR, SS_DEV_CREATE_PARENTS, &dir), 0);
	CHECK_EQ(ss_dev_create(d, "/a/b/c", SS_DEV_DIR, SS_DEV_CREATE_EXCL, NULL), -EEXIST);
	CHECK_EQ(ss_dev_last_reason(), SS_R_EXISTS);
	CHECK(strstr(ss_dev_last_message(), "/a/b/c") != NULL);
	CHECK_EQ(ss_dev_create(d, "/x/y", SS_DEV_FILE, 0, NULL), -ENOENT);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NO_SUCH_OBJECT);

	CHECK_EQ(ss_dev_lookup(d, "/a/b/c", &st), 0);
	CHECK_EQ(st.oid, dir);
	CHECK_EQ(st.type, SS_DEV_DIR);
	CHECK(!strcmp(st.name, "c"));
	CHECK_EQ(ss_dev_stat(d, dir, &st), 0);
	CHECK(!strcmp(st.name, "c"));
	CHECK_EQ(ss_dev_lookup(d, "/a/b/nope", &st), -ENOENT);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NO_SUCH_OBJECT);
	CHECK(strstr(ss_dev_last_message(), "/a/b/nope") != NULL);

	/* list with a cursor, 7 entries at a time, over 20 files */
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "/a/b/c/f%02d", i);
		CHECK_EQ(ss_dev_create(d, path, SS_DEV_FILE, SS_DEV_CREATE_EXCL, NULL), 0);
	}
	cursor = 0;
	do {
		n = ss_dev_list(d, "/a/b/c", &cursor, ents, 7);
		CHECK(n >= 0 && n <= 7);
		for (int i = 0; i < n; i++) {
			int k = atoi(ents[i].name + 1);

			CHECK(ents[i].name[0] == 'f' && k >= 0 && k < 20);
			CHECK_EQ(ents[i].type, SS_DEV_FILE);
			if (k >= 0 && k < 20)
				seen[k]++;
			total++;
		}
	} while (n > 0 && cursor != 0 && total < 100);
	CHECK_EQ(total, 20);
	for (int i = 0; i < 20; i++)
		CHECK_EQ(seen[i], 1);
	CHECK_EQ(ss_dev_stat(d, dir, &st), 0);
	CHECK_EQ(st.nchildren, 20);

	/* rename, NOREPLACE onto an existing name, into itself */
	CHECK_EQ(ss_dev_lookup(d, "/a/b/c/f00", &st), 0);
	f = st.oid;
	CHECK_EQ(ss_dev_rename(d, "/a/b/c/f00", "/a/moved", 0), 0);
	CHECK_EQ(ss_dev_lookup(d, "/a/moved", &st), 0);
	CHECK_EQ(st.oid, f);
	CHECK_EQ(ss_dev_lookup(d, "/a/b/c/f00", &st), -ENOENT);
	CHECK_EQ(ss_dev_lookup(d, "/a/b/c/f01", &st), 0);
	g = st.oid;
	CHECK_EQ(ss_dev_rename(d, "/a/b/c/f01", "/a/moved", SS_DEV_RENAME_NOREPLACE), -EEXIST);
	CHECK_EQ(ss_dev_last_reason(), SS_R_EXISTS);
	CHECK_EQ(ss_dev_rename(d, "/a/b", "/a/b/c/inside", 0), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_RENAME_INTO_SELF);
	CHECK_EQ(ss_dev_rename(d, "/a/b/c/f01", "/a/moved", 0), 0);
	CHECK_EQ(ss_dev_lookup(d, "/a/moved", &st), 0);
	CHECK_EQ(st.oid, g);

	/* remove: non-empty refused, recursive removes the subtree */
	CHECK_EQ(ss_dev_remove(d, "/a/b", 0), -ENOTEMPTY);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NOT_EMPTY);
	CHECK_EQ(ss_dev_remove(d, "/a/b", SS_DEV_REMOVE_RECURSIVE), 0);
	CHECK_EQ(ss_dev_lookup(d, "/a/b/c/f05", &st), -ENOENT);
	CHECK_EQ(ss_dev_stat(d, dir, &st), -ENOENT);
	CHECK_EQ(ss_dev_remove(d, "/a/moved", 0), 0);
	CHECK_EQ(ss_dev_remove(d, "/a", 0), 0);
}

static void test_data(struct ss_dev *d)
{
	static uint8_t wbuf[BIG], rbuf[BIG + 4096];
	struct ss_dev_extent ext[64];
	struct ss_dev_stat st;
	uint64_t oid, sectors = 0, covered = 0;
	int n;

	fill(wbuf, BIG, 7);
	CHECK_EQ(ss_dev_create(d, "/data/big", SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, wbuf, BIG, 0), (int64_t)BIG);
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	CHECK_EQ(st.size, BIG);
	memset(rbuf, 0, sizeof(rbuf));
	/* asking past the end returns what exists */
	CHECK_EQ(ss_dev_read(d, oid, 0, rbuf, sizeof(rbuf)), (int64_t)BIG);
	CHECK(memcmp(rbuf, wbuf, BIG) == 0);
	CHECK_EQ(ss_dev_read(d, oid, BIG - 10, rbuf, 100), 10);
	CHECK(memcmp(rbuf, wbuf + BIG - 10, 10) == 0);
	CHECK_EQ(ss_dev_read(d, oid, BIG + 5, rbuf, 100), 0);

	/* an overwrite in the middle, with FUA */
	fill(wbuf + 1000, 5000, 9);
	CHECK_EQ(ss_dev_write(d, oid, 1000, wbuf + 1000, 5000, SS_DEV_WRITE_FUA), 5000);
	CHECK_EQ(ss_dev_read(d, oid, 0, rbuf, BIG), (int64_t)BIG);
	CHECK(memcmp(rbuf, wbuf, BIG) == 0);

	/* extents cover the object */
	n = ss_dev_extents(d, oid, 0, BIG, ext, 64);
	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		sectors += ext[i].sectors;
		CHECK(ext[i].offset == covered);
		covered = ext[i].offset + (uint64_t)ext[i].sectors * 512;
	}
	CHECK(sectors * 512 >= BIG);

	/* truncate, times */
	CHECK_EQ(ss_dev_truncate(d, oid, 4096), 0);
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	CHECK_EQ(st.size, 4096);
	CHECK_EQ(ss_dev_read(d, oid, 0, rbuf, BIG), 4096);
	CHECK(memcmp(rbuf, wbuf, 4096) == 0);
	CHECK_EQ(ss_dev_set_times(d, oid, 1111111111000000000ull, SS_DEV_TIME_KEEP), 0);
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	CHECK(st.mtime_ns == 1111111111000000000ull);
	CHECK_EQ(ss_dev_set_times(d, oid, SS_DEV_TIME_KEEP, 2222222222000000000ull), 0);
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	CHECK(st.mtime_ns == 1111111111000000000ull);
	CHECK(st.atime_ns == 2222222222000000000ull);

	/* data ops on a directory, on no object */
	CHECK_EQ(ss_dev_lookup(d, "/data", &st), 0);
	CHECK(ss_dev_write(d, st.oid, 0, wbuf, 10, 0) < 0);
	CHECK_EQ(ss_dev_last_reason(), SS_R_IS_DIR);
	CHECK_EQ(ss_dev_flush(d), 0);
	CHECK_EQ(ss_dev_remove(d, "/data", SS_DEV_REMOVE_RECURSIVE), 0);
}

static void test_counters(struct ss_dev *d)
{
	struct ss_dev_counters a, b;
	struct ss_dev_model m1, m2;
	static uint8_t buf[64 * 1024];
	uint64_t oid;

	CHECK_EQ(ss_dev_counters(d, &a), 0);
	CHECK_EQ(ss_dev_create(d, "/cnt", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, buf, sizeof(buf), SS_DEV_WRITE_FUA), (int64_t)sizeof(buf));
	CHECK_EQ(ss_dev_flush(d), 0);
	CHECK_EQ(ss_dev_counters(d, &b), 0);
	/* 64 KiB are 8 pages of 8 KiB */
	CHECK(b.host_page_writes >= a.host_page_writes + 8);
	CHECK(b.nand_page_writes >= a.nand_page_writes + 8);
	CHECK(b.power_on_ns > a.power_on_ns);
	/* the emulator's model, in-process and through the daemon alike: one READ of
	 * 64 KiB is a SEND of a bare 64-byte header (one sector) and a RECV of the 64-byte
	 * reply header plus the data, in whole sectors */
	CHECK_EQ(ss_dev_model_counters(d, &m1), 0);
	CHECK_EQ(ss_dev_read(d, oid, 0, buf, sizeof(buf)), (int64_t)sizeof(buf));
	CHECK_EQ(ss_dev_model_counters(d, &m2), 0);
	CHECK_EQ(m2.host_commands - m1.host_commands, 2);
	CHECK_EQ(m2.link_bytes_in - m1.link_bytes_in, 512);
	CHECK_EQ(m2.link_bytes_out - m1.link_bytes_out, (64 + sizeof(buf) + 511) / 512 * 512);
	CHECK(m2.now_ns > m1.now_ns);
	CHECK(m2.host_now_ns > m1.host_now_ns && m2.host_now_ns <= m2.now_ns);
	/* the drive's buffer (hbm, the default) still holds the pages just written: the READ
	 * reads no flash */
	CHECK_EQ(m2.page_reads, m1.page_reads);
	CHECK(m2.energy_total_nj > m1.energy_total_nj);
	CHECK_EQ(m2.energy_total_nj, m2.energy_nand_read_nj + m2.energy_nand_program_nj +
				     m2.energy_nand_erase_nj + m2.energy_link_nj +
				     m2.energy_isp_nj + m2.energy_idle_nj);
	CHECK_EQ(ss_dev_model_counters(d, NULL), -EINVAL);
	CHECK_EQ(ss_dev_remove(d, "/cnt", 0), 0);
}

#define LINES 3000

static void grep_spec(struct ss_dev_tasklet_spec *spec, uint64_t out)
{
	memset(spec, 0, sizeof(*spec));
	spec->tasklet_id = SS_BT_GREP;
	spec->mem_budget = 64 * 1024;
	spec->output_oid = out;
	spec->layout.kind = 2; /* text */
	spec->layout.line_delim = '\n';
	spec->layout.field_sep = ' ';
	spec->layout.record_size = 4096;
}

static void test_tasklets(struct ss_dev *d)
{
	static char text[LINES * 40];
	uint8_t params[4 + 6] = {0, 0, 6, 0, 'n', 'e', 'e', 'd', 'l', 'e'};
	uint8_t outbuf[4096];
	struct ss_dev_tasklet_spec spec;
	struct ss_dev_progress p;
	struct ss_dev_input in;
	struct ss_dev_stat st;
	uint64_t file, out, inst;
	size_t len = 0;
	int matches = 0;
	int64_t n;

	for (int i = 0; i < LINES; i++) {
		int hit = i % 7 == 3;

		matches += hit;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "line %05d %s tail\n", i,
					hit ? "needle" : "hay");
	}
	CHECK_EQ(ss_dev_create(d, "/logs/a.txt", SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &file), 0);
	CHECK_EQ(ss_dev_write(d, file, 0, text, len, 0), (int64_t)len);
	CHECK_EQ(ss_dev_create_output(d, "/out/grep", SS_DEV_CREATE_PARENTS, &out), 0);
	CHECK_EQ(ss_dev_stat(d, out, &st), 0);
	CHECK_EQ(st.type, SS_DEV_OUTPUT);

	/* count the matching lines in the drive */
	grep_spec(&spec, out);
	CHECK_EQ(ss_dev_tasklet_create(d, &spec, params, sizeof(params), &inst), 0);
	CHECK_EQ(ss_dev_tasklet_poll(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_CREATED);
	in.oid = file;
	in.offset = 0;
	in.length = UINT64_MAX;
	CHECK_EQ(ss_dev_tasklet_execute(d, inst, &in, 1), 0);
	CHECK_EQ(devtest_wait_tasklet(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_DONE);
	CHECK_EQ(p.error, 0);
	CHECK_EQ(p.pages_done, p.pages_total);
	CHECK_EQ(p.pages_total, (len + 8191) / 8192);
	CHECK_EQ(p.output_bytes, sizeof(struct ss_bt_trailer));
	CHECK(p.finished_ns >= p.started_ns);
	memset(&p, 0, sizeof(p));
	n = ss_dev_tasklet_read(d, inst, 0, outbuf, sizeof(outbuf), &p);
	CHECK_EQ(n, sizeof(struct ss_bt_trailer));
	CHECK_EQ(p.state, SS_DEV_TASKLET_DONE);
	if (n == sizeof(struct ss_bt_trailer)) {
		/* the trailer, little-endian: magic, id, records_in, items_out, aux */
		CHECK_EQ(outbuf[0] | outbuf[1] << 8 | outbuf[2] << 16 | (uint32_t)outbuf[3] << 24,
			 SS_BT_TRAILER_MAGIC);
		CHECK_EQ(outbuf[4], SS_BT_GREP);
		CHECK_EQ(outbuf[8] | outbuf[9] << 8, LINES);
		CHECK_EQ(outbuf[24] | outbuf[25] << 8, matches);
	}
	/* reading past the output returns nothing, with the progress */
	CHECK_EQ(ss_dev_tasklet_read(d, inst, 4096, outbuf, sizeof(outbuf), &p), 0);
	CHECK_EQ(ss_dev_tasklet_destroy(d, inst), 0);
	CHECK_EQ(ss_dev_tasklet_poll(d, inst, &p), -ENOENT);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NO_SUCH_OBJECT);

	/* emitting the matching lines: the output object holds them */
	params[0] = SS_BT_GREP_EMIT;
	CHECK_EQ(ss_dev_tasklet_create(d, &spec, params, sizeof(params), &inst), 0);
	CHECK_EQ(ss_dev_tasklet_execute(d, inst, &in, 1), 0);
	CHECK_EQ(devtest_wait_tasklet(d, inst, &p), 0);
	CHECK_EQ(p.state, SS_DEV_TASKLET_DONE);
	CHECK_EQ(p.output_bytes, (uint64_t)matches * 23 + sizeof(struct ss_bt_trailer));
	n = ss_dev_tasklet_read(d, inst, 0, outbuf, 46, &p);
	CHECK_EQ(n, 46);
	CHECK(memcmp(outbuf, "line 00003 needle tail\nline 00010 needle tail\n", 46) == 0);
	CHECK_EQ(ss_dev_tasklet_destroy(d, inst), 0);

	CHECK_EQ(ss_dev_remove(d, "/logs", SS_DEV_REMOVE_RECURSIVE), 0);
	CHECK_EQ(ss_dev_remove(d, "/out", SS_DEV_REMOVE_RECURSIVE), 0);
}

static void test_bad_args(struct ss_dev *d)
{
	struct ss_dev_stat st;

	CHECK_EQ(ss_dev_lookup(d, "relative/path", &st), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_BAD_PATH);
	CHECK(strstr(ss_dev_last_message(), "relative/path") != NULL);
	CHECK_EQ(ss_dev_lookup(d, NULL, &st), -EINVAL);
	CHECK_EQ(ss_dev_stat(d, 0, &st), -EINVAL);
	CHECK_EQ(ss_dev_remove(d, "/", 0), -EBUSY);
	CHECK_EQ(ss_dev_last_reason(), SS_R_ROOT);
}

static void test_open_errors(void)
{
	struct ss_dev *d;

	CHECK_EQ(ss_dev_open("nocolon", NULL, &d), -EINVAL);
	CHECK(strstr(ss_dev_last_message(), "scheme") != NULL);
	CHECK_EQ(ss_dev_open("ftp:/x", NULL, &d), -EINVAL);
	CHECK(strstr(ss_dev_last_message(), "ftp") != NULL);
	CHECK(ss_dev_open("emu:/nonexistent/dir/drive.img", NULL, &d) < 0);
	CHECK(strstr(ss_dev_last_message(), "/nonexistent/dir/drive.img") != NULL);
	CHECK(ss_dev_open("unix:/nonexistent/devd.sock", NULL, &d) < 0);
	CHECK(strstr(ss_dev_last_message(), "/nonexistent/devd.sock") != NULL);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	int unix_mode = !strcmp(transport, "unix");
	struct devtest t;
	struct ss_dev *d = NULL, *d2 = NULL;

	if (devtest_format(&t, 0))
		return 1;
	if (unix_mode && devtest_start_daemon(&t)) {
		devtest_cleanup(&t);
		return 1;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d) {
		fprintf(stderr, "open %s: %s\n", t.uri, ss_dev_last_message());
		devtest_cleanup(&t);
		return 1;
	}
	if (!unix_mode) {
		/* the image is this process's: a second opener is told to use the daemon */
		CHECK(ss_dev_open(t.uri, NULL, &d2) < 0);
		CHECK(strstr(ss_dev_last_message(), "daemon") != NULL);
	} else {
		/* many handles share one daemon */
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d2), 0);
		CHECK_EQ(ss_dev_close(d2), 0);
	}
	test_info(d, transport);
	test_namespace(d);
	test_data(d);
	test_counters(d);
	test_tasklets(d);
	test_bad_args(d);
	test_open_errors();
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
	return ut_report(unix_mode ? "api_ut unix" : "api_ut emu");
}
