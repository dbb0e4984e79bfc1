/*
 * The solid-state cache through libsmartssd (ss_dev_cache_*), in-process (argv[1] "emu")
 * or through a smartssd-devd child ("unix"), one operation per CTest (argv[2]), each
 * against the test's own model of what every block may read as. "crash" kills the daemon
 * with SIGKILL at random points of mixed write-dirty, write-clean, evict and clean
 * traffic, restarts it, and checks FlashTier's guarantees: no read returns stale data, no
 * acknowledged dirty block is lost, an acknowledged evict stays evicted, clean blocks may
 * be missing. SS_CACHE_CRASH_ROUNDS sets the rounds (default 50).
 */
#include <pthread.h>
#include <time.h>

#include "devtest.h"
#include "ut.h"

#define BS 8192u
#define SPAN 512u             /* blocks the crash model tracks */
#define NONE (-2)
#define MISS (-1)

static struct devtest t;
static int unix_mode;

static void fill(uint8_t *p, uint64_t block, int version)
{
	uint64_t x = block * 0x9E3779B97F4A7C15ull ^ (uint64_t)(version + 1) * 0xC2B2AE3D27D4EB4Full;

	for (uint32_t i = 0; i < BS; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, 8);
	}
}

static int bit(const uint8_t *map, uint64_t i)
{
	return (map[i / 8] >> (i % 8)) & 1;
}

static struct ss_dev *open_drive(void)
{
	struct ss_dev *d = NULL;
	int rc = ss_dev_open(t.uri, NULL, &d);

	if (rc)
		fprintf(stderr, "open %s: %d %s\n", t.uri, rc, ss_dev_last_message());
	return d;
}

static uint8_t *blocks(uint64_t first, uint64_t n, int version)
{
	uint8_t *b = malloc(n * BS);

	for (uint64_t i = 0; b && i < n; i++)
		fill(b + i * BS, first + i, version);
	return b;
}

/* Blocks [first, first+n) read as version (present) or, with may_miss, are missing. */
static void expect(struct ss_dev *d, uint64_t first, uint64_t n, int version, int may_miss,
		   const char *what)
{
	uint8_t *got = malloc(n * BS), *want = malloc(BS), *map = calloc(1, (n + 7) / 8);
	int64_t hits = ss_dev_cache_read(d, first, n, got, map);
	int64_t seen = 0;

	CHECK(hits >= 0);
	for (uint64_t i = 0; hits >= 0 && i < n; i++) {
		seen += bit(map, i);
		if (!bit(map, i)) {
			memset(want, 0, BS);
			if (version != MISS && !may_miss) {
				fprintf(stderr, "%s: block %llu missing\n", what,
					(unsigned long long)(first + i));
				ut_failures++;
			}
		} else if (version == MISS) {
			fprintf(stderr, "%s: block %llu present\n", what,
				(unsigned long long)(first + i));
			ut_failures++;
			continue;
		} else {
			fill(want, first + i, version);
		}
		CHECK_MEM(got + i * BS, want, BS);
	}
	CHECK_EQ(hits, seen);
	free(got);
	free(want);
	free(map);
}

/* The exists bitmap of [first, first+n) is set exactly on [dirty_from, dirty_to). */
static void expect_dirty(struct ss_dev *d, uint64_t first, uint64_t n, uint64_t dirty_from,
			 uint64_t dirty_to)
{
	uint8_t *map = calloc(1, (n + 7) / 8);
	int64_t c = ss_dev_cache_exists(d, first, n, map);
	uint64_t wrong = 0;

	CHECK_EQ(c, (int64_t)(dirty_to - dirty_from));
	for (uint64_t i = 0; i < n; i++)
		wrong += bit(map, i) != (first + i >= dirty_from && first + i < dirty_to);
	CHECK_EQ(wrong, 0);
	free(map);
}

static void test_info(struct ss_dev *d)
{
	struct ss_dev_cache_info ci;
	struct ss_dev_info di;

	CHECK_EQ(ss_dev_cache_info(d, &ci), 0);
	CHECK_EQ(ss_dev_drive_info(d, &di), 0);
	CHECK_EQ(ci.block_size, di.page_size);
	CHECK_EQ(ci.share_permille, 250);
	CHECK(ci.capacity_blocks > 0);
	CHECK_EQ(ci.policy, 1);   /* SSC-V */
	CHECK_EQ(ci.dirty_blocks, 0);
	CHECK_EQ(ci.read_hits + ci.read_misses, 0);
}

