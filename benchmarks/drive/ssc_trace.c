/*
 * FlashTier's cache comparison (Saxena, "New Interfaces for Solid-State Memory
 * Management", 2013, ch. 4 §4.5.6, Tables 4.5-4.7) by trace replay on the emulated flash:
 *   native  the page-mapping FTL (ftl/) used as a cache by a host cache manager that keeps
 *           a map of every cached block (block -> SSD page, LRU, dirty flag), FlashCache-like
 *   SSC     the solid-state cache (ssc/), fixed 7 % log; host keeps only dirty blocks
 *   SSC-V   the same with a variable 0-20 % log
 * All three: write-back, the same flash, dirty threshold 20 % of the native cache's blocks
 * (§4.5.4), LRU cleaning; the first 15 % of the trace warms the cache (§4.5.6).
 * Figures are counted operations, never wall-clock: write amplification, erases, wear
 * difference (max - min erase count), read miss rate, device map memory, host memory, and
 * the modelled device time of the mount after a crash at the end of the trace (the
 * emulator's timing model; the native figure is the FTL's alone, without the host map).
 *
 * Performance (Figure 4.5's comparison, write-back): the requests after the warm-up are
 * replayed closed-loop, one at a time (each waits for the previous one's flash work: a
 * barrier of the emulator's timing model, kang-smartssd's timings on this geometry), and
 * the modelled device time gives IOPS; a second figure adds a disk of --disk-iops
 * (default 500, the disk of §4.1's cache-warming example) for every miss read and every
 * dirty block written back, one after the other. native-D is native with FlashCache's
 * consistency for dirty blocks, as Figure 4.5's native system: a metadata page (16 B a
 * cache block) written to the SSD whenever a block turns dirty or clean. SSC WT and
 * SSC-V WT are Figure 4.5's write-through FlashTier: a write goes to the disk and is
 * cached clean (write-clean), no dirty table (native write-through is not durable, so
 * the figure has none).
 *
 * Traces: generators shaped after Table 4.4 (write share, unique blocks per request, skew),
 * scaled to `--unique N` blocks, or an MSR Cambridge trace (CSV: timestamp, host, disk,
 * Read|Write, byte offset, byte size, response time) cut into 4 KB blocks.
 * The cache holds 25 % of the unique blocks (Table 4.5: "the 25 % most popular blocks").
 *
 *   usage: ssc_trace [--unique N] [--workloads homes,mail,usr,proj] [--msr FILE]
 *                    [--csv FILE] [--disk-iops N]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_emu_flash.h"
#include "ss_ftl.h"
#include "ss_rt.h"
#include "ss_ssc.h"

#define PAGE 4096u
#define PPB 64u
#define DIRTY_PERMILLE 200u
#define WARMUP_PERMILLE 150u
#define META_BYTES 16u          /* FlashCache's on-SSD metadata of one cache block */

static uint64_t disk_iops = 500;

struct workload {
	const char *name;
	double write_share;     /* Table 4.4 "% Writes" */
	double unique_per_op;   /* Table 4.4 unique blocks / total ops */
	double zipf;            /* skew: an assumption, not in Table 4.4 */
};

/* Table 4.4: homes 1,684,407 unique of 17,836,701 ops, 95.9 % writes; mail 15,136,141 of
 * 462,082,021, 88.5 %; usr 99,450,142 of 116,060,427, 5.9 %; proj 107,509,907 of
 * 311,253,714, 14.2 %. */
static const struct workload workloads[] = {
	{ "homes", 0.959, 1684407.0 / 17836701.0, 1.0 },
	{ "mail", 0.885, 15136141.0 / 462082021.0, 1.0 },
	{ "usr", 0.059, 99450142.0 / 116060427.0, 0.6 },
	{ "proj", 0.142, 107509907.0 / 311253714.0, 0.8 },
};

struct req {
	uint64_t lba;
	uint8_t write;
};

struct trace {
	struct req *r;
	size_t n, cap;
	uint64_t unique;
};

