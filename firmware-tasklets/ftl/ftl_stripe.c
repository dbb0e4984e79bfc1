/*
 * Striping of the write streams over the dies. A real controller spreads consecutive
 * pages over its channels and dies so a sequential read keeps them all busy; here each
 * stream writes round-robin over `width` lanes with one open block each (see
 * ftl_internal.h). The width is a function of the geometry alone, so format and every
 * mount agree on the reserve it implies.
 */
#include "ftl_internal.h"

/* Open blocks (every stream's lanes) may take at most 1/this of the blocks: they count
 * against capacity, since their unwritten pages cannot be reclaimed. */
#define STRIPE_OPEN_SHARE 8u

uint32_t ftl_open_blocks_max(uint32_t width)
{
	return FTL_STREAMS * width;
}

/* Lanes narrower than the channel count may take up to 1/this of the blocks instead, so
 * that a stream still has a lane on every channel. */
#define STRIPE_CHANNEL_SHARE 6u

/* All dies when the geometry can afford an open block per die and stream, else the
 * largest divisor of the die count that it can: lanes then take every width-th die, which
 * still puts neighbouring lanes on different channels. But never fewer lanes than
 * channels while the blocks allow it: a lane fills one block, on one die, with every
 * width-th page of its stream, so with 8 lanes on 16 channels a 128-page scan batch read
 * 16 pages from each of 8 dies, one after another on each (tR, then the transfer, the die
 * held), and half the channels idle. The scan was then bound by those dies rather than by
 * the ISP core, and its rate followed where the object's pages fell (and how many the
 * DRAM buffer still held), not its size (benchmarks/README.md, run-scale.sh). */
uint32_t ftl_stripe_width(const struct ss_geometry *g)
{
	uint32_t dies = ss_geo_dies(g);
	uint64_t blocks = ss_geo_blocks(g);
	uint64_t limit = blocks / (STRIPE_OPEN_SHARE * FTL_STREAMS);
	uint32_t w = (uint32_t)SS_MIN((uint64_t)dies, limit);

	if (w < g->channels && dies % g->channels == 0 &&
	    blocks / (STRIPE_CHANNEL_SHARE * FTL_STREAMS) >= g->channels) {
		return g->channels;
	}
	for (; w > 1; w--) {
		if (dies % w == 0) {
			return w;
		}
	}
	return 1;
}

/* `block` is no longer any stream's open block. */
void ftl_close_block(struct ss_ftl *f, uint32_t block)
{
	for (uint32_t i = 0; i < FTL_STREAMS * f->width; i++) {
		if (f->open[i] == block) {
			f->open[i] = FTL_NONE;
		}
	}
}

uint32_t ss_ftl_stripe_dies(const struct ss_ftl *ftl)
{
	return ftl->width;
}
