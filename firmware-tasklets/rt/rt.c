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
