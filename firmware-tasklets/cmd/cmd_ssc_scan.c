/*
 * SSC_SCAN: a tasklet run over the cached blocks of one file, inside the drive. The host
 * names where the file's blocks would be cached (ranges of cache blocks, in file order);
 * the drive takes the maximal runs of blocks present now, gives the tasklet the FIXED
 * records that lie wholly inside a run, and answers which runs and records it did. The
 * host does the other records (those touching an absent block, or straddling a run's
 * edge) with its own copy of the operator and merges the two results.
 *
 * With SS_SSC_SCAN_BLOCK_HEADER the blocks are the caching FileSystem's (smartssd-fs
 * CacheBlock): a 64-byte header, then block_size - 64 bytes of the file. Each block read
 * is checked against the file's version (digest, index, lengths, CRC-32C of its payload);
 * one that fails stops the command with STALE_BLOCK, and the host then does the whole
 * file: no block of another version ever reaches the tasklet.
 *
 * The run goes to its end before the reply (ss_isp_run_source), not in idle slices:
 * commands are served one at a time, so no block can be evicted or rewritten between the
 * presence test and the read, and the blocks used are the blocks read.
 */
#include "cmd_internal.h"

#ifdef SS_FW_WITHOUT_SSC
/* A firmware built without the cache engine (cross/arm7tdmi.sh, ssc/ssc_absent.c) has no
 * room for the scan either: it answers as a drive without a cache. */
uint32_t fw_ssc_scan_check(const struct fw_req *rq, uint32_t *cap)
{
	return SS_R_OK;
}

void fw_ssc_scan(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	(void)fw_ssc_have_cache(fw, rep);
}
#else

#define RANGE_SIZE ((uint32_t)sizeof(struct ss_wire_ssc_scan_range))
#define RUN_SIZE ((uint32_t)sizeof(struct ss_wire_ssc_scan_run))

_Static_assert(SS_SSC_SCAN_MAX_RUNS == SS_ISP_MAX_INPUTS, "one engine input per run");

struct scan_source {
	struct ss_ssc *ssc;
	uint32_t block_size;
	uint32_t payload;           /* file bytes per block */
	bool headers;               /* SS_SSC_SCAN_BLOCK_HEADER */
	const uint8_t *digest;      /* the version's, with headers */
	uint64_t file_bytes;
	uint8_t *page;              /* one block */
	uint64_t blocks_read;
	bool stale;                 /* a block failed its header check */
	struct fw_scan_run *run;
};

static void get_range(const uint8_t *p, uint64_t *first, uint64_t *blocks, uint64_t *file_block)
{
	*first = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, first_block));
	*blocks = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, blocks));
	*file_block = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, file_block));
}

/* Where the ranges start in the payload: after the file version's digest, with headers. */
static uint32_t ranges_offset(const struct fw_req *rq)
{
	return rq->flags & SS_SSC_SCAN_BLOCK_HEADER ? SS_SSC_VERSION_DIGEST_BYTES : 0;
}

/* Ranges of at least one block each, in file order without overlap, SS_SSC_RANGE_MAX
 * blocks in all; the reply room for SS_SSC_SCAN_MAX_RUNS runs. */
uint32_t fw_ssc_scan_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t at = ranges_offset(rq);
	uint32_t n = rq->payload_len > at ? (rq->payload_len - at) / RANGE_SIZE : 0;
	uint64_t next_file_block = 0, total = 0;

	if (rq->payload_len < at || (rq->payload_len - at) % RANGE_SIZE || n == 0 ||
	    n > SS_SSC_SCAN_MAX_RANGES) {
		return SS_R_BAD_LENGTH;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t first, blocks, fb;

		get_range(rq->payload + at + i * RANGE_SIZE, &first, &blocks, &fb);
		if (blocks == 0 || first > UINT64_MAX - blocks || fb > UINT64_MAX - blocks ||
		    fb < next_file_block || blocks > SS_SSC_RANGE_MAX - total) {
			return SS_R_BAD_FIELD;
		}
		next_file_block = fb + blocks;
		total += blocks;
	}
	if (rq->length || rq->reply_max < SS_SSC_SCAN_MAX_RUNS * RUN_SIZE) {
		return SS_R_BAD_FIELD;
	}
	*cap = SS_SSC_SCAN_MAX_RUNS * RUN_SIZE;
	return rq->oid > UINT32_MAX ? SS_R_NO_SUCH_OBJECT : SS_R_OK;
}

