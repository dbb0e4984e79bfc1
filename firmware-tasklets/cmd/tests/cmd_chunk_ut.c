/*
 * Open-channel and zoned drives (PROTOCOL.md 4.8), through the ATA commands and packets a
 * host sends: the interface kept across a remount and a power loss, the other commands
 * refused with WRONG_INTERFACE, the geometry, and each rule (writes at the write pointer
 * only, in whole minimum write units, never to a full or offline chunk; reads below the
 * write pointer only; a reset counts wear; a chunk that fails its erase goes offline).
 * Wear and offline chunks are checked against the emulated flash's own erase counts and
 * failed blocks (ss_emu_flash_block_info), field offsets and opcodes are PROTOCOL.md's.
 */
#include <stdlib.h>

#include "fixture.h"

/* A setup step the rest of the test depends on. */
#define REQUIRE(cond)                                                                    \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);                                                         \
		}                                                                        \
	} while (0)
#define REQUIRE_OK(call) REQUIRE((call) == 0)

#define OC 1u
#define ZONED 2u
#define OP_GEOMETRY 0x60
#define OP_CHUNK_REPORT 0x61
#define OP_VECTOR_WRITE 0x62
#define OP_VECTOR_READ 0x63
#define OP_CHUNK_RESET 0x64
#define OP_ZONE_REPORT 0x68
#define OP_ZONE_OPEN 0x69
#define OP_ZONE_CLOSE 0x6A
#define OP_ZONE_FINISH 0x6B
#define OP_ZONE_RESET 0x6C
#define OP_ZONE_APPEND 0x6D
#define R_LBA_RANGE 29
#define R_WRONG_INTERFACE 50
#define R_NOT_WRITE_POINTER 51
#define R_WRITE_UNIT 52
#define R_CHUNK_FULL 53
#define R_CHUNK_OFFLINE 54
#define R_READ_UNWRITTEN 55
#define R_ZONE_STATE 56
#define ST_FREE 1
#define ST_OPEN 2
#define ST_OPEN_EXPLICIT 3
#define ST_CLOSED 4
#define ST_FULL 5
#define ST_OFFLINE 6

/* The fixture's drive: 4 channels x 1 way x 32 blocks of 32 pages of 8 KiB. */
#define SPP 16u                              /* sectors per page: ws_min */
#define CHUNK_SECTORS (SPP * FX_PAGES_PER_BLOCK)
#define CHUNKS_PER_PU (FX_BLOCKS_PER_DIE - 1)  /* the last row is the label's */
#define NCHUNKS (FX_CHANNELS * CHUNKS_PER_PU)

struct chunk_desc {
	uint32_t state, wear;
	uint64_t slba, wp, capacity;
};

static void make(struct fx *f, uint32_t iface, uint32_t endurance)
{
	struct fx_opts o = { .interface = iface, .endurance = endurance };

	fx_create_with(f, &o);
	fx_open_session(f);
}

/* Chunk index of (group, pu 0, chunk) and its flash block (PROTOCOL.md 4.8). */
static uint32_t chunk_index(uint32_t group, uint32_t chunk)
{
	return group * CHUNKS_PER_PU + chunk;
}

static uint32_t chunk_block(uint32_t group, uint32_t chunk)
{
	return chunk * FX_CHANNELS + group;
}

static void put_ppa(uint8_t *p, uint32_t group, uint32_t chunk, uint32_t sector)
{
	fx_put(p, group, 4);
	fx_put(p + 4, 0, 4);
	fx_put(p + 8, chunk, 4);
	fx_put(p + 12, sector, 4);
}

static void fill(uint8_t *p, uint32_t sectors, uint32_t seed)
{
	for (uint32_t i = 0; i < sectors * 512; i++) {
		p[i] = (uint8_t)(seed * 29 + i * 13 + (i >> 9));
	}
}

/* Vector write of n sectors from `sector` of one chunk, data from fill(seed). */
static int32_t vwrite(struct fx *f, uint32_t group, uint32_t chunk, uint32_t sector, uint32_t n,
		      uint32_t seed, struct fx_reply *r)
{
	uint8_t *pl = malloc(n * 16 + n * 512);
	struct fx_pkt p = { .opcode = OP_VECTOR_WRITE, .length = n, .payload = pl,
			    .payload_len = n * 16 + n * 512 };
	int32_t st;

	for (uint32_t i = 0; i < n; i++) {
		put_ppa(pl + 16 * i, group, chunk, sector + i);
	}
	fill(pl + n * 16, n, seed);
	st = fx_call(f, &p, r);
	free(pl);
	return st;
}

