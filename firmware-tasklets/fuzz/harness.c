#define _GNU_SOURCE
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "ss_fw.h"
#include "ss_proto.h"
#include "ss_rt.h"
#include "ss_ssc_part.h"

#define CHECK_EVERY 5000u
#define MAX_RECORDS 64u
#define BIG (SS_PKT_MAX_BYTES + 1024u)
#define MAX_WALK 4096u
/* protocol values (PROTOCOL.md): object types, the root's oid, the longest name */
#define T_FILE 1u
#define T_DIR 2u
#define T_OUTPUT 3u
#define ROOT_OID 1u
#define NAME_MAX_BYTES 255u

#define FZ_ASSERT(cond)                                                                  \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "fuzz invariant broken at %s:%d: %s\n", __FILE__,   \
				__LINE__, #cond);                                        \
			abort();                                                         \
		}                                                                        \
	} while (0)

/* The drive is the command tests' fixture (cmd/tests/fixture.h) on a smaller geometry:
 * the FTL drive, or the open-channel or zoned one an FZ_CMD_DRIVE record switches to. */
static struct {
	struct fx ftl;
	struct fx chunked;    /* created at the first switch to it */
	struct fx *fx;        /* the drive the records go to */
	int up;
	uint16_t session;
	uint16_t seq;
	uint64_t last_oid;
	uint64_t runs;
	uint8_t *big;
	uint32_t iface;       /* fx's enum ss_interface */
	uint32_t chunked_iface; /* the chunked drive's, 0 before it exists */
	struct fz_stats st;
} g;

/* ---- encoding ------------------------------------------------------------------------ */

uint32_t fz_crc32c(uint32_t crc, const void *p, size_t n)
{
	return fx_crc32c(crc, p, n);
}

static void put(uint8_t *p, uint64_t v, int n)
{
	fx_put(p, v, n);
}

static uint64_t get(const uint8_t *p, int n)
{
	return fx_get(p, n);
}

size_t fz_record(uint8_t *out, uint8_t cmd, uint8_t mode, uint16_t features, uint16_t count,
		 uint64_t lba, const void *data, uint16_t data_len)
{
	out[0] = cmd;
	out[1] = mode;
	put(out + 2, features, 2);
	put(out + 4, count, 2);
	put(out + 6, lba, 6);
	put(out + 12, data_len, 2);
	if (data_len) {
		memcpy(out + FZ_RECORD_HDR, data, data_len);
	}
	return FZ_RECORD_HDR + data_len;
}

size_t fz_packet(uint8_t *out, uint16_t opcode, uint32_t tag, uint32_t flags, uint64_t oid,
		 uint64_t offset, uint64_t length, uint32_t reply_max, const void *payload,
		 uint32_t payload_len)
{
	struct fx_pkt p = { .opcode = opcode, .tag = tag, .flags = flags, .oid = oid,
			    .offset = offset, .length = length, .host_time = 1000,
			    .reply_max = reply_max, .payload = payload,
			    .payload_len = payload_len };

	/* the fixture's codec; it also zero-pads to whole sectors */
	fx_encode(&p, out);
	return 64 + payload_len;
}

/* ---- the drive ----------------------------------------------------------------------- */

static void ata(uint8_t cmd, uint16_t features, uint16_t count, uint64_t lba, uint8_t *data,
		uint32_t len, struct ss_ata_result *res)
{
	fx_ata(g.fx, cmd, features, count, lba, data, len, res);
	g.st.commands++;
	/* every command completes: ready, not busy, an error code whenever ERR is set */
	FZ_ASSERT(res->status & SS_ATA_STATUS_DRDY);
	FZ_ASSERT(!(res->status & SS_ATA_STATUS_BSY));
	FZ_ASSERT(!(res->status & SS_ATA_STATUS_ERR) || res->error != 0);
	/* the reasons an ATA abort carries: up to ROOT, and an open-channel or zoned drive's */
	FZ_ASSERT(!(res->status & SS_ATA_STATUS_ERR) || res->lba <= SS_R_ROOT ||
		  (res->lba >= SS_R_WRONG_INTERFACE && res->lba <= SS_R_ZONE_STATE));
}

struct reply {
	int32_t status;
	uint32_t reason;
	uint64_t v0, v1;
	uint32_t payload_len;
	const uint8_t *payload;
};

