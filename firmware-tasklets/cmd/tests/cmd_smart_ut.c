/*
 * SMART: sector checksums, attributes equal to what the test caused (sectors written and
 * read, by raw commands and as object data, power cycles, unsafe shutdowns, temperature,
 * NAND programs and erase counts as the emulated flash counted them, blocks retired by
 * wear), thresholds, RETURN STATUS, ENABLE/DISABLE, and, where libatasmart is installed,
 * its parse of the same sectors. Raw sector I/O stays inside objects' extents (EXTENTS):
 * the drive refuses raw writes anywhere else. The drive's attribute table
 * (SS_PROTO_SMART_ATTRS) against native/PROTOCOL.md 6.2: the ids a drive with a cache and
 * a buffer reports, their names and units, and libatasmart's names as that table gives
 * them, where libatasmart is installed.
 */
#include <stdlib.h>

#include "fixture.h"

#ifdef SS_HAVE_ATASMART
#include <stddef.h>
#include <arpa/inet.h>
#include <atasmart.h>
#endif

struct attrs {
	int n;
	uint8_t id[30], value[30], worst[30], thr[30];
	uint16_t flags[30];
	uint64_t raw[30];
};

static int sector_sum(const uint8_t *s)
{
	uint8_t sum = 0;

	for (int i = 0; i < 512; i++) {
		sum = (uint8_t)(sum + s[i]);
	}
	return sum;
}

static void read_smart(struct fx *f, uint8_t *data, uint8_t *thr, struct attrs *a)
{
	struct ss_ata_result res;

	fx_ata(f, 0xB0, 0xD0, 1, 0xC24F00, data, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_ata(f, 0xB0, 0xD1, 1, 0xC24F00, thr, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(sector_sum(data), 0);
	CHECK_EQ(sector_sum(thr), 0);
	CHECK_EQ(data[0] | (data[1] << 8), 0x0010);
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < 30; i++) {
		const uint8_t *p = data + 2 + 12 * i;
		const uint8_t *t = thr + 2 + 12 * i;

		if (p[0] == 0) {
			continue;
		}
		CHECK_EQ(t[0], p[0]);   /* thresholds in the same slots */
		a->id[a->n] = p[0];
		a->flags[a->n] = (uint16_t)(p[1] | (p[2] << 8));
		a->value[a->n] = p[3];
		a->worst[a->n] = p[4];
		a->thr[a->n] = t[1];
		for (int b = 5; b >= 0; b--) {
			a->raw[a->n] = (a->raw[a->n] << 8) | p[5 + b];
		}
		a->n++;
	}
}

static int find(const struct attrs *a, uint8_t id)
{
	for (int i = 0; i < a->n; i++) {
		if (a->id[i] == id) {
			return i;
		}
	}
	CHECK(!"attribute present");
	return 0;
}

static uint64_t raw(struct fx *f, uint8_t id)
{
	uint8_t d[512], t[512];
	struct attrs a;

	read_smart(f, d, t, &a);
	return a.raw[find(&a, id)];
}

struct ext {
	uint64_t off;      /* object sector of the extent's first sector */
	uint64_t lba;
	uint32_t sectors;
};

#define MAX_EXT 256

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

/* A file of `sectors` zero sectors, written as object data in packets of at most 1 MiB and
 * flushed; its extents into e. \return the number of extents. */
static int make_object(struct fx *f, const char *path, uint32_t sectors, uint64_t *oid,
		       struct ext *e)
{
	const uint32_t chunk = 2048;   /* sectors per SS_OP_WRITE: 1 MiB */
	uint8_t *zero = calloc(chunk, 512);
	struct fx_pkt p;
	struct fx_reply r;
	uint64_t next = 0;
	int n = 0;

	CHECK_EQ(fx_create_path(f, path, 1, 0, oid), 0);
	for (uint32_t done = 0; done < sectors; done += chunk) {
		uint32_t k = sectors - done < chunk ? sectors - done : chunk;

		CHECK_EQ(fx_write(f, *oid, (uint64_t)done * 512, zero, k * 512), 0);
	}
	free(zero);
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_EXTENTS, .oid = *oid,
			     .length = (uint64_t)sectors * 512 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.payload_len, r.v[0] * 24);
	for (uint64_t i = 0; i < r.v[0] && i < MAX_EXT; i++) {
		const uint8_t *x = r.payload + 24 * i;

		e[n].off = le(x, 8) / 512;
		e[n].lba = le(x + 8, 8);
		e[n].sectors = (uint32_t)le(x + 16, 4);
		CHECK_EQ(le(x, 8) % 512, 0);
		CHECK_EQ(e[n].off, next);           /* in object order, no holes */
		next = e[n].off + e[n].sectors;
		n++;
	}
	CHECK(next >= sectors);
	return n;
}