static int32_t vread(struct fx *f, uint32_t group, uint32_t chunk, uint32_t sector, uint32_t n,
		     uint8_t *out, struct fx_reply *r)
{
	uint8_t pl[64 * 16];
	struct fx_pkt p = { .opcode = OP_VECTOR_READ, .length = n, .payload = pl,
			    .payload_len = n * 16 };
	int32_t st;

	for (uint32_t i = 0; i < n; i++) {
		put_ppa(pl + 16 * i, group, chunk, sector + i);
	}
	st = fx_call(f, &p, r);
	if (st == 0 && out) {
		CHECK_EQ(r->payload_len, n * 512);
		memcpy(out, r->payload, n * 512);
	}
	return st;
}

static int32_t vreset(struct fx *f, uint32_t group, uint32_t chunk, struct fx_reply *r)
{
	uint8_t pl[16];
	struct fx_pkt p = { .opcode = OP_CHUNK_RESET, .length = 1, .payload = pl,
			    .payload_len = 16 };

	put_ppa(pl, group, chunk, 0);
	return fx_call(f, &p, r);
}

static struct chunk_desc report(struct fx *f, uint16_t opcode, uint32_t idx)
{
	struct fx_pkt p = { .opcode = opcode, .offset = idx, .length = 1 };
	struct chunk_desc d = { 0 };
	struct fx_reply r;

	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], 1);
	if (r.status == 0 && r.payload_len == 32) {
		d.state = (uint32_t)fx_get(r.payload, 4);
		d.wear = (uint32_t)fx_get(r.payload + 4, 4);
		d.slba = fx_get(r.payload + 8, 8);
		d.wp = fx_get(r.payload + 16, 8);
		d.capacity = fx_get(r.payload + 24, 8);
	}
	return d;
}

static uint32_t flash_erases(struct fx *f, uint32_t block)
{
	struct ss_emu_block_info bi;

	REQUIRE_OK(ss_emu_flash_block_info(f->flash, block, &bi));
	return bi.erase_count;
}

static void test_geometry(void)
{
	struct fx f;
	struct fx_pkt p = { .opcode = OP_GEOMETRY };
	struct fx_reply r;
	uint32_t bad = 0;

	make(&f, OC, 0);
	for (uint32_t b = 0; b < FX_CHANNELS * CHUNKS_PER_PU; b++) {
		struct ss_emu_block_info bi;

		REQUIRE_OK(ss_emu_flash_block_info(f.flash, b, &bi));
		bad += bi.failed || bi.factory_bad;
	}
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 48);
	CHECK_EQ(fx_get(r.payload, 4), OC);
	CHECK_EQ(fx_get(r.payload + 4, 4), FX_CHANNELS);      /* groups */
	CHECK_EQ(fx_get(r.payload + 8, 4), 1);                /* pus */
	CHECK_EQ(fx_get(r.payload + 12, 4), CHUNKS_PER_PU);
	CHECK_EQ(fx_get(r.payload + 16, 4), 512);
	CHECK_EQ(fx_get(r.payload + 20, 4), CHUNK_SECTORS);
	CHECK_EQ(fx_get(r.payload + 24, 4), SPP);             /* ws_min */
	CHECK_EQ(fx_get(r.payload + 32, 8), CHUNK_SECTORS);   /* a power of two already */
	CHECK_EQ(fx_get(r.payload + 40, 4), bad);
	/* every chunk: free and erased once by the format, or offline where the flash failed */
	for (uint32_t g = 0; g < FX_CHANNELS; g++) {
		for (uint32_t c = 0; c < CHUNKS_PER_PU; c++) {
			struct chunk_desc d = report(&f, OP_CHUNK_REPORT, chunk_index(g, c));
			struct ss_emu_block_info bi;

			REQUIRE_OK(ss_emu_flash_block_info(f.flash, chunk_block(g, c), &bi));
			CHECK_EQ(d.state, bi.failed || bi.factory_bad ? ST_OFFLINE : ST_FREE);
			CHECK_EQ(d.slba, (uint64_t)chunk_index(g, c) * CHUNK_SECTORS);
			CHECK_EQ(d.wp, d.slba);
			CHECK_EQ(d.capacity, CHUNK_SECTORS);
		}
	}
	fx_destroy(&f);
}

