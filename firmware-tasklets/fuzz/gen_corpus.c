/*
 * Writes the seed corpus: one file per opcode and per standard command, each a valid frame
 * (preceded by the frames that make its object exist, where it needs one).
 *   usage: fuzz_gen_corpus OUT_DIR [BPF_PROGS_DIR]
 * BPF_PROGS_DIR (BUILD/firmware-tasklets/bpf/progs) holds the eBPF objects the TASKLET_*
 * seeds load; without it those seeds are not written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartssd/builtin_tasklets.h"

#include "harness.h"
#include "ss_proto.h"

#define VALID (FZ_FIX_CRC | FZ_FIX_LBA | FZ_SESSION | FZ_FIX_LENGTH | FZ_RECV)

static const char *out_dir;
static uint8_t file[40960];
static size_t used;
static uint32_t seq = 0x100;

static void begin(void)
{
	used = 0;
}

static void finish(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(file, 1, used, f) != used || fclose(f)) {
		fprintf(stderr, "fuzz_gen_corpus: cannot write %s\n", path);
	}
}

static void send(uint8_t mode, uint16_t op, uint32_t flags, uint64_t oid, uint64_t off,
		 uint64_t len, uint32_t reply_max, const void *payload, uint32_t plen)
{
	static uint8_t pkt[FZ_MAX_XFER];
	size_t n = fz_packet(pkt, op, seq++, flags, oid, off, len, reply_max, payload, plen);

	used += fz_record(file + used, SS_ATA_OBJ_SEND, mode, 0, (uint16_t)((n + 511) / 512), 0,
			  pkt, (uint16_t)n);
}

static void ata(uint8_t cmd, uint16_t features, uint16_t count, uint64_t lba, const void *d,
		uint16_t dl)
{
	used += fz_record(file + used, cmd, 0, features, count, lba, d, dl);
}

/* The harness's own record (FZ_CMD_DRIVE): the records after it go to the drive of an
 * interface. */
static void drive(uint16_t iface)
{
	used += fz_record(file + used, FZ_CMD_DRIVE, 0, iface, 0, 0, NULL, 0);
}

/* The harness's drive as chunks: 2 groups x 1 PU x 31 chunks of 32 pages of 8 sectors. */
#define FZ_WS_MIN 8u
#define FZ_ZONE 256u

/* A vector of n sectors from `sector` of chunk 0 of group 0 (with data for a write). */
static uint32_t vector(uint8_t *p, uint32_t n, uint32_t sector, int data)
{
	memset(p, 0, n * 16);
	for (uint32_t i = 0; i < n; i++) {
		p[16 * i + 12] = (uint8_t)(sector + i);
	}
	if (!data) {
		return n * 16;
	}
	for (uint32_t i = 0; i < n * 512; i++) {
		p[n * 16 + i] = (uint8_t)(i * 7 + 1);
	}
	return n * (16 + 512);
}

