/*
 * The drive's DRAM buffer (firmware-tasklets/buffer/) as the firmware runs it: its DRAM
 * is what the object store leaves of the drive's, its policy and size are chosen at
 * format and kept on the drive, and every host read and write (block commands and
 * object I/O, tasklet output included) goes through it.
 *
 * The choice is kept in the firmware's record object (cmd_life.c), past the lifetime
 * record, at FW_BUFCFG_OFF: magic, version, policy, threshold, the merge cache's read
 * policy, pages, the merge cache's NVM generation (zero in records written before it),
 * CRC-32C.
 *
 * The merge cache (SS_BUF_NV_*) keeps its sectors in the hal's non-volatile RAM: a power-up
 * recovers them, and a mount that changes the buffer away from the merge cache (or to
 * other merge-cache parameters) first writes what it holds to the flash. The NVM's header
 * names its owner, the drive's serial and the generation the record holds; each time the
 * NVM is started empty the generation goes up, on the flash first. A power-up that finds
 * no NVM, another's, another generation's, or one that fails a checksum refuses the drive
 * (fw_mount_report says why) rather than serve what the flash holds instead of what was
 * acknowledged; a mount asked to discard it starts it empty and reports what it held.
 */
#include "cmd_internal.h"

#define FW_BUFCFG_OFF 128u
#define FW_BUFCFG_SIZE 20u
#define FW_BUFCFG_MAGIC 0x46425353u /* "SSBF" */
#define FW_BUFCFG_VERSION 1u

/* The default size: FW_BUFFER_DEFAULT_BYTES, or two erase blocks where that is more (a
 * block-level policy needs two: the jasmine-openssd's blocks are 4 MiB). */
static uint64_t default_bytes(const struct ss_geometry *geo)
{
	return SS_MAX(FW_BUFFER_DEFAULT_BYTES, 2ull * geo->pages_per_block * geo->page_size);
}

static void default_params(const struct ss_geometry *geo, uint64_t bytes,
			   struct ss_buf_params *bp)
{
	/* every field set: the drive keeps them and COUNTERS sends them, whatever the policy */
	*bp = (struct ss_buf_params){
		.policy = FW_BUFFER_DEFAULT_POLICY,
		.pages = (uint32_t)((bytes ? bytes : default_bytes(geo)) / geo->page_size),
		.pages_per_block = geo->pages_per_block,
		.read_ahead_pages = FW_READAHEAD_BYTES / geo->page_size,
	};
}

uint64_t fw_buffer_dram(const struct ss_geometry *geo, uint64_t bytes)
{
	struct ss_buf_params bp;

	default_params(geo, bytes, &bp);
	return ss_buf_dram_needed(&bp, geo->page_size);
}

static void encode(const struct ss_buf_params *bp, uint32_t nv_generation, uint8_t *b)
{
	ss_memset(b, 0, FW_BUFCFG_SIZE);
	ss_put_le32(b, FW_BUFCFG_MAGIC);
	b[4] = FW_BUFCFG_VERSION;
	b[5] = (uint8_t)bp->policy;
	b[6] = (uint8_t)SS_MIN(bp->hbm_threshold, 255u);
	b[7] = (uint8_t)bp->nv_read;
	ss_put_le32(b + 8, bp->pages);
	ss_put_le32(b + 12, nv_generation);
	ss_put_le32(b + 16, ss_crc32c(0, b, 16));
}

static bool decode(const uint8_t *b, struct ss_buf_params *bp, uint32_t *nv_generation)
{
	if (ss_get_le32(b) != FW_BUFCFG_MAGIC || b[4] != FW_BUFCFG_VERSION ||
	    b[5] >= SS_BUF_POLICY_COUNT || b[7] > SS_BUF_NV_READ_BOTH ||
	    ss_get_le32(b + 16) != ss_crc32c(0, b, 16)) {
		return false;
	}
	bp->policy = (enum ss_buf_policy)b[5];   /* read_ahead_pages stays the firmware's */
	bp->hbm_threshold = b[6];
	bp->nv_read = b[7];
	bp->pages = ss_get_le32(b + 8);
	*nv_generation = ss_get_le32(b + 12);
	return true;
}