/* A chunk the flash has not failed. */
static uint32_t good_chunk(struct fx *f, uint32_t group, uint32_t from)
{
	for (uint32_t c = from; c < CHUNKS_PER_PU; c++) {
		if (report(f, OP_CHUNK_REPORT, chunk_index(group, c)).state == ST_FREE) {
			return c;
		}
	}
	REQUIRE(0);
	return 0;
}

static void test_refusals(void)
{
	struct fx f;
	struct fx_reply r;
	struct ss_ata_result res;
	uint8_t sector[512];
	struct fx_pkt geo = { .opcode = OP_GEOMETRY };
	struct fx_pkt info = { .opcode = SS_OP_DRIVE_INFO };

	make(&f, OC, 0);
	CHECK_EQ(fx_create_path(&f, "/x", 1, 0, NULL), -95);
	{
		struct fx_pkt p = { .opcode = SS_OP_SSC_INFO };
		struct fx_pkt t = { .opcode = SS_OP_ISP_QUEUE };

		CHECK_EQ(fx_call(&f, &p, &r), -95);
		CHECK_EQ(r.reason, R_WRONG_INTERFACE);
		CHECK_EQ(r.v[0], OC);   /* the drive says which interface it has */
		CHECK_EQ(fx_call(&f, &t, &r), -95);
		CHECK_EQ(r.reason, R_WRONG_INTERFACE);
	}
	/* the zoned opcodes are not an open-channel drive's */
	{
		struct fx_pkt p = { .opcode = OP_ZONE_OPEN, .offset = 0 };

		CHECK_EQ(fx_call(&f, &p, &r), -95);
		CHECK_EQ(r.reason, R_WRONG_INTERFACE);
	}
	fx_ata(&f, 0xB0, 0xD0, 1, 0xC24F00, sector, 512, &res);   /* SMART READ DATA */
	CHECK(FX_ABORTED(res, R_WRONG_INTERFACE));
	CHECK_EQ(fx_call(&f, &info, &r), 0);
	fx_destroy(&f);

	make(&f, ZONED, 0);
	CHECK_EQ(vreset(&f, 0, 0, &r), -95);
	CHECK_EQ(r.reason, R_WRONG_INTERFACE);
	CHECK_EQ(r.v[0], ZONED);
	fx_destroy(&f);

	/* and an FTL drive has no chunks */
	make(&f, 0, 0);
	CHECK_EQ(fx_call(&f, &geo, &r), -95);
	CHECK_EQ(r.reason, R_WRONG_INTERFACE);
	CHECK_EQ(r.v[0], 0);
	fx_destroy(&f);
}

