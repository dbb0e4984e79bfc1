/*
 * Named attributes: set/get/list/remove, their limits and errors, that they survive a
 * remount, follow a rename and go with the object, and a crash round: the flash is cut
 * before every page program or erase of a set + remove + flush in turn, and the remounted
 * store holds the old set or the new one, passes the fsck and leaks nothing.
 */
#include <sys/wait.h>

#include "os_test.h"

static struct os_env env;

static ss_oid_t mkfile(const char *name)
{
	ss_oid_t oid = 0;

	REQUIRE(ss_os_create(env.os, SS_OID_ROOT, name, (uint32_t)strlen(name), SS_OBJ_FILE, 0, 1,
			     &oid) == 0);
	return oid;
}

static int set(ss_oid_t oid, const char *name, const char *value, unsigned flags)
{
	return ss_os_set_attr(env.os, oid, name, (uint32_t)strlen(name), value,
			      (uint32_t)strlen(value), flags);
}

/* The value of `name` as a string, "" with *rc set when it is absent. */
static const char *get(ss_oid_t oid, const char *name, int *rc)
{
	static char v[SS_OS_ATTRS_MAX + 1];

	*rc = ss_os_get_attr(env.os, oid, name, (uint32_t)strlen(name), v, SS_OS_ATTRS_MAX);
	v[*rc > 0 ? *rc : 0] = '\0';
	return v;
}

static void check_clean(void)
{
	struct ss_os_check_report rep;

	CHECK_EQ(ss_os_check(env.os, &rep), 0);
	CHECK_EQ(rep.leaked_pages, 0);
}

