/*
 * The solid-state cache's commands (SSC_*): ranges split into commands of at most
 * DATA_BYTES of data or SS_SSC_RANGE_MAX blocks, bitmaps merged at their bit offsets.
 */
#include <errno.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

#define DATA_BYTES (1u << 20)

static int range_check(const char *what, uint64_t first, uint64_t count)
{
	if (count == 0 || first > UINT64_MAX - count)
		return ss_err(-EINVAL, SS_R_BAD_FIELD,
			      "%s: blocks %llu + %llu: empty, or past the last cache block", what,
			      (unsigned long long)first, (unsigned long long)count);
	return 0;
}

/* One cache command; a drive without a cache says ENOSYS, which is named here. */
static int cache_exec(struct ss_dev *d, const struct ss_pkt_req *req, const struct ss_pkt_seg *seg,
		struct ss_pkt_reply *rep)
{
	int rc = ss_obj_exec(d, req, seg, seg ? 1 : 0, rep, "the cache");

	if (rc == -ENOSYS)
		return ss_err(-ENOSYS, 0, "%s: the drive has no solid-state cache (formatted "
			      "with a cache share of 0)", ss_opcode_name(req->opcode));
	return rc;
}

int ss_dev_cache_info(struct ss_dev *d, struct ss_dev_cache_info *out)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_SSC_INFO, .reply_max = sizeof(struct ss_wire_ssc_info)};
	struct ss_pkt_reply rep;
	const uint8_t *p;
	int rc;

	ss_err_clear();
	if (!out)
		return ss_err(-EINVAL, 0, "cache info: NULL output");
	rc = cache_exec(d, &req, NULL, &rep);
	if (rc)
		return rc;
	if (rep.payload_len < sizeof(struct ss_wire_ssc_info))
		return ss_err(-EPROTO, 0, "SSC_INFO reply of %u bytes is short", rep.payload_len);
	p = rep.payload;
	SS_REPLY_SSC_INFO(SS_DECODE, ss_wire_ssc_info)
	__atomic_store_n(&d->cache_block_size, out->block_size, __ATOMIC_RELAXED);
	return 0;
}

/* The cache's block size, asked once per device. */
static int block_size(struct ss_dev *d, uint32_t *bs)
{
	struct ss_dev_cache_info ci;
	int rc;

	*bs = __atomic_load_n(&d->cache_block_size, __ATOMIC_RELAXED);
	if (*bs)
		return 0;
	rc = ss_dev_cache_info(d, &ci);
	if (rc)
		return rc;
	if (ci.block_size == 0)
		return ss_err(-ENOSYS, 0, "the drive has no solid-state cache (formatted with a "
			      "cache share of 0)");
	*bs = ci.block_size;
	return 0;
}

/* Bits [0, n) of src into dst from bit `at`. */
static void merge_bits(uint8_t *dst, uint64_t at, const uint8_t *src, uint64_t n)
{
	if (at % 8 == 0) {
		memcpy(dst + at / 8, src, (size_t)((n + 7) / 8));
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = at + i;

		if (src[i / 8] & (1u << (i % 8)))
			dst[b / 8] |= (uint8_t)(1u << (b % 8));
		else
			dst[b / 8] &= (uint8_t)~(1u << (b % 8));
	}
}

/* The checks of a data command (write, read): a valid range, a buffer, the block size and
 * the blocks one command carries. \return 0 or negative errno (message set). */
static int data_setup(struct ss_dev *d, const char *what, uint64_t first, uint64_t count,
		      const void *buf, uint32_t *bs, uint64_t *per)
{
	int rc;

	ss_err_clear();
	rc = range_check(what, first, count);
	if (rc)
		return rc;
	if (!buf)
		return ss_err(-EINVAL, 0, "%s: NULL buffer or bitmap", what);
	rc = block_size(d, bs);
	if (rc)
		return rc;
	*per = DATA_BYTES / *bs ? DATA_BYTES / *bs : 1;
	return 0;
}

