/* Object data: inline packing, extents of large objects, holes, truncation, drive full. */
#include "os_test.h"

#define P 8192u

static struct os_env env;
static uint8_t big[1u << 20], back[1u << 20];

/* The byte every test writes at object offset `o` of object number `tag`. */
static uint8_t pat(uint32_t tag, uint64_t o)
{
	uint64_t x = (o / 4 + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)tag << 40;

	return (uint8_t)(x >> (8 * (o % 4) + 24));
}

static void fill_pat(uint8_t *b, uint32_t tag, uint64_t off, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		b[i] = pat(tag, off + i);
	}
}

static ss_oid_t mkfile(const char *name, enum ss_obj_type t)
{
	ss_oid_t oid;

	REQUIRE(ss_os_create(env.os, SS_OID_ROOT, name, (uint32_t)strlen(name), t, SS_OS_EXCL, 1, &oid) == 0);
	return oid;
}

static int check_pat(ss_oid_t oid, uint32_t tag, uint64_t size)
{
	int bad = 0;

	for (uint64_t off = 0; off < size; off += sizeof(back)) {
		uint32_t n = (uint32_t)SS_MIN((uint64_t)sizeof(back), size - off), nread = 0;

		if (ss_os_read(env.os, oid, off, back, n, &nread) != 0 || nread != n) {
			return 1;
		}
		fill_pat(big, tag, off, n);
		bad |= memcmp(back, big, n) != 0;
	}
	return bad;
}

static void check_extents_cover(ss_oid_t oid, uint64_t size)
{
	struct ss_extent ex[64];
	int n = ss_os_extents(env.os, oid, 0, size, ex, 64);
	uint64_t pos = 0;

	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		CHECK_EQ(ex[i].offset, pos);
		CHECK(ex[i].pages > 0);
		pos += (uint64_t)ex[i].pages * P;
	}
	CHECK_EQ(pos, SS_ALIGN_UP(size, P));
}

static void test_inline_then_extents(void)
{
	ss_oid_t f = mkfile("small", SS_OBJ_FILE);
	struct ss_obj_stat st;
	struct ss_extent ex[4];
	uint32_t nread;

	fill_pat(big, 1, 0, 300);
	CHECK_EQ(ss_os_write(env.os, f, 0, big, 300, 0, 5), 0);
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.size, 300);
	CHECK_EQ(st.extent_count, 0);          /* packed in its record */
	CHECK_EQ(st.page_writes, 0);
	CHECK_EQ(st.mtime_ns, 5);
	CHECK_EQ(ss_os_extents(env.os, f, 0, 300, ex, 4), 0);
	/* Growing past the record moves it to a page, keeping the bytes. */
	fill_pat(big, 1, 300, 9000);
	CHECK_EQ(ss_os_write(env.os, f, 300, big, 9000, 0, 6), 0);
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.size, 9300);
	CHECK_EQ(st.extent_count, 1);
	CHECK_EQ(st.page_writes, 2);
	CHECK_EQ(check_pat(f, 1, 9300), 0);
	check_extents_cover(f, 9300);
	/* A rewrite of one page counts one more page of wear. */
	CHECK_EQ(ss_os_write(env.os, f, 10, big + 10, 5, 0, 7), 0);
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.page_writes, 3);
	CHECK_EQ(ss_os_read(env.os, f, 9290, back, 100, &nread), 0);
	CHECK_EQ(nread, 10);
	CHECK_EQ(ss_os_read(env.os, f, 9300, back, 100, &nread), 0);
	CHECK_EQ(nread, 0);
	CHECK_EQ(ss_os_remove(env.os, f), 0);
}

