/*
 * Sharing one flash between the FTL (and the object store on it) and the solid-state
 * cache: a partition label, written at format time, splits every die's blocks into an FTL
 * part and a cache part, and each layer runs on a HAL view that shows it only its own
 * blocks. Dies stay whole in both views (a view keeps every channel and way), so each
 * layer still stripes over all of them.
 *
 *   rows 0 .. ftl_rows-1                      the FTL's blocks (view block b = block b)
 *   rows ftl_rows .. ftl_rows+ssc_rows-1      the cache's blocks
 *   the last row                              the label (two copies), nothing else
 * A row is one block of every die. Changing the share means formatting both parts again.
 */
#ifndef SS_SSC_PART_H
#define SS_SSC_PART_H

#include <stdint.h>

#include "ss_hal.h"

#define SS_SSC_SHARE_DEFAULT_PERMILLE 250u  /* a freshly formatted drive: 25 % cache */
#define SS_SSC_SHARE_MAX_PERMILLE 900u

struct ss_ssc_part {
	uint32_t share_permille;  /* of the blocks outside the label row */
	uint32_t ftl_rows;
	uint32_t ssc_rows;
};

/* A HAL that shows `rows` rows of blocks from `first_row` of another HAL. */
struct ss_hal_view {
	struct ss_hal hal;        /* what the layer runs on */
	struct ss_hal_ops ops;
	struct ss_hal *parent;
	uint32_t block_offset;
	uint32_t page_offset;
};

/** The split a share gives on a geometry.
 *  \return 0, -SS_EINVAL when the share is above SS_SSC_SHARE_MAX_PERMILLE or leaves a part
 *          with no row (a share of 0 gives the cache nothing, and is valid). */
int ss_ssc_part_plan(const struct ss_geometry *g, uint32_t share_permille,
		     struct ss_ssc_part *out);

/**
 * Erase the label row and write the label. Both parts must be formatted afterwards.
 * `scratch` holds page_size + spare_size bytes.
 * \return 0, -SS_EINVAL, -SS_EIO.
 */
int ss_ssc_part_format(struct ss_hal *hal, uint32_t share_permille, void *scratch,
		       struct ss_ssc_part *out);

/** Read the label. \return 0, -SS_ENODATA when there is none (no copy carries its magic:
 *  erased, or a flash formatted without a cache), -SS_EBADMSG when it does
 *  not fit this geometry, -SS_EIO. */
int ss_ssc_part_read(struct ss_hal *hal, void *scratch, struct ss_ssc_part *out);

/** The two views of a partitioned HAL. The views borrow the parent's DRAM arena fields;
 *  the caller splits the arena between the layers. A part with no row gets no view
 *  (its blocks_per_die is 0). */
void ss_ssc_part_views(struct ss_hal *hal, const struct ss_ssc_part *p,
		       struct ss_hal_view *ftl_view, struct ss_hal_view *ssc_view);

#endif
