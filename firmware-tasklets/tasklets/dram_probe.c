/*
 * dram-probe: the micro-benchmark of Kang Fig. 6.6. Per input page, N counted 4-byte
 * loads from the page, each compared with a constant; the model charges every load, so
 * modelled device time grows with N while the host would not notice.
 */
#include "tasklets_internal.h"

struct probe {
	uint32_t accesses;
	uint32_t compare;
	uint64_t pages;
	uint64_t matches;
};

static int probe_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	struct probe *pr;

	if (len != sizeof(struct ss_bt_probe_params) ||
	    ss_get_le32(p) > SS_BT_PROBE_MAX_ACCESSES) {
		return -SS_EINVAL;
	}
	pr = ss_tasklet_alloc(ctx, sizeof(*pr));
	if (!pr) {
		return -SS_ENOMEM;
	}
	pr->accesses = ss_get_le32(p);
	pr->compare = ss_get_le32(p + 4);
	ss_tasklet_set_state(ctx, pr);
	return 0;
}

static int probe_page(struct ss_tasklet_ctx *ctx, const uint8_t *page, uint32_t len, uint64_t lba)
{
	struct probe *pr = ss_tasklet_state(ctx);
	uint32_t words = len / 4;
	uint32_t w = 0;

	pr->pages++;
	if (!words) {
		return 0;
	}
	/* one compare per load; the loads count themselves */
	if (ss_tasklet_step(ctx, pr->accesses)) {
		return -SS_ETIME;
	}
	for (uint32_t i = 0; i < pr->accesses; i++) {
		if (ss_load32(ctx, page + 4 * w) == pr->compare) {
			pr->matches++;
		}
		if (++w == words) {
			w = 0;
		}
	}
	return 0;
}

static int probe_finish(struct ss_tasklet_ctx *ctx)
{
	struct probe *pr = ss_tasklet_state(ctx);

	return bt_emit_trailer(ctx, SS_BT_DRAM_PROBE, pr->pages, 0, pr->matches);
}

const struct ss_tasklet_desc ss_bt_dram_probe = {
	.name = "dram-probe",
	.id = SS_BT_DRAM_PROBE,
	.init = probe_init,
	.on_page = probe_page,
	.finish = probe_finish,
};
