/*
 * Namespace and object data opcodes: each one's success path, checked by reading the
 * result back another way, and each error with its reason.
 */
#include <stdlib.h>

#include "fixture.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

struct st {
	uint64_t oid, parent, size, ctime, mtime, atime;
	uint32_t type, nchildren;
	char name[257];
};

static int32_t stat_path(struct fx *f, const char *path, struct st *s)
{
	struct fx_pkt p = { .opcode = SS_OP_STAT, .payload = path,
			    .payload_len = (uint32_t)strlen(path) };
	struct fx_reply r;
	int32_t rc = fx_call(f, &p, &r);

	memset(s, 0, sizeof(*s));
	if (rc == 0) {
		CHECK_EQ(r.payload_len, 328);
		s->oid = le(r.payload, 8);
		s->parent = le(r.payload + 8, 8);
		s->type = (uint32_t)le(r.payload + 16, 4);
		s->nchildren = (uint32_t)le(r.payload + 20, 4);
		s->size = le(r.payload + 24, 8);
		s->ctime = le(r.payload + 32, 8);
		s->mtime = le(r.payload + 40, 8);
		s->atime = le(r.payload + 48, 8);
		uint32_t nl = (uint32_t)le(r.payload + 68, 2);

		CHECK(nl <= 256);
		memcpy(s->name, r.payload + 72, nl);
		CHECK_EQ(r.v[0], s->oid);
		CHECK_EQ(r.v[1], s->size);
		CHECK_EQ(r.v[2], s->type);
	} else {
		CHECK_EQ(r.payload_len, 0);
	}
	return rc;
}

static uint32_t reason_of(struct fx *f, struct fx_pkt *p, int32_t *status)
{
	struct fx_reply r;

	*status = fx_call(f, p, &r);
	return r.reason;
}

static void expect(struct fx *f, struct fx_pkt p, int32_t status, uint32_t reason)
{
	int32_t st;
	uint32_t rs = reason_of(f, &p, &st);

	if (st != status || rs != reason) {
		fprintf(stderr, "opcode 0x%x: status %d reason %u, want %d %u\n", p.opcode, st, rs,
			status, reason);
		fx_failures++;
	}
}

static void expect_reject(struct fx *f, struct fx_pkt p, uint32_t reason)
{
	struct ss_ata_result res;

	p.tag = fx_tag(f);
	if (!p.reply_max) {
		p.reply_max = 65536;
	}
	fx_send(f, &p, &res);
	if (!FX_ABORTED(res, reason)) {
		fprintf(stderr, "opcode 0x%x: SEND status 0x%x reason %llu, want reject %u\n",
			p.opcode, res.status, (unsigned long long)res.lba, reason);
		fx_failures++;
	}
}

static struct fx_pkt path_op(uint16_t op, const char *path, uint32_t flags)
{
	return (struct fx_pkt){ .opcode = op, .payload = path,
				.payload_len = (uint32_t)strlen(path), .flags = flags };
}

