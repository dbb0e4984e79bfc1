/*
 * Open-channel and zoned drives through libsmartssd, in-process (emu:) or over
 * smartssd-devd (unix:): the interface chosen at format (the emu: URI's interface=, or
 * smartssd-devd --format --interface) and kept across a restart of the drive; the other
 * commands refused with WRONG_INTERFACE naming it; each write and read rule; zone append's
 * LBA; vector reads through a submission queue (ss_dev_queue_vector_read). The expected
 * values come from the geometry the test formats (4 channels x 1 way x 16 blocks of 32
 * pages of 8 KiB: 16-sector pages, 512-sector chunks).
 */
#include <errno.h>
#include <stdlib.h>

#include "devtest.h"
#include "ss_proto.h"

#define SPP 16u
#define CHUNK_SECTORS 512u

static int unix_mode;

/* The devtest drive formatted with interface `iface` (ss_emu_drive_opts.interface), served
 * in-process or by a daemon, and opened. */
static struct ss_dev *format_open(struct devtest *t, uint32_t iface)
{
	struct ss_emu_drive_opts o;
	struct ss_dev *d = NULL;
	char err[256] = "";
	int rc;

	if (devtest_format_geo(t, 0, 16))
		return NULL;
	memset(&o, 0, sizeof(o));
	o.flash.geo = (struct ss_geometry){ .channels = 4, .ways = 1, .blocks_per_die = 16,
					    .pages_per_block = 32, .page_size = 8192,
					    .spare_size = 256 };
	o.interface = iface;
	rc = ss_emu_format(t->image, &o, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "format %s: %s\n", t->image, err);
	if (rc == 0 && unix_mode)
		rc = devtest_start_daemon(t);
	CHECK_EQ(rc, 0);
	if (rc == 0)
		CHECK_EQ(ss_dev_open(t->uri, NULL, &d), 0);
	return d;
}

static void restart(struct devtest *t, struct ss_dev **d)
{
	CHECK_EQ(ss_dev_close(*d), 0);
	*d = NULL;
	if (unix_mode) {
		devtest_kill_daemon(t, SIGTERM);
		CHECK_EQ(devtest_start_daemon(t), 0);
	}
	CHECK_EQ(ss_dev_open(t->uri, NULL, d), 0);
}

static void fill(uint8_t *p, uint32_t sectors, uint32_t seed)
{
	for (uint32_t i = 0; i < sectors * 512; i++)
		p[i] = (uint8_t)(seed * 41 + i * 11 + (i >> 9));
}

/* A free chunk of group g, pu 0. */
static uint32_t free_chunk(struct ss_dev *d, const struct ss_dev_geometry *g, uint32_t group)
{
	struct ss_dev_chunk c[64];
	int n = ss_dev_chunk_report(d, (uint64_t)group * g->pus * g->chunks, c,
				    g->chunks < 64 ? g->chunks : 64);

	for (int i = 0; i < n; i++)
		if (c[i].state == SS_CHUNK_FREE)
			return (uint32_t)i;
	CHECK(!"a free chunk");
	return 0;
}

