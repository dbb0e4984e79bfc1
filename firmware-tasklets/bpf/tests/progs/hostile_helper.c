/* Refused at load: UNKNOWN_HELPER, a call of helper 9, which the drive does not have. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long hostile(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			unsigned char *out)
{
	static long (*nope)(long) = (void *)9;

	return nope(1);
}
