/*
 * tenv on the real stack: the object store on the FTL on the emulated flash (a small
 * kang-smartssd image on tmpfs), with the ISP engine on the rest of the DRAM.
 */
#define _GNU_SOURCE
#include "ss_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_emu_flash.h"
#include "ss_ftl.h"
#include "ss_test_flash.h"
#include "tenv.h"

#define TENV_DRAM (64ull << 20)

struct tenv {
	struct ss_test_flash img;
	struct ss_emu_flash *flash;
	struct ss_hal *hal;
	struct ss_ftl *ftl;
	struct ss_objstore *os;
	struct ss_isp *isp;
	uint64_t now;
};

static void require(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "tenv: %s failed\n", what);
		exit(2);
	}
}

struct tenv *tenv_open(void)
{
	struct tenv *e = calloc(1, sizeof(*e));
	struct ss_ftl_params fp;
	struct ss_os_params op;
	uint8_t *dram;
	uint64_t left, need;

	const struct ss_geometry geo = { .channels = 4, .ways = 1, .blocks_per_die = 32,
					 .pages_per_block = 32, .page_size = 8192, .spare_size = 256 };

	ss_test_flash_create(&e->img, "ss_isp_ut", &geo, 0, TENV_DRAM);
	e->flash = e->img.flash;
	e->hal = ss_emu_flash_hal(e->flash);
	dram = e->hal->dram;
	left = e->hal->dram_size;

	need = SS_ALIGN_UP(ss_ftl_dram_needed(&e->hal->geo), 64);
	ss_ftl_default_params(&fp);
	require(need <= left && ss_ftl_format(&e->ftl, e->hal, dram, need, &fp) == 0, "ftl format");
	dram += need;
	left -= need;

	ss_os_default_params(e->ftl, &op);
	need = SS_ALIGN_UP(ss_os_dram_needed(&e->hal->geo, &op), 64);
	require(need <= left && ss_os_format(&e->os, e->ftl, dram, need, &op) == 0, "os format");
	dram += need;
	left -= need;

	need = ss_isp_dram_needed(&e->hal->geo);
	require(need <= left && ss_isp_init(&e->isp, e->os, e->hal, dram, need) == 0, "isp init");
	return e;
}

void tenv_close(struct tenv *e)
{
	ss_test_flash_destroy(&e->img);
	free(e);
}

struct ss_isp *tenv_isp(struct tenv *e)
{
	return e->isp;
}

struct ss_objstore *tenv_os(struct tenv *e)
{
	return e->os;
}

uint32_t tenv_page_size(struct tenv *e)
{
	return e->hal->geo.page_size;
}

static ss_oid_t create(struct tenv *e, const char *name, enum ss_obj_type type)
{
	ss_oid_t oid;
	int rc = ss_os_create(e->os, SS_OID_ROOT, name, (uint32_t)strlen(name), type, SS_OS_EXCL,
			      ++e->now, &oid);

	if (rc) {
		fprintf(stderr, "tenv: create %s: %d\n", name, rc);
		exit(2);
	}
	return oid;
}

ss_oid_t tenv_put(struct tenv *e, const char *name, const void *data, uint64_t len)
{
	ss_oid_t oid = create(e, name, SS_OBJ_FILE);
	const uint8_t *p = data;

	for (uint64_t off = 0; off < len;) {
		uint32_t n = (uint32_t)SS_MIN(len - off, 1u << 20);

		require(ss_os_write(e->os, oid, off, p + off, n, 0, ++e->now) == 0, "os write");
		off += n;
	}
	return oid;
}

ss_oid_t tenv_output(struct tenv *e, const char *name)
{
	return create(e, name, SS_OBJ_OUTPUT);
}

uint8_t *tenv_read(struct tenv *e, ss_oid_t oid, uint64_t *len)
{
	struct ss_obj_stat st;
	uint8_t *d;

	require(ss_os_stat(e->os, oid, &st) == 0, "os stat");
	d = malloc(st.size ? st.size : 1);
	for (uint64_t off = 0; off < st.size;) {
		uint32_t n = (uint32_t)SS_MIN(st.size - off, 1u << 20), got = 0;

		require(ss_os_read(e->os, oid, off, d + off, n, &got) == 0 && got == n, "os read");
		off += n;
	}
	*len = st.size;
	return d;
}

uint64_t tenv_page_lba(struct tenv *e, ss_oid_t oid, uint64_t page)
{
	uint32_t ps = e->hal->geo.page_size;
	struct ss_extent ext[4];
	int n = ss_os_extents(e->os, oid, page * ps, ps, ext, 4);

	require(n >= 0, "os extents");
	for (int i = 0; i < n; i++) {
		if (page * ps >= ext[i].offset && page * ps < ext[i].offset + (uint64_t)ext[i].pages * ps) {
			return ((uint64_t)ext[i].lpn + (page * ps - ext[i].offset) / ps) * (ps / 512);
		}
	}
	return SS_ISP_LBA_NONE;
}

struct ss_isp_progress tenv_run(struct tenv *e, uint32_t inst, const struct ss_isp_input *in,
				uint32_t n)
{
	struct ss_isp_progress p;

	require(ss_isp_execute(e->isp, inst, in, n) == 0, "isp execute");
	while (ss_isp_run_slice(e->isp, 256)) {
	}
	require(ss_isp_poll(e->isp, inst, &p) == 0, "isp poll");
	return p;
}

void tenv_isp_counts(struct tenv *e, struct tenv_isp_counts *c)
{
	struct ss_emu_counters k;

	ss_emu_flash_get_counters(e->flash, &k);
	c->insn = k.isp_instructions;
	c->dram = k.isp_dram_accesses;
	c->pages = k.isp_pages;
}
