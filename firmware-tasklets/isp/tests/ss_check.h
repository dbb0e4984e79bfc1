/* CHECK: an assertion that stays on in release builds (NDEBUG), for the ISP tests. */
#ifndef SS_CHECK_H
#define SS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                        \
		}                                                                       \
	} while (0)

#endif
