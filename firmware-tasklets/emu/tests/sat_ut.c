/* SAT translation: CDB byte vectors written by hand from T10 SAT (ATA PASS-THROUGH(16)),
 * checked field by field; sense bytes checked against the ATA Status Return layout. */
#include <stdint.h>

#include "emu_sat.h"
#include "emu_test.h"
#include "ss_rt.h"

struct decode_case {
	const char *name;
	uint8_t cdb[16];
	uint32_t len;
	int dir;
	uint8_t command, device, protocol, extend, ck_cond;
	uint16_t features, count;
	uint64_t lba;
};

static const struct decode_case good[] = {
	{ "IDENTIFY DEVICE, PIO data-in, one 512-byte block",
	  { 0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0xEC, 0 }, 512, 2,
	  0xEC, 0x00, 4, 0, 0, 0, 1, 0 },
	{ "READ DMA EXT, LBA 0x123456789A, 8 blocks: LBA bytes (31:24)(7:0)(39:32)(15:8)(47:40)(23:16)",
	  { 0x85, 0x0D, 0x0E, 0, 0, 0, 0x08, 0x34, 0x9A, 0x12, 0x78, 0x00, 0x56, 0x40, 0x25, 0 },
	  8 * 512, 2, 0x25, 0x40, 6, 1, 0, 0, 8, 0x123456789Aull },
	{ "WRITE DMA (28-bit), LBA(27:24) in DEVICE(3:0)",
	  { 0x85, 0x0C, 0x06, 0, 0, 0, 0x10, 0, 0xEF, 0, 0xCD, 0, 0xAB, 0x45, 0xCA, 0 },
	  16 * 512, 1, 0xCA, 0x45, 6, 0, 0, 0, 16, 0x5ABCDEF },
	{ "SMART RETURN STATUS, non-data, CK_COND",
	  { 0x85, 0x06, 0x20, 0, 0xDA, 0, 0, 0, 0, 0, 0x4F, 0, 0xC2, 0, 0xB0, 0 }, 0, 0,
	  0xB0, 0x00, 3, 0, 1, 0xDA, 0, 0xC24F00 },
	{ "PIO data-out EXT with 16-bit FEATURES",
	  { 0x85, 0x0B, 0x06, 0x01, 0x02, 0, 0x01, 0, 0x80, 0, 0, 0, 0, 0, 0x3F, 0 }, 512, 1,
	  0x3F, 0x00, 5, 1, 0, 0x0102, 1, 0x80 },
	{ "UDMA data-in, COUNT 0 under EXTEND means 65536 blocks",
	  { 0x85, 0x15, 0x0E, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x25, 0 }, 65536u * 512, 2,
	  0x25, 0x40, 10, 1, 0, 0, 0, 0 },
	{ "byte counts (BYTE_BLOCK 0): COUNT is bytes",
	  { 0x85, 0x0D, 0x0A, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0x40, 0x8B, 0 }, 100, 2,
	  0x8B, 0x40, 6, 1, 0, 0, 100, 0 },
	{ "T_LENGTH 1: length in FEATURES",
	  { 0x85, 0x0D, 0x0D, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x25, 0 }, 1024, 2,
	  0x25, 0x40, 6, 1, 0, 2, 0, 0 },
};

static void test_decode_vectors(void)
{
	for (size_t i = 0; i < SS_ARRAY_SIZE(good); i++) {
		const struct decode_case *t = &good[i];
		struct emu_sat_cmd c;
		const char *why = NULL;
		int rc = emu_sat_decode(t->cdb, t->len, t->dir, &c, &why);

		if (rc != 0) {
			fprintf(stderr, "%s: rejected: %s\n", t->name, why);
		}
		CHECK_EQ(rc, 0);
		CHECK_EQ(c.tf.command, t->command);
		CHECK_EQ(c.tf.device, t->device);
		CHECK_EQ(c.tf.features, t->features);
		CHECK_EQ(c.tf.count, t->count);
		CHECK_EQ(c.tf.lba, t->lba);
		CHECK_EQ(c.protocol, t->protocol);
		CHECK_EQ(c.extend, t->extend);
		CHECK_EQ(c.ck_cond, t->ck_cond);
		CHECK_EQ(c.xfer_len, t->len);
	}
}

