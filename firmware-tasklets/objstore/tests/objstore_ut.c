/*
 * A random sequence of namespace and data operations, each checked against a reference
 * model kept here in plain arrays; remounts (clean, and flush-then-crash) in between, and
 * the whole tree and every byte compared after each.
 */
#include "os_test.h"

#define MAXN 160
#define MAXSZ (160u * 1024u)
#define STEPS 3000

struct mnode {
	int used;
	int parent;
	int type;
	char name[SS_NAME_MAX + 1];
	uint32_t nlen;
	ss_oid_t oid;
	uint64_t mtime, atime;
	uint8_t *data;
	uint64_t size;
};

static struct os_env env;
static struct mnode m[MAXN];
static uint64_t seed;
static uint8_t rbuf[MAXSZ + 8192];
static uint64_t now = 1000;

static int m_find(int parent, const char *name, uint32_t len)
{
	for (int i = 1; i < MAXN; i++) {
		if (m[i].used && m[i].parent == parent && m[i].nlen == len && !memcmp(m[i].name, name, len)) {
			return i;
		}
	}
	return -1;
}

static int m_children(int d)
{
	int n = 0;

	for (int i = 1; i < MAXN; i++) {
		n += m[i].used && m[i].parent == d;
	}
	return n;
}

static bool m_below(int d, int anc)
{
	for (int cur = d; cur >= 0; cur = cur == 0 ? -1 : m[cur].parent) {
		if (cur == anc) {
			return true;
		}
	}
	return false;
}

static int m_pick(int type_mask)
{
	int cand[MAXN], n = 0;

	for (int i = 0; i < MAXN; i++) {
		if (m[i].used && (type_mask & (1 << m[i].type))) {
			cand[n++] = i;
		}
	}
	return n ? cand[ss_test_rand_below(&seed, (uint32_t)n)] : -1;
}

#define ANY_FILE ((1 << SS_OBJ_FILE) | (1 << SS_OBJ_OUTPUT))
#define ANY_DIR (1 << SS_OBJ_DIR)

static uint32_t rand_name(char *out)
{
	uint32_t r = ss_test_rand_below(&seed, 10);

	if (r < 8) {
		out[0] = 'n';
		out[1] = (char)('0' + ss_test_rand_below(&seed, 8));
		return 2;
	}
	/* Long names leave less room in the record for inline data and extents. */
	uint32_t len = 120 + 45 * ss_test_rand_below(&seed, 4);

	memset(out, 'L', len);
	out[len - 1] = (char)('0' + ss_test_rand_below(&seed, 3));
	return len;
}

static void fill(uint8_t *p, uint32_t n)
{
	uint64_t s = ss_test_rand(&seed);

	for (uint32_t i = 0; i < n; i++) {
		p[i] = (uint8_t)(ss_test_rand(&s) >> 56);
	}
}

static void m_free(int i)
{
	free(m[i].data);
	memset(&m[i], 0, sizeof(m[i]));
}

static void op_create(void)
{
	int d = m_pick(ANY_DIR), slot = -1, ex;
	char name[SS_NAME_MAX + 1];
	uint32_t len = rand_name(name);
	static const int types[] = { SS_OBJ_FILE, SS_OBJ_FILE, SS_OBJ_DIR, SS_OBJ_OUTPUT };
	int type = types[ss_test_rand_below(&seed, 4)];
	unsigned flags = ss_test_rand_below(&seed, 2) ? SS_OS_EXCL : 0;
	ss_oid_t oid = 0;

	for (int i = 1; i < MAXN; i++) {
		if (!m[i].used) {
			slot = i;
			break;
		}
	}
	if (slot < 0) {
		return;
	}
	int rc = ss_os_create(env.os, m[d].oid, name, len, type, flags, now, &oid);

	ex = m_find(d, name, len);
	if (ex >= 0) {
		CHECK_EQ(rc, (flags & SS_OS_EXCL) || m[ex].type != type ? -SS_EEXIST : 0);
		if (rc == 0) {
			CHECK_EQ(oid, m[ex].oid);
		}
		return;
	}
	CHECK_EQ(rc, 0);
	if (rc) {
		return;
	}
	m[slot].used = 1;
	m[slot].parent = d;
	m[slot].type = type;
	memcpy(m[slot].name, name, len);
	m[slot].nlen = len;
	m[slot].oid = oid;
	m[slot].mtime = m[slot].atime = now;
	if (type != SS_OBJ_DIR) {
		m[slot].data = calloc(1, MAXSZ);
	}
}

static void op_write(void)
{
	int f = m_pick(ANY_FILE);

	if (f < 0) {
		return;
	}
	uint64_t off = ss_test_rand_below(&seed, (uint32_t)m[f].size + 9000);
	uint32_t len = ss_test_rand_below(&seed, 4) == 0 ? 1 + ss_test_rand_below(&seed, 300)
						     : 1 + ss_test_rand_below(&seed, 24000);

	if (off >= MAXSZ) {
		off = MAXSZ - 1;
	}
	if (off + len > MAXSZ) {
		len = (uint32_t)(MAXSZ - off);
	}
	fill(rbuf, len);
	CHECK_EQ(ss_os_write(env.os, m[f].oid, off, rbuf, len, ss_test_rand_below(&seed, 20) == 0 ? SS_OS_FUA : 0, now), 0);
	memcpy(m[f].data + off, rbuf, len);
	if (off + len > m[f].size) {
		m[f].size = off + len;
	}
	m[f].mtime = now;
}

