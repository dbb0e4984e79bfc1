/*
 * SMART health, parsed by libatasmart (never by us) and named from the drive's own table
 * (SS_PROTO_SMART_ATTRS). A real drive is opened by libatasmart itself; for an emulated
 * one we read IDENTIFY, SMART READ DATA, SMART READ THRESHOLDS and SMART RETURN STATUS
 * through the transport and hand libatasmart the sectors as a blob (sk_disk_open(NULL) +
 * sk_disk_set_blob).
 */
#include <stddef.h> /* atasmart.h needs it first */
#include <atasmart.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

#define ATA_IDENTIFY 0xEC
#define ATA_SMART 0xB0
#define SMART_READ_DATA 0xD0
#define SMART_READ_THRESHOLDS 0xD1
#define SMART_RETURN_STATUS 0xDA
#define SMART_LBA_SIGNATURE 0xC24F00u   /* LBA mid 4Fh, high C2h */
#define SMART_LBA_FAILING 0x2CF400u     /* threshold exceeded */

/* libatasmart's blob: records of big-endian (tag, size) followed by the data. */
#define BLOB_IDENTIFY 0x49444659u       /* "IDFY" */
#define BLOB_SMART_STATUS 0x534D5354u   /* "SMST" */
#define BLOB_SMART_DATA 0x534D4454u     /* "SMDT" */
#define BLOB_SMART_THRESHOLDS 0x534D5448u /* "SMTH" */
#define BLOB_MAX (3 * (8 + 512) + 8 + 4)

struct blob {
	uint8_t b[BLOB_MAX];
	size_t len;
};

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void blob_add(struct blob *bl, uint32_t tag, const void *data, uint32_t n)
{
	put_be32(bl->b + bl->len, tag);
	put_be32(bl->b + bl->len + 4, n);
	memcpy(bl->b + bl->len + 8, data, n);
	bl->len += 8 + n;
}

static int read_sector(struct ss_dev *d, uint8_t cmd, uint8_t feature, uint8_t *sector)
{
	struct ss_sat_cmd c = {
		.command = cmd,
		.features = feature,
		.count = 1,
		.lba = cmd == ATA_SMART ? SMART_LBA_SIGNATURE : 0,
		.protocol = SS_SAT_PROTO_PIO_IN,
		.dir = SS_SAT_DIR_IN,
	};

	return ss_ata_exec(d, &c, sector, 512, NULL);
}

static int smart_status(struct ss_dev *d, uint32_t *good)
{
	struct ss_sat_cmd c = {
		.command = ATA_SMART,
		.features = SMART_RETURN_STATUS,
		.lba = SMART_LBA_SIGNATURE,
		.protocol = SS_SAT_PROTO_NON_DATA,
		.dir = SS_SAT_DIR_NONE,
		.ck_cond = 1,
	};
	struct ss_sat_regs r;
	uint32_t sig;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = ss_ata_exec(d, &c, NULL, 0, &r);
	if (rc)
		return rc;
	sig = (uint32_t)(r.lba & 0xFFFF00u);
	if (sig == SMART_LBA_SIGNATURE)
		*good = 1;
	else if (sig == SMART_LBA_FAILING)
		*good = 0;
	else
		return ss_err(-EPROTO, 0, "SMART RETURN STATUS: no signature in LBA 0x%06x",
			      (unsigned)(r.lba & 0xFFFFFF));
	return 0;
}

static int build_blob(struct ss_dev *d, struct blob *bl)
{
	uint8_t sector[512], status[4];
	uint32_t good = 0;
	int rc;

	bl->len = 0;
	rc = read_sector(d, ATA_IDENTIFY, 0, sector);
	if (rc)
		return ss_err_context(rc, "IDENTIFY DEVICE");
	blob_add(bl, BLOB_IDENTIFY, sector, 512);
	rc = read_sector(d, ATA_SMART, SMART_READ_DATA, sector);
	if (rc)
		return ss_err_context(rc, "SMART READ DATA");
	blob_add(bl, BLOB_SMART_DATA, sector, 512);
	/* Thresholds are optional in ATA-8; without them libatasmart has none to judge. */
	if (read_sector(d, ATA_SMART, SMART_READ_THRESHOLDS, sector) == 0)
		blob_add(bl, BLOB_SMART_THRESHOLDS, sector, 512);
	rc = smart_status(d, &good);
	if (rc)
		return ss_err_context(rc, "SMART RETURN STATUS");
	put_be32(status, good);
	blob_add(bl, BLOB_SMART_STATUS, status, 4);
	ss_err_clear();
	return 0;
}

struct attr_sink {
	struct ss_dev_smart_attr *attrs;
	uint32_t max;
	uint32_t n;
};

struct drive_attr {
	uint8_t id;
	const char *name;
	const char *unit;
	int atasmart; /* libatasmart's name means the same quantity */
};

static const struct drive_attr drive_attrs[] = {
#define DRIVE_ATTR_(sym, id, name, unit, atasmart) { id, name, unit, atasmart },
	SS_PROTO_SMART_ATTRS(DRIVE_ATTR_)
#undef DRIVE_ATTR_
};