static void test_decode_rejects(void)
{
	static const struct {
		const char *name;
		uint8_t cdb[16];
		uint32_t len;
		int dir;
		int asc;
	} bad[] = {
		{ "READ(10) is not pass-through",
		  { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 }, 512, 2, 0x20 },
		{ "PROTOCOL 0 hard reset",
		  { 0x85, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0 }, 0, 0, 0x24 },
		{ "PROTOCOL 12 FPDMA",
		  { 0x85, 0x19, 0x0E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x40, 0x60, 0 }, 512, 2, 0x24 },
		{ "IDENTIFY with a to-drive buffer",
		  { 0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0 }, 512, 1, 0x24 },
		{ "IDENTIFY with a 1024-byte buffer for one block",
		  { 0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0 }, 1024, 2, 0x24 },
		{ "T_LENGTH 3",
		  { 0x85, 0x08, 0x0F, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0 }, 512, 2, 0x24 },
		{ "non-data with a data buffer",
		  { 0x85, 0x06, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xE7, 0 }, 512, 2, 0x24 },
		{ "DMA with T_DIR in but a to-drive buffer",
		  { 0x85, 0x0D, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x40, 0x35, 0 }, 512, 1, 0x24 },
		{ "data protocol with T_LENGTH 0",
		  { 0x85, 0x0D, 0x08, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x40, 0x25, 0 }, 512, 2, 0x24 },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(bad); i++) {
		struct emu_sat_cmd c;
		const char *why = NULL;
		int rc = emu_sat_decode(bad[i].cdb, bad[i].len, bad[i].dir, &c, &why);

		if (rc != bad[i].asc) {
			fprintf(stderr, "%s: got asc %#x\n", bad[i].name, rc);
		}
		CHECK_EQ(rc, bad[i].asc);
		CHECK(why != NULL && why[0] != '\0');
	}
}

static void test_sense_error_descriptor(void)
{
	/* READ DMA EXT aborted with a reason code in the LBA registers */
	static const uint8_t cdb[16] = { 0x85, 0x0D, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0,
					 0x40, 0x25, 0 };
	static const uint8_t want[22] = {
		0x72, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0E,    /* ABORTED COMMAND */
		0x09, 0x0C, 0x01, 0x04,                            /* EXTEND, ERROR=ABRT */
		0x00, 0x00,                                        /* COUNT (15:8)(7:0) */
		0x02, 0x05, 0x01, 0x04, 0x00, 0x03,                /* LBA interleaved */
		0x40, 0x41,                                        /* DEVICE, STATUS */
	};
	struct ss_ata_result r = { .status = SS_ATA_STATUS_DRDY | SS_ATA_STATUS_ERR,
				   .error = SS_ATA_ERROR_ABRT, .count = 0, .lba = 0x000102030405ull };
	struct emu_sat_cmd c;
	const char *why;
	uint8_t sense[32], st = 0xff;

	CHECK_EQ(emu_sat_decode(cdb, 512, 2, &c, &why), 0);
	CHECK_EQ(emu_sat_complete(&c, &r, sense, sizeof(sense), &st), 22);
	CHECK_EQ(st, EMU_SCSI_CHECK_CONDITION);
	CHECK(memcmp(sense, want, sizeof(want)) == 0);
	/* a short sense buffer gets the first bytes only */
	memset(sense, 0xEE, sizeof(sense));
	CHECK_EQ(emu_sat_complete(&c, &r, sense, 10, &st), 10);
	CHECK(memcmp(sense, want, 10) == 0 && sense[10] == 0xEE);
}