static void test_create_lookup(struct fx *f)
{
	struct st s;
	uint64_t d, file, out, again;
	struct fx_reply r;
	struct fx_pkt p;
	static char longname[300];

	CHECK_EQ(fx_create_path(f, "/d", 2, 0, &d), 0);
	CHECK_EQ(fx_create_path(f, "/d/f", 1, SS_CREATE_EXCL, &file), 0);
	CHECK_EQ(fx_create_path(f, "/d/o", 3, 0, &out), 0);
	CHECK(d && file && out && d != file && file != out);
	CHECK_EQ(stat_path(f, "/d", &s), 0);
	CHECK_EQ(s.type, 2);
	CHECK_EQ(s.nchildren, 2);
	CHECK_EQ(s.parent, 1);
	CHECK(strcmp(s.name, "d") == 0);
	CHECK_EQ(stat_path(f, "/d/f", &s), 0);
	CHECK_EQ(s.oid, file);
	CHECK_EQ(s.parent, d);
	CHECK_EQ(s.type, 1);
	CHECK_EQ(s.ctime, 1000);               /* the host's clock from the header */
	CHECK_EQ(stat_path(f, "/d/o", &s), 0);
	CHECK_EQ(s.type, 3);
	/* without EXCL an existing object of the same type comes back as it is */
	CHECK_EQ(fx_create_path(f, "/d/f", 1, 0, &again), 0);
	CHECK_EQ(again, file);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .flags = SS_CREATE_EXCL,
				   .payload = "/d/f", .payload_len = 4 }, -SS_EEXIST, SS_R_EXISTS);
	/* missing parent, parent a file, PARENTS */
	expect(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .payload = "/x/y",
				   .payload_len = 4 }, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .payload = "/d/f/z",
				   .payload_len = 6 }, -SS_ENOTDIR, SS_R_NOT_DIR);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .flags = SS_CREATE_PARENTS,
				   .payload = "/d/f/z/w", .payload_len = 8 }, -SS_ENOTDIR, SS_R_NOT_DIR);
	CHECK_EQ(fx_create_path(f, "/p/q/r/leaf", 1, SS_CREATE_PARENTS, &again), 0);
	CHECK_EQ(stat_path(f, "/p/q", &s), 0);
	CHECK_EQ(s.type, 2);
	CHECK_EQ(stat_path(f, "/p/q/r/leaf", &s), 0);
	CHECK_EQ(s.oid, again);
	/* the root */
	CHECK_EQ(fx_create_path(f, "/", 2, SS_CREATE_PARENTS, &again), 0);
	CHECK_EQ(again, 1);
	p = path_op(SS_OP_CREATE, "/", SS_CREATE_EXCL);
	p.offset = 2;
	expect(f, p, -SS_EEXIST, SS_R_EXISTS);
	/* refused at SEND: type, path, name length */
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 4, .payload = "/t",
					  .payload_len = 2 }, SS_R_BAD_FIELD);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .payload = "t",
					  .payload_len = 1 }, SS_R_BAD_PATH);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .flags = 0x10,
					  .payload = "/t", .payload_len = 2 }, SS_R_BAD_FIELD);
	longname[0] = '/';
	memset(longname + 1, 'L', 256);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_CREATE, .offset = 1, .payload = longname,
					  .payload_len = 257 }, SS_R_NAME_TOO_LONG);
	expect_reject(f, path_op(SS_OP_LOOKUP, "/\x7fsmartssd-fw", 0), SS_R_BAD_PATH);
	/* LOOKUP */
	p = path_op(SS_OP_LOOKUP, "/d/o", 0);
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], out);
	CHECK_EQ(le(r.payload + 16, 4), 3);
	expect(f, path_op(SS_OP_LOOKUP, "/d/nothing", 0), -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
	expect(f, path_op(SS_OP_LOOKUP, "/d/f/deeper", 0), -SS_ENOTDIR, SS_R_NOT_DIR);
}

