/* The built-in filter's `value > arg[0]` in COUNT mode: the matches counted in out[0..8). */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long isp_count(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			  unsigned char *out)
{
	if ((ss_s64)ss_layout_field(1) <= (ss_s64)ctx->arg[0])
		return 0;
	*(ss_u64 *)out += 1;
	return 1;
}
