/*
 * SCSI/ATA Translation for the emulated drive, after T10 SAT: ATA PASS-THROUGH(16) CDBs in,
 * descriptor-format sense with the ATA Status Return descriptor (09h) out. Only what a
 * host sends through SG_IO to a SATA drive is accepted.
 */
#include <string.h>

#include "emu_sat.h"
#include "ss_rt.h"

/* CDB byte 2 */
#define CK_COND 0x20
#define T_DIR_IN 0x08
#define BYTE_BLOCK 0x04
#define T_LENGTH_MASK 0x03

/* Sense keys and additional sense codes */
#define SK_RECOVERED 0x01
#define SK_MEDIUM 0x03
#define SK_HARDWARE 0x04
#define SK_ILLEGAL_REQUEST 0x05
#define SK_ABORTED 0x0B

enum { DIR_NONE = 0, DIR_TO_DRIVE = 1, DIR_FROM_DRIVE = 2 };

int emu_sat_decode(const uint8_t cdb[16], uint32_t len, int dir, struct emu_sat_cmd *c,
		   const char **why)
{
	uint8_t t_length = cdb[2] & T_LENGTH_MASK;
	int from_drive = (cdb[2] & T_DIR_IN) != 0;
	uint32_t units;

	memset(c, 0, sizeof(*c));
	if (cdb[0] != EMU_SAT_OPCODE) {
		*why = "not an ATA PASS-THROUGH(16) CDB";
		return 0x20;
	}
	c->protocol = (cdb[1] >> 1) & 0x0F;
	c->extend = cdb[1] & 1;
	c->ck_cond = (cdb[2] & CK_COND) != 0;
	c->tf.command = cdb[14];
	c->tf.device = cdb[13];
	c->tf.features = cdb[4];
	c->tf.count = cdb[6];
	c->tf.lba = (uint64_t)cdb[8] | ((uint64_t)cdb[10] << 8) | ((uint64_t)cdb[12] << 16);
	if (c->extend) {
		c->tf.features |= (uint16_t)(cdb[3] << 8);
		c->tf.count |= (uint16_t)(cdb[5] << 8);
		c->tf.lba |= ((uint64_t)cdb[7] << 24) | ((uint64_t)cdb[9] << 32) |
			     ((uint64_t)cdb[11] << 40);
	} else {
		/* 28-bit commands carry LBA(27:24) in DEVICE(3:0) */
		c->tf.lba |= (uint64_t)(cdb[13] & 0x0F) << 24;
	}

	switch (c->protocol) {
	case EMU_SAT_NON_DATA:
		if (t_length != 0 || dir != DIR_NONE) {
			*why = "non-data protocol with a data phase";
			return 0x24;
		}
		break;
	case EMU_SAT_PIO_IN:
	case EMU_SAT_UDMA_IN:
		if (dir != DIR_FROM_DRIVE || !from_drive) {
			*why = "data-in protocol without a from-drive transfer";
			return 0x24;
		}
		break;
	case EMU_SAT_PIO_OUT:
	case EMU_SAT_UDMA_OUT:
		if (dir != DIR_TO_DRIVE || from_drive) {
			*why = "data-out protocol without a to-drive transfer";
			return 0x24;
		}
		break;
	case EMU_SAT_DMA:
		if (dir == DIR_NONE || from_drive != (dir == DIR_FROM_DRIVE)) {
			*why = "DMA protocol: T_DIR disagrees with the transfer direction";
			return 0x24;
		}
		break;
	default:
		*why = "unsupported PROTOCOL (resets, diagnostics, queued and FPDMA are not "
		       "passed through)";
		return 0x24;
	}
	if (c->protocol != EMU_SAT_NON_DATA && t_length == 0) {
		*why = "data protocol with T_LENGTH 0";
		return 0x24;
	}
	switch (t_length) {
	case 0:
		units = 0;
		break;
	case 1:
		units = c->tf.features ? c->tf.features : (c->extend ? 65536u : 256u);
		break;
	case 2:
		units = c->tf.count ? c->tf.count : (c->extend ? 65536u : 256u);
		break;
	default:
		*why = "T_LENGTH 3 (TPSIU) is not supported";
		return 0x24;
	}
	c->xfer_len = (cdb[2] & BYTE_BLOCK) ? units * 512u : units;
	if (c->xfer_len != len) {
		*why = "transfer length in the CDB differs from the data buffer";
		return 0x24;
	}
	return 0;
}

static uint32_t put_sense(uint8_t key, uint8_t asc, uint8_t ascq, const struct emu_sat_cmd *c,
			  const struct ss_ata_result *r, uint8_t *sense, uint32_t cap)
{
	uint8_t s[EMU_SAT_SENSE_LEN] = { 0 };
	uint32_t n = 8;

	s[0] = 0x72;                   /* current error, descriptor format */
	s[1] = key;
	s[2] = asc;
	s[3] = ascq;
	if (r != NULL) {
		uint8_t *d = s + 8;

		d[0] = 0x09;               /* ATA Status Return */
		d[1] = 0x0C;
		d[2] = c->extend ? 1 : 0;
		d[3] = r->error;
		d[4] = (uint8_t)(r->count >> 8);
		d[5] = (uint8_t)r->count;
		d[6] = (uint8_t)(r->lba >> 24);
		d[7] = (uint8_t)r->lba;
		d[8] = (uint8_t)(r->lba >> 32);
		d[9] = (uint8_t)(r->lba >> 8);
		d[10] = (uint8_t)(r->lba >> 40);
		d[11] = (uint8_t)(r->lba >> 16);
		d[12] = c->tf.device;
		d[13] = r->status;
		s[7] = 14;
		n += 14;
	}
	n = SS_MIN(n, cap);
	if (sense != NULL) {
		memcpy(sense, s, n);
	}
	return sense != NULL ? n : 0;
}

uint32_t emu_sat_complete(const struct emu_sat_cmd *c, const struct ss_ata_result *r,
			  uint8_t *sense, uint32_t cap, uint8_t *status)
{
	uint8_t key = SK_ABORTED, asc = 0, ascq = 0;

	if (!(r->status & (SS_ATA_STATUS_ERR | SS_ATA_STATUS_DF))) {
		if (!c->ck_cond) {
			*status = EMU_SCSI_GOOD;
			return 0;
		}
		*status = EMU_SCSI_CHECK_CONDITION;
		/* ATA PASS-THROUGH INFORMATION AVAILABLE */
		return put_sense(SK_RECOVERED, 0x00, 0x1D, c, r, sense, cap);
	}
	if (r->status & SS_ATA_STATUS_DF) {
		key = SK_HARDWARE;
		asc = 0x44;            /* internal target failure */
	} else if (r->error & SS_ATA_ERROR_UNC) {
		key = SK_MEDIUM;
		asc = 0x11;            /* unrecovered read error */
		ascq = 0x04;
	} else if (r->error & SS_ATA_ERROR_IDNF) {
		key = SK_ILLEGAL_REQUEST;
		asc = 0x21;            /* logical block address out of range */
	}
	*status = EMU_SCSI_CHECK_CONDITION;
	return put_sense(key, asc, ascq, c, r, sense, cap);
}

uint32_t emu_sat_reject(uint8_t asc, uint8_t ascq, uint8_t *sense, uint32_t cap,
			uint8_t *status)
{
	*status = EMU_SCSI_CHECK_CONDITION;
	return put_sense(SK_ILLEGAL_REQUEST, asc, ascq, NULL, NULL, sense, cap);
}