/* What the drive keeps; a drive formatted before there was a buffer gets the default. */
static void load(struct ss_fw *fw, struct ss_buf_params *bp)
{
	uint8_t b[FW_BUFCFG_SIZE];
	uint32_t n = 0;

	if (fw->record_oid == SS_OID_NONE ||
	    ss_os_read(fw->os, fw->record_oid, FW_BUFCFG_OFF, b, FW_BUFCFG_SIZE, &n) != 0 ||
	    n != FW_BUFCFG_SIZE) {
		return;
	}
	(void)decode(b, bp, &fw->nv_generation);
}

static int store(struct ss_fw *fw, const struct ss_buf_params *bp)
{
	uint8_t b[FW_BUFCFG_SIZE];
	int rc;

	if (fw->record_oid == SS_OID_NONE) {
		return 0;
	}
	encode(bp, fw->nv_generation, b);
	rc = ss_os_write(fw->os, fw->record_oid, FW_BUFCFG_OFF, b, FW_BUFCFG_SIZE, 0, 0);
	return rc ? rc : ss_os_flush(fw->os);
}

static int from_format(const struct ss_geometry *geo, const struct ss_fw_format_params *p,
		       struct ss_buf_params *bp)
{
	default_params(geo, p->buffer_bytes, bp);
	if (p->buffer_policy) {
		if (ss_buf_parse(p->buffer_policy, (uint32_t)ss_strnlen(p->buffer_policy, 16),
				 bp) != 0) {
			return -SS_EINVAL;
		}
	}
	if (p->buffer_bytes && p->buffer_bytes % geo->page_size) {
		return -SS_EINVAL;
	}
	bp->hbm_threshold = p->buffer_threshold;
	if (bp->policy == SS_BUF_NONE) {
		bp->pages = 0;
	}
	return 0;
}

static bool same(const struct ss_buf_params *a, const struct ss_buf_params *b)
{
	return a->policy == b->policy && a->pages == b->pages && a->nv_read == b->nv_read &&
	       a->hbm_threshold == b->hbm_threshold;
}

static void owner_of(const struct ss_fw *fw, struct ss_buf_nv_owner *o)
{
	ss_memset(o, 0, sizeof(*o));
	ss_memcpy(o->drive, fw->hal->serial, ss_strnlen(fw->hal->serial, sizeof(o->drive)));
	o->generation = fw->nv_generation;
}

/* The merge cache's NVM as the drive kept it: mapped, and examined (rep) when it is not the
 * size these parameters need. \return 0, or -SS_EBADMSG (rep->problem), or -SS_EINVAL when
 * the drive has no NVRAM. */
static int nvram_kept(struct ss_fw *fw, const struct ss_buf_params *bp, void **nvram,
		      struct ss_buf_nv_report *rep)
{
	uint32_t page = fw->ftl_hal->geo.page_size;
	size_t size = (size_t)ss_buf_nvram_needed(bp, page);
	struct ss_buf_nv_owner owner;
	int rc = ss_hal_nvram_map(fw->hal, 0, &size, nvram);

	ss_memset(rep, 0, sizeof(*rep));
	if (rc == -SS_ENOENT) {
		rep->problem = SS_BUF_NV_MISSING;
		rep->held = UINT32_MAX;
		return -SS_EBADMSG;
	}
	if (rc) {
		return -SS_EINVAL;   /* no non-volatile RAM on this drive */
	}
	if (size != ss_buf_nvram_needed(bp, page)) {
		owner_of(fw, &owner);
		ss_buf_nv_examine(*nvram, size, bp, page, &owner, rep);
		return -SS_EBADMSG;
	}
	return 0;
}

/* The buffer of these parameters. A merge cache maps its NVM: made anew and started empty
 * when `fresh`, else recovered after its checks (-SS_EBADMSG and rep->problem when it
 * fails them). */