static void test_write_dirty(struct ss_dev *d)
{
	/* more than one 1 MiB command, far above 2^32 */
	uint64_t base = (1ull << 40) + 3, n = 300;
	uint8_t *b = blocks(base, n, 1);
	struct ss_dev_cache_info ci;

	CHECK_EQ(ss_dev_cache_write_dirty(d, base, n, b), 0);
	expect(d, base, n, 1, 0, "write-dirty");
	expect_dirty(d, base - 5, n + 10, base, base + n);
	CHECK_EQ(ss_dev_cache_info(d, &ci), 0);
	CHECK_EQ(ci.dirty_blocks, n);
	CHECK_EQ(ci.host_page_writes, n);
	CHECK(ci.write_amplification_milli >= 1000);
	/* overwritten in place: the new version, never the old */
	free(b);
	b = blocks(base + 10, 5, 2);
	CHECK_EQ(ss_dev_cache_write_dirty(d, base + 10, 5, b), 0);
	expect(d, base + 10, 5, 2, 0, "rewritten");
	CHECK_EQ(ss_dev_cache_write_dirty(d, UINT64_MAX - 1, 2, b), -EINVAL);
	free(b);
}

static void test_write_clean(struct ss_dev *d)
{
	uint64_t base = 5000, n = 64;
	uint8_t *b = blocks(base, n, 3);

	CHECK_EQ(ss_dev_cache_write_clean(d, base, n, b), 0);
	expect(d, base, n, 3, 1, "write-clean");
	expect_dirty(d, base, n, 0, 0);
	free(b);
	/* clean over dirty leaves the dirty data (a fill racing a write must not lose it) */
	b = blocks(base, 4, 4);
	CHECK_EQ(ss_dev_cache_write_dirty(d, base, 4, b), 0);
	free(b);
	b = blocks(base, 4, 5);
	CHECK_EQ(ss_dev_cache_write_clean(d, base, 4, b), 0);
	expect(d, base, 4, 4, 1, "clean over dirty");
	expect_dirty(d, base, 4, base, base + 4);
	free(b);
	/* once cleaned (written back), a clean copy replaces it */
	CHECK_EQ(ss_dev_cache_clean(d, base, 4), 0);
	b = blocks(base, 4, 5);
	CHECK_EQ(ss_dev_cache_write_clean(d, base, 4, b), 0);
	expect(d, base, 4, 5, 1, "clean over cleaned");
	expect_dirty(d, base, 4, 0, 0);
	free(b);
}

static uint64_t ci_block_size(struct ss_dev *d)
{
	struct ss_dev_cache_info ci;

	CHECK_EQ(ss_dev_cache_info(d, &ci), 0);
	return ci.block_size;
}

