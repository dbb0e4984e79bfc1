/*
 * Formatting a drive: the emulator's factory step for emu: images. A real drive (sg:) is
 * formatted by its vendor's tools, and a unix: drive by its daemon (smartssd-devd
 * --format), so both are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errinfo.h"
#include "smartssd/smartssd.h"
#include "transport.h"

#define FORMAT_PATH_MAX 4096

/* A decimal number of at most `max` in opt[0, n). \return 0, or -1 when it is not one. */
static int number(const char *opt, size_t n, unsigned long long max, unsigned long long *x)
{
	char v[32];
	char *end;

	if (n == 0 || n >= sizeof(v) || opt[0] < '0' || opt[0] > '9')
		return -1;
	memcpy(v, opt, n);
	v[n] = '\0';
	errno = 0;
	*x = strtoull(v, &end, 10);
	return *end == '\0' && !errno && *x <= max ? 0 : -1;
}

struct format_opts {
	uint32_t max_objects;
	uint32_t cache_share_permille;
};

/* One "key=value" option of an emu: URI's query. \return 0 or -EINVAL (message set). */
static int format_option(const char *uri, const char *opt, size_t n, struct format_opts *fo)
{
	unsigned long long x;

	if (n >= 12 && !strncmp(opt, "max_objects=", 12)) {
		if (number(opt + 12, n - 12, UINT32_MAX, &x) == 0) {
			fo->max_objects = (uint32_t)x;
			return 0;
		}
		return ss_err(-EINVAL, 0, "format %s: max_objects must be a number up to %u",
			      uri, UINT32_MAX);
	}
	if (n == 19 && !strncmp(opt, "cache_share=default", 19)) {
		fo->cache_share_permille = SS_DEV_CACHE_SHARE_DEFAULT;
		return 0;
	}
	if (n >= 12 && !strncmp(opt, "cache_share=", 12)) {
		if (number(opt + 12, n - 12, SS_DEV_CACHE_SHARE_MAX_PCT, &x) == 0) {
			fo->cache_share_permille = (uint32_t)x * 10;
			return 0;
		}
		return ss_err(-EINVAL, 0, "format %s: cache_share must be a percentage from 0 to %u "
			      "or 'default'",
			      uri, SS_DEV_CACHE_SHARE_MAX_PCT);
	}
	/* The open options are accepted, so the URI a drive is opened with formats it. */
	if ((n == 12 && !strncmp(opt, "time=virtual", n)) ||
	    (n == 13 && !strncmp(opt, "time=realtime", n)) ||
	    (n == 17 && (!strncmp(opt, "background=manual", n) ||
			 !strncmp(opt, "background=thread", n))))
		return 0;
	return ss_err(-EINVAL, 0, "format %s: unknown option '%.*s' (max_objects=N, "
		      "cache_share=PCT, time=..., background=...)",
		      uri, (int)n, opt);
}

int ss_dev_format(const char *uri, const char *profile, uint64_t capacity_bytes, char *err,
		  size_t errlen)
{
	char path[FORMAT_PATH_MAX];
	const char *p, *q;
	struct format_opts fo = { 0 };
	size_t n;
	int rc;

	ss_err_clear();
	if (err && errlen)
		err[0] = '\0';
	if (!uri) {
		rc = ss_err(-EINVAL, 0, "format: no device URI");
		goto out;
	}
	if (strncmp(uri, "emu:", 4)) {
		const char *colon = strchr(uri, ':');

		rc = colon && (!strncmp(uri, "unix:", 5) || !strncmp(uri, "sg:", 3))
			     ? ss_err(-ENOTSUP, 0, "format %s: only emulated drive images (emu:) "
				      "are formatted here; format a daemon's image with smartssd-devd "
				      "--format, a real drive with its vendor's tools", uri)
			     : ss_err(-EINVAL, 0, "format: device URI '%s' is not emu:PATH", uri);
		goto out;
	}
	p = uri + 4;
	q = strchr(p, '?');
	n = q ? (size_t)(q - p) : strlen(p);
	if (n == 0 || n >= sizeof(path)) {
		rc = ss_err(-EINVAL, 0, "format %s: %s image path", uri, n ? "too long an" : "no");
		goto out;
	}
	memcpy(path, p, n);
	path[n] = '\0';
	for (rc = 0; q && !rc;) {
		const char *o = q + 1, *amp = strchr(o, '&');

		rc = format_option(uri, o, amp ? (size_t)(amp - o) : strlen(o), &fo);
		q = amp;
	}
	if (!rc)
		rc = ss_transport_emu_format(path, profile, capacity_bytes, fo.max_objects,
					     fo.cache_share_permille);
out:
	if (rc && err && errlen)
		ss_dev_last_message_copy(err, errlen);
	return rc;
}

const char *ss_dev_profile_name(size_t i)
{
	return ss_transport_emu_profile_name(i);
}
