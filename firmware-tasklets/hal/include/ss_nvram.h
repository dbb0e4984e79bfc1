/*
 * The drive's non-volatile RAM as the firmware judges it at power-up (the hal's nvram_map
 * gives the bytes; the merge cache of firmware-tasklets/buffer keeps its sectors there):
 * whose it is, what is wrong with it, and what it holds. Kept apart from ss_buf.h so that
 * the firmware's entry points (ss_fw.h) can report it to a host without the buffer's
 * headers.
 */
#ifndef SS_NVRAM_H
#define SS_NVRAM_H

#include <stdint.h>

#define SS_BUF_NV_DRIVE_ID 20u

/* Whose merge cache an NVM holds, kept in its header: the drive (its serial) and the
 * generation the drive's flash records for it, which changes each time the NVM is started
 * empty. An NVM of another drive or generation is not this drive's acknowledged writes. */
struct ss_buf_nv_owner {
	char drive[SS_BUF_NV_DRIVE_ID];   /* not NUL-terminated when all 20 are used */
	uint32_t generation;
};

/* What is wrong with a merge cache's NVM (one list: power-up, CHECK, and the host's words
 * for each, firmware-tasklets/emu/drive.c). */
enum ss_buf_nv_problem {
	SS_BUF_NV_OK = 0,
	SS_BUF_NV_MISSING = 1,     /* the drive has none where it kept one (the hal's) */
	SS_BUF_NV_NOT_NVRAM = 2,   /* no merge cache's header (its magic) */
	SS_BUF_NV_VERSION = 3,     /* written in another layout version: found_version */
	SS_BUF_NV_FOREIGN = 4,     /* another drive's: found_drive */
	SS_BUF_NV_GENERATION = 5,  /* this drive's, of another generation: found_generation */
	SS_BUF_NV_PARAMS = 6,      /* a merge cache of another size or page (or file size) */
	SS_BUF_NV_CORRUPT = 7,     /* its header (slot UINT32_MAX) or a slot's entry or sector
				    * fails its CRC-32C */
};

struct ss_buf_nv_report {
	uint32_t problem;          /* enum ss_buf_nv_problem */
	uint32_t slot;             /* SS_BUF_NV_CORRUPT: the first slot that fails */
	uint32_t lba;              /* ... the LBA its entry names */
	uint32_t held;             /* sectors its index names (what starting it empty drops);
				    * UINT32_MAX: not known (no header to trust) */
	uint32_t found_version, found_generation;
	char found_drive[SS_BUF_NV_DRIVE_ID];
};

#endif
