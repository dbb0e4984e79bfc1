/* Refused at load: TOO_BIG, 4200 instructions (at most 4096). */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	asm volatile(".rept 4200\n r0 += 1\n .endr" ::: "r0");
	return 0;
}
