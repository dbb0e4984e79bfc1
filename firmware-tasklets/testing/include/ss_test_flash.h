/*
 * An emulated flash image for the firmware tests: open (or create) it in a scratch
 * directory, and split the emulator's DRAM between the layers that run on it. Shared by
 * the FTL, object-store, solid-state-cache and ISP tests.
 */
#ifndef SS_TEST_FLASH_H
#define SS_TEST_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "ss_emu_flash.h"

struct ss_test_flash {
	char dir[64];                /* scratch directory (ss_test_tmpdir) */
	char path[128];              /* dir/flash.img */
	struct ss_emu_flash *flash;
	struct ss_hal *hal;          /* the emulator's */
};

/**
 * Create a fresh image of geometry g in a new scratch directory named after `prefix`,
 * with `dram_bytes` of emulated DRAM and `endurance` program/erase cycles per block (0:
 * the profile's). Exits the test on failure.
 */
void ss_test_flash_create(struct ss_test_flash *t, const char *prefix,
			  const struct ss_geometry *g, uint32_t endurance, uint64_t dram_bytes);
/** Open the image again (after ss_test_flash_close), as it was left. */
void ss_test_flash_reopen(struct ss_test_flash *t, uint64_t dram_bytes);
/** Close the image without unmounting anything: what it holds is what a power cut leaves. */
void ss_test_flash_close(struct ss_test_flash *t);
/** Close it if open, and remove the image and its directory. */
void ss_test_flash_destroy(struct ss_test_flash *t);

/**
 * Split the emulator's DRAM: the first `first` bytes (rounded up to 64) at *a, the rest at
 * *b. Exits the test when `first` does not leave room.
 */
void ss_test_dram_split(const struct ss_hal *hal, uint64_t first, void **a, uint64_t *a_size,
			void **b, uint64_t *b_size);

#endif
