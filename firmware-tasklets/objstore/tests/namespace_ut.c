/* Namespace: every documented error path, paths, listing, and names surviving a remount. */
#include "os_test.h"

static struct os_env env;

static ss_oid_t mk(ss_oid_t dir, const char *name, enum ss_obj_type t)
{
	ss_oid_t oid = 0;

	REQUIRE(ss_os_create(env.os, dir, name, (uint32_t)strlen(name), t, SS_OS_EXCL, 100, &oid) == 0);
	return oid;
}

static int path(const char *p, ss_oid_t *oid)
{
	return ss_os_lookup_path(env.os, p, (uint32_t)strlen(p), oid);
}

static void test_names(void)
{
	char longname[SS_NAME_MAX + 2];
	ss_oid_t oid;
	static const struct {
		const char *name;
		uint32_t len;
		int rc;
	} cases[] = {
		{ "", 0, -SS_EINVAL },
		{ ".", 1, -SS_EINVAL },
		{ "..", 2, -SS_EINVAL },
		{ "a/b", 3, -SS_EINVAL },
		{ "a\0b", 3, -SS_EINVAL },
		{ "...", 3, 0 },
		{ ".hidden", 7, 0 },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		int rc = ss_os_create(env.os, SS_OID_ROOT, cases[i].name, cases[i].len, SS_OBJ_FILE,
				      SS_OS_EXCL, 1, &oid);

		CHECK_EQ(rc, cases[i].rc);
	}
	memset(longname, 'n', sizeof(longname));
	CHECK_EQ(ss_os_create(env.os, SS_OID_ROOT, longname, SS_NAME_MAX + 1, SS_OBJ_FILE, 0, 1, &oid),
		 -SS_ENAMETOOLONG);
	CHECK_EQ(ss_os_create(env.os, SS_OID_ROOT, longname, SS_NAME_MAX, SS_OBJ_FILE, 0, 1, &oid), 0);
	CHECK_EQ(ss_os_lookup(env.os, SS_OID_ROOT, longname, SS_NAME_MAX + 1, &oid), -SS_ENAMETOOLONG);
	CHECK_EQ(ss_os_create(env.os, SS_OID_ROOT, "t", 1, (enum ss_obj_type)9, 0, 1, &oid), -SS_EINVAL);
}

static void test_create_errors(void)
{
	ss_oid_t d = mk(SS_OID_ROOT, "cdir", SS_OBJ_DIR), f = mk(d, "f", SS_OBJ_FILE), oid;

	CHECK_EQ(ss_os_create(env.os, d, "f", 1, SS_OBJ_FILE, SS_OS_EXCL, 1, &oid), -SS_EEXIST);
	oid = 0;
	CHECK_EQ(ss_os_create(env.os, d, "f", 1, SS_OBJ_FILE, 0, 1, &oid), 0);
	CHECK_EQ(oid, f);
	CHECK_EQ(ss_os_create(env.os, d, "f", 1, SS_OBJ_DIR, 0, 1, &oid), -SS_EEXIST);
	CHECK_EQ(ss_os_create(env.os, f, "x", 1, SS_OBJ_FILE, 0, 1, &oid), -SS_ENOTDIR);
	CHECK_EQ(ss_os_create(env.os, 0x7777700000005ull, "x", 1, SS_OBJ_FILE, 0, 1, &oid), -SS_ENOENT);
	CHECK_EQ(ss_os_lookup(env.os, f, "x", 1, &oid), -SS_ENOTDIR);
	CHECK_EQ(ss_os_lookup(env.os, d, "nope", 4, &oid), -SS_ENOENT);
}

