/*
 * Raw snappy (format_description.txt of google/snappy): a varint uncompressed length, then
 * elements. Tag low bits 00: literal, length-1 in the tag's upper six bits or, for 60..63,
 * in the next 1..4 bytes little-endian; 01: copy of 4..11 bytes with an 11-bit offset;
 * 10: copy of 1..64 bytes with a 16-bit offset; 11: the same with a 32-bit offset. A copy
 * may overlap its own output (offset < length) and repeats it then.
 */
#include "pq_internal.h"

int ss_pq_snappy_length(const uint8_t *src, size_t src_len, uint32_t *len,
			struct ss_pq_error *err)
{
	struct pq_thrift t = { .buf = src, .len = src_len, .pos = 0, .err = err };
	uint64_t v;
	int rc = pq_varint(&t, &v, 32);

	if (rc) {
		return rc;
	}
	*len = (uint32_t)v;
	return 0;
}

static uint32_t get_le(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++) {
		v |= (uint32_t)p[i] << (8 * i);
	}
	return v;
}

int ss_pq_snappy_decompress(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
			    size_t *out_len, struct ss_pq_error *err)
{
	size_t ip, op = 0;
	uint32_t total;
	int rc;

	rc = ss_pq_snappy_length(src, src_len, &total, err);
	if (rc) {
		return rc;
	}
	if (total > dst_cap) {
		return pq_fail(err, -SS_ENOSPC, SS_PQ_E_SCRATCH_FULL, 0);
	}
	/* the length's varint: at most 5 bytes, checked above */
	for (ip = 0; src[ip] & 0x80; ip++) {
	}
	ip++;
	while (ip < src_len) {
		size_t at = ip;
		uint8_t tag = src[ip++];
		size_t len, off;

		if ((tag & 3) == 0) {
			len = (size_t)(tag >> 2) + 1;
			if (len > 60) {
				unsigned n = (unsigned)len - 60;

				if (n > src_len - ip) {
					return pq_fail(err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, at);
				}
				len = (size_t)get_le(src + ip, n) + 1;
				ip += n;
				if (len == 0) {	/* 2^32 on a 32-bit size_t */
					return pq_fail(err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, at);
				}
			}
			if (len > src_len - ip) {
				return pq_fail(err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, at);
			}
			if (len > total - op) {
				return pq_fail(err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, at);
			}
			ss_memcpy(dst + op, src + ip, len);
			ip += len;
			op += len;
			continue;
		}
		if ((tag & 3) == 1) {
			if (ip >= src_len) {
				return pq_fail(err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, at);
			}
			len = (size_t)((tag >> 2) & 7) + 4;
			off = ((size_t)(tag >> 5) << 8) | src[ip++];
		} else {
			unsigned n = (tag & 3) == 2 ? 2 : 4;

			if (n > src_len - ip) {
				return pq_fail(err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, at);
			}
			len = (size_t)(tag >> 2) + 1;
			off = get_le(src + ip, n);
			ip += n;
		}
		if (off == 0 || off > op) {
			return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_COPY_OFFSET, at);
		}
		if (len > total - op) {
			return pq_fail(err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, at);
		}
		if (off >= len) {
			ss_memcpy(dst + op, dst + op - off, len);
		} else {
			for (size_t i = 0; i < len; i++) {
				dst[op + i] = dst[op - off + i];
			}
		}
		op += len;
	}
	if (op != total) {
		return pq_fail(err, -SS_EBADMSG, SS_PQ_E_SIZE_MISMATCH, ip);
	}
	*out_len = op;
	return 0;
}
