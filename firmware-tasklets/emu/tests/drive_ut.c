/* The whole emulated drive: firmware behind SAT, through ss_emu_submit. */
#include <pthread.h>
#include <stdint.h>

#include "emu_pkt.h"
#include "emu_test.h"
#include "smartssd/builtin_tasklets.h"
#include "ss_buf.h"
#include "ss_emu.h"
#include "ss_objstore.h"
#include "ss_proto.h"
#include "ss_rt.h"

static char dir[256], path[320];

static struct ss_emu_drive_opts small(void)
{
	struct ss_emu_drive_opts o = { 0 };

	o.flash.geo.channels = 4;
	o.flash.geo.ways = 1;
	o.flash.geo.blocks_per_die = 32;
	o.flash.geo.pages_per_block = 32;
	o.flash.geo.page_size = 8192;
	o.flash.geo.spare_size = 256;
	return o;
}

/* CDBs written from SAT: byte 1 = PROTOCOL << 1 | EXTEND; byte 2 = CK_COND 20h, T_DIR 08h,
 * BYTE_BLOCK 04h, T_LENGTH 2 (COUNT); 48-bit LBA interleaved in bytes 7..12. */
static const uint8_t identify_cdb[16] = { 0x85, 0x08, 0x0E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
					  0xEC, 0 };

static void rw_cdb(uint8_t cdb[16], uint8_t command, uint64_t lba, uint16_t count, int in)
{
	memset(cdb, 0, 16);
	cdb[0] = 0x85;
	cdb[1] = (6 << 1) | 1;                 /* DMA, EXTEND */
	cdb[2] = (in ? 0x08 : 0) | 0x04 | 0x02;
	cdb[5] = (uint8_t)(count >> 8);
	cdb[6] = (uint8_t)count;
	cdb[7] = (uint8_t)(lba >> 24);
	cdb[8] = (uint8_t)lba;
	cdb[9] = (uint8_t)(lba >> 32);
	cdb[10] = (uint8_t)(lba >> 8);
	cdb[11] = (uint8_t)(lba >> 40);
	cdb[12] = (uint8_t)(lba >> 16);
	cdb[13] = 0x40;
	cdb[14] = command;
}

/* ATA string: two characters per word, first in the high byte. */
static void ata_string(const uint8_t *id, int word, int chars, char *out)
{
	for (int i = 0; i < chars; i++) {
		out[i] = (char)id[word * 2 + (i ^ 1)];
	}
	out[chars] = '\0';
	for (int i = chars - 1; i >= 0 && out[i] == ' '; i--) {
		out[i] = '\0';
	}
}

static struct ss_emu_drive *format_small(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = NULL;
	char err[512];

	if (ss_emu_format(path, &o, &d, err, sizeof(err)) != 0) {
		fprintf(stderr, "format: %s\n", err);
		exit(2);
	}
	return d;
}

