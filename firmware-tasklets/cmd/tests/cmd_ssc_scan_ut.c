/*
 * SSC_SCAN through the SEND/RECV path: a group-aggregate tasklet over a file held in the
 * cache with a sparse set of blocks present, 100-byte records on 8 KiB blocks (records
 * straddle blocks), two ranges that meet in the file but not in the cache. The test's own
 * model says which records the drive must do (both ends in one run of present blocks of
 * one range, wholly inside the file); the drive's answer must be the aggregate of exactly
 * those, its runs must name exactly those, and drive plus the rest must give the whole
 * file's answer. Then the refusals, the 64-run cap, and a drive without a cache.
 */
#include <stdlib.h>

#include "fixture.h"

#define BS FX_PAGE_SIZE
#define REC 100
#define NKEYS 7
#define FILE_BLOCKS 12
#define FILE_BYTES (FILE_BLOCKS * BS - 300)   /* a short last block, a partial last record */
#define BASE_A 0x4000000000ull                /* file blocks 0-5 */
#define BASE_B 0x7000000100ull                /* file blocks 6-11 */
#define SPLIT 6

static uint8_t file[FILE_BLOCKS * BS];

struct agg {
	uint64_t cnt[NKEYS], sum[NKEYS];
};

static uint32_t value_of(const uint8_t *r)
{
	return (uint32_t)r[4] << 24 | (uint32_t)r[5] << 16 | (uint32_t)r[6] << 8 | r[7];
}

static void make_file(void)
{
	for (uint32_t i = 0; i < sizeof(file); i++) {
		file[i] = (uint8_t)(i * 131u + 7u);
	}
	for (uint32_t k = 0; (k + 1) * REC <= FILE_BYTES; k++) {
		uint8_t *r = file + (size_t)k * REC;
		uint32_t v = (k * 2654435761u) >> 8;

		r[0] = (uint8_t)((k * 5u + 3u) % NKEYS);
		r[4] = (uint8_t)(v >> 24);   /* the u32 field is big-endian */
		r[5] = (uint8_t)(v >> 16);
		r[6] = (uint8_t)(v >> 8);
		r[7] = (uint8_t)v;
	}
}

static void agg_add(struct agg *a, uint32_t k)
{
	const uint8_t *r = file + (size_t)k * REC;

	a->cnt[r[0]]++;
	a->sum[r[0]] += value_of(r);
}

static int32_t call(struct fx *f, struct fx_pkt *p, struct fx_reply *r)
{
	return fx_call(f, p, r);
}

static void cache_block(struct fx *f, uint64_t fb, uint64_t at)
{
	struct fx_pkt p = { .opcode = SS_OP_SSC_WRITE_CLEAN, .oid = at, .length = 1,
			    .payload = file + fb * BS, .payload_len = BS };
	struct fx_reply r;

	CHECK_EQ(call(f, &p, &r), 0);
}

static void evict_block(struct fx *f, uint64_t at)
{
	struct fx_pkt p = { .opcode = SS_OP_SSC_EVICT, .oid = at, .length = 1 };
	struct fx_reply r;

	CHECK_EQ(call(f, &p, &r), 0);
}

static uint64_t create_output(struct fx *f, const char *path)
{
	struct fx_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .flags = SS_CREATE_OBJ_OUTPUT |
				    SS_CREATE_PARENTS, .payload = path,
			    .payload_len = (uint32_t)strlen(path) };
	struct fx_reply r;

	CHECK_EQ(call(f, &p, &r), 0);
	return r.v[0];
}

/* Group-aggregate COUNT and SUM of the u32 at 4 by the u8 at 0, over REC-byte records;
 * kind 1 FIXED, 2 TEXT. */
static uint64_t create_agg(struct fx *f, uint64_t out, uint8_t kind)
{
	uint8_t b[168 + 16] = { 0 };
	struct fx_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .payload = b, .payload_len = sizeof(b) };
	struct fx_reply r;

	fx_put(b + 0, 1, 4);               /* group-aggregate */
	fx_put(b + 4, 64 * 1024, 4);
	fx_put(b + 16, out, 8);
	fx_put(b + 24, 16, 4);
	b[32] = kind;
	b[33] = '\n';
	b[34] = ' ';
	b[35] = 2;
	fx_put(b + 36, REC, 4);
	b[40 + 2] = 1;                     /* u8 at 0 */
	fx_put(b + 48, 4, 2);
	b[48 + 2] = 3;                     /* u32 at 4 */
	b[168 + 0] = 1;                    /* one key: field 0 */
	b[168 + 3] = 1;                    /* value: field 1 */
	b[168 + 4] = 0x3;                  /* COUNT SUM */
	CHECK_EQ(call(f, &p, &r), 0);
	return r.v[0];
}

