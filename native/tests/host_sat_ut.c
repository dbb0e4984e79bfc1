/*
 * ATA PASS-THROUGH(16) encoding and sense decoding against byte vectors written by hand
 * from T10 SAT (CDB layout, ATA Status Return descriptor, fixed-format ATA sense).
 */
#include <errno.h>

#include "smartssd/sat.h"
#include "ut.h"

struct cdb_case {
	const char *name;
	struct ss_sat_cmd cmd;
	uint8_t want[16];
};

static const struct cdb_case cdb_cases[] = {
	{
		/* What `sg_sat_identify /dev/sdX` sends: PIO data-in, T_DIR from device,
		 * BYTE_BLOCK, T_LENGTH in COUNT, one sector, no EXTEND, no CK_COND. */
		"IDENTIFY DEVICE",
		{.command = 0xEC, .count = 1, .protocol = SS_SAT_PROTO_PIO_IN,
		 .dir = SS_SAT_DIR_IN},
		{0x85, 0x08, 0x0E, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		 0x00, 0xEC, 0x00},
	},
	{
		/* READ DMA EXT of LBA 0x123456789A, 8 sectors: LBA bytes interleave
		 * (31:24)(7:0)(39:32)(15:8)(47:40)(23:16) in CDB bytes 7..12. */
		"READ DMA EXT",
		{.command = 0x25, .device = 0x40, .count = 8, .lba = 0x123456789Aull,
		 .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_IN, .extend = 1},
		{0x85, 0x0D, 0x0E, 0x00, 0x00, 0x00, 0x08, 0x34, 0x9A, 0x12, 0x78, 0x00, 0x56,
		 0x40, 0x25, 0x00},
	},
	{
		/* Our vendor SEND (8Ah) of a 2-sector packet with tag 0x00030007 in LBA. */
		"OBJ SEND",
		{.command = 0x8A, .device = 0x40, .count = 2, .lba = 0x00030007,
		 .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_OUT, .extend = 1},
		{0x85, 0x0D, 0x06, 0x00, 0x00, 0x00, 0x02, 0x00, 0x07, 0x00, 0x00, 0x00, 0x03,
		 0x40, 0x8A, 0x00},
	},
	{
		/* Our vendor RECV (8Bh) of 0x1234 sectors, tag 0xABCD0102. */
		"OBJ RECV",
		{.command = 0x8B, .device = 0x40, .count = 0x1234, .lba = 0xABCD0102u,
		 .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_IN, .extend = 1},
		{0x85, 0x0D, 0x0E, 0x00, 0x00, 0x12, 0x34, 0xAB, 0x02, 0x00, 0x01, 0x00, 0xCD,
		 0x40, 0x8B, 0x00},
	},
	{
		/* SMART RETURN STATUS: non-data, CK_COND to get LBA mid/high back. */
		"SMART RETURN STATUS",
		{.command = 0xB0, .features = 0xDA, .lba = 0xC24F00,
		 .protocol = SS_SAT_PROTO_NON_DATA, .dir = SS_SAT_DIR_NONE, .ck_cond = 1},
		{0x85, 0x06, 0x20, 0x00, 0xDA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4F, 0x00, 0xC2,
		 0x00, 0xB0, 0x00},
	},
	{
		/* 28-bit WRITE DMA with LBA(27:24) = 0: DEVICE stays 40h. */
		"WRITE DMA (28-bit, low 24 bits)",
		{.command = 0xCA, .device = 0x40, .count = 16, .lba = 0x0ABCDEF,
		 .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_OUT},
		{0x85, 0x0C, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0xEF, 0x00, 0xCD, 0x00, 0xAB,
		 0x40, 0xCA, 0x00},
	},
	{
		/* 28-bit WRITE DMA: LBA(27:24) goes to DEVICE bits 3:0 (0x5ABCDEF is 27 bits,
		 * a valid 28-bit LBA). */
		"WRITE DMA (28-bit)",
		{.command = 0xCA, .device = 0x40, .count = 16, .lba = 0x5ABCDEF,
		 .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_OUT},
		{0x85, 0x0C, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0xEF, 0x00, 0xCD, 0x00, 0xAB,
		 0x45, 0xCA, 0x00},
	},
	{
		/* SMART WRITE LOG-style PIO data-out with a 16-bit feature under EXTEND. */
		"PIO OUT EXT features",
		{.command = 0x3F, .features = 0x0102, .count = 1, .lba = 0x80,
		 .protocol = SS_SAT_PROTO_PIO_OUT, .dir = SS_SAT_DIR_OUT, .extend = 1},
		{0x85, 0x0B, 0x06, 0x01, 0x02, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
		 0x00, 0x3F, 0x00},
	},
};