static void op_read(void)
{
	int f = m_pick(ANY_FILE);
	uint32_t nread = 12345;

	if (f < 0) {
		return;
	}
	uint64_t off = ss_test_rand_below(&seed, (uint32_t)m[f].size + 100);
	uint32_t len = ss_test_rand_below(&seed, 40000);
	uint32_t want = off >= m[f].size ? 0 : (uint32_t)SS_MIN((uint64_t)len, m[f].size - off);

	CHECK_EQ(ss_os_read(env.os, m[f].oid, off, rbuf, len, &nread), 0);
	CHECK_EQ(nread, want);
	CHECK(memcmp(rbuf, m[f].data + off, want) == 0);
}

static void op_truncate(void)
{
	int f = m_pick(ANY_FILE);

	if (f < 0) {
		return;
	}
	uint64_t sz = ss_test_rand_below(&seed, (uint32_t)SS_MIN((uint64_t)MAXSZ, m[f].size * 2 + 5000));

	CHECK_EQ(ss_os_truncate(env.os, m[f].oid, sz, now), 0);
	if (sz < m[f].size) {
		memset(m[f].data + sz, 0, m[f].size - sz);
	}
	m[f].size = sz;
	m[f].mtime = now;
}

static void op_remove(void)
{
	int n = m_pick(ANY_FILE | ANY_DIR);

	if (n <= 0) {
		return;
	}
	int rc = ss_os_remove(env.os, m[n].oid);

	if (m[n].type == SS_OBJ_DIR && m_children(n) > 0) {
		CHECK_EQ(rc, -SS_ENOTEMPTY);
		return;
	}
	CHECK_EQ(rc, 0);
	m_free(n);
}

static void op_rename(void)
{
	int n = m_pick(ANY_FILE | ANY_DIR), d = m_pick(ANY_DIR), t, want = 0;
	char name[SS_NAME_MAX + 1];
	uint32_t len = rand_name(name);
	unsigned flags = ss_test_rand_below(&seed, 4) == 0 ? SS_OS_NOREPLACE : 0;
	bool ndir;
	struct ss_obj_stat st;

	if (n <= 0) {
		return;
	}
	ndir = m[n].type == SS_OBJ_DIR;
	t = m_find(d, name, len);
	REQUIRE(ss_os_stat(env.os, m[n].oid, &st) == 0);
	if (ndir && m_below(d, n)) {
		want = -SS_EINVAL;
	} else if (t == n) {
		want = 0;
	} else if (t >= 0 && (flags & SS_OS_NOREPLACE)) {
		want = -SS_EEXIST;
	} else if (t >= 0 && m[t].type == SS_OBJ_DIR && !ndir) {
		want = -SS_EISDIR;
	} else if (t >= 0 && m[t].type != SS_OBJ_DIR && ndir) {
		want = -SS_ENOTDIR;
	} else if (t >= 0 && ndir) {
		want = -SS_EEXIST;
	} else if (st.extent_count > (432u - ((len + 3u) & ~3u)) / 8u) {
		want = -SS_ENAMETOOLONG;  /* the documented record limit */
	}
	CHECK_EQ(ss_os_rename(env.os, m[n].oid, m[d].oid, name, len, flags, now), want);
	if (want != 0 || t == n) {
		return;
	}
	if (t >= 0) {
		m_free(t);
	}
	m[n].parent = d;
	memcpy(m[n].name, name, len);
	m[n].nlen = len;
}

static void check_node(int i)
{
	struct ss_obj_stat st;
	uint32_t nread = 0;

	REQUIRE(ss_os_stat(env.os, m[i].oid, &st) == 0);
	CHECK_EQ(st.type, i == 0 ? SS_OBJ_DIR : m[i].type);
	CHECK_EQ(st.nchildren, m[i].type == SS_OBJ_DIR || i == 0 ? m_children(i) : 0);
	if (i == 0) {
		return;
	}
	CHECK_EQ(st.parent, m[m[i].parent].oid);
	CHECK_EQ(st.name_len, m[i].nlen);
	CHECK(memcmp(st.name, m[i].name, m[i].nlen) == 0);
	CHECK_EQ(st.size, m[i].size);
	CHECK_EQ(st.mtime_ns, m[i].mtime);
	CHECK_EQ(st.atime_ns, m[i].atime);
	if (m[i].type == SS_OBJ_DIR) {
		return;
	}
	memset(rbuf, 0xee, m[i].size + 10);
	CHECK_EQ(ss_os_read(env.os, m[i].oid, 0, rbuf, MAXSZ + 10, &nread), 0);
	CHECK_EQ(nread, m[i].size);
	CHECK(memcmp(rbuf, m[i].data, m[i].size) == 0);
	/* The extents cover exactly the object's pages, in order. */
	struct ss_extent ex[64];
	int n = ss_os_extents(env.os, m[i].oid, 0, UINT64_MAX, ex, 64);
	uint64_t pos = 0;

	CHECK(n >= 0);
	CHECK_EQ(n, st.extent_count);
	for (int k = 0; k < n; k++) {
		CHECK_EQ(ex[k].offset, pos);
		pos += (uint64_t)ex[k].pages * env.geo.page_size;
	}
	if (n > 0) {
		CHECK_EQ(pos, SS_ALIGN_UP(m[i].size, env.geo.page_size));
	}
}

