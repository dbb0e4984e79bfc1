/*
 * The fuzz harness shared by the libFuzzer target (fuzz_cmd.c) and the plain replay and
 * mutation driver (replay.c): arbitrary taskfiles and data buffers into
 * ss_fw_ata_command() on a small emulated drive.
 *
 * Input: a sequence of records, each
 *   u8  command            ATA command register
 *   u8  mode               FZ_* below
 *   u16 features           little-endian, as all fields
 *   u16 count
 *   u48 lba
 *   u16 data_len           bytes of data that follow
 *   data_len bytes         the start of the data-out buffer (zero padded)
 * The transfer is count x 512 bytes (count 0: 0 bytes), or with FZ_LEN_FROM_DATA the data
 * rounded up to sectors, capped at FZ_MAX_XFER either way.
 *
 * The modes let the fuzzer reach past the packet checks: they repair chosen fields of a
 * SEND packet the way a correct host would, leaving everything else as mutated.
 */
#ifndef SS_FUZZ_HARNESS_H
#define SS_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#define FZ_FIX_CRC 0x01        /* recompute the packet CRC */
#define FZ_FIX_LBA 0x02        /* LBA := the header's tag */
#define FZ_SESSION 0x04        /* the tag's session bits := the harness's open session */
#define FZ_FIX_LENGTH 0x08     /* clamp payload_len to the buffer, count := its sectors */
#define FZ_RECV 0x10           /* RECV the tag right after an accepted SEND */
#define FZ_LEN_FROM_DATA 0x20  /* transfer = data_len rounded up to sectors */
#define FZ_LAST_OID 0x40       /* header oid := value0 of the last reply received */

/* Not an ATA command: a record with this command byte sends the records after it to the
 * drive of interface (features % 3): 0 the FTL drive (with its cache part), 1 open-channel,
 * 2 zoned (ss_proto.h's ss_interface), a second drive formatted so when it has another
 * interface. Each drive keeps its state in between. The seeds of the chunk and zone
 * opcodes start with one and end with one back to the FTL drive. */
#define FZ_CMD_DRIVE 0xFA

#define FZ_RECORD_HDR 14u
#define FZ_MAX_XFER (128u * 1024u)

/** Create and format the drive (once). \return 0 or negative errno. */
int fz_setup(void);

/** Run one input. Aborts (a crash the fuzzer reports) when an invariant breaks. */
int fz_run(const uint8_t *data, size_t size);

/**
 * The drive still mounts and serves: shut down (or, with crash, drop power), remount,
 * walk the namespace, and write, read back and remove a probe object (an open-channel or
 * zoned drive: every chunk's report is consistent and its last written sector reads).
 * With reformat the drive is formatted afresh afterwards, with the interface it has, so
 * long runs do not only see a full drive. The drive is the one records go to now.
 */
void fz_check_drive(int crash, int reformat);

/** Remove the drive image. */
void fz_teardown(void);

/** Counters of what the inputs did, for the drivers' summaries. */
struct fz_stats {
	uint64_t commands;
	uint64_t sends;
	uint64_t sends_malformed;
	uint64_t sends_accepted;
	uint64_t recvs_ok;
	uint64_t checks;
	uint64_t switches;       /* FZ_CMD_DRIVE records run */
	uint64_t chunk_checks;   /* drive checks that found an open-channel or zoned drive */
};
const struct fz_stats *fz_stats(void);

/* Encoding helpers (also used by the seed-corpus generator). */
size_t fz_record(uint8_t *out, uint8_t cmd, uint8_t mode, uint16_t features, uint16_t count,
		 uint64_t lba, const void *data, uint16_t data_len);
/** A request packet, encoded per PROTOCOL.md with a valid CRC and zero-padded to whole
 *  sectors (out must hold them); \return its length (the 64-byte header plus payload,
 *  not padded). */
size_t fz_packet(uint8_t *out, uint16_t opcode, uint32_t tag, uint32_t flags, uint64_t oid,
		 uint64_t offset, uint64_t length, uint32_t reply_max, const void *payload,
		 uint32_t payload_len);
uint32_t fz_crc32c(uint32_t crc, const void *p, size_t n);

#endif