static void test_data(struct fx *f)
{
	uint8_t *w = malloc(100000), *r = malloc(100000);
	uint64_t oid, dir;
	uint32_t n;
	struct st s;

	for (int i = 0; i < 100000; i++) {
		w[i] = (uint8_t)(i * 13 + 5);
	}
	CHECK_EQ(fx_create_path(f, "/data", 1, 0, &oid), 0);
	CHECK_EQ(fx_write(f, oid, 0, w, 70000), 0);
	CHECK_EQ(fx_write(f, oid, 70000, w + 70000, 30000), 0);
	CHECK_EQ(fx_read(f, oid, 0, r, 100000, &n), 0);
	CHECK_EQ(n, 100000);
	CHECK(memcmp(r, w, 100000) == 0);
	/* short at the end, empty past it */
	CHECK_EQ(fx_read(f, oid, 99990, r, 100, &n), 0);
	CHECK_EQ(n, 10);
	CHECK(memcmp(r, w + 99990, 10) == 0);
	CHECK_EQ(fx_read(f, oid, 200000, r, 100, &n), 0);
	CHECK_EQ(n, 0);
	/* overwrite in the middle with FUA */
	struct fx_pkt p = { .opcode = SS_OP_WRITE, .oid = oid, .offset = 5000, .payload = "HELLO",
			    .payload_len = 5, .flags = SS_WRITE_FUA };
	struct fx_reply rep;

	CHECK_EQ(fx_call(f, &p, &rep), 0);
	CHECK_EQ(rep.v[0], 5);
	memcpy(w + 5000, "HELLO", 5);
	CHECK_EQ(fx_read(f, oid, 4990, r, 30, &n), 0);
	CHECK(memcmp(r, w + 4990, 30) == 0);
	/* TRUNCATE: shrink then grow, the new bytes read as zeros */
	p = (struct fx_pkt){ .opcode = SS_OP_TRUNCATE, .oid = oid, .length = 6000 };
	CHECK_EQ(fx_call(f, &p, &rep), 0);
	CHECK_EQ(stat_path(f, "/data", &s), 0);
	CHECK_EQ(s.size, 6000);
	p.length = 9000;
	CHECK_EQ(fx_call(f, &p, &rep), 0);
	CHECK_EQ(fx_read(f, oid, 0, r, 10000, &n), 0);
	CHECK_EQ(n, 9000);
	CHECK(memcmp(r, w, 6000) == 0);
	for (int i = 6000; i < 9000; i++) {
		if (r[i]) {
			CHECK(!"grown bytes read zero");
			break;
		}
	}
	/* errors */
	CHECK_EQ(fx_create_path(f, "/ddd", 2, 0, &dir), 0);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_WRITE, .oid = dir, .payload = "x",
				   .payload_len = 1 }, -SS_EISDIR, SS_R_IS_DIR);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_READ, .oid = dir, .length = 10 }, -SS_EISDIR,
	       SS_R_IS_DIR);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_READ, .oid = 999999, .length = 10 }, -SS_ENOENT,
	       SS_R_NO_SUCH_OBJECT);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_TRUNCATE, .oid = 999999, .length = 1 }, -SS_ENOENT,
	       SS_R_NO_SUCH_OBJECT);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_WRITE, .oid = 0, .payload = "x",
					  .payload_len = 1 }, SS_R_BAD_FIELD);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_WRITE, .oid = oid, .offset = UINT64_MAX,
					  .payload = "xy", .payload_len = 2 }, SS_R_BAD_FIELD);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_READ, .oid = oid, .length = 10,
					  .payload = "x", .payload_len = 1 }, SS_R_BAD_LENGTH);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_TRUNCATE, .oid = oid, .payload = "x",
					  .payload_len = 1 }, SS_R_BAD_LENGTH);
	/* EXTENTS: the object's pages, in order, covering it */
	p = (struct fx_pkt){ .opcode = SS_OP_EXTENTS, .oid = oid, .length = 9000 };
	CHECK_EQ(fx_call(f, &p, &rep), 0);
	CHECK_EQ(rep.payload_len, rep.v[0] * 24);
	uint64_t covered = 0;

	for (uint64_t i = 0; i < rep.v[0]; i++) {
		CHECK_EQ(le(rep.payload + i * 24, 8), covered);
		covered += le(rep.payload + i * 24 + 16, 4) * 512;
	}
	CHECK(rep.v[0] == 0 || covered >= 9000);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_EXTENTS, .oid = oid, .reply_max = 10 },
		      SS_R_BAD_FIELD);
	free(w);
	free(r);
}

