/* The byte at the index ctx->arg[0] of the record, when it is below 16; the verifier needs
 * the bound to accept the load. And a byte swap of the u32 at 0 (big-endian keys). */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long byte_at(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	ss_u32 i = (ss_u32)ctx->arg[0];
	ss_u32 key = __builtin_bswap32(*(const ss_u32 *)rec);

	*(ss_u32 *)(out + 4) = key;
	if (i >= 16)
		return -1;
	return rec[i];
}
