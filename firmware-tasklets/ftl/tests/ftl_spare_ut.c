/* The spare record: round trip, erased detection, and rejection of any damaged byte. */
#include <string.h>

#include "ftl_internal.h"
#include "ftl_test_env.h"

static const struct ftl_spare cases[] = {
	{ FTL_KIND_DATA, SS_STREAM_HOT, 0, 1, 1, 0, 0 },
	{ FTL_KIND_DATA, SS_STREAM_COLD, 0xFFFFFFFEu, 99999, 0x0123456789ABCDEFull, 0, 0xDEADBEEF },
	{ FTL_KIND_CKPT, 0xFF, 17, 3, 1ull << 40, 12345678901ull, 7 },
	{ FTL_KIND_TRIM, FTL_STREAM_GC, FTL_NONE, 0, UINT64_MAX - 1, 0, 0xFFFFFFFFu },
};

static void test_round_trip(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t raw[FTL_SPARE_BYTES];
		struct ftl_spare out;

		ftl_spare_encode(raw, &cases[i]);
		CHECK_EQ(ftl_spare_decode(raw, &out), FTL_SPARE_OK);
		CHECK_EQ(out.kind, cases[i].kind);
		CHECK_EQ(out.stream, cases[i].stream);
		CHECK_EQ(out.lpn, cases[i].lpn);
		CHECK_EQ(out.erase_count, cases[i].erase_count);
		CHECK(out.seq == cases[i].seq);
		CHECK(out.ref == cases[i].ref);
		CHECK_EQ(out.data_crc, cases[i].data_crc);
		/* little-endian magic "SSFT" at offset 0, lpn at 8 */
		CHECK(memcmp(raw, "SSFT", 4) == 0);
		CHECK_EQ(raw[8] | raw[9] << 8 | raw[10] << 16 | (uint32_t)raw[11] << 24, cases[i].lpn);
	}
}

static void test_erased(void)
{
	uint8_t raw[FTL_SPARE_BYTES];
	struct ftl_spare out;

	memset(raw, 0xFF, sizeof(raw));
	CHECK_EQ(ftl_spare_decode(raw, &out), FTL_SPARE_ERASED);
	raw[20] = 0xFE;   /* one programmed bit: not erased, and not ours either */
	CHECK_EQ(ftl_spare_decode(raw, &out), FTL_SPARE_BAD);
	memset(raw, 0, sizeof(raw));
	CHECK_EQ(ftl_spare_decode(raw, &out), FTL_SPARE_BAD);
}

static void test_every_byte_protected(void)
{
	for (uint32_t off = 0; off < FTL_SPARE_BYTES; off++) {
		uint8_t raw[FTL_SPARE_BYTES];
		struct ftl_spare out;

		ftl_spare_encode(raw, &cases[1]);
		raw[off] ^= 0x10;
		if (ftl_spare_decode(raw, &out) == FTL_SPARE_OK) {
			fprintf(stderr, "flip at byte %u not detected\n", off);
			ss_test_failures++;
		}
	}
}

static void test_bad_kind(void)
{
	struct ftl_spare s = cases[0], out;
	uint8_t raw[FTL_SPARE_BYTES];

	s.kind = 7;
	ftl_spare_encode(raw, &s);
	CHECK_EQ(ftl_spare_decode(raw, &out), FTL_SPARE_BAD);
}

int main(void)
{
	RUN(test_round_trip);
	RUN(test_erased);
	RUN(test_every_byte_protected);
	RUN(test_bad_kind);
	return ss_test_failures ? 1 : 0;
}
