/*
 * The device FTL against the host block target (issue #39 §3; Bjørling's claims for
 * LightNVM), on emulated kang-smartssd drives of the same capacity in this process, in
 * virtual time:
 *   - "ftl": a drive formatted --interface ftl (no cache part, no DRAM buffer, so that
 *     every read and write reaches the FTL) holding one object of the block target's user
 *     capacity, written and read 4 KiB at 4 KiB-aligned offsets; opened background=manual,
 *     so that no controller thread ever runs GC in the background: under sustained writes
 *     the FTL collects in the write path, on the host's timeline, where reads meet it;
 *   - "open-channel": the host block target (smartssd/blk.h) on a drive formatted
 *     --interface open-channel, its GC in the host, between the same writes.
 * Each is prefilled completely (every block version 1), then:
 *   latency  random 4 KiB writes, `factor` times the capacity (GC throughout), each
 *            followed by one random 4 KiB read (1:1); per read and per write the modelled
 *            latency (host clock after - before); then the same number of reads with no
 *            writes (the baseline). Every read is checked against the last version written.
 *   waits    what each read waited for beyond its time on an idle drive: its die (a
 *            program an earlier command left running) or its channel (wait_row).
 *   qd       random 4 KiB reads at queue depth 1-32 (ftl: ss_dev_read_ranges; target:
 *            ss_blk_read_many), each depth twice: modelled IOPS, and the link, channel and
 *            die busy shares that say what bounds it.
 *   cost     host memory of the map, host CPU per I/O (getrusage over the phase: the
 *            emulated drive runs in this process too, so an upper bound).
 *   zoned    a log of `log` MiB written with zone append on a --interface zoned drive,
 *            against the same log written sequentially through the block target.
 * Determinism: the baseline and every depth run twice and must agree; the ftl and target
 * runs are then repeated on fresh drives up to a quarter of the mixed phase, whose
 * prefill time and per-I/O latencies must equal the first run's; each zoned log is written
 * twice. Any difference: exit 2.
 * CSV on stdout, every row led by its table's name, the four header rows first
 * (benchmarks/run-ocssd.sh splits them into a file each).
 *   usage: ocssd_vs_ftl DIR [capacity MiB, 1024] [writes per LBA in %, 100]
 *                       [reads per depth, 8192] [log MiB, 256 or half the target's]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "smartssd/blk.h"
#include "smartssd/smartssd.h"

#define DIE(...)                                                                           \
	do {                                                                               \
		fprintf(stderr, "ocssd_vs_ftl: " __VA_ARGS__);                             \
		fprintf(stderr, ": %s\n", ss_dev_last_message());                          \
		exit(1);                                                                   \
	} while (0)

#define BLK SS_BLK_BLOCK
#define FILL_BLOCKS 256u      /* prefill: 1 MiB a call */

static const uint32_t depths[] = { 1, 2, 4, 8, 16, 32 };
#define NDEPTHS (sizeof(depths) / sizeof(depths[0]))

struct side {
	const char *name;
	char uri[4200];
	struct ss_dev *d;
	struct ss_blk *b;     /* open-channel */
	int ftl;
	uint64_t oid;         /* ftl */
	uint64_t blocks;
	uint32_t *ver;        /* the last version written to each block */
	uint64_t host_map_bytes;
};

/* A phase's figures: modelled, then host. */
struct phase {
	uint64_t modelled_ns, page_reads, page_programs, block_erases;
	uint64_t link_busy_ns, channel_busy_ns, die_busy_ns;
	uint64_t gc_moves, gc_erases;   /* the FTL's or the target's own count */
	double cpu_s;
};

struct snap {
	struct ss_dev_model m;
	uint64_t gc_moves, gc_erases;
	double cpu_s;
};

static uint32_t g_channels, g_dies;

static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec +
	       u.ru_stime.tv_usec / 1e6;
}

static struct ss_dev_model model(struct side *s)
{
	struct ss_dev_model m;

	if (ss_dev_model_counters(s->d, &m))
		DIE("%s: model counters", s->name);
	return m;
}

static uint64_t host_ns(struct side *s)
{
	return model(s).host_now_ns;
}

/* GC's work so far: the FTL's from COUNTERS (a drive command: taken only between
 * phases), the target's from its stats. */
static void snap(struct side *s, struct snap *o)
{
	if (ss_dev_model_counters(s->d, &o->m))
		DIE("%s: model counters", s->name);
	if (s->b) {
		struct ss_blk_stats st;

		if (ss_blk_stats(s->b, &st))
			DIE("target stats");
		o->gc_moves = st.gc_blocks_moved;
		o->gc_erases = st.gc_lines_erased;
	} else if (s->ftl) {
		struct ss_dev_counters c;

		if (ss_dev_counters(s->d, &c))
			DIE("ftl counters");
		o->gc_moves = c.gc_page_moves;
		o->gc_erases = c.block_erases;
	} else {
		o->gc_moves = o->gc_erases = 0;   /* a zoned drive: the host's log has no GC */
	}
	o->cpu_s = cpu_s();
}