/* Sectors [first, first + count) of an object, read or written by LBA: one command per
 * extent piece, each of which must succeed. */
static void raw_io(struct fx *f, uint8_t cmd, const struct ext *e, int n, uint64_t first,
		   uint32_t count, uint8_t *buf)
{
	struct ss_ata_result res;
	uint64_t end = first + count;

	for (int i = 0; i < n && first < end; i++) {
		uint64_t lo = e[i].off, hi = e[i].off + e[i].sectors;

		if (first >= hi) {
			continue;
		}
		CHECK(first >= lo);
		uint32_t k = (uint32_t)((end < hi ? end : hi) - first);
		uint8_t *b = buf ? buf : calloc(k, 512);

		fx_ata(f, cmd, 0, (uint16_t)k, e[i].lba + (first - lo), b, k * 512, &res);
		if (res.status != SS_ATA_STATUS_DRDY) {
			fprintf(stderr, "raw 0x%x at %llu+%u: status 0x%x reason %llu\n", cmd,
				(unsigned long long)(e[i].lba + (first - lo)), k, res.status,
				(unsigned long long)res.lba);
			fx_failures++;
		}
		if (buf) {
			buf += (size_t)k * 512;
		} else {
			free(b);
		}
		first += k;
	}
	CHECK_EQ(first, end);
}

static uint64_t capacity(struct fx *f)
{
	struct ss_ata_result res;
	uint8_t s[512];

	fx_ata(f, 0xEC, 0, 1, 0, s, 512, &res);
	return (uint64_t)(s[200] | (s[201] << 8)) | ((uint64_t)(s[202] | (s[203] << 8)) << 16);
}

#ifdef SS_HAVE_ATASMART
struct found {
	uint64_t r241, r242, r12;
	int seen;
};

static void attr_cb(SkDisk *d, const SkSmartAttributeParsedData *a, void *u)
{
	struct found *fd = u;
	uint64_t v = 0;

	for (int b = 5; b >= 0; b--) {
		v = (v << 8) | a->raw[b];
	}
	fd->seen++;
	if (a->id == 241) {
		fd->r241 = v;
		CHECK(strcmp(a->name, "total-lbas-written") == 0);
	} else if (a->id == 242) {
		fd->r242 = v;
	} else if (a->id == 12) {
		fd->r12 = v;
		CHECK(strcmp(a->name, "power-cycle-count") == 0);
	}
}

static void put_tag(uint8_t *p, const char *tag, uint32_t size)
{
	uint32_t be = htonl(size);

	memcpy(p, tag, 4);
	memcpy(p + 4, &be, 4);
}

static void libatasmart(struct fx *f, uint64_t written, uint64_t read_sectors, uint64_t cycles)
{
	uint8_t blob[3 * (8 + 512) + 12], *p = blob;
	struct ss_ata_result res;
	const SkIdentifyParsedData *ipd;
	const SkSmartParsedData *spd;
	SkSmartOverall overall;
	struct found fd = { 0 };
	SkBool avail = 0;
	uint64_t kelvin = 0;
	uint32_t good = htonl(1);
	SkDisk *d;

	put_tag(p, "IDFY", 512);
	fx_ata(f, 0xEC, 0, 1, 0, p + 8, 512, &res);
	p += 8 + 512;
	put_tag(p, "SMST", 4);
	fx_ata(f, 0xB0, 0xDA, 0, 0xC24F00, NULL, 0, &res);
	CHECK_EQ(res.lba, 0xC24F00);
	memcpy(p + 8, &good, 4);
	p += 12;
	put_tag(p, "SMDT", 512);
	fx_ata(f, 0xB0, 0xD0, 1, 0xC24F00, p + 8, 512, &res);
	p += 8 + 512;
	put_tag(p, "SMTH", 512);
	fx_ata(f, 0xB0, 0xD1, 1, 0xC24F00, p + 8, 512, &res);
	p += 8 + 512;

	CHECK_EQ(sk_disk_open(NULL, &d), 0);
	CHECK_EQ(sk_disk_set_blob(d, blob, (size_t)(p - blob)), 0);
	CHECK_EQ(sk_disk_smart_is_available(d, &avail), 0);
	CHECK(avail);
	CHECK_EQ(sk_disk_identify_parse(d, &ipd), 0);
	CHECK(strcmp(ipd->model, f->hal->model) == 0);
	CHECK(strcmp(ipd->serial, f->hal->serial) == 0);
	CHECK_EQ(sk_disk_smart_read_data(d), 0);
	CHECK_EQ(sk_disk_smart_parse(d, &spd), 0);
	CHECK_EQ(spd->offline_data_collection_status, SK_SMART_OFFLINE_DATA_COLLECTION_STATUS_NEVER);
	CHECK_EQ(sk_disk_smart_parse_attributes(d, attr_cb, &fd), 0);
	CHECK_EQ(fd.seen, 17);
	CHECK_EQ(fd.r241, written);
	CHECK_EQ(fd.r242, read_sectors);
	CHECK_EQ(fd.r12, cycles);
	CHECK_EQ(sk_disk_smart_get_temperature(d, &kelvin), 0);
	CHECK_EQ(kelvin, (uint64_t)(f->hal->temperature_c * 1000 + 273150));
	CHECK_EQ(sk_disk_smart_get_overall(d, &overall), 0);
	CHECK_EQ(overall, SK_SMART_OVERALL_GOOD);
	sk_disk_free(d);
}
#endif

