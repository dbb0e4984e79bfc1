/*
 * The cache engine of a firmware built without the solid-state cache: the Jasmine image
 * (cross/arm7tdmi.sh), whose 96 KB of SRAM cannot hold the cache beside the object store,
 * the tasklet engine and the DRAM buffer. The partition label (ssc_part.c) stays real, so
 * that such a firmware reads a label and refuses to mount a flash whose cache part it
 * cannot serve, instead of letting the FTL take the cache's blocks. Everything else
 * answers as for a geometry the cache cannot run on: no DRAM, so a format asked for the
 * default share makes no cache part, and any other use fails with -SS_ENOSYS.
 */
#include "ss_rt.h"
#include "ss_ssc.h"

void ss_ssc_default_params(struct ss_ssc_params *p, enum ss_ssc_policy policy)
{
	ss_memset(p, 0, sizeof(*p));
	p->policy = policy;
}

uint64_t ss_ssc_dram_needed(const struct ss_geometry *geo, const struct ss_ssc_params *p)
{
	(void)geo;
	(void)p;
	return 0;
}

int ss_ssc_format(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
		  const struct ss_ssc_params *p)
{
	(void)hal, (void)dram, (void)dram_size, (void)p;
	*out = NULL;
	return -SS_ENOSYS;
}

int ss_ssc_image_version(struct ss_hal *hal, void *dram, uint64_t dram_size, uint32_t *version)
{
	(void)hal, (void)dram, (void)dram_size, (void)version;
	return -SS_ENOSYS;
}

int ss_ssc_mount(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size)
{
	(void)hal, (void)dram, (void)dram_size;
	*out = NULL;
	return -SS_ENOSYS;
}

int ss_ssc_unmount(struct ss_ssc *c)
{
	(void)c;
	return 0;
}

uint32_t ss_ssc_block_size(const struct ss_ssc *c)
{
	(void)c;
	return 0;
}

int ss_ssc_write_dirty(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	(void)c, (void)lba, (void)buf;
	return -SS_ENOSYS;
}

int ss_ssc_write_clean(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	(void)c, (void)lba, (void)buf;
	return -SS_ENOSYS;
}

int ss_ssc_read(struct ss_ssc *c, uint64_t lba, void *buf)
{
	(void)c, (void)lba, (void)buf;
	return -SS_ENOSYS;
}

int ss_ssc_evict(struct ss_ssc *c, uint64_t lba)
{
	(void)c, (void)lba;
	return -SS_ENOSYS;
}

int ss_ssc_clean(struct ss_ssc *c, uint64_t lba)
{
	(void)c, (void)lba;
	return -SS_ENOSYS;
}

int ss_ssc_clean_range(struct ss_ssc *c, uint64_t lba, uint64_t count)
{
	(void)c, (void)lba, (void)count;
	return -SS_ENOSYS;
}

int ss_ssc_exists(const struct ss_ssc *c, uint64_t lba, uint32_t count, uint8_t *bitmap)
{
	(void)c, (void)lba, (void)count, (void)bitmap;
	return -SS_ENOSYS;
}

int ss_ssc_flush(struct ss_ssc *c)
{
	(void)c;
	return 0;
}

void ss_ssc_get_stats(const struct ss_ssc *c, struct ss_ssc_stats *st)
{
	(void)c;
	ss_memset(st, 0, sizeof(*st));
}

uint32_t ss_ssc_write_amplification_milli(const struct ss_ssc *c)
{
	(void)c;
	return 0;
}

void ss_ssc_get_params(const struct ss_ssc *c, struct ss_ssc_params *p)
{
	(void)c;
	ss_memset(p, 0, sizeof(*p));
}

bool ss_ssc_present(const struct ss_ssc *c, uint64_t lba)
{
	(void)c, (void)lba;
	return false;
}