/* A reply in g.big, checked as a host would check it. */
static void decode_reply(uint32_t tag, uint32_t len, struct reply *r)
{
	const uint8_t *b = g.big;
	uint8_t hdr[64];

	FZ_ASSERT(get(b, 4) == SS_REPLY_MAGIC);
	FZ_ASSERT(get(b + 4, 2) == SS_PROTO_VERSION);
	FZ_ASSERT(get(b + 8, 4) == tag);
	r->status = (int32_t)get(b + 12, 4);
	r->reason = (uint32_t)get(b + 16, 4);
	r->payload_len = (uint32_t)get(b + 20, 4);
	r->v0 = get(b + 24, 8);
	r->v1 = get(b + 32, 8);
	r->payload = b + 64;
	FZ_ASSERT(r->payload_len <= len - 64);
	FZ_ASSERT(r->status <= 0);
	FZ_ASSERT((r->status == 0) == (r->reason == SS_R_OK));
	memcpy(hdr, b, 64);
	memset(hdr + 60, 0, 4);
	FZ_ASSERT(fz_crc32c(fz_crc32c(0, hdr, 64), b + 64, r->payload_len) == get(b + 60, 4));
	g.last_oid = r->v0;
	g.st.recvs_ok++;
}

/* SEND + RECV of a correct packet; \return the ATA reason of a refused SEND, else 0. */
static uint32_t call(uint16_t op, uint32_t flags, uint64_t oid, uint64_t off, uint64_t length,
		     const void *payload, uint32_t plen, struct reply *r)
{
	uint32_t tag = ((uint32_t)g.session << 16) | g.seq++;
	struct ss_ata_result res;
	size_t n;
	uint32_t sectors;

	if (op == SS_OP_OPEN_SESSION) {
		tag &= 0xFFFF;
	}
	n = fz_packet(g.big, op, tag, flags, oid, off, length, BIG - 4096, payload, plen);
	sectors = (uint32_t)((n + 511) / 512);
	memset(g.big + n, 0, sectors * 512 - n);
	ata(SS_ATA_OBJ_SEND, 0, (uint16_t)sectors, tag, g.big, sectors * 512, &res);
	if (res.status & SS_ATA_STATUS_ERR) {
		return (uint32_t)res.lba;
	}
	/* the SEND's count says how many sectors the reply takes */
	sectors = res.count;
	FZ_ASSERT(sectors >= 1 && sectors <= BIG / 512);
	ata(SS_ATA_OBJ_RECV, 0, (uint16_t)sectors, tag, g.big, sectors * 512, &res);
	FZ_ASSERT(res.status == SS_ATA_STATUS_DRDY);
	decode_reply(tag, sectors * 512, r);
	return 0;
}

static void open_session(void)
{
	struct reply r;
	uint32_t why;
	int tries = 0;

	g.session = 0;
	/* The fuzzer's own OPEN_SESSIONs may hold session-0 tags whose replies it never took:
	 * move on to the next tag, as the host library does. */
	do {
		why = call(SS_OP_OPEN_SESSION, 0, 0, 0, 0, NULL, 0, &r);
	} while (why == SS_R_TAG_IN_USE && ++tries < 64);
	if (why == 0 && r.status != 0 && r.reason == SS_R_TOO_MANY_SESSIONS) {
		/* the fuzzer's OPEN_SESSIONs hold every session, which only a power cycle
		 * frees, as on a real drive */
		fx_crash(g.fx);
		why = call(SS_OP_OPEN_SESSION, 0, 0, 0, 0, NULL, 0, &r);
	}
	FZ_ASSERT(why == 0);
	FZ_ASSERT(r.status == 0 && r.v0 > 0 && r.v0 <= 0xFFFF);
	g.session = (uint16_t)r.v0;
}

static struct fx_opts drive_opts(uint32_t iface)
{
	struct fx_opts o = {
		.geo = { 2, 1, 32, 32, 4096, 128, 0 },
		.interface = iface,
		.tmpdir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
	};

	/* a cache part, so the SSC opcodes reach the cache, not just its absence */
	if (iface == SS_IFACE_FTL) {
		o.cache_share_permille = SS_SSC_SHARE_DEFAULT_PERMILLE;
	}
	return o;
}

