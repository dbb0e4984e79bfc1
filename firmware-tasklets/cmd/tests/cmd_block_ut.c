/*
 * The LBA space: whole-page and read-modify-write sector I/O, 28- and 48-bit commands,
 * range and length checks, the object store's metadata refused to raw writes and trims,
 * TRIM (all entries checked before any is applied; trimmed sectors read zero), FLUSH and
 * durability across power loss, and media errors. The sectors exercised belong to an
 * object (its extent, from EXTENTS), as a host file system uses them: pages no object
 * owns are the store's free space, reclaimed at mount, and raw writes there are refused.
 */
#include <stdlib.h>

#include "fixture.h"

#define SPP 16   /* sectors per 8 KiB page */

static uint64_t cap;
static uint8_t *ref;   /* what the test wrote: the expected contents of [base, base + REF) */
static uint64_t base;
static uint64_t raw_oid;   /* the object "/raw" whose single extent starts at base */
#define REF_SECTORS 256

static uint64_t capacity(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t s[512];
	uint64_t c = 0;

	fx_ata(f, 0xEC, 0, 1, 0, s, 512, &res);
	for (int i = 3; i >= 0; i--) {
		c = (c << 16) | (uint64_t)(s[200 + 2 * i] | (s[201 + 2 * i] << 8));
	}
	return c;
}

static void fill(uint8_t *p, uint32_t sectors, uint32_t seed)
{
	for (uint32_t i = 0; i < sectors * 512; i++) {
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
	}
}