static void test_encode(void)
{
	for (size_t i = 0; i < sizeof(cdb_cases) / sizeof(cdb_cases[0]); i++) {
		uint8_t cdb[16];
		int rc = ss_sat_encode16(&cdb_cases[i].cmd, cdb);

		/* Every row is a valid command: a refusal fails the row, never skips it. */
		if (rc) {
			fprintf(stderr, "%s: encode refused a valid command (%d)\n",
				cdb_cases[i].name, rc);
			ut_failures++;
			continue;
		}
		for (int b = 0; b < 16; b++) {
			if (cdb[b] != cdb_cases[i].want[b]) {
				fprintf(stderr, "%s: CDB byte %d = 0x%02x, expected 0x%02x\n",
					cdb_cases[i].name, b, cdb[b], cdb_cases[i].want[b]);
				ut_failures++;
			}
		}
	}
}

static void test_encode_rejects(void)
{
	uint8_t cdb[16];
	struct ss_sat_cmd c = {.command = 0x25, .count = 1, .protocol = SS_SAT_PROTO_DMA,
			       .dir = SS_SAT_DIR_IN};

	c.lba = 1u << 28; /* past 28 bits without EXTEND */
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.lba = 0x5ABCDEF0; /* 31 bits */
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.lba = 0xFFFFFFF; /* the largest 28-bit LBA is fine */
	CHECK_EQ(ss_sat_encode16(&c, cdb), 0);
	CHECK_EQ(cdb[13], 0x0F);
	c.lba = 0;
	c.count = 256;
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.extend = 1;
	c.lba = 1ull << 48;
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.lba = 0;
	c.protocol = SS_SAT_PROTO_PIO_IN;
	c.dir = SS_SAT_DIR_OUT;
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.protocol = SS_SAT_PROTO_NON_DATA;
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
	c.protocol = 9;
	CHECK_EQ(ss_sat_encode16(&c, cdb), -EINVAL);
}

static void test_sense_descriptor_recovered(void)
{
	/* CK_COND on SMART RETURN STATUS: RECOVERED ERROR, ATA PASS-THROUGH INFORMATION
	 * AVAILABLE (00h/1Dh), ATA Status Return descriptor with EXTEND. */
	static const uint8_t s[] = {
		0x72, 0x01, 0x00, 0x1D, 0x00, 0x00, 0x00, 0x0E,
		0x09, 0x0C, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x4F, 0x00, 0xC2, 0x00, 0x50,
	};
	struct ss_sat_sense o;

	CHECK_EQ(ss_sat_decode_sense(s, sizeof(s), &o), 0);
	CHECK_EQ(o.response_code, 0x72);
	CHECK_EQ(o.key, SS_SAT_KEY_RECOVERED);
	CHECK_EQ(o.asc, 0x00);
	CHECK_EQ(o.ascq, 0x1D);
	CHECK_EQ(o.has_regs, 1);
	CHECK_EQ(o.regs.extend, 1);
	CHECK_EQ(o.regs.status, 0x50);
	CHECK_EQ(o.regs.error, 0);
	CHECK_EQ(o.regs.lba, 0xC24F00);
}

