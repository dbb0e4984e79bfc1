/* The u64 field at the offset ctx->arg[1] (bounded here, checked again at run time against
 * the record's length), through the helper. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long field(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
		      unsigned char *out)
{
	ss_u64 off = ctx->arg[1];

	if (off > 8)
		return -1;
	return (long)ss_field(off, 8);
}
