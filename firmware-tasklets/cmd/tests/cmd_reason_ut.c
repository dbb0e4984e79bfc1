/* The errno -> reason table of PROTOCOL.md ("Status and reason"). */
#include "cmd_internal.h"
#include "fixture.h"

static const struct {
	int err;
	uint32_t reason;
} table[] = {
	{ 0, SS_R_OK },
	{ -2, SS_R_NO_SUCH_OBJECT },      /* ENOENT */
	{ -17, SS_R_EXISTS },             /* EEXIST */
	{ -20, SS_R_NOT_DIR },            /* ENOTDIR */
	{ -21, SS_R_IS_DIR },             /* EISDIR */
	{ -39, SS_R_NOT_EMPTY },          /* ENOTEMPTY */
	{ -36, SS_R_NAME_TOO_LONG },      /* ENAMETOOLONG */
	{ -28, SS_R_DRIVE_FULL },         /* ENOSPC */
	{ -27, SS_R_BAD_FIELD },          /* EFBIG */
	{ -110, SS_R_TASKLET_WATCHDOG },  /* ETIMEDOUT */
	{ -5, SS_R_MEDIA_ERROR },         /* EIO */
	{ -74, SS_R_MEDIA_ERROR },        /* EBADMSG */
	{ -11, SS_R_BUSY },               /* EAGAIN */
	{ -16, SS_R_BUSY },               /* EBUSY */
	{ -12, SS_R_TASKLET_BUDGET },     /* ENOMEM */
	{ -62, SS_R_TASKLET_STEPS },      /* ETIME */
	{ -34, SS_R_BAD_FIELD },          /* ERANGE */
	{ -22, SS_R_BAD_FIELD },          /* EINVAL */
	{ -75, SS_R_BAD_FIELD },          /* EOVERFLOW */
	{ -7, SS_R_BAD_LENGTH },          /* E2BIG */
	{ -1, SS_R_ROOT },                /* EPERM */
	{ -38, SS_R_BAD_FIELD },          /* ENOSYS: anything else */
	{ 2, SS_R_NO_SUCH_OBJECT },       /* positive errno is taken as its negation */
};

int main(void)
{
	struct fw_rep rep;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		CHECK_EQ(fw_reason(table[i].err), table[i].reason);
	}
	memset(&rep, 0, sizeof(rep));
	rep.payload_len = 99;
	fw_rep_error(&rep, 2, 0);
	CHECK_EQ(rep.status, -2);
	CHECK_EQ(rep.reason, SS_R_NO_SUCH_OBJECT);
	CHECK_EQ(rep.payload_len, 0);
	fw_rep_error(&rep, -16, SS_R_ROOT);
	CHECK_EQ(rep.status, -16);
	CHECK_EQ(rep.reason, SS_R_ROOT);
	return fx_failures ? 1 : 0;
}