static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++) {
		v = v << 8 | p[i];
	}
	return v;
}

/* Whether the block in s->page is block fb of the file's version: CacheBlock#matches. */
static bool block_matches(const struct scan_source *s, uint64_t fb)
{
	const uint8_t *h = s->page;
	uint64_t start = fb * s->payload;
	uint64_t want = SS_MIN((uint64_t)s->payload, s->file_bytes - start);
	uint64_t length = get_be(h + 16, 8);
	uint32_t len = (uint32_t)get_be(h + 24, 4);

	if (get_be(h, 4) != SS_SSC_BLOCK_MAGIC || get_be(h + 4, 2) != SS_SSC_BLOCK_LAYOUT ||
	    get_be(h + 8, 8) != fb || len != want) {
		return false;
	}
	if (length != s->file_bytes && !(length == UINT64_MAX && want == s->payload)) {
		return false;
	}
	if (ss_memcmp(h + 32, s->digest, SS_SSC_VERSION_DIGEST_BYTES) != 0) {
		return false;
	}
	return ss_crc32c(0, h + SS_SSC_BLOCK_HEADER_BYTES, len) == (uint32_t)get_be(h + 28, 4);
}

/* The engine reads pages of the file's bytes: [off, off + len), page-aligned, len short
 * only at the file's end. The blocks of the run that hold them are read once each (a
 * block across two batches twice) and their file bytes copied; bytes outside the run,
 * which no record of the run touches, stay zero. */
static int read_run(void *arg, uint32_t input, uint64_t off, uint8_t *buf, uint32_t len)
{
	struct scan_source *s = arg;
	const struct fw_scan_run *r = &s->run[input];
	uint64_t end = off + len;
	uint64_t fb0 = SS_MAX(off / s->payload, r->file_block);
	uint64_t fb1 = SS_MIN(SS_DIV_ROUND_UP(end, s->payload), r->file_block + r->blocks);
	uint32_t skip = s->headers ? SS_SSC_BLOCK_HEADER_BYTES : 0;

	ss_memset(buf, 0, len);
	for (uint64_t fb = fb0; fb < fb1; fb++) {
		uint64_t from = SS_MAX(fb * s->payload, off);
		uint64_t to = SS_MIN(SS_MIN((fb + 1) * s->payload, end), s->file_bytes);
		int rc = ss_ssc_read(s->ssc, r->first_block + (fb - r->file_block), s->page);

		if (rc) {
			return rc == SS_SSC_MISS ? -SS_EIO : rc;   /* planned present: a bug */
		}
		s->blocks_read++;
		if (s->headers && !block_matches(s, fb)) {
			s->stale = true;   /* another version, or damaged */
			return -SS_EPROTO;
		}
		ss_memcpy(buf + (from - off), s->page + skip + (from - fb * s->payload),
			  (size_t)(to - from));
	}
	return 0;
}

/*
 * Present blocks [fb0, fb1) of a range whose first cache block holds file block range_fb:
 * the records wholly inside them become engine input k, and the reply's run k the blocks
 * they lie in (the blocks the engine reads). \return false when the run table is full.
 */
static bool add_run(struct scan_source *s, struct ss_isp_input *in, uint8_t *reply,
		    uint32_t *n, uint64_t range_first, uint64_t range_fb, uint64_t fb0,
		    uint64_t fb1, uint64_t file_bytes, uint32_t rec)
{
	uint64_t bs = s->payload;
	uint64_t start = fb0 * bs, end = SS_MIN(fb1 * bs, file_bytes);
	uint64_t k0 = SS_DIV_ROUND_UP(start, rec), k1 = end / rec;
	uint64_t read0, read1;
	uint8_t *p;

	if (k1 <= k0) {
		return true;   /* no whole record: the host does the bytes */
	}
	if (*n == SS_SSC_SCAN_MAX_RUNS) {
		return false;
	}
	read0 = k0 * rec / bs;
	read1 = SS_DIV_ROUND_UP(k1 * rec, bs);
	s->run[*n].first_block = range_first + (read0 - range_fb);
	s->run[*n].file_block = read0;
	s->run[*n].blocks = read1 - read0;
	in[*n].oid = 0;
	in[*n].offset = k0 * rec;
	in[*n].length = (k1 - k0) * rec;
	p = reply + (uint64_t)*n * RUN_SIZE;
	ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_run, file_block), read0);
	ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_run, blocks), read1 - read0);
	ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_run, first_record), k0);
	ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_run, records), k1 - k0);
	(*n)++;
	return true;
}

