/* Refused at load: JUMP_MID_LDDW, a jump into the second half of a wide instruction. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	asm volatile("r0 = 0\n goto +1\n r1 = 0x123456789 ll\n exit" ::: "r0", "r1");
	return 0;
}
