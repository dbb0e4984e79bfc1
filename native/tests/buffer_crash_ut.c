/*
 * The drive's volatile DRAM buffer under SIGKILL of smartssd-devd, for every policy: what
 * a FLUSH or a FUA write acknowledged is on the flash after the restart, every byte of it
 * (0 acknowledged bytes lost), and nothing reads as data that was never written.
 *
 * Each round: objects of OBJ_PAGES pages are rewritten whole with version-stamped pages,
 * some with FUA, with a FLUSH now and then, through a buffer small enough (2 erase blocks)
 * to evict all the time; a second thread kills the daemon once a chosen number of writes
 * has been sent, so the kill lands in the middle of commands. Then a new daemon mounts the
 * image and every page is checked: a version at least the acknowledged one, and one that
 * was written to that object. SS_CRASH_ITERATIONS sets the rounds per policy (default 3).
 *
 * The non-volatile merge cache (nv-wb, nv-sub, nv-sat, with read policies) acknowledges
 * every write as durable [Smullen 2010, §IV]: there every acknowledged write is checked.
 * Its objects are created, written and flushed before the round's writes, which then
 * rewrite them in place, so the object store's metadata (durable at its own flush) is not
 * what is tested.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "devtest.h"
#include "ut.h"

#define OBJS 12
#define OBJ_PAGES 4
#define PAGE 8192
#define OBJ_BYTES (OBJ_PAGES * PAGE)
#define MAX_VERS 512

struct model {
	uint64_t oid[OBJS];
	uint32_t durable[OBJS];      /* version a FLUSH or FUA acknowledged; 0: none */
	uint32_t acked[OBJS];        /* last version whose WRITE was acknowledged */
	uint8_t issued[OBJS][MAX_VERS]; /* versions sent to the object (acknowledged or not) */
};

struct killer {
	struct devtest *t;
	atomic_uint sent;
	unsigned target;
};

static void fill(uint8_t *b, uint32_t obj, uint32_t ver)
{
	for (uint32_t p = 0; p < OBJ_PAGES; p++) {
		for (uint32_t w = 0; w < PAGE / 8; w++) {
			uint64_t v = ((uint64_t)(obj + 1) << 48) | ((uint64_t)p << 32) | ver;

			memcpy(b + (size_t)p * PAGE + w * 8, &v, 8);
		}
	}
}

/* The version the `len` bytes at pg (page p of obj, or one sector of it) hold: 0 for
 * zeros, -1 for anything not written as a whole. */
static long long page_version(const uint8_t *pg, uint32_t obj, uint32_t p, uint32_t len)
{
	uint64_t first;
	static const uint8_t zero[PAGE];

	if (memcmp(pg, zero, len) == 0)
		return 0;
	memcpy(&first, pg, 8);
	if (first >> 48 != obj + 1 || ((first >> 32) & 0xffff) != p)
		return -1;
	for (uint32_t w = 1; w < len / 8; w++)
		if (memcmp(pg + w * 8, &first, 8) != 0)
			return -1;
	return (long long)(first & 0xffffffffu);
}