static int cache_write(struct ss_dev *d, uint16_t opcode, const char *what, uint64_t first,
		       uint64_t count, const void *buf)
{
	struct ss_pkt_reply rep;
	uint64_t done = 0, per;
	uint32_t bs;
	int rc = data_setup(d, what, first, count, buf, &bs, &per);

	if (rc)
		return rc;
	while (done < count) {
		uint64_t n = count - done < per ? count - done : per;
		struct ss_pkt_req req = {.opcode = opcode, .oid = first + done, .length = n};
		struct ss_pkt_seg seg = {(const uint8_t *)buf + done * bs, (size_t)(n * bs)};

		rc = cache_exec(d, &req, &seg, &rep);
		if (rc)
			return rc;
		done += n;
	}
	return 0;
}

int ss_dev_cache_write_dirty(struct ss_dev *d, uint64_t first, uint64_t count, const void *buf)
{
	return cache_write(d, SS_OP_SSC_WRITE_DIRTY, "cache write-dirty", first, count, buf);
}

int ss_dev_cache_write_clean(struct ss_dev *d, uint64_t first, uint64_t count, const void *buf)
{
	return cache_write(d, SS_OP_SSC_WRITE_CLEAN, "cache write-clean", first, count, buf);
}

int64_t ss_dev_cache_read(struct ss_dev *d, uint64_t first, uint64_t count, void *buf,
			  uint8_t *present)
{
	struct ss_pkt_reply rep;
	uint64_t done = 0, per, hits = 0;
	uint32_t bs;
	int rc = data_setup(d, "cache read", first, count, present ? buf : NULL, &bs, &per);

	if (rc)
		return rc;
	while (done < count) {
		uint64_t n = count - done < per ? count - done : per;
		uint64_t map = SS_SSC_BITMAP_BYTES(n);
		struct ss_pkt_req req = {.opcode = SS_OP_SSC_READ, .oid = first + done, .length = n,
					 .flags = SS_SSC_READ_TRIM,
					 .reply_max = (uint32_t)(map + n * bs)};
		uint64_t sent;

		rc = cache_exec(d, &req, NULL, &rep);
		if (rc == -EINVAL) {
			/* a drive that predates TRIM refuses the flag (BAD_FIELD) */
			req.flags = 0;
			rc = cache_exec(d, &req, NULL, &rep);
		}
		if (rc)
			return rc;
		/* trimmed after the last present block (a drive before the flag sends all n) */
		sent = rep.payload_len >= map ? (rep.payload_len - map) / bs : 0;
		if (rep.payload_len < map || rep.payload_len != map + sent * bs || sent > n ||
		    rep.value0 > n)
			return ss_err(-EPROTO, 0, "SSC_READ of %llu blocks: %u bytes, %llu present",
				      (unsigned long long)n, rep.payload_len,
				      (unsigned long long)rep.value0);
		merge_bits(present, done, rep.payload, n);
		memcpy((uint8_t *)buf + done * bs, rep.payload + map, (size_t)(sent * bs));
		memset((uint8_t *)buf + (done + sent) * bs, 0, (size_t)((n - sent) * bs));
		hits += rep.value0;
		done += n;
	}
	return (int64_t)hits;
}

static int64_t cache_range(struct ss_dev *d, uint16_t opcode, const char *what, uint64_t first,
			   uint64_t count, uint8_t *bitmap)
{
	struct ss_pkt_reply rep;
	uint64_t done = 0, total = 0;
	int rc;

	ss_err_clear();
	rc = range_check(what, first, count);
	if (rc)
		return rc;
	if (opcode == SS_OP_SSC_EXISTS && !bitmap)
		return ss_err(-EINVAL, 0, "%s: NULL bitmap", what);
	while (done < count) {
		uint64_t n = count - done < SS_SSC_RANGE_MAX ? count - done : SS_SSC_RANGE_MAX;
		struct ss_pkt_req req = {.opcode = opcode, .oid = first + done, .length = n,
					 .reply_max = bitmap ? (uint32_t)((n + 7) / 8) : 0};

		rc = cache_exec(d, &req, NULL, &rep);
		if (rc)
			return rc;
		if (bitmap) {
			if (rep.payload_len != (n + 7) / 8 || rep.value0 > n)
				return ss_err(-EPROTO, 0, "%s of %llu blocks: %u bytes returned",
					      what, (unsigned long long)n, rep.payload_len);
			merge_bits(bitmap, done, rep.payload, n);
			total += rep.value0;
		}
		done += n;
	}
	return (int64_t)total;
}