static void test_write_rules(void)
{
	struct fx f;
	struct fx_reply r;
	uint8_t got[64 * 512], want[64 * 512];
	uint32_t c, idx;
	struct chunk_desc d;

	make(&f, OC, 0);
	c = good_chunk(&f, 1, 0);
	idx = chunk_index(1, c);
	/* not at the write pointer */
	CHECK_EQ(vwrite(&f, 1, c, SPP, SPP, 1, &r), -22);
	CHECK_EQ(r.reason, R_NOT_WRITE_POINTER);
	/* not whole minimum write units */
	CHECK_EQ(vwrite(&f, 1, c, 0, SPP / 2, 1, &r), -22);
	CHECK_EQ(r.reason, R_WRITE_UNIT);
	CHECK_EQ(report(&f, OP_CHUNK_REPORT, idx).wp, (uint64_t)idx * CHUNK_SECTORS);
	/* reads only below the write pointer: nothing is there yet */
	CHECK_EQ(vread(&f, 1, c, 0, 1, NULL, &r), -22);
	CHECK_EQ(r.reason, R_READ_UNWRITTEN);

	CHECK_EQ(vwrite(&f, 1, c, 0, 4 * SPP, 7, &r), 0);
	CHECK_EQ(r.v[0], 4 * SPP);
	d = report(&f, OP_CHUNK_REPORT, idx);
	CHECK_EQ(d.state, ST_OPEN);
	CHECK_EQ(d.wp, d.slba + 4 * SPP);
	/* the same place again is behind the write pointer now */
	CHECK_EQ(vwrite(&f, 1, c, 0, SPP, 8, &r), -22);
	CHECK_EQ(r.reason, R_NOT_WRITE_POINTER);
	CHECK_EQ(vread(&f, 1, c, 0, 4 * SPP, got, &r), 0);
	fill(want, 4 * SPP, 7);
	CHECK(memcmp(got, want, 4 * SPP * 512) == 0);
	CHECK_EQ(vread(&f, 1, c, 4 * SPP - 1, 2, NULL, &r), -22);
	CHECK_EQ(r.reason, R_READ_UNWRITTEN);

	/* to capacity: then full */
	for (uint32_t s = 4 * SPP; s < CHUNK_SECTORS; s += 4 * SPP) {
		CHECK_EQ(vwrite(&f, 1, c, s, 4 * SPP, s, &r), 0);
	}
	d = report(&f, OP_CHUNK_REPORT, idx);
	CHECK_EQ(d.state, ST_FULL);
	CHECK_EQ(d.wp, d.slba + CHUNK_SECTORS);
	CHECK_EQ(vwrite(&f, 1, c, CHUNK_SECTORS - SPP, SPP, 9, &r), -22);
	CHECK_EQ(r.reason, R_CHUNK_FULL);
	CHECK_EQ(vread(&f, 1, c, CHUNK_SECTORS - 1, 1, got, &r), 0);
	fill(want, 4 * SPP, CHUNK_SECTORS - 4 * SPP);
	CHECK(memcmp(got, want + (4 * SPP - 1) * 512, 512) == 0);

	/* a vector is checked whole before any of it is written */
	{
		uint32_t c2 = good_chunk(&f, 2, 0);
		uint8_t *pl = calloc(1, 2 * SPP * (16 + 512));
		struct fx_pkt p = { .opcode = OP_VECTOR_WRITE, .length = 2 * SPP, .payload = pl,
				    .payload_len = 2 * SPP * (16 + 512) };

		for (uint32_t i = 0; i < SPP; i++) {
			put_ppa(pl + 16 * i, 2, c2, i);                 /* fine */
			put_ppa(pl + 16 * (SPP + i), 1, c, i);          /* the full chunk */
		}
		CHECK_EQ(fx_call(&f, &p, &r), -22);
		CHECK_EQ(r.reason, R_CHUNK_FULL);
		CHECK_EQ(report(&f, OP_CHUNK_REPORT, chunk_index(2, c2)).state, ST_FREE);
		free(pl);
	}
	/* addresses outside the geometry */
	CHECK_EQ(vwrite(&f, FX_CHANNELS, 0, 0, SPP, 1, &r), -22);
	CHECK_EQ(r.reason, R_LBA_RANGE);
	fx_destroy(&f);
}

static void test_reset_wear(void)
{
	struct fx f;
	struct fx_reply r;
	uint32_t c;
	struct chunk_desc d;

	make(&f, OC, 0);
	c = good_chunk(&f, 0, 0);
	CHECK_EQ(vwrite(&f, 0, c, 0, SPP, 1, &r), 0);
	d = report(&f, OP_CHUNK_REPORT, chunk_index(0, c));
	CHECK_EQ(d.wear, flash_erases(&f, chunk_block(0, c)));
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(vreset(&f, 0, c, &r), 0);
		CHECK_EQ(r.v[0], 1);
	}
	d = report(&f, OP_CHUNK_REPORT, chunk_index(0, c));
	CHECK_EQ(d.state, ST_FREE);
	CHECK_EQ(d.wp, d.slba);
	CHECK_EQ(d.wear, flash_erases(&f, chunk_block(0, c)));
	CHECK_EQ(d.wear, 4);   /* the format's erase and three resets */
	CHECK_EQ(vread(&f, 0, c, 0, 1, NULL, &r), -22);
	CHECK_EQ(r.reason, R_READ_UNWRITTEN);
	/* written again from its first sector */
	CHECK_EQ(vwrite(&f, 0, c, 0, SPP, 2, &r), 0);
	/* the wear survives a remount */
	fx_remount(&f);
	fx_open_session(&f);
	CHECK_EQ(report(&f, OP_CHUNK_REPORT, chunk_index(0, c)).wear, 4);
	fx_destroy(&f);
}

