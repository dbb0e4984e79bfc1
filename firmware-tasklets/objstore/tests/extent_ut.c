/*
 * Objects of any number of extents: the extent tree on a fragmented drive, its checks
 * (ss_os_check), remounts, truncation, rename to a long name, the drive filling up, and a
 * version-1 store mounting and being upgraded.
 */
#include "os_test.h"

#define P 8192u
#define SMALL_PAGES 1u
#define LARGE_PAGES 7u

static struct os_env env;
static uint8_t chunk[64 * 1024], back[64 * 1024];

/* The byte at object offset `o` of object number `tag`: a reference computed on its own. */
static uint8_t pat(uint32_t tag, uint64_t o)
{
	uint64_t x = (o / 8 + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)tag << 40);

	x ^= x >> 29;
	return (uint8_t)(x >> (8 * (o % 8)));
}

static void fill_pat(uint8_t *b, uint32_t tag, uint64_t off, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		b[i] = pat(tag, off + i);
	}
}

static ss_oid_t mkfile(const char *name)
{
	ss_oid_t oid;

	REQUIRE(ss_os_create(env.os, SS_OID_ROOT, name, (uint32_t)strlen(name), SS_OBJ_FILE,
			     SS_OS_EXCL, 1, &oid) == 0);
	return oid;
}

/* Append [size, size + n) of object `tag` in 64 KiB writes. \return the first failure. */
static int append(ss_oid_t oid, uint32_t tag, uint64_t *size, uint64_t n)
{
	while (n > 0) {
		uint32_t k = (uint32_t)SS_MIN((uint64_t)sizeof(chunk), n);
		int rc;

		fill_pat(chunk, tag, *size, k);
		rc = ss_os_write(env.os, oid, *size, chunk, k, 0, 2);
		if (rc) {
			return rc;
		}
		*size += k;
		n -= k;
	}
	return 0;
}

static bool same_as_pat(ss_oid_t oid, uint32_t tag, uint64_t size)
{
	struct ss_obj_stat st;

	if (ss_os_stat(env.os, oid, &st) != 0 || st.size != size) {
		return false;
	}
	for (uint64_t off = 0; off < size; off += sizeof(back)) {
		uint32_t n = (uint32_t)SS_MIN((uint64_t)sizeof(back), size - off), nread = 0;

		if (ss_os_read(env.os, oid, off, back, n, &nread) != 0 || nread != n) {
			return false;
		}
		fill_pat(chunk, tag, off, n);
		if (memcmp(back, chunk, n) != 0) {
			return false;
		}
	}
	return true;
}

/* ss_os_extents must tile the object in order, and agree with stat's extent count. */
static uint32_t extents_tile(ss_oid_t oid, uint64_t size)
{
	static struct ss_extent ex[4096];
	int n = ss_os_extents(env.os, oid, 0, size, ex, 4096);
	uint64_t pos = 0;

	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		CHECK_EQ(ex[i].offset, pos);
		CHECK(ex[i].pages > 0);
		pos += (uint64_t)ex[i].pages * P;
	}
	CHECK_EQ(pos, SS_ALIGN_UP(size, P));
	return n > 0 ? (uint32_t)n : 0;
}

/* Fill the drive with one-page objects and remove every other one: the free space is then
 * holes of one page, and an object written next takes one extent per page. */
static void fragment(void)
{
	static ss_oid_t o[4096];
	uint32_t n = 0;
	char name[16];

	for (;; n++) {
		uint64_t s = 0;

		REQUIRE(n < 4096);
		snprintf(name, sizeof(name), "h%u", n);
		o[n] = mkfile(name);
		if (append(o[n], 90000 + n, &s, P) != 0) {
			break;
		}
	}
	CHECK_EQ(ss_os_remove(env.os, o[n]), 0);
	for (uint32_t i = 0; i < n; i += 2) {
		CHECK_EQ(ss_os_remove(env.os, o[i]), 0);
	}
	CHECK_EQ(ss_os_flush(env.os), 0);
}

static void check_store(struct ss_os_check_report *rep)
{
	CHECK_EQ(ss_os_check(env.os, rep), 0);
	CHECK_EQ(rep->leaked_pages, 0);
}

/*
 * Fill the drive with pairs of a 1-page and a 7-page object, delete every 1-page one, and
 * write one object into the holes: it needs one extent per hole, far more than a record
 * holds (53 for this name), and must come back byte for byte, before and after remounts.
 */
