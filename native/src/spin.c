/*
 * SMARTSSD_SPIN_US, the one setting of how long a waiting side polls before it sleeps:
 * the unix: transport's reader waiting for its reply, and the emu: drive's controller and
 * submitters waiting for each other. The wake-up of a thread that slept on another CPU is
 * most of a round trip on a virtual machine; a bounded poll saves it while work is in
 * flight and costs nothing while none is.
 */
#include <errno.h>
#include <stdlib.h>

#include "ss_devd_frame.h"
#include "ss_transport_provider.h"

int ss_spin_setting(const char *scheme, const char *path, uint32_t *us)
{
	const char *v = getenv("SMARTSSD_SPIN_US");

	*us = SS_SPIN_US_DEFAULT;
	if (v && ss_spin_us_parse(v, us) != 0)
		return ss_err(-EINVAL, 0, "%s %s: SMARTSSD_SPIN_US is microseconds from 0 to %u, "
			      "not '%s'", scheme, path, SS_SPIN_US_MAX, v);
	return 0;
}
