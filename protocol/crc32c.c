/*
 * CRC-32C (Castagnoli) of the protocol's packets, also the firmware's page and record
 * checksum: one implementation for both ends of the link. Freestanding: no libc.
 */
#include "ss_wire.h"

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

#if defined(__x86_64__) && defined(__GNUC__)
typedef uint64_t __attribute__((may_alias)) u64_alias;

/*
 * On an x86-64 host (the emulator) the CPU's CRC32 instruction computes the same
 * polynomial, as a controller's CRC engine would: every flash page and packet is
 * checksummed, so this is the emulator's hottest loop. One CRC32 takes 3 cycles but one
 * can start every cycle, so three streams over thirds of a run go three times as fast as
 * one; the thirds' CRCs are then joined [Gopal 2011] (docs/REFERENCES.md): the CRC
 * register is linear, so CRC(c, A B) = shift(CRC(c, A)) ^ CRC(0, B), where shift() is
 * the register's change over CRC_LANE zero bytes, looked up a byte at a time.
 */
#define CRC_LANE 680u   /* bytes per stream: an 8 KiB page is 4 runs of 3 x 680 and 32 bytes */

static uint32_t crc32c_shift_table[4][256];
static int crc32c_shift_ready;

__attribute__((target("sse4.2"))) static void crc32c_shift_init(void)
{
	for (uint32_t k = 0; k < 4; k++) {
		for (uint32_t b = 0; b < 256; b++) {
			uint64_t c64 = b << (8 * k);

			for (uint32_t i = 0; i < CRC_LANE; i += 8) {
				c64 = __builtin_ia32_crc32di(c64, 0);
			}
			crc32c_shift_table[k][b] = (uint32_t)c64;
		}
	}
	/* the emulator's threads may race here: each writes the same table, and none reads
	 * it before seeing the flag that follows the writes */
	__atomic_store_n(&crc32c_shift_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t crc32c_shift(uint32_t c)
{
	return crc32c_shift_table[0][c & 0xFF] ^ crc32c_shift_table[1][(c >> 8) & 0xFF] ^
	       crc32c_shift_table[2][(c >> 16) & 0xFF] ^ crc32c_shift_table[3][c >> 24];
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_update(uint32_t c, const uint8_t *p,
								   size_t len)
{
	uint64_t c64 = c;

	for (; len && ((uintptr_t)p & 7); len--) {
		c64 = __builtin_ia32_crc32qi((uint32_t)c64, *p++);
	}
	if (len >= 3 * CRC_LANE &&
	    crc_unlikely(!__atomic_load_n(&crc32c_shift_ready, __ATOMIC_ACQUIRE))) {
		crc32c_shift_init();
	}
	for (; len >= 3 * CRC_LANE; len -= 3 * CRC_LANE, p += 3 * CRC_LANE) {
		uint64_t a = c64, b = 0, d = 0;

		for (uint32_t i = 0; i < CRC_LANE; i += 8) {
			a = __builtin_ia32_crc32di(a, *(const u64_alias *)(p + i));
			b = __builtin_ia32_crc32di(b, *(const u64_alias *)(p + CRC_LANE + i));
			d = __builtin_ia32_crc32di(d, *(const u64_alias *)(p + 2 * CRC_LANE + i));
		}
		c64 = crc32c_shift(crc32c_shift((uint32_t)a) ^ (uint32_t)b) ^ (uint32_t)d;
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

	if (crc_unlikely(hw < 0)) {
		__builtin_cpu_init();
		hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	if (hw) {
		return ~crc32c_hw_update(c, data, len);
	}
#endif
	return ~crc32c_table_update(c, data, len);
}

