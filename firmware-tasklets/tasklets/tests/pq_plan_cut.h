/*
 * A parquet-scan plan cut to a range of its row groups, and the pages holding their chunks:
 * a run as the connector makes it (over its chunks' pages).
 * Shared by pq_scan_ut and pq_scan_profile.
 */
#ifndef PQ_PLAN_CUT_H
#define PQ_PLAN_CUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smartssd/builtin_tasklets.h"
#include "ss_isp.h"

/* The plan p (plen bytes) cut to row groups r .. r + n - 1 (n >= 1, inside the plan): the
 * header with nrg n, the columns, their rows and chunks, the projection and tree. malloc'd;
 * *len its length. */
static inline uint8_t *pq_plan_cut_n(const uint8_t *p, uint64_t plen, uint32_t r, uint32_t n,
				     uint32_t *len)
{
	uint32_t ncols = p[0], nrg = ss_get_le16(p + 4);
	uint32_t hdr = (uint32_t)sizeof(struct ss_bt_pq_params);
	uint32_t cols = ncols * (uint32_t)sizeof(struct ss_bt_pq_column);
	uint32_t rg = (uint32_t)sizeof(struct ss_bt_pq_rowgroup);
	uint32_t ck = ncols * (uint32_t)sizeof(struct ss_bt_pq_chunk);
	uint64_t tail = plen - hdr - cols - (uint64_t)nrg * (rg + ck);
	uint8_t *o = malloc(hdr + cols + (uint64_t)n * (rg + ck) + tail), *w = o;

	if (!o) {
		abort();
	}
	memcpy(w, p, hdr + cols);
	ss_put_le16(w + 4, (uint16_t)n);
	w += hdr + cols;
	memcpy(w, p + hdr + cols + (uint64_t)r * rg, (uint64_t)n * rg);
	w += (uint64_t)n * rg;
	memcpy(w, p + hdr + cols + (uint64_t)nrg * rg + (uint64_t)r * ck, (uint64_t)n * ck);
	w += (uint64_t)n * ck;
	memcpy(w, p + plen - tail, tail);
	*len = (uint32_t)(w + tail - o);
	return o;
}

/* The plan cut to row group r alone: a run as the connector made them before it ran a
 * partition's row groups together. */
static inline uint8_t *pq_plan_cut(const uint8_t *p, uint64_t plen, uint32_t r, uint32_t *len)
{
	return pq_plan_cut_n(p, plen, r, 1, len);
}

/* The pages (of ps bytes) of object oid from the first to the last holding a cut plan's
 * chunks. */
static inline struct ss_isp_input pq_plan_pages(const uint8_t *c, ss_oid_t oid, uint32_t ps)
{
	uint32_t ncols = c[0], nrg = ss_get_le16(c + 4);
	const uint8_t *k = c + sizeof(struct ss_bt_pq_params) +
			   ncols * sizeof(struct ss_bt_pq_column) +
			   nrg * sizeof(struct ss_bt_pq_rowgroup);
	uint64_t lo = UINT64_MAX, hi = 0;

	for (uint32_t i = 0; i < nrg * ncols; i++, k += sizeof(struct ss_bt_pq_chunk)) {
		uint64_t off = ss_get_le64(k + offsetof(struct ss_bt_pq_chunk, offset));
		uint64_t len = ss_get_le32(k + offsetof(struct ss_bt_pq_chunk, length));

		lo = off < lo ? off : lo;
		hi = off + len > hi ? off + len : hi;
	}
	lo = lo / ps * ps;
	return (struct ss_isp_input){ oid, lo, hi - lo };
}

#endif
