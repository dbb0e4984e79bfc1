/*
 * Byte order and checksum of the wire: little-endian field access and CRC-32C. Shared by
 * the firmware (through ss_rt.h) and the host library, so both ends of the link use one
 * copy. Freestanding: no libc.
 */
#ifndef SS_WIRE_H
#define SS_WIRE_H

#include <stddef.h>
#include <stdint.h>

/** CRC-32C (Castagnoli), reflected, init and final xor 0xFFFFFFFF. `seed` is a previous
 *  result to continue a running checksum, or 0 to start one. */
uint32_t ss_crc32c(uint32_t seed, const void *data, size_t len);

static inline uint16_t ss_get_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t ss_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t ss_get_le64(const uint8_t *p)
{
	return (uint64_t)ss_get_le32(p) | ((uint64_t)ss_get_le32(p + 4) << 32);
}
static inline void ss_put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void ss_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void ss_put_le64(uint8_t *p, uint64_t v)
{
	ss_put_le32(p, (uint32_t)v);
	ss_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* Little-endian field `f` of wire structure `struct T` at p. */
#define SS_WIRE16(p, T, f) ss_get_le16((const uint8_t *)(p) + offsetof(struct T, f))
#define SS_WIRE32(p, T, f) ss_get_le32((const uint8_t *)(p) + offsetof(struct T, f))
#define SS_WIRE64(p, T, f) ss_get_le64((const uint8_t *)(p) + offsetof(struct T, f))

#endif
