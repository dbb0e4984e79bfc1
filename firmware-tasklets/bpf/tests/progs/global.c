/* Hostile to the loader: a global variable needs a relocation. Refused. */
#include "tasklet/ss_tasklet_bpf.h"

static ss_u64 seen;

SS_TASKLET long global(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
		       unsigned char *out)
{
	return (long)++seen;
}