static void die(const char *m)
{
	fprintf(stderr, "ssc_trace: %s\n", m);
	exit(2);
}

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static double rnd_unit(uint64_t *s)
{
	return (double)(rnd_next(s) >> 11) / 9007199254740992.0;
}

static void push(struct trace *t, uint64_t lba, int write)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1 << 16;
		t->r = realloc(t->r, t->cap * sizeof(*t->r));
		if (t->r == NULL) {
			die("out of memory");
		}
	}
	t->r[t->n].lba = lba;
	t->r[t->n].write = (uint8_t)write;
	t->n++;
}

/* Block of popularity rank r: ranks are dealt out in chunks of 8 consecutive blocks, 8
 * chunks of unrelated popularity per 64-block group, groups scattered over the 64-bit
 * space (sparse, as Fig. 4.1). */
static uint64_t place(uint64_t r, uint64_t unique)
{
	uint64_t chunks = (unique + 7) / 8, c = r / 8;
	uint64_t slot = (c * 0x9E3779B97F4A7C15ull) % chunks;   /* a fixed shuffle of chunks */
	uint64_t group = slot / 8;

	return ((group * 0xD1B54A32D192ED03ull) >> 20 << 6) + (slot % 8) * 8 + r % 8;
}

static void generate(const struct workload *w, uint64_t unique, struct trace *t)
{
	uint64_t ops = (uint64_t)((double)unique / w->unique_per_op), seed = 0xF1A5u;
	double *cdf = malloc(unique * sizeof(double)), sum = 0;
	uint8_t *seen = calloc(unique, 1);

	if (cdf == NULL || seen == NULL) {
		die("out of memory");
	}
	for (uint64_t i = 0; i < unique; i++) {
		sum += 1.0 / pow((double)(i + 1), w->zipf);
		cdf[i] = sum;
	}
	t->n = 0;
	t->unique = 0;
	for (uint64_t k = 0; k < ops; k++) {
		/* the first touch of every block comes in order, so all `unique` appear */
		uint64_t r;

		if (t->unique < unique && rnd_unit(&seed) < w->unique_per_op) {
			r = t->unique;
		} else {
			double u = rnd_unit(&seed) * sum;
			uint64_t lo = 0, hi = unique - 1;

			while (lo < hi) {
				uint64_t mid = (lo + hi) / 2;

				if (cdf[mid] < u) {
					lo = mid + 1;
				} else {
					hi = mid;
				}
			}
			r = lo;
		}
		if (!seen[r]) {
			seen[r] = 1;
			t->unique++;
		}
		push(t, place(r, unique), rnd_unit(&seed) < w->write_share);
	}
	free(cdf);
	free(seen);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void read_msr(const char *path, struct trace *t)
{
	FILE *f = fopen(path, "r");
	char line[512];
	uint64_t *all;

	if (f == NULL) {
		die("cannot open the MSR trace");
	}
	t->n = 0;
	while (fgets(line, sizeof(line), f)) {
		char type[16];
		unsigned long long ts, off, size;
		char host[64];
		int disk;

		if (sscanf(line, "%llu,%63[^,],%d,%15[^,],%llu,%llu", &ts, host, &disk, type, &off,
			   &size) != 6) {
			continue;
		}
		for (uint64_t b = off / PAGE; b <= (off + (size ? size : 1) - 1) / PAGE; b++) {
			push(t, b, type[0] == 'W' || type[0] == 'w');
		}
	}
	fclose(f);
	if (t->n == 0) {
		die("no requests in the MSR trace (expected CSV: timestamp,host,disk,type,offset,size,...)");
	}
	all = malloc(t->n * sizeof(*all));
	for (size_t i = 0; i < t->n; i++) {
		all[i] = t->r[i].lba;
	}
	qsort(all, t->n, sizeof(*all), cmp_u64);
	t->unique = 0;
	for (size_t i = 0; i < t->n; i++) {
		t->unique += i == 0 || all[i] != all[i - 1];
	}
	free(all);
}

/* ---- host-side tables: an LRU list over slots, and an lba -> slot hash ---- */
struct lru {
	uint32_t *prev, *next;
	uint32_t head, tail;  /* head: most recent */
};
#define NIL UINT32_MAX

static void lru_init(struct lru *l, uint32_t n)
{
	l->prev = malloc(n * sizeof(uint32_t));
	l->next = malloc(n * sizeof(uint32_t));
	l->head = l->tail = NIL;
}
static void lru_unlink(struct lru *l, uint32_t i)
{
	if (l->prev[i] != NIL) l->next[l->prev[i]] = l->next[i]; else l->head = l->next[i];
	if (l->next[i] != NIL) l->prev[l->next[i]] = l->prev[i]; else l->tail = l->prev[i];
}
static void lru_front(struct lru *l, uint32_t i)
{
	l->prev[i] = NIL;
	l->next[i] = l->head;
	if (l->head != NIL) l->prev[l->head] = i; else l->tail = i;
	l->head = i;
}

struct hmap {
	uint64_t *k;
	uint32_t *v;
	uint64_t mask;
};
static void lru_free(struct lru *l)
{
	free(l->prev);
	free(l->next);
}

static void hmap_init(struct hmap *h, uint64_t n)
{
	uint64_t cap = 16;

	while (cap < n * 2) cap <<= 1;
	h->k = malloc(cap * 8);
	h->v = malloc(cap * 4);
	memset(h->k, 0xFF, cap * 8);
	h->mask = cap - 1;
}
static void hmap_free(struct hmap *h)
{
	free(h->k);
	free(h->v);
}

static uint64_t hslot(const struct hmap *h, uint64_t k)
{
	return (k * 0x9E3779B97F4A7C15ull >> 17) & h->mask;
}
static uint32_t hget(const struct hmap *h, uint64_t k)
{
	for (uint64_t i = hslot(h, k);; i = (i + 1) & h->mask) {
		if (h->k[i] == k) return h->v[i];
		if (h->k[i] == UINT64_MAX) return NIL;
	}
}
static void hput(struct hmap *h, uint64_t k, uint32_t v)
{
	uint64_t i = hslot(h, k);

	while (h->k[i] != UINT64_MAX && h->k[i] != k) i = (i + 1) & h->mask;
	h->k[i] = k;
	h->v[i] = v;
}
static void hdel(struct hmap *h, uint64_t k)
{
	uint64_t i = hslot(h, k), j;

	while (h->k[i] != k) {
		if (h->k[i] == UINT64_MAX) return;
		i = (i + 1) & h->mask;
	}
	for (j = i;;) {
		uint64_t home;

		j = (j + 1) & h->mask;
		if (h->k[j] == UINT64_MAX) break;
		home = hslot(h, h->k[j]);
		if (((j - home) & h->mask) >= ((j - i) & h->mask)) {
			h->k[i] = h->k[j];
			h->v[i] = h->v[j];
			i = j;
		}
	}
	h->k[i] = UINT64_MAX;
}

struct result {
	const char *sys;
	uint64_t reads, misses, host_writes, nand_writes, data_writes, erases, disk_writes;
	uint32_t wear_diff;
	uint64_t device_mem, host_mem, peak_dirty, cache_pages;
	uint64_t cached_end;    /* blocks cached at the end of the trace */
	uint64_t recovery_ns;   /* modelled device time of the mount after a crash at the end */
	uint64_t requests;      /* counted: after the warm-up */
	uint64_t device_ns;     /* modelled device time of the counted requests, closed-loop */
	uint64_t meta_writes;   /* native-D: metadata pages written */
};

static struct ss_emu_flash *open_flash_mode(const char *path, uint32_t bpd, int create,
					   struct ss_hal **hal)
{
	struct ss_emu_flash_opts o;
	struct ss_emu_flash *f;
	char err[256];

	memset(&o, 0, sizeof(o));
	o.geo = (struct ss_geometry){ .channels = 4, .ways = 1, .blocks_per_die = bpd,
				      .pages_per_block = PPB, .page_size = PAGE, .spare_size = 128,
				      .overprovision_permille = 70 };
	o.endurance = 10000000;   /* wear is counted, never allowed to end the run */
	o.dram_bytes = 256ull << 20;
	o.create = create;
	if (ss_emu_flash_open(path, &o, &f, err, sizeof(err)) != 0) {
		fprintf(stderr, "ss_emu_flash_open: %s\n", err);
		exit(2);
	}
	*hal = ss_emu_flash_hal(f);
	return f;
}

static struct ss_emu_flash *open_flash(const char *path, uint32_t bpd, struct ss_hal **hal)
{
	return open_flash_mode(path, bpd, 1, hal);
}

static void fill(uint8_t *buf, uint64_t lba)
{
	memset(buf, 0, PAGE);
	memcpy(buf, &lba, 8);
}

/* ---- native: FTL + host map of every cached block (lba, slot = SSD page, LRU, dirty) */
/* native-D: the metadata page holding slot s's 16 bytes, after the data slots */
static void native_meta(struct ss_ftl *ftl, uint32_t cap, uint32_t s, struct result *res,
			int counted)
{
	static uint8_t meta[PAGE];

	if (ss_ftl_write(ftl, cap + s / (PAGE / META_BYTES), meta, SS_STREAM_HOT, 0) != 0) {
		die("ftl metadata write");
	}
	res->meta_writes += counted;
}

static void run_native(const struct trace *t, const char *path, uint32_t bpd, uint32_t dirty_max,
		       int persist_meta, struct result *res)
{
	static uint8_t buf[PAGE];
	struct ss_ftl_params fp;
	struct ss_ftl_stats s0, s1;
	struct ss_ftl *ftl;
	struct ss_hal *hal;
	struct ss_emu_flash *f = open_flash(path, bpd, &hal);
	struct lru lru, dl;
	struct hmap map;
	uint64_t *slot_lba;
	uint8_t *dirty;
	uint32_t cap, used = 0, ndirty = 0;
	size_t warm = t->n * WARMUP_PERMILLE / 1000;
	uint64_t t0 = 0;

	ss_ftl_default_params(&fp);
	if (ss_ftl_format(&ftl, hal, hal->dram, hal->dram_size, &fp) != 0) die("ftl format");
	cap = ss_ftl_capacity_pages(ftl);
	if (persist_meta) {
		/* the metadata area takes its pages from the cache's */
		cap -= (cap + PAGE / META_BYTES) / (PAGE / META_BYTES + 1) + 1;
	}
	lru_init(&lru, cap);
	lru_init(&dl, cap);
	hmap_init(&map, cap);
	slot_lba = malloc(cap * 8);
	dirty = calloc(cap, 1);
	memset(res, 0, sizeof(*res));
	res->sys = persist_meta ? "native-D" : "native";
	res->cache_pages = cap;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t lba = t->r[i].lba;
		uint32_t s = hget(&map, lba);
		int counted = i >= warm;

		ss_hal_barrier(hal);   /* closed loop: the previous request is done */
		if (i == warm) {
			ss_ftl_get_stats(ftl, &s0);
			res->disk_writes = 0;
			t0 = ss_hal_now_ns(hal);
		}
		if (!t->r[i].write && s != NIL) {
			if (ss_ftl_read(ftl, s, buf) < 0) die("ftl read");
			lru_unlink(&lru, s);
			lru_front(&lru, s);
			res->reads += counted;
			continue;
		}
		if (!t->r[i].write) {
			res->reads += counted;
			res->misses += counted;
		}
		if (s == NIL) {
			if (used < cap) {
				s = used++;
			} else {
				s = lru.tail;
				lru_unlink(&lru, s);
				hdel(&map, slot_lba[s]);
				if (dirty[s]) {
					res->disk_writes++;
					dirty[s] = 0;
					lru_unlink(&dl, s);
					ndirty--;
					if (persist_meta) {
						native_meta(ftl, cap, s, res, counted);
					}
				}
			}
			slot_lba[s] = lba;
			hput(&map, lba, s);
		} else {
			lru_unlink(&lru, s);
		}
		lru_front(&lru, s);
		fill(buf, lba);
		if (ss_ftl_write(ftl, s, buf, SS_STREAM_HOT, 0) != 0) die("ftl write");
		if (t->r[i].write) {
			if (dirty[s]) {
				lru_unlink(&dl, s);
			} else {
				dirty[s] = 1;
				ndirty++;
				if (persist_meta) {
					native_meta(ftl, cap, s, res, counted);
				}
			}
			lru_front(&dl, s);
			res->peak_dirty = ndirty > res->peak_dirty ? ndirty : res->peak_dirty;
			while (ndirty > dirty_max) {
				uint32_t v = dl.tail;

				lru_unlink(&dl, v);
				dirty[v] = 0;
				ndirty--;
				res->disk_writes++;
				if (persist_meta) {
					native_meta(ftl, cap, v, res, counted);
				}
			}
		}
	}
	ss_hal_barrier(hal);
	res->requests = t->n - warm;
	res->device_ns = ss_hal_now_ns(hal) - t0;
	ss_ftl_get_stats(ftl, &s1);
	res->host_writes = s1.host_page_writes - s0.host_page_writes;
	res->nand_writes = s1.nand_page_writes - s0.nand_page_writes;
	res->data_writes = res->host_writes + (s1.gc_page_moves - s0.gc_page_moves) +
			   (s1.wear_level_moves - s0.wear_level_moves);
	res->erases = s1.block_erases - s0.block_erases;
	res->wear_diff = s1.max_erase_count - s1.min_erase_count;
	res->device_mem = ss_ftl_dram_needed(&hal->geo);
	res->cached_end = used;
	/* FlashCache-like: lba 8 + SSD page 4 + two LRU links 8 + dirty 1, and the hash */
	res->host_mem = (uint64_t)cap * (8 + 4 + 8 + 1 + 8) + (map.mask + 1) * 12;
	lru_free(&lru);
	lru_free(&dl);
	hmap_free(&map);
	free(slot_lba);
	free(dirty);
	ss_emu_flash_close(f);   /* a crash: no unmount */
	f = open_flash_mode(path, bpd, 0, &hal);
	{
		uint64_t m0 = ss_hal_now_ns(hal);

		if (ss_ftl_mount(&ftl, hal, hal->dram, hal->dram_size) != 0) die("ftl mount");
		res->recovery_ns = ss_hal_now_ns(hal) - m0;
	}
	ss_emu_flash_close(f);
	unlink(path);
}

