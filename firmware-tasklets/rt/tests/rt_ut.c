/* ss_mem*, ss_crc32c and the arena against independent references: libc and the
 * published CRC-32C check value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"

#include "ss_test.h"

static void test_mem_against_libc(void)
{
	static uint8_t src[600], a[700], b[700];

	for (size_t i = 0; i < sizeof(src); i++) {
		src[i] = (uint8_t)(i * 37 + 11);
	}
	/* every alignment of both sides and lengths around the word and unroll sizes */
	for (size_t so = 0; so < 9; so++) {
		for (size_t doff = 0; doff < 9; doff++) {
			for (size_t n = 0; n < 80; n += (n < 40 ? 1 : 7)) {
				memset(a, 0xA5, sizeof(a));
				memset(b, 0xA5, sizeof(b));
				ss_memcpy(a + doff, src + so, n);
				memcpy(b + doff, src + so, n);
				CHECK(memcmp(a, b, sizeof(a)) == 0);
				ss_memset(a + doff, (int)(so * 16 + n), n);
				memset(b + doff, (int)(so * 16 + n), n);
				CHECK(memcmp(a, b, sizeof(a)) == 0);
				CHECK((ss_memcmp(a, b, n) == 0) == (memcmp(a, b, n) == 0));
			}
		}
	}
	/* overlapping moves, both directions */
	for (size_t shift = 1; shift < 20; shift++) {
		for (size_t n = 0; n < 100; n += 3) {
			memcpy(a, src, 300);
			memcpy(b, src, 300);
			ss_memmove(a + shift, a, n);
			memmove(b + shift, b, n);
			CHECK(memcmp(a, b, 300) == 0);
			ss_memmove(a, a + shift, n);
			memmove(b, b + shift, n);
			CHECK(memcmp(a, b, 300) == 0);
		}
	}
	CHECK(ss_memcmp("abc", "abd", 3) < 0);
	CHECK(ss_memcmp("abd", "abc", 3) > 0);
	CHECK(ss_strnlen("hello", 10) == 5 && ss_strnlen("hello", 3) == 3);
}

static void test_crc32c(void)
{
	/* The standard check value of CRC-32C (RFC 3720 B.4; "123456789" -> E3069283). */
	CHECK(ss_crc32c(0, "123456789", 9) == 0xE3069283u);
	/* RFC 3720 B.4: 32 bytes of zeros -> 8A9136AA */
	static const uint8_t zeros[32];
	CHECK(ss_crc32c(0, zeros, sizeof(zeros)) == 0x8A9136AAu);
	/* against a bitwise reference, every alignment and length (the host's ISA-L and,
	 * under qemu-arm, the drive image's table) */
	static uint8_t buf[8300];
	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] = (uint8_t)(i * 131 + 7);
	}
	for (size_t off = 0; off < 9; off++) {
		for (size_t n = 0; n + off <= sizeof(buf); n += n < 300 ? 13 : 197) {
			uint32_t c = 0xFFFFFFFFu;

			for (size_t i = 0; i < n; i++) {
				c ^= buf[off + i];
				for (int k = 0; k < 8; k++) {
					c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
				}
			}
			CHECK(ss_crc32c(0, buf + off, n) == ~c);
		}
	}
	/* a running checksum equals the one-shot checksum */
	CHECK(ss_crc32c(ss_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u);
	CHECK(ss_crc32c(ss_crc32c(0, buf, 3001), buf + 3001, 5000) == ss_crc32c(0, buf, 8001));
}

static void test_arena(void)
{
	uint8_t *mem = malloc(1000);
	struct ss_arena a;

	memset(mem, 0xFF, 1000);
	ss_arena_init(&a, mem, 1000);
	uint8_t *p = ss_arena_alloc(&a, 10, 8);
	uint8_t *q = ss_arena_alloc(&a, 100, 64);

	CHECK(p != NULL && q != NULL);
	CHECK(((uintptr_t)q & 63) == 0);
	CHECK(q >= p + 10);
	CHECK(p[0] == 0 && p[9] == 0 && q[99] == 0);    /* zeroed */
	CHECK(ss_arena_alloc(&a, 2000, 8) == NULL);     /* exhausted */
	CHECK(ss_arena_alloc(&a, 10, 8) != NULL);       /* a failure consumes nothing */
	free(mem);
}

int main(void)
{
	test_mem_against_libc();
	test_crc32c();
	test_arena();
	if (ss_test_failures) {
		fprintf(stderr, "rt_ut: %d failure(s)\n", ss_test_failures);
		return 1;
	}
	printf("rt_ut: all passed\n");
	return 0;
}
