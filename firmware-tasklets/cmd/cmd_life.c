/*
 * The firmware's lifetime record: SMART counters that outlive a power cycle (mounts,
 * unsafe shutdowns, LBAs written and read, power-on time, NAND writes), kept in a hidden
 * root object named FW_RECORD_NAME. All power-on and lifetime bookkeeping is here:
 * cmd_fw.c counts power cycles through it and cmd_smart.c reports from it.
 */
#include "cmd_internal.h"

#define HOUR_NS 3600000000000ull

uint64_t fw_power_on_ns(struct ss_fw *fw)
{
	uint64_t now = ss_hal_now_ns(fw->hal);

	return fw->base_power_on_ns + (now >= fw->mount_now_ns ? now - fw->mount_now_ns : 0);
}

void fw_life_sync(struct ss_fw *fw)
{
	struct ss_ftl_stats st;

	ss_ftl_get_stats(fw->ftl, &st);
	fw->life.power_on_ns = fw_power_on_ns(fw);
	fw->life.nand_writes = fw->base_nand_writes +
			       (st.nand_page_writes >= fw->mount_nand_writes ?
				st.nand_page_writes - fw->mount_nand_writes : 0);
}

static void take_base(struct ss_fw *fw)
{
	struct ss_ftl_stats st;

	ss_ftl_get_stats(fw->ftl, &st);
	fw->mount_now_ns = ss_hal_now_ns(fw->hal);
	fw->mount_nand_writes = st.nand_page_writes;
	fw->base_power_on_ns = fw->life.power_on_ns;
	fw->base_nand_writes = fw->life.nand_writes;
}

static void encode(const struct fw_lifetime *l, uint8_t *b)
{
	ss_memset(b, 0, FW_RECORD_SIZE);
	ss_put_le32(b + 0, FW_RECORD_MAGIC);
	ss_put_le32(b + 4, FW_RECORD_VERSION);
	ss_put_le64(b + 8, l->mounts);
	ss_put_le64(b + 16, l->unsafe_shutdowns);
	ss_put_le64(b + 24, l->lbas_written);
	ss_put_le64(b + 32, l->lbas_read);
	ss_put_le64(b + 40, l->power_on_ns);
	ss_put_le64(b + 48, l->nand_writes);
	ss_put_le32(b + 56, (l->smart_disabled ? 1u : 0u) | (l->clean ? 2u : 0u));
	ss_memcpy(b + 60, l->worst, FW_SMART_ATTRS);
	ss_put_le32(b + 76, ss_crc32c(0, b, 76));
}

/* Version 1 (64 bytes, CRC at 60) has no worst values: they start from what is seen next. */
static bool decode(const uint8_t *b, uint32_t len, struct fw_lifetime *l)
{
	uint32_t flags, version = ss_get_le32(b + 4);
	uint32_t crc_at = version == 1 ? 60u : 76u;

	if (ss_get_le32(b) != FW_RECORD_MAGIC || (version != 1 && version != FW_RECORD_VERSION) ||
	    len < crc_at + 4 || ss_get_le32(b + crc_at) != ss_crc32c(0, b, crc_at)) {
		return false;
	}
	if (version == FW_RECORD_VERSION) {
		ss_memcpy(l->worst, b + 60, FW_SMART_ATTRS);
	}
	l->mounts = ss_get_le64(b + 8);
	l->unsafe_shutdowns = ss_get_le64(b + 16);
	l->lbas_written = ss_get_le64(b + 24);
	l->lbas_read = ss_get_le64(b + 32);
	l->power_on_ns = ss_get_le64(b + 40);
	l->nand_writes = ss_get_le64(b + 48);
	flags = ss_get_le32(b + 56);
	l->smart_disabled = flags & 1u;
	l->clean = (flags >> 1) & 1u;
	return true;
}

/* Worth a write: a counter moved, or power-on time crossed an hour (SMART's unit). The
 * NAND-write count rides along, or every record write would call for the next. */
static bool record_dirty(const struct fw_lifetime *a, const struct fw_lifetime *b)
{
	return a->mounts != b->mounts || a->unsafe_shutdowns != b->unsafe_shutdowns ||
	       a->lbas_written != b->lbas_written || a->lbas_read != b->lbas_read ||
	       a->smart_disabled != b->smart_disabled || a->clean != b->clean ||
	       ss_memcmp(a->worst, b->worst, FW_SMART_ATTRS) != 0 ||
	       a->power_on_ns / HOUR_NS != b->power_on_ns / HOUR_NS;
}

/** Write the lifetime record when it changed (always with force); not flushed here. */
int fw_record_store(struct ss_fw *fw, bool force)
{
	uint8_t b[FW_RECORD_SIZE];
	int rc;

	fw_life_sync(fw);
	if (!force && !record_dirty(&fw->life, &fw->persisted)) {
		return 0;
	}
	if (fw->record_oid == SS_OID_NONE) {
		rc = ss_os_create(fw->os, SS_OID_ROOT, FW_RECORD_NAME, FW_RECORD_NAME_LEN, SS_OBJ_FILE,
				  0, 0, &fw->record_oid);
		if (rc) {
			fw->record_oid = SS_OID_NONE;
			return rc;
		}
	}
	encode(&fw->life, b);
	rc = ss_os_write(fw->os, fw->record_oid, 0, b, FW_RECORD_SIZE, 0, 0);
	if (rc == 0) {
		fw->persisted = fw->life;
	}
	return rc;
}

void fw_life_load(struct ss_fw *fw)
{
	uint8_t b[FW_RECORD_SIZE];
	uint32_t n = 0;
	ss_oid_t oid;

	ss_memset(&fw->life, 0, sizeof(fw->life));
	fw->life.clean = 1;   /* a drive without a record has never run: nothing was lost */
	fw->record_oid = SS_OID_NONE;
	if (ss_os_lookup(fw->os, SS_OID_ROOT, FW_RECORD_NAME, FW_RECORD_NAME_LEN, &oid)) {
		return;
	}
	fw->record_oid = oid;
	if (ss_os_read(fw->os, oid, 0, b, FW_RECORD_SIZE, &n) ||
	    (n != FW_RECORD_SIZE && n != FW_RECORD_V1_SIZE)) {
		return;
	}
	(void)decode(b, n, &fw->life);
}

/* A new power cycle: count it, and note whether the last one ended cleanly. */
void fw_life_power_cycle(struct ss_fw *fw)
{
	take_base(fw);
	fw->life.mounts++;
	if (!fw->life.clean) {
		fw->life.unsafe_shutdowns++;
	}
	fw->life.clean = 0;
	ss_memset(&fw->persisted, 0, sizeof(fw->persisted));
	if (fw_record_store(fw, true) == 0) {
		(void)ss_os_flush(fw->os);
	}
}