static void test_set_get_list_remove(void)
{
	char list[64];
	int rc;

	os_env_init(&env, 64);
	REQUIRE(os_env_open(&env, 1) == 0);
	ss_oid_t a = mkfile("a");

	CHECK_EQ(ss_os_list_attrs(env.os, a, list, sizeof(list)), 0);
	CHECK_EQ(ss_os_get_attr(env.os, a, "user.x", 6, list, sizeof(list)), -SS_ENODATA);
	CHECK_EQ(set(a, "user.x", "one", 0), 0);
	CHECK_EQ(set(a, "user.y", "", 0), 0);   /* an empty value is a value */
	CHECK_EQ(strcmp(get(a, "user.x", &rc), "one"), 0);
	CHECK_EQ(rc, 3);
	get(a, "user.y", &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(set(a, "user.x", "two", SS_OS_ATTR_CREATE), -SS_EEXIST);
	CHECK_EQ(set(a, "user.z", "two", SS_OS_ATTR_REPLACE), -SS_ENODATA);
	CHECK_EQ(set(a, "user.x", "three", SS_OS_ATTR_REPLACE), 0);
	CHECK_EQ(ss_os_list_attrs(env.os, a, list, sizeof(list)), 14);
	CHECK_EQ(memcmp(list, "user.y\0user.x\0", 14), 0);   /* a replaced value moves last */
	CHECK_EQ(ss_os_list_attrs(env.os, a, NULL, 0), 14);
	CHECK_EQ(ss_os_get_attr(env.os, a, "user.x", 6, NULL, 0), 5);
	check_clean();

	os_env_reopen(&env, 0);   /* unflushed: gone, and nothing leaks */
	CHECK_EQ(ss_os_list_attrs(env.os, a, list, sizeof(list)), -SS_ENOENT);
	a = mkfile("a");
	CHECK_EQ(set(a, "user.x", "kept", 0), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	os_env_reopen(&env, 0);
	CHECK_EQ(strcmp(get(a, "user.x", &rc), "kept"), 0);
	CHECK_EQ(ss_os_remove_attr(env.os, a, "user.x", 6), 0);
	CHECK_EQ(ss_os_remove_attr(env.os, a, "user.x", 6), -SS_ENODATA);
	CHECK_EQ(ss_os_list_attrs(env.os, a, list, sizeof(list)), 0);
	os_env_reopen(&env, 1);
	CHECK_EQ(ss_os_list_attrs(env.os, a, list, sizeof(list)), 0);
	check_clean();
	os_env_close(&env, 1);
	os_env_destroy(&env);
}

static void test_limits(void)
{
	static char big[SS_OS_ATTRS_MAX + 2];
	char name[SS_OS_ATTR_NAME_MAX + 2];

	os_env_init(&env, 64);
	REQUIRE(os_env_open(&env, 1) == 0);
	ss_oid_t a = mkfile("a");

	memset(name, 'n', sizeof(name));
	CHECK_EQ(ss_os_set_attr(env.os, a, name, SS_OS_ATTR_NAME_MAX + 1, "v", 1, 0),
		 -SS_ENAMETOOLONG);
	CHECK_EQ(ss_os_set_attr(env.os, a, "", 0, "v", 1, 0), -SS_EINVAL);
	CHECK_EQ(ss_os_set_attr(env.os, a, "a\0b", 3, "v", 1, 0), -SS_EINVAL);
	CHECK_EQ(ss_os_set_attr(env.os, SS_OID_ROOT + 77, "n", 1, "v", 1, 0), -SS_ENOENT);
	memset(big, 'v', sizeof(big));
	/* one attribute of name "n" takes 3 + 1 + value bytes */
	CHECK_EQ(ss_os_set_attr(env.os, a, "n", 1, big, SS_OS_ATTRS_MAX - 3, 0), -SS_E2BIG);
	CHECK_EQ(ss_os_set_attr(env.os, a, "n", 1, big, SS_OS_ATTRS_MAX - 4, 0), 0);
	CHECK_EQ(ss_os_set_attr(env.os, a, "m", 1, "", 0, 0), -SS_E2BIG);
	/* replacing counts the new value only */
	CHECK_EQ(ss_os_set_attr(env.os, a, "n", 1, big, SS_OS_ATTRS_MAX - 8, 0), 0);
	CHECK_EQ(ss_os_set_attr(env.os, a, "m", 1, "", 0, 0), 0);
	CHECK_EQ(ss_os_get_attr(env.os, a, "n", 1, NULL, 0), (int)SS_OS_ATTRS_MAX - 8);
	check_clean();
	os_env_close(&env, 1);
	os_env_destroy(&env);
}

static void test_rename_and_remove(void)
{
	struct ss_os_check_report rep;
	struct ss_os_stats before, after;
	int rc;

	os_env_init(&env, 64);
	REQUIRE(os_env_open(&env, 1) == 0);
	ss_oid_t a = mkfile("a"), b = mkfile("b");

	CHECK_EQ(set(a, "user.layout", "from a", 0), 0);
	CHECK_EQ(set(b, "user.layout", "from b", 0), 0);
	CHECK_EQ(ss_os_check(env.os, &rep), 0);
	CHECK_EQ(rep.attr_pages, 2);
	/* rename over b: a's attributes follow it, b's go with b */
	CHECK_EQ(ss_os_rename(env.os, a, SS_OID_ROOT, "b", 1, 0, 2), 0);
	CHECK_EQ(strcmp(get(a, "user.layout", &rc), "from a"), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	os_env_reopen(&env, 0);
	CHECK_EQ(strcmp(get(a, "user.layout", &rc), "from a"), 0);
	CHECK_EQ(ss_os_check(env.os, &rep), 0);
	CHECK_EQ(rep.attr_pages, 1);
	CHECK_EQ(rep.leaked_pages, 0);
	ss_os_get_stats(env.os, &before);
	CHECK_EQ(ss_os_remove(env.os, a), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	ss_os_get_stats(env.os, &after);
	CHECK_EQ(after.free_bytes, before.free_bytes + env.geo.page_size);   /* the attribute page */
	CHECK_EQ(ss_os_check(env.os, &rep), 0);
	CHECK_EQ(rep.attr_pages, 0);
	os_env_close(&env, 1);
	os_env_destroy(&env);
}

/* Child: user.a "old" -> "new" and user.b removed, then flushed; cut before step `at`. */
static void crash_child(ss_oid_t f, uint32_t at)
{
	if (os_env_open(&env, 0) != 0) {
		_exit(4);
	}
	os_cut_install(env.hal, at, NULL);
	if (set(f, "user.a", "new", 0) != 0 || ss_os_remove_attr(env.os, f, "user.b", 6) != 0 ||
	    ss_os_flush(env.os) != 0) {
		_exit(3);
	}
	_exit(0);
}

static void test_crash_round(void)
{
	bool finished = false;
	uint32_t cut_runs = 0;

	for (uint32_t at = 1; at <= 64 && !finished; at++) {
		os_env_init(&env, 64);
		REQUIRE(os_env_open(&env, 1) == 0);
		ss_oid_t f = mkfile("f");

		CHECK_EQ(set(f, "user.a", "old", 0), 0);
		CHECK_EQ(set(f, "user.b", "gone", 0), 0);
		CHECK_EQ(ss_os_flush(env.os), 0);
		os_env_close(&env, 1);

		pid_t pid = fork();
		int status, rc, rb;

		REQUIRE(pid >= 0);
		if (pid == 0) {
			crash_child(f, at);
		}
		if (ss_test_child_wait(pid, &status, "the child's cut or its end") != 0) {
			break;
		}
		if (WIFEXITED(status)) {
			CHECK_EQ(WEXITSTATUS(status), 0);
			finished = true;
		} else {
			CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
			cut_runs++;
		}
		REQUIRE(os_env_open(&env, 0) == 0);
		const char *a = get(f, "user.a", &rc);
		bool is_new = strcmp(a, "new") == 0;

		CHECK(is_new || strcmp(a, "old") == 0);
		get(f, "user.b", &rb);
		if (finished) {
			CHECK(is_new && rb == -SS_ENODATA);   /* flushed: the new set */
		} else {
			CHECK(rb == 4 || (is_new && rb == -SS_ENODATA));   /* never b gone, a old */
		}
		check_clean();
		os_env_close(&env, 1);
		os_env_destroy(&env);
	}
	CHECK(finished);
	CHECK(cut_runs >= 2);   /* the set and the flush each program at least one page */
	fprintf(stderr, "attr crash round: %u cuts, then an uncut run\n", cut_runs);
}

int main(void)
{
	RUN(test_set_get_list_remove);
	RUN(test_limits);
	RUN(test_rename_and_remove);
	RUN(test_crash_round);
	return ss_test_failures ? 1 : 0;
}