static void test_sense_descriptor_abort(void)
{
	/* ABORTED COMMAND; ERR|DRDY, ABRT; COUNT 0x0201; LBA 0x665544332211: bytes are
	 * (31:24)=44 (7:0)=11 (39:32)=55 (15:8)=22 (47:40)=66 (23:16)=33. A sense-key-
	 * specific descriptor (02h) comes first and must be skipped. */
	static const uint8_t s[] = {
		0x72, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x16,
		0x02, 0x06, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
		0x09, 0x0C, 0x01, 0x04, 0x02, 0x01, 0x44, 0x11,
		0x55, 0x22, 0x66, 0x33, 0x40, 0x51,
	};
	struct ss_sat_sense o;

	CHECK_EQ(ss_sat_decode_sense(s, sizeof(s), &o), 0);
	CHECK_EQ(o.key, SS_SAT_KEY_ABORTED);
	CHECK_EQ(o.has_regs, 1);
	CHECK_EQ(o.regs.error, 0x04);
	CHECK_EQ(o.regs.status, 0x51);
	CHECK_EQ(o.regs.device, 0x40);
	CHECK_EQ(o.regs.count, 0x0201);
	CHECK_EQ(o.regs.lba, 0x665544332211ull);
}

static void test_sense_descriptor_no_extend(void)
{
	/* Without EXTEND the upper bytes are ignored even when non-zero. */
	static const uint8_t s[] = {
		0x72, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0E,
		0x09, 0x0C, 0x00, 0x04, 0xFF, 0x07, 0xFF, 0x0D,
		0xFF, 0x00, 0xFF, 0x00, 0x40, 0x51,
	};
	struct ss_sat_sense o;

	CHECK_EQ(ss_sat_decode_sense(s, sizeof(s), &o), 0);
	CHECK_EQ(o.regs.extend, 0);
	CHECK_EQ(o.regs.count, 7);
	CHECK_EQ(o.regs.lba, 0x0D);
}

static void test_sense_fixed(void)
{
	/* Fixed format: INFORMATION = ERROR, STATUS, DEVICE, COUNT(7:0); COMMAND-SPECIFIC =
	 * flags, LBA(7:0), LBA(15:8), LBA(23:16); ASC/ASCQ at 12/13. */
	static const uint8_t s[18] = {
		0x70, 0x00, 0x0B, 0x04, 0x51, 0x40, 0x01, 0x0A,
		0x80, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct ss_sat_sense o;

	CHECK_EQ(ss_sat_decode_sense(s, sizeof(s), &o), 0);
	CHECK_EQ(o.response_code, 0x70);
	CHECK_EQ(o.key, SS_SAT_KEY_ABORTED);
	CHECK_EQ(o.has_regs, 1);
	CHECK_EQ(o.regs.error, 0x04);
	CHECK_EQ(o.regs.status, 0x51);
	CHECK_EQ(o.regs.count, 1);
	CHECK_EQ(o.regs.lba, 0x0D);
}

static void test_sense_malformed(void)
{
	static const uint8_t too_long[] = {0x72, 0x0B, 0, 0, 0, 0, 0, 0x20, 0x09, 0x0C};
	static const uint8_t short_desc[] = {0x72, 0x0B, 0, 0, 0, 0, 0, 0x04,
					     0x09, 0x02, 0x00, 0x04};
	static const uint8_t bad_code[] = {0x7F, 0, 0, 0, 0, 0, 0, 0};
	static const uint8_t fixed_short[] = {0x70, 0, 0x0B};
	struct ss_sat_sense o;

	CHECK_EQ(ss_sat_decode_sense(too_long, sizeof(too_long), &o), -EBADMSG);
	CHECK_EQ(ss_sat_decode_sense(short_desc, sizeof(short_desc), &o), -EBADMSG);
	CHECK_EQ(ss_sat_decode_sense(bad_code, sizeof(bad_code), &o), -EBADMSG);
	CHECK_EQ(ss_sat_decode_sense(fixed_short, sizeof(fixed_short), &o), -EBADMSG);
	CHECK_EQ(ss_sat_decode_sense(NULL, 0, &o), -EBADMSG);
}

int main(void)
{
	test_encode();
	test_encode_rejects();
	test_sense_descriptor_recovered();
	test_sense_descriptor_abort();
	test_sense_descriptor_no_extend();
	test_sense_fixed();
	test_sense_malformed();
	return ut_report("host_sat_ut");
}