/* The instance's output: 48-byte items (key, _, count, sum, ...), then a 32-byte trailer. */
static void read_agg(struct fx *f, uint64_t inst, struct agg *a, uint64_t *pages_done)
{
	struct fx_pkt p = { .opcode = SS_OP_READ_OBJECT, .oid = inst, .length = 0 };
	struct fx_reply r;
	uint64_t bytes;

	memset(a, 0, sizeof(*a));
	CHECK_EQ(call(f, &p, &r), 0);
	CHECK_EQ(fx_get(r.payload, 4), 3);   /* DONE */
	*pages_done = fx_get(r.payload + 8, 8);
	bytes = r.v[2];
	p.length = bytes;
	CHECK_EQ(call(f, &p, &r), 0);
	CHECK(bytes >= 32 && (bytes - 32) % 48 == 0);
	for (uint64_t off = 0; off + 32 < bytes; off += 48) {
		const uint8_t *it = r.payload + 72 + off;
		uint64_t key = fx_get(it, 8);

		CHECK(key < NKEYS);
		if (key < NKEYS) {
			a->cnt[key] += fx_get(it + 16, 8);
			a->sum[key] += fx_get(it + 24, 8);
		}
	}
}

struct range {
	uint64_t first, blocks, file_block;
};

static struct fx_pkt scan_pkt(uint64_t inst, uint64_t file_bytes, const struct range *rg,
			      uint32_t n)
{
	static uint8_t pl[24 * 256];
	struct fx_pkt p = { .opcode = SS_OP_SSC_SCAN, .oid = inst, .offset = file_bytes,
			    .payload = pl, .payload_len = 24 * n };

	for (uint32_t i = 0; i < n; i++) {
		fx_put(pl + 24 * i, rg[i].first, 8);
		fx_put(pl + 24 * i + 8, rg[i].blocks, 8);
		fx_put(pl + 24 * i + 16, rg[i].file_block, 8);
	}
	return p;
}

static int32_t scan(struct fx *f, uint64_t inst, uint64_t file_bytes, const struct range *rg,
		    uint32_t n, struct fx_reply *r)
{
	struct fx_pkt p = scan_pkt(inst, file_bytes, rg, n);

	return call(f, &p, r);
}

/* A request the SEND refuses with `reason`, before it runs. */
static void refused(struct fx *f, struct fx_pkt p, uint32_t reason)
{
	struct ss_ata_result res;

	p.tag = fx_tag(f);
	if (!p.reply_max) {
		p.reply_max = 64 * 32;
	}
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, reason));
}

/* Run id of file block fb (its range, then its run of present blocks), -1 when absent. */
static int run_id(const int *present, uint64_t fb)
{
	int id = 0;

	if (!present[fb]) {
		return -1;
	}
	for (uint64_t b = 1; b <= fb; b++) {
		if (!present[b] || !present[b - 1] || b == SPLIT) {
			id++;
		}
	}
	return id;
}