/*
 * The runs of present blocks, in file order. A choice: past SS_SSC_SCAN_MAX_RUNS runs
 * (one run of the engine takes that many inputs) the rest of the file is left to the
 * host rather than failing the command; the reply says exactly what was done.
 */
static uint32_t plan_runs(struct ss_fw *fw, const struct fw_req *rq, struct scan_source *s,
			  uint32_t rec, uint8_t *reply)
{
	uint32_t at = ranges_offset(rq), n = 0, nranges = (rq->payload_len - at) / RANGE_SIZE;

	for (uint32_t i = 0; i < nranges; i++) {
		uint64_t first, blocks, fb, run_start = UINT64_MAX;

		get_range(rq->payload + at + i * RANGE_SIZE, &first, &blocks, &fb);
		for (uint64_t b = 0; b <= blocks; b++) {
			bool present = b < blocks && ss_ssc_present(fw->ssc, first + b);

			if (present && run_start == UINT64_MAX) {
				run_start = b;
			} else if (!present && run_start != UINT64_MAX) {
				if (!add_run(s, fw->inputs, reply, &n, first, fb, fb + run_start,
					     fb + b, rq->offset, rec)) {
					return n;
				}
				run_start = UINT64_MAX;
			}
		}
	}
	return n;
}

void fw_ssc_scan(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct scan_source src = { .run = fw->scan_runs, .file_bytes = rq->offset,
				   .page = fw->page_buf, .digest = rq->payload };
	struct ss_isp_source source = { .read = read_run, .arg = &src, .size = rq->offset };
	uint32_t instance = (uint32_t)rq->oid, rec, n, at = ranges_offset(rq);
	uint64_t file_blocks;
	struct ss_isp_progress pr;
	int rc;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	src.ssc = fw->ssc;
	src.block_size = ss_ssc_block_size(fw->ssc);
	src.headers = (rq->flags & SS_SSC_SCAN_BLOCK_HEADER) != 0;
	src.payload = src.block_size - (src.headers ? SS_SSC_BLOCK_HEADER_BYTES : 0);
	if (src.block_size > fw->page_size || src.block_size <= SS_SSC_BLOCK_HEADER_BYTES) {
		/* page_buf holds one block; a header needs room after it */
		fw_rep_error(rep, -SS_ENOSYS, SS_R_OK);
		return;
	}
	if (ss_isp_poll(fw->isp, instance, &pr)) {
		fw_rep_error(rep, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
		return;
	}
	if (pr.state == SS_ISP_RUNNING) {
		fw_rep_error(rep, -SS_EBUSY, SS_R_TASKLET_RUNNING);
		return;
	}
	rec = ss_isp_fixed_record_size(fw->isp, instance);
	if (rec == 0) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_LAYOUT);
		return;
	}
	file_blocks = SS_DIV_ROUND_UP(rq->offset, src.payload);
	for (uint32_t i = 0; i < (rq->payload_len - at) / RANGE_SIZE; i++) {
		uint64_t first, blocks, fb;

		get_range(rq->payload + at + i * RANGE_SIZE, &first, &blocks, &fb);
		if (fb + blocks > file_blocks) {
			fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_FIELD);   /* past the file's end */
			return;
		}
	}
	n = plan_runs(fw, rq, &src, rec, rep->payload);
	if (n) {
		/* no run: the tasklet is not run, and its output object is left as it was */
		rc = ss_isp_run_source(fw->isp, instance, &source, fw->inputs, n);
		if (rc) {
			fw_rep_error(rep, rc, src.stale ? SS_R_STALE_BLOCK : fw_isp_failure_reason(rc));
			return;
		}
		(void)ss_isp_poll(fw->isp, instance, &pr);
	}
	rep->value[0] = n ? pr.records : 0;
	rep->value[1] = src.blocks_read;
	rep->value[2] = n;
	rep->payload_len = n * RUN_SIZE;
}
#endif
