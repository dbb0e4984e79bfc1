/*
 * Presence of one block from drive memory: what a scan in the drive (cmd/cmd_ssc_scan.c)
 * asks before it reads, so a miss is not counted as a host read miss.
 */
#include "ssc_internal.h"

bool ss_ssc_present(const struct ss_ssc *c, uint64_t lba)
{
	struct ssc_loc loc;

	return lba != SSC_KEY_EMPTY && ssc_locate(c, lba, &loc) == 0;
}