/* ---- SSC / SSC-V: the FlashTier cache manager keeps dirty blocks only (§4.3.4) ---- */
struct dirty_table {
	struct hmap map;
	struct lru lru;
	uint64_t *lba;
	uint32_t *free_list;
	uint32_t nfree, n, cap;
};

static void dt_clean_lru(struct ss_ssc *c, struct dirty_table *d, struct result *res)
{
	uint32_t v = d->lru.tail;

	lru_unlink(&d->lru, v);
	hdel(&d->map, d->lba[v]);
	res->disk_writes++;
	if (ss_ssc_clean(c, d->lba[v]) != 0) die("ssc clean");
	d->free_list[d->nfree++] = v;
	d->n--;
}

static void run_ssc(const struct trace *t, const char *path, uint32_t bpd, uint32_t dirty_max,
		    enum ss_ssc_policy pol, int write_through, struct result *res)
{
	static uint8_t buf[PAGE];
	struct ss_ssc_params p;
	struct ss_ssc_stats s0, s1;
	struct ss_ssc *c;
	struct ss_hal *hal;
	struct ss_emu_flash *f = open_flash(path, bpd, &hal);
	struct dirty_table d;
	size_t warm = t->n * WARMUP_PERMILLE / 1000;
	uint64_t t0 = 0;