static void test_paths(void)
{
	ss_oid_t a = mk(SS_OID_ROOT, "pa", SS_OBJ_DIR), b = mk(a, "pb", SS_OBJ_DIR);
	ss_oid_t f = mk(b, "pf", SS_OBJ_FILE), oid = 0;
	char p[600];

	CHECK_EQ(path("/", &oid), 0);
	CHECK_EQ(oid, SS_OID_ROOT);
	CHECK_EQ(path("/pa/pb/pf", &oid), 0);
	CHECK_EQ(oid, f);
	CHECK_EQ(path("/pa/pb", &oid), 0);
	CHECK_EQ(oid, b);
	static const struct {
		const char *p;
		int rc;
	} cases[] = {
		{ "", -SS_EINVAL },           { "pa", -SS_EINVAL },       { "//", -SS_EINVAL },
		{ "/pa//pb", -SS_EINVAL },    { "/pa/", -SS_EINVAL },     { "/pa/./pb", -SS_EINVAL },
		{ "/pa/../pa", -SS_EINVAL },  { "/pa/pb/pf/x", -SS_ENOTDIR },
		{ "/pa/zz/pf", -SS_ENOENT },  { "/nope", -SS_ENOENT },
		{ "/nope/..", -SS_EINVAL },
	};
	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		int rc = path(cases[i].p, &oid);

		if (rc != cases[i].rc) {
			fprintf(stderr, "path '%s'\n", cases[i].p);
		}
		CHECK_EQ(rc, cases[i].rc);
	}
	CHECK_EQ(ss_os_lookup_path(env.os, "/pa\0b", 5, &oid), -SS_EINVAL);
	snprintf(p, sizeof(p), "/pa/%0300d", 7);
	CHECK_EQ(path(p, &oid), -SS_ENAMETOOLONG);
}

static void test_remove_errors(void)
{
	ss_oid_t d = mk(SS_OID_ROOT, "rdir", SS_OBJ_DIR), f = mk(d, "rf", SS_OBJ_FILE), oid;

	CHECK_EQ(ss_os_remove(env.os, SS_OID_ROOT), -SS_EBUSY);
	CHECK_EQ(ss_os_remove(env.os, d), -SS_ENOTEMPTY);
	CHECK_EQ(ss_os_remove(env.os, f), 0);
	CHECK_EQ(ss_os_remove(env.os, f), -SS_ENOENT);
	CHECK_EQ(ss_os_lookup(env.os, d, "rf", 2, &oid), -SS_ENOENT);
	CHECK_EQ(ss_os_remove(env.os, d), 0);
	/* A new object in a reused slot never answers to the old oid. */
	ss_oid_t n = mk(SS_OID_ROOT, "rnew", SS_OBJ_FILE);
	struct ss_obj_stat st;

	CHECK(n != f && n != d);
	CHECK_EQ(ss_os_stat(env.os, f, &st), -SS_ENOENT);
	CHECK_EQ(ss_os_stat(env.os, d, &st), -SS_ENOENT);
	CHECK_EQ(ss_os_remove(env.os, n), 0);
}

