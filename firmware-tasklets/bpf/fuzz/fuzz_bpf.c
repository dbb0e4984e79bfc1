/* libFuzzer's entry into the eBPF harness (bpf_fuzz.h). */
#include <stddef.h>
#include <stdint.h>

#include "bpf_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fzb_run(data, size);
	return 0;
}