static void test_fragmented_drive(void)
{
	static ss_oid_t small[2048], large[2048];
	struct ss_os_stats st;
	struct ss_os_check_report rep;
	struct ss_obj_stat ost;
	uint32_t pairs = 0, holes;
	uint64_t size = 0;
	char name[16];

	os_env_init(&env, 4200);
	REQUIRE(os_env_open(&env, 1) == 0);
	for (;; pairs++) {
		uint64_t s = 0, l = 0;

		REQUIRE(pairs < 2048);
		snprintf(name, sizeof(name), "s%u", pairs);
		small[pairs] = mkfile(name);
		snprintf(name, sizeof(name), "l%u", pairs);
		large[pairs] = mkfile(name);
		/* more than fits inline, so it takes a page */
		if (append(small[pairs], 1000 + pairs, &s, SMALL_PAGES * P) != 0 ||
		    append(large[pairs], 5000 + pairs, &l, LARGE_PAGES * P) != 0) {
			break;
		}
	}
	ss_os_get_stats(env.os, &st);
	fprintf(stderr, "drive filled by %u pairs of 1 and 7 pages, %llu KiB free\n", pairs,
		(unsigned long long)(st.free_bytes >> 10));
	CHECK(pairs > 300);
	for (uint32_t i = 0; i <= pairs; i++) {
		CHECK_EQ(ss_os_remove(env.os, small[i]), 0);
	}
	/* the large object of the last pair may be partial: drop it too */
	CHECK_EQ(ss_os_remove(env.os, large[pairs]), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	CHECK_EQ(rep.objects, pairs + 1);   /* the root and the large objects */

	/* The object of many extents, grown in 64 KiB writes that each take up to 8 holes. */
	ss_oid_t big = mkfile("big");

	/* all holes but the few that the last writes' tree nodes may need */
	holes = pairs;
	CHECK_EQ(append(big, 7, &size, (uint64_t)(holes - 24) * P), 0);
	CHECK_EQ(ss_os_stat(env.os, big, &ost), 0);
	fprintf(stderr, "%llu KiB object in %u extents (a record holds 53)\n",
		(unsigned long long)(size >> 10), ost.extent_count);
	CHECK(ost.extent_count >= (holes - 24) / 2);
	CHECK(ost.extent_count > 53 * 4);
	CHECK_EQ(extents_tile(big, size), ost.extent_count);
	CHECK(same_as_pat(big, 7, size));
	check_store(&rep);
	CHECK_EQ(rep.tree_objects, 1);
	CHECK(rep.max_depth >= 1);
	CHECK_EQ(rep.extents, ost.extent_count + (uint64_t)pairs * 1);

	/* Durable across a clean remount and a crash (the last writes flushed first). */
	os_env_reopen(&env, 1);
	CHECK(same_as_pat(big, 7, size));
	check_store(&rep);
	CHECK_EQ(ss_os_flush(env.os), 0);
	os_env_reopen(&env, 0);
	CHECK(same_as_pat(big, 7, size));
	check_store(&rep);

	/* Every large object is intact beside it. */
	for (uint32_t i = 0; i < pairs; i += 37) {
		CHECK(same_as_pat(large[i], 5000 + i, (uint64_t)LARGE_PAGES * P));
	}

	/* Truncate into the middle of the tree, then grow again; read back each time. */
	uint64_t half = size / 2 + 1234;

	CHECK_EQ(ss_os_truncate(env.os, big, half, 3), 0);
	size = half;
	CHECK(same_as_pat(big, 7, size));
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	/* the bytes past the cut read as zeros once grown back */
	CHECK_EQ(ss_os_truncate(env.os, big, half + 3 * P, 4), 0);
	uint32_t nread = 0;

	CHECK_EQ(ss_os_read(env.os, big, half, back, 3 * P, &nread), 0);
	CHECK_EQ(nread, 3 * P);
	for (uint32_t i = 0; i < 3 * P; i++) {
		if (back[i] != 0) {
			CHECK_EQ(back[i], 0);
			break;
		}
	}
	CHECK_EQ(ss_os_truncate(env.os, big, half, 5), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);

	/* Grow until the drive is full: the error is ENOSPC, never EFBIG, and it comes only
	 * when the free pages left are fewer than one write plus its tree nodes. */
	int rc = append(big, 7, &size, UINT64_MAX / 2);

	ss_os_get_stats(env.os, &st);
	fprintf(stderr, "grown to %llu KiB until full: %d, %llu KiB free\n",
		(unsigned long long)(size >> 10), rc, (unsigned long long)(st.free_bytes >> 10));
	CHECK_EQ(rc, -SS_ENOSPC);
	CHECK(st.free_bytes < sizeof(chunk) + 64u * P);
	CHECK(same_as_pat(big, 7, size));
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	os_env_reopen(&env, 0);
	CHECK(same_as_pat(big, 7, size));
	check_store(&rep);

	/* Removing it gives every page back, nodes included. */
	struct ss_os_stats before;

	ss_os_get_stats(env.os, &before);
	CHECK_EQ(ss_os_remove(env.os, big), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	ss_os_get_stats(env.os, &st);
	CHECK_EQ(st.free_bytes - before.free_bytes, SS_ALIGN_UP(size, P) + rep.node_pages * P);
	check_store(&rep);
	CHECK_EQ(rep.tree_objects, 0);
	os_env_destroy(&env);
}

/*
 * Small fan-outs build deep trees from few pages: every depth is reached, a rename to a
 * long name moves a full root down a level, and truncating back to one page unwinds it.
 */
static void test_deep_tree_and_rename(void)
{
	struct ss_os_check_report rep;
	struct ss_obj_stat st;
	ss_oid_t a, b;
	uint64_t size = 0;
	char longname[SS_NAME_MAX + 1];

	os_env_init(&env, 4200);
	env.root_extents = 2;
	env.node_extents = 3;
	REQUIRE(os_env_open(&env, 1) == 0);
	fragment();
	a = mkfile("a");
	for (uint32_t i = 0; i < 6; i++) {
		CHECK_EQ(append(a, 11, &size, 10 * P), 0);
	}
	CHECK_EQ(ss_os_stat(env.os, a, &st), 0);
	CHECK_EQ(st.extent_count, 60);
	check_store(&rep);
	/* 60 extents at fan-out 3 under a root of 2: depth 4 */
	CHECK_EQ(rep.max_depth, 4);
	CHECK(same_as_pat(a, 11, size));
	/* 2 x 3^4 = 162 extents is as deep as this format goes: past it a write is ENOSPC,
	 * not EFBIG, and leaves the object as it was. */
	int rc = 0;

	for (uint32_t i = 0; i < 200 && rc == 0; i++) {
		rc = append(a, 11, &size, P);
	}
	CHECK_EQ(rc, -SS_ENOSPC);
	CHECK_EQ(size, 162ull * P);
	CHECK(same_as_pat(a, 11, size));
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	os_env_reopen(&env, 0);
	CHECK(same_as_pat(a, 11, size));
	check_store(&rep);

	/* Truncate to 1.5 pages: back to a two-extent object, every node freed. */
	CHECK_EQ(ss_os_truncate(env.os, a, P + P / 2, 3), 0);
	size = P + P / 2;
	CHECK(same_as_pat(a, 11, size));
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	os_env_destroy(&env);

	/* Default fan-outs: 40 one-page extents sit in the record's root under a short name,
	 * a 255-byte name leaves room for 22, so the rename moves the root a level down. */
	os_env_init(&env, 4200);
	REQUIRE(os_env_open(&env, 1) == 0);
	fragment();
	b = mkfile("b");
	size = 0;
	CHECK_EQ(append(b, 21, &size, 40 * P), 0);
	check_store(&rep);
	CHECK_EQ(rep.tree_objects, 0);
	memset(longname, 'n', SS_NAME_MAX);
	CHECK_EQ(ss_os_rename(env.os, b, SS_OID_ROOT, longname, SS_NAME_MAX, 0, 4), 0);
	check_store(&rep);
	CHECK_EQ(rep.tree_objects, 1);
	CHECK_EQ(ss_os_stat(env.os, b, &st), 0);
	CHECK_EQ(st.extent_count, 40);
	CHECK(same_as_pat(b, 21, size));
	CHECK_EQ(ss_os_flush(env.os), 0);
	os_env_reopen(&env, 0);
	CHECK_EQ(ss_os_lookup(env.os, SS_OID_ROOT, longname, SS_NAME_MAX, &b), 0);
	CHECK(same_as_pat(b, 21, size));
	check_store(&rep);
	os_env_destroy(&env);
}

/* A corrupt node is found by the check and refused by mount, never read as extents. */
static void test_corrupt_node(void)
{
	struct ss_os_check_report rep;
	struct ss_extent ex;
	ss_oid_t a;
	uint64_t size = 0;
	uint32_t node = 0;
	uint8_t page[P];

	os_env_init(&env, 4200);
	env.root_extents = 2;
	env.node_extents = 2;
	REQUIRE(os_env_open(&env, 1) == 0);
	fragment();
	a = mkfile("a");
	CHECK_EQ(append(a, 31, &size, 3 * P), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
	check_store(&rep);
	CHECK_EQ(rep.node_pages, 2);   /* 3 extents: a root of 2 over two leaves */
	/* Find a node page: an owned-looking page that is no extent of either object. */
	uint32_t first, count;

	ss_os_metadata_range(env.os, &first, &count);
	for (uint32_t lpn = first + count; lpn < ss_ftl_capacity_pages(env.ftl) && !node; lpn++) {
		if (ss_ftl_read(env.ftl, lpn, page) == 0 && !memcmp(page, "OSXN", 4)) {
			node = lpn;
		}
	}
	REQUIRE(node != 0);
	/* Raw LBA writes must not reach a node: it is not an object's data. */
	CHECK(!ss_os_lpns_owned(env.os, node, 1));
	CHECK_EQ(ss_os_extents(env.os, a, 0, size, &ex, 1), 1);
	page[40] ^= 1;
	REQUIRE(ss_ftl_write(env.ftl, node, page, SS_STREAM_META, SS_FTL_FUA) == 0);
	REQUIRE(ss_ftl_flush(env.ftl) == 0);
	CHECK_EQ(ss_os_check(env.os, &rep), -SS_EBADMSG);
	os_env_close(&env, 0);
	CHECK_EQ(os_env_open(&env, 0), -SS_EBADMSG);
	os_env_destroy(&env);
}

/* Rewrite the version of the newest superblock copy. \return its sequence number. */
static uint64_t set_sb_version(uint32_t version)
{
	uint8_t page[P];
	uint64_t best = 0;
	uint32_t newest = 0;

	for (uint32_t lpn = 0; lpn < 2; lpn++) {
		REQUIRE(ss_ftl_read(env.ftl, lpn, page) == 0);
		if (ss_get_le64(page + 16) >= best) {
			best = ss_get_le64(page + 16);
			newest = lpn;
		}
	}
	REQUIRE(ss_ftl_read(env.ftl, newest, page) == 0);
	CHECK_EQ(ss_get_le32(page + 8), 3);
	ss_put_le32(page + 8, version);
	ss_put_le32(page + 4, ss_crc32c(0, page + 8, 128 - 8));
	REQUIRE(ss_ftl_write(env.ftl, newest, page, SS_STREAM_META, SS_FTL_FUA) == 0);
	REQUIRE(ss_ftl_flush(env.ftl) == 0);
	return best;
}

/* The version of the newest superblock copy, and its sequence number in *seq. */
static uint32_t sb_version(uint64_t *seq)
{
	uint8_t page[P];
	uint32_t ver = 0;

	*seq = 0;
	for (uint32_t lpn = 0; lpn < 2; lpn++) {
		REQUIRE(ss_ftl_read(env.ftl, lpn, page) == 0);
		if (ss_get_le64(page + 16) >= *seq) {
			*seq = ss_get_le64(page + 16);
			ver = ss_get_le32(page + 8);
		}
	}
	return ver;
}

/* A version-1 store (as the firmware before extent trees wrote it: every record of depth
 * 0, the depth byte zero) mounts and is rewritten as version 3; a newer version is refused
 * as such, not as corruption. */
static void test_format_versions(void)
{
	ss_oid_t a;
	uint64_t size = 0, seq1, seq2;

	os_env_init(&env, 64);
	REQUIRE(os_env_open(&env, 1) == 0);
	a = mkfile("a");
	CHECK_EQ(append(a, 41, &size, 3 * P), 0);
	os_env_reopen(&env, 1);
	seq1 = set_sb_version(1);
	os_env_close(&env, 0);
	REQUIRE(os_env_open(&env, 0) == 0);
	CHECK(same_as_pat(a, 41, size));
	CHECK_EQ(sb_version(&seq2), 3);   /* mount's checkpoint wrote version 3 */
	CHECK(seq2 > seq1);
	set_sb_version(4);
	os_env_close(&env, 0);
	CHECK_EQ(os_env_open(&env, 0), -SS_EPROTO);
	os_env_destroy(&env);
}

int main(void)
{
	RUN(test_fragmented_drive);
	RUN(test_deep_tree_and_rename);
	RUN(test_corrupt_node);
	RUN(test_format_versions);
	return ss_test_failures ? 1 : 0;
}
