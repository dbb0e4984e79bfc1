/* The FTL tests' setup on the shared fixture (firmware-tasklets/testing): an emulated
 * flash image in a scratch directory, self-describing page contents and a
 * power-cut/corruption HAL wrapper. */
#ifndef FTL_TEST_ENV_H
#define FTL_TEST_ENV_H

#include <stdint.h>
#include <stdio.h>

#include "ss_emu_flash.h"
#include "ss_ftl.h"
#include "ss_test.h"
#include "ss_test_flash.h"

/* The FTL tests count failures in the shared harness's counter (the cache's tests too). */
#define fte_failures ss_test_failures

/* Power cut / corruption between the FTL and the flash. */
struct fte_fault {
	struct ss_hal hal;          /* what the FTL runs on */
	struct ss_hal_ops ops;
	struct ss_hal *inner;
	long long cut_after;        /* programs still let through; < 0: no cut */
	long long corrupt_program;  /* index of the program whose data gets a flipped byte */
	unsigned long long programs;
	int cut;                    /* power is gone: nothing reaches the flash */
};

struct fte {
	struct ss_test_flash img;
	struct ss_emu_flash *flash; /* img.flash */
	struct ss_hal *hal;         /* the emulator's, or fault.hal when wrapped */
	struct fte_fault fault;
	struct ss_ftl *ftl;
};

/* 4 channels x 1 way, `bpd` blocks per die, `ppb` pages of 2 KB, 64 B spare, 7 % OP. */
struct ss_geometry fte_geo(uint32_t bpd, uint32_t ppb);

/** Create a fresh image (endurance 0 = the profile's). Exits the test on failure. */
void fte_create(struct fte *e, const struct ss_geometry *g, uint32_t endurance);
/** Reopen the image (after fte_close). */
void fte_reopen(struct fte *e);
/** Close without unmounting: what the flash holds is what a power cut leaves. */
void fte_close(struct fte *e);
/** Remove the image and its directory. */
void fte_destroy(struct fte *e);
/** Put the fault wrapper between the FTL and the flash (pass-through until armed). */
void fte_wrap(struct fte *e);

int fte_format(struct fte *e, const struct ss_ftl_params *p);
int fte_mount(struct fte *e);

/* Page contents: version 0 is an unwritten/trimmed page (zeros). */
void fte_fill(uint8_t *buf, uint32_t page_size, uint32_t lpn, uint64_t version);
/** \return the version the page holds for `lpn`, 0 for zeros, -1 for anything else. */
long long fte_classify(const uint8_t *buf, uint32_t page_size, uint32_t lpn);

uint64_t fte_rand(uint64_t *state);

#endif