static void test_offline(void)
{
	struct fx f;
	struct fx_reply r;
	struct ss_emu_block_info bi;
	uint32_t c, resets = 0;
	int32_t st;

	/* blocks wear out after about 4 erases (the profile's spread varies each one's) */
	make(&f, OC, 4);
	c = good_chunk(&f, 3, 0);
	REQUIRE_OK(ss_emu_flash_block_info(f.flash, chunk_block(3, c), &bi));
	while ((st = vreset(&f, 3, c, &r)) == 0) {
		REQUIRE(++resets < 1000);
	}
	CHECK_EQ(st, -5);
	CHECK_EQ(r.reason, R_CHUNK_OFFLINE);
	REQUIRE_OK(ss_emu_flash_block_info(f.flash, chunk_block(3, c), &bi));
	CHECK(bi.failed);
	/* the erase that failed was the one past the block's endurance */
	CHECK_EQ(1 + resets, bi.endurance);
	CHECK_EQ(report(&f, OP_CHUNK_REPORT, chunk_index(3, c)).state, ST_OFFLINE);
	CHECK_EQ(vwrite(&f, 3, c, 0, SPP, 1, &r), -5);
	CHECK_EQ(r.reason, R_CHUNK_OFFLINE);
	CHECK_EQ(vread(&f, 3, c, 0, 1, NULL, &r), -5);
	CHECK_EQ(r.reason, R_CHUNK_OFFLINE);
	CHECK_EQ(vreset(&f, 3, c, &r), -5);
	CHECK_EQ(r.reason, R_CHUNK_OFFLINE);
	/* offline for good: after a power loss too */
	fx_crash(&f);
	fx_open_session(&f);
	CHECK_EQ(report(&f, OP_CHUNK_REPORT, chunk_index(3, c)).state, ST_OFFLINE);
	fx_destroy(&f);
}

static void test_persistence(void)
{
	struct fx f;
	struct fx_reply r;
	struct fx_pkt geo = { .opcode = OP_GEOMETRY };
	uint8_t got[2 * SPP * 512], want[2 * SPP * 512];
	uint32_t c;
	struct chunk_desc d;

	make(&f, OC, 0);
	/* a power loss right after the format: the format's own chunk table is found */
	fx_crash(&f);
	fx_open_session(&f);
	c = good_chunk(&f, 2, 3);
	CHECK_EQ(vwrite(&f, 2, c, 0, 2 * SPP, 5, &r), 0);
	fx_remount(&f);
	fx_open_session(&f);
	CHECK_EQ(fx_call(&f, &geo, &r), 0);
	CHECK_EQ(fx_get(r.payload, 4), OC);
	d = report(&f, OP_CHUNK_REPORT, chunk_index(2, c));
	CHECK_EQ(d.state, ST_OPEN);
	CHECK_EQ(d.wp, d.slba + 2 * SPP);
	CHECK_EQ(vread(&f, 2, c, 0, 2 * SPP, got, &r), 0);
	fill(want, 2 * SPP, 5);
	CHECK(memcmp(got, want, sizeof(want)) == 0);
	/* a power loss after more writes: the write pointer comes from the flash */
	CHECK_EQ(vwrite(&f, 2, c, 2 * SPP, SPP, 6, &r), 0);
	fx_crash(&f);
	fx_open_session(&f);
	d = report(&f, OP_CHUNK_REPORT, chunk_index(2, c));
	CHECK_EQ(d.wp, d.slba + 3 * SPP);
	CHECK_EQ(vwrite(&f, 2, c, 3 * SPP, SPP, 7, &r), 0);
	fx_destroy(&f);
}

static int32_t zone_op(struct fx *f, uint16_t opcode, uint64_t slba, struct fx_reply *r)
{
	struct fx_pkt p = { .opcode = opcode, .offset = slba };

	return fx_call(f, &p, r);
}

static int32_t zone_append(struct fx *f, uint64_t slba, uint32_t n, uint32_t seed,
			   struct fx_reply *r)
{
	uint8_t *d = malloc(n * 512);
	struct fx_pkt p = { .opcode = OP_ZONE_APPEND, .offset = slba, .payload = d,
			    .payload_len = n * 512 };
	int32_t st;

	fill(d, n, seed);
	st = fx_call(f, &p, r);
	free(d);
	return st;
}

