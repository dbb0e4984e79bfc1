/* tenv over the fake store and HAL (fake_store.h). */
#include "ss_check.h"
#include <stdlib.h>
#include <string.h>

#include "fake_store.h"
#include "tenv.h"

#define TENV_FAKE_PS 512u

struct tenv {
	struct fake_store *fs;
	struct ss_isp *isp;
	void *arena;
};

struct tenv *tenv_open(void)
{
	struct tenv *e = calloc(1, sizeof(*e));
	uint64_t need;

	e->fs = fake_store_new(TENV_FAKE_PS);
	need = ss_isp_dram_needed(&e->fs->hal.geo);
	e->arena = malloc(need);
	CHECK(ss_isp_init(&e->isp, fake_store_os(e->fs), &e->fs->hal, e->arena, need) == 0);
	return e;
}

void tenv_close(struct tenv *e)
{
	fake_store_free(e->fs);
	free(e->arena);
	free(e);
}

struct ss_isp *tenv_isp(struct tenv *e)
{
	return e->isp;
}

struct ss_objstore *tenv_os(struct tenv *e)
{
	return fake_store_os(e->fs);
}

uint32_t tenv_page_size(struct tenv *e)
{
	return TENV_FAKE_PS;
}

ss_oid_t tenv_put(struct tenv *e, const char *name, const void *data, uint64_t len)
{
	return fake_store_put(e->fs, data, len, 0);
}

ss_oid_t tenv_output(struct tenv *e, const char *name)
{
	return fake_store_output(e->fs);
}

uint8_t *tenv_read(struct tenv *e, ss_oid_t oid, uint64_t *len)
{
	const uint8_t *d = fake_store_data(e->fs, oid, len);
	uint8_t *c = malloc(*len ? *len : 1);

	memcpy(c, d, *len);
	return c;
}

uint64_t tenv_page_lba(struct tenv *e, ss_oid_t oid, uint64_t page)
{
	return (uint64_t)fake_store_lpn(oid, page) * (TENV_FAKE_PS / 512);
}

struct ss_isp_progress tenv_run(struct tenv *e, uint32_t inst, const struct ss_isp_input *in,
				uint32_t n)
{
	struct ss_isp_progress p;

	CHECK(ss_isp_execute(e->isp, inst, in, n) == 0);
	while (ss_isp_run_slice(e->isp, 256)) {
	}
	CHECK(ss_isp_poll(e->isp, inst, &p) == 0);
	return p;
}

void tenv_isp_counts(struct tenv *e, struct tenv_isp_counts *c)
{
	c->insn = e->fs->log.insn;
	c->dram = e->fs->log.dram;
	c->pages = e->fs->log.pages;
}
