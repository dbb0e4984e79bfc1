/*
 * SSC_SCAN: a tasklet run over the cached blocks of one file, inside the drive. The host
 * names where the file's blocks would be cached (ranges of cache blocks, in file order);
 * the drive takes the maximal runs of blocks present now, gives the tasklet the FIXED
 * records that lie wholly inside a run, and answers which runs and records it did. The
 * host does the other records (those touching an absent block, or straddling a run's
 * edge) with its own copy of the operator and merges the two results.
 *
 * The run goes to its end before the reply (ss_isp_run_source), not in idle slices:
 * commands are served one at a time, so no block can be evicted or rewritten between the
 * presence test and the read, and the blocks used are the blocks read.
 */
#include "cmd_internal.h"

#define RANGE_SIZE ((uint32_t)sizeof(struct ss_wire_ssc_scan_range))
#define RUN_SIZE ((uint32_t)sizeof(struct ss_wire_ssc_scan_run))

_Static_assert(SS_SSC_SCAN_MAX_RUNS == SS_ISP_MAX_INPUTS, "one engine input per run");

struct scan_source {
	struct ss_ssc *ssc;
	uint32_t block_size;
	struct fw_scan_run *run;
};

static void get_range(const uint8_t *p, uint64_t *first, uint64_t *blocks, uint64_t *file_block)
{
	*first = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, first_block));
	*blocks = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, blocks));
	*file_block = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_range, file_block));
}

/* Ranges of at least one block each, in file order without overlap, SS_SSC_RANGE_MAX
 * blocks in all; the reply room for SS_SSC_SCAN_MAX_RUNS runs. */
uint32_t fw_ssc_scan_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t n = rq->payload_len / RANGE_SIZE;
	uint64_t next_file_block = 0, total = 0;

	if (rq->payload_len % RANGE_SIZE || n == 0 || n > SS_SSC_SCAN_MAX_RANGES) {
		return SS_R_BAD_LENGTH;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t first, blocks, fb;

		get_range(rq->payload + i * RANGE_SIZE, &first, &blocks, &fb);
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

/* The engine reads whole pages of one run: page-aligned `off`, `len` short only at the
 * file's end, into a buffer of whole pages. */
static int read_run(void *arg, uint32_t input, uint64_t off, uint8_t *buf, uint32_t len)
{
	struct scan_source *s = arg;
	const struct fw_scan_run *r = &s->run[input];
	uint64_t fb = off / s->block_size;
	uint32_t pages = (uint32_t)SS_DIV_ROUND_UP(len, s->block_size);

	if (fb < r->file_block || fb + pages > r->file_block + r->blocks) {
		return -SS_EIO;   /* the engine left the run: a bug, not a miss */
	}
	for (uint32_t i = 0; i < pages; i++) {
		int rc = ss_ssc_read(s->ssc, r->first_block + (fb - r->file_block) + i,
				     buf + (uint64_t)i * s->block_size);

		if (rc) {
			return rc == SS_SSC_MISS ? -SS_EIO : rc;
		}
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
	uint64_t bs = s->block_size;
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
	uint32_t n = 0, nranges = rq->payload_len / RANGE_SIZE;

	for (uint32_t i = 0; i < nranges; i++) {
		uint64_t first, blocks, fb, run_start = UINT64_MAX;

		get_range(rq->payload + i * RANGE_SIZE, &first, &blocks, &fb);
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
	struct scan_source src = { .run = fw->scan_runs };
	struct ss_isp_source source = { .read = read_run, .arg = &src, .size = rq->offset };
	uint32_t instance = (uint32_t)rq->oid, rec, n;
	uint64_t file_blocks, used = 0;
	struct ss_isp_progress pr;
	int rc;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	src.ssc = fw->ssc;
	src.block_size = ss_ssc_block_size(fw->ssc);
	if (src.block_size != fw->page_size) {
		/* the engine reads in FTL pages; both parts of one flash share them */
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
	file_blocks = SS_DIV_ROUND_UP(rq->offset, src.block_size);
	for (uint32_t i = 0; i < rq->payload_len / RANGE_SIZE; i++) {
		uint64_t first, blocks, fb;

		get_range(rq->payload + i * RANGE_SIZE, &first, &blocks, &fb);
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
			fw_rep_error(rep, rc, fw_isp_failure_reason(rc));
			return;
		}
		(void)ss_isp_poll(fw->isp, instance, &pr);
		for (uint32_t i = 0; i < n; i++) {
			used += src.run[i].blocks;
		}
	}
	rep->value[0] = n ? pr.records : 0;
	rep->value[1] = used;
	rep->value[2] = n;
	rep->payload_len = n * RUN_SIZE;
}