static void test_zones(void)
{
	struct fx f;
	struct fx_reply r;
	struct ss_ata_result res;
	uint8_t got[2 * SPP * 512], want[2 * SPP * 512];
	uint32_t z;
	uint64_t slba;
	struct chunk_desc d;

	make(&f, ZONED, 0);
	for (z = 0; report(&f, OP_ZONE_REPORT, z).state != ST_FREE; z++) {
	}
	slba = (uint64_t)z * CHUNK_SECTORS;
	/* append returns where it wrote: the write pointer */
	CHECK_EQ(zone_append(&f, slba, SPP, 1, &r), 0);
	CHECK_EQ(r.v[0], slba);
	CHECK_EQ(zone_append(&f, slba, SPP, 2, &r), 0);
	CHECK_EQ(r.v[0], slba + SPP);
	CHECK_EQ(zone_append(&f, slba, SPP / 2, 3, &r), -22);
	CHECK_EQ(r.reason, R_WRITE_UNIT);
	/* an append names the zone, not a place in it */
	CHECK_EQ(zone_append(&f, slba + SPP, SPP, 3, &r), -22);
	/* the standard write: at the write pointer only */
	fill(want, SPP, 9);
	fx_ata(&f, 0x35, 0, SPP, slba, want, SPP * 512, &res);
	CHECK(FX_ABORTED(res, R_NOT_WRITE_POINTER));
	fx_ata(&f, 0x35, 0, SPP, slba + 2 * SPP, want, SPP * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_ata(&f, 0x25, 0, 2 * SPP, slba + SPP, got, 2 * SPP * 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fill(want, SPP, 2);
	CHECK(memcmp(got, want, SPP * 512) == 0);
	fill(want, SPP, 9);
	CHECK(memcmp(got + SPP * 512, want, SPP * 512) == 0);
	fx_ata(&f, 0x25, 0, 1, slba + 3 * SPP, got, 512, &res);
	CHECK(FX_ABORTED(res, R_READ_UNWRITTEN));

	/* the state machine */
	CHECK_EQ(report(&f, OP_ZONE_REPORT, z).state, ST_OPEN);
	CHECK_EQ(zone_op(&f, OP_ZONE_CLOSE, slba, &r), 0);
	CHECK_EQ(report(&f, OP_ZONE_REPORT, z).state, ST_CLOSED);
	CHECK_EQ(zone_op(&f, OP_ZONE_OPEN, slba, &r), 0);
	CHECK_EQ(report(&f, OP_ZONE_REPORT, z).state, ST_OPEN_EXPLICIT);
	CHECK_EQ(zone_op(&f, OP_ZONE_FINISH, slba, &r), 0);
	d = report(&f, OP_ZONE_REPORT, z);
	CHECK_EQ(d.state, ST_FULL);
	CHECK_EQ(d.wp, slba + CHUNK_SECTORS);
	CHECK_EQ(zone_append(&f, slba, SPP, 4, &r), -28);
	CHECK_EQ(r.reason, R_CHUNK_FULL);
	CHECK_EQ(zone_op(&f, OP_ZONE_OPEN, slba, &r), -22);
	CHECK_EQ(r.reason, R_ZONE_STATE);
	/* finished past its data: the rest reads as zeros, after a remount too */
	fx_remount(&f);
	fx_open_session(&f);
	CHECK_EQ(report(&f, OP_ZONE_REPORT, z).state, ST_FULL);
	fx_ata(&f, 0x25, 0, 1, slba + CHUNK_SECTORS - 1, got, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	memset(want, 0, 512);
	CHECK(memcmp(got, want, 512) == 0);
	CHECK_EQ(zone_op(&f, OP_ZONE_RESET, slba, &r), 0);
	d = report(&f, OP_ZONE_REPORT, z);
	CHECK_EQ(d.state, ST_FREE);
	CHECK_EQ(d.wp, slba);
	CHECK_EQ(d.wear, 2);
	CHECK_EQ(zone_op(&f, OP_ZONE_CLOSE, slba, &r), -22);   /* an empty zone is not open */
	CHECK_EQ(r.reason, R_ZONE_STATE);
	CHECK_EQ(zone_op(&f, OP_ZONE_RESET, slba + 1, &r), -22);   /* not a zone's start */
	/* an open zone closes at a power loss */
	CHECK_EQ(zone_append(&f, slba, SPP, 5, &r), 0);
	fx_crash(&f);
	fx_open_session(&f);
	d = report(&f, OP_ZONE_REPORT, z);
	CHECK_EQ(d.state, ST_CLOSED);
	CHECK_EQ(d.wp, slba + SPP);
	fx_destroy(&f);
}

/* PROTOCOL.md section 8's vectors of section 4.8: the encoder matches them, the drive
 * takes them. */
static void test_vectors(void)
{
	static const uint8_t geometry7[64] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x60, 0x00, 0x07, 0x00, 0x05, 0x00,
		[52] = 0x30, [60] = 0x5d, 0x88, 0x6e, 0x46,
	};
	static const uint8_t reset8[80] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x64, 0x00, 0x08, 0x00, 0x05, 0x00,
		[32] = 0x01, [48] = 0x10, [60] = 0x8c, 0xa8, 0x12, 0x8d,
		0x01, [72] = 0x02,
	};
	static const uint8_t ppa[16] = { 0x01, [8] = 0x02 };
	static uint8_t pkt[512];
	struct fx_pkt p = { .opcode = OP_GEOMETRY, .tag = 0x00050007, .reply_max = 48 };
	struct fx_reply r;
	struct fx f;

	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, geometry7, 64) == 0);
	p = (struct fx_pkt){ .opcode = OP_CHUNK_RESET, .tag = 0x00050008, .length = 1,
			     .payload = ppa, .payload_len = 16 };
	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, reset8, 80) == 0);
	make(&f, OC, 0);
	p = (struct fx_pkt){ .opcode = OP_CHUNK_RESET, .length = 1, .payload = reset8 + 64,
			     .payload_len = 16 };
	if (report(&f, OP_CHUNK_REPORT, chunk_index(1, 2)).state == ST_FREE) {
		CHECK_EQ(fx_call(&f, &p, &r), 0);
		CHECK_EQ(report(&f, OP_CHUNK_REPORT, chunk_index(1, 2)).wear, 2);
	}
	fx_destroy(&f);
}