static void test_open_channel(void)
{
	struct devtest t;
	struct ss_dev *d = format_open(&t, SS_DEV_IFACE_OPEN_CHANNEL);
	struct ss_dev_geometry g;
	struct ss_dev_ppa ppa[64];
	struct ss_dev_chunk c;
	static uint8_t data[64 * 512], got[64 * 512];
	uint64_t oid;
	uint32_t ch;

	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	CHECK_EQ(g.iface, SS_DEV_IFACE_OPEN_CHANNEL);
	CHECK_EQ(g.groups, 4);
	CHECK_EQ(g.pus, 1);
	CHECK_EQ(g.chunks, 15);
	CHECK_EQ(g.chunk_sectors, CHUNK_SECTORS);
	CHECK_EQ(g.ws_min, SPP);
	/* the object store is not there, and the message says what the drive is */
	CHECK_EQ(ss_dev_create(d, "/f", SS_DEV_FILE, 0, &oid), -EOPNOTSUPP);
	CHECK_EQ(ss_dev_last_reason(), SS_R_WRONG_INTERFACE);
	CHECK(strstr(ss_dev_last_message(), "open-channel") != NULL);
	CHECK_EQ(ss_dev_zone_mgmt(d, SS_DEV_ZONE_OPEN, 0), -EOPNOTSUPP);

	ch = free_chunk(d, &g, 2);
	for (uint32_t i = 0; i < 64; i++)
		ppa[i] = (struct ss_dev_ppa){ .group = 2, .chunk = ch, .sector = i };
	fill(data, 64, 3);
	/* the rules: not at the write pointer, not whole units, nothing written yet to read */
	CHECK_EQ(ss_dev_vector_write(d, ppa + SPP, SPP, data), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NOT_WRITE_POINTER);
	CHECK_EQ(ss_dev_vector_write(d, ppa, SPP - 1, data), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_WRITE_UNIT);
	CHECK_EQ(ss_dev_vector_read(d, ppa, 1, got), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_READ_UNWRITTEN);
	CHECK_EQ(ss_dev_vector_write(d, ppa, 64, data), 0);
	CHECK_EQ(ss_dev_vector_read(d, ppa, 64, got), 0);
	CHECK_MEM(got, data, sizeof(data));
	CHECK_EQ(ss_dev_chunk_report(d, (uint64_t)2 * g.chunks + ch, &c, 1), 1);
	CHECK_EQ(c.state, SS_CHUNK_OPEN);
	CHECK_EQ(c.wp, c.slba + 64);
	CHECK_EQ(c.wear, 1);

	/* the interface, the data and the write pointer across a restart of the drive */
	restart(&t, &d);
	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	memset(&g, 0, sizeof(g));
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	CHECK_EQ(g.iface, SS_DEV_IFACE_OPEN_CHANNEL);
	CHECK_EQ(ss_dev_vector_read(d, ppa, 64, got), 0);
	CHECK_MEM(got, data, sizeof(data));
	CHECK_EQ(ss_dev_chunk_report(d, (uint64_t)2 * g.chunks + ch, &c, 1), 1);
	CHECK_EQ(c.wp, c.slba + 64);
	CHECK_EQ(ss_dev_create(d, "/f", SS_DEV_FILE, 0, &oid), -EOPNOTSUPP);

	/* a reset counts wear, and the chunk reads nothing after it */
	CHECK_EQ(ss_dev_chunk_reset(d, ppa, 1), 0);
	CHECK_EQ(ss_dev_chunk_report(d, (uint64_t)2 * g.chunks + ch, &c, 1), 1);
	CHECK_EQ(c.state, SS_CHUNK_FREE);
	CHECK_EQ(c.wear, 2);
	CHECK_EQ(ss_dev_vector_read(d, ppa, 1, got), -EINVAL);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

static void test_zoned(void)
{
	struct devtest t;
	struct ss_dev *d = format_open(&t, SS_DEV_IFACE_ZONED);
	struct ss_dev_geometry g;
	struct ss_dev_chunk z[60];
	static uint8_t data[2 * SPP * 512];
	uint64_t lba = 0, slba;
	int n;

	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	CHECK_EQ(g.iface, SS_DEV_IFACE_ZONED);
	n = ss_dev_zone_report(d, 0, z, 60);
	CHECK_EQ(n, 60);
	CHECK_EQ(ss_dev_zone_report(d, 60, z, 60), 0);   /* past the last zone */
	n = ss_dev_zone_report(d, 0, z, 60);
	slba = 0;
	for (int i = 0; i < n; i++) {
		if (z[i].state == SS_CHUNK_FREE) {
			slba = z[i].slba;
			break;
		}
	}
	fill(data, 2 * SPP, 5);
	CHECK_EQ(ss_dev_zone_append(d, slba, data, SPP * 512, &lba), 0);
	CHECK_EQ(lba, slba);
	CHECK_EQ(ss_dev_zone_append(d, slba, data, SPP * 512, &lba), 0);
	CHECK_EQ(lba, slba + SPP);
	CHECK_EQ(ss_dev_zone_append(d, slba, data, 512, &lba), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_WRITE_UNIT);
	CHECK_EQ(ss_dev_zone_mgmt(d, SS_DEV_ZONE_FINISH, slba), 0);
	CHECK_EQ(ss_dev_zone_append(d, slba, data, SPP * 512, &lba), -ENOSPC);
	CHECK_EQ(ss_dev_last_reason(), SS_R_CHUNK_FULL);
	CHECK_EQ(ss_dev_zone_mgmt(d, SS_DEV_ZONE_OPEN, slba), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_ZONE_STATE);
	{
		struct ss_dev_ppa p = { 0 };

		CHECK_EQ(ss_dev_vector_read(d, &p, 1, data), -EOPNOTSUPP);
		CHECK(strstr(ss_dev_last_message(), "zoned") != NULL);
	}
	restart(&t, &d);
	if (d) {
		CHECK_EQ(ss_dev_geometry(d, &g), 0);
		CHECK_EQ(g.iface, SS_DEV_IFACE_ZONED);
		CHECK_EQ(ss_dev_zone_report(d, slba / g.zone_sectors, z, 1), 1);
		CHECK_EQ(z[0].state, SS_CHUNK_FULL);
		CHECK_EQ(ss_dev_zone_mgmt(d, SS_DEV_ZONE_RESET, slba), 0);
		CHECK_EQ(ss_dev_zone_report(d, slba / g.zone_sectors, z, 1), 1);
		CHECK_EQ(z[0].wp, slba);
		CHECK_EQ(z[0].wear, 2);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	devtest_cleanup(&t);
}

/* A drive formatted without an interface is the FTL drive it always was. */
static void test_ftl_default(void)
{
	struct devtest t;
	struct ss_dev *d = NULL;
	struct ss_dev_geometry g;

	if (devtest_format_geo(&t, 0, 16))
		return;
	if (unix_mode && devtest_start_daemon(&t)) {
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (d) {
		CHECK_EQ(ss_dev_geometry(d, &g), -EOPNOTSUPP);
		CHECK(strstr(ss_dev_last_message(), "formatted ftl") != NULL);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	devtest_cleanup(&t);
}

/* smartssd format's way: the emu: URI's interface option (a kang-smartssd drive of three
 * block rows, the smallest that has chunks beside the label's row). */
static void test_format_option(void)
{
	struct devtest t;
	struct ss_dev *d = NULL;
	struct ss_dev_geometry g;
	char u[300], err[256];

	if (unix_mode || devtest_format_geo(&t, 0, 16))
		return;
	snprintf(u, sizeof(u), "%s?interface=sideways&force=1", t.uri);
	CHECK_EQ(ss_dev_format(u, NULL, 3 * 16ull * 4 * 128 * 8192, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "ftl, open-channel or zoned") != NULL);
	snprintf(u, sizeof(u), "%s?interface=zoned&force=1", t.uri);
	CHECK_EQ(ss_dev_format(u, NULL, 3 * 16ull * 4 * 128 * 8192, err, sizeof(err)), 0);
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (d) {
		CHECK_EQ(ss_dev_geometry(d, &g), 0);
		CHECK_EQ(g.iface, SS_DEV_IFACE_ZONED);
		CHECK_EQ(g.groups, 16);
		CHECK_EQ(g.pus, 4);
		CHECK_EQ(g.chunks, 2);
		{
			static uint8_t page[64 * 512];

			CHECK(g.ws_min <= 64);
			CHECK_EQ(ss_dev_zone_append(d, g.zone_sectors, page, 512 * g.ws_min, NULL),
				 0);
		}
		CHECK_EQ(ss_dev_close(d), 0);
	}
	/* a drive whose chunks hold data is not formatted over without force */
	snprintf(u, sizeof(u), "%s?interface=ftl", t.uri);
	CHECK_EQ(ss_dev_format(u, NULL, 3 * 16ull * 4 * 128 * 8192, err, sizeof(err)), -EEXIST);
	CHECK(strstr(err, "zoned drive holds data in 1 chunk") != NULL);
	snprintf(u, sizeof(u), "%s?interface=ftl&force=1", t.uri);
	CHECK_EQ(ss_dev_format(u, NULL, 3 * 16ull * 4 * 128 * 8192, err, sizeof(err)), 0);
	devtest_cleanup(&t);
}

/* Per-sector out-of-band metadata (SS_VECTOR_META): kept in the page's spare with the data,
 * read back with it and after a restart of the drive; a sector written without any reads
 * 0xFF; a vector's metadata goes with its own sectors when the vector spans chunks. */
static void test_oob_metadata(void)
{
	struct devtest t;
	struct ss_dev *d = format_open(&t, SS_DEV_IFACE_OPEN_CHANNEL);
	struct ss_dev_geometry g;
	struct ss_dev_ppa ppa[64];
	static uint8_t data[64 * 512], got[64 * 512];
	uint8_t meta[64 * SS_SECTOR_META], gmeta[64 * SS_SECTOR_META], ff[SPP * SS_SECTOR_META];
	uint32_t a, b;

	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	a = free_chunk(d, &g, 1);
	b = free_chunk(d, &g, 3);
	/* two units to group 1, two to group 3, interleaved */
	for (uint32_t i = 0; i < 4 * SPP; i++)
		ppa[i] = (struct ss_dev_ppa){ .group = i / SPP % 2 ? 3 : 1,
					      .chunk = i / SPP % 2 ? b : a,
					      .sector = i / (2 * SPP) * SPP + i % SPP };
	fill(data, 64, 9);
	for (uint32_t i = 0; i < sizeof(meta); i++)
		meta[i] = (uint8_t)(i * 7 + 1);
	CHECK_EQ(ss_dev_vector_write_meta(d, ppa, 4 * SPP, data, meta), 0);
	memset(gmeta, 0, sizeof(gmeta));
	CHECK_EQ(ss_dev_vector_read_meta(d, ppa, 4 * SPP, got, gmeta), 0);
	CHECK_MEM(got, data, sizeof(data));
	CHECK_MEM(gmeta, meta, sizeof(meta));
	/* one sector alone, in the middle of a page */
	CHECK_EQ(ss_dev_vector_read_meta(d, ppa + 5, 1, got, gmeta), 0);
	CHECK_MEM(gmeta, meta + 5 * SS_SECTOR_META, SS_SECTOR_META);
	/* a unit written without metadata */
	for (uint32_t i = 0; i < SPP; i++)
		ppa[i] = (struct ss_dev_ppa){ .group = 1, .chunk = a, .sector = 2 * SPP + i };
	CHECK_EQ(ss_dev_vector_write(d, ppa, SPP, data), 0);
	CHECK_EQ(ss_dev_vector_read_meta(d, ppa, SPP, got, gmeta), 0);
	memset(ff, 0xFF, sizeof(ff));
	CHECK_MEM(gmeta, ff, sizeof(ff));
	restart(&t, &d);
	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	for (uint32_t i = 0; i < SPP; i++)
		ppa[i] = (struct ss_dev_ppa){ .group = 3, .chunk = b, .sector = SPP + i };
	CHECK_EQ(ss_dev_vector_read_meta(d, ppa, SPP, got, gmeta), 0);
	CHECK_MEM(gmeta, meta + 3 * SPP * SS_SECTOR_META, SPP * SS_SECTOR_META);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

#define QV 16u       /* vectors of the queued-read test */
#define QV_SECTORS 8u /* a 4 KiB block each */

/* The QV vectors of test_queued_vector_read: vector v reads sectors (v / 4) * 8 + [0, 8)
 * of the chunk written on group v % 4, so that vectors in a row go to different groups
 * (channels). */
static void qv_ppas(const uint32_t *chunk, uint32_t v, struct ss_dev_ppa *ppa)
{
	for (uint32_t s = 0; s < QV_SECTORS; s++)
		ppa[s] = (struct ss_dev_ppa){ .group = v % 4, .chunk = chunk[v % 4],
					      .sector = v / 4 * QV_SECTORS + s };
}

/* Modelled host time of the QV vectors read through a queue `depth` deep, each checked
 * against the plain (synchronous) read of the same vector: data and metadata. */
static uint64_t qv_read(struct ss_dev *d, const uint32_t *chunk, uint32_t depth)
{
	static uint8_t got[QV][QV_SECTORS * 512], want[QV_SECTORS * 512];
	uint8_t meta[QV][QV_SECTORS * SS_SECTOR_META], wmeta[QV_SECTORS * SS_SECTOR_META];
	struct ss_dev_ppa ppa[QV_SECTORS];
	struct ss_dev_model m0, m1;
	struct ss_dev_queue *q = NULL;
	uint32_t sent = 0, done = 0;

	CHECK_EQ(ss_dev_model_counters(d, &m0), 0);
	CHECK_EQ(ss_dev_queue_open(d, depth, &q), 0);
	if (!q)
		return 0;
	while (done < QV) {
		if (sent < QV && ss_dev_queue_pending(q) < depth) {
			qv_ppas(chunk, sent, ppa);
			CHECK_EQ(ss_dev_queue_vector_read(q, ppa, QV_SECTORS, got[sent],
							  meta[sent]), 0);
			sent++;
			continue;
		}
		CHECK_EQ(ss_dev_queue_reap(q, NULL), QV_SECTORS * 512);
		done++;
	}
	ss_dev_queue_close(q);
	CHECK_EQ(ss_dev_model_counters(d, &m1), 0);
	for (uint32_t v = 0; v < QV; v++) {
		qv_ppas(chunk, v, ppa);
		CHECK_EQ(ss_dev_vector_read_meta(d, ppa, QV_SECTORS, want, wmeta), 0);
		CHECK_MEM(got[v], want, sizeof(want));
		CHECK_MEM(meta[v], wmeta, sizeof(wmeta));
	}
	return m1.host_now_ns - m0.host_now_ns;
}

/* Vector reads through a submission queue: the data and metadata of the plain read; a
 * broken rule comes back at reap, in its place among the others; and the drive models
 * them as queued commands: 4 in the drive at once on 4 channels take less modelled time
 * than one at a time (and one at a time takes the same twice over). */
static void test_queued_vector_read(void)
{
	struct devtest t;
	struct ss_dev *d = format_open(&t, SS_DEV_IFACE_OPEN_CHANNEL);
	struct ss_dev_geometry g;
	struct ss_dev_ppa ppa[65];
	struct ss_dev_queue *q = NULL;
	static uint8_t data[64 * 512], got[4][QV_SECTORS * 512];
	uint8_t meta[64 * SS_SECTOR_META];
	uint32_t chunk[4];
	uint64_t qd1, qd1_again, qd4;

	if (!d) {
		devtest_cleanup(&t);
		return;
	}
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	for (uint32_t grp = 0; grp < 4; grp++) {
		chunk[grp] = free_chunk(d, &g, grp);
		for (uint32_t i = 0; i < 64; i++)
			ppa[i] = (struct ss_dev_ppa){ .group = grp, .chunk = chunk[grp],
						      .sector = i };
		fill(data, 64, 20 + grp);
		for (uint32_t i = 0; i < sizeof(meta); i++)
			meta[i] = (uint8_t)(i * 3 + grp);
		CHECK_EQ(ss_dev_vector_write_meta(d, ppa, 64, data, meta), 0);
	}
	(void)qv_read(d, chunk, 1);   /* after the programs: every die idle */
	qd1 = qv_read(d, chunk, 1);
	qd4 = qv_read(d, chunk, 4);
	qd1_again = qv_read(d, chunk, 1);
	fprintf(stderr, "queued vector reads: %u of 4 KiB over 4 channels, modelled %llu ns at "
		"depth 1, %llu ns at depth 4\n", QV, (unsigned long long)qd1,
		(unsigned long long)qd4);
	CHECK(qd4 > 0 && qd4 < qd1);
	CHECK_EQ(qd1_again, qd1);

	/* refused before sending: nothing queued */
	CHECK_EQ(ss_dev_queue_open(d, 4, &q), 0);
	if (!q)
		goto out;
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, 0, got[0], NULL), -EINVAL);
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, 65, got[0], NULL), -EINVAL);
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, 8, NULL, NULL), -EINVAL);
	CHECK_EQ(ss_dev_queue_pending(q), 0);
	/* a good read, one past the write pointer, one outside the geometry, a good one */
	qv_ppas(chunk, 1, ppa);
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, QV_SECTORS, got[0], NULL), 0);
	for (uint32_t s = 0; s < QV_SECTORS; s++)
		ppa[s] = (struct ss_dev_ppa){ .group = 0, .chunk = chunk[0], .sector = 60 + s };
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, QV_SECTORS, got[1], NULL), 0);
	for (uint32_t s = 0; s < QV_SECTORS; s++)
		ppa[s] = (struct ss_dev_ppa){ .group = g.groups, .chunk = 0, .sector = s };
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, QV_SECTORS, got[2], NULL), 0);
	qv_ppas(chunk, 2, ppa);
	CHECK_EQ(ss_dev_queue_vector_read(q, ppa, QV_SECTORS, got[3], NULL), 0);
	CHECK_EQ(ss_dev_queue_pending(q), 4);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), QV_SECTORS * 512);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_READ_UNWRITTEN);
	CHECK(strstr(ss_dev_last_message(), "VECTOR_READ") != NULL);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_LBA_RANGE);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), QV_SECTORS * 512);
	ss_dev_queue_close(q);
	/* vector 1 is group 1's sectors 0-7, vector 2 group 2's: as written */
	fill(data, 64, 21);
	CHECK_MEM(got[0], data, QV_SECTORS * 512);
	fill(data, 64, 22);
	CHECK_MEM(got[3], data, QV_SECTORS * 512);
out:
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

int main(int argc, char **argv)
{
	unix_mode = argc > 1 && !strcmp(argv[1], "unix");
	test_ftl_default();
	test_open_channel();
	test_oob_metadata();
	test_queued_vector_read();
	test_zoned();
	test_format_option();
	return ut_report("chunk_ut");
}
