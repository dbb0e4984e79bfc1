#include <errno.h>

#include "errinfo.h"
#include "transport.h"

int ss_transport_emu_open(const char *path, struct ss_transport **out)
{
	return ss_err(-ENOTSUP, 0, "emu %s: libsmartssd was built without the emulator", path);
}