static void *kill_when_due(void *arg)
{
	struct killer *k = arg;
	long long deadline = ss_devd_spawn_now_ms() + 120000;

	while (atomic_load(&k->sent) < k->target && ss_devd_spawn_now_ms() < deadline)
		usleep(200);
	if (atomic_load(&k->sent) < k->target)
		fprintf(stderr, "killer: %u of %u writes sent after 120 s; killing anyway\n",
			atomic_load(&k->sent), k->target);
	devtest_kill_daemon(k->t, SIGKILL);
	return NULL;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One round's writes until the daemon dies under them. */
static void write_until_killed(struct devtest *t, struct model *m, uint64_t *seed,
			       uint32_t *ver, bool nv)
{
	static uint8_t buf[OBJ_BYTES];
	struct killer k = { .t = t, .target = 20 + (unsigned)(rnd(seed) % 200) };
	struct ss_dev *d = NULL;
	pthread_t th;

	CHECK_EQ(ss_dev_open(t->uri, NULL, &d), 0);
	if (!d)
		return;
	atomic_init(&k.sent, 0);
	for (uint32_t o = 0; nv && o < OBJS; o++) {
		char path[32];
		uint32_t v = ++*ver;

		snprintf(path, sizeof(path), "/o%u", o);
		CHECK_EQ(ss_dev_create(d, path, SS_DEV_FILE, 0, &m->oid[o]), 0);
		fill(buf, o, v);
		m->issued[o][v] = 1;
		CHECK_EQ(ss_dev_write(d, m->oid[o], 0, buf, OBJ_BYTES, 0), OBJ_BYTES);
		m->acked[o] = m->durable[o] = v;
	}
	if (nv)
		CHECK_EQ(ss_dev_flush(d), 0);
	pthread_create(&th, NULL, kill_when_due, &k);
	for (;;) {
		uint32_t o = (uint32_t)(rnd(seed) % OBJS), v = ++*ver;
		unsigned fua = rnd(seed) % 8 == 0 ? SS_DEV_WRITE_FUA : 0;
		char path[32];

		if (v >= MAX_VERS)
			break;
		if (m->oid[o] == 0) {
			snprintf(path, sizeof(path), "/o%u", o);
			if (ss_dev_create(d, path, SS_DEV_FILE, 0, &m->oid[o]) != 0) {
				m->oid[o] = 0;
				break;   /* the daemon is gone */
			}
		}
		fill(buf, o, v);
		m->issued[o][v] = 1;
		atomic_fetch_add(&k.sent, 1);
		if (ss_dev_write(d, m->oid[o], 0, buf, OBJ_BYTES, fua) != OBJ_BYTES)
			break;
		m->acked[o] = v;
		if (fua || nv)
			m->durable[o] = v;
		if (rnd(seed) % 10 == 0) {
			if (ss_dev_flush(d) != 0)
				break;
			for (int i = 0; i < OBJS; i++)
				m->durable[i] = m->acked[i];
		}
	}
	pthread_join(th, NULL);
	(void)ss_dev_close(d);
}

/* A volatile buffer writes whole pages to the FTL, which keeps each page atomic; the merge
 * cache keeps sectors, so a write cut short by the kill may leave a page of old and new
 * sectors: there each sector is checked (ATA promises no more). */
static void verify(struct devtest *t, const struct model *m, const char *policy, int round,
		   bool nv)
{
	uint32_t unit = nv ? 512 : PAGE;

	static uint8_t buf[OBJ_BYTES];
	struct ss_dev *d = NULL;

	CHECK_EQ(devtest_start_daemon(t), 0);
	CHECK_EQ(ss_dev_open(t->uri, NULL, &d), 0);
	if (!d)
		return;
	for (uint32_t o = 0; o < OBJS; o++) {
		struct ss_dev_stat st;
		char path[32];
		int64_t n;

		snprintf(path, sizeof(path), "/o%u", o);
		if (ss_dev_lookup(d, path, &st) != 0) {
			if (m->durable[o] != 0) {
				fprintf(stderr, "%s round %d: %s lost (v%u acknowledged)\n", policy,
					round, path, m->durable[o]);
				ut_failures++;
			}
			continue;
		}
		memset(buf, 0xEE, sizeof(buf));
		n = ss_dev_read(d, st.oid, 0, buf, OBJ_BYTES);
		if (m->durable[o] != 0 && n != OBJ_BYTES) {
			fprintf(stderr, "%s round %d: %s reads %lld bytes (v%u acknowledged)\n",
				policy, round, path, (long long)n, m->durable[o]);
			ut_failures++;
			continue;
		}
		for (uint32_t u = 0; n > 0 && u < (uint32_t)n / unit; u++) {
			uint32_t p = u * unit / PAGE;
			long long v = page_version(buf + (size_t)u * unit, o, p, unit);

			if (v < (long long)m->durable[o] || (v > 0 && !m->issued[o][v])) {
				fprintf(stderr, "%s round %d: %s page %u (byte %u) holds v%lld, "
					"acknowledged v%u\n", policy, round, path, p,
					u * unit % PAGE, v, m->durable[o]);
				ut_failures++;
			}
		}
	}
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_kill_daemon(t, SIGTERM);
}

int main(void)
{
	static const char *const policies[] = { "none", "lru", "fab", "bplru", "lbclock", "hbm",
						"nv-wb", "nv-sub+both", "nv-sat+cache" };
	const char *env = getenv("SS_CRASH_ITERATIONS");
	int rounds = env ? atoi(env) : 3;

	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		struct ss_emu_drive_opts o;
		struct devtest t;
		char err[512] = "";
		uint64_t seed = 0x9E3779B97F4A7C15ull + i;
		uint32_t durable_total = 0;

		/* the devtest drive, with this buffer: two 32-page blocks of 8 KiB (512 KiB) */
		CHECK_EQ(devtest_format(&t, 0), 0);
		memset(&o, 0, sizeof(o));
		o.flash.geo.channels = 4;
		o.flash.geo.ways = 1;
		o.flash.geo.blocks_per_die = 64;
		o.flash.geo.pages_per_block = 32;
		o.flash.geo.page_size = PAGE;
		o.flash.geo.spare_size = 256;
		o.buffer_policy = policies[i];
		o.buffer_bytes = i == 0 ? 0 : 2 * 32 * PAGE;
		CHECK_EQ(ss_emu_format(t.image, &o, NULL, err, sizeof(err)), 0);
		for (int r = 0; r < rounds; r++) {
			struct model m;
			uint32_t ver = 0;

			memset(&m, 0, sizeof(m));
			/* a fresh set of objects per round: remove what the last round left */
			CHECK_EQ(ss_emu_format(t.image, &o, NULL, err, sizeof(err)), 0);
			CHECK_EQ(devtest_start_daemon(&t), 0);
			write_until_killed(&t, &m, &seed, &ver, i >= 6);
			verify(&t, &m, policies[i], r, i >= 6);
			for (int k = 0; k < OBJS; k++)
				durable_total += m.durable[k] != 0;
		}
		/* the rounds did make writes durable before the kills, or nothing was tested */
		CHECK(durable_total > 0);
		fprintf(stderr, "%s: %d rounds, %u objects with acknowledged data checked\n",
			policies[i], rounds, durable_total);
		devtest_cleanup(&t);
	}
	return ut_failures ? 1 : 0;
}
