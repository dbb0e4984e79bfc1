/* Reads the u32 at offset 12: beyond the shortest record, so checked at run time. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long tail(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
		     unsigned char *out)
{
	return *(const ss_u32 *)(rec + 12);
}
