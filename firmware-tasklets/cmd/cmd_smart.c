/*
 * SMART (B0h): attribute data and thresholds from the FTL's and the firmware's own
 * counters, in the ATA layout libatasmart and smartctl parse. A drive with a solid-state
 * cache adds its counters as vendor-specific attributes (CACHE_ATTRS), and a drive with a
 * DRAM buffer or merge cache its own (BUFFER_ATTRS), informational (value 100, no
 * threshold), whose worst value is the current one: the lifetime record keeps worst values
 * for the first FW_SMART_ATTRS only.
 */
#include "cmd_internal.h"

#define SMART_READ_DATA 0xD0
#define SMART_READ_THRESHOLDS 0xD1
#define SMART_ENABLE 0xD8
#define SMART_DISABLE 0xD9
#define SMART_RETURN_STATUS 0xDA
#define SMART_SIGNATURE 0xC24Fu      /* LBA mid 4Fh, high C2h */
#define SMART_STATUS_GOOD 0xC24F00ull
#define SMART_STATUS_BAD 0x2CF400ull /* LBA mid F4h, high 2Ch: a threshold is exceeded */
#define SMART_REVISION 0x0010
#define ATTR_SIZE 12u
#define NS_PER_HOUR 3600000000000ull

/* attribute flags */
#define F_PREFAIL 0x01
#define F_ONLINE 0x02
#define F_EVENT 0x10
#define F_SELF_PRESERVE 0x20

struct attr {
	uint8_t id;
	uint16_t flags;
	uint8_t value;
	uint8_t threshold;
	uint64_t raw;     /* 48 bits */
};

/* Every id is SS_PROTO_SMART_ATTRS's (ss_proto.h), which names them for the host.
 * The cache's attributes: read hits, read misses, silently evicted blocks, dirty blocks,
 * write amplification in thousandths (raw values; since mount); then, since format and
 * kept across restarts, in cache blocks: hits, fills (write-clean), dirty writes, clean
 * operations (count), blocks cleaned, blocks evicted, and the cache's retired erase
 * blocks (count). */
#define CACHE_ATTRS 12u
#define BUFFER_ATTRS 8u
#define MAX_ATTRS (FW_SMART_ATTRS + CACHE_ATTRS + BUFFER_ATTRS)

/* 100 while nothing is used up, falling to 1 as `used` reaches `budget`. */
static uint8_t health(uint64_t used, uint64_t budget)
{
	uint64_t pct;

	if (budget == 0) {
		return 100;
	}
	pct = used >= budget ? 100 : used * 100 / budget;
	return pct >= 99 ? 1 : (uint8_t)(100 - pct);
}

static uint64_t milli(uint64_t num, uint64_t den)
{
	return den ? num * 1000 / den : 0;
}

/* The buffer's attributes, since power-on: read and write hit ratios in thousandths,
 * merges, extra reads (BPLRU's padding, the merge cache's merge reads), pages flushed to
 * the flash, and the merge cache's own: whole pages sent past it, index-cache hits and
 * misses (0 with another buffer). Into a. \return how many (0: the drive has no buffer). */
static uint32_t buffer_attributes(struct ss_fw *fw, struct attr *a)
{
	struct ss_buf_stats b;

	if (!fw->buf || ss_buf_get_params(fw->buf)->policy == SS_BUF_NONE) {
		return 0;
	}
	ss_buf_get_stats(fw->buf, &b);
	a[0] = (struct attr){ SS_SMART_BUFFER_READ_HIT_MILLI, F_ONLINE, 100, 0,
			      milli(b.read_hits, b.read_pages) };
	a[1] = (struct attr){ SS_SMART_BUFFER_WRITE_HIT_MILLI, F_ONLINE, 100, 0,
			      milli(b.write_hits, b.write_pages) };
	a[2] = (struct attr){ SS_SMART_BUFFER_MERGES, F_ONLINE, 100, 0, b.merges };
	a[3] = (struct attr){ SS_SMART_BUFFER_EXTRA_READS, F_ONLINE, 100, 0,
			      b.padding_reads };
	a[4] = (struct attr){ SS_SMART_BUFFER_FLUSHED_PAGES, F_ONLINE, 100, 0,
			      b.flushed_pages };
	a[5] = (struct attr){ SS_SMART_MERGE_CACHE_BYPASSED, F_ONLINE, 100, 0,
			      b.nv_bypass_pages };
	a[6] = (struct attr){ SS_SMART_MERGE_CACHE_INDEX_HITS, F_ONLINE, 100, 0,
			      b.nv_index_hits };
	a[7] = (struct attr){ SS_SMART_MERGE_CACHE_INDEX_MISSES, F_ONLINE, 100, 0,
			      b.nv_index_misses };
	return BUFFER_ATTRS;
}