	ss_ssc_default_params(&p, pol);
	if (ss_ssc_format(&c, hal, hal->dram, hal->dram_size, &p) != 0) die("ssc format");
	memset(res, 0, sizeof(*res));
	res->sys = pol == SS_SSC_POLICY_SSC ? (write_through ? "SSC WT" : "SSC")
					    : (write_through ? "SSC-V WT" : "SSC-V");
	d.cap = dirty_max + 1;
	hmap_init(&d.map, d.cap);
	lru_init(&d.lru, d.cap);
	d.lba = malloc(d.cap * 8);
	d.free_list = malloc(d.cap * 4);
	for (uint32_t i = 0; i < d.cap; i++) d.free_list[i] = d.cap - 1 - i;
	d.nfree = d.cap;
	d.n = 0;
	ss_ssc_get_stats(c, &s0);
	res->cache_pages = (uint64_t)s0.cache_blocks * PPB;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t lba = t->r[i].lba;
		int counted = i >= warm, rc;

		ss_hal_barrier(hal);   /* closed loop: the previous request is done */
		if (i == warm) {
			ss_ssc_get_stats(c, &s0);
			res->disk_writes = 0;
			t0 = ss_hal_now_ns(hal);
		}
		if (!t->r[i].write) {
			rc = ss_ssc_read(c, lba, buf);
			if (rc < 0) die("ssc read");
			res->reads += counted;
			if (rc == SS_SSC_MISS) {
				res->misses += counted;
				fill(buf, lba);
				rc = ss_ssc_write_clean(c, lba, buf);
				if (rc != 0 && rc != -SS_ENOSPC) die("ssc write-clean");
			}
			continue;
		}
		fill(buf, lba);
		if (write_through) {
			/* the disk has it too: cached clean, the SSC evicts it when it must */
			res->disk_writes++;
			rc = ss_ssc_write_clean(c, lba, buf);
			if (rc == -SS_ENOSPC) {
				rc = ss_ssc_evict(c, lba);   /* no older copy left behind */
			}
			if (rc != 0) die("ssc write-clean");
			continue;
		}
		while ((rc = ss_ssc_write_dirty(c, lba, buf)) == -SS_ENOSPC && d.n > 0) {
			for (uint32_t k = d.n / 10 + 1; k && d.n; k--) {
				dt_clean_lru(c, &d, res);
			}
		}
		if (rc != 0) die("ssc write-dirty");
		{
			uint32_t s = hget(&d.map, lba);

			if (s == NIL) {
				if (d.n == d.cap) dt_clean_lru(c, &d, res);
				s = d.free_list[--d.nfree];
				d.lba[s] = lba;
				hput(&d.map, lba, s);
				d.n++;
			} else {
				lru_unlink(&d.lru, s);
			}
			lru_front(&d.lru, s);
		}
		res->peak_dirty = d.n > res->peak_dirty ? d.n : res->peak_dirty;
		while (d.n > dirty_max) dt_clean_lru(c, &d, res);
	}
	ss_hal_barrier(hal);
	res->requests = t->n - warm;
	res->device_ns = ss_hal_now_ns(hal) - t0;
	ss_ssc_get_stats(c, &s1);
	res->host_writes = s1.host_page_writes - s0.host_page_writes;
	res->nand_writes = s1.nand_page_writes - s0.nand_page_writes;
	res->data_writes = res->host_writes + (s1.merge_page_copies - s0.merge_page_copies);
	res->erases = s1.block_erases - s0.block_erases;
	res->wear_diff = s1.max_erase_count - s1.min_erase_count;
	res->device_mem = s1.map_dram_bytes;
	res->cached_end = s1.cached_pages;
	fprintf(stderr, "%s: %u data + %u log + %u free blocks, %llu silently evicted pages, "
		"%llu full / %llu switch merges, %llu copies; %llu wear-levelling migrations "
		"(%llu of the copies)\n", res->sys,
		s1.data_blocks, s1.log_blocks, s1.free_blocks,
		(unsigned long long)(s1.silent_evicted_pages - s0.silent_evicted_pages),
		(unsigned long long)(s1.full_merges - s0.full_merges),
		(unsigned long long)(s1.switch_merges - s0.switch_merges),
		(unsigned long long)(s1.merge_page_copies - s0.merge_page_copies),
		(unsigned long long)(s1.wear_level_migrations - s0.wear_level_migrations),
		(unsigned long long)(s1.wear_level_copies - s0.wear_level_copies));
	/* dirty blocks only: lba 8 + two LRU links 8, and the hash */
	res->host_mem = (uint64_t)d.cap * (8 + 8) + (d.map.mask + 1) * 12;
	lru_free(&d.lru);
	hmap_free(&d.map);
	free(d.lba);
	free(d.free_list);
	ss_emu_flash_close(f);   /* a crash: no unmount */
	f = open_flash_mode(path, bpd, 0, &hal);
	{
		uint64_t m0 = ss_hal_now_ns(hal);

		if (ss_ssc_mount(&c, hal, hal->dram, hal->dram_size) != 0) die("ssc mount");
		res->recovery_ns = ss_hal_now_ns(hal) - m0;
	}
	ss_emu_flash_close(f);
	unlink(path);
}