static void test_read(struct ss_dev *d)
{
	uint64_t base = 1ull << 33;
	uint8_t *b = blocks(base + 100, 10, 6);
	struct ss_dev_cache_info before, after;

	CHECK_EQ(ss_dev_cache_info(d, &before), 0);
	CHECK_EQ(ss_dev_cache_write_dirty(d, base + 100, 10, b), 0);
	/* 300 blocks, three commands, ten present in the middle */
	expect(d, base, 100, MISS, 0, "read before");
	expect(d, base + 100, 10, 6, 0, "read present");
	expect(d, base + 110, 190, MISS, 0, "read after");
	CHECK_EQ(ss_dev_cache_info(d, &after), 0);
	CHECK_EQ(after.read_hits - before.read_hits, 10);
	CHECK_EQ(after.read_misses - before.read_misses, 290);
	free(b);
	/* SMART shows the same counters (vendor attributes 160-164) */
	struct ss_dev_smart h;
	struct ss_dev_smart_attr attrs[32];
	const uint64_t want[5] = { after.read_hits, after.read_misses, after.silent_evicted_pages,
				   after.dirty_blocks, after.write_amplification_milli };
	int n = ss_dev_smart(d, &h, attrs, 32), found = 0;

	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		if (attrs[i].id >= 160 && attrs[i].id <= 164) {
			CHECK_EQ(attrs[i].raw, want[attrs[i].id - 160]);
			found++;
		}
	}
	CHECK_EQ(found, 5);
	/* and the traffic since format (165-171), in cache blocks */
	{
		uint64_t bs = ci_block_size(d);
		const uint64_t traffic[7] = { after.hit_bytes / bs, after.filled_bytes / bs,
					      after.dirty_written_bytes / bs, after.clean_ops,
					      after.cleaned_bytes / bs, after.evicted_blocks,
					      after.retired_blocks };

		CHECK(after.hit_bytes - before.hit_bytes == 10 * bs);
		CHECK(after.dirty_written_bytes - before.dirty_written_bytes == 10 * bs);
		found = 0;
		for (int i = 0; i < n; i++) {
			if (attrs[i].id >= 165 && attrs[i].id <= 171) {
				CHECK_EQ(attrs[i].raw, traffic[attrs[i].id - 165]);
				found++;
			}
		}
		CHECK_EQ(found, 7);
	}
}

static void test_evict(struct ss_dev *d)
{
	uint64_t base = 9000;
	uint8_t *b = blocks(base, 10, 7);

	CHECK_EQ(ss_dev_cache_write_dirty(d, base, 10, b), 0);
	CHECK_EQ(ss_dev_cache_evict(d, base + 3, 4), 0);
	expect(d, base, 3, 7, 0, "kept");
	expect(d, base + 3, 4, MISS, 0, "evicted");
	expect(d, base + 7, 3, 7, 0, "kept");
	expect_dirty(d, base, 3, base, base + 3);
	expect_dirty(d, base + 3, 4, 0, 0);
	expect_dirty(d, base + 7, 3, base + 7, base + 10);
	/* evicting what is not there is not an error */
	CHECK_EQ(ss_dev_cache_evict(d, 1ull << 50, 100), 0);
	CHECK_EQ(ss_dev_cache_evict(d, 0, 0), -EINVAL);
	free(b);
}

static void test_clean(struct ss_dev *d)
{
	uint64_t base = 12000;
	uint8_t *b = blocks(base, 10, 8);

	CHECK_EQ(ss_dev_cache_write_dirty(d, base, 10, b), 0);
	CHECK_EQ(ss_dev_cache_clean(d, base, 5), 0);
	expect_dirty(d, base, 10, base + 5, base + 10);
	expect(d, base, 10, 8, 1, "cleaned");
	free(b);
}

static void test_exists(struct ss_dev *d)
{
	/* longer than one command allows (2^20 blocks) */
	uint64_t base = 777, n = (1u << 20) + 100;
	uint8_t *b = blocks(base + n - 20, 15, 9);
	uint8_t *map = calloc(1, (n + 7) / 8);

	CHECK_EQ(ss_dev_cache_write_dirty(d, base + n - 20, 15, b), 0);
	expect_dirty(d, base, n, base + n - 20, base + n - 5);
	/* a bitmap starting off a byte boundary */
	expect_dirty(d, base + n - 23, 21, base + n - 20, base + n - 5);
	CHECK_EQ(ss_dev_cache_exists(d, base, 0, map), -EINVAL);
	free(b);
	free(map);
}

/* ---- crash rounds over the daemon ---------------------------------------------------- */

struct killer {
	pid_t pid;
	unsigned delay_us;
};

