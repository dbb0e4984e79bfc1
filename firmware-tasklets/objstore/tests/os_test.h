/* Test harness of the object store tests: checks, and a store on a small emulated flash. */
#ifndef OS_TEST_H
#define OS_TEST_H

#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_emu_flash.h"
#include "ss_ftl.h"
#include "ss_objstore.h"
#include "ss_rt.h"

static int os_test_failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			os_test_failures++;                                              \
		}                                                                        \
	} while (0)

#define CHECK_EQ(a, b)                                                                   \
	do {                                                                             \
		long long va_ = (long long)(a), vb_ = (long long)(b);                    \
		if (va_ != vb_) {                                                        \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n",    \
				__FILE__, __LINE__, #a, va_, #b, vb_);                   \
			os_test_failures++;                                              \
		}                                                                        \
	} while (0)

/* Abort the test on a failed setup step: nothing after it would mean anything. */
#define REQUIRE(cond)                                                                    \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);                                                         \
		}                                                                        \
	} while (0)

#define RUN(t)                                                                           \
	do {                                                                             \
		int before_ = os_test_failures;                                          \
		t();                                                                     \
		fprintf(stderr, "%s %s\n", os_test_failures == before_ ? "ok  " : "FAIL", #t); \
	} while (0)

#define OS_TEST_DRAM (48u << 20)

struct os_env {
	char dir[64];
	char img[128];
	struct ss_emu_flash *flash;
	struct ss_hal *hal;
	struct ss_ftl *ftl;
	struct ss_objstore *os;
	struct ss_geometry geo;
	uint32_t max_objects;
	uint32_t root_extents, node_extents;   /* extent-tree fan-outs at format, 0: default */
};

/* 4 channels x 32 blocks x 32 pages of 8 KiB: 32 MiB raw. */
static inline void os_env_geo(struct ss_geometry *g)
{
	memset(g, 0, sizeof(*g));
	g->channels = 4;
	g->ways = 1;
	g->blocks_per_die = 32;
	g->pages_per_block = 32;
	g->page_size = 8192;
	g->spare_size = 256;
}

static inline void os_env_init(struct os_env *e, uint32_t max_objects)
{
	memset(e, 0, sizeof(*e));
	os_env_geo(&e->geo);
	e->max_objects = max_objects;
	snprintf(e->dir, sizeof(e->dir), "/tmp/ss_os_ut.XXXXXX");
	REQUIRE(mkdtemp(e->dir) != NULL);
	snprintf(e->img, sizeof(e->img), "%s/flash.img", e->dir);
}

/* Split the emulator's DRAM: FTL first, object store after it. */
static inline void os_env_dram(struct os_env *e, void **ftl_dram, uint64_t *ftl_size,
			       void **os_dram, uint64_t *os_size)
{
	uint64_t need = ss_ftl_dram_needed(&e->hal->geo);

	need = (need + 63) & ~63ull;
	REQUIRE(need < e->hal->dram_size);
	*ftl_dram = e->hal->dram;
	*ftl_size = need;
	*os_dram = (uint8_t *)e->hal->dram + need;
	*os_size = e->hal->dram_size - need;
}

/* Open the image (creating it and formatting both layers when `create`). \return the
 * object store's format or mount result. */
static inline int os_env_open(struct os_env *e, int create)
{
	struct ss_emu_flash_opts o;
	char err[256];
	void *fd, *od;
	uint64_t fs, osz;
	int rc;

	memset(&o, 0, sizeof(o));
	o.geo = e->geo;
	o.dram_bytes = OS_TEST_DRAM;
	o.create = create;
	rc = ss_emu_flash_open(e->img, &o, &e->flash, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "emu open: %s\n", err);
	}
	REQUIRE(rc == 0);
	e->hal = ss_emu_flash_hal(e->flash);
	os_env_dram(e, &fd, &fs, &od, &osz);
	if (create) {
		struct ss_ftl_params fp;
		struct ss_os_params p = { .max_objects = e->max_objects,
					  .root_extents = e->root_extents,
					  .node_extents = e->node_extents };

		ss_ftl_default_params(&fp);
		REQUIRE(ss_ftl_format(&e->ftl, e->hal, fd, fs, &fp) == 0);
		REQUIRE(ss_os_dram_needed(&e->hal->geo, &p) <= osz);
		return ss_os_format(&e->os, e->ftl, od, osz, &p);
	}
	REQUIRE(ss_ftl_mount(&e->ftl, e->hal, fd, fs) == 0);
	return ss_os_mount(&e->os, e->ftl, od, osz);
}

/* Close the image; `clean` unmounts both layers first, otherwise it is a crash. */
static inline void os_env_close(struct os_env *e, int clean)
{
	if (clean && e->os != NULL) {
		CHECK_EQ(ss_os_unmount(e->os), 0);
	}
	if (clean && e->ftl != NULL) {
		CHECK_EQ(ss_ftl_unmount(e->ftl), 0);
	}
	ss_emu_flash_close(e->flash);
	e->os = NULL;
	e->ftl = NULL;
	e->flash = NULL;
}

static inline void os_env_reopen(struct os_env *e, int clean)
{
	os_env_close(e, clean);
	REQUIRE(os_env_open(e, 0) == 0);
}

static inline void os_env_destroy(struct os_env *e)
{
	if (e->flash != NULL) {
		os_env_close(e, 0);
	}
	unlink(e->img);
	rmdir(e->dir);
}

/* Deterministic PRNG (xorshift64*), seeded per test so failures reproduce. */
static inline uint64_t os_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline uint32_t os_rand_below(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(os_rand(s) % n) : 0;
}

static inline uint64_t os_test_seed(uint64_t dflt)
{
	const char *v = getenv("SS_TEST_SEED");

	return v ? strtoull(v, NULL, 0) : dflt;
}

/*
 * A flash cut for crash tests (run in a forked child): counts page programs and block
 * erases through the HAL and dies by SIGKILL just before step `at`, after calling
 * `before_kill` (may be NULL), so where a kill lands is reproducible, never timed.
 */
static struct {
	const struct ss_hal_ops *real;
	struct ss_hal_ops ops;
	uint32_t at, steps;
	void (*before_kill)(void);
} os_cut;

static inline void os_cut_step(void)
{
	if (++os_cut.steps == os_cut.at) {
		if (os_cut.before_kill) {
			os_cut.before_kill();
		}
		raise(SIGKILL);
	}
}

static inline int os_cut_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	os_cut_step();
	return os_cut.real->page_program(ctx, ppn, data, spare);
}

static inline int os_cut_erase(void *ctx, uint32_t block)
{
	os_cut_step();
	return os_cut.real->block_erase(ctx, block);
}

static inline void os_cut_install(struct ss_hal *hal, uint32_t at, void (*before_kill)(void))
{
	os_cut.real = hal->ops;
	os_cut.ops = *hal->ops;
	os_cut.ops.page_program = os_cut_program;
	os_cut.ops.block_erase = os_cut_erase;
	os_cut.at = at;
	os_cut.steps = 0;
	os_cut.before_kill = before_kill;
	hal->ops = &os_cut.ops;
}

#endif
