/* Minimal assertion helpers for the native unit tests: count failures, never abort. */
#ifndef SS_NATIVE_UT_H
#define SS_NATIVE_UT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int ut_failures;

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
	if (ut_failures)
		fprintf(stderr, "%s: %d check(s) failed\n", name, ut_failures);
	else
		printf("%s: all checks passed\n", name);
	return ut_failures ? 1 : 0;
}

#endif