int fz_setup(void)
{
	struct fx_opts o = drive_opts(SS_IFACE_FTL);

	if (g.up) {
		return 0;
	}
	g.big = calloc(1, BIG);
	if (!g.big) {
		return -SS_ENOMEM;
	}
	g.fx = &g.ftl;
	fx_create_with(g.fx, &o);
	g.up = 1;
	g.seq = 1;
	open_session();
	atexit(fz_teardown);
	return 0;
}

void fz_teardown(void)
{
	if (g.up) {
		fx_destroy(&g.ftl);
		if (g.chunked_iface) {
			fx_destroy(&g.chunked);
		}
		g.up = 0;
	}
}

const struct fz_stats *fz_stats(void)
{
	return &g.st;
}

/* ---- invariants after a power cycle -------------------------------------------------- */

static void walk_namespace(void)
{
	static uint64_t stack[MAX_WALK];
	static uint8_t list[256 * sizeof(struct ss_wire_dirent)];
	uint32_t sp = 0, visited = 0;
	struct reply r;

	stack[sp++] = ROOT_OID;
	while (sp && visited < MAX_WALK) {
		uint64_t dir = stack[--sp], cursor = 0, n;
		int pages = 0;

		visited++;
		do {
			FZ_ASSERT(call(SS_OP_LIST, 0, dir, cursor, 0, NULL, 0, &r) == 0);
			FZ_ASSERT(r.status == 0);
			FZ_ASSERT(r.payload_len == r.v1 * sizeof(struct ss_wire_dirent));
			FZ_ASSERT(r.payload_len <= sizeof(list));
			cursor = r.v0;
			n = r.v1;
			memcpy(list, r.payload, r.payload_len);
			/* every listed object stats, and reads if it holds data */
			for (uint64_t i = 0; i < n; i++) {
				const uint8_t *d = list + i * sizeof(struct ss_wire_dirent);
				uint64_t oid = get(d, 8);
				uint32_t type = (uint32_t)get(d + 8, 4);
				uint32_t nl = (uint32_t)get(d + 12, 2);
				struct reply s;

				FZ_ASSERT(nl >= 1 && nl <= NAME_MAX_BYTES);
				FZ_ASSERT(memchr(d + 16, '/', nl) == NULL);
				FZ_ASSERT(type >= T_FILE && type <= T_OUTPUT);
				FZ_ASSERT(call(SS_OP_STAT, 0, oid, 0, 0, NULL, 0, &s) == 0);
				FZ_ASSERT(s.status == 0);
				FZ_ASSERT(get(s.payload + 16, 4) == type);
				FZ_ASSERT(get(s.payload + 8, 8) == dir);
				if (type == T_DIR) {
					if (sp < MAX_WALK) {
						stack[sp++] = oid;
					}
				} else {
					FZ_ASSERT(call(SS_OP_READ, 0, oid, 0, 4096, NULL, 0, &s) == 0);
					FZ_ASSERT(s.status == 0);
				}
			}
		} while (cursor != 0 && ++pages < 64);
	}
}

static void probe_object(void)
{
	uint8_t data[3000];
	struct reply r;
	uint64_t oid;

	for (uint32_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 29 + 3);
	}
	FZ_ASSERT(call(SS_OP_CREATE, 0, 0, T_FILE, 0, "/fz-probe", 9, &r) == 0);
	if (r.status == -SS_ENOSPC) {
		return;   /* a full drive or object table is a state, not a fault */
	}
	FZ_ASSERT(r.status == 0 || r.status == -SS_EEXIST || r.status == -SS_ENOTDIR ||
		  r.status == -SS_EISDIR);
	if (r.status) {
		return;   /* the fuzzer made /fz-probe a directory or an output */
	}
	oid = r.v0;
	FZ_ASSERT(call(SS_OP_TRUNCATE, 0, oid, 0, 0, NULL, 0, &r) == 0);
	FZ_ASSERT(call(SS_OP_WRITE, 0, oid, 0, 0, data, sizeof(data), &r) == 0);
	if (r.status == 0) {
		FZ_ASSERT(call(SS_OP_READ, 0, oid, 0, sizeof(data), NULL, 0, &r) == 0);
		FZ_ASSERT(r.status == 0 && r.payload_len == sizeof(data));
		FZ_ASSERT(memcmp(r.payload, data, sizeof(data)) == 0);
	} else {
		FZ_ASSERT(r.status == -SS_ENOSPC);
	}
	FZ_ASSERT(call(SS_OP_REMOVE, 0, 0, 0, 0, "/fz-probe", 9, &r) == 0);
	FZ_ASSERT(r.status == 0);
}