static uint32_t build_path(int i, char *out)
{
	uint32_t len;

	if (i == 0) {
		out[0] = '/';
		return 1;
	}
	len = build_path(m[i].parent, out);
	if (len > 1) {
		out[len++] = '/';
	}
	memcpy(out + len, m[i].name, m[i].nlen);
	return len + m[i].nlen;
}

static void check_all(void)
{
	static char p[MAXN * (SS_NAME_MAX + 1) + 2];
	struct ss_os_stats st;
	int used = 0;

	for (int i = 0; i < MAXN; i++) {
		ss_oid_t oid = 0;

		if (!m[i].used) {
			continue;
		}
		used++;
		CHECK_EQ(ss_os_lookup_path(env.os, p, build_path(i, p), &oid), 0);
		CHECK_EQ(oid, m[i].oid);
		check_node(i);
		if (i != 0 && m[i].type != SS_OBJ_DIR) {
			continue;
		}
		/* The listing has each child once, and nothing else. */
		struct ss_dirent de[5];
		uint64_t cursor = 0;
		int n, total = 0;

		while ((n = ss_os_list(env.os, m[i].oid, &cursor, de, 5)) > 0) {
			for (int k = 0; k < n; k++) {
				int c = m_find(i, de[k].name, de[k].name_len);

				CHECK(c >= 0 && m[c].oid == de[k].oid);
				total++;
			}
		}
		CHECK_EQ(total, m_children(i));
	}
	ss_os_get_stats(env.os, &st);
	CHECK_EQ(st.objects, used);
}

static void op_list(void)
{
	int d = m_pick(ANY_DIR);
	struct ss_dirent de[7];
	uint64_t cursor = 0;
	uint32_t max = 1 + ss_test_rand_below(&seed, 7);
	int n, total = 0;

	while ((n = ss_os_list(env.os, m[d].oid, &cursor, de, max)) > 0) {
		CHECK(n <= (int)max);
		for (int k = 0; k < n; k++) {
			CHECK(m_find(d, de[k].name, de[k].name_len) >= 0);
		}
		total += n;
	}
	CHECK_EQ(n, 0);
	CHECK_EQ(total, m_children(d));
}

static void op_set_times(void)
{
	int n = m_pick(ANY_FILE | ANY_DIR);

	if (n <= 0) {
		return;
	}
	m[n].mtime = ss_test_rand(&seed) >> 8;
	m[n].atime = ss_test_rand(&seed) >> 8;
	CHECK_EQ(ss_os_set_times(env.os, m[n].oid, m[n].mtime, m[n].atime), 0);
}

static void test_random_ops(void)
{
	int remounts = 0;

	m[0].used = 1;
	m[0].type = SS_OBJ_DIR;
	m[0].oid = SS_OID_ROOT;
	for (int step = 0; step < STEPS && ss_test_failures == 0; step++) {
		uint32_t r = ss_test_rand_below(&seed, 100);

		now += 7;
		if (r < 22) {
			op_create();
		} else if (r < 44) {
			op_write();
		} else if (r < 58) {
			op_read();
		} else if (r < 66) {
			op_truncate();
		} else if (r < 74) {
			op_remove();
		} else if (r < 84) {
			op_rename();
		} else if (r < 88) {
			check_node(m_pick(ANY_FILE | ANY_DIR));
		} else if (r < 92) {
			op_list();
		} else if (r < 95) {
			CHECK_EQ(ss_os_flush(env.os), 0);
		} else if (r < 98) {
			op_set_times();
		} else if (r < 99 || step % 500 == 0) {
			/* Remount: cleanly, or flushed and then cut off. */
			bool clean = ss_test_rand_below(&seed, 2);

			if (!clean) {
				CHECK_EQ(ss_os_flush(env.os), 0);
			}
			os_env_reopen(&env, clean);
			check_all();
			remounts++;
		}
		if (ss_test_failures) {
			fprintf(stderr, "first failure at step %d (seed %llu)\n", step,
				(unsigned long long)seed);
		}
	}
	check_all();
	os_env_reopen(&env, 1);
	check_all();
	fprintf(stderr, "%d steps, %d remounts\n", STEPS, remounts);
}

int main(void)
{
	seed = ss_test_seed(0x5eed0b5u);
	os_env_init(&env, 200);
	REQUIRE(os_env_open(&env, 1) == 0);
	RUN(test_random_ops);
	os_env_destroy(&env);
	for (int i = 0; i < MAXN; i++) {
		free(m[i].data);
	}
	return ss_test_failures ? 1 : 0;
}