static void test_identify_round_trip(void)
{
	struct ss_emu_drive *d = format_small();
	const struct ss_emu_profile *p = ss_emu_profile(d);
	uint8_t id[512], sense[32], st = 0xff;
	struct ss_emu_counters before, after;
	char model[41];
	uint64_t xfer512 = (512ull * 1000000000ull + p->link_bytes_per_s - 1) / p->link_bytes_per_s;

	ss_emu_get_counters(d, &before);
	memset(id, 0, sizeof(id));
	CHECK_EQ(ss_emu_submit(d, identify_cdb, id, sizeof(id), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	ata_string(id, 27, 40, model);
	CHECK(strcmp(model, p->model) == 0);
	ss_emu_get_counters(d, &after);
	CHECK_EQ(after.host_commands - before.host_commands, 1);
	CHECK_EQ(after.link_bytes_out - before.link_bytes_out, 512);
	CHECK_EQ(after.link_busy_ns - before.link_busy_ns, p->link_cmd_overhead_ns + xfer512);
	CHECK(after.now_ns >= before.now_ns + p->link_cmd_overhead_ns + xfer512);
	CHECK_EQ(ss_emu_close(d), 0);
}

/* IDENTIFY words 100..103: the drive's 48-bit capacity in sectors. */
static uint64_t capacity(struct ss_emu_drive *d)
{
	uint8_t id[512], sense[32], st;
	uint64_t cap = 0;

	CHECK_EQ(ss_emu_submit(d, identify_cdb, id, sizeof(id), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	for (int w = 3; w >= 0; w--) {
		cap = (cap << 16) | (uint64_t)(id[(100 + w) * 2] | (id[(100 + w) * 2 + 1] << 8));
	}
	return cap;
}

static void serial_of(struct ss_emu_drive *d, char *out)
{
	uint8_t id[512], sense[32], st;

	CHECK_EQ(ss_emu_submit(d, identify_cdb, id, sizeof(id), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	ata_string(id, 10, 20, out);
}

/* ---- object packets (PROTOCOL.md section 1): enough to make an object own LBAs ------ */

#define REPLY_SECTORS 9u
#define REPLY_MAX (REPLY_SECTORS * 512u - 64u)

struct session {
	uint16_t id;
	uint16_t seq;
};

/* SEND one request asking for at most reply_max bytes of reply, RECV its reply into rep
 * (REPLY_SECTORS sectors). \return the reply's status, or -1000 when either command was
 * refused. */
static int32_t obj_call_max(struct ss_emu_drive *d, struct session *ses, uint16_t opcode,
			    uint64_t oid, uint64_t offset, uint64_t length, const void *payload,
			    uint32_t plen, uint32_t reply_max, uint8_t *rep)
{
	static uint8_t pkt[512 + 16384];   /* a header sector and 16 KiB of payload */
	uint32_t tag = ((uint32_t)ses->id << 16) | ses->seq++;
	uint32_t bytes = (64 + plen + 511) / 512 * 512;
	uint8_t cdb[16], sense[32], st;

	if (bytes > sizeof(pkt)) {
		CHECK(!"packet fits the test's buffer");
		return -1000;
	}
	memset(pkt, 0, bytes);
	ss_put_le32(pkt + 0, 0x31445353u);      /* "SSD1" */
	ss_put_le16(pkt + 4, 1);
	ss_put_le16(pkt + 6, opcode);
	ss_put_le32(pkt + 8, tag);
	ss_put_le64(pkt + 16, oid);
	ss_put_le64(pkt + 24, offset);
	ss_put_le64(pkt + 32, length);
	ss_put_le64(pkt + 40, 1000);           /* host time */
	ss_put_le32(pkt + 48, plen);
	ss_put_le32(pkt + 52, reply_max);
	if (plen) {
		memcpy(pkt + 64, payload, plen);
	}
	ss_put_le32(pkt + 60, ss_crc32c(0, pkt, 64 + plen));
	rw_cdb(cdb, SS_ATA_OBJ_SEND, tag, (uint16_t)(bytes / 512), 0);
	CHECK_EQ(ss_emu_submit(d, cdb, pkt, bytes, SS_EMU_DIR_TO_DRIVE, sense, sizeof(sense),
			       &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	if (st != SS_EMU_SCSI_GOOD) {
		return -1000;
	}
	rw_cdb(cdb, SS_ATA_OBJ_RECV, tag, REPLY_SECTORS, 1);
	CHECK_EQ(ss_emu_submit(d, cdb, rep, REPLY_SECTORS * 512, SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	if (st != SS_EMU_SCSI_GOOD) {
		return -1000;
	}
	CHECK_EQ(ss_get_le32(rep), 0x52445353u);  /* "SSDR" */
	CHECK_EQ(ss_get_le32(rep + 8), tag);
	return (int32_t)ss_get_le32(rep + 12);
}

static int32_t obj_call(struct ss_emu_drive *d, struct session *ses, uint16_t opcode,
			uint64_t oid, uint64_t offset, uint64_t length, const void *payload,
			uint32_t plen, uint8_t *rep)
{
	return obj_call_max(d, ses, opcode, oid, offset, length, payload, plen, REPLY_MAX, rep);
}

static void open_session(struct ss_emu_drive *d, struct session *ses, uint8_t *rep)
{
	ses->id = 0;
	ses->seq = 0x4321;
	CHECK_EQ(obj_call(d, ses, SS_OP_OPEN_SESSION, 0, 0, 0, NULL, 0, rep), 0);
	ses->id = (uint16_t)ss_get_le64(rep + 24);
	ses->seq = 1;
	CHECK(ses->id != 0);
}

/* A file of `bytes` (pattern `fill`), flushed; \return its oid, *lba its first extent's
 * first LBA. */
static uint64_t make_file(struct ss_emu_drive *d, struct session *ses, uint32_t bytes,
			  uint8_t fill, uint64_t *lba)
{
	static uint8_t data[16384], rep[REPLY_SECTORS * 512];
	uint64_t oid;

	memset(data, fill, bytes);
	CHECK_EQ(obj_call(d, ses, SS_OP_CREATE, 0, 1, 0, "/f", 2, rep), 0);
	oid = ss_get_le64(rep + 24);
	CHECK_EQ(obj_call(d, ses, SS_OP_WRITE, oid, 0, 0, data, bytes, rep), 0);
	CHECK_EQ(obj_call(d, ses, SS_OP_FLUSH, 0, 0, 0, NULL, 0, rep), 0);
	CHECK_EQ(obj_call(d, ses, SS_OP_EXTENTS, oid, 0, bytes, NULL, 0, rep), 0);
	CHECK_EQ(ss_get_le64(rep + 24), 1);           /* one extent */
	CHECK_EQ(ss_get_le32(rep + 20), 24);
	CHECK_EQ(ss_get_le64(rep + 64), 0);           /* at object offset 0 */
	CHECK(ss_get_le32(rep + 64 + 16) >= bytes / 512);
	*lba = ss_get_le64(rep + 64 + 8);
	return oid;
}

/* Raw sectors belong to objects: a file's extent is written and read by LBA, the data
 * survives a clean close and reopen, and the file reads it back; free space is refused. */
static void test_write_read_reopen(void)
{
	struct ss_emu_drive *d = format_small();
	struct ss_emu_drive_opts o = small();
	static uint8_t out[8 * 512], in[8 * 512], rep[REPLY_SECTORS * 512];
	uint8_t cdb[16], sense[32], st;
	char err[512], serial1[21], serial2[21];
	struct session ses;
	uint64_t lba, oid, free_lba = capacity(d) / 2 & ~15ull;

	for (size_t i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)(i * 13 + 5);
	}
	serial_of(d, serial1);
	open_session(d, &ses, rep);
	oid = make_file(d, &ses, 16 * 512, 0xA5, &lba);
	CHECK(lba > 0);
	CHECK(free_lba > lba + 16);

	/* the middle of the drive belongs to no object: refused, the reason in the LBA */
	rw_cdb(cdb, 0x35, free_lba, 8, 0);
	CHECK_EQ(ss_emu_submit(d, cdb, out, sizeof(out), SS_EMU_DIR_TO_DRIVE, sense,
			       sizeof(sense), &st), 22);
	CHECK_EQ(st, SS_EMU_SCSI_CHECK_CONDITION);
	CHECK(sense[21] & 0x01);               /* STATUS.ERR */
	CHECK(sense[11] & 0x04);               /* ERROR.ABRT */
	CHECK_EQ(sense[15] | (sense[17] << 8), SS_R_LBA_PROTECTED);

	rw_cdb(cdb, 0x35, lba + 8, 8, 0);      /* WRITE DMA EXT: the file's second half */
	CHECK_EQ(ss_emu_submit(d, cdb, out, sizeof(out), SS_EMU_DIR_TO_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	rw_cdb(cdb, 0x25, lba + 8, 8, 1);      /* READ DMA EXT */
	CHECK_EQ(ss_emu_submit(d, cdb, in, sizeof(in), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	CHECK_EQ(ss_emu_close(d), 0);

	/* a clean close and a mount bring the same drive back (serial from the image), with
	 * the raw-written sectors, which the file's own reads return */
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
	serial_of(d, serial2);
	CHECK(serial1[0] != '\0' && strcmp(serial1, serial2) == 0);
	memset(in, 0, sizeof(in));
	rw_cdb(cdb, 0x25, lba + 8, 8, 1);
	CHECK_EQ(ss_emu_submit(d, cdb, in, sizeof(in), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	open_session(d, &ses, rep);
	CHECK_EQ(obj_call(d, &ses, SS_OP_READ, oid, 4 * 512, 8 * 512, NULL, 0, rep), 0);
	CHECK_EQ(ss_get_le32(rep + 20), 8 * 512);
	for (int i = 0; i < 4 * 512; i++) {
		CHECK_EQ(rep[64 + i], 0xA5);       /* the object data write, untouched */
		if (rep[64 + i] != 0xA5) {
			break;
		}
	}
	CHECK(memcmp(rep + 64 + 4 * 512, out, 4 * 512) == 0);
	CHECK_EQ(ss_emu_close(d), 0);
}

/* The merge cache (nv-wb) takes the block commands' sectors as they come: a 5-sector write
 * into a page is 5 sectors in the NVM, no read-modify-write of the page; a close and a
 * mount find them there (recovered from the NVM, never written to the flash); a mount that
 * changes the buffer to hbm writes them to the flash first, and a later mount with the
 * merge cache starts it empty (what the NVM held is older than the flash by then). The
 * data is the same throughout. */
static void check_file(struct ss_emu_drive *d, uint64_t lba, int round)
{
	static uint8_t in[16 * 512];
	uint8_t cdb[16], sense[32], st;

	rw_cdb(cdb, 0x25, lba, 16, 1);
	CHECK_EQ(ss_emu_submit(d, cdb, in, sizeof(in), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	for (int i = 0; i < 16 * 512; i++) {
		uint8_t want = i >= 3 * 512 && i < 8 * 512 ? 0x3C : 0xA5;

		if (in[i] != want) {
			fprintf(stderr, "round %d byte %d: %02x, want %02x\n", round, i, in[i],
				want);
			CHECK(0);
			break;
		}
	}
}

static void test_merge_cache_sectors(void)
{
	static const char *const policy[] = { "nv-wb", NULL, "hbm", "nv-wb" };
	struct ss_emu_drive *d = format_small();
	struct ss_emu_drive_opts o = small();
	static uint8_t out[5 * 512], rep[REPLY_SECTORS * 512];
	uint8_t cdb[16], sense[32], st;
	struct ss_buf_params bp;
	struct ss_buf_stats bs;
	struct session ses;
	char err[512];
	uint64_t lba;

	open_session(d, &ses, rep);
	(void)make_file(d, &ses, 16 * 512, 0xA5, &lba);
	CHECK_EQ(ss_emu_close(d), 0);
	memset(out, 0x3C, sizeof(out));
	for (int round = 0; round < 4; round++) {
		o.buffer_policy = policy[round];
		d = NULL;
		CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
		if (!d) {
			fprintf(stderr, "open %s: %s\n", policy[round] ? policy[round] : "", err);
			return;
		}
		ss_emu_buffer_stats(d, &bp, &bs);
		CHECK_EQ(bp.policy, round == 2 ? SS_BUF_HBM : SS_BUF_NV_WB);
		if (round == 0) {
			CHECK_EQ(bs.nv_slots_used, 0);
			rw_cdb(cdb, 0x35, lba + 3, 5, 0);
			CHECK_EQ(ss_emu_submit(d, cdb, out, sizeof(out), SS_EMU_DIR_TO_DRIVE, sense,
					       sizeof(sense), &st), 0);
			ss_emu_buffer_stats(d, &bp, &bs);
			CHECK_EQ(bs.nv_slots_used, 5);
			CHECK_EQ(bs.padding_reads, 0);   /* nothing read to merge */
			CHECK_EQ(bs.write_hits, 0);
		} else if (round == 1) {
			CHECK_EQ(bs.nv_recovered, 5);
			CHECK_EQ(bs.nv_slots_used, 5);
		} else if (round == 3) {
			CHECK_EQ(bs.nv_recovered, 0);
			CHECK_EQ(bs.nv_slots_used, 0);
		}
		check_file(d, lba, round);
		CHECK_EQ(ss_emu_close(d), 0);
	}
}

/* One block command through SAT: `command` 0x35 WRITE DMA EXT or 0x25 READ DMA EXT. */
static void block_io(struct ss_emu_drive *d, uint8_t command, uint64_t lba, uint16_t count,
		     uint8_t *data)
{
	uint8_t cdb[16], sense[32], st;
	int in = command == 0x25;

	rw_cdb(cdb, command, lba, count, in);
	CHECK_EQ(ss_emu_submit(d, cdb, data, count * 512u, in ? SS_EMU_DIR_FROM_DRIVE
							      : SS_EMU_DIR_TO_DRIVE,
			       sense, sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
}

#define NV_FIELD(name) offsetof(struct ss_wire_counters, buffer_nv_##name)

/* SMART READ DATA (B0h, D0h) through SAT, PIO data-in; \return attribute `id`'s raw value
 * (-1 when absent). */
static int64_t smart_raw(struct ss_emu_drive *d, uint8_t id)
{
	uint8_t cdb[16] = { 0x85, 4 << 1, 0x08 | 0x04 | 0x02 }, s[512], sense[32], st;

	cdb[4] = 0xD0;     /* features: READ DATA */
	cdb[6] = 1;        /* one sector */
	cdb[10] = 0x4F;    /* LBA mid, high: the SMART signature */
	cdb[12] = 0xC2;
	cdb[14] = 0xB0;
	CHECK_EQ(ss_emu_submit(d, cdb, s, sizeof(s), SS_EMU_DIR_FROM_DRIVE, sense, sizeof(sense),
			       &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	for (int i = 0; i < 30; i++) {
		const uint8_t *a = s + 2 + 12 * i;

		if (a[0] == id) {
			return (int64_t)(ss_get_le32(a + 5) | (uint64_t)ss_get_le16(a + 9) << 32);
		}
	}
	return -1;
}

/* The merge cache's own counters in COUNTERS, on a worked example under nv-sub with
 * 16-sector pages P0, P1 (a file's two pages; the sub-page policy caches what is less
 * than a page and sends whole pages past the cache):
 *   1. write P0 sectors 3-7: cached; the index cache misses the new page's line, then
 *      hits it for the 4 later sectors (1 miss, 4 hits); 5 sectors used;
 *   2. write all of P1: bypassed (1), the FTL flushed at the command's end (1);
 *   3. read P0 sectors 3-7: every sector cached, a read hit (hits 5);
 *   4. read all of P0: from the flash, the cached sectors laid over it (hits 6);
 *   5. write all of P0: bypassed (2), its cached sectors dropped (hits 7), the FTL
 *      flushed (2), which frees their slots (0 used).
 * The same figures from the firmware's own statistics and in SMART (155-157; 150 the read
 * hit ratio, 1 of 2 pages: 500 thousandths); a host asking for the first 224 bytes, as
 * hosts before these counters do, gets those 224. */
static void test_merge_cache_counters(void)
{
	struct ss_emu_drive *d = format_small();
	struct ss_emu_drive_opts o = small();
	static uint8_t rep[REPLY_SECTORS * 512], page[16 * 512];
	struct ss_buf_params bp;
	struct ss_buf_stats bs;
	struct session ses;
	const uint8_t *c = rep + 64;
	char err[512];
	uint64_t lba;

	open_session(d, &ses, rep);
	(void)make_file(d, &ses, 32 * 512, 0xA5, &lba);
	CHECK_EQ(lba % 16, 0);
	CHECK_EQ(ss_emu_close(d), 0);
	o.buffer_policy = "nv-sub";   /* counted from this power-up: the file's writes not */
	d = NULL;
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
	if (!d) {
		fprintf(stderr, "open nv-sub: %s\n", err);
		return;
	}
	memset(page, 0x3C, sizeof(page));
	block_io(d, 0x35, lba + 3, 5, page);
	block_io(d, 0x35, lba + 16, 16, page);
	block_io(d, 0x25, lba + 3, 5, page);
	block_io(d, 0x25, lba, 16, page);
	block_io(d, 0x35, lba, 16, page);

	open_session(d, &ses, rep);
	CHECK_EQ(obj_call(d, &ses, SS_OP_COUNTERS, 0, 0, 0, NULL, 0, rep), 0);
	CHECK_EQ(ss_get_le32(rep + 20), sizeof(struct ss_wire_counters));
	CHECK_EQ(ss_get_le32(c + offsetof(struct ss_wire_counters, buffer_policy)), SS_BUF_NV_SUB);
	CHECK_EQ(ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_write_pages)), 3);
	CHECK_EQ(ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_read_pages)), 2);
	CHECK_EQ(ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_read_hits)), 1);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(bypass_pages)), 2);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(index_misses)), 1);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(index_hits)), 7);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(ftl_flushes)), 2);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(read_cached)), 0);
	CHECK_EQ(ss_get_le64(c + NV_FIELD(prefetched)), 0);
	CHECK_EQ(ss_get_le32(c + NV_FIELD(slots_used)), 0);
	CHECK_EQ(ss_get_le32(c + NV_FIELD(recovered)), 0);
	CHECK_EQ(ss_get_le32(c + NV_FIELD(slots)),
		 ss_get_le32(c + offsetof(struct ss_wire_counters, buffer_pages)) * 16);
	CHECK_EQ(ss_get_le32(c + NV_FIELD(reserved)), 0);
	ss_emu_buffer_stats(d, &bp, &bs);
	CHECK_EQ(bs.nv_bypass_pages, 2);
	CHECK_EQ(bs.nv_index_hits, 7);
	CHECK_EQ(bs.nv_index_misses, 1);
	CHECK_EQ(bs.nv_ftl_flushes, 2);
	CHECK_EQ(smart_raw(d, 155), 2);
	CHECK_EQ(smart_raw(d, 156), 7);
	CHECK_EQ(smart_raw(d, 157), 1);
	CHECK_EQ(smart_raw(d, 150), 500);
	CHECK_EQ(smart_raw(d, 151), 0);
	CHECK_EQ(smart_raw(d, 152), (int64_t)bs.merges);

	/* the first version's reply: 224 bytes, the same figures where it has them */
	static uint8_t v1[REPLY_SECTORS * 512];
	CHECK_EQ(obj_call_max(d, &ses, SS_OP_COUNTERS, 0, 0, 0, NULL, 0, SS_WIRE_COUNTERS_V1_SIZE,
			      v1), 0);
	CHECK_EQ(ss_get_le32(v1 + 20), SS_WIRE_COUNTERS_V1_SIZE);
	CHECK(memcmp(v1 + 64 + offsetof(struct ss_wire_counters, buffer_policy),
		     c + offsetof(struct ss_wire_counters, buffer_policy),
		     SS_WIRE_COUNTERS_V1_SIZE - offsetof(struct ss_wire_counters, buffer_policy)) ==
	      0);
	CHECK_EQ(ss_emu_close(d), 0);
}

static void test_errors_carry_sense(void)
{
	struct ss_emu_drive *d = format_small();
	static uint8_t buf[512];
	uint8_t cdb[16], sense[32], st;
	int n;

	/* a CDB the translation layer refuses: ILLEGAL REQUEST, invalid field in CDB */
	n = ss_emu_submit(d, identify_cdb, buf, 512, SS_EMU_DIR_TO_DRIVE, sense,
			  sizeof(sense), &st);
	CHECK_EQ(n, 8);
	CHECK_EQ(st, SS_EMU_SCSI_CHECK_CONDITION);
	CHECK_EQ(sense[0], 0x72);
	CHECK_EQ(sense[1], 0x05);
	CHECK_EQ(sense[2], 0x24);

	/* a read past the end of the drive: the firmware fails it, the sense carries the
	 * ATA registers with ERR set */
	rw_cdb(cdb, 0x25, 0xFFFFFFFFFFull, 1, 1);
	n = ss_emu_submit(d, cdb, buf, 512, SS_EMU_DIR_FROM_DRIVE, sense, sizeof(sense), &st);
	CHECK_EQ(n, 22);
	CHECK_EQ(st, SS_EMU_SCSI_CHECK_CONDITION);
	CHECK_EQ(sense[0], 0x72);
	CHECK_EQ(sense[8], 0x09);
	CHECK_EQ(sense[9], 0x0C);
	CHECK(sense[21] & 0x01);               /* STATUS.ERR */
	CHECK(sense[11] != 0);                 /* ERROR register */

	/* CK_COND on a good command: RECOVERED ERROR, ATA PASS-THROUGH INFORMATION AVAILABLE */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x85;
	cdb[1] = (3 << 1) | 1;                 /* non-data, EXTEND */
	cdb[2] = 0x20;                         /* CK_COND */
	cdb[13] = 0x40;
	cdb[14] = 0xEA;                        /* FLUSH CACHE EXT */
	n = ss_emu_submit(d, cdb, NULL, 0, SS_EMU_DIR_NONE, sense, sizeof(sense), &st);
	CHECK_EQ(n, 22);
	CHECK_EQ(st, SS_EMU_SCSI_CHECK_CONDITION);
	CHECK_EQ(sense[1], 0x01);
	CHECK_EQ(sense[3], 0x1D);
	CHECK_EQ(sense[8], 0x09);
	CHECK_EQ(sense[21] & 0x01, 0);
	CHECK(sense[21] & 0x40);               /* DRDY */

	/* unusable arguments are refused before reaching the drive */
	CHECK_EQ(ss_emu_submit(d, identify_cdb, NULL, 512, SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), -SS_EINVAL);
	CHECK_EQ(ss_emu_submit(d, identify_cdb, buf, 512, 3, sense, sizeof(sense), &st),
		 -SS_EINVAL);
	CHECK_EQ(ss_emu_close(d), 0);
}

struct worker_arg {
	struct ss_emu_drive *d;
	int good;
};

static void *identify_worker(void *p)
{
	struct worker_arg *a = p;
	uint8_t id[512], sense[32], st;

	for (int i = 0; i < 4; i++) {
		if (ss_emu_submit(a->d, identify_cdb, id, sizeof(id), SS_EMU_DIR_FROM_DRIVE, sense,
				  sizeof(sense), &st) == 0 && st == SS_EMU_SCSI_GOOD) {
			a->good++;
		}
	}
	return NULL;
}

/* More submitters than the queue depth: all complete, each with its own answer. */
static void test_many_submitters(void)
{
	struct ss_emu_drive *d = format_small();
	enum { N = SS_EMU_QUEUE_DEPTH + 8 };
	pthread_t t[N];
	struct worker_arg a[N];
	struct ss_emu_counters c0, c1;

	ss_emu_get_counters(d, &c0);
	for (int i = 0; i < N; i++) {
		a[i].d = d;
		a[i].good = 0;
		pthread_create(&t[i], NULL, identify_worker, &a[i]);
	}
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ(a[i].good, 4);
	}
	ss_emu_get_counters(d, &c1);
	CHECK_EQ(c1.host_commands - c0.host_commands, 4 * N);
	CHECK_EQ(ss_emu_close(d), 0);
}

static void test_open_errors(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = format_small(), *e = NULL;
	struct ss_emu_flash *f = NULL;
	char err[512], other[400];

	CHECK_EQ(ss_emu_open(path, &o, &e, err, sizeof(err)), -SS_EBUSY);
	CHECK_STR_HAS(err, "smartssd-devd --image");
	CHECK_EQ(ss_emu_close(d), 0);

	/* an image with erased flash and no firmware on it */
	snprintf(other, sizeof(other), "%s/blank.img", dir);
	o.flash.create = 1;
	CHECK_EQ(ss_emu_flash_open(other, &o.flash, &f, err, sizeof(err)), 0);
	ss_emu_flash_close(f);
	CHECK(ss_emu_open(other, &o, &e, err, sizeof(err)) < 0);
	CHECK_STR_HAS(err, other);
}

/* ---- a closed image's flash pages (emu/image.c: the page area starts at the offset the
 * header keeps at byte 248, each page its data then its spare) and the FTL's record in each
 * spare (ftl/ftl_spare.c: magic "SSFT", kind at 4, lpn at 8). Corrupting one stands in for
 * failing NAND cells. ---- */

#define IMG_SPARE_MAGIC 0x54465353u
enum { IMG_KIND_DATA = 1, IMG_KIND_CKPT = 2 };

struct img {
	uint8_t *p;
	size_t len;
	uint64_t data_off;
	uint32_t page, stride, pages;
};

static void img_load(struct img *m, const char *file, uint32_t page, uint32_t spare)
{
	FILE *f = fopen(file, "rb");

	CHECK(f != NULL && fseek(f, 0, SEEK_END) == 0);
	m->len = (size_t)ftell(f);
	m->p = malloc(m->len);
	rewind(f);
	CHECK(m->p != NULL && fread(m->p, 1, m->len, f) == m->len);
	fclose(f);
	m->data_off = ss_get_le64(m->p + 248);
	m->page = page;
	m->stride = page + spare;
	m->pages = (uint32_t)((m->len - m->data_off) / m->stride);
}

static void img_store(const struct img *m, const char *file)
{
	FILE *f = fopen(file, "r+b");

	CHECK(f != NULL && fwrite(m->p, 1, m->len, f) == m->len);
	fclose(f);
}

static const uint8_t *img_spare(const struct img *m, uint32_t ppn)
{
	const uint8_t *sp = m->p + m->data_off + (uint64_t)ppn * m->stride + m->page;

	return ss_get_le32(sp) == IMG_SPARE_MAGIC ? sp : NULL;
}

/* Flip a byte in the data of every page whose spare says `kind` and an lpn in [lo, hi].
 * \return how many pages. */
static uint32_t img_corrupt(struct img *m, uint8_t kind, uint32_t lo, uint32_t hi)
{
	uint32_t n = 0;

	for (uint32_t ppn = 0; ppn < m->pages; ppn++) {
		const uint8_t *sp = img_spare(m, ppn);

		if (sp && sp[4] == kind && ss_get_le32(sp + 8) >= lo && ss_get_le32(sp + 8) <= hi) {
			m->p[m->data_off + (uint64_t)ppn * m->stride + m->page / 2] ^= 0x10;
			n++;
		}
	}
	return n;
}

/* The highest page index of any checkpoint: its header (ftl/ftl_ckpt.c: the L2P pages
 * first, then the block table, the header last). */
static uint32_t img_ckpt_last(const struct img *m)
{
	uint32_t last = 0;

	for (uint32_t ppn = 0; ppn < m->pages; ppn++) {
		const uint8_t *sp = img_spare(m, ppn);

		if (sp && sp[4] == IMG_KIND_CKPT && ss_get_le32(sp + 8) > last) {
			last = ss_get_le32(sp + 8);
		}
	}
	return last;
}

/* A field of the object store's superblock (objstore/journal.c: at lpn 0 and 1). */
static uint32_t img_sb_field(const struct img *m, uint32_t off)
{
	for (uint32_t ppn = 0; ppn < m->pages; ppn++) {
		const uint8_t *sp = img_spare(m, ppn);

		if (sp && sp[4] == IMG_KIND_DATA && ss_get_le32(sp + 8) <= 1) {
			return ss_get_le32(m->p + m->data_off + (uint64_t)ppn * m->stride + off);
		}
	}
	CHECK(!"a superblock in the image");
	return 0;
}

/* CHECK's reply, its payload (ss_wire_check) at rep + 64. \return its problem code. */
static uint32_t drive_check(struct ss_emu_drive *d, uint8_t *rep)
{
	struct session ses;

	open_session(d, &ses, rep);
	CHECK_EQ(obj_call(d, &ses, SS_OP_CHECK, 0, 0, 0, NULL, 0, rep), 0);
	return ss_get_le32(rep + 64);
}

/*
 * Each structure of a corrupt image is named. The FTL's checkpoints (L2P, block table,
 * header; every copy, so there is none to fall back to) fail the open with a message that
 * says which part; the object store's superblocks, table and journal bring the drive up
 * without its store, and CHECK names the structure and the page.
 */
static void test_corrupt_structures_are_named(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = format_small(), *e = NULL;
	static uint8_t rep[REPLY_SECTORS * 512];
	struct session ses;
	struct img clean, m;
	uint32_t last, table_first, jrnl_first, jrnl_pages;
	char err[512];
	uint64_t lba;

	open_session(d, &ses, rep);
	(void)make_file(d, &ses, 2 * 8192, 0x5A, &lba);
	CHECK_EQ(ss_emu_close(d), 0);
	img_load(&clean, path, o.flash.geo.page_size, o.flash.geo.spare_size);
	last = img_ckpt_last(&clean);
	CHECK(last >= 2);
	table_first = img_sb_field(&clean, 32);
	jrnl_first = img_sb_field(&clean, 40);
	jrnl_pages = img_sb_field(&clean, 44);

	static const struct {
		int ckpt_page;     /* -1: the header (last), -2: the page before it */
		const char *says;
	} ftl[] = {
		{ 0, "a page of the newest's logical-to-physical table fails its checksum" },
		{ -2, "a page of the newest's block table fails its checksum" },
		{ -1, "the newest's header page fails its checksum" },
	};
	for (size_t i = 0; i < SS_ARRAY_SIZE(ftl); i++) {
		uint32_t at = ftl[i].ckpt_page < 0 ? last + 1 + ftl[i].ckpt_page : 0;

		m = clean;
		m.p = malloc(clean.len);
		memcpy(m.p, clean.p, clean.len);
		CHECK(img_corrupt(&m, IMG_KIND_CKPT, at, at) >= 2);   /* every checkpoint's */
		img_store(&m, path);
		free(m.p);
		CHECK_EQ(ss_emu_open(path, &o, &e, err, sizeof(err)), -SS_EBADMSG);
		CHECK_STR_HAS(err, "is corrupt: no FTL checkpoint is intact");
		CHECK_STR_HAS(err, ftl[i].says);
	}

	static const struct {
		uint32_t problem;
		int which;   /* 0: superblocks, 1: the first table page, 2: the journal */
	} store[] = {
		{ SS_OS_P_SUPERBLOCK, 0 },
		{ SS_OS_P_TABLE_UNREADABLE, 1 },
		{ SS_OS_P_JOURNAL_UNREADABLE, 2 },
	};
	for (size_t i = 0; i < SS_ARRAY_SIZE(store); i++) {
		uint32_t lo = store[i].which == 0 ? 0 : store[i].which == 1 ? table_first : jrnl_first;
		uint32_t hi = store[i].which == 0 ? 1 : store[i].which == 1 ? table_first
									     : jrnl_first + jrnl_pages - 1;
		uint32_t lpn;

		m = clean;
		m.p = malloc(clean.len);
		memcpy(m.p, clean.p, clean.len);
		CHECK(img_corrupt(&m, IMG_KIND_DATA, lo, hi) >= 1);
		img_store(&m, path);
		free(m.p);
		CHECK_EQ(ss_emu_open(path, &o, &e, err, sizeof(err)), 0);
		if (e == NULL) {
			continue;
		}
		CHECK_EQ(drive_check(e, rep), store[i].problem);
		CHECK_EQ(ss_get_le32(rep + 64 + 20), 0);   /* came up without its store */
		lpn = ss_get_le32(rep + 64 + 16);
		if (store[i].which != 0) {
			CHECK(lpn >= lo && lpn <= hi);
		}
		CHECK_EQ(ss_emu_close(e), 0);
		e = NULL;
	}
	img_store(&clean, path);
	free(clean.p);
}

/* CHECK reads every data page: one flipped byte in a file's flash page is reported with
 * the file and the page, where the trees, records and allocator are all still in order. */
static void test_check_reads_data(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = format_small(), *e = NULL;
	static uint8_t rep[REPLY_SECTORS * 512];
	uint32_t spp = o.flash.geo.page_size / 512;
	struct session ses;
	char err[512];
	struct img m;
	uint64_t lba, oid;

	open_session(d, &ses, rep);
	oid = make_file(d, &ses, 2 * 8192, 0x3C, &lba);
	CHECK_EQ(drive_check(d, rep), SS_OS_CONSISTENT);
	CHECK_EQ(ss_get_le64(rep + 64 + 56), 2);        /* data pages */
	CHECK_EQ(ss_emu_close(d), 0);

	img_load(&m, path, o.flash.geo.page_size, o.flash.geo.spare_size);
	CHECK_EQ(img_corrupt(&m, IMG_KIND_DATA, (uint32_t)(lba / spp) + 1,
			     (uint32_t)(lba / spp) + 1), 1);
	img_store(&m, path);
	free(m.p);

	CHECK_EQ(ss_emu_open(path, &o, &e, err, sizeof(err)), 0);
	CHECK_EQ(drive_check(e, rep), SS_OS_P_DATA_UNREADABLE);
	CHECK_EQ(ss_get_le64(rep + 64 + 8), oid);
	CHECK_EQ(ss_get_le32(rep + 64 + 16), lba / spp + 1);
	CHECK_EQ(ss_get_le32(rep + 64 + 20), 1);        /* the store is up */
	CHECK_EQ(ss_emu_close(e), 0);
}

/* A buffer larger than the drive's DRAM is refused for that, with the largest that fits:
 * the limit given formats, a page more does not. 1 TiB is past what the buffer indexes
 * too, which once counted for nothing and got the policy blamed. */
static void test_buffer_over_dram(void)
{
	struct ss_emu_drive_opts o = small();
	const char *at;
	char err[512];
	unsigned long long limit = 0;

	o.flash.geo.page_size = 2048;   /* the replay drive's: 1 TiB is 2^29 pages */
	o.flash.geo.spare_size = 64;
	o.flash.dram_bytes = 64ull << 20;
	o.buffer_bytes = 1ull << 40;
	CHECK_EQ(ss_emu_format(path, &o, NULL, err, sizeof(err)), -SS_ENOMEM);
	CHECK_STR_HAS(err, "a buffer of 1099511627776 bytes is over the drive's DRAM (67108864 bytes)");
	at = strstr(err, "at most ");
	CHECK(at != NULL && sscanf(at, "at most %llu bytes", &limit) == 1);
	CHECK(limit > 0 && limit < o.flash.dram_bytes && limit % o.flash.geo.page_size == 0);

	o.buffer_bytes = limit + o.flash.geo.page_size;
	CHECK_EQ(ss_emu_format(path, &o, NULL, err, sizeof(err)), -SS_ENOMEM);
	CHECK_STR_HAS(err, "over the drive's DRAM");
	o.buffer_bytes = limit;
	CHECK_EQ(ss_emu_format(path, &o, NULL, err, sizeof(err)), 0);
}

static void test_realtime_mode_runs(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = NULL;
	uint8_t id[512], sense[32], st;
	enum ss_emu_time_mode m;
	char err[512];

	CHECK_EQ(ss_emu_time_mode_parse("realtime", &m), 0);
	CHECK_EQ(m, SS_EMU_TIME_REALTIME);
	CHECK_EQ(ss_emu_time_mode_parse("virtual", &m), 0);
	CHECK_EQ(m, SS_EMU_TIME_VIRTUAL);
	CHECK_EQ(ss_emu_time_mode_parse("fast", &m), -SS_EINVAL);
	ss_emu_close(format_small());
	o.time_mode = SS_EMU_TIME_REALTIME;
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
	CHECK_EQ(ss_emu_submit(d, identify_cdb, id, sizeof(id), SS_EMU_DIR_FROM_DRIVE, sense,
			       sizeof(sense), &st), 0);
	CHECK_EQ(st, SS_EMU_SCSI_GOOD);
	CHECK_EQ(ss_emu_close(d), 0);
}

/* ---- deterministic modelled time ------------------------------------------------------ */

#define RUN_PAGES 300
#define OTHER_PAGES 16

struct run_result {
	struct ss_emu_counters c;
	uint32_t state;
	uint64_t pages_done, instructions, dram, started, finished;
	/* the second run ('x'), over the other file, and the host clock just before it was
	 * executed */
	uint32_t b_state;
	uint64_t b_started, b_finished, b_before;
};

static void progress_of(const struct emu_reply *r, struct run_result *out)
{
	const uint8_t *p = r->payload;

	CHECK(r->payload_len >= sizeof(struct ss_wire_progress));
	out->state = ss_get_le32(p + offsetof(struct ss_wire_progress, state));
	out->pages_done = ss_get_le64(p + offsetof(struct ss_wire_progress, pages_done));
	out->instructions = ss_get_le64(p + offsetof(struct ss_wire_progress, instructions));
	out->dram = ss_get_le64(p + offsetof(struct ss_wire_progress, dram_accesses));
	out->started = ss_get_le64(p + offsetof(struct ss_wire_progress, started_ns));
	out->finished = ss_get_le64(p + offsetof(struct ss_wire_progress, finished_ns));
}

/* A dram-probe instance (64 accesses a page) writing to `outobj`. \return its id. */
static uint64_t create_probe(struct ss_emu_drive *d, uint64_t outobj)
{
	uint8_t create[sizeof(struct ss_wire_create_tasklet) + sizeof(struct ss_bt_probe_params)];
	struct emu_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .payload = create,
			     .payload_len = sizeof(create) };
	struct emu_reply r;

	memset(create, 0, sizeof(create));
	ss_put_le32(create + offsetof(struct ss_wire_create_tasklet, tasklet_id), SS_BT_DRAM_PROBE);
	ss_put_le32(create + offsetof(struct ss_wire_create_tasklet, mem_budget), 4096);
	ss_put_le64(create + offsetof(struct ss_wire_create_tasklet, output_oid), outobj);
	ss_put_le32(create + offsetof(struct ss_wire_create_tasklet, params_len), 8);
	ss_put_le32(create + sizeof(struct ss_wire_create_tasklet), 64);    /* accesses */
	CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
	return r.v[0];
}

/* Queue a run of `inst` over the first `len` bytes of `in`. */
static void execute_over(struct ss_emu_drive *d, uint64_t inst, uint64_t in, uint64_t len)
{
	uint8_t input[sizeof(struct ss_wire_input)];
	struct emu_pkt p = { .opcode = SS_OP_EXECUTE_OBJECT, .oid = inst, .payload = input,
			     .payload_len = sizeof(input) };
	struct emu_reply r;

	ss_put_le64(input + 0, in);
	ss_put_le64(input + 8, 0);
	ss_put_le64(input + 16, len);
	CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
}

/*
 * A fresh drive with a file of RUN_PAGES pages and another of OTHER_PAGES; a dram-probe
 * run over the first; then `script`, one step per letter: 'p' a progress poll, 'r' a host
 * read of one page of the other file, 's' one background slice (manual mode only), 'f'
 * the rest of the run (manual mode only), 'x' a second dram-probe run over the other file
 * (once), 'w' a host write of one page to a third file; then the rest of the runs and one
 * final poll of each. With manual = 0 the controller thread runs
 * slices whenever the wall clock lets it, between the script's commands.
 */
static void run_script(int manual, const char *script, struct run_result *out)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = NULL;
	static uint8_t data[RUN_PAGES * 8192];
	struct emu_pkt poll;
	struct emu_reply r;
	uint64_t in, other, outobj, inst, inst_b = 0, late = 0;
	char err[512];
	int reads = 0, writes = 0;

	/* no buffer: every host read reaches the flash, where the run's work is */
	o.buffer_policy = "none";
	o.manual_background = manual;
	CHECK_EQ(ss_emu_format(path, &o, &d, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 7 + (i >> 13));
	}
	emu_pkt_open_session(d);
	in = emu_pkt_create(d, "/in", 0);
	emu_pkt_write(d, in, 0, data, sizeof(data));
	other = emu_pkt_create(d, "/other", 0);
	emu_pkt_write(d, other, 0, data, OTHER_PAGES * 8192);
	outobj = emu_pkt_create(d, "/probe.out", 1);
	ss_emu_run_background(d, 0);   /* whatever the writes left to do, before the run */

	inst = create_probe(d, outobj);
	execute_over(d, inst, in, sizeof(data));
	memset(&poll, 0, sizeof(poll));
	poll.opcode = SS_OP_READ_OBJECT;
	poll.oid = inst;
	for (const char *c = script; *c != '\0'; c++) {
		if (*c == 'p') {
			CHECK_EQ(emu_pkt_call(d, &poll, &r), 0);
		} else if (*c == 'r') {
			struct emu_pkt p = { .opcode = SS_OP_READ, .oid = other,
					     .offset = (uint64_t)(reads++ % OTHER_PAGES) * 8192,
					     .length = 2048 };

			CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
		} else if (*c == 'f') {
			CHECK(manual);
			ss_emu_run_background(d, 0);
		} else if (*c == 'w') {
			if (late == 0) {
				late = emu_pkt_create(d, "/late", 0);
			}
			emu_pkt_write(d, late, (uint64_t)writes++ * 8192, data, 8192);
		} else if (*c == 'x') {
			CHECK_EQ(inst_b, 0);
			inst_b = create_probe(d, emu_pkt_create(d, "/b.out", 1));
			ss_emu_get_counters(d, &out->c);
			out->b_before = out->c.host_now_ns;
			execute_over(d, inst_b, other, OTHER_PAGES * 8192);
		} else {
			CHECK(manual);
			CHECK_EQ(ss_emu_run_background(d, 1), 1);
		}
	}
	ss_emu_run_background(d, 0);
	if (inst_b) {
		struct run_result b;

		poll.oid = inst_b;
		CHECK_EQ(emu_pkt_call(d, &poll, &r), 0);
		progress_of(&r, &b);
		out->b_state = b.state;
		out->b_started = b.started;
		out->b_finished = b.finished;
		poll.oid = inst;
	}
	CHECK_EQ(emu_pkt_call(d, &poll, &r), 0);
	progress_of(&r, out);
	ss_emu_get_counters(d, &out->c);
	CHECK_EQ(ss_emu_close(d), 0);
}

static char *repeat(const char *unit, int n)
{
	static char buf[8][256];
	static int next;
	char *b = buf[next++ % 8];

	b[0] = '\0';
	for (int i = 0; i < n; i++) {
		strcat(b, unit);
	}
	return b;
}

/* Everything but the host link's own counters agrees. */
static void same_but_link(const struct run_result *a, const struct run_result *b)
{
	const struct ss_emu_counters *x = &a->c, *y = &b->c;

	CHECK_EQ(a->state, 3);                      /* DONE */
	CHECK_EQ(b->state, 3);
	CHECK_EQ(a->pages_done, RUN_PAGES);
	CHECK_EQ(b->pages_done, a->pages_done);
	CHECK_EQ(b->instructions, a->instructions);
	CHECK_EQ(b->dram, a->dram);
	CHECK(a->started > 0 && a->finished > a->started);
	CHECK_EQ(b->started, a->started);
	CHECK_EQ(b->finished, a->finished);
	CHECK_EQ(y->page_reads, x->page_reads);
	CHECK_EQ(y->page_programs, x->page_programs);
	CHECK_EQ(y->block_erases, x->block_erases);
	CHECK_EQ(y->bytes_read, x->bytes_read);
	CHECK_EQ(y->bytes_programmed, x->bytes_programmed);
	CHECK_EQ(y->syncs, x->syncs);
	CHECK_EQ(y->isp_instructions, x->isp_instructions);
	CHECK_EQ(y->isp_dram_accesses, x->isp_dram_accesses);
	CHECK_EQ(y->isp_pages, x->isp_pages);
	CHECK_EQ(y->isp_busy_ns, x->isp_busy_ns);
	CHECK_EQ(y->die_busy_ns, x->die_busy_ns);
	CHECK_EQ(y->channel_busy_ns, x->channel_busy_ns);
	CHECK_EQ(y->now_ns, x->now_ns);
	CHECK_EQ(y->energy_nand_read_nj, x->energy_nand_read_nj);
	CHECK_EQ(y->energy_nand_program_nj, x->energy_nand_program_nj);
	CHECK_EQ(y->energy_isp_nj, x->energy_isp_nj);
	CHECK_EQ(y->energy_idle_nj, x->energy_idle_nj);
	CHECK_EQ(y->energy_total_nj - y->energy_link_nj, x->energy_total_nj - x->energy_link_nj);
}

/* The host link's counters and the host clock agree too. */
static void same_link(const struct run_result *a, const struct run_result *b)
{
	CHECK_EQ(b->c.host_commands, a->c.host_commands);
	CHECK_EQ(b->c.link_busy_ns, a->c.link_busy_ns);
	CHECK_EQ(b->c.link_bytes_in, a->c.link_bytes_in);
	CHECK_EQ(b->c.link_bytes_out, a->c.link_bytes_out);
	CHECK_EQ(b->c.host_now_ns, a->c.host_now_ns);
	CHECK_EQ(b->c.energy_total_nj, a->c.energy_total_nj);
}

/* How often the host polls (a wall-clock accident) changes no modelled figure: a poll that
 * finds the run still going is not charged (emu/model.c, "Progress polls"). Polls after
 * the run is done are charged as any command. */
static void test_polling_does_not_change_modelled_time(void)
{
	struct run_result once, before, between, after, threaded;
	struct ss_emu_profile prof_kang;
	char err[256];

	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &prof_kang, err, sizeof(err)), 0);
	run_script(1, "", &once);
	/* 50 polls before the first slice: a timeline with work queued stays where it is */
	run_script(1, repeat("p", 50), &before);
	/* polls between slices: the host clock does not follow the ISP's progress */
	run_script(1, repeat("ps", 3), &between);
	/* 50 polls once the run is done: each is charged */
	run_script(1, "f" "pppppppppppppppppppppppppppppppppppppppppppppppppp", &after);
	/* the controller thread slicing whenever it gets the chance: polls land before or
	 * after the run's end as the wall clock has it */
	run_script(0, repeat("p", 50), &threaded);
	same_but_link(&once, &before);
	same_link(&once, &before);
	same_but_link(&once, &between);
	same_link(&once, &between);
	same_but_link(&once, &after);
	same_but_link(&once, &threaded);
	/* the charged polls: SEND/RECV pairs over the link, each a 512-byte SEND and a
	 * 4096-byte RECV with the command overhead on both; the host clock moved by that */
	{
		const struct ss_emu_profile *p = &prof_kang;
		uint64_t pair = 2 * p->link_cmd_overhead_ns +
				(512ull * 1000000000 + p->link_bytes_per_s - 1) / p->link_bytes_per_s +
				(4096ull * 1000000000 + p->link_bytes_per_s - 1) / p->link_bytes_per_s;
		uint64_t extra = threaded.c.link_busy_ns - once.c.link_busy_ns;

		CHECK_EQ(after.c.host_commands - once.c.host_commands, 100);
		CHECK_EQ(after.c.link_busy_ns - once.c.link_busy_ns, 50 * pair);
		CHECK_EQ(after.c.host_now_ns - once.c.host_now_ns, 50 * pair);
		/* threaded: only the polls that came after the run's end, whole pairs */
		CHECK(threaded.c.link_busy_ns >= once.c.link_busy_ns);
		CHECK_EQ(extra % pair, 0);
		CHECK(extra <= 50 * pair);
		CHECK_EQ(threaded.c.host_now_ns - once.c.host_now_ns, extra);
		CHECK(once.c.host_now_ns < once.c.now_ns);
	}
	/* the device clock is the run's finish */
	CHECK_EQ(once.c.now_ns, once.finished);
}

