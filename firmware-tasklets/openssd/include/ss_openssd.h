/*
 * The firmware on the OpenSSD Jasmine board: an ss_hal backend on the Jasmine SDK's flash,
 * memory-utility and timer API, and the board's main loop. Built only against the SDK
 * (OPENSSD_SDK); see README.md for the DRAM map and what remains to be mapped.
 */
#ifndef SS_OPENSSD_H
#define SS_OPENSSD_H

#include <stdint.h>

#include "ss_fw.h"
#include "ss_hal.h"

/**
 * Fill `hal` with the board backend: geometry from the SDK's NUM_BANKS, VBLKS_PER_BANK,
 * PAGES_PER_BLK and BYTES_PER_PAGE (the last sector of each page is the spare area), the
 * DRAM arena from the DRAM map, and the board timer started.
 * \return 0, or -SS_EINVAL when the SDK's configuration leaves no usable geometry or arena.
 */
int ss_openssd_hal_init(struct ss_hal *hal);

/*
 * What the SDK's SATA layer must supply to the main loop: the next host command with its
 * data staged in one contiguous buffer, and the completion of that command.
 */
struct ss_openssd_host {
	/** \return 1 with *tf, *data and *len set when a command is waiting, else 0. */
	int (*next_command)(void *ctx, struct ss_ata_taskfile *tf, uint8_t **data,
			    uint32_t *len);
	/** Report the result of the command next_command() returned last. */
	void (*complete)(void *ctx, const struct ss_ata_taskfile *tf,
			 const struct ss_ata_result *res);
	void *ctx;
};

/**
 * Bring the drive up (mount, or format a blank board) and serve host commands forever,
 * running background work between them. Returns only when bring-up fails.
 * \return the negative errno of the failed hal init, mount or format.
 */
int ss_openssd_main(const struct ss_openssd_host *host);

#endif