static int init(struct ss_fw *fw, void *region, uint64_t size, const struct ss_buf_params *bp,
		bool fresh, struct ss_buf_nv_report *rep)
{
	uint64_t nv = ss_buf_policy_is_nv(bp->policy)
			      ? ss_buf_nvram_needed(bp, fw->ftl_hal->geo.page_size) : 0;
	struct ss_buf_nv_owner owner;
	void *nvram = NULL;
	int rc;

	if (nv && fresh) {
		size_t want = (size_t)nv;

		rc = ss_hal_nvram_map(fw->hal, 1, &want, &nvram);
		if (rc) {
			return rc == -SS_EIO ? rc : -SS_EINVAL;   /* -SS_EINVAL: the drive has none */
		}
	} else if (nv) {
		rc = nvram_kept(fw, bp, &nvram, rep);
		if (rc) {
			return rc;
		}
	}
	owner_of(fw, &owner);
	return ss_buf_init_nv(&fw->buf, fw->ftl, region, size, nvram, nv, bp, fresh, &owner, rep);
}

int fw_buffer_start(struct ss_fw *fw, void *region, uint64_t size,
		    const struct ss_fw_format_params *p, bool format, bool discard_nvram,
		    struct ss_fw_mount_report *mr)
{
	const struct ss_geometry *geo = &fw->ftl_hal->geo;
	struct ss_buf_params bp, stored;
	struct ss_buf_nv_report scratch;
	bool fresh, stored_now = false;
	void *kept;
	int rc;

	fw->nv_generation = 0;
	default_params(geo, 0, &stored);
	if (!format) {
		load(fw, &stored);
	}
	bp = stored;
	if (p) {
		rc = from_format(geo, p, &bp);
		if (rc) {
			return rc;
		}
	}
	if (ss_buf_policy_is_nv(stored.policy) && discard_nvram && !format) {
		/* what the discard drops, for the host to say: the NVM as it was kept */
		mr->discarded = 1;
		if (nvram_kept(fw, &stored, &kept, &mr->nvram) == 0) {
			struct ss_buf_nv_owner owner;

			owner_of(fw, &owner);
			ss_buf_nv_examine(kept, ss_buf_nvram_needed(&stored, geo->page_size), &stored,
					  geo->page_size, &owner, &mr->nvram);
		}
	} else if (!format && ss_buf_policy_is_nv(stored.policy) && !same(&stored, &bp)) {
		/* what the merge cache holds goes to the flash before it is given up */
		rc = init(fw, region, size, &stored, false, &mr->nvram);
		if (rc == 0) {
			rc = ss_buf_writeback(fw->buf);
		}
		if (rc == 0) {
			rc = ss_buf_flush(fw->buf);
		}
		fw->buf = NULL;
		if (rc) {
			mr->refused = rc == -SS_EBADMSG ? SS_FW_REFUSED_NVRAM : SS_FW_REFUSED_NONE;
			return rc;
		}
	}
	/* -SS_EINVAL: smaller than two blocks, a threshold past a block, or a policy this
	 * build or drive has not; -SS_ENOMEM: it does not fit the DRAM the other layers
	 * leave (a merge cache's NVM counted in it) */
	/* a merge cache is recovered only where the drive ran this one: otherwise the NVM holds
	 * nothing, or what was written back above, or one of the previous runs with a volatile
	 * buffer in between (whose writes are newer): it starts empty */
	fresh = format || discard_nvram || !same(&stored, &bp);
	if (ss_buf_policy_is_nv(bp.policy) && fresh) {
		/* the flash disowns the NVM's old contents before they are cleared: a power cut
		 * in between leaves an NVM of the old generation, refused, not recovered */
		if (ss_buf_dram_needed(&bp, geo->page_size) > size) {
			return -SS_ENOMEM;
		}
		fw->nv_generation++;
		rc = store(fw, &bp);
		if (rc) {
			return rc;
		}
		stored_now = true;
	}
	rc = init(fw, region, size, &bp, fresh, mr->discarded ? &scratch : &mr->nvram);
	if (rc) {
		mr->refused = rc == -SS_EBADMSG ? SS_FW_REFUSED_NVRAM : SS_FW_REFUSED_NONE;
		return rc;
	}
	ss_buf_set_read_ahead(fw->buf, fw->ftl_hal);
	if (p && !stored_now) {
		rc = store(fw, &bp);
		if (rc) {
			return rc;
		}
	}
	ss_os_attach_buffer(fw->os, fw->buf);
	return 0;
}

