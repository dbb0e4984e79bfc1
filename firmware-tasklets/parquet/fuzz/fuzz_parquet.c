/* libFuzzer target: arbitrary column chunks and snappy blocks into the Parquet decoder
 * (harness.h). Built with SS_FUZZ=ON and clang. */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return pq_fuzz_one(data, size);
}