static void chunk_seeds(void)
{
	static uint8_t v[FZ_WS_MIN * (16 + 512 + SS_SECTOR_META)];
	uint32_t vn;

	begin(); drive(1); send(VALID, SS_OP_GEOMETRY, 0, 0, 0, 0, 48, NULL, 0); drive(0);
	finish("op60-geometry");
	begin(); drive(1); send(VALID, SS_OP_CHUNK_REPORT, 0, 0, 0, 64, 4096, NULL, 0); drive(0);
	finish("op61-chunk-report");
	begin(); drive(1); vn = vector(v, FZ_WS_MIN, 0, 1);
	send(VALID, SS_OP_VECTOR_WRITE, 0, 0, 0, FZ_WS_MIN, 0, v, vn); drive(0);
	finish("op62-vector-write");
	begin(); drive(1); vn = vector(v, FZ_WS_MIN, 0, 1);
	send(VALID, SS_OP_VECTOR_WRITE, 0, 0, 0, FZ_WS_MIN, 0, v, vn);
	vn = vector(v, 2, 3, 0);
	send(VALID, SS_OP_VECTOR_READ, 0, 0, 0, 2, 1024, v, vn); drive(0);
	finish("op63-vector-read");
	/* the same with each sector's out-of-band metadata (SS_VECTOR_META) */
	begin(); drive(1); vn = vector(v, FZ_WS_MIN, 0, 1);
	memset(v + vn, 0xA5, FZ_WS_MIN * SS_SECTOR_META);
	send(VALID, SS_OP_VECTOR_WRITE, SS_VECTOR_META, 0, 0, FZ_WS_MIN, 0, v,
	     vn + FZ_WS_MIN * SS_SECTOR_META);
	vn = vector(v, 2, 3, 0);
	send(VALID, SS_OP_VECTOR_READ, SS_VECTOR_META, 0, 0, 2, 2 * (512 + SS_SECTOR_META), v, vn);
	drive(0);
	finish("op63-vector-read-meta");
	begin(); drive(1); vn = vector(v, FZ_WS_MIN, 0, 1);
	send(VALID, SS_OP_VECTOR_WRITE, 0, 0, 0, FZ_WS_MIN, 0, v, vn);
	vn = vector(v, 1, 0, 0);
	send(VALID, SS_OP_CHUNK_RESET, 0, 0, 0, 1, 0, v, vn); drive(0);
	finish("op64-chunk-reset");
	begin(); drive(2); send(VALID, SS_OP_ZONE_REPORT, 0, 0, 0, 64, 4096, NULL, 0); drive(0);
	finish("op68-zone-report");
	begin(); drive(2); send(VALID, SS_OP_ZONE_OPEN, 0, 0, FZ_ZONE, 0, 0, NULL, 0); drive(0);
	finish("op69-zone-open");
	begin(); drive(2); send(VALID, SS_OP_ZONE_OPEN, 0, 0, FZ_ZONE, 0, 0, NULL, 0);
	send(VALID, SS_OP_ZONE_CLOSE, 0, 0, FZ_ZONE, 0, 0, NULL, 0); drive(0);
	finish("op6a-zone-close");
	begin(); drive(2); send(VALID, SS_OP_ZONE_FINISH, 0, 0, FZ_ZONE, 0, 0, NULL, 0); drive(0);
	finish("op6b-zone-finish");
	begin(); drive(2); send(VALID, SS_OP_ZONE_FINISH, 0, 0, FZ_ZONE, 0, 0, NULL, 0);
	send(VALID, SS_OP_ZONE_RESET, 0, 0, FZ_ZONE, 0, 0, NULL, 0); drive(0);
	finish("op6c-zone-reset");
	begin(); drive(2); vn = vector(v, FZ_WS_MIN, 0, 1);
	send(VALID, SS_OP_ZONE_APPEND, 0, 0, FZ_ZONE, 0, 0, v + FZ_WS_MIN * 16, FZ_WS_MIN * 512);
	send(VALID, SS_OP_ZONE_APPEND, 0, 0, FZ_ZONE, 0, 0, v + FZ_WS_MIN * 16, FZ_WS_MIN * 512);
	drive(0);
	finish("op6d-zone-append");
	/* the standard commands of a zoned drive: a write at zone 1's write pointer, a read */
	begin(); drive(2); vn = vector(v, FZ_WS_MIN, 0, 1);
	ata(0x35, 0, FZ_WS_MIN, FZ_ZONE, v + FZ_WS_MIN * 16, FZ_WS_MIN * 512);
	ata(0x25, 0, 4, FZ_ZONE + 2, NULL, 0); drive(0);
	finish("ata35-zoned-write-read");
}

static void create(const char *path, uint32_t type)
{
	send(VALID, SS_OP_CREATE, SS_CREATE_PARENTS, 0, type, 0, 4096, path, (uint32_t)strlen(path));
}

/* group-aggregate over 16-byte records: key u8 at 0, value u32 at 4 */
static uint32_t tasklet_payload(uint8_t *p)
{
	memset(p, 0, 168 + 16);
	p[0] = 1;                 /* tasklet id */
	p[5] = 1;                 /* budget 256 bytes << 8 = 64 KiB */
	p[6] = 0;
	p[24] = 16;               /* params_len */
	p[32] = 1;                /* FIXED */
	p[35] = 2;                /* nfields */
	p[36] = 16;               /* record_size */
	p[42] = 1;                /* field 0: u8 at 0 */
	p[48] = 4;                /* field 1: u32 at 4 */
	p[50] = 3;
	p[168] = 1;               /* nkeys */
	p[171] = 1;               /* value field */
	p[172] = 0xF;             /* COUNT SUM MIN MAX */
	return 168 + 16;
}