/* The drive's name and unit for the attribute; libatasmart's name beside them where it
 * means the same, since libatasmart knows only the standard ids and reads 170/171 as
 * other vendors' counters. An id outside the drive's table keeps libatasmart's name. */
static void name_attr(struct ss_dev_smart_attr *o, const char *atasmart)
{
	for (size_t i = 0; i < sizeof(drive_attrs) / sizeof(drive_attrs[0]); i++) {
		const struct drive_attr *t = &drive_attrs[i];

		if (t->id != o->id)
			continue;
		snprintf(o->name, sizeof(o->name), "%s", t->name);
		snprintf(o->unit, sizeof(o->unit), "%s", t->unit);
		if (t->atasmart)
			snprintf(o->atasmart_name, sizeof(o->atasmart_name), "%s", atasmart);
		return;
	}
	snprintf(o->name, sizeof(o->name), "%s", atasmart);
}

static void on_attr(SkDisk *disk, const SkSmartAttributeParsedData *a, void *arg)
{
	struct attr_sink *s = arg;
	struct ss_dev_smart_attr *o;

	if (s->n < s->max) {
		o = &s->attrs[s->n];
		memset(o, 0, sizeof(*o));
		o->id = a->id;
		o->current = a->current_value;
		o->worst = a->worst_value;
		o->threshold = a->threshold;
		o->threshold_valid = a->threshold_valid;
		o->prefailure = a->prefailure;
		o->good_now = a->good_now;
		o->good_now_valid = a->good_now_valid;
		o->flags = a->flags;
		o->pretty_unit = a->pretty_unit;
		o->pretty_value = a->pretty_value;
		for (int i = 5; i >= 0; i--)
			o->raw = o->raw << 8 | a->raw[i];
		name_attr(o, a->name ? a->name : "");
	}
	s->n++;
}

static int open_disk(struct ss_dev *d, SkDisk **disk)
{
	struct blob bl;
	int rc;

	if (!strcmp(d->scheme, "sg")) {
		if (sk_disk_open(d->tp->path, disk) < 0) {
			int e = errno ? errno : EIO;

			return ss_err(-e, 0, "libatasmart cannot open %s: %s", d->tp->path,
				      strerror(e));
		}
		if (sk_disk_smart_read_data(*disk) < 0) {
			int e = errno ? errno : EIO;

			sk_disk_free(*disk);
			return ss_err(-e, 0, "libatasmart cannot read SMART data of %s: %s",
				      d->tp->path, strerror(e));
		}
		return 0;
	}
	rc = build_blob(d, &bl);
	if (rc)
		return rc;
	if (sk_disk_open(NULL, disk) < 0)
		return ss_err(-ENOMEM, 0, "libatasmart: cannot create a blob disk");
	if (sk_disk_set_blob(*disk, bl.b, bl.len) < 0) {
		sk_disk_free(*disk);
		return ss_err(-EPROTO, 0, "libatasmart rejected the drive's SMART sectors");
	}
	return 0;
}

int ss_dev_smart(struct ss_dev *d, struct ss_dev_smart *h, struct ss_dev_smart_attr *attrs,
		 uint32_t max)
{
	struct attr_sink sink = {attrs, attrs ? max : 0, 0};
	const SkSmartParsedData *parsed;
	SkSmartOverall overall;
	SkBool good = 1;
	SkDisk *disk;
	int rc;

	ss_err_clear();
	if (!h)
		return ss_err(-EINVAL, 0, "smart: NULL summary");
	rc = open_disk(d, &disk);
	if (rc)
		return rc;
	memset(h, 0, sizeof(*h));
	if (sk_disk_smart_parse(disk, &parsed) < 0) {
		rc = ss_err(-EPROTO, 0, "libatasmart cannot parse the SMART data");
		goto out;
	}
	if (sk_disk_smart_parse_attributes(disk, on_attr, &sink) < 0) {
		rc = ss_err(-EPROTO, 0, "libatasmart cannot parse the SMART attributes");
		goto out;
	}
	if (sk_disk_smart_status(disk, &good) < 0) {
		rc = ss_err(-EIO, 0, "libatasmart cannot read the SMART status");
		goto out;
	}
	if (sk_disk_smart_get_overall(disk, &overall) < 0) {
		rc = ss_err(-EPROTO, 0, "libatasmart gives no overall SMART verdict");
		goto out;
	}
	h->overall = (uint32_t)overall;
	h->status_good = good ? 1 : 0;
	if (sk_disk_smart_get_power_on(disk, &h->power_on_ms) < 0)
		h->power_on_ms = 0;
	if (sk_disk_smart_get_bad(disk, &h->bad_sectors) < 0)
		h->bad_sectors = 0;
	h->nattrs = sink.n;
	rc = (int)(sink.n < sink.max ? sink.n : sink.max);
out:
	sk_disk_free(disk);
	return rc;
}
