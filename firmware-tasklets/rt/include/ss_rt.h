/*
 * Freestanding runtime of the firmware: the few memory and checksum primitives every
 * layer needs, and the error codes. No libc is available on the drive, so nothing here
 * may call one.
 *
 * Error codes are the Linux errno values, negated when returned, so the host can map them
 * one to one.
 */
#ifndef SS_RT_H
#define SS_RT_H

#include <stddef.h>
#include <stdint.h>

#include "ss_wire.h"

#define SS_EPERM        1
#define SS_ENOENT       2
#define SS_EIO          5
#define SS_E2BIG        7
#define SS_EBADF        9
#define SS_EAGAIN      11   /* busy: try again */
#define SS_ENOMEM      12
#define SS_EFAULT      14
#define SS_EBUSY       16
#define SS_EEXIST      17
#define SS_EXDEV       18
#define SS_ENOTDIR     20
#define SS_EISDIR      21
#define SS_EINVAL      22
#define SS_EFBIG       27
#define SS_ENOSPC      28
#define SS_EROFS       30
#define SS_ERANGE      34
#define SS_ENAMETOOLONG 36
#define SS_ENOSYS      38
#define SS_ENOTEMPTY   39
#define SS_ELOOP       40
#define SS_ENODATA     61
#define SS_ETIME       62
#define SS_EPROTO      71
#define SS_EBADMSG     74
#define SS_EOVERFLOW   75
#define SS_ETIMEDOUT  110   /* the tasklet watchdog stopped a callback that did not return */
#define SS_EILSEQ      84
#define SS_ECANCELED  125
#define SS_EOPNOTSUPP  95   /* the drive's interface does not serve the command */

#define SS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SS_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SS_MAX(a, b) ((a) > (b) ? (a) : (b))
#define SS_DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define SS_ALIGN_UP(n, a) (SS_DIV_ROUND_UP(n, a) * (a))

#if defined(__GNUC__)
#define ss_likely(x)   __builtin_expect(!!(x), 1)
#define ss_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define ss_likely(x)   (x)
#define ss_unlikely(x) (x)
#endif

void *ss_memcpy(void *dst, const void *src, size_t n);
void *ss_memmove(void *dst, const void *src, size_t n);
void *ss_memset(void *dst, int c, size_t n);
int ss_memcmp(const void *a, const void *b, size_t n);
size_t ss_strnlen(const char *s, size_t max);

/* Big-endian field access for on-flash structures (little-endian and CRC-32C: ss_wire.h). */
static inline uint16_t ss_get_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t ss_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t ss_get_be64(const uint8_t *p)
{
	return ((uint64_t)ss_get_be32(p) << 32) | ss_get_be32(p + 4);
}
static inline void ss_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/*
 * Bump allocator over a DRAM arena handed out once at init. The firmware never frees:
 * every structure is sized at format/mount time.
 */
struct ss_arena {
	uint8_t *base;
	size_t size;
	size_t used;
};

void ss_arena_init(struct ss_arena *a, void *base, size_t size);
/** \return a zeroed, `align`-aligned block, or NULL when the arena is exhausted. */
void *ss_arena_alloc(struct ss_arena *a, size_t size, size_t align);

#endif
