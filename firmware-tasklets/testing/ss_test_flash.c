#define _GNU_SOURCE
#include "ss_test_flash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_test.h"

static void open_image(struct ss_test_flash *t, const struct ss_geometry *g, uint32_t endurance,
		       uint64_t dram_bytes, int create)
{
	struct ss_emu_flash_opts o;
	char err[256];

	memset(&o, 0, sizeof(o));
	if (g != NULL) {
		o.geo = *g;
	}
	o.endurance = endurance;
	o.dram_bytes = dram_bytes;
	o.create = create;
	if (ss_emu_flash_open(t->path, &o, &t->flash, err, sizeof(err)) != 0) {
		fprintf(stderr, "fatal: ss_emu_flash_open %s: %s\n", t->path, err);
		exit(2);
	}
	t->hal = ss_emu_flash_hal(t->flash);
}

void ss_test_flash_create(struct ss_test_flash *t, const char *prefix,
			  const struct ss_geometry *g, uint32_t endurance, uint64_t dram_bytes)
{
	memset(t, 0, sizeof(*t));
	ss_test_tmpdir(t->dir, sizeof(t->dir), prefix);
	snprintf(t->path, sizeof(t->path), "%s/flash.img", t->dir);
	open_image(t, g, endurance, dram_bytes, 1);
}

void ss_test_flash_reopen(struct ss_test_flash *t, uint64_t dram_bytes)
{
	open_image(t, NULL, 0, dram_bytes, 0);
}

void ss_test_flash_close(struct ss_test_flash *t)
{
	ss_emu_flash_close(t->flash);
	t->flash = NULL;
	t->hal = NULL;
}

void ss_test_flash_destroy(struct ss_test_flash *t)
{
	if (t->flash != NULL) {
		ss_test_flash_close(t);
	}
	unlink(t->path);
	rmdir(t->dir);
}

void ss_test_dram_split(const struct ss_hal *hal, uint64_t first, void **a, uint64_t *a_size,
			void **b, uint64_t *b_size)
{
	first = (first + 63) & ~63ull;
	if (first >= hal->dram_size) {
		fprintf(stderr, "fatal: %llu bytes of DRAM wanted of %llu\n",
			(unsigned long long)first, (unsigned long long)hal->dram_size);
		exit(2);
	}
	*a = hal->dram;
	*a_size = first;
	*b = (uint8_t *)hal->dram + first;
	*b_size = hal->dram_size - first;
}