/* Host reads during a run never queue behind its flash work, nor it behind them: the same
 * commands give the same modelled times whether the run's slices came before or between
 * them. */
static void test_host_io_and_isp_do_not_interleave_in_the_model(void)
{
	struct run_result first, interleaved;

	run_script(1, repeat("r", 10), &first);
	run_script(1, repeat("rs", 10), &interleaved);
	/* every read reaches the flash: the script's drive has no buffer (run_script) */
	same_but_link(&first, &interleaved);
	CHECK_EQ(interleaved.c.host_commands, first.c.host_commands);
	CHECK_EQ(interleaved.c.link_busy_ns, first.c.link_busy_ns);
	CHECK(first.c.page_reads >= RUN_PAGES + 10);
}

/*
 * A run queued behind another starts no earlier than the command that executed it, and
 * both runs' modelled times are the same whether the first run was still going in
 * wall-clock time when the second was executed (manual: no slice yet), already done
 * ('f' first), or wherever the controller thread got to (threaded). Host writes after the
 * executes, before the runs start, move neither start (their programs are the host's
 * write-behind, not the runs' concern); they can move a finish, since the runs' output
 * then lands on other flash.
 */
static void test_queued_run_starts_after_its_execute(void)
{
	struct run_result busy, idle, threaded, late;
	char busy_script[512], idle_script[sizeof(busy_script) + 1];
	char late_script[sizeof(busy_script) + 16];

	memset(busy_script, 'r', 400);
	strcpy(busy_script + 400, "x");
	snprintf(idle_script, sizeof(idle_script), "f%s", busy_script);
	snprintf(late_script, sizeof(late_script), "%swwwwwwww", busy_script);
	run_script(1, busy_script, &busy);
	run_script(1, idle_script, &idle);
	run_script(0, busy_script, &threaded);
	run_script(1, late_script, &late);
	CHECK_EQ(late.started, busy.started);
	CHECK_EQ(late.b_started, busy.b_started);
	CHECK(late.c.page_programs > busy.c.page_programs);
	/* the host reads take the host clock past the first run's modelled end */
	CHECK(busy.finished < busy.b_before);
	CHECK_EQ(busy.b_state, 3);
	CHECK(busy.b_started > busy.b_before);
	CHECK(busy.b_finished > busy.b_started);
	CHECK_EQ(busy.b_before, idle.b_before);
	CHECK_EQ(busy.b_before, threaded.b_before);
	CHECK_EQ(idle.b_state, 3);
	CHECK_EQ(threaded.b_state, 3);
	CHECK_EQ(idle.b_started, busy.b_started);
	CHECK_EQ(idle.b_finished, busy.b_finished);
	CHECK_EQ(threaded.b_started, busy.b_started);
	CHECK_EQ(threaded.b_finished, busy.b_finished);
	same_but_link(&busy, &idle);
	same_but_link(&busy, &threaded);
}

