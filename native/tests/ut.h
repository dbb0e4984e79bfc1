/* Minimal assertion helpers for the native unit tests: count failures, never abort. */
#ifndef SS_NATIVE_UT_H
#define SS_NATIVE_UT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int ut_failures;
static int ut_skips;

/* CTest's SKIP_RETURN_CODE for a test program whose tests could not run here. */
#define UT_SKIPPED 77

/* End the test without a verdict, saying why it cannot run on this machine. */
#define UT_SKIP(...)                                                                      \
	do {                                                                              \
		fprintf(stderr, "skip: " __VA_ARGS__);                                    \
		fputc('\n', stderr);                                                      \
		ut_skips++;                                                               \
		return;                                                                   \
	} while (0)

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			ut_failures++;                                                    \
		}                                                                         \
	} while (0)

#define CHECK_EQ(a, b)                                                                    \
	do {                                                                              \
		long long _a = (long long)(a), _b = (long long)(b);                       \
		if (_a != _b) {                                                           \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, \
				__LINE__, #a, _a, #b, _b);                                \
			ut_failures++;                                                    \
		}                                                                         \
	} while (0)

#define CHECK_MEM(got, want, n)                                                           \
	do {                                                                              \
		const uint8_t *_g = (const uint8_t *)(got), *_w = (const uint8_t *)(want); \
		for (size_t _i = 0; _i < (size_t)(n); _i++) {                             \
			if (_g[_i] != _w[_i]) {                                           \
				fprintf(stderr, "%s:%d: %s[%zu] = 0x%02x, expected 0x%02x\n", \
					__FILE__, __LINE__, #got, _i, _g[_i], _w[_i]);    \
				ut_failures++;                                            \
				break;                                                    \
			}                                                                 \
		}                                                                         \
	} while (0)

static inline int ut_report(const char *name)
{
	if (ut_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, ut_failures);
		return 1;
	}
	if (ut_skips) {
		printf("%s: %d test(s) skipped, the rest passed\n", name, ut_skips);
		return UT_SKIPPED;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

#endif
