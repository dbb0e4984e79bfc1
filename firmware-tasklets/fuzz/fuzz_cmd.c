/*
 * libFuzzer target: arbitrary taskfiles and data buffers into ss_fw_ata_command() on a
 * small emulated drive (harness.h). Built with SS_FUZZ=ON and clang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (fz_setup()) {
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fz_run(data, size);
}
