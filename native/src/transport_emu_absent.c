#include <errno.h>

#include "errinfo.h"
#include "transport.h"

int ss_transport_emu_open(const char *path, struct ss_transport **out)
{
	return ss_err(-ENOTSUP, 0, "emu %s: libsmartssd was built without the emulator", path);
}

int ss_transport_emu_format(const char *path, const char *profile, uint64_t capacity_bytes,
			    const struct ss_format_opts *fo)
{
	(void)profile;
	(void)capacity_bytes;
	(void)fo;
	return ss_err(-ENOTSUP, 0, "emu %s: libsmartssd was built without the emulator", path);
}

const char *ss_transport_emu_profile_name(size_t i)
{
	(void)i;
	return NULL;
}
