/*
 * Test doubles for the ISP engine's unit tests: an in-memory object store (just the calls
 * the engine makes) and a HAL whose timing model is simple enough for a test to predict:
 * one flash timeline, one ISP timeline, issue time advanced only by barriers.
 */
#ifndef FAKE_STORE_H
#define FAKE_STORE_H

#include <stdint.h>

#include "ss_hal.h"
#include "ss_objstore.h"

#define FAKE_READ_NS 1000ull      /* per page read */
#define FAKE_INSN_NS 2ull         /* per counted instruction */
#define FAKE_DRAM_NS 10ull        /* per counted DRAM access */
#define FAKE_WRITE_NS 5000ull     /* per ss_os_write call */

struct fake_hal_log {
	uint64_t barriers;
	uint64_t timeline_isp;      /* set_timeline(ISP) calls */
	uint64_t timeline_host;
	int timeline;               /* current */
	uint64_t insn, dram, pages; /* sums of isp_account */
	uint64_t accounts;
	uint64_t reads_off_isp;     /* page reads issued while not on the ISP timeline */
	uint64_t issue, flash_busy, isp_busy;
	uint64_t max_account_pages;
};

struct fake_store {
	struct ss_hal hal;
	struct fake_hal_log log;
	uint32_t page_size;
	int fail_writes;            /* ss_os_write returns -SS_ENOSPC */
	uint64_t bad_page;          /* 1 + the page index (of any object) that fails to read, or 0 */
	int read_err;               /* ss_os_read_scan_start's failure, for ss_os_read_wait */
	uint64_t reads;             /* page reads */
};

/** A store with `page_size` pages. Objects: oid 1 is the root. */
struct fake_store *fake_store_new(uint32_t page_size);
void fake_store_free(struct fake_store *fs);
struct ss_objstore *fake_store_os(struct fake_store *fs);

/** A file holding `data`. inline_obj: no extents (stored with metadata). Pages are mapped
 *  to LPNs in runs of 3 from a per-object base (fake_store_lpn gives them). */
ss_oid_t fake_store_put(struct fake_store *fs, const void *data, uint64_t len, int inline_obj);
ss_oid_t fake_store_output(struct fake_store *fs);
uint32_t fake_store_lpn(ss_oid_t oid, uint64_t page);
/** Object bytes (owned by the store) and size. */
const uint8_t *fake_store_data(struct fake_store *fs, ss_oid_t oid, uint64_t *len);
int fake_store_remove(struct fake_store *fs, ss_oid_t oid);

#endif
