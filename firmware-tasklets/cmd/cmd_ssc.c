/*
 * The solid-state cache's opcodes (SSC_*): ranges of cache blocks, each block with
 * FlashTier's guarantee (ss_ssc.h): write-dirty durable on reply, write-clean
 * group-committed and never stale, read returning data or "not present", evict durable,
 * clean allowed to revert, exists from drive memory only. A range is worked through in
 * block order; an error stops it, and the blocks before it keep their guarantee.
 */
#include "cmd_internal.h"

/* Blocks [first, first + count): at least one, and none of them UINT64_MAX. */
static bool range_ok(uint64_t first, uint64_t count)
{
	return count >= 1 && first <= UINT64_MAX - count;
}

/* A drive formatted without a cache answers ENOSYS, reason OK: nothing was malformed. */
bool fw_ssc_have_cache(struct ss_fw *fw, struct fw_rep *rep)
{
	if (fw->ssc) {
		return true;
	}
	rep->status = -SS_ENOSYS;
	rep->reason = SS_R_OK;
	rep->payload_len = 0;
	return false;
}

/* SSC_ENOSPC is the cache full of dirty data; the rest as for any opcode. */
static void ssc_error(struct fw_rep *rep, int rc)
{
	fw_rep_error(rep, rc, rc == -SS_ENOSPC ? SS_R_DRIVE_FULL : 0);
}

uint32_t fw_ssc_info_check(const struct fw_req *rq, uint32_t *cap)
{
	return fw_grown_reply_check(rq, cap, SS_WIRE_SSC_INFO_V1_SIZE,
				    sizeof(struct ss_wire_ssc_info));
}

/* WRITE_DIRTY, WRITE_CLEAN: the data of `length` blocks (its size is checked against the
 * block size at execution, which only the drive knows). */
uint32_t fw_ssc_write_check(const struct fw_req *rq, uint32_t *cap)
{
	if (!rq->payload_len || rq->length > rq->payload_len / SS_SECTOR) {
		return SS_R_BAD_LENGTH;
	}
	return range_ok(rq->oid, rq->length) ? SS_R_OK : SS_R_BAD_FIELD;
}

/* READ: the reply is the bitmap and the blocks; reply_max must hold them. */
uint32_t fw_ssc_read_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	if (!range_ok(rq->oid, rq->length) || rq->reply_max > SS_PKT_MAX_PAYLOAD ||
	    (uint64_t)rq->reply_max < SS_SSC_BITMAP_BYTES(rq->length) + rq->length * SS_SECTOR) {
		return SS_R_BAD_FIELD;
	}
	*cap = rq->reply_max;
	return SS_R_OK;
}

/* EVICT, CLEAN: a range, no payload. */
uint32_t fw_ssc_range_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return range_ok(rq->oid, rq->length) && rq->length <= SS_SSC_RANGE_MAX ? SS_R_OK
									    : SS_R_BAD_FIELD;
}

uint32_t fw_ssc_exists_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t rc = fw_ssc_range_check(rq, cap);

	if (rc != SS_R_OK) {
		return rc;
	}
	*cap = (uint32_t)((rq->length + 7) / 8);
	return rq->reply_max < *cap ? SS_R_BAD_FIELD : SS_R_OK;
}

void fw_ssc_info(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint8_t p[sizeof(struct ss_wire_ssc_info)];
	struct ss_ssc_params sp = { 0 };
	struct ss_ssc_stats st = { 0 };
	uint32_t bs = 0, wa = 0;
	uint64_t capacity = 0;

	if (fw->ssc) {
		ss_ssc_get_stats(fw->ssc, &st);
		ss_ssc_get_params(fw->ssc, &sp);
		bs = ss_ssc_block_size(fw->ssc);
		wa = ss_ssc_write_amplification_milli(fw->ssc);
		capacity = (uint64_t)st.cache_blocks * fw->ssc_view.hal.geo.pages_per_block;
	}
#define PUT32(f, v) ss_put_le32(p + offsetof(struct ss_wire_ssc_info, f), (uint32_t)(v))
#define PUT64(f, v) ss_put_le64(p + offsetof(struct ss_wire_ssc_info, f), (v))
	PUT32(block_size, bs);
	PUT32(share_permille, fw->part.share_permille);
	PUT64(capacity_blocks, capacity);
	PUT32(policy, sp.policy);
	PUT32(log_permille, sp.log_permille);
	PUT64(read_hits, st.read_hits);
	PUT64(read_misses, st.read_misses);
	PUT64(silent_evicted_pages, st.silent_evicted_pages);
	PUT64(silent_evicted_blocks, st.silent_evicted_blocks);
	PUT64(dirty_blocks, st.dirty_pages);
	PUT64(cached_blocks, st.cached_pages);
	PUT64(host_page_writes, st.host_page_writes);
	PUT64(nand_page_writes, st.nand_page_writes);
	PUT64(block_erases, st.block_erases);
	PUT32(write_amplification_milli, wa);
	PUT32(bad_blocks, st.bad_blocks);
	PUT64(map_dram_bytes, st.map_dram_bytes);
	PUT64(hit_bytes, st.hit_blocks * bs);
	PUT64(filled_bytes, st.filled_blocks * bs);
	PUT64(dirty_written_bytes, st.dirty_written_blocks * bs);
	PUT64(clean_ops, st.clean_ops);
	PUT64(cleaned_bytes, st.cleaned_blocks * bs);
	PUT64(evicted_blocks, st.evicted_blocks);
	PUT32(retired_blocks, st.retired_blocks);
	PUT32(endurance, st.endurance);
#undef PUT32
#undef PUT64
	rep->payload_len = SS_MIN(rep->cap, (uint32_t)sizeof(p));
	ss_memcpy(rep->payload, p, rep->payload_len);
}