/* The merge cache's own counters (0 with another buffer): after what hosts of
 * SS_WIRE_COUNTERS_V1_SIZE bytes know. */
static void fw_merge_cache_counters(const struct ss_buf_stats *st, uint8_t *p)
{
	const uint64_t v[] = {
		st->nv_bypass_pages, st->nv_read_cached, st->nv_prefetched,
		st->nv_index_hits, st->nv_index_misses, st->nv_ftl_flushes,
	};

	_Static_assert(offsetof(struct ss_wire_counters, buffer_nv_bypass_pages) ==
			       SS_WIRE_COUNTERS_V1_SIZE,
		       "the merge cache's counters follow the first version's reply");
	_Static_assert(offsetof(struct ss_wire_counters, buffer_nv_ftl_flushes) ==
			       offsetof(struct ss_wire_counters, buffer_nv_bypass_pages) + 8 * 5,
		       "the merge cache's u64 counters are consecutive on the wire");
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(v); i++) {
		ss_put_le64(p + offsetof(struct ss_wire_counters, buffer_nv_bypass_pages) + 8 * i,
			    v[i]);
	}
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_nv_slots), st->nv_slots);
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_nv_slots_used),
		    st->nv_slots_used);
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_nv_recovered), st->nv_recovered);
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_nv_reserved), 0);
}

void fw_buffer_counters(struct ss_fw *fw, uint8_t *p)
{
	const struct ss_buf_params *bp = ss_buf_get_params(fw->buf);
	struct ss_buf_stats st;
	uint64_t v[8 + SS_BUF_LEN_BUCKETS];

	_Static_assert(offsetof(struct ss_wire_counters, buffer_flushes_65) ==
			       offsetof(struct ss_wire_counters, buffer_read_pages) +
				       8 * (7 + SS_BUF_LEN_BUCKETS),
		       "the buffer's u64 counters are consecutive on the wire");
	ss_buf_get_stats(fw->buf, &st);
	v[0] = st.read_pages;
	v[1] = st.read_hits;
	v[2] = st.write_pages;
	v[3] = st.write_hits;
	v[4] = st.merges;
	v[5] = st.padding_reads;
	v[6] = st.flushed_pages;
	v[7] = st.evictions;
	ss_memcpy(&v[8], st.flushes_by_len, sizeof(st.flushes_by_len));
	/* the merge cache's read policy in the second byte (native/PROTOCOL.md) */
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_policy),
		    (uint32_t)bp->policy | bp->nv_read << 8);
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_pages), bp->pages);
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(v); i++) {
		ss_put_le64(p + offsetof(struct ss_wire_counters, buffer_read_pages) + 8 * i, v[i]);
	}
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_threshold), st.threshold);
	ss_put_le32(p + offsetof(struct ss_wire_counters, buffer_block_region_pages),
		    st.block_region_pages);
	fw_merge_cache_counters(&st, p);
}

void ss_fw_buffer_stats(const struct ss_fw *fw, struct ss_buf_params *p, struct ss_buf_stats *st)
{
	ss_memset(p, 0, sizeof(*p));
	ss_memset(st, 0, sizeof(*st));
	if (fw && fw->state == FW_UP && fw->buf) {
		*p = *ss_buf_get_params(fw->buf);
		ss_buf_get_stats(fw->buf, st);
	}
}