static uint32_t native_capacity(const char *path, uint32_t bpd)
{
	struct ss_ftl_params fp;
	struct ss_ftl *ftl;
	struct ss_hal *hal;
	struct ss_emu_flash *f = open_flash(path, bpd, &hal);
	uint32_t cap;

	ss_ftl_default_params(&fp);
	if (ss_ftl_format(&ftl, hal, hal->dram, hal->dram_size, &fp) != 0) die("ftl format");
	cap = ss_ftl_capacity_pages(ftl);
	ss_emu_flash_close(f);
	unlink(path);
	return cap;
}

/* IOPS of the counted requests: the device alone, and with the disk's accesses after it */
static double iops_device(const struct result *r)
{
	return r->device_ns ? r->requests * 1e9 / (double)r->device_ns : 0;
}

static double iops_with_disk(const struct result *r)
{
	double s = r->device_ns / 1e9 + (double)(r->misses + r->disk_writes) / (double)disk_iops;

	return s > 0 ? r->requests / s : 0;
}

/* Figure 4.5's table, printed after the main one: each system against native-D */
static char perf_rows[64][200];
static size_t perf_n;
static struct result perf_base;

static void perf_row(const char *wl, const struct result *r)
{
	if (strcmp(r->sys, "native-D") == 0) {
		perf_base = *r;
	}
	if (perf_n < sizeof(perf_rows) / sizeof(perf_rows[0])) {
		snprintf(perf_rows[perf_n++], sizeof(perf_rows[0]),
			 "| %s | %s | %.0f | %.2f | %.0f | %.2f | %.1f | %llu | %llu |", wl, r->sys,
			 iops_device(r), iops_device(r) / iops_device(&perf_base),
			 iops_with_disk(r), iops_with_disk(r) / iops_with_disk(&perf_base),
			 r->device_ns / 1e6, (unsigned long long)(r->misses + r->disk_writes),
			 (unsigned long long)r->meta_writes);
	}
}