static void test_counters(void)
{
	struct fx f;
	struct ss_ata_result res;
	struct ss_emu_counters ec;
	uint8_t d[1024], t[512], obj[4096];
	struct attrs a;
	struct fx_pkt p;
	struct fx_reply r;
	struct ext e[MAX_EXT];
	uint64_t cap, oid;
	uint32_t nread;
	int n;
	/* the fixture's drive has a buffer (hbm): its attributes 150-157 after the others */
	static const uint8_t ids[] = { 5, 9, 12, 174, 177, 194, 241, 242, 249,
				       150, 151, 152, 153, 154, 155, 156, 157 };

	fx_create(&f, 0);
	cap = capacity(&f);
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.n, (int)sizeof(ids));
	for (int i = 0; i < a.n && i < (int)sizeof(ids); i++) {
		CHECK_EQ(a.id[i], ids[i]);
		CHECK(a.value[i] >= 1 && a.value[i] <= 253);
		CHECK_EQ(a.worst[i], a.value[i]);
		CHECK(a.flags[i] & 0x2);            /* collected online */
	}
	CHECK_EQ(a.thr[find(&a, 5)], 10);
	CHECK(a.flags[find(&a, 5)] & 0x1);      /* pre-failure */
	CHECK_EQ(a.raw[find(&a, 5)], 0);
	CHECK_EQ(a.value[find(&a, 5)], 100);
	CHECK_EQ(a.raw[find(&a, 241)], 0);
	CHECK_EQ(a.raw[find(&a, 242)], 0);
	CHECK_EQ(a.raw[find(&a, 12)], 1);
	CHECK_EQ(a.raw[find(&a, 9)], 0);        /* modelled time is far below an hour */
	CHECK_EQ(a.raw[find(&a, 194)] & 0xFFFF, (uint16_t)f.hal->temperature_c);
	/* every NAND program since the image was created was the firmware's */
	ss_emu_flash_get_counters(f.flash, &ec);
	CHECK_EQ(a.raw[find(&a, 249)], ec.page_programs);

	/* object data counts in sectors, ceil(bytes / 512) per request; raw sectors inside
	 * the object count one each */
	fx_open_session(&f);
	n = make_object(&f, "/data", 64, &oid, e);
	CHECK_EQ(raw(&f, 241), 64);
	raw_io(&f, 0x35, e, n, 3, 37, NULL);
	raw_io(&f, 0x35, e, n, 63, 1, NULL);
	raw_io(&f, 0x25, e, n, 3, 5, NULL);
	CHECK_EQ(raw(&f, 241), 102);
	CHECK_EQ(raw(&f, 242), 5);
	CHECK_EQ(fx_create_path(&f, "/o", 1, 0, &oid), 0);
	memset(obj, 7, 1000);
	CHECK_EQ(fx_write(&f, oid, 0, obj, 1000), 0);           /* 2 sectors' worth */
	CHECK_EQ(fx_read(&f, oid, 0, obj, sizeof(obj), &nread), 0);
	CHECK_EQ(nread, 1000);                                   /* 2 sectors, not 8 */
	CHECK_EQ(raw(&f, 241), 104);
	CHECK_EQ(raw(&f, 242), 7);
	/* refused commands count nothing: past the end, into free space */
	fx_ata(&f, 0x35, 0, 2, cap - 1, d, 1024, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_RANGE));
	fx_ata(&f, 0x35, 0, 1, cap - 1, d, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_PROTECTED));
	fx_ata(&f, 0x25, 0, 2, cap - 1, d, 1024, &res);
	CHECK(FX_ABORTED(res, SS_R_LBA_RANGE));
	CHECK_EQ(raw(&f, 241), 104);
	CHECK_EQ(raw(&f, 242), 7);

	/* the erase and retire counts are the FTL's (COUNTERS), 177's value falls with wear */
	p = (struct fx_pkt){ .opcode = SS_OP_COUNTERS };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.raw[find(&a, 177)], r.payload[64] | (r.payload[65] << 8));   /* avg erase */
	CHECK_EQ(a.raw[find(&a, 5)], r.payload[48] | (r.payload[49] << 8));     /* retired */
	/* the buffer's, as COUNTERS has them: hit ratios in thousandths, merges, padding
	 * reads, flushed pages; the merge cache's 0 under hbm */
	{
		uint64_t rp = fx_get(r.payload + 88, 8), rh = fx_get(r.payload + 96, 8);
		uint64_t wp = fx_get(r.payload + 104, 8), wh = fx_get(r.payload + 112, 8);

		CHECK(rp > 0 && wp > 0);
		CHECK_EQ(a.raw[find(&a, 150)], rh * 1000 / rp);
		CHECK_EQ(a.raw[find(&a, 151)], wh * 1000 / wp);
		CHECK_EQ(a.raw[find(&a, 152)], fx_get(r.payload + 120, 8));
		CHECK_EQ(a.raw[find(&a, 153)], fx_get(r.payload + 128, 8));
		CHECK_EQ(a.raw[find(&a, 154)], fx_get(r.payload + 136, 8));
		CHECK_EQ(a.raw[find(&a, 155)], 0);
		CHECK_EQ(a.raw[find(&a, 156)], 0);
		CHECK_EQ(a.raw[find(&a, 157)], 0);
		for (uint8_t id = 150; id <= 157; id++) {
			CHECK_EQ(a.value[find(&a, id)], 100);
			CHECK_EQ(a.thr[find(&a, id)], 0);
			CHECK_EQ(a.flags[find(&a, id)], 0x2);
		}
	}

	/* lifetime counters outlive power cycles: clean, then not */
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	fx_crash(&f);
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.raw[find(&a, 241)], 104);
	CHECK_EQ(a.raw[find(&a, 242)], 7);
	CHECK_EQ(a.raw[find(&a, 12)], 2);
	CHECK_EQ(a.raw[find(&a, 174)], 1);
	raw_io(&f, 0x35, e, n, 10, 3, NULL);
	fx_remount(&f);
	CHECK_EQ(raw(&f, 241), 107);
	CHECK_EQ(raw(&f, 12), 3);
	CHECK_EQ(raw(&f, 174), 1);
	ss_emu_flash_get_counters(f.flash, &ec);
	CHECK(raw(&f, 249) >= ec.page_programs);  /* this image's programs, plus the earlier ones */

	fx_ata(&f, 0xB0, 0xDA, 0, 0xC24F00, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(res.lba, 0xC24F00);
#ifdef SS_HAVE_ATASMART
	libatasmart(&f, 107, 7, 3);
#endif
	fx_destroy(&f);
}

