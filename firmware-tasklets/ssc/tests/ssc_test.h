/* Shared by the cache's tests: the FTL tests' emulated-flash environment (ftl_test_env),
 * content tags for 64-bit block addresses, and format/mount on the image's DRAM. */
#ifndef SSC_TEST_H
#define SSC_TEST_H

#include "ftl_test_env.h"
#include "ss_ssc.h"

#define ST_PAGE 2048u

/* The content tag of a backing block: fte_fill's 32-bit tag folded from the address. */
static inline uint32_t st_tag(uint64_t lba)
{
	return (uint32_t)lba ^ (uint32_t)(lba >> 32);
}

static inline void st_fill(uint8_t *buf, uint64_t lba, uint64_t version)
{
	fte_fill(buf, ST_PAGE, st_tag(lba), version);
}

/** \return the version `buf` holds for lba, or -1 when it is anything else. */
static inline long long st_classify(const uint8_t *buf, uint64_t lba)
{
	return fte_classify(buf, ST_PAGE, st_tag(lba));
}

static inline int st_format(struct fte *e, struct ss_ssc **c, const struct ss_ssc_params *p)
{
	return ss_ssc_format(c, e->hal, e->hal->dram, e->hal->dram_size, p);
}

static inline int st_mount(struct fte *e, struct ss_ssc **c)
{
	return ss_ssc_mount(c, e->hal, e->hal->dram, e->hal->dram_size);
}

#endif