/* A drive opened with withheld opcodes answers them BAD_OPCODE, as firmware that predates
 * them, and every other opcode as before; nothing of it is kept on the drive. A name the
 * firmware lacks fails the open, naming it, and leaves the image as it was. */
static void test_withheld_opcodes(void)
{
	struct ss_emu_drive_opts o = small();
	struct ss_emu_drive *d = format_small();
	struct emu_pkt queue = { .opcode = SS_OP_ISP_QUEUE };
	struct emu_pkt fsstat = { .opcode = SS_OP_FSSTAT };
	struct emu_reply r;
	char err[512];

	CHECK_EQ(ss_emu_close(d), 0);
	o.withheld_opcodes = "ISP_QUEUE,SSC_INFO";
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
	emu_pkt_open_session(d);
	CHECK_EQ(emu_pkt_call(d, &queue, &r), -1000);
	CHECK_EQ(r.reason, SS_R_BAD_OPCODE);
	queue.opcode = SS_OP_SSC_INFO;
	CHECK_EQ(emu_pkt_call(d, &queue, &r), -1000);
	CHECK_EQ(r.reason, SS_R_BAD_OPCODE);
	CHECK_EQ(emu_pkt_call(d, &fsstat, &r), 0);
	CHECK_EQ(ss_emu_close(d), 0);

	o.withheld_opcodes = "ISP_QUEUE,ISP_QEUE";
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), -SS_EINVAL);
	CHECK_STR_HAS(err, "no opcode 'ISP_QEUE'");
	o.withheld_opcodes = "ISP_QUEUE,";
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), -SS_EINVAL);
	CHECK_STR_HAS(err, "empty");

	o.withheld_opcodes = NULL;
	CHECK_EQ(ss_emu_open(path, &o, &d, err, sizeof(err)), 0);
	emu_pkt_open_session(d);
	queue.opcode = SS_OP_ISP_QUEUE;
	CHECK_EQ(emu_pkt_call(d, &queue, &r), 0);
	CHECK_EQ(r.payload_len, sizeof(struct ss_wire_isp_queue));
	CHECK_EQ(ss_emu_close(d), 0);
}

int main(void)
{
	emu_test_mkdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/drive.img", dir);
	RUN(test_identify_round_trip);
	RUN(test_write_read_reopen);
	RUN(test_merge_cache_sectors);
	RUN(test_merge_cache_counters);
	RUN(test_errors_carry_sense);
	RUN(test_many_submitters);
	RUN(test_open_errors);
	RUN(test_buffer_over_dram);
	RUN(test_corrupt_structures_are_named);
	RUN(test_check_reads_data);
	RUN(test_withheld_opcodes);
	RUN(test_realtime_mode_runs);
	RUN(test_polling_does_not_change_modelled_time);
	RUN(test_host_io_and_isp_do_not_interleave_in_the_model);
	RUN(test_queued_run_starts_after_its_execute);
	emu_test_rmdir(dir);
	return ss_test_failures ? 1 : 0;
}
