/* The built-in filter's `value > arg[0]` in RECORDS mode, over records whose layout field 1
 * is a signed value: emits each matching record whole, counts the matches in out[0..8). */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long isp_filter(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			   unsigned char *out)
{
	if ((ss_s64)ss_layout_field(1) <= (ss_s64)ctx->arg[0])
		return 0;
	*(ss_u64 *)out += 1;
	ss_emit(rec, 16);
	return 1;
}
