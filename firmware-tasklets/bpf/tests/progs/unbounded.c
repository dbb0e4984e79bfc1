/* Hostile: indexes the record by an argument nobody checked. Refused. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long unbounded(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			  unsigned char *out)
{
	return rec[ctx->arg[0]];
}