static struct phase since(struct side *s, const struct snap *a)
{
	struct snap b;

	snap(s, &b);
	return (struct phase){
		.modelled_ns = b.m.host_now_ns - a->m.host_now_ns,
		.page_reads = b.m.page_reads - a->m.page_reads,
		.page_programs = b.m.page_programs - a->m.page_programs,
		.block_erases = b.m.block_erases - a->m.block_erases,
		.link_busy_ns = b.m.link_busy_ns - a->m.link_busy_ns,
		.channel_busy_ns = b.m.channel_busy_ns - a->m.channel_busy_ns,
		.die_busy_ns = b.m.die_busy_ns - a->m.die_busy_ns,
		.gc_moves = b.gc_moves - a->gc_moves,
		.gc_erases = b.gc_erases - a->gc_erases,
		.cpu_s = b.cpu_s - a->cpu_s,
	};
}

static void fill(uint8_t *p, uint64_t lba, uint32_t ver)
{
	uint64_t w = lba << 32 | ver;

	for (uint32_t i = 0; i < BLK; i += 8)
		memcpy(p + i, &w, 8);
}

static void check(const struct side *s, const uint8_t *p, uint64_t lba, const char *what)
{
	uint64_t w, want = s->ver[lba] ? (lba << 32 | s->ver[lba]) : 0;

	for (uint32_t i = 0; i < BLK; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != want) {
			fprintf(stderr, "ocssd_vs_ftl: %s %s: block %llu reads %llx at byte %u, "
				"wrote version %u\n", s->name, what, (unsigned long long)lba,
				(unsigned long long)w, i, s->ver[lba]);
			exit(1);
		}
	}
}

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

/* n random blocks, never the one after the previous one's flash page (a page holds two):
 * the FTL drive's sequential read-ahead stays out of a random workload. */
static void random_blocks(uint64_t *out, uint64_t n, uint64_t blocks, uint64_t seed)
{
	for (uint64_t i = 0; i < n; i++) {
		do {
			out[i] = lcg(&seed) % blocks;
		} while (i && out[i] / 2 == out[i - 1] / 2 + 1);
	}
}

/* ---- the two sides -------------------------------------------------------------------- */

static void side_write(struct side *s, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	if (s->b) {
		if (ss_blk_write(s->b, lba, n, buf, 0))
			DIE("target write %llu+%u", (unsigned long long)lba, n);
	} else if (ss_dev_write(s->d, s->oid, lba * BLK, buf, (size_t)n * BLK, 0) !=
		   (int64_t)n * BLK) {
		DIE("ftl write %llu+%u", (unsigned long long)lba, n);
	}
}

static void side_read(struct side *s, uint64_t lba, uint8_t *buf)
{
	if (s->b) {
		if (ss_blk_read(s->b, lba, 1, buf))
			DIE("target read %llu", (unsigned long long)lba);
	} else if (ss_dev_read(s->d, s->oid, lba * BLK, buf, BLK) != BLK) {
		DIE("ftl read %llu", (unsigned long long)lba);
	}
}

/* n blocks, `depth` reads in the drive at once. */
static void side_read_many(struct side *s, const uint64_t *lbas, uint32_t n, uint8_t *out,
			   uint32_t depth, uint64_t *off, uint32_t *lens, uint32_t *counts)
{
	if (s->b) {
		if (ss_blk_read_many(s->b, lbas, n, out, depth))
			DIE("target reads at depth %u", depth);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		off[i] = lbas[i] * BLK;
		lens[i] = BLK;
	}
	if (ss_dev_read_ranges(s->d, s->oid, n, off, lens, out, depth, counts) != (int64_t)n * BLK)
		DIE("ftl reads at depth %u", depth);
}

static void side_open(struct side *s, const char *dir, const char *name, uint64_t cap_mib,
		      uint64_t blocks)
{
	char uri[4300], err[512];
	int ftl = !strcmp(name, "ftl");

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->ftl = ftl;
	snprintf(uri, sizeof(uri), "emu:%s/%s.img?interface=%s&force=1%s", dir, name, name,
		 ftl ? "&cache_share=0" : "");
	if (ss_dev_format(uri, "kang-smartssd", cap_mib << 20, err, sizeof(err)))
		DIE("format %s (%s)", uri, err);
	snprintf(s->uri, sizeof(s->uri), "emu:%s/%s.img?background=manual%s", dir, name,
		 ftl ? "&buffer=none" : "");
	if (ss_dev_open(s->uri, NULL, &s->d))
		DIE("open %s", s->uri);
	if (ftl) {
		if (ss_dev_create(s->d, "/blocks", SS_DEV_FILE, 0, &s->oid))
			DIE("create the ftl's object");
		s->blocks = blocks;
	} else {
		struct ss_blk_info info;

		if (ss_blk_open(s->d, NULL, &s->b) || ss_blk_info(s->b, &info))
			DIE("open the block target");
		s->blocks = info.blocks;
		s->host_map_bytes = info.map_bytes;
	}
	s->ver = calloc(s->blocks, sizeof(*s->ver));
	if (!s->ver)
		DIE("versions");
}

