/*
 * The reason code that goes with an errno when no opcode knows better (PROTOCOL.md,
 * "Status and reason"). Opcode handlers override it where an errno is ambiguous.
 */
#include "cmd_internal.h"

static const struct {
	int err;
	uint32_t reason;
} reason_map[] = {
	{ SS_ENOENT, SS_R_NO_SUCH_OBJECT },
	{ SS_EEXIST, SS_R_EXISTS },
	{ SS_ENOTDIR, SS_R_NOT_DIR },
	{ SS_EISDIR, SS_R_IS_DIR },
	{ SS_ENOTEMPTY, SS_R_NOT_EMPTY },
	{ SS_ENAMETOOLONG, SS_R_NAME_TOO_LONG },
	{ SS_ENOSPC, SS_R_DRIVE_FULL },
	{ SS_EFBIG, SS_R_BAD_FIELD },
	{ SS_EIO, SS_R_MEDIA_ERROR },
	{ SS_EBADMSG, SS_R_MEDIA_ERROR },
	{ SS_EAGAIN, SS_R_BUSY },
	{ SS_EBUSY, SS_R_BUSY },
	{ SS_ENOMEM, SS_R_TASKLET_BUDGET },
	{ SS_ETIME, SS_R_TASKLET_STEPS },
	{ SS_ETIMEDOUT, SS_R_TASKLET_WATCHDOG },
	{ SS_ERANGE, SS_R_BAD_FIELD },
	{ SS_EINVAL, SS_R_BAD_FIELD },
	{ SS_EOVERFLOW, SS_R_BAD_FIELD },
	{ SS_E2BIG, SS_R_BAD_LENGTH },
	{ SS_EPERM, SS_R_ROOT },
};

uint32_t fw_reason(int err)
{
	if (err < 0) {
		err = -err;
	}
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(reason_map); i++) {
		if (reason_map[i].err == err) {
			return reason_map[i].reason;
		}
	}
	return err == 0 ? SS_R_OK : SS_R_BAD_FIELD;
}

void fw_rep_error(struct fw_rep *rep, int err, uint32_t reason)
{
	if (err > 0) {
		err = -err;
	}
	rep->status = err;
	rep->reason = reason ? reason : fw_reason(err);
	rep->payload_len = 0;
}