static void test_sparse(struct fx *f)
{
	/* present blocks: runs [0,3) [4,6) | [6,8) [9,10) [11,12); 5 and 6 meet in the file
	 * only */
	static const int present[FILE_BLOCKS] = { 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1 };
	struct range rg[2] = { { BASE_A, SPLIT, 0 }, { BASE_B, FILE_BLOCKS - SPLIT, SPLIT } };
	struct agg want = { 0 }, rest = { 0 }, whole = { 0 }, got, sum;
	uint64_t out, inst, pages, done_records = 0, want_pages = 0;
	uint8_t done[FILE_BYTES / REC] = { 0 };
	struct fx_reply r;

	for (uint64_t fb = 0; fb < FILE_BLOCKS; fb++) {
		uint64_t at = fb < SPLIT ? BASE_A + fb : BASE_B + fb - SPLIT;

		cache_block(f, fb, at);
		if (!present[fb]) {
			evict_block(f, at);
		}
	}
	for (uint32_t k = 0; k < FILE_BYTES / REC; k++) {
		int a = run_id(present, (uint64_t)k * REC / BS);
		int b = run_id(present, ((uint64_t)k * REC + REC - 1) / BS);

		agg_add(&whole, k);
		if (a >= 0 && a == b) {
			agg_add(&want, k);
			done[k] = 1;
			done_records++;
		} else {
			agg_add(&rest, k);
		}
	}
	out = create_output(f, "/scan/out");
	inst = create_agg(f, out, 1);
	CHECK_EQ(scan(f, inst, FILE_BYTES, rg, 2, &r), 0);
	CHECK_EQ(r.v[0], done_records);
	CHECK_EQ(r.v[2], 5);
	CHECK_EQ(r.payload_len, 5 * 32);
	/* the runs name exactly the records the model says, in file order */
	uint64_t next = 0, blocks = 0;

	for (uint32_t i = 0; i < r.v[2] && i * 32 < r.payload_len; i++) {
		const uint8_t *run = r.payload + 32 * i;
		uint64_t fb = fx_get(run, 8), nb = fx_get(run + 8, 8);
		uint64_t k0 = fx_get(run + 16, 8), nk = fx_get(run + 24, 8);

		CHECK(k0 >= next && nk > 0);
		for (uint64_t k = next; k < k0; k++) {
			CHECK_EQ(done[k], 0);
		}
		for (uint64_t k = k0; k < k0 + nk; k++) {
			CHECK_EQ(done[k], 1);
		}
		/* the blocks read are those the records lie in */
		CHECK_EQ(fb, k0 * REC / BS);
		CHECK_EQ(fb + nb, ((k0 + nk) * REC + BS - 1) / BS);
		blocks += nb;
		next = k0 + nk;
	}
	for (uint64_t k = next; k < FILE_BYTES / REC; k++) {
		CHECK_EQ(done[k], 0);
	}
	CHECK_EQ(r.v[1], blocks);
	/* the blocks read: those holding a byte of a record done in the drive */
	for (uint64_t fb = 0; fb < FILE_BLOCKS; fb++) {
		int used = 0;

		for (uint64_t k = 0; k < FILE_BYTES / REC; k++) {
			used |= done[k] && k * REC < (fb + 1) * BS && k * REC + REC > fb * BS;
		}
		want_pages += used;
	}
	CHECK_EQ(blocks, want_pages);
	read_agg(f, inst, &got, &pages);
	CHECK_EQ(pages, blocks);   /* the run is charged the pages it read */
	for (int k = 0; k < NKEYS; k++) {
		CHECK_EQ(got.cnt[k], want.cnt[k]);
		CHECK_EQ(got.sum[k], want.sum[k]);
		sum.cnt[k] = got.cnt[k] + rest.cnt[k];
		sum.sum[k] = got.sum[k] + rest.sum[k];
		CHECK_EQ(sum.cnt[k], whole.cnt[k]);
		CHECK_EQ(sum.sum[k], whole.sum[k]);
	}

	/* nothing present in the ranges: no run, nothing done */
	struct range none = { 0x900000000ull, 4, 0 };

	CHECK_EQ(scan(f, inst, FILE_BYTES, &none, 1, &r), 0);
	CHECK_EQ(r.v[0], 0);
	CHECK_EQ(r.v[2], 0);
	CHECK_EQ(r.payload_len, 0);

	/* refusals */
	struct range bad_order[2] = { { BASE_B, 2, 6 }, { BASE_A, 2, 0 } };
	struct range overlap[2] = { { BASE_A, 3, 0 }, { BASE_B, 2, 2 } };
	struct range past_end = { BASE_A, FILE_BLOCKS + 1, 0 };
	struct range empty = { BASE_A, 0, 0 };

	refused(f, scan_pkt(inst, FILE_BYTES, bad_order, 2), SS_R_BAD_FIELD);
	refused(f, scan_pkt(inst, FILE_BYTES, overlap, 2), SS_R_BAD_FIELD);
	refused(f, scan_pkt(inst, FILE_BYTES, &empty, 1), SS_R_BAD_FIELD);
	struct fx_pkt odd = scan_pkt(inst, FILE_BYTES, rg, 2);

	odd.payload_len = 30;
	refused(f, odd, SS_R_BAD_LENGTH);
	odd.payload_len = 0;
	refused(f, odd, SS_R_BAD_LENGTH);
	/* too small a reply room for the runs */
	odd = scan_pkt(inst, FILE_BYTES, rg, 2);
	odd.reply_max = 64 * 32 - 1;
	refused(f, odd, SS_R_BAD_FIELD);
	CHECK_EQ(scan(f, inst, FILE_BYTES, &past_end, 1, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_FIELD);
	CHECK_EQ(scan(f, inst + 0x100, FILE_BYTES, rg, 2, &r), -SS_ENOENT);
	CHECK_EQ(r.reason, SS_R_NO_SUCH_OBJECT);
	uint64_t text = create_agg(f, create_output(f, "/scan/text"), 2);

	CHECK_EQ(scan(f, text, FILE_BYTES, rg, 2, &r), -SS_EINVAL);
	CHECK_EQ(r.reason, SS_R_BAD_LAYOUT);
}

/* More runs than one engine run takes: the first 64 are done, the rest left to the host. */
static void test_run_cap(struct fx *f)
{
	enum { N = 140 };
	static uint8_t big[N * BS];
	uint64_t base = 0x2000000000ull, inst, pages, records = 0;
	struct range rg = { base, N, 0 };
	struct agg got;
	struct fx_reply r;

	for (uint32_t i = 0; i < sizeof(big); i++) {
		big[i] = i % REC ? (uint8_t)i : (uint8_t)(i / REC % NKEYS);
	}
	for (uint64_t b = 0; b < N; b++) {
		struct fx_pkt p = { .opcode = SS_OP_SSC_WRITE_CLEAN, .oid = base + b, .length = 1,
				    .payload = big + b * BS, .payload_len = BS };

		if (b % 2 == 0) {
			CHECK_EQ(call(f, &p, &r), 0);
		} else {
			evict_block(f, base + b);
		}
	}
	inst = create_agg(f, create_output(f, "/scan/cap"), 1);
	CHECK_EQ(scan(f, inst, (uint64_t)N * BS, &rg, 1, &r), 0);
	CHECK_EQ(r.v[2], 64);
	for (uint32_t i = 0; i < 64; i++) {
		const uint8_t *run = r.payload + 32 * i;
		uint64_t fb = 2 * i;

		CHECK_EQ(fx_get(run, 8), fb);
		CHECK_EQ(fx_get(run + 8, 8), 1);
		CHECK_EQ(fx_get(run + 16, 8), (fb * BS + REC - 1) / REC);
		CHECK_EQ(fx_get(run + 24, 8), (fb + 1) * BS / REC - (fb * BS + REC - 1) / REC);
		records += fx_get(run + 24, 8);
	}
	CHECK_EQ(r.v[0], records);
	read_agg(f, inst, &got, &pages);
	CHECK_EQ(pages, 64);
	uint64_t n = 0;

	for (int k = 0; k < NKEYS; k++) {
		n += got.cnt[k];
	}
	CHECK_EQ(n, records);
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8) {
		p[i] = (uint8_t)v;
	}
}

