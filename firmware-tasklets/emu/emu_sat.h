/* Private: SCSI/ATA Translation of the emulated drive (T10 SAT, ATA PASS-THROUGH(16)). */
#ifndef EMU_SAT_H
#define EMU_SAT_H

#include <stdint.h>

#include "ss_fw.h"

#define EMU_SAT_OPCODE 0x85
#define EMU_SAT_SENSE_LEN 22      /* descriptor header + ATA Status Return descriptor */

#define EMU_SCSI_GOOD 0x00
#define EMU_SCSI_CHECK_CONDITION 0x02

/* SAT PROTOCOL field values (CDB byte 1, bits 4:1) the drive accepts. */
enum emu_sat_protocol {
	EMU_SAT_NON_DATA = 3,
	EMU_SAT_PIO_IN = 4,
	EMU_SAT_PIO_OUT = 5,
	EMU_SAT_DMA = 6,
	EMU_SAT_UDMA_IN = 10,
	EMU_SAT_UDMA_OUT = 11,
};

struct emu_sat_cmd {
	struct ss_ata_taskfile tf;
	uint8_t protocol;
	uint8_t extend;
	uint8_t ck_cond;
	uint32_t xfer_len;        /* bytes the CDB says move in the data phase */
};

/**
 * Decode an ATA PASS-THROUGH(16) CDB and check it against the SG_IO data phase (`len`
 * bytes, `dir` 0 none / 1 to drive / 2 from drive).
 * \return 0, or the SCSI ASC of the ILLEGAL REQUEST to report (0x20 invalid command
 *         operation code, 0x24 invalid field in CDB) with *field naming the problem.
 */
int emu_sat_decode(const uint8_t cdb[16], uint32_t len, int dir, struct emu_sat_cmd *c,
		   const char **why);

/** Sense and status for a command the firmware executed. \return the sense length. */
uint32_t emu_sat_complete(const struct emu_sat_cmd *c, const struct ss_ata_result *r,
			  uint8_t *sense, uint32_t cap, uint8_t *status);

/** CHECK CONDITION for a rejected CDB (sense key ILLEGAL REQUEST). \return the sense length. */
uint32_t emu_sat_reject(uint8_t asc, uint8_t ascq, uint8_t *sense, uint32_t cap,
			uint8_t *status);

#endif