/* \return the number of attributes filled into a (MAX_ATTRS room). */
static uint32_t attributes(struct ss_fw *fw, struct attr *a)
{
	uint32_t n = FW_SMART_ATTRS;

	struct ss_ssc_stats cs;
	struct ss_ftl_stats st;
	uint32_t blocks = ss_geo_blocks(&fw->hal->geo);
	uint32_t spare = (uint32_t)((uint64_t)blocks * fw->hal->geo.overprovision_permille / 1000);
	int32_t t = fw->hal->temperature_c;
	uint8_t tv = (uint8_t)(t <= 0 ? 100 : t >= 99 ? 1 : 100 - t);

	fw_life_sync(fw);
	ss_ftl_get_stats(fw->ftl, &st);
	if (spare == 0) {
		spare = 1;
	}
	a[0] = (struct attr){ SS_SMART_RETIRED_BLOCKS,
			      F_PREFAIL | F_ONLINE | F_EVENT | F_SELF_PRESERVE,
			      health(st.retired_blocks, spare), 10, st.retired_blocks };
	a[1] = (struct attr){ SS_SMART_POWER_ON_HOURS, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.power_on_ns / NS_PER_HOUR };
	a[2] = (struct attr){ SS_SMART_POWER_CYCLES, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.mounts };
	a[3] = (struct attr){ SS_SMART_UNSAFE_SHUTDOWNS, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.unsafe_shutdowns };
	a[4] = (struct attr){ SS_SMART_AVG_ERASE_COUNT, F_PREFAIL | F_ONLINE | F_EVENT,
			      health(st.avg_erase_count, fw->hal->endurance), 5,
			      st.avg_erase_count };
	a[5] = (struct attr){ SS_SMART_TEMPERATURE, F_ONLINE | F_SELF_PRESERVE, tv, 0,
			      (uint16_t)(int16_t)t };
	a[6] = (struct attr){ SS_SMART_HOST_SECTORS_WRITTEN, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.lbas_written };
	a[7] = (struct attr){ SS_SMART_HOST_SECTORS_READ, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.lbas_read };
	a[8] = (struct attr){ SS_SMART_NAND_PAGE_WRITES, F_ONLINE | F_SELF_PRESERVE, 100, 0,
			      fw->life.nand_writes };
	if (fw->ssc) {
		ss_ssc_get_stats(fw->ssc, &cs);
		a[9] = (struct attr){ SS_SMART_CACHE_HITS, F_ONLINE, 100, 0, cs.read_hits };
		a[10] = (struct attr){ SS_SMART_CACHE_MISSES, F_ONLINE, 100, 0, cs.read_misses };
		a[11] = (struct attr){ SS_SMART_CACHE_SILENT_EVICTIONS, F_ONLINE, 100, 0,
				       cs.silent_evicted_pages };
		a[12] = (struct attr){ SS_SMART_CACHE_DIRTY, F_ONLINE, 100, 0, cs.dirty_pages };
		a[13] = (struct attr){ SS_SMART_CACHE_WRITE_AMP, F_ONLINE, 100, 0,
				       ss_ssc_write_amplification_milli(fw->ssc) };
		a[14] = (struct attr){ SS_SMART_CACHE_HIT_BLOCKS, F_ONLINE, 100, 0,
				       cs.hit_blocks };
		a[15] = (struct attr){ SS_SMART_CACHE_FILLED_BLOCKS, F_ONLINE, 100, 0,
				       cs.filled_blocks };
		a[16] = (struct attr){ SS_SMART_CACHE_DIRTY_WRITTEN_BLOCKS, F_ONLINE, 100, 0,
				       cs.dirty_written_blocks };
		a[17] = (struct attr){ SS_SMART_CACHE_CLEAN_OPS, F_ONLINE, 100, 0,
				       cs.clean_ops };
		a[18] = (struct attr){ SS_SMART_CACHE_CLEANED_BLOCKS, F_ONLINE, 100, 0,
				       cs.cleaned_blocks };
		a[19] = (struct attr){ SS_SMART_CACHE_EVICTED_BLOCKS, F_ONLINE, 100, 0,
				       cs.evicted_blocks };
		a[20] = (struct attr){ SS_SMART_CACHE_RETIRED_BLOCKS, F_ONLINE, 100, 0,
				       cs.retired_blocks };
		n += CACHE_ATTRS;
	}
	return n + buffer_attributes(fw, a + n);
}

_Static_assert(2 + MAX_ATTRS * ATTR_SIZE <= 362, "attributes fit before the SMART tail");

/* The worst value is the lowest ever seen, kept in the lifetime record across power
 * cycles (SMART's "worst" column), not the current value again. */
