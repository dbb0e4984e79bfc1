#define _GNU_SOURCE
#include "ftl_test_env.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_rt.h"

#define FTE_DRAM (64ull << 20)
#define PAGE_MAGIC 0x54534554u

struct ss_geometry fte_geo(uint32_t bpd, uint32_t ppb)
{
	struct ss_geometry g = {
		.channels = 4, .ways = 1, .blocks_per_die = bpd, .pages_per_block = ppb,
		.page_size = 2048, .spare_size = 64, .overprovision_permille = 70,
	};
	return g;
}

void fte_create(struct fte *e, const struct ss_geometry *g, uint32_t endurance)
{
	memset(e, 0, sizeof(*e));
	ss_test_flash_create(&e->img, "ss_ftl_ut", g, endurance, FTE_DRAM);
	e->flash = e->img.flash;
	e->hal = e->img.hal;
}

void fte_reopen(struct fte *e)
{
	ss_test_flash_reopen(&e->img, FTE_DRAM);
	e->flash = e->img.flash;
	e->hal = e->img.hal;
	e->ftl = NULL;
}

void fte_close(struct fte *e)
{
	ss_test_flash_close(&e->img);
	e->flash = NULL;
	e->hal = NULL;
	e->ftl = NULL;
}

void fte_destroy(struct fte *e)
{
	ss_test_flash_destroy(&e->img);
	e->flash = NULL;
	e->hal = NULL;
}

static int f_read(void *ctx, uint32_t ppn, void *data, void *spare)
{
	struct fte_fault *x = ctx;

	return ss_hal_page_read(x->inner, ppn, data, spare);
}

static int f_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	struct fte_fault *x = ctx;
	unsigned long long idx = x->programs++;

	if (x->cut || (x->cut_after >= 0 && (long long)idx >= x->cut_after)) {
		x->cut = 1;
		return 0;   /* the FTL never learns: power is gone */
	}
	if ((long long)idx == x->corrupt_program) {
		static uint8_t copy[1 << 16];

		memcpy(copy, data, x->inner->geo.page_size);
		copy[x->inner->geo.page_size / 2] ^= 0x40;
		return ss_hal_page_program(x->inner, ppn, copy, spare);
	}
	return ss_hal_page_program(x->inner, ppn, data, spare);
}

static int f_erase(void *ctx, uint32_t block)
{
	struct fte_fault *x = ctx;

	return x->cut ? 0 : ss_hal_block_erase(x->inner, block);
}

static int f_sync(void *ctx)
{
	struct fte_fault *x = ctx;

	return x->cut ? 0 : ss_hal_sync(x->inner);
}

static void f_barrier(void *ctx)
{
	struct fte_fault *x = ctx;

	ss_hal_barrier(x->inner);
}

static void f_timeline(void *ctx, enum ss_hal_timeline tl)
{
	struct fte_fault *x = ctx;

	ss_hal_set_timeline(x->inner, tl);
}

static void f_isp(void *ctx, uint64_t i, uint64_t d, uint64_t p)
{
	struct fte_fault *x = ctx;

	ss_hal_isp_account(x->inner, i, d, p);
}

static uint64_t f_now(void *ctx)
{
	struct fte_fault *x = ctx;

	return ss_hal_now_ns(x->inner);
}

void fte_wrap(struct fte *e)
{
	struct fte_fault *x = &e->fault;
	struct ss_hal *in = ss_emu_flash_hal(e->flash);

	memset(x, 0, sizeof(*x));
	x->inner = in;
	x->cut_after = -1;
	x->corrupt_program = -1;
	x->ops = (struct ss_hal_ops){ .page_read = f_read, .page_program = f_program,
				      .block_erase = f_erase, .sync = f_sync, .barrier = f_barrier,
				      .set_timeline = f_timeline, .isp_account = f_isp,
				      .now_ns = f_now };
	x->hal = *in;
	x->hal.ops = &x->ops;
	x->hal.ctx = x;
	e->hal = &x->hal;
}

int fte_format(struct fte *e, const struct ss_ftl_params *p)
{
	return ss_ftl_format(&e->ftl, e->hal, e->hal->dram, e->hal->dram_size, p);
}

int fte_mount(struct fte *e)
{
	return ss_ftl_mount(&e->ftl, e->hal, e->hal->dram, e->hal->dram_size);
}

uint64_t fte_rand(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

void fte_fill(uint8_t *buf, uint32_t page_size, uint32_t lpn, uint64_t version)
{
	uint64_t s = ((uint64_t)lpn << 32) ^ version ^ 0xA5A5A5A55A5A5A5Aull;

	if (version == 0) {
		memset(buf, 0, page_size);
		return;
	}
	for (uint32_t i = 16; i < page_size; i += 8) {
		uint64_t r = fte_rand(&s);

		memcpy(buf + i, &r, SS_MIN(8u, page_size - i));
	}
	ss_put_le32(buf, PAGE_MAGIC);
	ss_put_le32(buf + 4, lpn);
	ss_put_le64(buf + 8, version);
}

long long fte_classify(const uint8_t *buf, uint32_t page_size, uint32_t lpn)
{
	static uint8_t want[1 << 16];
	uint64_t version;
	uint32_t i;

	for (i = 0; i < page_size && buf[i] == 0; i++) {
	}
	if (i == page_size) {
		return 0;
	}
	if (ss_get_le32(buf) != PAGE_MAGIC || ss_get_le32(buf + 4) != lpn) {
		return -1;
	}
	version = ss_get_le64(buf + 8);
	fte_fill(want, page_size, lpn, version);
	return memcmp(want, buf, page_size) == 0 && version > 0 ? (long long)version : -1;
}