/* VECTOR_WRITE and VECTOR_READ with SS_VECTOR_META: each sector's 8 bytes of metadata kept
 * in the page's spare beside the stamp, read back after the data, and after a power cycle;
 * a payload without them is refused BAD_LENGTH; a drive whose spare cannot hold them
 * (8 + 16 sectors x 8 bytes > 64) refuses the flag BAD_FIELD. */
static int32_t vmeta(struct fx *f, uint16_t op, uint32_t group, uint32_t chunk, uint32_t n,
		     uint32_t payload_len, const uint8_t *meta, struct fx_reply *r)
{
	uint8_t *pl = calloc(1, n * (16 + 512 + 8));
	struct fx_pkt p = { .opcode = op, .flags = SS_VECTOR_META, .length = n, .payload = pl,
			    .payload_len = payload_len, .reply_max = n * (512 + 8) };
	int32_t st;

	for (uint32_t i = 0; i < n; i++) {
		put_ppa(pl + 16 * i, group, chunk, i);
	}
	if (op == OP_VECTOR_WRITE) {
		fill(pl + n * 16, n, 5);
		memcpy(pl + n * (16 + 512), meta, n * 8);
	}
	st = fx_call(f, &p, r);
	free(pl);
	return st;
}

static void test_meta(void)
{
	struct fx_opts small = { .interface = OC };
	uint8_t meta[SPP * 8], data[SPP * 512];
	struct fx_reply r;
	struct fx f;

	for (uint32_t i = 0; i < sizeof(meta); i++) {
		meta[i] = (uint8_t)(i * 3 + 11);
	}
	make(&f, OC, 0);
	{
		/* refused at the SEND: the payload has no room for the metadata */
		static uint8_t pl[SPP * (16 + 512)];
		struct fx_pkt p = { .opcode = OP_VECTOR_WRITE, .flags = SS_VECTOR_META,
				    .length = SPP, .payload = pl, .payload_len = sizeof(pl),
				    .tag = fx_tag(&f) };
		struct ss_ata_result res;

		for (uint32_t i = 0; i < SPP; i++) {
			put_ppa(pl + 16 * i, 1, 3, i);
		}
		fx_send(&f, &p, &res);
		CHECK(res.status & SS_ATA_STATUS_ERR);
		CHECK_EQ(res.lba, SS_R_BAD_LENGTH);
	}
	CHECK_EQ(vmeta(&f, OP_VECTOR_WRITE, 1, 3, SPP, SPP * (16 + 512 + 8), meta, &r), 0);
	CHECK_EQ(vmeta(&f, OP_VECTOR_READ, 1, 3, SPP, SPP * 16, NULL, &r), 0);
	CHECK_EQ(r.payload_len, SPP * (512 + 8));
	if (r.payload_len == SPP * (512 + 8)) {
		fill(data, SPP, 5);
		CHECK(memcmp(r.payload, data, sizeof(data)) == 0);
		CHECK(memcmp(r.payload + sizeof(data), meta, sizeof(meta)) == 0);
	}
	/* without the flag: the data alone */
	CHECK_EQ(vread(&f, 1, 3, 0, SPP, data, &r), 0);
	fx_crash(&f);
	fx_open_session(&f);
	CHECK_EQ(vmeta(&f, OP_VECTOR_READ, 1, 3, SPP, SPP * 16, NULL, &r), 0);
	CHECK(r.payload_len == SPP * (512 + 8) &&
	      memcmp(r.payload + SPP * 512, meta, sizeof(meta)) == 0);
	fx_destroy(&f);

	small.geo = (struct ss_geometry){ .channels = FX_CHANNELS, .ways = 1,
					  .blocks_per_die = FX_BLOCKS_PER_DIE,
					  .pages_per_block = FX_PAGES_PER_BLOCK,
					  .page_size = SPP * 512, .spare_size = 64 };
	fx_create_with(&f, &small);
	fx_open_session(&f);
	CHECK_EQ(vmeta(&f, OP_VECTOR_WRITE, 1, 3, SPP, SPP * (16 + 512 + 8), meta, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_FIELD);
	CHECK_EQ(vwrite(&f, 1, 3, 0, SPP, 5, &r), 0);
	CHECK_EQ(vmeta(&f, OP_VECTOR_READ, 1, 3, SPP, SPP * 16, NULL, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_FIELD);
	fx_destroy(&f);
}

/* The byte vector of a VECTOR_READ with SS_VECTOR_META (CRC-32C computed apart), and the
 * drive's answer to it: the sector, then its 8 bytes of metadata. */
static void test_meta_vector(void)
{
	static const uint8_t readmeta9[80] = {
		0x53, 0x53, 0x44, 0x31, 0x01, 0x00, 0x63, 0x00, 0x09, 0x00, 0x05, 0x00,
		0x01, [32] = 0x01, [48] = 0x10, [52] = 0x08, 0x02, [60] = 0x63, 0x26, 0x38, 0xe5,
		0x01, [72] = 0x02,
	};
	static uint8_t pkt[512];
	struct fx_pkt p = { .opcode = OP_VECTOR_READ, .tag = 0x00050009, .flags = SS_VECTOR_META,
			    .length = 1, .payload = readmeta9 + 64, .payload_len = 16,
			    .reply_max = 520 };
	uint8_t meta[SPP * 8], data[SPP * 512];
	struct fx_reply r;
	struct fx f;

	CHECK_EQ(fx_encode(&p, pkt), 512);
	CHECK(memcmp(pkt, readmeta9, 80) == 0);
	for (uint32_t i = 0; i < sizeof(meta); i++) {
		meta[i] = (uint8_t)(0xC0 + i);
	}
	make(&f, OC, 0);
	CHECK_EQ(vmeta(&f, OP_VECTOR_WRITE, 1, 2, SPP, SPP * (16 + 512 + 8), meta, &r), 0);
	p.tag = 0;
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 520);
	fill(data, SPP, 5);
	CHECK(r.payload_len == 520 && memcmp(r.payload, data, 512) == 0 &&
	      memcmp(r.payload + 512, meta, 8) == 0);
	fx_destroy(&f);
}

int main(void)
{
	test_vectors();
	test_geometry();
	test_refusals();
	test_write_rules();
	test_reset_wear();
	test_offline();
	test_persistence();
	test_zones();
	test_meta();
	test_meta_vector();
	fprintf(stderr, "%s (%d failures)\n", fx_failures ? "FAIL" : "ok", fx_failures);
	return fx_failures ? 1 : 0;
}
