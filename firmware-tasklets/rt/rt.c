#include "ss_rt.h"

/* Word-at-a-time when both sides are word aligned (pages and records usually are): the
 * emulated drive moves every page through these, and ARMv4 forbids unaligned words. */
typedef size_t __attribute__((may_alias)) word_t;
#define WORD sizeof(word_t)
#define ALIGNED(p) (((uintptr_t)(p) & (WORD - 1)) == 0)

void *ss_memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (ALIGNED(d) && ALIGNED(s)) {
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
			((word_t *)d)[0] = ((const word_t *)s)[0];
			((word_t *)d)[1] = ((const word_t *)s)[1];
			((word_t *)d)[2] = ((const word_t *)s)[2];
			((word_t *)d)[3] = ((const word_t *)s)[3];
		}
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD) {
			*(word_t *)d = *(const word_t *)s;
		}
	}
	while (n--) {
		*d++ = *s++;
	}
	return dst;
}

void *ss_memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d == s || n == 0) {
		return dst;
	}
	if (d < s || d >= s + n) {
		return ss_memcpy(dst, src, n);
	}
	while (n--) {
		d[n] = s[n];
	}
	return dst;
}

void *ss_memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	word_t pattern = (uint8_t)c;

	pattern |= pattern << 8;
	pattern |= pattern << 16;
	if (WORD > 4) {
		pattern |= (pattern << 16) << 16;
	}
	while (n && !ALIGNED(d)) {
		*d++ = (uint8_t)c;
		n--;
	}
	for (; n >= WORD; n -= WORD, d += WORD) {
		*(word_t *)d = pattern;
	}
	while (n--) {
		*d++ = (uint8_t)c;
	}
	return dst;
}

int ss_memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y) {
			return *x < *y ? -1 : 1;
		}
	}
	return 0;
}

size_t ss_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n]) {
		n++;
	}
	return n;
}

/* A 256-entry table is 1 KB, affordable even in the board's SRAM; it is computed once at
 * first use (a benign race between threads of a host process: they compute equal tables). */
static uint32_t crc32c_table[256];
static int crc32c_ready;

static void crc32c_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++) {
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		}
		crc32c_table[i] = c;
	}
	crc32c_ready = 1;
}

static uint32_t crc32c_table_update(uint32_t c, const uint8_t *p, size_t len)
{
	if (ss_unlikely(!crc32c_ready)) {
		crc32c_init();
	}
	while (len--) {
		c = crc32c_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
	}
	return c;
}

#if defined(__x86_64__) && defined(__GNUC__)
typedef uint64_t __attribute__((may_alias)) u64_alias;

/* On an x86-64 host (the emulator) the CPU's CRC32 instruction computes the same
 * polynomial, as a controller's CRC engine would: every flash page and packet is
 * checksummed, so this is the emulator's hottest loop. */
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_update(uint32_t c, const uint8_t *p,
								   size_t len)
{
	uint64_t c64 = c;

	for (; len && ((uintptr_t)p & 7); len--) {
		c64 = __builtin_ia32_crc32qi((uint32_t)c64, *p++);
	}
	for (; len >= 8; len -= 8, p += 8) {
		c64 = __builtin_ia32_crc32di(c64, *(const u64_alias *)p);
	}
	for (; len; len--) {
		c64 = __builtin_ia32_crc32qi((uint32_t)c64, *p++);
	}
	return (uint32_t)c64;
}
#endif

uint32_t ss_crc32c(uint32_t seed, const void *data, size_t len)
{
	uint32_t c = ~seed;

#if defined(__x86_64__) && defined(__GNUC__)
	static int hw = -1;

	if (ss_unlikely(hw < 0)) {
		__builtin_cpu_init();
		hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	if (hw) {
		return ~crc32c_hw_update(c, data, len);
	}
#endif
	return ~crc32c_table_update(c, data, len);
}

void ss_arena_init(struct ss_arena *a, void *base, size_t size)
{
	a->base = base;
	a->size = size;
	a->used = 0;
}

void *ss_arena_alloc(struct ss_arena *a, size_t size, size_t align)
{
	uintptr_t start = (uintptr_t)a->base + a->used;
	uintptr_t aligned;
	void *p;

	if (align == 0) {
		align = 8;
	}
	aligned = (start + align - 1) & ~(uintptr_t)(align - 1);
	if (aligned - (uintptr_t)a->base + size > a->size || aligned < start) {
		return NULL;
	}
	a->used = aligned - (uintptr_t)a->base + size;
	p = (void *)aligned;
	ss_memset(p, 0, size);
	return p;
}
