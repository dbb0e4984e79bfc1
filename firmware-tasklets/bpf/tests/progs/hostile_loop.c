/* Refused at load: BACK_EDGE, a loop bounded only by the host's argument. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	for (ss_u64 i = 0; i < ctx->arg[0]; i++)
		*(ss_u64 *)out += i;
	return 0;
}