/* Reports of an open-channel or zoned drive: each chunk's state agrees with its write
 * pointer, and the last sector below it reads (a standard READ, the same on both). */
static void check_chunks(void)
{
	uint16_t report = g.iface == SS_IFACE_ZONED ? SS_OP_ZONE_REPORT : SS_OP_CHUNK_REPORT;
	uint64_t count, zone, cap, i = 0;
	struct ss_ata_result res;
	uint8_t sector[512];
	struct reply r;

	g.st.chunk_checks++;
	FZ_ASSERT(call(SS_OP_GEOMETRY, 0, 0, 0, 0, NULL, 0, &r) == 0);
	FZ_ASSERT(r.status == 0 && r.payload_len == sizeof(struct ss_wire_geometry));
	FZ_ASSERT(get(r.payload, 4) == g.iface);
	count = get(r.payload + 4, 4) * get(r.payload + 8, 4) * get(r.payload + 12, 4);
	cap = get(r.payload + 20, 4);
	zone = get(r.payload + 32, 8);
	FZ_ASSERT(count > 0 && cap > 0 && zone >= cap && (zone & (zone - 1)) == 0);
	while (i < count) {
		uint64_t n;

		FZ_ASSERT(call(report, 0, 0, i, count - i, NULL, 0, &r) == 0);
		FZ_ASSERT(r.status == 0 && r.v0 > 0 && r.payload_len == r.v0 * 32);
		n = r.v0;
		for (uint64_t k = 0; k < n; k++, i++) {
			const uint8_t *d = r.payload + k * 32;
			uint32_t state = (uint32_t)get(d, 4);
			uint64_t slba = get(d + 8, 8), wp = get(d + 16, 8);

			FZ_ASSERT(slba == i * zone && get(d + 24, 8) == cap);
			FZ_ASSERT(state >= SS_CHUNK_FREE && state <= SS_CHUNK_OFFLINE);
			if (state == SS_CHUNK_OFFLINE) {
				continue;
			}
			FZ_ASSERT(wp >= slba && wp <= slba + cap);
			FZ_ASSERT((state == SS_CHUNK_FREE) == (wp == slba) ||
				  state == SS_CHUNK_OPEN_EXPLICIT);
			FZ_ASSERT((state == SS_CHUNK_FULL) == (wp == slba + cap));
			if (wp > slba) {
				ata(0x25, 0, 1, wp - 1, sector, 512, &res);
				FZ_ASSERT(res.status == SS_ATA_STATUS_DRDY);
			}
		}
	}
}

/* Format the current drive afresh, with the interface it has. */
static void format_drive(void)
{
	struct fx_opts o = drive_opts(g.iface);
	struct ss_fw_format_params fp = { .interface = g.iface,
					  .cache_share_permille = o.cache_share_permille };
	int rc;

	rc = ss_fw_shutdown(g.fx->fw);
	FZ_ASSERT(rc == 0 || rc == -SS_ENOSPC || rc == -SS_EIO);
	FZ_ASSERT(ss_fw_format(&g.fx->fw, g.fx->hal, &fp) == 0);
	open_session();
}

/* FZ_CMD_DRIVE: records go to the FTL drive, or to the chunked drive formatted `iface`
 * (formatted so now if it is not already); each keeps its state in between. */
static void switch_drive(uint32_t iface)
{
	if (iface == SS_IFACE_FTL) {
		g.fx = &g.ftl;
	} else if (g.chunked_iface == 0) {
		struct fx_opts o = drive_opts(iface);

		fx_create_with(&g.chunked, &o);
		g.chunked_iface = iface;
		g.fx = &g.chunked;
	} else {
		g.fx = &g.chunked;
		if (g.chunked_iface != iface) {
			g.iface = iface;
			format_drive();
			g.chunked_iface = iface;
		}
	}
	g.iface = iface;
	open_session();
}