static void test_remove_rename(struct fx *f)
{
	uint64_t a, b, c;
	struct st s;
	struct fx_pkt p;
	struct fx_reply r;

	CHECK_EQ(fx_create_path(f, "/t/a/b/c", 1, SS_CREATE_PARENTS, &c), 0);
	CHECK_EQ(fx_create_path(f, "/t/a/x", 1, 0, &a), 0);
	CHECK_EQ(fx_create_path(f, "/t/a/b/d", 2, 0, &b), 0);
	CHECK_EQ(fx_create_path(f, "/t/a/b/d/e", 1, 0, &b), 0);
	expect(f, path_op(SS_OP_REMOVE, "/t/a", 0), -SS_ENOTEMPTY, SS_R_NOT_EMPTY);
	expect(f, path_op(SS_OP_REMOVE, "/t/zz", 0), -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
	expect(f, path_op(SS_OP_REMOVE, "/", SS_REMOVE_RECURSIVE), -SS_EBUSY, SS_R_ROOT);
	p = path_op(SS_OP_REMOVE, "/t/a/x", 0);
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(stat_path(f, "/t/a/x", &s), -SS_ENOENT);
	p = path_op(SS_OP_REMOVE, "/t/a", SS_REMOVE_RECURSIVE);
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(stat_path(f, "/t/a", &s), -SS_ENOENT);
	CHECK_EQ(stat_path(f, "/t", &s), 0);
	CHECK_EQ(s.nchildren, 0);
	/* the removed objects' oids are gone too */
	p = (struct fx_pkt){ .opcode = SS_OP_STAT, .oid = c };
	CHECK_EQ(fx_call(f, &p, &r), -SS_ENOENT);

	/* RENAME */
	CHECK_EQ(fx_create_path(f, "/m/src", 1, SS_CREATE_PARENTS, &a), 0);
	CHECK_EQ(fx_create_path(f, "/m/other", 1, 0, &b), 0);
	CHECK_EQ(fx_create_path(f, "/m/dir/sub", 2, SS_CREATE_PARENTS, &c), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/src\0/m/dst", .payload_len = 13 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], a);
	CHECK_EQ(stat_path(f, "/m/dst", &s), 0);
	CHECK_EQ(s.oid, a);
	CHECK_EQ(stat_path(f, "/m/src", &s), -SS_ENOENT);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .flags = SS_RENAME_NOREPLACE,
				   .payload = "/m/dst\0/m/other", .payload_len = 15 },
	       -SS_EEXIST, SS_R_EXISTS);
	p = (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/dst\0/m/other", .payload_len = 15 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(stat_path(f, "/m/other", &s), 0);
	CHECK_EQ(s.oid, a);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/dir\0/m/dir/sub/in",
				   .payload_len = 20 }, -SS_EINVAL, SS_R_RENAME_INTO_SELF);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/\0/q", .payload_len = 4 },
	       -SS_EBUSY, SS_R_ROOT);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/none\0/m/q",
				   .payload_len = 12 }, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/dst/m/q",
					  .payload_len = 10 }, SS_R_BAD_PATH);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_RENAME, .payload = "/m/a\0m", .payload_len = 6 },
		      SS_R_BAD_PATH);
}