int ss_dev_cache_evict(struct ss_dev *d, uint64_t first, uint64_t count)
{
	return (int)cache_range(d, SS_OP_SSC_EVICT, "cache evict", first, count, NULL);
}

int ss_dev_cache_clean(struct ss_dev *d, uint64_t first, uint64_t count)
{
	return (int)cache_range(d, SS_OP_SSC_CLEAN, "cache clean", first, count, NULL);
}

int64_t ss_dev_cache_exists(struct ss_dev *d, uint64_t first, uint64_t count, uint8_t *dirty)
{
	return cache_range(d, SS_OP_SSC_EXISTS, "cache exists", first, count, dirty);
}

int ss_dev_cache_scan(struct ss_dev *d, uint64_t instance, uint64_t file_bytes,
		      const uint8_t *digest, const struct ss_dev_scan_range *ranges,
		      uint32_t n_ranges, struct ss_dev_scan_run *runs)
{
	uint8_t pl[SS_SSC_VERSION_DIGEST_BYTES +
		   SS_SSC_SCAN_MAX_RANGES * sizeof(struct ss_wire_ssc_scan_range)];
	const uint32_t rsz = sizeof(struct ss_wire_ssc_scan_range);
	const uint32_t usz = sizeof(struct ss_wire_ssc_scan_run);
	const uint32_t at = digest ? SS_SSC_VERSION_DIGEST_BYTES : 0;
	struct ss_pkt_req req = {.opcode = SS_OP_SSC_SCAN, .oid = instance, .offset = file_bytes,
				 .flags = digest ? SS_SSC_SCAN_BLOCK_HEADER : 0,
				 .reply_max = SS_SSC_SCAN_MAX_RUNS * usz};
	struct ss_pkt_seg seg = {pl, at + (size_t)n_ranges * rsz};
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (!ranges || !runs || n_ranges == 0 || n_ranges > SS_SSC_SCAN_MAX_RANGES)
		return ss_err(-EINVAL, 0, "cache scan: %u ranges (1 to %u, and room for the runs)",
			      n_ranges, SS_SSC_SCAN_MAX_RANGES);
	if (digest)
		memcpy(pl, digest, SS_SSC_VERSION_DIGEST_BYTES);
	for (uint32_t i = 0; i < n_ranges; i++) {
		uint8_t *p = pl + at + (size_t)i * rsz;

		ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_range, first_block),
			    ranges[i].first_block);
		ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_range, blocks), ranges[i].blocks);
		ss_put_le64(p + offsetof(struct ss_wire_ssc_scan_range, file_block),
			    ranges[i].file_block);
	}
	rc = cache_exec(d, &req, &seg, &rep);
	if (rc)
		return rc;
	if (rep.value2 > SS_SSC_SCAN_MAX_RUNS || rep.payload_len != rep.value2 * usz)
		return ss_err(-EPROTO, 0, "SSC_SCAN reply: %llu runs in %u bytes",
			      (unsigned long long)rep.value2, rep.payload_len);
	for (uint32_t i = 0; i < rep.value2; i++) {
		const uint8_t *p = rep.payload + (size_t)i * usz;

		runs[i].file_block = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_run, file_block));
		runs[i].blocks = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_run, blocks));
		runs[i].first_record =
			ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_run, first_record));
		runs[i].records = ss_get_le64(p + offsetof(struct ss_wire_ssc_scan_run, records));
	}
	return (int)rep.value2;
}