static void test_commands(void)
{
	struct fx f;
	struct ss_ata_result res;
	uint8_t d[1024];

	fx_create(&f, 0);
	/* the LBA mid/high signature is required */
	fx_ata(&f, 0xB0, 0xD0, 1, 0, d, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_ata(&f, 0xB0, 0xD0, 1, 0x4FC200, d, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	/* unknown subcommand, short transfer */
	fx_ata(&f, 0xB0, 0xD4, 0, 0xC24F00, NULL, 0, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_ata(&f, 0xB0, 0xD0, 0, 0xC24F00, d, 0, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	/* a longer transfer gets zeros after the sector */
	memset(d, 0xCC, sizeof(d));
	fx_ata(&f, 0xB0, 0xD1, 2, 0xC24F00, d, 1024, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(d[600], 0);
	/* disabled: only ENABLE works, and the state survives a power cycle */
	fx_ata(&f, 0xB0, 0xD9, 0, 0xC24F00, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_ata(&f, 0xB0, 0xD0, 1, 0xC24F00, d, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_ata(&f, 0xB0, 0xDA, 0, 0xC24F00, NULL, 0, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_remount(&f);
	fx_ata(&f, 0xB0, 0xD0, 1, 0xC24F00, d, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_ata(&f, 0xB0, 0xD8, 0, 0xC24F00, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_ata(&f, 0xB0, 0xD0, 1, 0xC24F00, d, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	fx_destroy(&f);
}

/* Wear the flash out: blocks fail and are retired; attribute 5 counts them. The host
 * rewrites one 8 MiB object in place by LBA, 2 MiB a round. */
static void test_wear(void)
{
	struct fx f;
	struct ss_emu_counters ec;
	uint8_t d[512], t[512];
	struct attrs a;
	uint8_t *buf = calloc(4096, 512);
	struct ext *e = calloc(MAX_EXT, sizeof(*e));
	uint64_t oid;
	int n, before;

	fx_create(&f, 6);
	fx_open_session(&f);
	n = make_object(&f, "/wear", 4 * 4096, &oid, e);
	for (int round = 0; round < 400; round++) {
		ss_emu_flash_get_counters(f.flash, &ec);
		if (ec.failed_blocks >= 1) {
			break;
		}
		buf[0] = (uint8_t)round;
		before = fx_failures;
		raw_io(&f, 0x35, e, n, 4096 * (uint64_t)(round % 4), 4096, buf);
		if (fx_failures != before) {
			fprintf(stderr, "round %d failed\n", round);
			break;
		}
	}
	ss_emu_flash_get_counters(f.flash, &ec);
	read_smart(&f, d, t, &a);
	CHECK(ec.failed_blocks > 0);
	CHECK_EQ(a.raw[find(&a, 5)], ec.failed_blocks);
	CHECK(a.value[find(&a, 5)] < 100);
	CHECK(a.raw[find(&a, 177)] > 0);
	CHECK(a.value[find(&a, 177)] < 100);
	free(e);
	free(buf);
	fx_destroy(&f);
}

/* "Worst" is the lowest value ever seen: it stays when the value recovers, and survives
 * clean and unclean power cycles (temperature 194 moves its value with the drive's). */
static void test_worst(void)
{
	struct fx f;
	uint8_t d[512], t[512];
	struct attrs a;
	struct fx_pkt p;
	struct fx_reply r;
	int16_t was;
	int i;

	fx_create(&f, 0);
	was = f.hal->temperature_c;
	read_smart(&f, d, t, &a);
	i = find(&a, 194);
	CHECK_EQ(a.value[i], 100 - was);
	CHECK_EQ(a.worst[i], a.value[i]);
	f.hal->temperature_c = 70;            /* value 30 */
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.value[i], 30);
	CHECK_EQ(a.worst[i], 30);
	f.hal->temperature_c = 45;            /* value 55: recovered, worst stays */
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.value[i], 55);
	CHECK_EQ(a.worst[i], 30);
	CHECK_EQ(a.worst[find(&a, 5)], 100);  /* untouched attributes: worst = value */
	fx_remount(&f);
	f.hal->temperature_c = 45;
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.value[i], 55);
	CHECK_EQ(a.worst[i], 30);
	/* a drop seen only by the record's own refresh (no SMART read) is kept too */
	f.hal->temperature_c = 80;            /* value 20 */
	fx_open_session(&f);
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	f.hal->temperature_c = 45;
	fx_crash(&f);
	f.hal->temperature_c = 45;
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.value[i], 55);
	CHECK_EQ(a.worst[i], 20);
	fx_destroy(&f);
}

/* The rows "| 5 | `retired-blocks` | blocks | libatasmart | ..." of PROTOCOL.md 6.2. */
struct md_attr {
	unsigned id;
	char name[32], unit[16], atasmart[160];
	int seen;
};

static struct md_attr md_attrs[40];
static int md_n;

static void parse_protocol_md(const char *path)
{
	char line[1024];
	int in_smart = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		struct md_attr *a = &md_attrs[md_n];

		if (!strncmp(line, "##", 2)) {
			in_smart = !strncmp(line, "### 6.2 SMART", 13);
			continue;
		}
		if (!in_smart || md_n == (int)(sizeof(md_attrs) / sizeof(md_attrs[0])) ||
		    sscanf(line, "| %u | `%31[^`]` | %15[^ |] | %159[^|]|", &a->id, a->name, a->unit,
			   a->atasmart) != 4) {
			continue;
		}
		a->atasmart[strcspn(a->atasmart, " ")] = '\0'; /* the name, "none" or "wrong:" */
		md_n++;
	}
	fclose(f);
}

static struct md_attr *md_find(unsigned id)
{
	for (int i = 0; i < md_n; i++) {
		if (md_attrs[i].id == id) {
			return &md_attrs[i];
		}
	}
	return NULL;
}

#ifdef SS_HAVE_ATASMART
/* libatasmart's name for each id against the table's column: its own name where the drive's
 * table says it means the same, "none" where it has no name, "wrong:" where it has another
 * quantity's. */
static void md_atasmart_cb(SkDisk *d, const SkSmartAttributeParsedData *a, void *u)
{
	struct md_attr *m = md_find(a->id);
	char unnamed[32], quoted[40];

	(void)d;
	(*(int *)u)++;
	CHECK(m != NULL);
	if (!m) {
		return;
	}
	snprintf(unnamed, sizeof(unnamed), "attribute-%u", a->id);
	snprintf(quoted, sizeof(quoted), "`%s`", a->name);
#define MD_CHECK_ATASMART_(sym, id_, name_, unit_, atasmart_)                                 \
	if (a->id == id_) {                                                                \
		if (atasmart_) {                                                           \
			CHECK(strcmp(m->atasmart, quoted) == 0);                           \
		} else if (strcmp(a->name, unnamed) == 0) {                                \
			CHECK(strcmp(m->atasmart, "none") == 0);                           \
		} else {                                                                   \
			CHECK(strcmp(m->atasmart, "wrong:") == 0);                         \
		}                                                                          \
	}
	SS_PROTO_SMART_ATTRS(MD_CHECK_ATASMART_)
#undef MD_CHECK_ATASMART_
}
#endif

static void test_table(void)
{
	struct fx_opts o = { .cache_share_permille = 250 };
	uint8_t d[512], t[512];
	struct attrs a;
	struct fx f;
	int n = 0;

	parse_protocol_md(SS_PROTOCOL_MD);
#define MD_CHECK_(sym, id_, name_, unit_, atasmart_)                                        \
	do {                                                                               \
		struct md_attr *m = md_find(id_);                                          \
		CHECK(m != NULL);                                                          \
		if (m) {                                                                   \
			CHECK(strcmp(m->name, name_) == 0);                                \
			CHECK(strcmp(m->unit, unit_) == 0);                                \
			CHECK(atasmart_ == (m->atasmart[0] == '`'));                       \
			m->seen = 1;                                                       \
		}                                                                          \
		n++;                                                                       \
	} while (0);
	SS_PROTO_SMART_ATTRS(MD_CHECK_)
#undef MD_CHECK_
	CHECK_EQ(md_n, n);

	/* a drive with a cache and a buffer reports every id of the table, in its order */
	fx_create_with(&f, &o);
	read_smart(&f, d, t, &a);
	CHECK_EQ(a.n, n);
	n = 0;
#define ORDER_(sym, id_, name_, unit_, atasmart_) CHECK_EQ(a.id[n], id_); n++;
	SS_PROTO_SMART_ATTRS(ORDER_)
#undef ORDER_
#ifdef SS_HAVE_ATASMART
	{
		uint8_t blob[3 * (8 + 512) + 12], *p = blob;
		struct ss_ata_result res;
		uint32_t good = htonl(1);
		SkDisk *disk;
		int seen = 0;

		put_tag(p, "IDFY", 512);
		fx_ata(&f, 0xEC, 0, 1, 0, p + 8, 512, &res);
		p += 8 + 512;
		put_tag(p, "SMST", 4);
		memcpy(p + 8, &good, 4);
		p += 12;
		put_tag(p, "SMDT", 512);
		memcpy(p + 8, d, 512);
		p += 8 + 512;
		put_tag(p, "SMTH", 512);
		memcpy(p + 8, t, 512);
		p += 8 + 512;
		CHECK_EQ(sk_disk_open(NULL, &disk), 0);
		CHECK_EQ(sk_disk_set_blob(disk, blob, (size_t)(p - blob)), 0);
		CHECK_EQ(sk_disk_smart_read_data(disk), 0);
		CHECK_EQ(sk_disk_smart_parse_attributes(disk, md_atasmart_cb, &seen), 0);
		CHECK_EQ(seen, n);
		sk_disk_free(disk);
	}
#endif
	fx_destroy(&f);
}

int main(void)
{
	test_table();
	test_worst();
	test_counters();
	test_commands();
	test_wear();
	return fx_failures ? 1 : 0;
}
