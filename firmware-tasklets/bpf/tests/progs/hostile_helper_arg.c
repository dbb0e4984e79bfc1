/* Refused at load: HELPER_ARG, ss_emit of a length the host chooses. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	return ss_emit(rec, ctx->arg[0]);
}
