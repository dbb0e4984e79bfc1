/* Refused at load: DIV_BY_ZERO, a division by the host's argument, which may be 0. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	return ctx->arg[0] / ctx->arg[1];
}
