/* The built-in group-aggregate's COUNT, SUM, MIN, MAX of layout field 1 grouped by field 0. */
#include "tasklet/ss_tasklet_bpf.h"

SS_TASKLET long isp_group(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			  unsigned char *out)
{
	return ss_group_add(ss_layout_field(0), (ss_s64)ss_layout_field(1));
}
