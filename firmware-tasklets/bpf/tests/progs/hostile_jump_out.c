/* Refused at load: JUMP_OUT, a jump past the program's end. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	asm volatile("r0 = 0\n goto +40\n exit" ::: "r0");
	return 0;
}
