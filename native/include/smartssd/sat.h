/*
 * SCSI/ATA Translation (T10 SAT): ATA PASS-THROUGH(16) command descriptor blocks and the
 * sense data that carries the ATA registers back. This is the frame every command to a
 * Smart SSD travels in, on a real drive (SG_IO) and on the emulated one alike.
 */
#ifndef SMARTSSD_SAT_H
#define SMARTSSD_SAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SS_SAT_PASS_THROUGH_16 0x85
#define SS_SAT_CDB_LEN 16
#define SS_SAT_SENSE_MAX 64

/* PROTOCOL field (CDB byte 1, bits 4:1). */
enum ss_sat_protocol {
	SS_SAT_PROTO_NON_DATA = 3,
	SS_SAT_PROTO_PIO_IN = 4,
	SS_SAT_PROTO_PIO_OUT = 5,
	SS_SAT_PROTO_DMA = 6,
};

/* Direction of the data phase. */
enum ss_sat_dir {
	SS_SAT_DIR_NONE = 0,
	SS_SAT_DIR_IN = 1,    /* device to host */
	SS_SAT_DIR_OUT = 2,   /* host to device */
};

/* An ATA command as the host wants it issued. */
struct ss_sat_cmd {
	uint8_t command;
	uint8_t device;
	uint16_t features;
	uint16_t count;       /* sectors of 512 bytes for data commands */
	uint64_t lba;         /* 48 bits with extend, else 28 */
	uint8_t protocol;     /* enum ss_sat_protocol */
	uint8_t dir;          /* enum ss_sat_dir */
	uint8_t extend;       /* 48-bit (EXT) command */
	uint8_t ck_cond;      /* ask for the ATA registers back even on success */
};

/* ATA registers returned in sense data. */
struct ss_sat_regs {
	uint8_t status;
	uint8_t error;
	uint8_t device;
	uint8_t extend;       /* the upper bytes below are valid */
	uint16_t count;
	uint64_t lba;
};

struct ss_sat_sense {
	uint8_t response_code; /* 0x70/0x71 fixed, 0x72/0x73 descriptor */
	uint8_t key;
	uint8_t asc;
	uint8_t ascq;
	uint8_t has_regs;      /* regs were returned (ATA Status Return descriptor, or the
				  SAT fields of fixed-format sense) */
	struct ss_sat_regs regs;
};

#define SS_SAT_KEY_NO_SENSE 0x0
#define SS_SAT_KEY_RECOVERED 0x1
#define SS_SAT_KEY_ILLEGAL_REQUEST 0x5
#define SS_SAT_KEY_DATA_PROTECT 0x7
#define SS_SAT_KEY_ABORTED 0xB

/**
 * Encode an ATA PASS-THROUGH(16) CDB. Data commands set T_LENGTH to the COUNT field and
 * BYTE_BLOCK to 512-byte blocks.
 * \return 0, or -EINVAL when a field does not fit (LBA past 48 bits, or past 28 bits /
 *         count above 255 without extend; protocol and direction disagree).
 */
int ss_sat_encode16(const struct ss_sat_cmd *c, uint8_t cdb[SS_SAT_CDB_LEN]);

/**
 * Decode sense data (fixed or descriptor format) and the ATA registers it carries.
 * \return 0, or -EBADMSG when the sense data is malformed or truncated.
 */
int ss_sat_decode_sense(const uint8_t *sense, size_t len, struct ss_sat_sense *out);

#ifdef __cplusplus
}
#endif

#endif