static void *kill_later(void *arg)
{
	struct killer *k = arg;
	struct timespec ts = { k->delay_us / 1000000, (long)(k->delay_us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
	kill(k->pid, SIGKILL);
	return NULL;
}

/* What block i may read as after a crash: `must`, `alt` or `alt2` (NONE: no alternative;
 * the one unacknowledged operation of a round adds at most one); `dirty` 1 must be in
 * exists, 0 must not, -1 either. */
struct blk {
	int must, alt, alt2, dirty;
};

static void allow(struct blk *b, int v)
{
	if (b->must == v || b->alt == v || b->alt2 == v)
		return;
	if (b->alt == NONE)
		b->alt = v;
	else
		b->alt2 = v;
}

static void test_crash(void)
{
	static struct blk m[SPAN];
	static uint8_t live_dirty[SPAN];   /* dirty in the running drive's memory */
	const char *env = getenv("SS_CACHE_CRASH_ROUNDS");
	int rounds = env ? atoi(env) : 50, version = 0;
	unsigned seed = 12345;
	uint8_t *data = malloc(4 * BS), *got = malloc(SPAN * BS), *want = malloc(BS);
	uint8_t map[SPAN / 8], dmap[SPAN / 8];
	long long lost = 0, stale = 0, resurrected = 0, ops = 0, unacked = 0;

	for (uint32_t i = 0; i < SPAN; i++)
		m[i] = (struct blk){ MISS, NONE, NONE, 0 };
	for (int round = 0; round < rounds; round++) {
		struct ss_dev *d;
		struct killer k;
		pthread_t th;
		int rc = 0;

		if (devtest_start_daemon(&t))
			break;
		d = open_drive();
		if (!d)
			break;
		k.pid = t.daemon;
		k.delay_us = 10000 + rand_r(&seed) % 150000;
		pthread_create(&th, NULL, kill_later, &k);
		/* traffic until the daemon is gone (bounded: a kill that misses is a bug) */
		for (int n = 0; rc == 0 && n < 1000000; n++) {
			uint32_t first = rand_r(&seed) % (SPAN - 4), cnt = 1 + rand_r(&seed) % 4;
			int op = rand_r(&seed) % 4, v = ++version;

			if (op <= 1) {
				for (uint32_t i = 0; i < cnt; i++)
					fill(data + i * BS, first + i, v);
				rc = op == 0 ? ss_dev_cache_write_dirty(d, first, cnt, data)
					     : ss_dev_cache_write_clean(d, first, cnt, data);
			} else {
				rc = op == 2 ? ss_dev_cache_evict(d, first, cnt)
					     : ss_dev_cache_clean(d, first, cnt);
			}
			ops++;
			for (uint32_t i = first; i < first + cnt; i++) {
				struct blk *b = &m[i];

				if (op == 1 && live_dirty[i])
					continue;   /* the drive keeps a dirty block's data */
				live_dirty[i] = op == 0 && (!rc || live_dirty[i]);
				if (rc) {
					/* may or may not have happened (or only for some blocks) */
					unacked++;
					if (op == 0) {
						allow(b, v);
						b->dirty = -1;
					} else if (op == 1) {
						allow(b, v);
						allow(b, MISS);
						b->dirty = -1;
					} else if (op == 2) {
						allow(b, MISS);
						b->dirty = b->dirty == 0 ? 0 : -1;
					} else {
						allow(b, MISS);   /* cleaned blocks may be dropped */
						b->dirty = b->dirty == 0 ? 0 : -1;
					}
				} else if (op == 0) {
					*b = (struct blk){ v, NONE, NONE, 1 };
				} else if (op == 1) {
					*b = (struct blk){ v, MISS, NONE, 0 };
				} else if (op == 2) {
					*b = (struct blk){ MISS, NONE, NONE, 0 };
				} else if (b->must != MISS || b->alt >= 0) {
					allow(b, MISS);
					b->dirty = b->dirty == 0 ? 0 : -1;  /* may revert after a crash */
				}
			}
		}
		pthread_join(th, NULL);
		CHECK(rc != 0);
		ss_dev_close(d);
		devtest_kill_daemon(&t, SIGKILL);   /* reaps it */
		if (devtest_start_daemon(&t))
			break;
		d = open_drive();
		if (!d)
			break;
		memset(map, 0, sizeof(map));
		CHECK(ss_dev_cache_read(d, 0, SPAN, got, map) >= 0);
		CHECK(ss_dev_cache_exists(d, 0, SPAN, dmap) >= 0);
		for (uint32_t i = 0; i < SPAN; i++) {
			struct blk *b = &m[i];
			int present = bit(map, i), seen = MISS;

			if (present) {
				int cands[3] = { b->must, b->alt, b->alt2 };

				for (int c = 0; c < 3 && seen == MISS; c++) {
					if (cands[c] < 0)
						continue;
					fill(want, i, cands[c]);
					if (!memcmp(got + (size_t)i * BS, want, BS))
						seen = cands[c];
				}
				if (seen == MISS) {
					int was = 0;

					for (int v = version; v > 0 && !was; v--) {
						fill(want, i, v);
						was = memcmp(got + (size_t)i * BS, want, BS) ? 0 : v;
					}
					stale++;
					fprintf(stderr, "round %d: block %u holds version %d, the model "
						"allows %d / %d / %d\n", round, i, was, b->must, b->alt,
						b->alt2);
					seen = was ? was : MISS;
				}
			} else if (b->must != MISS && b->alt != MISS && b->alt2 != MISS) {
				lost++;
				fprintf(stderr, "round %d: acknowledged block %u (version %d) lost\n",
					round, i, b->must);
			}
			if (bit(dmap, i) && !present) {
				resurrected++;
				fprintf(stderr, "round %d: block %u dirty but not readable\n", round, i);
			}
			if ((b->dirty == 1 && !bit(dmap, i)) || (b->dirty == 0 && bit(dmap, i))) {
				resurrected++;
				fprintf(stderr, "round %d: block %u exists bit %d, model %d\n", round, i,
					bit(dmap, i), b->dirty);
			}
			/* what the drive holds now is what the next round starts from */
			if (!present)
				*b = (struct blk){ MISS, NONE, NONE, 0 };
			else
				*b = (struct blk){ seen, bit(dmap, i) ? NONE : MISS, NONE, bit(dmap, i) };
			live_dirty[i] = present && bit(dmap, i);
		}
		ss_dev_close(d);
		devtest_kill_daemon(&t, SIGTERM);
	}
	printf("cache crash: %d rounds, %lld operations (%lld block outcomes unacknowledged): "
	       "%lld stale, %lld acknowledged dirty lost, %lld exists mismatches\n", rounds, ops,
	       unacked, stale, lost, resurrected);
	CHECK_EQ(stale + lost + resurrected, 0);
	free(data);
	free(got);
	free(want);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	const char *op = argc > 2 ? argv[2] : "all";
	struct ss_dev *d = NULL;
	struct devtest none;

	unix_mode = !strcmp(transport, "unix");
	if (devtest_format_cache(&t, 0, 64, 250))
		return 1;
	if (!strcmp(op, "crash")) {
		test_crash();
		devtest_cleanup(&t);
		return ut_failures ? 1 : 0;
	}
	if (unix_mode && devtest_start_daemon(&t))
		return 1;
	d = open_drive();
	if (!d)
		return 1;
	if (!strcmp(op, "info") || !strcmp(op, "all"))
		test_info(d);
	if (!strcmp(op, "write_dirty") || !strcmp(op, "all"))
		test_write_dirty(d);
	if (!strcmp(op, "write_clean") || !strcmp(op, "all"))
		test_write_clean(d);
	if (!strcmp(op, "read") || !strcmp(op, "all"))
		test_read(d);
	if (!strcmp(op, "evict") || !strcmp(op, "all"))
		test_evict(d);
	if (!strcmp(op, "clean") || !strcmp(op, "all"))
		test_clean(d);
	if (!strcmp(op, "exists") || !strcmp(op, "all"))
		test_exists(d);
	ss_dev_close(d);
	devtest_cleanup(&t);
	/* a drive formatted without a cache says so */
	if (!strcmp(op, "info") || !strcmp(op, "all")) {
		struct ss_dev_cache_info ci;
		uint8_t map[1];

		if (devtest_format_cache(&none, 0, 64, 0))
			return 1;
		t = none;
		if (unix_mode && devtest_start_daemon(&t))
			return 1;
		d = open_drive();
		if (!d)
			return 1;
		CHECK_EQ(ss_dev_cache_info(d, &ci), 0);
		CHECK_EQ(ci.block_size, 0);
		CHECK_EQ(ss_dev_cache_exists(d, 0, 8, map), -ENOSYS);
		CHECK(strstr(ss_dev_last_message(), "no solid-state cache") != NULL);
		ss_dev_close(d);
		devtest_cleanup(&t);
	}
	return ut_failures ? 1 : 0;
}
