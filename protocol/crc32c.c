/*
 * CRC-32C (Castagnoli) of the protocol's packets, also the firmware's page and record
 * checksum: one function for both ends of the link. Freestanding: no libc. In the drive
 * image a table; on the host (the emulator and libsmartssd, where every flash page of a
 * scan is checked: the emulator's hottest loop) Intel's ISA-L, which folds with carry-less
 * multiplies where the CPU has them (twice the rate of three CRC32-instruction streams on
 * this EPYC, benchmarks/README.md).
 */
#include "ss_wire.h"

#if defined(SS_CRC32C_ISAL)
#include <isa-l/crc.h>
#else
#if defined(__GNUC__)
#define crc_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define crc_unlikely(x) (x)
#endif

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
	if (crc_unlikely(!crc32c_ready)) {
		crc32c_init();
	}
	while (len--) {
		c = crc32c_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
	}
	return c;
}
#endif

uint32_t ss_crc32c(uint32_t seed, const void *data, size_t len)
{
	uint32_t c = ~seed;

#if defined(SS_CRC32C_ISAL)
	/* ISA-L takes and returns the register itself (no inversion either end) and an int
	 * length: a longer buffer goes a gibibyte at a time */
	const uint8_t *p = data;

	while (len > 0) {
		size_t n = len < (1u << 30) ? len : (1u << 30);

		c = crc32_iscsi((unsigned char *)p, (int)n, c);
		p += n;
		len -= n;
	}
	return ~c;
#else
	return ~crc32c_table_update(c, data, len);
#endif
}