static void test_rename_errors(void)
{
	ss_oid_t a = mk(SS_OID_ROOT, "ra", SS_OBJ_DIR), b = mk(a, "rb", SS_OBJ_DIR);
	ss_oid_t c = mk(b, "rc", SS_OBJ_DIR), f = mk(a, "f1", SS_OBJ_FILE);
	ss_oid_t g = mk(a, "f2", SS_OBJ_FILE), e = mk(SS_OID_ROOT, "re", SS_OBJ_DIR), oid;
	struct ss_obj_stat st;
	uint32_t n;

	CHECK_EQ(ss_os_rename(env.os, SS_OID_ROOT, a, "x", 1, 0, 1), -SS_EBUSY);
	CHECK_EQ(ss_os_rename(env.os, a, a, "x", 1, 0, 1), -SS_EINVAL);
	CHECK_EQ(ss_os_rename(env.os, a, c, "x", 1, 0, 1), -SS_EINVAL);
	CHECK_EQ(ss_os_rename(env.os, b, c, "x", 1, 0, 1), -SS_EINVAL);
	CHECK_EQ(ss_os_rename(env.os, f, g, "x", 1, 0, 1), -SS_ENOTDIR);
	CHECK_EQ(ss_os_rename(env.os, 0x12300000009ull, a, "x", 1, 0, 1), -SS_ENOENT);
	CHECK_EQ(ss_os_rename(env.os, f, 0x12300000009ull, "x", 1, 0, 1), -SS_ENOENT);
	CHECK_EQ(ss_os_rename(env.os, f, a, "..", 2, 0, 1), -SS_EINVAL);
	CHECK_EQ(ss_os_rename(env.os, f, a, "", 0, 0, 1), -SS_EINVAL);
	CHECK_EQ(ss_os_rename(env.os, f, a, "f2", 2, SS_OS_NOREPLACE, 1), -SS_EEXIST);
	CHECK_EQ(ss_os_rename(env.os, f, a, "rb", 2, 0, 1), -SS_EISDIR);
	CHECK_EQ(ss_os_rename(env.os, c, a, "f2", 2, 0, 1), -SS_ENOTDIR);
	CHECK_EQ(ss_os_rename(env.os, e, a, "rb", 2, 0, 1), -SS_EEXIST);
	CHECK_EQ(ss_os_rename(env.os, f, a, "f1", 2, 0, 1), 0);  /* onto itself */
	/* Replace: f takes g's name, g is gone, a has one entry fewer. */
	REQUIRE(ss_os_stat(env.os, a, &st) == 0);
	n = st.nchildren;
	CHECK_EQ(ss_os_rename(env.os, f, a, "f2", 2, 0, 1), 0);
	CHECK_EQ(ss_os_lookup(env.os, a, "f2", 2, &oid), 0);
	CHECK_EQ(oid, f);
	CHECK_EQ(ss_os_lookup(env.os, a, "f1", 2, &oid), -SS_ENOENT);
	CHECK_EQ(ss_os_stat(env.os, g, &st), -SS_ENOENT);
	REQUIRE(ss_os_stat(env.os, a, &st) == 0);
	CHECK_EQ(st.nchildren, n - 1);
	/* Moving a directory elsewhere keeps its subtree. */
	CHECK_EQ(ss_os_rename(env.os, b, e, "moved", 5, 0, 1), 0);
	CHECK_EQ(path("/re/moved/rc", &oid), 0);
	CHECK_EQ(oid, c);
	CHECK_EQ(ss_os_stat(env.os, b, &st), 0);
	CHECK_EQ(st.parent, e);
}

static void test_wrong_type(void)
{
	ss_oid_t d = mk(SS_OID_ROOT, "wd", SS_OBJ_DIR), f = mk(SS_OID_ROOT, "wf", SS_OBJ_FILE);
	uint8_t buf[16];
	uint32_t nread = 7;
	uint64_t cursor = 0;
	struct ss_dirent de;
	struct ss_extent ex;

	CHECK_EQ(ss_os_write(env.os, d, 0, "x", 1, 0, 1), -SS_EISDIR);
	CHECK_EQ(ss_os_read(env.os, d, 0, buf, 1, &nread), -SS_EISDIR);
	CHECK_EQ(ss_os_truncate(env.os, d, 0, 1), -SS_EISDIR);
	CHECK_EQ(ss_os_extents(env.os, d, 0, 1, &ex, 1), -SS_EISDIR);
	CHECK_EQ(ss_os_write(env.os, 0x4400000003ull, 0, "x", 1, 0, 1), -SS_ENOENT);
	CHECK_EQ(ss_os_read(env.os, 0x4400000003ull, 0, buf, 1, &nread), -SS_ENOENT);
	CHECK_EQ(ss_os_list(env.os, f, &cursor, &de, 1), -SS_ENOTDIR);
	CHECK_EQ(ss_os_list(env.os, 0x4400000003ull, &cursor, &de, 1), -SS_ENOENT);
	CHECK_EQ(ss_os_write(env.os, f, UINT64_MAX - 2, "xyz", 3, 0, 1), -SS_EFBIG);
	CHECK_EQ(ss_os_set_times(env.os, 0x4400000003ull, 1, 2), -SS_ENOENT);
}

