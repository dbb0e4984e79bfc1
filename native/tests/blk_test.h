/*
 * The block target's fixtures: an open-channel drive of 4 channels x 2 ways (8 PUs) x
 * blocks_per_die blocks of 32 pages of 8 KiB (16-sector write units: 2 blocks of 4 KiB;
 * 512-sector chunks: 64 blocks), and a block's contents: every 8-byte word (lba << 32 |
 * version), so that what a block holds names which write put it there.
 */
#ifndef SS_NATIVE_BLK_TEST_H
#define SS_NATIVE_BLK_TEST_H

#include "devtest.h"
#include "ss_proto.h"
#include "smartssd/blk.h"

static inline int blktest_format(struct devtest *t, uint32_t blocks_per_die)
{
	struct ss_emu_drive_opts o;
	char err[256] = "";
	int rc;

	rc = devtest_format_geo(t, 0, blocks_per_die);
	if (rc)
		return rc;
	memset(&o, 0, sizeof(o));
	o.flash.geo = (struct ss_geometry){ .channels = 4, .ways = 2,
					    .blocks_per_die = blocks_per_die,
					    .pages_per_block = 32, .page_size = 8192,
					    .spare_size = 256 };
	o.interface = SS_IFACE_OPEN_CHANNEL;
	rc = ss_emu_format(t->image, &o, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "format %s: %s\n", t->image, err);
	return rc;
}

static inline void blktest_fill(uint8_t *p, uint64_t lba, uint32_t ver)
{
	uint64_t w = lba << 32 | ver;

	for (uint32_t i = 0; i < SS_BLK_BLOCK; i += 8)
		memcpy(p + i, &w, 8);
}

/* The version a block read for lba holds: 0 for zeros, -1 for anything else. */
static inline long long blktest_version(const uint8_t *p, uint64_t lba)
{
	uint64_t w;

	memcpy(&w, p, 8);
	for (uint32_t i = 8; i < SS_BLK_BLOCK; i += 8)
		if (memcmp(p + i, &w, 8) != 0)
			return -1;
	if (w == 0)
		return 0;
	return w >> 32 == lba ? (long long)(uint32_t)w : -1;
}

#endif
