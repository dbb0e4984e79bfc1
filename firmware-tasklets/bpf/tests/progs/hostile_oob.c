/* Refused at load: OUT_OF_BOUNDS, a store past the largest output buffer. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	out[5000] = 1;
	return 0;
}