/* A cache block is one flash page: 4 KiB on the fuzzed drive (harness.c, fz_setup). */
#define SSC_BLOCK 4096u
#define SSC_FIRST 1000u

static void ssc_write(uint16_t op, uint64_t block)
{
	static uint8_t data[SSC_BLOCK];

	memset(data, (int)(block & 0xFF), sizeof(data));
	send(VALID, op, 0, block, 0, 1, 0, data, sizeof(data));
}

static void set_attr(const char *name, const char *value)
{
	uint8_t p[512];
	size_t nl = strlen(name), vl = strlen(value);

	memcpy(p, name, nl);
	memcpy(p + nl, value, vl);
	send(VALID | FZ_LAST_OID, SS_OP_SET_ATTR, 0, 0, 0, nl, 0, p, (uint32_t)(nl + vl));
}

/* The object's oid into the last reply's value0 again, for the FZ_LAST_OID that follows. */
static void lookup(const char *path)
{
	send(VALID, SS_OP_LOOKUP, 0, 0, 0, 0, 512, path, (uint32_t)strlen(path));
}

static uint8_t elf[8192];

/* progs_dir/name.o into elf: \return its length, 0 when it cannot be read. */
static uint32_t read_elf(const char *progs_dir, const char *name)
{
	char path[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.o", progs_dir, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz_gen_corpus: cannot read %s\n", path);
		exit(1);
	}
	n = fread(elf, 1, sizeof(elf), f);
	fclose(f);
	return (uint32_t)n;
}

/* TASKLET_LOAD of progs_dir/prog.o as `name` */
static void load(const char *progs_dir, const char *prog, const char *name)
{
	static uint8_t p[sizeof(elf) + 64];
	uint32_t nl = (uint32_t)strlen(name), n = read_elf(progs_dir, prog);

	memcpy(p, name, nl);
	memcpy(p + nl, elf, n);
	send(VALID, SS_OP_TASKLET_LOAD, 0, 0, 0, nl, 0, p, nl + n);
}

/* A "bpf" instance of program "fz" over tasklet_payload's records, with a group table */
static uint32_t bpf_payload(uint8_t *p)
{
	uint8_t *bp = p + 168;

	tasklet_payload(p);
	memset(bp, 0, sizeof(struct ss_bt_bpf_params));
	p[0] = SS_BT_BPF;
	p[4] = 0;
	p[5] = 0;
	p[6] = 4;                 /* budget 256 KiB */
	p[24] = sizeof(struct ss_bt_bpf_params);
	bp[offsetof(struct ss_bt_bpf_params, name_len)] = 2;
	memcpy(bp + offsetof(struct ss_bt_bpf_params, name), "fz", 2);
	bp[offsetof(struct ss_bt_bpf_params, out_size)] = 8;
	bp[offsetof(struct ss_bt_bpf_params, group_slots)] = 64;
	bp[offsetof(struct ss_bt_bpf_params, topn)] = 4;
	return 168 + sizeof(struct ss_bt_bpf_params);
}

static void bpf_seeds(const char *dir, const uint8_t *rec, uint32_t rec_len)
{
	uint8_t ct[512];
	uint32_t ctn;

	begin(); load(dir, "isp_group", "fz"); finish("op25-tasklet-load");
	begin(); load(dir, "hostile_oob", "fz"); finish("op25-tasklet-load-refused");
	begin(); load(dir, "isp_group", "fz");
	send(VALID, SS_OP_TASKLET_LIST, 0, 0, 0, 0, 64 * 80, NULL, 0); finish("op26-tasklet-list");
	begin(); load(dir, "isp_group", "fz");
	send(VALID, SS_OP_TASKLET_REMOVE, 0, 0, 0, 0, 0, "fz", 2); finish("op27-tasklet-remove");
	/* a run of the loaded program: the instance's oid follows as op21's does */
	begin(); load(dir, "isp_group", "fz");
	send(VALID, SS_OP_CREATE_OBJECT, SS_CREATE_OBJ_OUTPUT | SS_CREATE_PARENTS, 0, 0, 0, 0, "/fz/bo", 6);
	ctn = bpf_payload(ct);
	send(VALID, SS_OP_CREATE_OBJECT, 0, 0, 0, 0, 0, ct, ctn);
	create("/fz/bi", 1);
	send(VALID | FZ_LAST_OID, SS_OP_WRITE, 0, 0, 0, 0, 0, rec, rec_len);
	send(VALID | FZ_LAST_OID, SS_OP_EXECUTE_OBJECT, 0, 0, 0, 0, 0, (uint8_t[24]){ 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16 }, 24);
	finish("op20-create-object-bpf");
}