/* Block i of the range with its data (stride bytes each from the payload), stopping at
 * the first error. */
typedef int (*ssc_block_fn)(struct ss_ssc *c, uint64_t lba, const uint8_t *data);

static void ssc_each(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep,
		     ssc_block_fn fn, uint32_t stride)
{
	for (uint64_t i = 0; i < rq->length; i++) {
		int rc = fn(fw->ssc, rq->oid + i, rq->payload + i * stride);

		if (rc) {
			ssc_error(rep, rc);
			return;
		}
	}
	rep->value[0] = rq->length;
}

static int write_dirty(struct ss_ssc *c, uint64_t lba, const uint8_t *data)
{
	return ss_ssc_write_dirty(c, lba, data);
}

static int write_clean(struct ss_ssc *c, uint64_t lba, const uint8_t *data)
{
	return ss_ssc_write_clean(c, lba, data);
}

static int evict(struct ss_ssc *c, uint64_t lba, const uint8_t *data)
{
	return ss_ssc_evict(c, lba);
}

static void ssc_write(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep,
		      ssc_block_fn fn)
{
	uint32_t bs;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	bs = ss_ssc_block_size(fw->ssc);
	if ((uint64_t)rq->payload_len != rq->length * bs) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_LENGTH);
		return;
	}
	ssc_each(fw, rq, rep, fn, bs);
}

void fw_ssc_write_dirty(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ssc_write(fw, rq, rep, write_dirty);
}

void fw_ssc_write_clean(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ssc_write(fw, rq, rep, write_clean);
}

void fw_ssc_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t bs;
	uint64_t map, hits = 0, end = 0;
	uint8_t *data;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	bs = ss_ssc_block_size(fw->ssc);
	map = SS_SSC_BITMAP_BYTES(rq->length);
	if ((uint64_t)rep->cap < map + rq->length * bs) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_FIELD);
		return;
	}
	ss_memset(rep->payload, 0, (size_t)map);
	data = rep->payload + map;
	for (uint64_t i = 0; i < rq->length; i++) {
		uint8_t *b = data + i * bs;
		int rc = ss_ssc_read(fw->ssc, rq->oid + i, b);

		if (rc < 0) {
			ssc_error(rep, rc);
			return;
		}
		if (rc == SS_SSC_MISS) {
			ss_memset(b, 0, bs);
		} else {
			rep->payload[i / 8] |= (uint8_t)(1u << (i % 8));
			hits++;
			end = i + 1;
		}
	}
	rep->value[0] = hits;
	rep->payload_len = (uint32_t)(map + (rq->flags & SS_SSC_READ_TRIM ? end : rq->length) * bs);
}

void fw_ssc_evict(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	if (fw_ssc_have_cache(fw, rep)) {
		ssc_each(fw, rq, rep, evict, 0);
	}
}

void fw_ssc_clean(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	/* one command, one clean operation in the cache's counters: a completed write-back */
	rc = ss_ssc_clean_range(fw->ssc, rq->oid, rq->length);
	if (rc) {
		ssc_error(rep, rc);
		return;
	}
	rep->value[0] = rq->length;
}

void fw_ssc_exists(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t n = (uint32_t)((rq->length + 7) / 8), dirty = 0;
	int rc;

	if (!fw_ssc_have_cache(fw, rep)) {
		return;
	}
	rc = ss_ssc_exists(fw->ssc, rq->oid, (uint32_t)rq->length, rep->payload);
	if (rc) {
		ssc_error(rep, rc);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		for (uint8_t b = rep->payload[i]; b; b &= (uint8_t)(b - 1)) {
			dirty++;
		}
	}
	rep->value[0] = dirty;
	rep->payload_len = n;
}