static void report(FILE *csv, const char *wl, const struct trace *t, const struct result *r)
{
	double wa = r->host_writes ? (double)r->nand_writes / r->host_writes : 0;
	double wad = r->host_writes ? (double)r->data_writes / r->host_writes : 0;
	double miss = r->reads ? 100.0 * r->misses / r->reads : 0;

	printf("| %s | %s | %.2f | %.2f | %llu | %u | %.1f | %.2f | %.2f | %.1f | %.0f | %.1f |\n", wl,
	       r->sys, wa, wad, (unsigned long long)r->erases, r->wear_diff, miss,
	       r->device_mem / 1048576.0, r->host_mem / 1048576.0,
	       r->cache_pages * (double)PAGE / 1048576.0,
	       100.0 * (double)r->cached_end / (double)r->cache_pages, r->recovery_ns / 1e6);
	fprintf(csv, "%s,%s,%zu,%llu,%llu,%llu,%.4f,%.4f,%llu,%u,%.3f,%llu,%llu,%llu,%llu,%llu,"
		"%llu,%llu,%llu,%.1f,%.1f\n",
		wl, r->sys,
		t->n, (unsigned long long)t->unique, (unsigned long long)r->cache_pages,
		(unsigned long long)r->cached_end, wa, wad,
		(unsigned long long)r->erases, r->wear_diff, miss,
		(unsigned long long)r->device_mem, (unsigned long long)r->host_mem,
		(unsigned long long)r->disk_writes, (unsigned long long)r->peak_dirty,
		(unsigned long long)r->recovery_ns, (unsigned long long)r->requests,
		(unsigned long long)r->device_ns, (unsigned long long)r->meta_writes,
		iops_device(r), iops_with_disk(r));
	perf_row(wl, r);
	fflush(stdout);
}

