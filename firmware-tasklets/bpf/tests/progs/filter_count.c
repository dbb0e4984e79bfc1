/* Count the records whose s64 at offset 8 is above ctx->arg[0] (the count in out[0..8)),
 * emit the u32 key at offset 0 of each, and return 1 for them. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long filter_count(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			     unsigned char *out)
{
	ss_s64 v = *(const ss_s64 *)(rec + 8);

	if (v <= (ss_s64)ctx->arg[0])
		return 0;
	*(ss_u64 *)out += 1;
	ss_emit(rec, 4);
	return 1;
}