static void side_close(struct side *s)
{
	if (s->b && ss_blk_close(s->b))
		DIE("close the target");
	if (ss_dev_close(s->d))
		DIE("close %s", s->name);
	free(s->ver);
	s->b = NULL;
	s->d = NULL;
}

/* Every block, version 1, 1 MiB a call; then flushed. */
static struct phase prefill(struct side *s)
{
	static uint8_t buf[FILL_BLOCKS * BLK];
	struct snap a;

	snap(s, &a);
	for (uint64_t lba = 0; lba < s->blocks; lba += FILL_BLOCKS) {
		uint32_t n = s->blocks - lba < FILL_BLOCKS ? (uint32_t)(s->blocks - lba)
							   : FILL_BLOCKS;

		for (uint32_t i = 0; i < n; i++) {
			s->ver[lba + i] = 1;
			fill(buf + (size_t)i * BLK, lba + i, 1);
		}
		side_write(s, lba, n, buf);
	}
	if (s->b ? ss_blk_flush(s->b) : ss_dev_flush(s->d))
		DIE("%s: flush after the prefill", s->name);
	return since(s, &a);
}

/* ---- latency ------------------------------------------------------------------------------ */

struct mixed {
	uint64_t n;
	uint64_t *rlat, *wlat;   /* per read, per write: modelled ns */
	uint64_t *rdie;          /* per read: the die time it added (its array and channel
				  * work, waits for the channel included, not those for the die) */
	struct phase ph;
};

/* n writes of random blocks, each followed by a read of a random block. */
static void mixed(struct side *s, uint64_t n, const uint64_t *wl, const uint64_t *rl,
		  struct mixed *o)
{
	static uint8_t buf[BLK];
	struct snap a;

	o->n = n;
	snap(s, &a);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = host_ns(s);
		struct ss_dev_model m1, m2;

		fill(buf, wl[i], ++s->ver[wl[i]]);
		side_write(s, wl[i], 1, buf);
		m1 = model(s);
		side_read(s, rl[i], buf);
		m2 = model(s);
		check(s, buf, rl[i], "mixed read");
		o->wlat[i] = m1.host_now_ns - t0;
		o->rlat[i] = m2.host_now_ns - m1.host_now_ns;
		o->rdie[i] = m2.die_busy_ns - m1.die_busy_ns;
	}
	o->ph = since(s, &a);
}

/* n reads, nothing else: their latencies and die times as in mixed(). */
static struct phase reads_alone(struct side *s, uint64_t n, const uint64_t *rl, uint64_t *lat,
				uint64_t *die)
{
	static uint8_t buf[BLK];
	struct snap a;

	snap(s, &a);
	for (uint64_t i = 0; i < n; i++) {
		struct ss_dev_model m1 = model(s), m2;

		side_read(s, rl[i], buf);
		m2 = model(s);
		lat[i] = m2.host_now_ns - m1.host_now_ns;
		die[i] = m2.die_busy_ns - m1.die_busy_ns;
		check(s, buf, rl[i], "read");
	}
	return since(s, &a);
}

/*
 * What the reads of a phase waited for, beyond a read's own time on an idle drive
 * (floor_ns, of which floor_die_ns on its die and channel). At queue depth 1 a read's
 * command runs alone: the die time it adds over floor_die_ns is time it waited for its
 * channel (moving another die's page), and the rest of its wait is time it waited for its
 * die, busy with a program (or erase) an earlier command left running (write-behind).
 */