static void test_list_times(struct fx *f)
{
	char name[32];
	int seen[40] = { 0 };
	uint64_t cursor = 0, oid;
	int calls = 0, total = 0;
	struct fx_pkt p;
	struct fx_reply r;
	struct st s;

	CHECK_EQ(fx_create_path(f, "/many", 2, 0, &oid), 0);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "/many/n%02d", i);
		CHECK_EQ(fx_create_path(f, name, 1, 0, NULL), 0);
	}
	do {
		p = (struct fx_pkt){ .opcode = SS_OP_LIST, .payload = "/many", .payload_len = 5,
				     .offset = cursor, .reply_max = 16 * 272 + 100 };
		CHECK_EQ(fx_call(f, &p, &r), 0);
		CHECK(r.v[1] <= 16);
		CHECK_EQ(r.payload_len, r.v[1] * 272);
		for (uint64_t i = 0; i < r.v[1]; i++) {
			const uint8_t *d = r.payload + i * 272;
			int k = -1;

			CHECK_EQ(le(d + 12, 2), 3);
			CHECK_EQ(le(d + 8, 4), 1);
			if (sscanf((const char *)d + 16, "n%02d", &k) == 1 && k >= 0 && k < 40) {
				seen[k]++;
			}
			total++;
		}
		cursor = r.v[0];
	} while (cursor != 0 && ++calls < 20);
	CHECK_EQ(total, 40);
	for (int i = 0; i < 40; i++) {
		CHECK_EQ(seen[i], 1);
	}
	/* by oid as well */
	p = (struct fx_pkt){ .opcode = SS_OP_LIST, .oid = oid, .reply_max = 64 * 272 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[1], 40);
	CHECK_EQ(r.v[0], 0);
	expect(f, path_op(SS_OP_LIST, "/many/n01", 0), -SS_ENOTDIR, SS_R_NOT_DIR);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_LIST }, SS_R_BAD_PATH);
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_LIST, .payload = "/", .payload_len = 1,
					  .reply_max = 100 }, SS_R_BAD_FIELD);

	/* SET_TIMES, UINT64_MAX keeps a time */
	CHECK_EQ(stat_path(f, "/many/n05", &s), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_SET_TIMES, .oid = s.oid, .offset = 777, .length = 888 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(stat_path(f, "/many/n05", &s), 0);
	CHECK_EQ(s.mtime, 777);
	CHECK_EQ(s.atime, 888);
	p = (struct fx_pkt){ .opcode = SS_OP_SET_TIMES, .oid = s.oid, .offset = UINT64_MAX,
			     .length = 999 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(stat_path(f, "/many/n05", &s), 0);
	CHECK_EQ(s.mtime, 777);
	CHECK_EQ(s.atime, 999);
	expect(f, (struct fx_pkt){ .opcode = SS_OP_SET_TIMES, .oid = 123456 }, -SS_ENOENT,
	       SS_R_NO_SUCH_OBJECT);
}

/* The firmware's record is in no listing, stat or count the host sees. */
static void test_hidden(struct fx *f)
{
	struct fx_pkt p;
	struct fx_reply r;

	for (uint64_t oid = 1; oid < 200; oid++) {
		p = (struct fx_pkt){ .opcode = SS_OP_STAT, .oid = oid };
		if (fx_call(f, &p, &r) == 0) {
			CHECK(r.payload[72] != 0x7F);
		}
	}
	p = (struct fx_pkt){ .opcode = SS_OP_LIST, .payload = "/", .payload_len = 1 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	for (uint64_t i = 0; i < r.v[1]; i++) {
		CHECK(r.payload[i * 272 + 16] != 0x7F);
	}
}

static void test_full(void)
{
	struct fx f;
	struct fx_pkt p;
	struct fx_reply r;
	uint8_t *chunk = calloc(1, 1 << 20);
	char name[32];
	uint64_t oid;
	int32_t st = 0;
	int i;

	/* a small object table runs out before the drive does */
	fx_create_objs(&f, 0, 16);
	fx_open_session(&f);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "/f%d", i);
		p = path_op(SS_OP_CREATE, name, 0);
		p.offset = 1;
		st = fx_call(&f, &p, &r);
		if (st) {
			break;
		}
	}
	CHECK(i < 40);
	CHECK_EQ(st, -SS_ENOSPC);
	CHECK_EQ(r.reason, SS_R_TOO_MANY_OBJECTS);
	/* ... and the drive fills up: DRIVE_FULL */
	for (i = 0; i < 64; i++) {
		if (i % 4 == 0) {
			snprintf(name, sizeof(name), "/f%d", i / 4);
			CHECK_EQ(fx_create_path(&f, name, 1, 0, &oid), 0);
		}
		p = (struct fx_pkt){ .opcode = SS_OP_WRITE, .oid = oid,
				     .offset = (uint64_t)(i % 4) << 20, .payload = chunk,
				     .payload_len = 1 << 20 };
		st = fx_call(&f, &p, &r);
		if (st) {
			break;
		}
	}
	CHECK(i < 64);
	CHECK_EQ(st, -SS_ENOSPC);
	CHECK_EQ(r.reason, SS_R_DRIVE_FULL);
	/* full is not broken: it remounts and serves */
	fx_remount(&f);
	fx_open_session(&f);
	p = (struct fx_pkt){ .opcode = SS_OP_FSSTAT };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	free(chunk);
	fx_destroy(&f);
}

/* SEND a WRITE of `len` bytes of "abc..." under a fresh tag of the fixture's session;
 * \return the tag (its reply is left waiting). */
static uint32_t send_write(struct fx *f, uint64_t oid, uint64_t off, uint32_t len,
			   uint32_t flags)
{
	static const char data[] = "abcdefghijklmnopqrstuvwxyz";
	struct fx_pkt p = { .opcode = SS_OP_WRITE, .oid = oid, .offset = off, .payload = data,
			    .payload_len = len, .flags = flags, .host_time = 1000 };
	struct ss_ata_result res;

	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(!(res.status & SS_ATA_STATUS_ERR));
	return p.tag;
}

