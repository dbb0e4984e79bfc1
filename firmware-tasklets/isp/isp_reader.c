/*
 * Cutting an input byte range into records (FIXED), lines (TEXT) or pages, batch by batch,
 * with the split rules of ss_isp.h: a record belongs to the split holding its first byte.
 * A record that straddles two batches is reassembled in the carry buffer; one that
 * straddles pages inside a batch needs no copy, as a batch is contiguous object bytes.
 */
#include "isp_internal.h"

static uint64_t ceil_to(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

void isp_reader_begin(struct isp_reader *r, enum isp_rd_kind kind, const struct ss_layout *lay,
		      uint32_t page_size, uint64_t size, uint64_t start, uint64_t length,
		      uint8_t *carry)
{
	uint64_t end = start + length;

	ss_memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->page_size = page_size;
	r->size = size;
	r->carry = carry;
	if (end < start || end > size) {
		end = size;
	}
	r->end = end;
	r->phase = ISP_RD_DONE;
	r->rd_start = r->rd_end = start;
	if (start >= end) {
		return;
	}

	switch (kind) {
	case ISP_RD_FIXED: {
		uint64_t rs = lay->record_size;
		uint64_t first = ceil_to(start, rs);
		uint64_t lim = SS_MIN(ceil_to(end, rs), size / rs * rs);

		if (first >= lim) {
			return;
		}
		r->rec_size = (uint32_t)rs;
		r->pos = first;
		r->limit = lim;
		r->rd_start = first;
		r->rd_end = lim;
		r->phase = ISP_RD_LINE;
		break;
	}
	case ISP_RD_TEXT:
		r->rec_size = lay->record_size;
		r->delim = lay->line_delim;
		/* Past offset 0, byte start-1 tells whether a line starts at `start`. */
		r->pos = start ? start - 1 : 0;
		r->phase = start ? ISP_RD_SKIP : ISP_RD_LINE;
		r->rd_start = r->pos;
		r->rd_end = end;
		break;
	case ISP_RD_PAGES: {
		uint64_t first = ceil_to(start, page_size);

		if (first >= end) {
			return;
		}
		r->rec_size = page_size;
		r->pos = first;
		r->rd_start = first;
		r->rd_end = end;
		r->phase = ISP_RD_LINE;
		break;
	}
	}
}

bool isp_reader_done(const struct isp_reader *r)
{
	return r->phase == ISP_RD_DONE;
}

bool isp_reader_wants(const struct isp_reader *r, uint64_t next)
{
	return r->phase != ISP_RD_DONE && next < r->size;
}

static void count_scan(struct isp_reader *r, uint64_t n)
{
	r->insn += 2 * n;
	r->dram += SS_DIV_ROUND_UP(n, 4);
}

static void carry_append(struct isp_reader *r, const uint8_t *src, uint32_t n)
{
	ss_memcpy(r->carry + r->carry_len, src, n);
	r->carry_len += n;
	r->insn += n;
	r->dram += 2 * SS_DIV_ROUND_UP((uint64_t)n, 4);
}

/* Index of the first `delim` in buf[from, to), or -1. */
static int64_t find_delim(struct isp_reader *r, const uint8_t *buf, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		if (buf[i] == r->delim) {
			count_scan(r, i - from + 1);
			return i;
		}
	}
	count_scan(r, to - from);
	return -1;
}

static uint64_t lba_at(const struct isp_reader *r, const uint64_t *lbas, uint64_t bo, uint64_t off)
{
	return lbas[(off - bo) / r->page_size];
}

static int feed_fixed(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl,
		      const uint64_t *lbas, const struct isp_sink *sink)
{
	uint64_t be = bo + bl;
	int rc;

	while (r->pos < r->limit) {
		if (r->carrying) {
			uint32_t take = SS_MIN(r->rec_size - r->carry_len, bl);

			carry_append(r, buf, take);
			if (r->carry_len < r->rec_size) {
				return 0;
			}
			r->carrying = false;
			rc = sink->emit(sink->arg, r->carry, r->rec_size, r->carry_pos, r->carry_lba);
			r->pos += r->rec_size;
			if (rc) {
				return rc;
			}
			continue;
		}
		if (r->pos + r->rec_size <= be) {
			uint64_t whole = (SS_MIN(be, r->limit) - r->pos) / r->rec_size;
			uint32_t emitted = 0;

			rc = sink->emit_fixed(sink->arg, buf, bo, lbas, r->pos, r->rec_size,
					      (uint32_t)whole, &emitted);
			r->pos += (uint64_t)emitted * r->rec_size;
			if (rc) {
				return rc;
			}
			continue;
		}
		if (r->pos >= be) {
			return 0;
		}
		rc = sink->flush(sink->arg);
		if (rc) {
			return rc;
		}
		r->carrying = true;
		r->carry_len = 0;
		r->carry_pos = r->pos;
		r->carry_lba = lba_at(r, lbas, bo, r->pos);
		carry_append(r, buf + (r->pos - bo), (uint32_t)(be - r->pos));
		return 0;
	}
	r->phase = ISP_RD_DONE;
	return 0;
}