static void wait_row(const char *side, const char *phase, const uint64_t *lat,
		     const uint64_t *die, uint64_t n, uint64_t floor_ns, uint64_t floor_die_ns)
{
	uint64_t die_n = 0, chan_n = 0, die_ns = 0, chan_ns = 0, die_max = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t chan = die[i] > floor_die_ns ? die[i] - floor_die_ns : 0;
		uint64_t over = lat[i] > floor_ns ? lat[i] - floor_ns : 0;
		uint64_t dw = over > chan ? over - chan : 0;

		if (lat[i] == 0)
			continue;   /* from the target's write buffer: no drive at all */
		chan_n += chan > 1000;
		chan_ns += chan > 1000 ? chan : 0;
		die_n += dw > 1000;
		die_ns += dw > 1000 ? dw : 0;
		die_max = dw > die_max ? dw : die_max;
	}
	printf("waits,%s,%s,%llu,%llu,%.2f,%.1f,%.1f,%llu,%.2f,%.1f\n", side, phase,
	       (unsigned long long)n, (unsigned long long)die_n, 100.0 * die_n / n,
	       die_n ? die_ns / 1e3 / die_n : 0.0, die_max / 1e3, (unsigned long long)chan_n,
	       100.0 * chan_n / n, chan_n ? chan_ns / 1e3 / chan_n : 0.0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* p50, p99, p99.9, max, mean of lat (sorted in place), in µs; the share of those more
 * than 1 µs over `floor_ns` (a read's own time on an idle drive; UINT64_MAX: the fastest
 * of lat). */
static void lat_row(const char *side, const char *phase, uint64_t *lat, uint64_t n,
		    uint64_t floor_ns, const struct phase *ph, uint64_t user_writes,
		    uint32_t page_size)
{
	double sum = 0;
	uint64_t over = 0;

	qsort(lat, n, sizeof(*lat), cmp_u64);
	if (floor_ns == UINT64_MAX)
		floor_ns = lat[0];
	for (uint64_t i = 0; i < n; i++) {
		sum += lat[i];
		over += lat[i] > floor_ns + 1000;
	}
	printf("latency,%s,%s,%llu,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%llu,%llu,%llu,%.3f,%llu,%llu,"
	       "%.2f\n", side, phase, (unsigned long long)n, lat[n / 2] / 1e3,
	       lat[n * 99 / 100] / 1e3, lat[n * 999 / 1000] / 1e3, lat[n - 1] / 1e3, sum / n / 1e3,
	       100.0 * over / n, (unsigned long long)user_writes,
	       (unsigned long long)ph->page_reads, (unsigned long long)ph->page_programs,
	       user_writes ? (double)ph->page_programs * page_size / ((double)user_writes * BLK)
			   : 0.0,
	       (unsigned long long)ph->gc_moves, (unsigned long long)ph->gc_erases,
	       ph->cpu_s * 1e6 / (n + user_writes));
}

/* ---- queue depth ------------------------------------------------------------------------- */

static struct phase qd_once(struct side *s, const uint64_t *lbas, uint32_t n, uint8_t *out,
			    uint32_t depth, uint64_t *off, uint32_t *lens, uint32_t *counts)
{
	struct snap a;

	memset(out, 0xA5, (size_t)n * BLK);
	snap(s, &a);
	side_read_many(s, lbas, n, out, depth, off, lens, counts);
	struct phase ph = since(s, &a);

	for (uint32_t i = 0; i < n; i++)
		check(s, out + (size_t)i * BLK, lbas[i], "queued read");
	return ph;
}

static void qd_rows(struct side *s, const uint64_t *lbas, uint32_t n, uint64_t *modelled)
{
	uint8_t *out = malloc((size_t)n * BLK);
	uint64_t *off = malloc(n * sizeof(*off));
	uint32_t *lens = malloc(n * sizeof(*lens)), *counts = malloc(n * sizeof(*counts));
	uint64_t base = 0;

	if (!out || !off || !lens || !counts)
		DIE("buffers");
	for (size_t k = 0; k < NDEPTHS; k++) {
		struct phase a = qd_once(s, lbas, n, out, depths[k], off, lens, counts);
		struct phase b = qd_once(s, lbas, n, out, depths[k], off, lens, counts);
		double t = a.modelled_ns;

		if (a.modelled_ns != b.modelled_ns) {
			fprintf(stderr, "ocssd_vs_ftl: %s reads at depth %u: modelled %llu ns, "
				"then %llu ns\n", s->name, depths[k],
				(unsigned long long)a.modelled_ns,
				(unsigned long long)b.modelled_ns);
			exit(2);
		}
		if (k == 0)
			base = a.modelled_ns;
		modelled[k] = a.modelled_ns;
		printf("qd,%s,%u,%u,%llu,%.0f,%.1f,%.2f,%.1f,%.1f,%.1f,%llu,%.2f\n", s->name,
		       depths[k], n, (unsigned long long)a.modelled_ns, n / (t / 1e9),
		       (double)n * BLK / (t / 1e9) / 1e6, base / t, 100.0 * a.link_busy_ns / t,
		       100.0 * a.channel_busy_ns / g_channels / t,
		       100.0 * a.die_busy_ns / g_dies / t,
		       (unsigned long long)a.page_reads, a.cpu_s * 1e6 / n);
	}
	free(out);
	free(off);
	free(lens);
	free(counts);
}

/* ---- one side, whole ---------------------------------------------------------------------- */

struct side_result {
	uint64_t prefill_ns;
	struct mixed mx;
	uint64_t prefix_hash;    /* over the latencies of the mixed phase's first `prefix`
				  * writes and reads, in order */
};

static uint64_t hash_lat(const struct mixed *m, uint64_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (uint64_t i = 0; i < n; i++) {
		h = (h ^ m->rlat[i]) * 1099511628211ull;
		h = (h ^ m->wlat[i]) * 1099511628211ull;
	}
	return h;
}

struct workload {
	const char *dir;
	uint64_t cap_mib, blocks, writes, qd_reads;
	uint64_t *wl, *rl, *ql;
	uint32_t page_size;
};

/* Prefill and the mixed phase, its first `n` writes; the whole run (baseline, depths,
 * rows) when `full`. */
static void run_side(const struct workload *w, const char *name, uint64_t n, uint64_t prefix,
		     int full, struct side_result *r)
{
	struct side s;
	struct phase pf;

	side_open(&s, w->dir, name, w->cap_mib, w->blocks);
	if (s.blocks != w->blocks)
		DIE("%s holds %llu blocks, not %llu", name, (unsigned long long)s.blocks,
		    (unsigned long long)w->blocks);
	pf = prefill(&s);
	r->prefill_ns = pf.modelled_ns;
	r->mx.rlat = malloc(n * sizeof(uint64_t));
	r->mx.wlat = malloc(n * sizeof(uint64_t));
	r->mx.rdie = malloc(n * sizeof(uint64_t));
	if (!r->mx.rlat || !r->mx.wlat || !r->mx.rdie)
		DIE("latencies");
	mixed(&s, n, w->wl, w->rl, &r->mx);
	r->prefix_hash = hash_lat(&r->mx, prefix);
	if (full) {
		uint64_t *base = malloc(n * sizeof(uint64_t));
		uint64_t *again = malloc(n * sizeof(uint64_t));
		uint64_t *bdie = malloc(n * sizeof(uint64_t)), *adie = malloc(n * sizeof(uint64_t));
		uint64_t qd_ns[NDEPTHS], floor_ns, floor_die;
		struct phase b1, b2;

		if (!base || !again || !bdie || !adie)
			DIE("latencies");
		b1 = reads_alone(&s, n, w->rl, base, bdie);
		b2 = reads_alone(&s, n, w->rl, again, adie);
		if (b1.modelled_ns != b2.modelled_ns || memcmp(base, again, n * sizeof(*base)) ||
		    memcmp(bdie, adie, n * sizeof(*bdie))) {
			fprintf(stderr, "ocssd_vs_ftl: %s baseline reads: modelled %llu ns, then "
				"%llu ns\n", name, (unsigned long long)b1.modelled_ns,
				(unsigned long long)b2.modelled_ns);
			exit(2);
		}
		/* a read's own time on an idle drive: the baseline's median (its fastest are
		 * the target's reads from its write buffer, which reach no drive) */
		qsort(again, n, sizeof(*again), cmp_u64);
		floor_ns = again[n / 2];
		qsort(adie, n, sizeof(*adie), cmp_u64);
		floor_die = adie[n / 2];
		wait_row(name, "mixed-read", r->mx.rlat, r->mx.rdie, n, floor_ns, floor_die);
		wait_row(name, "read-alone", base, bdie, n, floor_ns, floor_die);
		lat_row(name, "mixed-read", r->mx.rlat, n, floor_ns, &r->mx.ph, n, w->page_size);
		lat_row(name, "mixed-write", r->mx.wlat, n, UINT64_MAX, &r->mx.ph, n, w->page_size);
		lat_row(name, "read-alone", base, n, floor_ns, &b1, 0, w->page_size);
		qd_rows(&s, w->ql, (uint32_t)w->qd_reads, qd_ns);
		printf("cost,%s,%llu,%llu,%.2f,%.2f,%.2f,%.2f\n", name,
		       (unsigned long long)s.blocks, (unsigned long long)s.host_map_bytes,
		       (double)s.host_map_bytes / s.blocks, pf.cpu_s * 1e6 / s.blocks * FILL_BLOCKS,
		       r->mx.ph.cpu_s * 1e6 / (2 * n), b1.cpu_s * 1e6 / n);
		fprintf(stderr, "%s: prefill %.3f s modelled; mixed phase: %llu page reads, %llu "
			"programs, %llu erases, GC %llu moves %llu erases\n", name,
			pf.modelled_ns / 1e9, (unsigned long long)r->mx.ph.page_reads,
			(unsigned long long)r->mx.ph.page_programs,
			(unsigned long long)r->mx.ph.block_erases,
			(unsigned long long)r->mx.ph.gc_moves,
			(unsigned long long)r->mx.ph.gc_erases);
		free(base);
		free(again);
		free(bdie);
		free(adie);
	}
	side_close(&s);
}

/* ---- the zoned view ---------------------------------------------------------------------- */

struct log_result {
	uint64_t modelled_ns, page_programs, host_bytes, link_busy_ns, die_busy_ns;
	double cpu_s;
};

/* A log of `bytes` appended `unit` bytes at a time to `zones` open zones in turn (one zone
 * per PU, on different dies; each filled before the next zone of its PU). */
static struct log_result zoned_log(const struct workload *w, uint64_t bytes, uint32_t unit,
				   uint32_t zones)
{
	char uri[4300], err[512];
	struct ss_dev_geometry g;
	struct ss_dev *d;
	struct snap a;
	struct side s = { .name = "zoned" };
	struct log_result r;
	uint8_t *buf = malloc(unit);
	uint64_t *wp, *slba, done = 0;
	uint32_t npu, k = 0, *next, *pu_of;

	snprintf(uri, sizeof(uri), "emu:%s/zoned.img?interface=zoned&force=1", w->dir);
	if (!buf || ss_dev_format(uri, "kang-smartssd", w->cap_mib << 20, err, sizeof(err)))
		DIE("format %s (%s)", uri, err);
	snprintf(uri, sizeof(uri), "emu:%s/zoned.img?background=manual", w->dir);
	if (ss_dev_open(uri, NULL, &d) || ss_dev_geometry(d, &g))
		DIE("open %s", uri);
	s.d = d;
	npu = g.groups * g.pus;
	if (zones > npu)
		zones = npu;
	wp = calloc(zones, sizeof(*wp));
	slba = calloc(zones, sizeof(*slba));
	next = calloc(zones, sizeof(*next));
	pu_of = calloc(npu, sizeof(*pu_of));
	if (!wp || !slba || !next || !pu_of)
		DIE("zones");
	/* the PUs spread over the channels first; stream j takes the zones of PUs j, j + zones,
	 * ... of that order, each PU's in turn: with one stream, every zone of the drive in
	 * index order, a plain log; with one per PU, each stream on a die of its own */
	for (uint32_t j = 0; j < npu; j++)
		pu_of[j] = j % g.groups * g.pus + j / g.groups % g.pus;
	for (uint32_t j = 0; j < zones; j++)
		slba[j] = (uint64_t)pu_of[j] * g.chunks * g.zone_sectors;
	memset(buf, 0x5A, unit);
	snap(&s, &a);
	while (done < bytes) {
		uint64_t lba;

		if (wp[k] + unit / 512 > g.chunk_sectors) {
			/* full: the stream's next zone, on its next PU after the last chunk */
			uint32_t z = ++next[k], p = k + z / g.chunks * zones;

			if (p >= npu)
				DIE("the log does not fit");
			slba[k] = ((uint64_t)pu_of[p] * g.chunks + z % g.chunks) * g.zone_sectors;
			wp[k] = 0;
		}
		if (ss_dev_zone_append(d, slba[k], buf, unit, &lba))
			DIE("zone append of %u bytes to zone %llu", unit,
			    (unsigned long long)slba[k]);
		if (lba != slba[k] + wp[k])
			DIE("zone append to %llu went to LBA %llu, not %llu",
			    (unsigned long long)slba[k], (unsigned long long)lba,
			    (unsigned long long)(slba[k] + wp[k]));
		wp[k] += unit / 512;
		done += unit;
		k = (k + 1) % zones;
	}
	if (ss_dev_flush(d))
		DIE("flush the zoned drive");
	{
		struct ss_dev_model m;

		if (ss_dev_model_counters(d, &m))
			DIE("model");
		r.modelled_ns = m.host_now_ns - a.m.host_now_ns;
		r.page_programs = m.page_programs - a.m.page_programs;
		r.link_busy_ns = m.link_busy_ns - a.m.link_busy_ns;
		r.die_busy_ns = m.die_busy_ns - a.m.die_busy_ns;
	}
	r.cpu_s = cpu_s() - a.cpu_s;
	/* the host keeps each open zone's start and write pointer; the drive knows the rest */
	r.host_bytes = (uint64_t)zones * 2 * sizeof(uint64_t);
	if (ss_dev_close(d))
		DIE("close the zoned drive");
	free(wp);
	free(slba);
	free(next);
	free(pu_of);
	free(buf);
	return r;
}

/* The same log through the block target: LBAs 0.. in order, `unit` bytes a write. */
static struct log_result target_log(const struct workload *w, uint64_t bytes, uint32_t unit)
{
	struct side s;
	struct snap a;
	struct log_result r;
	uint8_t *buf = calloc(1, unit);
	uint32_t n = unit / BLK;

	side_open(&s, w->dir, "open-channel", w->cap_mib, w->blocks);
	if (!buf || bytes / BLK > s.blocks)
		DIE("a log of %llu bytes on %llu blocks", (unsigned long long)bytes,
		    (unsigned long long)s.blocks);
	memset(buf, 0x5A, unit);
	snap(&s, &a);
	for (uint64_t lba = 0; lba < bytes / BLK; lba += n)
		side_write(&s, lba, n, buf);
	if (ss_blk_flush(s.b))
		DIE("flush the target");
	{
		struct phase ph = since(&s, &a);

		r.modelled_ns = ph.modelled_ns;
		r.page_programs = ph.page_programs;
		r.link_busy_ns = ph.link_busy_ns;
		r.die_busy_ns = ph.die_busy_ns;
		r.cpu_s = ph.cpu_s;
	}
	r.host_bytes = s.host_map_bytes;
	side_close(&s);
	free(buf);
	return r;
}

static void log_row(const char *view, uint32_t unit, uint32_t zones, uint64_t bytes,
		    const struct log_result *a, const struct log_result *b, uint32_t page_size)
{
	if (a->modelled_ns != b->modelled_ns || a->page_programs != b->page_programs) {
		fprintf(stderr, "ocssd_vs_ftl: %s log of %u-byte writes: modelled %llu ns, then "
			"%llu ns\n", view, unit, (unsigned long long)a->modelled_ns,
			(unsigned long long)b->modelled_ns);
		exit(2);
	}
	printf("zoned,%s,%u,%u,%llu,%.3f,%.1f,%.1f,%.2f,%llu,%.3f,%llu,%.2f\n", view, unit,
	       zones, (unsigned long long)(bytes >> 20), a->modelled_ns / 1e6,
	       bytes / (a->modelled_ns / 1e9) / 1e6, 100.0 * a->link_busy_ns / a->modelled_ns,
	       (double)a->die_busy_ns / a->modelled_ns, (unsigned long long)a->page_programs,
	       (double)a->page_programs * page_size / bytes, (unsigned long long)a->host_bytes,
	       a->cpu_s * 1e6 / (bytes / unit));
}

/* A 4 KiB append is less than the minimum write unit of a drive with 8 KiB pages. */
static void zoned_refuses_4k(const struct workload *w)
{
	char uri[4300], err[512];
	static uint8_t buf[BLK];
	struct ss_dev_geometry g;
	struct ss_dev *d;
	uint64_t lba;
	int rc;

	snprintf(uri, sizeof(uri), "emu:%s/zoned.img?interface=zoned&force=1", w->dir);
	if (ss_dev_format(uri, "kang-smartssd", w->cap_mib << 20, err, sizeof(err)))
		DIE("format %s (%s)", uri, err);
	snprintf(uri, sizeof(uri), "emu:%s/zoned.img", w->dir);
	if (ss_dev_open(uri, NULL, &d) || ss_dev_geometry(d, &g))
		DIE("open %s", uri);
	rc = ss_dev_zone_append(d, 0, buf, BLK, &lba);
	fprintf(stderr, "zoned: a 4 KiB append (ws_min %u sectors): %s\n", g.ws_min,
		rc ? ss_dev_last_message() : "accepted");
	if (ss_dev_close(d))
		DIE("close");
}

int main(int argc, char **argv)
{
	struct workload w = { 0 };
	struct side_result r1, r2;
	uint64_t pct, log_mib, prefix;
	const char *sides[] = { "ftl", "open-channel" };

	if (argc < 2) {
		fprintf(stderr, "usage: ocssd_vs_ftl DIR [capacity MiB] [writes per LBA in %%] "
			"[reads per depth] [log MiB]\n");
		return 2;
	}
	w.dir = argv[1];
	w.cap_mib = argc > 2 ? strtoull(argv[2], NULL, 0) : 1024;
	pct = argc > 3 ? strtoull(argv[3], NULL, 0) : 100;
	w.qd_reads = argc > 4 ? strtoull(argv[4], NULL, 0) : 8192;
	log_mib = argc > 5 ? strtoull(argv[5], NULL, 0) : 0;
	if (w.cap_mib < 64 || pct == 0 || w.qd_reads == 0 || w.qd_reads > UINT32_MAX) {
		fprintf(stderr, "ocssd_vs_ftl: capacity of 64 MiB or more, and counts above 0\n");
		return 2;
	}
	{
		/* the target's capacity decides the FTL object's */
		struct side s;
		struct ss_dev_info info;

		side_open(&s, w.dir, "open-channel", w.cap_mib, 0);
		if (ss_dev_drive_info(s.d, &info))
			DIE("drive info");
		w.blocks = s.blocks;
		w.page_size = info.page_size;
		g_channels = info.channels;
		g_dies = info.channels * info.ways;
		side_close(&s);
	}
	w.writes = w.blocks * pct / 100;
	if (log_mib == 0)   /* 256 MiB, or less on a drive under 1 GiB */
		log_mib = (w.blocks * BLK >> 20) / 2 < 256 ? (w.blocks * BLK >> 20) / 2 : 256;
	w.wl = malloc(w.writes * sizeof(uint64_t));
	w.rl = malloc(w.writes * sizeof(uint64_t));
	w.ql = malloc(w.qd_reads * sizeof(uint64_t));
	if (!w.wl || !w.rl || !w.ql)
		DIE("workload");
	for (uint64_t i = 0, x = 99; i < w.writes; i++)
		w.wl[i] = lcg(&x) % w.blocks;
	random_blocks(w.rl, w.writes, w.blocks, 7);
	random_blocks(w.ql, w.qd_reads, w.blocks, 13);
	fprintf(stderr, "%llu blocks of 4 KiB (%llu MiB) on %llu MiB drives of %u dies; %llu "
		"writes and %llu reads in the mixed phase\n", (unsigned long long)w.blocks,
		(unsigned long long)(w.blocks * BLK >> 20), (unsigned long long)w.cap_mib, g_dies,
		(unsigned long long)w.writes, (unsigned long long)w.writes);

	printf("latency,side,phase,ios,p50_us,p99_us,p99_9_us,max_us,mean_us,delayed_pct,"
	       "user_writes,page_reads,page_programs,write_amplification,gc_moves,gc_erases,"
	       "host_cpu_us_per_io\n");
	printf("qd,side,depth,reads,modelled_ns,modelled_iops,modelled_mb_s,vs_qd1,"
	       "link_busy_pct,channel_busy_pct,die_busy_pct,page_reads,host_cpu_us_per_io\n");
	printf("waits,side,phase,reads,waited_for_die,waited_for_die_pct,mean_die_wait_us,"
	       "max_die_wait_us,waited_for_channel,waited_for_channel_pct,mean_channel_wait_us\n");
	printf("cost,side,blocks,host_map_bytes,host_map_bytes_per_block,"
	       "host_cpu_us_per_mib_prefilled,host_cpu_us_per_mixed_io,host_cpu_us_per_read\n");
	printf("zoned,view,write_bytes,open_zones,log_mib,modelled_ms,modelled_mb_s,"
	       "link_busy_pct,dies_busy_mean,page_programs,write_amplification,"
	       "host_state_bytes,host_cpu_us_per_write\n");
	fflush(stdout);
	prefix = w.writes / 4 ? w.writes / 4 : 1;
	for (int k = 0; k < 2; k++) {
		run_side(&w, sides[k], w.writes, prefix, 1, &r1);
		fflush(stdout);
		/* again on a fresh drive, a quarter of the mixed phase: the same modelled times */
		run_side(&w, sides[k], prefix, prefix, 0, &r2);
		if (r1.prefill_ns != r2.prefill_ns || r1.prefix_hash != r2.prefix_hash) {
			fprintf(stderr, "ocssd_vs_ftl: %s: a second run on a fresh drive modelled "
				"the prefill in %llu ns (first: %llu) and %s latencies\n", sides[k],
				(unsigned long long)r2.prefill_ns,
				(unsigned long long)r1.prefill_ns,
				r1.prefix_hash != r2.prefix_hash ? "other" : "the same");
			return 2;
		}
		free(r1.mx.rlat);
		free(r1.mx.wlat);
		free(r1.mx.rdie);
		free(r2.mx.rlat);
		free(r2.mx.wlat);
		free(r2.mx.rdie);
	}

	zoned_refuses_4k(&w);
	{
		static const uint32_t units[] = { 8192, 65536 };
		uint64_t bytes = log_mib << 20;

		for (size_t u = 0; u < 2; u++) {
			struct log_result a, b;

			a = zoned_log(&w, bytes, units[u], 1);
			b = zoned_log(&w, bytes, units[u], 1);
			log_row("zone-append", units[u], 1, bytes, &a, &b, w.page_size);
			a = zoned_log(&w, bytes, units[u], g_dies);
			b = zoned_log(&w, bytes, units[u], g_dies);
			log_row("zone-append", units[u], g_dies, bytes, &a, &b, w.page_size);
			a = target_log(&w, bytes, units[u]);
			b = target_log(&w, bytes, units[u]);
			log_row("block-target", units[u], 0, bytes, &a, &b, w.page_size);
			fflush(stdout);
		}
	}
	free(w.wl);
	free(w.rl);
	free(w.ql);
	return 0;
}