/* RECV a WRITE's reply and check its status and reason. */
static void expect_reply(struct fx *f, uint32_t tag, int32_t status, uint32_t reason)
{
	struct ss_ata_result res;
	struct fx_reply r;

	fx_recv(f, tag, 1, &r, &res);
	CHECK(!(res.status & SS_ATA_STATUS_ERR));
	if (r.status != status || r.reason != reason) {
		fprintf(stderr, "WRITE tag 0x%x: status %d reason %u, want %d %u\n", tag, r.status,
			r.reason, status, reason);
		fx_failures++;
	}
}

/*
 * ORDERED writes (PROTOCOL.md 4.3, "Queued writes"): after one fails, the session's later
 * ORDERED writes to that object are not run (CANCELED, and themselves failed) until the
 * failed replies are received; unordered writes, other objects and other sessions run as
 * always. The failure is a write to a directory (EISDIR): a canceled write says CANCELED
 * where running it would have said IS_DIR.
 */
static void test_ordered_writes(struct fx *f)
{
	uint64_t dir, file;
	uint16_t mine, other;
	uint32_t w1, w2, w3, w4, w5, w6, w7;
	uint8_t got[8];
	uint32_t n;

	CHECK_EQ(fx_create_path(f, "/ordered-dir", 2, 0, &dir), 0);
	CHECK_EQ(fx_create_path(f, "/ordered-file", 1, 0, &file), 0);
	w1 = send_write(f, dir, 0, 3, SS_WRITE_ORDERED);           /* fails: a directory */
	w2 = send_write(f, dir, 3, 3, SS_WRITE_ORDERED);           /* canceled */
	w3 = send_write(f, file, 0, 3, SS_WRITE_ORDERED);          /* another object: runs */
	w4 = send_write(f, dir, 6, 3, 0);                          /* not ORDERED: runs */
	mine = f->session;
	fx_open_session(f);
	other = f->session;
	w5 = send_write(f, dir, 9, 3, SS_WRITE_ORDERED);           /* another session: runs */
	expect_reply(f, w5, -SS_EISDIR, SS_R_IS_DIR);
	f->session = mine;
	expect_reply(f, w1, -SS_EISDIR, SS_R_IS_DIR);
	/* w2, canceled, is a failure of its own: the chain holds until it is received too */
	w6 = send_write(f, dir, 12, 3, SS_WRITE_ORDERED);
	expect_reply(f, w2, -SS_ECANCELED, SS_R_CANCELED);
	expect_reply(f, w6, -SS_ECANCELED, SS_R_CANCELED);
	expect_reply(f, w3, 0, SS_R_OK);
	expect_reply(f, w4, -SS_EISDIR, SS_R_IS_DIR);
	/* every failure received: the next ORDERED write runs (and fails on its own) */
	w7 = send_write(f, dir, 15, 3, SS_WRITE_ORDERED);
	expect_reply(f, w7, -SS_EISDIR, SS_R_IS_DIR);
	CHECK_EQ(fx_read(f, file, 0, got, sizeof(got), &n), 0);
	CHECK_EQ(n, 3);
	CHECK(memcmp(got, "abc", 3) == 0);
	/* ORDERED is a WRITE flag only */
	expect_reject(f, (struct fx_pkt){ .opcode = SS_OP_READ, .oid = file, .length = 3,
					  .flags = SS_WRITE_ORDERED }, SS_R_BAD_FIELD);
	CHECK(other != mine);
}

int main(void)
{
	struct fx f;

	fx_create(&f, 0);
	fx_open_session(&f);
	test_create_lookup(&f);
	test_data(&f);
	test_remove_rename(&f);
	test_list_times(&f);
	test_hidden(&f);
	test_ordered_writes(&f);
	fx_remount(&f);
	fx_open_session(&f);
	test_hidden(&f);
	fx_destroy(&f);
	test_full();
	return fx_failures ? 1 : 0;
}
