/*
 * Input batches: which pages of an input to read next, reading them through the object
 * store (or a source, ss_isp_run_source), and the LBA of every page (for ss_record.lba).
 */
#include "isp_internal.h"

#include "isp_input.h"

bool isp_batch_plan(const struct ss_isp *isp, const struct isp_instance *in, uint64_t from,
		    uint32_t max_pages, bool nominal_only, struct isp_batch *b)
{
	uint32_t ps = isp->page_size;
	uint64_t size = in->in_size[in->cur];
	uint64_t nominal_end = SS_DIV_ROUND_UP(in->rd.rd_end, ps) * ps;
	uint64_t pages;

	if (!max_pages || from >= size || isp_reader_done(&in->rd)) {
		return false;
	}
	if (from < nominal_end) {
		pages = SS_MIN((nominal_end - from) / ps, (uint64_t)SS_MIN(max_pages, SS_ISP_BATCH_PAGES));
		b->tail = false;
	} else if (!nominal_only && isp_reader_wants(&in->rd, from)) {
		/* A line open at the split's end: read on, a page at a time. */
		pages = 1;
		b->tail = true;
	} else {
		return false;
	}
	b->off = from;
	b->pages = (uint32_t)pages;
	b->len = (uint32_t)SS_MIN(pages * ps, size - from);
	return true;
}

static int map_lbas(struct ss_isp *isp, ss_oid_t oid, const struct isp_batch *b, uint64_t *lbas)
{
	uint32_t ps = isp->page_size;
	uint64_t spp = ps / 512;
	uint64_t off = b->off, end = b->off + b->len;

	for (uint32_t i = 0; i < b->pages; i++) {
		lbas[i] = SS_ISP_LBA_NONE;
	}
	while (off < end) {
		uint64_t covered = off;
		int n = ss_os_extents(isp->os, oid, off, end - off, isp->ext, ISP_MAX_EXTENTS);

		if (n < 0) {
			return n;
		}
		for (int k = 0; k < n; k++) {
			const struct ss_extent *e = &isp->ext[k];

			for (uint32_t j = 0; j < e->pages; j++) {
				uint64_t po = e->offset + (uint64_t)j * ps;

				if (po >= b->off && po < end) {
					lbas[(po - b->off) / ps] = ((uint64_t)e->lpn + j) * spp;
				}
			}
			covered = SS_MAX(covered, e->offset + (uint64_t)e->pages * ps);
		}
		if (n < ISP_MAX_EXTENTS || covered <= off) {
			break;
		}
		off = covered;
	}
	return 0;
}

int isp_batch_read(struct ss_isp *isp, const struct isp_instance *in, const struct isp_batch *b,
		   int slot, bool start)
{
	ss_oid_t oid = in->in[in->cur].oid;
	uint32_t nread = 0;
	int rc;

	if (in->src) {
		/* no LBA: a cache block's flash page is the cache's, not the FTL's */
		for (uint32_t i = 0; i < b->pages; i++) {
			isp->lbas[slot][i] = SS_ISP_LBA_NONE;
		}
		return in->src->read(in->src->arg, in->cur, b->off, isp->batch[slot], b->len);
	}
	rc = start ? ss_os_read_scan_start(isp->os, oid, b->off, isp->batch[slot], b->len, &nread)
		   : ss_os_read_scan(isp->os, oid, b->off, isp->batch[slot], b->len, &nread);
	if (rc) {
		return rc;
	}
	if (nread != b->len) {
		return -SS_EIO;   /* the input shrank under the run */
	}
	return map_lbas(isp, oid, b, isp->lbas[slot]);
}