static int text_skip(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl)
{
	uint64_t be = bo + bl;
	/* A delimiter at d starts a line at d+1, which is ours only when d+1 < end. */
	uint64_t scan_end = SS_MIN(be, r->end - 1);
	uint64_t from = SS_MAX(r->pos, bo);
	int64_t d;

	if (from >= scan_end) {
		if (scan_end == r->end - 1) {
			r->phase = ISP_RD_DONE;
		}
		return 0;
	}
	d = find_delim(r, buf, (uint32_t)(from - bo), (uint32_t)(scan_end - bo));
	if (d < 0) {
		r->pos = scan_end;
		if (scan_end == r->end - 1) {
			r->phase = ISP_RD_DONE;
		}
		return 0;
	}
	r->pos = bo + (uint64_t)d + 1;
	r->phase = ISP_RD_LINE;
	return 0;
}

static int feed_text(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl,
		     const uint64_t *lbas, const struct isp_sink *sink)
{
	uint64_t be = bo + bl;
	bool eof = be >= r->size;
	int rc = 0;

	if (r->phase == ISP_RD_SKIP) {
		rc = text_skip(r, buf, bo, bl);
		if (rc || r->phase != ISP_RD_LINE) {
			return rc;
		}
	}
	while (r->phase == ISP_RD_LINE) {
		uint64_t from = r->carrying ? bo : r->pos;
		int64_t d;

		if (from >= be) {
			return 0;
		}
		d = find_delim(r, buf, (uint32_t)(from - bo), bl);
		if (r->carrying) {
			uint32_t seg = d >= 0 ? (uint32_t)d : bl;

			if ((uint64_t)r->carry_len + seg > r->rec_size) {
				return -SS_E2BIG;
			}
			carry_append(r, buf, seg);
			if (d < 0 && !eof) {
				return 0;
			}
			r->carrying = false;
			rc = sink->emit(sink->arg, r->carry, r->carry_len, r->carry_pos, r->carry_lba);
			if (d < 0) {
				r->phase = ISP_RD_DONE;
				return rc;
			}
		} else {
			uint64_t ls = r->pos;
			uint64_t len = (d >= 0 ? bo + (uint64_t)d : be) - ls;

			if (len > r->rec_size) {
				return -SS_E2BIG;
			}
			if (d < 0) {
				if (eof) {
					r->phase = ISP_RD_DONE;
					return len ? sink->emit(sink->arg, buf + (ls - bo), (uint32_t)len,
								ls, lba_at(r, lbas, bo, ls))
						   : 0;
				}
				rc = sink->flush(sink->arg);
				if (rc) {
					return rc;
				}
				r->carrying = true;
				r->carry_len = 0;
				r->carry_pos = ls;
				r->carry_lba = lba_at(r, lbas, bo, ls);
				carry_append(r, buf + (ls - bo), (uint32_t)len);
				return 0;
			}
			rc = sink->emit(sink->arg, buf + (ls - bo), (uint32_t)len, ls,
					lba_at(r, lbas, bo, ls));
		}
		r->pos = bo + (uint64_t)d + 1;
		if (r->pos >= r->end || r->pos >= r->size) {
			r->phase = ISP_RD_DONE;
		}
		if (rc) {
			return rc;
		}
	}
	return 0;
}

static int feed_pages(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl,
		      const uint64_t *lbas, const struct isp_sink *sink)
{
	uint64_t be = bo + bl;
	int rc;

	while (r->pos < r->end && r->pos < be) {
		uint32_t len = (uint32_t)SS_MIN((uint64_t)r->page_size, be - r->pos);
		uint64_t off = r->pos;

		r->pos += r->page_size;
		rc = sink->emit(sink->arg, buf + (off - bo), len, off, lba_at(r, lbas, bo, off));
		if (rc) {
			return rc;
		}
	}
	if (r->pos >= r->end) {
		r->phase = ISP_RD_DONE;
	}
	return 0;
}

int isp_reader_feed(struct isp_reader *r, const uint8_t *buf, uint64_t bo, uint32_t bl,
		    const uint64_t *lbas, const struct isp_sink *sink)
{
	if (r->phase == ISP_RD_DONE || bl == 0) {
		return 0;
	}
	switch (r->kind) {
	case ISP_RD_FIXED:
		return feed_fixed(r, buf, bo, bl, lbas, sink);
	case ISP_RD_TEXT:
		return feed_text(r, buf, bo, bl, lbas, sink);
	default:
		return feed_pages(r, buf, bo, bl, lbas, sink);
	}
}