static void write_cmd(struct fx *f, uint8_t command, uint64_t lba, uint32_t n, uint32_t seed)
{
	struct ss_ata_result res;
	uint8_t *buf = malloc(n * 512);

	fill(buf, n, seed);
	fx_ata(f, command, 0, (uint16_t)n, lba, buf, n * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	if (lba >= base && lba + n <= base + REF_SECTORS) {
		memcpy(ref + (lba - base) * 512, buf, n * 512);
	}
	free(buf);
}

static void write_ext(struct fx *f, uint64_t lba, uint32_t n, uint32_t seed)
{
	write_cmd(f, 0x35, lba, n, seed);
}

static void verify(struct fx *f, const char *what)
{
	struct ss_ata_result res;
	uint8_t *buf = malloc(REF_SECTORS * 512);

	fx_ata(f, 0x25, 0, REF_SECTORS, base, buf, REF_SECTORS * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	if (memcmp(buf, ref, REF_SECTORS * 512) != 0) {
		for (int s = 0; s < REF_SECTORS; s++) {
			if (memcmp(buf + s * 512, ref + s * 512, 512)) {
				fprintf(stderr, "%s: sector %d differs\n", what, s);
				break;
			}
		}
		fx_failures++;
	}
	free(buf);
}

static void test_rw(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t buf[512 * 32];

	verify(f, "fresh");                      /* never written: zeros */
	write_ext(f, base, 3 * SPP, 1);          /* three whole pages */
	verify(f, "whole pages");
	write_ext(f, base + 3, 5, 2);            /* inside one page */
	verify(f, "inside a page");
	write_ext(f, base + SPP + 10, 30, 3);    /* partial, whole-less span over 3 pages */
	verify(f, "across pages");
	write_ext(f, base + 100, 1, 4);          /* one sector of a page never written */
	verify(f, "lone sector");

	/* out of range: refused, nothing written */
	fx_ata(f, 0x35, 0, 4, cap - 2, buf, 4 * 512, &res);
	CHECK(res.status & SS_ATA_STATUS_ERR);
	CHECK(res.error & SS_ATA_ERROR_IDNF);
	CHECK_EQ(res.lba, SS_R_LBA_RANGE);
	fx_ata(f, 0x25, 0, 1, UINT64_C(0xFFFFFFFFFFFF), buf, 512, &res);
	CHECK_EQ(res.lba, SS_R_LBA_RANGE);
	/* the transfer must match the count */
	fx_ata(f, 0x35, 0, 2, base, buf, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	fx_ata(f, 0x25, 0, 1, base, buf, 1024, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	verify(f, "after refusals");

	/* 28-bit READ DMA and READ SECTORS see the same data */
	fx_ata(f, 0xC8, 0, 32, base, buf, sizeof(buf), &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK(memcmp(buf, ref, sizeof(buf)) == 0);
	fx_ata(f, 0x20, 0, 1, base + 3, buf, 512, &res);
	CHECK(memcmp(buf, ref + 3 * 512, 512) == 0);
	fx_ata(f, 0xC8, 0, 1, 1u << 28, buf, 512, &res);
	CHECK_EQ(res.lba, SS_R_LBA_RANGE);
	/* 28-bit count 0 is 256 sectors */
	uint8_t *big = malloc(256 * 512);

	fx_ata(f, 0xC8, 0, 0, base, big, 256 * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK(memcmp(big, ref, 256 * 512) == 0);
	/* 28-bit WRITE DMA writes */
	fill(buf, 2, 9);
	fx_ata(f, 0xCA, 0, 2, base + 40, buf, 1024, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	memcpy(ref + 40 * 512, buf, 1024);
	verify(f, "28-bit write");
	free(big);
}

static void test_protected(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t buf[1024];
	uint8_t dsm[512];

	memset(buf, 0x5A, sizeof(buf));
	/* the object store's superblock lives at LBA 0 */
	fx_ata(f, 0x35, 0, 1, 0, buf, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_PROTECTED));
	fx_ata(f, 0xCA, 0, 2, 0, buf, 1024, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_PROTECTED));
	memset(dsm, 0, sizeof(dsm));
	dsm[0] = 0;          /* LBA 0, 8 sectors */
	dsm[6] = 8;
	fx_ata(f, 0x06, 1, 1, 0, dsm, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_PROTECTED));
	/* reading it is allowed */
	fx_ata(f, 0x25, 0, 1, 0, buf, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
}

static void put_entry(uint8_t *p, uint64_t lba, uint16_t n)
{
	uint64_t e = (lba & 0xFFFFFFFFFFFFull) | ((uint64_t)n << 48);

	for (int i = 0; i < 8; i++) {
		p[i] = (uint8_t)(e >> (8 * i));
	}
}

static void test_trim(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t dsm[1024];

	write_ext(f, base, 6 * SPP, 20);
	verify(f, "before trim");
	/* a bad second entry: nothing at all is trimmed */
	memset(dsm, 0, sizeof(dsm));
	put_entry(dsm, base + 3, 40);
	put_entry(dsm + 8, cap - 1, 2);
	fx_ata(f, 0x06, 1, 1, 0, dsm, 512, &res);
	CHECK_EQ(res.lba, SS_R_LBA_RANGE);
	CHECK(res.error & SS_ATA_ERROR_IDNF);
	verify(f, "refused trim");
	/* entries: partial+whole+partial, an empty one, a lone sector, in the second block */
	memset(dsm, 0, sizeof(dsm));
	put_entry(dsm, base + 3, 40);
	put_entry(dsm + 8, base + 70, 0);
	put_entry(dsm + 512 + 16, base + 80, 1);
	fx_ata(f, 0x06, 1, 2, 0, dsm, 1024, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	memset(ref + 3 * 512, 0, 40 * 512);
	memset(ref + 80 * 512, 0, 512);
	verify(f, "trimmed");
	/* trims survive a flush and a power loss */
	fx_ata(f, 0xEA, 0, 0, 0, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_crash(f);
	verify(f, "trimmed, after power loss");

	/* malformed DSM commands */
	fx_ata(f, 0x06, 0, 1, 0, dsm, 512, &res);              /* TRIM bit clear */
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_ata(f, 0x06, 1, 0, 0, dsm, 0, &res);                /* no range blocks */
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	fx_ata(f, 0x06, 1, 2, 0, dsm, 512, &res);              /* count vs transfer */
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	fx_ata(f, 0x06, 1, 9, 0, NULL, 9 * 512, &res);         /* more than word 105 allows */
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	verify(f, "malformed trims");
}

static void test_flush_and_power_loss(struct fx *f)
{
	struct ss_ata_result res;

	write_ext(f, base + 128, 64, 30);
	fx_ata(f, 0xE7, 0, 0, 0, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_crash(f);
	verify(f, "flushed, then power loss");
	/* WRITE DMA FUA EXT is durable without a FLUSH, whole pages and a partial one, past
	 * the drive's volatile buffer */
	write_cmd(f, 0x3D, base + 192, 32, 32);
	write_cmd(f, 0x3D, base + 161, 5, 33);
	fx_crash(f);
	verify(f, "FUA writes, then power loss");
	write_ext(f, base + 130, 3, 31);
	fx_remount(f);
	verify(f, "clean shutdown");
}

static void test_media_error(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t buf[1024];

	fx_open_session(f);
	f->fail_reads = 1;
	fx_ata(f, 0x25, 0, 1, base, buf, 512, &res);
	CHECK(res.status & SS_ATA_STATUS_ERR);
	CHECK(res.error & SS_ATA_ERROR_UNC);
	CHECK_EQ(res.lba, SS_R_MEDIA_ERROR);
	/* a partial write needs the page: refused, nothing changed */
	fx_ata(f, 0x35, 0, 1, base + 1, buf, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_MEDIA_ERROR));
	/* through the object protocol: the reply says so */
	struct fx_pkt p = { .opcode = SS_OP_LOOKUP, .payload = "/raw", .payload_len = 4 };
	struct fx_reply r;

	f->fail_reads = 0;
	CHECK_EQ(fx_call(f, &p, &r), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_READ, .oid = r.v[0], .length = 1024 };
	f->fail_reads = 1;
	CHECK_EQ(fx_call(f, &p, &r), -SS_EIO);
	CHECK_EQ(r.reason, SS_R_MEDIA_ERROR);
	f->fail_reads = 0;
	verify(f, "after media errors");
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

/* The single extent of an object of `bytes` bytes: its first LBA and its sectors. */
static void extent_of(struct fx *f, uint64_t oid, uint32_t bytes, uint64_t *lba,
		      uint32_t *sectors)
{
	struct fx_pkt p = { .opcode = SS_OP_EXTENTS, .oid = oid, .length = bytes };
	struct fx_reply r;

	*lba = 0;
	*sectors = 0;
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], 1);
	CHECK_EQ(r.payload_len, 24);
	if (r.status == 0 && r.payload_len == 24) {
		CHECK_EQ(le(r.payload, 8), 0);                 /* object offset */
		*lba = le(r.payload + 8, 8);
		*sectors = (uint32_t)le(r.payload + 16, 4);
	}
}

/* A file of REF_SECTORS zero sectors; base = the LBA of its single extent. */
static void make_file(struct fx *f)
{
	struct fx_pkt p;
	struct fx_reply r;
	uint32_t sectors;

	fx_open_session(f);
	CHECK_EQ(fx_create_path(f, "/raw", 1, 0, &raw_oid), 0);
	CHECK_EQ(fx_write(f, raw_oid, 0, ref, REF_SECTORS * 512), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	extent_of(f, raw_oid, REF_SECTORS * 512, &base, &sectors);
	CHECK(base % SPP == 0);
	CHECK(sectors >= REF_SECTORS);
}

static void raw_write_refused(struct fx *f, uint64_t lba, uint32_t n, const char *what)
{
	struct ss_ata_result res;
	uint8_t *buf = malloc(n * 512);

	fill(buf, n, 77);
	fx_ata(f, 0x35, 0, (uint16_t)n, lba, buf, n * 512, &res);
	if (!FX_ABORTED(res, SS_R_LBA_PROTECTED)) {
		fprintf(stderr, "%s: raw write at %llu not refused (status 0x%x, reason %llu)\n",
			what, (unsigned long long)lba, res.status, (unsigned long long)res.lba);
		fx_failures++;
	}
	free(buf);
}

/*
 * Raw writes belong inside live objects. Free space is refused: pages an object owned
 * until it was removed (also when the write starts in the page before them), the drive's
 * last page, and a write straddling the start of "/raw" (the page before it is the
 * store's metadata or free: the only other object, the firmware's 64-byte record, is
 * stored inline). Nothing refused changes "/raw". Inside it, a raw write survives FLUSH
 * CACHE EXT and a power loss, then a clean remount, and the object's own reads see it.
 */
static void test_owned(struct fx *f)
{
	struct fx_pkt p;
	struct fx_reply r;
	uint64_t gone, glba;
	uint32_t gsectors, nread;
	uint8_t *two = calloc(2 * SPP, 512);
	uint8_t *back = malloc(REF_SECTORS * 512);
	struct ss_ata_result res;

	fx_open_session(f);
	CHECK_EQ(fx_create_path(f, "/gone", 1, 0, &gone), 0);
	CHECK_EQ(fx_write(f, gone, 0, two, 2 * SPP * 512), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	extent_of(f, gone, 2 * SPP * 512, &glba, &gsectors);
	CHECK(gsectors >= 2 * SPP);
	CHECK(glba >= base + REF_SECTORS || glba + gsectors <= base);
	/* owned: accepted */
	fill(two, 2 * SPP, 5);
	fx_ata(f, 0x35, 0, 2 * SPP, glba, two, 2 * SPP * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	p = (struct fx_pkt){ .opcode = SS_OP_REMOVE, .payload = "/gone", .payload_len = 5 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	/* freed, before and after the removal is durable */
	raw_write_refused(f, glba, 1, "removed object");
	raw_write_refused(f, glba + SPP + 3, 4, "removed object, second page");
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	raw_write_refused(f, glba, 2 * SPP, "removed object, flushed");
	raw_write_refused(f, glba - 1, 2, "straddling the removed object's start");
	raw_write_refused(f, cap - SPP, SPP, "last page");
	raw_write_refused(f, cap - 1, 1, "last sector");
	raw_write_refused(f, base - 1, 2, "straddling the object's start");
	raw_write_refused(f, base - SPP, SPP + 1, "straddling the object's start, whole page");
	verify(f, "after refused raw writes");

	/* inside the object: durable after FLUSH CACHE EXT, across power loss and remount */
	write_ext(f, base + 5, 2 * SPP, 40);
	write_ext(f, base + REF_SECTORS - SPP, SPP, 41);
	fx_ata(f, 0xEA, 0, 0, 0, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_crash(f);
	verify(f, "raw writes in the object, after power loss");
	fx_remount(f);
	verify(f, "raw writes in the object, after remount");
	raw_write_refused(f, glba, 1, "removed object, after remount");

	/* the object's reads return the raw-written bytes; its size did not change */
	fx_open_session(f);
	CHECK_EQ(fx_read(f, raw_oid, 0, back, REF_SECTORS * 512, &nread), 0);
	CHECK_EQ(nread, REF_SECTORS * 512);
	CHECK(memcmp(back, ref, REF_SECTORS * 512) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_STAT, .oid = raw_oid };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(le(r.payload + 24, 8), REF_SECTORS * 512);
	free(back);
	free(two);
}

int main(void)
{
	struct fx f;

	fx_create(&f, 0);
	cap = capacity(&f);
	CHECK(cap > 2 * REF_SECTORS);
	ref = calloc(REF_SECTORS, 512);
	make_file(&f);
	test_rw(&f);
	test_protected(&f);
	test_trim(&f);
	test_flush_and_power_loss(&f);
	test_owned(&f);
	/* after a remount the drive's buffer is empty: the reads reach the flash */
	fx_remount(&f);
	test_media_error(&f);
	verify(&f, "end");
	free(ref);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
