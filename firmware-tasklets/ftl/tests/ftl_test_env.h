/* Shared setup of the FTL tests: an emulated flash image in a temp dir, self-describing
 * page contents, a power-cut/corruption HAL wrapper, and a tiny check harness. */
#ifndef FTL_TEST_ENV_H
#define FTL_TEST_ENV_H

#include <stdint.h>
#include <stdio.h>

#include "ss_emu_flash.h"
#include "ss_ftl.h"

extern int fte_failures;

#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			fte_failures++;                                                 \
		}                                                                       \
	} while (0)

#define CHECK_EQ(a, b)                                                                  \
	do {                                                                            \
		long long va_ = (long long)(a), vb_ = (long long)(b);                   \
		if (va_ != vb_) {                                                       \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n",   \
				__FILE__, __LINE__, #a, va_, #b, vb_);                  \
			fte_failures++;                                                 \
		}                                                                       \
	} while (0)

#define RUN(t)                                                                          \
	do {                                                                            \
		int before_ = fte_failures;                                             \
		t();                                                                    \
		fprintf(stderr, "%s %s\n", fte_failures == before_ ? "ok  " : "FAIL", #t); \
	} while (0)

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
	char dir[64];
	char path[128];
	struct ss_emu_flash *flash;
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