int main(int argc, char **argv)
{
	static const uint8_t rec[16] = { 3, 0, 0, 0, 0, 0, 1, 0 };
	uint8_t ct[256], sector[512], dsm[512];
	uint32_t ctn;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s OUT_DIR [BPF_PROGS_DIR]\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	memset(sector, 0xA7, sizeof(sector));

	begin(); send(FZ_FIX_CRC | FZ_FIX_LBA | FZ_FIX_LENGTH | FZ_RECV, SS_OP_OPEN_SESSION, 0, 0, 0, 0, 0, NULL, 0); finish("op01-open-session");
	begin(); send(VALID, SS_OP_CLOSE_SESSION, 0, 0, 0, 0, 0, NULL, 0); finish("op02-close-session");
	begin(); send(FZ_FIX_CRC | FZ_FIX_LBA | FZ_FIX_LENGTH | FZ_RECV, SS_OP_DRIVE_INFO, 0, 0, 0, 0, 512, NULL, 0); finish("op03-drive-info");
	begin(); send(VALID, SS_OP_LOOKUP, 0, 0, 0, 0, 4096, "/", 1); finish("op10-lookup");
	begin(); create("/fz/a", 1); finish("op11-create");
	begin(); create("/fz/w", 1);
	send(VALID | FZ_LAST_OID, SS_OP_WRITE, SS_WRITE_FUA, 0, 100, 0, 0, "fuzz seed data", 14); finish("op12-write");
	begin(); create("/fz/w", 1);
	send(VALID | FZ_LAST_OID, SS_OP_READ, 0, 0, 0, 200, 4096, NULL, 0); finish("op13-read");
	begin(); create("/fz/t", 1);
	send(VALID | FZ_LAST_OID, SS_OP_TRUNCATE, 0, 0, 0, 5000, 0, NULL, 0); finish("op14-truncate");
	begin(); create("/fz/d/x", 1);
	send(VALID, SS_OP_REMOVE, SS_REMOVE_RECURSIVE, 0, 0, 0, 0, "/fz/d", 5); finish("op15-remove");
	begin(); create("/fz/r1", 1);
	send(VALID, SS_OP_RENAME, 0, 0, 0, 0, 0, "/fz/r1\0/fz/r2", 13); finish("op16-rename");
	begin(); send(VALID, SS_OP_STAT, 0, 0, 0, 0, 4096, "/", 1); finish("op17-stat");
	begin(); send(VALID, SS_OP_LIST, 0, 0, 0, 0, 65536, "/", 1); finish("op18-list");
	begin(); create("/fz/s", 1);
	send(VALID | FZ_LAST_OID, SS_OP_SET_TIMES, 0, 0, 123, UINT64_MAX, 0, NULL, 0); finish("op19-set-times");
	begin(); create("/fz/e", 1);
	send(VALID | FZ_LAST_OID, SS_OP_EXTENTS, 0, 0, 0, 1 << 20, 4096, NULL, 0); finish("op1a-extents");
	begin(); send(VALID, SS_OP_FLUSH, 0, 0, 0, 0, 0, NULL, 0); finish("op1b-flush");
	begin(); send(VALID, SS_OP_FSSTAT, 0, 0, 0, 0, 512, NULL, 0); finish("op1c-fsstat");
	begin(); send(VALID, SS_OP_COUNTERS, 0, 0, 0, 0, 512, NULL, 0); finish("op30-counters");
	begin(); send(VALID, SS_OP_CHECK, 0, 0, 0, 0, 512, NULL, 0); finish("op31-check");
	begin(); send(VALID, SS_OP_SSC_INFO, 0, 0, 0, 0, 512, NULL, 0); finish("op40-ssc-info");
	/* the traffic counters after a write, a clean and an evict; a reply_max one field short */
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST);
	send(VALID, SS_OP_SSC_CLEAN, 0, SSC_FIRST, 0, 1, 0, NULL, 0);
	send(VALID, SS_OP_SSC_EVICT, 0, SSC_FIRST, 0, 1, 0, NULL, 0);
	send(VALID, SS_OP_SSC_INFO, 0, 0, 0, 0, 168, NULL, 0); finish("op40-ssc-info-traffic");
	begin(); send(VALID, SS_OP_SSC_INFO, 0, 0, 0, 0, 160, NULL, 0); finish("op40-ssc-info-short");
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST); finish("op41-ssc-write-dirty");
	begin(); ssc_write(SS_OP_SSC_WRITE_CLEAN, SSC_FIRST + 1); finish("op42-ssc-write-clean");
	/* two blocks, the first present: the bitmap (8 bytes), then both blocks */
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST);
	send(VALID, SS_OP_SSC_READ, 0, SSC_FIRST, 0, 2, 8 + 2 * SSC_BLOCK, NULL, 0); finish("op43-ssc-read");
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST);
	send(VALID, SS_OP_SSC_EVICT, 0, SSC_FIRST, 0, 4, 0, NULL, 0); finish("op44-ssc-evict");
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST);
	send(VALID, SS_OP_SSC_CLEAN, 0, SSC_FIRST, 0, 1, 0, NULL, 0); finish("op45-ssc-clean");
	begin(); ssc_write(SS_OP_SSC_WRITE_DIRTY, SSC_FIRST);
	send(VALID, SS_OP_SSC_EXISTS, 0, SSC_FIRST, 0, 64, 8, NULL, 0); finish("op46-ssc-exists");
	/* two cached blocks of a 8 KiB file, scanned by the instance of op20 (LAST_OID) */
	begin(); ssc_write(SS_OP_SSC_WRITE_CLEAN, SSC_FIRST); ssc_write(SS_OP_SSC_WRITE_CLEAN, SSC_FIRST + 1);
	send(VALID, SS_OP_CREATE_OBJECT, SS_CREATE_OBJ_OUTPUT | SS_CREATE_PARENTS, 0, 0, 0, 0, "/fz/so", 6);
	ctn = tasklet_payload(ct);
	send(VALID, SS_OP_CREATE_OBJECT, 0, 0, 0, 0, 0, ct, ctn);
	send(VALID | FZ_LAST_OID, SS_OP_SSC_SCAN, 0, 0, 2 * SSC_BLOCK, 0, 2048,
	     (uint8_t[24]){ SSC_FIRST & 0xFF, SSC_FIRST >> 8, [8] = 2 }, 24);
	finish("op47-ssc-scan");
	begin(); create("/fz/at", 1); set_attr("user.layout", "wc98"); finish("op50-set-attr");
	begin(); create("/fz/at", 1); set_attr("user.layout", "wc98");
	lookup("/fz/at");
	send(VALID | FZ_LAST_OID, SS_OP_GET_ATTR, 0, 0, 0, 11, 1024, "user.layout", 11); finish("op51-get-attr");
	begin(); create("/fz/at", 1); set_attr("user.a", "1");
	lookup("/fz/at");
	send(VALID | FZ_LAST_OID, SS_OP_LIST_ATTRS, 0, 0, 0, 0, 1024, NULL, 0); finish("op52-list-attrs");
	begin(); create("/fz/at", 1); set_attr("user.a", "1");
	lookup("/fz/at");
	send(VALID | FZ_LAST_OID, SS_OP_REMOVE_ATTR, 0, 0, 0, 6, 0, "user.a", 6); finish("op53-remove-attr");
	begin(); send(VALID, SS_OP_CREATE_OBJECT, SS_CREATE_OBJ_OUTPUT | SS_CREATE_PARENTS, 0, 0, 0, 0, "/fz/out", 7);
	ctn = tasklet_payload(ct);
	send(VALID, SS_OP_CREATE_OBJECT, 0, 0, 0, 0, 0, ct, ctn); finish("op20-create-object");
	/* the instance needs the output's oid: LAST_OID puts it in the header, the payload
	 * names it too once the fuzzer finds it; until then the create fails cleanly */
	begin(); create("/fz/in", 1);
	send(VALID | FZ_LAST_OID, SS_OP_WRITE, 0, 0, 0, 0, 0, rec, sizeof(rec));
	send(VALID | FZ_LAST_OID, SS_OP_EXECUTE_OBJECT, 0, 0, 0, 0, 0, (uint8_t[24]){ 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16 }, 24);
	finish("op21-execute-object");
	begin(); send(VALID | FZ_LAST_OID, SS_OP_READ_OBJECT, 0, 0, 0, 0, 4096, NULL, 0); finish("op22-read-object");
	begin(); send(VALID | FZ_LAST_OID, SS_OP_DESTROY_OBJECT, 0, 0, 0, 0, 0, NULL, 0); finish("op23-destroy-object");
	begin(); send(VALID, SS_OP_ISP_QUEUE, 0, 0, 0, 0, 32, NULL, 0); finish("op24-isp-queue");
	/* a run executed (op21's), then the queue with it in; and a frame it refuses (oid) */
	begin(); create("/fz/in", 1);
	send(VALID | FZ_LAST_OID, SS_OP_WRITE, 0, 0, 0, 0, 0, rec, sizeof(rec));
	send(VALID | FZ_LAST_OID, SS_OP_EXECUTE_OBJECT, 0, 0, 0, 0, 0, (uint8_t[24]){ 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16 }, 24);
	send(VALID, SS_OP_ISP_QUEUE, 0, 0, 0, 0, 512, NULL, 0);
	send(VALID | FZ_LAST_OID, SS_OP_ISP_QUEUE, 0, 0, 0, 0, 32, NULL, 0);
	finish("op24-isp-queue-running");
	/* a SEND left waiting, then its RECV */
	begin(); send(FZ_FIX_CRC | FZ_FIX_LBA | FZ_SESSION | FZ_FIX_LENGTH, SS_OP_FSSTAT, 0, 0, 0, 0, 512, NULL, 0);
	used += fz_record(file + used, SS_ATA_OBJ_RECV, 0, 0, 1, 0x100u + 0x40, NULL, 0); finish("ata8b-recv");

	if (argc == 3) {
		bpf_seeds(argv[2], rec, sizeof(rec));
	}

	begin(); ata(0xEC, 0, 1, 0, NULL, 0); finish("ataec-identify");
	begin(); ata(0x25, 0, 8, 8000, NULL, 0); finish("ata25-read-dma-ext");
	begin(); ata(0x35, 0, 1, 8000, sector, 512); finish("ata35-write-dma-ext");
	begin(); ata(0xC8, 0, 1, 8000, NULL, 0); finish("atac8-read-dma");
	begin(); ata(0xCA, 0, 1, 8001, sector, 512); finish("ataca-write-dma");
	begin(); ata(0xEA, 0, 0, 0, NULL, 0); finish("ataea-flush-cache-ext");
	begin(); ata(0xE7, 0, 0, 0, NULL, 0); finish("atae7-flush-cache");
	memset(dsm, 0, sizeof(dsm));
	dsm[0] = 0x40; dsm[1] = 0x1F; dsm[6] = 8;      /* LBA 8000, 8 sectors */
	begin(); ata(0x06, 1, 1, 0, dsm, 512); finish("ata06-dsm-trim");
	begin(); ata(0xB0, 0xD0, 1, 0xC24F00, NULL, 0); finish("atab0-smart-read-data");
	begin(); ata(0xB0, 0xD1, 1, 0xC24F00, NULL, 0); finish("atab0-smart-read-thresholds");
	begin(); ata(0xB0, 0xDA, 0, 0xC24F00, NULL, 0); finish("atab0-smart-return-status");
	begin(); ata(0xB0, 0xD9, 0, 0xC24F00, NULL, 0); ata(0xB0, 0xD8, 0, 0xC24F00, NULL, 0); finish("atab0-smart-disable-enable");
	begin(); ata(0xE5, 0, 0, 0, NULL, 0); finish("atae5-check-power-mode");
	begin(); ata(0xEF, 0x02, 0, 0, NULL, 0); finish("ataef-set-features");
	/* last, so the tags of the seeds before them stay as they were */
	chunk_seeds();
	return 0;
}