static void run_all(FILE *csv, const char *wl, const struct trace *t)
{
	char path[128];
	/* flash for 25 % of the unique blocks as the native cache's logical capacity */
	uint64_t want = t->unique / 4 * 1000 / 930 * 1000 / 900;
	uint32_t bpd = (uint32_t)((want + 4 * PPB - 1) / (4 * PPB)) + 4;
	uint32_t dirty_max;
	struct result r;

	snprintf(path, sizeof(path), "%s/ssc_trace.%d.img",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
	dirty_max = (uint32_t)(native_capacity(path, bpd) * DIRTY_PERMILLE / 1000);
	run_native(t, path, bpd, dirty_max, 1, &r);
	report(csv, wl, t, &r);
	run_native(t, path, bpd, dirty_max, 0, &r);
	report(csv, wl, t, &r);
	run_ssc(t, path, bpd, dirty_max, SS_SSC_POLICY_SSC, 0, &r);
	report(csv, wl, t, &r);
	run_ssc(t, path, bpd, dirty_max, SS_SSC_POLICY_SSC_V, 0, &r);
	report(csv, wl, t, &r);
	run_ssc(t, path, bpd, dirty_max, SS_SSC_POLICY_SSC, 1, &r);
	report(csv, wl, t, &r);
	run_ssc(t, path, bpd, dirty_max, SS_SSC_POLICY_SSC_V, 1, &r);
	report(csv, wl, t, &r);
}

int main(int argc, char **argv)
{
	uint64_t unique = 20000;
	const char *names = "homes,mail,usr,proj", *msr = NULL, *csv_path = "ssc_trace.csv";
	struct trace t = { 0 };
	FILE *csv;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--unique") && i + 1 < argc) {
			unique = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--workloads") && i + 1 < argc) {
			names = argv[++i];
		} else if (!strcmp(argv[i], "--msr") && i + 1 < argc) {
			msr = argv[++i];
		} else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv_path = argv[++i];
		} else if (!strcmp(argv[i], "--disk-iops") && i + 1 < argc) {
			disk_iops = strtoull(argv[++i], NULL, 10);
		} else {
			die("usage: ssc_trace [--unique N] [--workloads homes,mail,usr,proj] [--msr FILE] "
			    "[--csv FILE] [--disk-iops N]");
		}
	}
	if (disk_iops == 0) die("--disk-iops must be at least 1");
	if (unique < 4096) die("--unique must be at least 4096");
	csv = fopen(csv_path, "w");
	if (csv == NULL) die("cannot write the CSV");
	fprintf(csv, "workload,system,requests,unique_blocks,cache_pages,cached_pages_end,write_amp,"
		     "write_amp_data,"
		     "erases,wear_diff,read_miss_pct,device_map_bytes,host_bytes,disk_writes,"
		     "peak_dirty,recovery_ns,requests_counted,device_ns,meta_writes,iops_device,"
		     "iops_with_disk\n");
	printf("| trace | system | WA | WA without log | erases | wear diff | read miss %% | device map "
	       "MiB | host MiB | cache MiB | cached at end %% | recovery ms |\n");
	printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	if (msr != NULL) {
		read_msr(msr, &t);
		run_all(csv, msr, &t);
	}
	for (size_t w = 0; msr == NULL && w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		if (strstr(names, workloads[w].name) == NULL) continue;
		generate(&workloads[w], unique, &t);
		run_all(csv, workloads[w].name, &t);
	}
	printf("\nPerformance (after the warm-up, closed-loop, modelled; a disk of %llu IOPS):\n\n"
	       "| trace | system | IOPS device | x native-D | IOPS with disk | x native-D | device ms "
	       "| disk accesses | metadata writes |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
	       (unsigned long long)disk_iops);
	for (size_t i = 0; i < perf_n; i++) {
		printf("%s\n", perf_rows[i]);
	}
	fclose(csv);
	free(t.r);
	return 0;
}
