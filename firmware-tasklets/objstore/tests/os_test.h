/* The object store tests' setup on the shared fixture (firmware-tasklets/testing): a store
 * on the FTL on a small emulated flash. */
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
#include "ss_test.h"
#include "ss_test_flash.h"

#define OS_TEST_DRAM (48u << 20)

struct os_env {
	struct ss_test_flash t;     /* the image */
	char *img;                  /* its path, t.path */
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
	e->img = e->t.path;   /* set by os_env_open(e, 1) */
}

/* Split the emulator's DRAM: FTL first, object store after it. */
static inline void os_env_dram(struct os_env *e, void **ftl_dram, uint64_t *ftl_size,
			       void **os_dram, uint64_t *os_size)
{
	ss_test_dram_split(e->hal, ss_ftl_dram_needed(&e->hal->geo), ftl_dram, ftl_size, os_dram,
			   os_size);
}

/* Open the image (creating it and formatting both layers when `create`). \return the
 * object store's format or mount result. */
static inline int os_env_open(struct os_env *e, int create)
{
	void *fd, *od;
	uint64_t fs, osz;

	if (create) {
		ss_test_flash_create(&e->t, "ss_os_ut", &e->geo, 0, OS_TEST_DRAM);
	} else {
		ss_test_flash_reopen(&e->t, OS_TEST_DRAM);
	}
	e->flash = e->t.flash;
	e->hal = e->t.hal;
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
	ss_test_flash_close(&e->t);
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
	ss_test_flash_destroy(&e->t);
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