static void test_holes_and_truncate(void)
{
	ss_oid_t f = mkfile("holes", SS_OBJ_OUTPUT);
	uint8_t zero[3 * P];
	uint32_t nread;
	struct ss_obj_stat st;

	memset(zero, 0, sizeof(zero));
	fill_pat(big, 2, 0, 5000);
	CHECK_EQ(ss_os_write(env.os, f, 0, big, 5000, 0, 1), 0);
	/* A write far past the end leaves a hole that reads as zeros. */
	fill_pat(big, 2, 50000, 100);
	CHECK_EQ(ss_os_write(env.os, f, 50000, big, 100, 0, 1), 0);
	CHECK_EQ(ss_os_read(env.os, f, 5000, back, 45000, &nread), 0);
	CHECK_EQ(nread, 45000);
	CHECK(memcmp(back, zero, sizeof(zero)) == 0);
	for (uint32_t i = 0; i < 45000; i++) {
		if (back[i]) {
			CHECK_EQ(i, -1);
			break;
		}
	}
	/* Shrink into a page, grow again: the cut bytes come back as zeros. */
	CHECK_EQ(ss_os_truncate(env.os, f, 3000, 2), 0);
	CHECK_EQ(ss_os_truncate(env.os, f, 3 * P + 17, 3), 0);
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.size, 3 * P + 17);
	CHECK_EQ(st.mtime_ns, 3);
	CHECK_EQ(check_pat(f, 2, 3000), 0);
	CHECK_EQ(ss_os_read(env.os, f, 3000, back, 3 * P, &nread), 0);
	CHECK_EQ(nread, 3 * P + 17 - 3000);
	CHECK(memcmp(back, zero, nread) == 0);
	check_extents_cover(f, st.size);
	/* Truncate to zero frees everything; the object is inline (empty) again. */
	CHECK_EQ(ss_os_truncate(env.os, f, 0, 4), 0);
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.extent_count, 0);
	CHECK_EQ(st.size, 0);
	CHECK_EQ(ss_os_remove(env.os, f), 0);
}

static void test_large_object(void)
{
	const uint64_t size = 12ull << 20;
	ss_oid_t f = mkfile("large", SS_OBJ_FILE), a = mkfile("pa", SS_OBJ_FILE), b = mkfile("pb", SS_OBJ_FILE);
	struct ss_obj_stat st;
	struct ss_extent ex[8];
	const uint32_t chunk = 96 * 1024 + 13;   /* not page aligned: partial pages too */

	uint64_t touched = 0;
	uint32_t large_extents;

	for (uint64_t off = 0; off < size; off += chunk) {
		uint32_t n = (uint32_t)SS_MIN((uint64_t)chunk, size - off);

		fill_pat(big, 3, off, n);
		REQUIRE(ss_os_write(env.os, f, off, big, n, 0, 1) == 0);
		touched += (off + n - 1) / P - off / P + 1;
	}
	REQUIRE(ss_os_stat(env.os, f, &st) == 0);
	CHECK_EQ(st.size, size);
	large_extents = st.extent_count;
	CHECK(large_extents >= 1 && large_extents <= 2);
	CHECK_EQ(st.page_writes, touched);   /* a page shared by two writes is written twice */
	check_extents_cover(f, size);
	CHECK_EQ(check_pat(f, 3, size), 0);
	/* A sub-range maps to exactly the pages holding it. */
	int n = ss_os_extents(env.os, f, 3 * P + 5, 7 * P, ex, 8);

	CHECK(n >= 1);
	CHECK_EQ(ex[0].offset, 3 * P);
	uint64_t pages = 0;

	for (int i = 0; i < n; i++) {
		pages += ex[i].pages;
	}
	CHECK_EQ(pages, 8);   /* bytes 3P+5 .. 10P+5 touch pages 3..10 */
	/* Two objects written in alternation still get long contiguous runs. */
	for (uint64_t off = 0; off < (4u << 20); off += 64 * 1024) {
		fill_pat(big, 4, off, 64 * 1024);
		REQUIRE(ss_os_write(env.os, a, off, big, 64 * 1024, 0, 1) == 0);
		fill_pat(big, 5, off, 64 * 1024);
		REQUIRE(ss_os_write(env.os, b, off, big, 64 * 1024, 0, 1) == 0);
	}
	REQUIRE(ss_os_stat(env.os, a, &st) == 0);
	CHECK(st.extent_count <= 12);
	fprintf(stderr, "12 MiB object: %u extents; interleaved 4 MiB objects: %u", large_extents,
		st.extent_count);
	REQUIRE(ss_os_stat(env.os, b, &st) == 0);
	CHECK(st.extent_count <= 12);
	fprintf(stderr, " and %u\n", st.extent_count);
	check_extents_cover(a, 4u << 20);
	os_env_reopen(&env, 1);
	CHECK_EQ(check_pat(f, 3, size), 0);
	CHECK_EQ(check_pat(a, 4, 4u << 20), 0);
	CHECK_EQ(check_pat(b, 5, 4u << 20), 0);
	CHECK_EQ(ss_os_remove(env.os, f), 0);
	CHECK_EQ(ss_os_remove(env.os, a), 0);
	CHECK_EQ(ss_os_remove(env.os, b), 0);
	CHECK_EQ(ss_os_flush(env.os), 0);
}

