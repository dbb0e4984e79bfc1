/*
 * grep / line count over TEXT layouts: counts lines and lines containing a byte string,
 * optionally writing the matching lines (builtin_tasklets.h).
 */
#include "tasklets_internal.h"

struct grep {
	bool emit;
	uint16_t plen;
	const uint8_t *pat;
	uint8_t delim;
	uint64_t lines;
	uint64_t matches;
	uint64_t items;
};

static int grep_init(struct ss_tasklet_ctx *ctx, const uint8_t *p, uint32_t len)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	struct grep *g;

	if (len < sizeof(struct ss_bt_grep_params) || !l || l->kind != SS_LAYOUT_TEXT) {
		return -SS_EINVAL;
	}
	g = ss_tasklet_alloc(ctx, sizeof(*g));
	if (!g) {
		return -SS_ENOMEM;
	}
	g->emit = (p[0] & SS_BT_GREP_EMIT) != 0;
	g->plen = ss_get_le16(p + 2);
	g->pat = p + sizeof(struct ss_bt_grep_params);
	g->delim = l->line_delim;
	if ((p[0] & ~SS_BT_GREP_EMIT) || p[1] || g->plen > SS_BT_GREP_MAX_PATTERN ||
	    len != sizeof(struct ss_bt_grep_params) + (uint32_t)g->plen) {
		return -SS_EINVAL;
	}
	ss_tasklet_set_state(ctx, g);
	return 0;
}

/* Does the line hold the pattern? *work counts byte comparisons. */
static bool line_has(const struct grep *g, const uint8_t *s, uint32_t n, uint64_t *work)
{
	if (!g->plen) {
		return true;
	}
	for (uint32_t i = 0; i + g->plen <= n; i++) {
		uint32_t k = 0;

		while (k < g->plen && s[i + k] == g->pat[k]) {
			k++;
		}
		*work += k + 1;
		if (k == g->plen) {
			return true;
		}
	}
	return false;
}

static int grep_records(struct ss_tasklet_ctx *ctx, const struct ss_record *r, uint32_t n)
{
	struct grep *g = ss_tasklet_state(ctx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t work = 1;
		bool hit = line_has(g, r[i].data, r[i].len, &work);

		g->lines++;
		if (g->plen) {
			ss_tasklet_dram(ctx, SS_DIV_ROUND_UP(r[i].len, 4));
		}
		if (ss_tasklet_step(ctx, (uint32_t)SS_MIN(work, UINT32_MAX))) {
			return -SS_ETIME;
		}
		if (!hit) {
			continue;
		}
		g->matches++;
		if (g->emit) {
			int rc = ss_tasklet_emit(ctx, r[i].data, r[i].len);

			if (!rc) {
				rc = ss_tasklet_emit(ctx, &g->delim, 1);
			}
			if (rc) {
				return rc;
			}
			g->items++;
		}
	}
	return 0;
}

static int grep_finish(struct ss_tasklet_ctx *ctx)
{
	struct grep *g = ss_tasklet_state(ctx);

	return bt_emit_trailer(ctx, SS_BT_GREP, g->lines, g->items, g->matches);
}

const struct ss_tasklet_desc ss_bt_grep = {
	.name = "grep",
	.id = SS_BT_GREP,
	.init = grep_init,
	.on_records = grep_records,
	.finish = grep_finish,
};
