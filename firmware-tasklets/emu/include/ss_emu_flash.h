/*
 * The bare emulated NAND: an image file with data and spare areas per page and a
 * per-block table (erase count, write pointer, failed flag), behind an ss_hal. Flash rules
 * are enforced, blocks wear out, and every operation is charged on the timing and energy
 * model of a profile (ss_emu_profile.h). Firmware layer tests run on it directly; the whole
 * drive (ss_emu.h) runs the firmware on it.
 *
 * One process owns an image at a time (an exclusive lock); share a drive between processes
 * through the daemon, smartssd-devd.
 */
#ifndef SS_EMU_FLASH_H
#define SS_EMU_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "ss_hal.h"
#include "ss_emu_profile.h"

struct ss_emu_flash;

struct ss_emu_flash_opts {
	const char *profile;      /* profile name, e.g. "kang-smartssd", or a path to a profile
				   * file (contains '/'); NULL = the image's profile on open,
				   * "kang-smartssd" on create */
	struct ss_geometry geo;   /* zero fields take the profile's values */
	uint32_t endurance;       /* P/E cycles before a block fails; 0 = the profile's */
	uint64_t dram_bytes;      /* DRAM arena handed to the firmware; 0 = the profile's */
	int create;               /* 1: create (or overwrite) the image, every block erased */
};

/** Open (or create) an image and return a backend whose ss_hal the firmware runs on.
 *  \return 0 or negative errno; err receives a message naming the problem:
 *          -SS_EBUSY another process has the image open, -SS_EBADMSG corrupt header or
 *          block table, -SS_EPROTO unsupported format version, -SS_EINVAL bad options,
 *          -SS_ENOENT no such image or profile, -SS_EIO an I/O error. */
int ss_emu_flash_open(const char *path, const struct ss_emu_flash_opts *o,
		      struct ss_emu_flash **out, char *err, size_t errlen);
struct ss_hal *ss_emu_flash_hal(struct ss_emu_flash *f);   /* geo, dram, ops filled */
void ss_emu_flash_close(struct ss_emu_flash *f);           /* closes the file; no firmware calls */

/** \return the message of the last rejected or failed operation ("" if none). */
const char *ss_emu_flash_last_error(struct ss_emu_flash *f);

/** \return the profile the timing and energy model uses. */
const struct ss_emu_profile *ss_emu_flash_profile(struct ss_emu_flash *f);

struct ss_emu_block_info {
	uint32_t erase_count;
	uint32_t write_ptr;       /* next page to program */
	uint32_t endurance;       /* this block's P/E limit (rated endurance with spread) */
	int failed;               /* worn out or factory bad: erase/program return -SS_EIO */
	int factory_bad;
};

/** \return 0, or -SS_EINVAL when `block` is out of range. */
int ss_emu_flash_block_info(struct ss_emu_flash *f, uint32_t block, struct ss_emu_block_info *bi);

/*
 * Counters of the timing and energy model. Every figure follows from counted operations
 * and profile constants; the same operations always give the same numbers.
 * Energy, nJ: nand_read = page_reads * nand_read_nj; nand_program = page_programs *
 * nand_program_nj; nand_erase = (block_erases + erase_failures) * nand_erase_nj;
 * link = (link_bytes_in + link_bytes_out) * link_pj_per_byte / 1000; isp = isp_busy_ns *
 * isp_active_mw / 1000; idle = now_ns * device_idle_mw / 1000.
 * Fields are only ever appended (smartssd-devd sends them in this order).
 */
/* smartssd-devd sends these by name as SS_REPLY_MODEL (protocol/include/ss_proto_replies.h):
 * a field added here and meant for the host goes into that list too. */
struct ss_emu_counters {
	uint64_t page_reads;
	uint64_t page_programs;
	uint64_t block_erases;        /* successful */
	uint64_t erase_failures;      /* erases that found the block worn out */
	uint64_t program_failures;    /* programs refused on a failed block */
	uint64_t syncs;
	uint64_t rule_violations;     /* operations rejected with -SS_EINVAL */
	uint64_t failed_blocks;       /* blocks failed now (worn out or factory bad) */
	uint64_t bytes_read;          /* flash data+spare bytes moved over the channels */
	uint64_t bytes_programmed;

	uint64_t host_commands;       /* commands through the link (drive only) */
	uint64_t link_bytes_in;       /* host to drive */
	uint64_t link_bytes_out;      /* drive to host */

	uint64_t isp_instructions;
	uint64_t isp_dram_accesses;
	uint64_t isp_pages;

	uint64_t die_busy_ns;         /* summed over dies */
	uint64_t channel_busy_ns;     /* summed over channels */
	uint64_t link_busy_ns;
	uint64_t isp_busy_ns;
	uint64_t now_ns;              /* modelled device time */

	uint64_t energy_nand_read_nj;
	uint64_t energy_nand_program_nj;
	uint64_t energy_nand_erase_nj;
	uint64_t energy_link_nj;
	uint64_t energy_isp_nj;
	uint64_t energy_idle_nj;
	uint64_t energy_total_nj;

	uint64_t host_now_ns;         /* the host clock: completion of the latest host command
				       * (now_ns may be later: background work runs ahead) */
};

/** Snapshot the counters (safe from any thread). */
void ss_emu_flash_get_counters(struct ss_emu_flash *f, struct ss_emu_counters *c);

#endif