static void test_list_cursor(void)
{
	ss_oid_t d = mk(SS_OID_ROOT, "ld", SS_OBJ_DIR);
	char seen[40] = { 0 };
	struct ss_dirent de[3];
	uint64_t cursor = 0;
	int n, total = 0;

	for (int i = 0; i < 40; i++) {
		char nm[16];

		snprintf(nm, sizeof(nm), "e%02d", i);
		mk(d, nm, i % 3 == 0 ? SS_OBJ_DIR : SS_OBJ_FILE);
	}
	while ((n = ss_os_list(env.os, d, &cursor, de, 3)) > 0) {
		for (int i = 0; i < n; i++) {
			int k = atoi(de[i].name + 1);

			CHECK(k >= 0 && k < 40 && !seen[k]);
			CHECK_EQ(de[i].type, k % 3 == 0 ? SS_OBJ_DIR : SS_OBJ_FILE);
			seen[k] = 1;
			total++;
		}
	}
	CHECK_EQ(n, 0);
	CHECK_EQ(total, 40);
	/* Removing entries already listed does not disturb the rest of a listing. */
	cursor = 0;
	n = ss_os_list(env.os, d, &cursor, de, 3);
	CHECK_EQ(n, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(ss_os_remove(env.os, de[i].oid), 0);
	}
	total = 3;
	while ((n = ss_os_list(env.os, d, &cursor, de, 3)) > 0) {
		total += n;
	}
	CHECK_EQ(total, 40);
}

static void test_survives_remount(void)
{
	ss_oid_t oid, want;
	struct ss_obj_stat st;

	REQUIRE(path("/re/moved/rc", &want) == 0);
	CHECK_EQ(ss_os_set_times(env.os, want, 1234, 5678), 0);
	os_env_reopen(&env, 1);
	CHECK_EQ(path("/re/moved/rc", &oid), 0);
	CHECK_EQ(oid, want);
	CHECK_EQ(ss_os_stat(env.os, oid, &st), 0);
	CHECK_EQ(st.mtime_ns, 1234);
	CHECK_EQ(st.atime_ns, 5678);
	CHECK_EQ(st.type, SS_OBJ_DIR);
	CHECK_EQ(path("/ra/f2", &oid), 0);
	CHECK_EQ(path("/ra/f1", &oid), -SS_ENOENT);
	CHECK_EQ(path("/ld/e39", &oid), 0);
}

static void test_table_full(void)
{
	struct os_env small;
	struct ss_os_stats st;
	ss_oid_t oid;
	int rc = 0, made = 0;

	os_env_init(&small, 20);
	REQUIRE(os_env_open(&small, 1) == 0);
	for (int i = 0; i < 100 && rc == 0; i++) {
		char nm[16];

		snprintf(nm, sizeof(nm), "o%d", i);
		rc = ss_os_create(small.os, SS_OID_ROOT, nm, (uint32_t)strlen(nm), SS_OBJ_FILE, 0, 1, &oid);
		made += rc == 0;
	}
	CHECK_EQ(rc, -SS_ENOSPC);
	CHECK_EQ(made, 19);          /* 20 objects, the root included */
	ss_os_get_stats(small.os, &st);
	CHECK_EQ(st.objects, 20);
	CHECK_EQ(st.max_objects, 20);
	CHECK_EQ(ss_os_lookup(small.os, SS_OID_ROOT, "o18", 3, &oid), 0);
	CHECK_EQ(ss_os_remove(small.os, oid), 0);
	CHECK_EQ(ss_os_create(small.os, SS_OID_ROOT, "again", 5, SS_OBJ_FILE, 0, 1, &oid), 0);
	os_env_reopen(&small, 1);
	ss_os_get_stats(small.os, &st);
	CHECK_EQ(st.objects, 20);
	CHECK_EQ(ss_os_lookup(small.os, SS_OID_ROOT, "again", 5, &oid), 0);
	os_env_destroy(&small);
}

int main(void)
{
	os_env_init(&env, 256);
	REQUIRE(os_env_open(&env, 1) == 0);
	RUN(test_names);
	RUN(test_create_errors);
	RUN(test_paths);
	RUN(test_remove_errors);
	RUN(test_rename_errors);
	RUN(test_wrong_type);
	RUN(test_list_cursor);
	RUN(test_survives_remount);
	RUN(test_table_full);
	os_env_destroy(&env);
	return ss_test_failures ? 1 : 0;
}