static void test_sense_keys(void)
{
	static const uint8_t cdb[16] = { 0x85, 0x0D, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0,
					 0x40, 0x25, 0 };
	static const struct {
		uint8_t status, error, key, asc, ascq;
	} cases[] = {
		{ 0x41, SS_ATA_ERROR_UNC, 0x03, 0x11, 0x04 },   /* MEDIUM ERROR, unrecovered read */
		{ 0x41, SS_ATA_ERROR_IDNF, 0x05, 0x21, 0x00 },  /* ILLEGAL REQUEST, LBA out of range */
		{ 0x41, SS_ATA_ERROR_ABRT, 0x0B, 0x00, 0x00 },  /* ABORTED COMMAND */
		{ 0x61, 0x00, 0x04, 0x44, 0x00 },               /* DF: HARDWARE ERROR */
	};
	struct emu_sat_cmd c;
	const char *why;

	CHECK_EQ(emu_sat_decode(cdb, 512, 2, &c, &why), 0);
	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		struct ss_ata_result r = { .status = cases[i].status, .error = cases[i].error };
		uint8_t sense[32], st;

		CHECK_EQ(emu_sat_complete(&c, &r, sense, sizeof(sense), &st), 22);
		CHECK_EQ(st, EMU_SCSI_CHECK_CONDITION);
		CHECK_EQ(sense[1], cases[i].key);
		CHECK_EQ(sense[2], cases[i].asc);
		CHECK_EQ(sense[3], cases[i].ascq);
		CHECK_EQ(sense[8], 0x09);
		CHECK_EQ(sense[11], cases[i].error);
		CHECK_EQ(sense[21], cases[i].status);
	}
}

static void test_sense_success(void)
{
	static const uint8_t smart[16] = { 0x85, 0x06, 0x20, 0, 0xDA, 0, 0, 0, 0, 0, 0x4F, 0,
					   0xC2, 0, 0xB0, 0 };
	static const uint8_t want[22] = {
		0x72, 0x01, 0x00, 0x1D, 0, 0, 0, 0x0E,  /* RECOVERED, ATA PT INFORMATION AVAILABLE */
		0x09, 0x0C, 0x00, 0x00, 0x00, 0x00,      /* no EXTEND */
		0x00, 0x00, 0x00, 0x4F, 0x00, 0xC2,      /* LBA mid 4Fh, high C2h */
		0x00, 0x40,
	};
	static const uint8_t identify[16] = { 0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0,
					      0, 0, 0xEC, 0 };
	struct ss_ata_result r = { .status = SS_ATA_STATUS_DRDY, .lba = 0xC24F00 };
	struct emu_sat_cmd c;
	const char *why;
	uint8_t sense[32], st;

	CHECK_EQ(emu_sat_decode(smart, 0, 0, &c, &why), 0);
	CHECK_EQ(emu_sat_complete(&c, &r, sense, sizeof(sense), &st), 22);
	CHECK_EQ(st, EMU_SCSI_CHECK_CONDITION);
	CHECK(memcmp(sense, want, sizeof(want)) == 0);
	/* without CK_COND a good command returns GOOD and no sense */
	CHECK_EQ(emu_sat_decode(identify, 512, 2, &c, &why), 0);
	CHECK_EQ(emu_sat_complete(&c, &r, sense, sizeof(sense), &st), 0);
	CHECK_EQ(st, EMU_SCSI_GOOD);
}

static void test_sense_reject(void)
{
	static const uint8_t want[8] = { 0x72, 0x05, 0x24, 0x00, 0, 0, 0, 0x00 };
	uint8_t sense[32], st;

	CHECK_EQ(emu_sat_reject(0x24, 0x00, sense, sizeof(sense), &st), 8);
	CHECK_EQ(st, EMU_SCSI_CHECK_CONDITION);
	CHECK(memcmp(sense, want, sizeof(want)) == 0);
	CHECK_EQ(emu_sat_reject(0x24, 0x00, NULL, 0, &st), 0);
}

int main(void)
{
	RUN(test_decode_vectors);
	RUN(test_decode_rejects);
	RUN(test_sense_error_descriptor);
	RUN(test_sense_keys);
	RUN(test_sense_success);
	RUN(test_sense_reject);
	return ss_test_failures ? 1 : 0;
}
