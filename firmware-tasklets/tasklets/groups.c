/*
 * The group table of group-aggregate and top-N: fixed capacity, sized from the memory
 * budget, open addressing with linear probing. Slots are handed out in order of arrival,
 * so emitting slots 0..n-1 emits groups in first-seen order.
 */
#include "tasklets_internal.h"

static uint32_t hash(uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9E3779B97F4A7C15ull ^ (k2 + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return (uint32_t)(h ^ (h >> 32));
}

int bt_groups_init(struct ss_tasklet_ctx *ctx, struct bt_groups *g, uint32_t cap)
{
	uint32_t entries = 2;

	while (entries < 2 * cap) {
		entries <<= 1;
	}
	g->k1 = ss_tasklet_alloc(ctx, cap * (uint32_t)sizeof(uint64_t));
	g->k2 = g->k1 ? ss_tasklet_alloc(ctx, cap * (uint32_t)sizeof(uint64_t)) : NULL;
	g->index = g->k2 ? ss_tasklet_alloc(ctx, entries * (uint32_t)sizeof(uint32_t)) : NULL;
	if (!g->index) {
		return -SS_ENOMEM;
	}
	g->mask = entries - 1;
	g->cap = cap;
	g->n = 0;
	return 0;
}

int64_t bt_groups_find(const struct bt_groups *g, uint64_t k1, uint64_t k2, uint32_t *pos,
		       uint32_t *probes)
{
	uint32_t i = hash(k1, k2) & g->mask;
	uint32_t n = 1;

	for (;; i = (i + 1) & g->mask, n++) {
		uint32_t s = g->index[i];

		if (!s) {
			break;
		}
		if (g->k1[s - 1] == k1 && g->k2[s - 1] == k2) {
			*probes = n;
			return s - 1;
		}
	}
	*pos = i;
	*probes = n;
	return g->n == g->cap ? -SS_ENOSPC : -1;
}

uint32_t bt_groups_insert(struct bt_groups *g, uint32_t pos, uint64_t k1, uint64_t k2)
{
	g->k1[g->n] = k1;
	g->k2[g->n] = k2;
	g->index[pos] = ++g->n;
	return g->n - 1;
}

int64_t bt_groups_get(struct ss_tasklet_ctx *ctx, struct bt_groups *g, uint64_t k1, uint64_t k2,
		      bool *fresh)
{
	uint32_t pos, probes;
	int64_t rc = bt_groups_find(g, k1, k2, &pos, &probes);

	*fresh = rc == -1;
	if (*fresh) {
		rc = bt_groups_insert(g, pos, k1, k2);
	}
	ss_tasklet_dram(ctx, BT_GROUPS_PROBE_DRAM * probes);
	if (ss_tasklet_step(ctx, BT_GROUPS_PROBE_STEPS * probes)) {
		return -SS_ETIME;
	}
	return rc;
}

void bt_groups_clear(struct ss_tasklet_ctx *ctx, struct bt_groups *g)
{
	ss_memset(g->index, 0, (g->mask + 1) * sizeof(uint32_t));
	ss_tasklet_dram(ctx, g->mask + 1);
	g->n = 0;
}

uint32_t bt_groups_fit(const struct ss_tasklet_ctx *ctx, uint32_t per_group, uint32_t max_groups)
{
	/* slack for the alignment of the arrays */
	uint32_t left = ss_tasklet_mem_left(ctx);
	uint64_t fit = left > 128 ? (left - 128) / ((uint64_t)per_group + BT_GROUPS_BYTES_PER_GROUP) : 0;

	if (fit > (1u << 24)) {
		fit = 1u << 24;
	}
	if (max_groups) {
		/* more than this cannot fit any budget; the allocation then fails as over budget */
		return max_groups > (1u << 24) ? 1u << 24 : max_groups;
	}
	return fit ? (uint32_t)fit : 1;
}