static void fold_worst(struct ss_fw *fw, const struct attr *a)
{
	for (uint32_t i = 0; i < FW_SMART_ATTRS; i++) {
		if (fw->life.worst[i] == 0 || a[i].value < fw->life.worst[i]) {
			fw->life.worst[i] = a[i].value;
		}
	}
}

static void fold_current(struct ss_fw *fw)
{
	struct attr a[MAX_ATTRS];

	attributes(fw, a);
	fold_worst(fw, a);
}

int fw_smart_record_store(struct ss_fw *fw, bool force)
{
	fold_current(fw);
	return fw_record_store(fw, force);
}

_Static_assert(MAX_ATTRS == SS_FW_SMART_ATTRS_MAX, "ss_fw.h's bound is the drive's");

int ss_fw_smart_attributes(struct ss_fw *fw, struct ss_fw_smart_attr *out, uint32_t max)
{
	struct attr a[MAX_ATTRS];
	uint32_t n;

	if (!fw || fw->state != FW_UP) {
		return -SS_EBADMSG;
	}
	n = attributes(fw, a);
	fold_worst(fw, a);
	n = SS_MIN(n, max);
	for (uint32_t i = 0; i < n; i++) {
		out[i] = (struct ss_fw_smart_attr){ a[i].id, a[i].value,
			i < FW_SMART_ATTRS ? fw->life.worst[i] : a[i].value,
			a[i].raw & 0xFFFFFFFFFFFFull };
	}
	return (int)n;
}

static void checksum(uint8_t *s)
{
	uint8_t sum = 0;

	for (uint32_t i = 0; i < SS_SECTOR - 1; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	s[SS_SECTOR - 1] = (uint8_t)(0x100 - sum);
}

static void read_data(struct ss_fw *fw, uint8_t *s)
{
	struct attr a[MAX_ATTRS];
	uint32_t n = attributes(fw, a);

	fold_worst(fw, a);
	ss_memset(s, 0, SS_SECTOR);
	ss_put_le16(s, SMART_REVISION);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *p = s + 2 + i * ATTR_SIZE;
		uint64_t raw = a[i].raw & 0xFFFFFFFFFFFFull;

		p[0] = a[i].id;
		ss_put_le16(p + 1, a[i].flags);
		p[3] = a[i].value;
		p[4] = i < FW_SMART_ATTRS ? fw->life.worst[i] : a[i].value;
		for (uint32_t b = 0; b < 6; b++) {
			p[5 + b] = (uint8_t)(raw >> (8 * b));
		}
	}
	/* 362: off-line collection never started; 367..370: no self-tests, no error log */
	checksum(s);
}

static void read_thresholds(struct ss_fw *fw, uint8_t *s)
{
	struct attr a[MAX_ATTRS];
	uint32_t n = attributes(fw, a);

	ss_memset(s, 0, SS_SECTOR);
	ss_put_le16(s, SMART_REVISION);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *p = s + 2 + i * ATTR_SIZE;

		p[0] = a[i].id;
		p[1] = a[i].threshold;
	}
	checksum(s);
}

static bool threshold_exceeded(struct ss_fw *fw)
{
	struct attr a[MAX_ATTRS];
	uint32_t n = attributes(fw, a);

	for (uint32_t i = 0; i < n; i++) {
		if ((a[i].flags & F_PREFAIL) && a[i].threshold && a[i].value <= a[i].threshold) {
			return true;
		}
	}
	return false;
}

void fw_smart(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data, uint32_t len,
	      struct ss_ata_result *res)
{
	uint8_t sub = (uint8_t)tf->features;

	if (((tf->lba >> 8) & 0xFFFF) != SMART_SIGNATURE) {
		fw_abort(res, SS_R_BAD_FIELD);
		return;
	}
	if (sub == SMART_ENABLE || sub == SMART_DISABLE) {
		fw->life.smart_disabled = sub == SMART_DISABLE;
		fw_ok(res);
		return;
	}
	if (fw->life.smart_disabled) {
		fw_abort(res, SS_R_BAD_FIELD);
		return;
	}
	switch (sub) {
	case SMART_READ_DATA:
	case SMART_READ_THRESHOLDS:
		if (len < SS_SECTOR) {
			fw_abort(res, SS_R_BAD_LENGTH);
			return;
		}
		if (sub == SMART_READ_DATA) {
			read_data(fw, data);
		} else {
			read_thresholds(fw, data);
		}
		ss_memset(data + SS_SECTOR, 0, len - SS_SECTOR);
		fw_ok(res);
		break;
	case SMART_RETURN_STATUS:
		fw_ok(res);
		res->lba = threshold_exceeded(fw) ? SMART_STATUS_BAD : SMART_STATUS_GOOD;
		break;
	default:
		fw_abort(res, SS_R_BAD_FIELD);
		break;
	}
}
