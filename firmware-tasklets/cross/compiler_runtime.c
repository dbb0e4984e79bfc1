/*
 * The symbols GCC itself emits calls to (struct copies, zeroing) even in freestanding
 * code. The firmware calls ss_mem* by name; these only serve the compiler, and exist only
 * in the bare-metal build, where no C library provides them.
 */
#include "ss_rt.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *dst, const void *src, size_t n) { return ss_memcpy(dst, src, n); }
void *memmove(void *dst, const void *src, size_t n) { return ss_memmove(dst, src, n); }
void *memset(void *dst, int c, size_t n) { return ss_memset(dst, c, n); }
int memcmp(const void *a, const void *b, size_t n) { return ss_memcmp(a, b, n); }
