/* Refused at load: STACK_LIMIT, a store 520 bytes below the frame pointer (the stack is 512). */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	asm volatile("r1 = 1\n *(u64 *)(r10 - 520) = r1" ::: "r1");
	return 0;
}
