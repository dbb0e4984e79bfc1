/*
 * Named attributes through libsmartssd (ss_dev_*_attr), in-process (argv[1] "emu") or
 * through a smartssd-devd child ("unix"): set, get, list, remove, their flags, the limits
 * named in the messages, and that a flushed set survives a restart of the drive.
 */
#include "devtest.h"
#include "ut.h"

static void test_attrs(struct ss_dev *d)
{
	static char big[SS_DEV_ATTRS_MAX + 1];
	char name[SS_DEV_ATTR_NAME_MAX + 2], buf[SS_DEV_ATTRS_MAX];
	uint64_t oid;

	CHECK_EQ(ss_dev_create(d, "/data", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_list_attrs(d, oid, buf, sizeof(buf)), 0);
	CHECK_EQ(ss_dev_set_attr(d, oid, "user.smartssd.layout", "wc98:20", 7, 0), 0);
	CHECK_EQ(ss_dev_set_attr(d, oid, "user.empty", NULL, 0, SS_DEV_ATTR_CREATE), 0);
	CHECK_EQ(ss_dev_set_attr(d, oid, "user.empty", "x", 1, SS_DEV_ATTR_CREATE), -EEXIST);
	CHECK_EQ(ss_dev_set_attr(d, oid, "user.none", "x", 1, SS_DEV_ATTR_REPLACE), -ENODATA);
	CHECK(strstr(ss_dev_last_message(), "NO_SUCH_ATTR") != NULL ||
	      strstr(ss_dev_last_message(), "attribute") != NULL);
	CHECK_EQ(ss_dev_get_attr(d, oid, "user.smartssd.layout", buf, sizeof(buf)), 7);
	CHECK(memcmp(buf, "wc98:20", 7) == 0);
	CHECK_EQ(ss_dev_get_attr(d, oid, "user.smartssd.layout", NULL, 0), 7);
	CHECK_EQ(ss_dev_get_attr(d, oid, "user.empty", buf, sizeof(buf)), 0);
	CHECK_EQ(ss_dev_get_attr(d, oid, "user.none", buf, sizeof(buf)), -ENODATA);
	CHECK_EQ(ss_dev_list_attrs(d, oid, buf, sizeof(buf)), 32);
	CHECK(memcmp(buf, "user.smartssd.layout\0user.empty\0", 32) == 0);
	CHECK_EQ(ss_dev_remove_attr(d, oid, "user.empty"), 0);
	CHECK_EQ(ss_dev_remove_attr(d, oid, "user.empty"), -ENODATA);

	memset(name, 'n', sizeof(name));
	name[SS_DEV_ATTR_NAME_MAX + 1] = '\0';
	CHECK_EQ(ss_dev_set_attr(d, oid, name, "v", 1, 0), -ENAMETOOLONG);
	CHECK(strstr(ss_dev_last_message(), "at most 255") != NULL);
	CHECK_EQ(ss_dev_set_attr(d, oid, "", "v", 1, 0), -EINVAL);
	CHECK_EQ(ss_dev_set_attr(d, oid, "big", big, SS_DEV_ATTRS_MAX + 1, 0), -E2BIG);
	CHECK(strstr(ss_dev_last_message(), "1024") != NULL);
	/* within the value limit, over the object's: the drive refuses it */
	CHECK_EQ(ss_dev_set_attr(d, oid, "big", big, SS_DEV_ATTRS_MAX - 10, 0), -E2BIG);
	CHECK(strstr(ss_dev_last_message(), "1024") != NULL);
	CHECK_EQ(ss_dev_get_attr(d, oid + 1000, "user.x", buf, sizeof(buf)), -ENOENT);
	CHECK_EQ(ss_dev_flush(d), 0);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	int unix_mode = !strcmp(transport, "unix");
	struct devtest t;
	struct ss_dev *d = NULL;
	char buf[64];
	uint64_t oid = 0;

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
	test_attrs(d);
	CHECK_EQ(ss_dev_close(d), 0);
	/* a restart of the drive (the daemon, or the in-process image) keeps the flushed set */
	if (unix_mode) {
		devtest_kill_daemon(&t, SIGTERM);
		CHECK_EQ(devtest_start_daemon(&t), 0);
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (d) {
		struct ss_dev_stat st;

		CHECK_EQ(ss_dev_lookup(d, "/data", &st), 0);
		oid = st.oid;
		CHECK_EQ(ss_dev_get_attr(d, oid, "user.smartssd.layout", buf, sizeof(buf)), 7);
		CHECK(memcmp(buf, "wc98:20", 7) == 0);
		CHECK_EQ(ss_dev_list_attrs(d, oid, buf, sizeof(buf)), 21);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	devtest_cleanup(&t);
	return ut_report("host_attr_ut");
}
