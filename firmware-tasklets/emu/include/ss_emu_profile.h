/*
 * Model profiles of the emulated drive: geometry, flash timing, link, ISP-core cost, energy
 * and the host power profile. Every constant comes from a profile file (profiles/NAME.profile,
 * `key = value` lines, each with the source of its number). The profiles in profiles/ are
 * built into the library, so no file is needed at run time; a profile may also be loaded
 * from a path.
 */
#ifndef SS_EMU_PROFILE_H
#define SS_EMU_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "ss_hal.h"

struct ss_emu_profile {
	char name[32];
	char model[41];                  /* IDENTIFY model string */

	struct ss_geometry geo;
	uint64_t capacity_bytes;         /* raw flash of the default image (from geo) */
	uint32_t endurance;              /* rated P/E cycles per block */
	uint32_t endurance_spread_permille; /* per-block endurance varies +- this much */
	uint32_t factory_bad_permille;   /* blocks failed from the factory */
	uint64_t dram_bytes;
	int32_t temperature_c;

	/* NAND and channels */
	uint64_t nand_read_ns;           /* tR: array to page register */
	uint64_t nand_program_ns;        /* tPROG */
	uint64_t nand_erase_ns;          /* tBERS */
	uint64_t channel_bytes_per_s;    /* page register <-> controller, per channel */

	/* host link */
	uint64_t link_bytes_per_s;
	uint64_t link_cmd_overhead_ns;   /* per command, on top of the transfer */

	/* ISP core */
	uint64_t fw_page_overhead_ns;    /* firmware work per input page */
	uint64_t isp_ps_per_instruction; /* profile key isp_ns_per_instruction, in ps */
	uint64_t dram_access_ns;         /* one 4-byte device DRAM access */
	uint32_t isp_batch_pages;        /* pages a tasklet reads at a time */

	/* energy */
	uint64_t nand_read_nj;           /* per page */
	uint64_t nand_program_nj;        /* per page */
	uint64_t nand_erase_nj;          /* per block */
	uint64_t link_pj_per_byte;
	uint64_t isp_active_mw;          /* extra power while the ISP core is busy */
	uint64_t device_idle_mw;         /* the drive powered on, doing nothing */

	/* host power profile (for the host-side energy accountant, not used by the drive) */
	uint64_t host_idle_mw;
	uint64_t host_busy_mw;           /* extra while the host computes */
	uint32_t host_cores;
};

/**
 * Parse profile text. `origin` names the text in error messages (a path or "builtin:NAME").
 * Every key must be given exactly once.
 * \return 0, or -SS_EINVAL with err = "ORIGIN:LINE: problem".
 */
int ss_emu_profile_parse(const char *text, const char *origin, struct ss_emu_profile *p,
			 char *err, size_t errlen);

/**
 * Load a profile: a built-in name (e.g. "kang-smartssd"), or a path to a profile file when
 * `name_or_path` contains a '/'. NULL selects "kang-smartssd".
 * \return 0, -SS_ENOENT (no such profile or file), -SS_EINVAL (parse error); err names it.
 */
int ss_emu_profile_load(const char *name_or_path, struct ss_emu_profile *p, char *err,
			size_t errlen);

/** Number of built-in profiles. */
size_t ss_emu_profile_count(void);
/** \return the name of built-in profile i, or NULL past the end. */
const char *ss_emu_profile_name(size_t i);
/** \return the text of built-in profile `name`, or NULL. */
const char *ss_emu_profile_text(const char *name);

/** \return 0 when `g` is a geometry the emulator supports, else -SS_EINVAL with err. */
int ss_emu_geometry_check(const struct ss_geometry *g, char *err, size_t errlen);

#endif
