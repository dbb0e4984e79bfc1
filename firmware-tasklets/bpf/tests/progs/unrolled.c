/* The sum of the four u16 at offsets 0, 2, 4, 6 and the xor of the bytes 8..15, computed
 * in an unrolled loop on the stack and emitted from it. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long unrolled(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			 unsigned char *out)
{
	ss_u64 res[2] = { 0, 0 };

#pragma clang loop unroll(full)
	for (int i = 0; i < 4; i++)
		res[0] += *(const ss_u16 *)(rec + 2 * i);
#pragma clang loop unroll(full)
	for (int i = 8; i < 16; i++)
		res[1] ^= rec[i];
	ss_emit(res, sizeof(res));
	return (long)res[0];
}
