/* Group by the u32 at offset 0, summing the s64 at offset 8; keep the top values too. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long group_sum(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			  unsigned char *out)
{
	ss_u32 key = *(const ss_u32 *)rec;
	ss_s64 v = *(const ss_s64 *)(rec + 8);

	ss_topn_push(v, ctx->rec_index);
	return ss_group_add(key, v);
}