/* Block fb of `file` (FILE_BYTES) in the caching FileSystem's block format (smartssd-fs
 * CacheBlock): header, then PAYLOAD bytes of the file. */
#define PAYLOAD (BS - 64)
static void encode_block(uint8_t *dst, uint64_t fb, const uint8_t *digest, int any_length)
{
	uint64_t start = fb * PAYLOAD;
	uint32_t len = (uint32_t)(FILE_BYTES - start < PAYLOAD ? FILE_BYTES - start : PAYLOAD);

	memset(dst, 0, BS);
	put_be(dst, 0x53534342u, 4);
	put_be(dst + 4, 1, 2);
	put_be(dst + 8, fb, 8);
	put_be(dst + 16, any_length && len == PAYLOAD ? UINT64_MAX : FILE_BYTES, 8);
	put_be(dst + 24, len, 4);
	put_be(dst + 28, fx_crc32c(0, file + start, len), 4);
	memcpy(dst + 32, digest, 32);
	memcpy(dst + 64, file + start, len);
}

/* The same file in header blocks: 13 blocks at BASE_A. The drive's
 * answer equals the model's for the records inside runs of present blocks; a block of
 * another version (its digest), or with a wrong index, stops the scan with STALE_BLOCK. */
static void test_headers(struct fx *f)
{
	enum { NB = (FILE_BYTES + PAYLOAD - 1) / PAYLOAD };
	static const int present[NB] = { 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1 };
	static uint8_t blk[BS];
	uint8_t digest[32], other[32], pl[32 + 24];
	struct agg want = { 0 }, got;
	uint64_t inst, pages, done = 0;
	struct fx_reply r;
	struct fx_pkt p = { .opcode = SS_OP_SSC_SCAN, .flags = SS_SSC_SCAN_BLOCK_HEADER,
			    .offset = FILE_BYTES, .payload = pl, .payload_len = sizeof(pl) };

	CHECK_EQ(NB, 13);   /* the last holds 460 bytes */
	for (int i = 0; i < 32; i++) {
		digest[i] = (uint8_t)(i * 37 + 1);
		other[i] = digest[i] ^ (i == 31);
	}
	for (uint64_t fb = 0; fb < NB; fb++) {
		struct fx_pkt w = { .opcode = SS_OP_SSC_WRITE_CLEAN, .oid = BASE_A + fb, .length = 1,
				    .payload = blk, .payload_len = BS };

		encode_block(blk, fb, digest, (int)(fb % 2));
		CHECK_EQ(call(f, &w, &r), 0);
		if (!present[fb]) {
			evict_block(f, BASE_A + fb);
		}
	}
	for (uint32_t k = 0; k < FILE_BYTES / REC; k++) {
		uint64_t a = (uint64_t)k * REC / PAYLOAD, b = ((uint64_t)k * REC + REC - 1) / PAYLOAD;
		int ok = 1;

		for (uint64_t fb = a; fb <= b; fb++) {
			ok &= present[fb];
		}
		if (ok) {
			agg_add(&want, k);
			done++;
		}
	}
	memcpy(pl, digest, 32);
	fx_put(pl + 32, BASE_A, 8);
	fx_put(pl + 40, NB, 8);
	fx_put(pl + 48, 0, 8);
	inst = create_agg(f, create_output(f, "/scan/hdr"), 1);
	p.oid = inst;
	CHECK_EQ(call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], done);
	CHECK_EQ(r.v[2], 3);   /* runs [0,2) [3,6) [7,13) */
	read_agg(f, inst, &got, &pages);
	for (int k = 0; k < NKEYS; k++) {
		CHECK_EQ(got.cnt[k], want.cnt[k]);
		CHECK_EQ(got.sum[k], want.sum[k]);
	}
	/* the file's version the host asks for is not the cached one: nothing is used */
	memcpy(pl, other, 32);
	CHECK_EQ(call(f, &p, &r), -SS_EPROTO);
	CHECK_EQ(r.reason, SS_R_STALE_BLOCK);
	memcpy(pl, digest, 32);
	/* one block of another version behind the cache's back */
	struct fx_pkt w = { .opcode = SS_OP_SSC_WRITE_CLEAN, .oid = BASE_A + 9, .length = 1,
			    .payload = blk, .payload_len = BS };

	encode_block(blk, 9, other, 0);
	CHECK_EQ(call(f, &w, &r), 0);
	CHECK_EQ(call(f, &p, &r), -SS_EPROTO);
	CHECK_EQ(r.reason, SS_R_STALE_BLOCK);
	/* a block at the wrong address (its header names another index) */
	encode_block(blk, 8, digest, 0);
	CHECK_EQ(call(f, &w, &r), 0);
	CHECK_EQ(call(f, &p, &r), -SS_EPROTO);
	CHECK_EQ(r.reason, SS_R_STALE_BLOCK);
	/* a damaged payload (CRC) */
	encode_block(blk, 9, digest, 0);
	blk[100] ^= 1;
	CHECK_EQ(call(f, &w, &r), 0);
	CHECK_EQ(call(f, &p, &r), -SS_EPROTO);
	CHECK_EQ(r.reason, SS_R_STALE_BLOCK);
	/* put right, the answer is back */
	encode_block(blk, 9, digest, 1);
	CHECK_EQ(call(f, &w, &r), 0);
	CHECK_EQ(call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], done);
	/* a header scan's payload must hold the digest and whole ranges */
	struct fx_pkt shortp = p;

	shortp.payload_len = 32;
	refused(f, shortp, SS_R_BAD_LENGTH);
	shortp.payload_len = 31 + 24;
	refused(f, shortp, SS_R_BAD_LENGTH);
}

static void test_no_cache(void)
{
	struct fx_opts o = { .cache_share_permille = 0 };
	struct range rg = { BASE_A, 1, 0 };
	struct fx_reply r;
	struct fx f;

	fx_create_with(&f, &o);
	fx_open_session(&f);
	CHECK_EQ(scan(&f, 1, FILE_BYTES, &rg, 1, &r), -SS_ENOSYS);
	CHECK_EQ(r.reason, SS_R_OK);
	fx_destroy(&f);
}

int main(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	struct fx f;

	make_file();
	fx_create_with(&f, &o);
	fx_open_session(&f);
	test_sparse(&f);
	test_run_cap(&f);
	test_headers(&f);
	fx_destroy(&f);
	test_no_cache();
	return fx_failures ? 1 : 0;
}
