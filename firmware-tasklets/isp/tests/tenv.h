/*
 * Test environment for tasklet tests: an ISP engine over an object store, with helpers to
 * store inputs, run an instance to completion and read its output. Two backends: the real
 * object store on the emulated flash (tenv_emu.c) and the fakes (tenv_fake.c).
 */
#ifndef TENV_H
#define TENV_H

#include <stdint.h>

#include "ss_isp.h"

struct tenv;

struct tenv *tenv_open(void);
void tenv_close(struct tenv *e);

struct ss_isp *tenv_isp(struct tenv *e);
struct ss_objstore *tenv_os(struct tenv *e);
uint32_t tenv_page_size(struct tenv *e);

/** A file named `name` in the root holding `len` bytes. */
ss_oid_t tenv_put(struct tenv *e, const char *name, const void *data, uint64_t len);
/** An output object named `name`. */
ss_oid_t tenv_output(struct tenv *e, const char *name);
/** The whole object, malloc'd (free it). */
uint8_t *tenv_read(struct tenv *e, ss_oid_t oid, uint64_t *len);
/** The 512-byte LBA of the object's page `page`, looked up in the store's extents;
 *  SS_ISP_LBA_NONE for an inline object. */
uint64_t tenv_page_lba(struct tenv *e, ss_oid_t oid, uint64_t page);

/** What the timing model has been charged for ISP work so far. */
struct tenv_isp_counts {
	uint64_t insn, dram, pages;
};
void tenv_isp_counts(struct tenv *e, struct tenv_isp_counts *c);

/** Execute and run slices until the engine is idle; the final progress. */
struct ss_isp_progress tenv_run(struct tenv *e, uint32_t inst, const struct ss_isp_input *in,
				uint32_t n);

#endif