static void test_drive_full(void)
{
	ss_oid_t files[64];
	uint64_t sizes[64];
	struct ss_os_stats st0, st;
	struct ss_obj_stat os0, os1;
	int nf = 0, rc = 0;

	ss_os_get_stats(env.os, &st0);
	CHECK(st0.free_bytes > 0 && st0.free_bytes <= st0.capacity_bytes);
	/* Fill with 1 MiB objects until the drive says it is full. */
	while (rc == 0 && nf < 64) {
		char name[16];

		snprintf(name, sizeof(name), "fill%d", nf);
		files[nf] = mkfile(name, SS_OBJ_FILE);
		sizes[nf] = 0;
		for (uint64_t off = 0; off < (1u << 20) && rc == 0; off += 256 * 1024) {
			fill_pat(big, 100 + (uint32_t)nf, off, 256 * 1024);
			rc = ss_os_write(env.os, files[nf], off, big, 256 * 1024, 0, 1);
			if (rc == 0) {
				sizes[nf] = off + 256 * 1024;
			}
		}
		nf++;
	}
	CHECK_EQ(rc, -SS_ENOSPC);
	ss_os_get_stats(env.os, &st);
	CHECK(st.free_bytes < 256 * 1024);
	/* The failed write left its object as it was. */
	REQUIRE(ss_os_stat(env.os, files[nf - 1], &os0) == 0);
	CHECK_EQ(os0.size, sizes[nf - 1]);
	/* A write too large for what is left writes nothing at all. */
	uint64_t left = st.free_bytes;

	CHECK_EQ(ss_os_write(env.os, files[nf - 1], os0.size, big, (uint32_t)left + P, 0, 9), -SS_ENOSPC);
	REQUIRE(ss_os_stat(env.os, files[nf - 1], &os1) == 0);
	CHECK_EQ(os1.size, os0.size);
	CHECK_EQ(os1.mtime_ns, os0.mtime_ns);
	ss_os_get_stats(env.os, &st);
	CHECK_EQ(st.free_bytes, left);
	/* Everything written before the drive filled reads back, also after a remount. */
	for (int i = 0; i < nf; i++) {
		CHECK_EQ(check_pat(files[i], 100 + (uint32_t)i, sizes[i]), 0);
	}
	os_env_reopen(&env, 1);
	for (int i = 0; i < nf; i++) {
		CHECK_EQ(check_pat(files[i], 100 + (uint32_t)i, sizes[i]), 0);
	}
	/* Removed space comes back once the removal is durable, and holds new data. */
	for (int i = 0; i < nf / 2; i++) {
		CHECK_EQ(ss_os_remove(env.os, files[i]), 0);
	}
	CHECK_EQ(ss_os_flush(env.os), 0);
	ss_os_get_stats(env.os, &st);
	CHECK(st.free_bytes >= (uint64_t)(nf / 2) * (1u << 20) - (1u << 20));
	ss_oid_t again = mkfile("again", SS_OBJ_FILE);
	uint64_t want = (uint64_t)(nf / 2 - 1) * (1u << 20);

	for (uint64_t off = 0; off < want; off += 256 * 1024) {
		fill_pat(big, 7, off, 256 * 1024);
		REQUIRE(ss_os_write(env.os, again, off, big, 256 * 1024, 0, 1) == 0);
	}
	CHECK_EQ(check_pat(again, 7, want), 0);
	for (int i = nf / 2; i < nf; i++) {
		CHECK_EQ(check_pat(files[i], 100 + (uint32_t)i, sizes[i]), 0);
	}
	fprintf(stderr, "drive full after %d objects (%llu KiB free of %llu KiB)\n", nf,
		(unsigned long long)left / 1024, (unsigned long long)st0.capacity_bytes / 1024);
}

int main(void)
{
	os_env_init(&env, 128);
	REQUIRE(os_env_open(&env, 1) == 0);
	RUN(test_inline_then_extents);
	RUN(test_holes_and_truncate);
	RUN(test_large_object);
	RUN(test_drive_full);
	os_env_destroy(&env);
	return ss_test_failures ? 1 : 0;
}