void fz_check_drive(int crash, int reformat)
{
	struct ss_ata_result res;
	uint8_t s[512];
	uint8_t sum = 0;
	int rc;

	g.st.checks++;
	if (!crash) {
		rc = ss_fw_shutdown(g.fx->fw);
		FZ_ASSERT(rc == 0 || rc == -SS_ENOSPC);
	}
	/* power off and on (after the shutdown above, a clean one); the fixture stops the run
	 * when the drive does not mount */
	fx_crash(g.fx);
	ata(0xEC, 0, 1, 0, s, 512, &res);
	FZ_ASSERT(res.status == SS_ATA_STATUS_DRDY);
	for (int i = 0; i < 512; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	FZ_ASSERT(sum == 0 && s[510] == 0xA5);
	ata(0xB0, 0xD8, 0, 0xC24F00, NULL, 0, &res);
	ata(0xB0, 0xD0, 1, 0xC24F00, s, 512, &res);
	if (g.iface != SS_IFACE_FTL) {
		FZ_ASSERT(res.status & SS_ATA_STATUS_ERR && res.lba == SS_R_WRONG_INTERFACE);
		open_session();
		check_chunks();
		if (reformat) {
			format_drive();
		}
		return;
	}
	FZ_ASSERT(res.status == SS_ATA_STATUS_DRDY);
	sum = 0;
	for (int i = 0; i < 512; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	FZ_ASSERT(sum == 0);
	open_session();
	walk_namespace();
	probe_object();
	if (reformat) {
		struct ss_fw_format_params fp = {
			.cache_share_permille = SS_SSC_SHARE_DEFAULT_PERMILLE };

		FZ_ASSERT(ss_fw_format(&g.fx->fw, g.fx->hal, &fp) == 0);
		open_session();
	}
}

/* ---- one input ----------------------------------------------------------------------- */

/* What a correct drive must refuse before looking at the opcode (PROTOCOL.md, SEND). */
static int send_malformed(const uint8_t *b, uint32_t len, uint32_t sectors, uint64_t lba)
{
	uint32_t pl;
	uint8_t hdr[64];

	if (!b || len < 512 || len % 512 || len / 512 != sectors) {
		return 1;
	}
	if (get(b, 4) != SS_PKT_MAGIC || get(b + 4, 2) != SS_PROTO_VERSION) {
		return 1;
	}
	pl = (uint32_t)get(b + 48, 4);
	if (pl > len - 64 || (64 + pl + 511) / 512 != sectors) {
		return 1;
	}
	memcpy(hdr, b, 64);
	memset(hdr + 60, 0, 4);
	if (fz_crc32c(fz_crc32c(0, hdr, 64), b + 64, pl) != get(b + 60, 4)) {
		return 1;
	}
	return (lba >> 32) != 0 || get(b + 8, 4) != (uint32_t)lba;
}

static void fix_send(uint8_t mode, uint8_t *b, uint32_t *len, uint16_t *count, uint64_t *lba)
{
	uint32_t pl, tag;

	if (*len < 64) {
		return;
	}
	if (mode & FZ_LAST_OID) {
		put(b + 16, g.last_oid, 8);
	}
	if (mode & FZ_SESSION) {
		tag = (uint32_t)get(b + 8, 4);
		put(b + 8, ((uint32_t)g.session << 16) | (tag & 0xFFFF), 4);
	}
	if (mode & FZ_FIX_LENGTH) {
		pl = (uint32_t)get(b + 48, 4);
		if (pl > *len - 64) {
			pl = *len - 64;
			put(b + 48, pl, 4);
		}
		*count = (uint16_t)((64 + pl + 511) / 512);
		*len = *count * 512u;
	}
	if (mode & FZ_FIX_LBA) {
		*lba = get(b + 8, 4);
	}
	if (mode & FZ_FIX_CRC) {
		pl = (uint32_t)get(b + 48, 4);
		if (pl <= *len - 64) {
			put(b + 60, 0, 4);
			put(b + 60, fz_crc32c(0, b, 64 + pl), 4);
		}
	}
}

static void run_record(uint8_t cmd, uint8_t mode, uint16_t features, uint16_t count,
		       uint64_t lba, const uint8_t *data, uint32_t data_len)
{
	struct ss_ata_result res;
	uint32_t len, cap;
	uint8_t *buf;

	if (mode & FZ_LEN_FROM_DATA) {
		len = (data_len + 511) / 512 * 512;
	} else {
		len = (uint32_t)count * 512u;
	}
	if (len > FZ_MAX_XFER) {
		len = FZ_MAX_XFER;
	}
	/* exact-size buffer, so reads or writes past the transfer trip ASan */
	cap = len;
	buf = malloc(cap ? cap : 1);
	FZ_ASSERT(buf != NULL);
	memset(buf, 0, cap);
	memcpy(buf, data, data_len < cap ? data_len : cap);

	if (cmd == FZ_CMD_DRIVE) {
		g.st.switches++;
		switch_drive(features % 3u);
	} else if (cmd == SS_ATA_OBJ_SEND) {
		fix_send(mode, buf, &len, &count, &lba);
		if (len > cap) {
			len = cap;
		}
		int bad = send_malformed(len ? buf : NULL, len, count ? count : 65536u, lba);

		g.st.sends++;
		ata(cmd, features, count, lba, len ? buf : NULL, len, &res);
		if (bad) {
			g.st.sends_malformed++;
			FZ_ASSERT(res.status & SS_ATA_STATUS_ERR);
			FZ_ASSERT(res.error & SS_ATA_ERROR_ABRT);
			FZ_ASSERT(res.lba == SS_R_BAD_LENGTH || res.lba == SS_R_BAD_MAGIC ||
				  res.lba == SS_R_BAD_VERSION || res.lba == SS_R_BAD_CRC ||
				  res.lba == SS_R_TAG_MISMATCH);
		} else if (!(res.status & SS_ATA_STATUS_ERR)) {
			uint32_t tag = (uint32_t)lba;

			g.st.sends_accepted++;
			if (mode & FZ_RECV) {
				uint32_t rs = res.count;

				FZ_ASSERT(rs >= 1 && rs <= BIG / 512);
				/* one sector short first: refused, and the reply stays */
				if (rs > 1) {
					ata(SS_ATA_OBJ_RECV, 0, (uint16_t)(rs - 1), tag, g.big,
					    (rs - 1) * 512, &res);
					FZ_ASSERT(res.lba == SS_R_REPLY_TOO_BIG && res.count == rs);
				}
				ata(SS_ATA_OBJ_RECV, 0, (uint16_t)rs, tag, g.big, rs * 512, &res);
				FZ_ASSERT(res.status == SS_ATA_STATUS_DRDY);
				decode_reply(tag, rs * 512, &(struct reply){ 0 });
				FZ_ASSERT(get(g.big + 6, 2) == get(buf + 6, 2));
			}
		} else if (res.lba == SS_R_BAD_SESSION && (mode & FZ_SESSION)) {
			open_session();   /* the fuzzer closed or crowded out the harness's session */
		}
	} else {
		ata(cmd, features, count, lba, len ? buf : NULL, len, &res);
		if (cmd == SS_ATA_OBJ_RECV && res.status == SS_ATA_STATUS_DRDY) {
			/* a reply was handed over: it must be well formed */
			FZ_ASSERT(len >= 64 && get(buf, 4) == SS_REPLY_MAGIC);
			FZ_ASSERT(get(buf + 8, 4) == (uint32_t)lba);
			FZ_ASSERT(get(buf + 20, 4) <= len - 64);
			g.last_oid = get(buf + 24, 8);
		}
		if (cmd == 0xEC && res.status == SS_ATA_STATUS_DRDY) {
			uint8_t sum = 0;

			for (int i = 0; i < 512; i++) {
				sum = (uint8_t)(sum + buf[i]);
			}
			FZ_ASSERT(sum == 0);
		}
	}
	free(buf);
}

int fz_run(const uint8_t *data, size_t size)
{
	size_t pos = 0;
	uint32_t n = 0;

	if (!g.up && fz_setup()) {
		abort();
	}
	while (pos + FZ_RECORD_HDR <= size && n++ < MAX_RECORDS) {
		const uint8_t *r = data + pos;
		uint32_t dl = (uint32_t)get(r + 12, 2);

		if (dl > size - pos - FZ_RECORD_HDR) {
			dl = (uint32_t)(size - pos - FZ_RECORD_HDR);
		}
		run_record(r[0], r[1], (uint16_t)get(r + 2, 2), (uint16_t)get(r + 4, 2),
			   get(r + 6, 6), r + FZ_RECORD_HDR, dl);
		pos += FZ_RECORD_HDR + dl;
		/* background work between commands, as the drive's idle loop would */
		ss_fw_idle(g.fx->fw);
	}
	if (++g.runs % CHECK_EVERY == 0) {
		uint64_t k = g.runs / CHECK_EVERY;

		fz_check_drive((int)(k % 2), k % 4 == 3);
	}
	return 0;
}
