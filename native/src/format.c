/*
 * Formatting a drive: the emulator's factory step for emu: images. A real drive (sg:) is
 * formatted by its vendor's tools, and a unix: drive by its daemon (smartssd-devd
 * --format), so both are refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errinfo.h"
#include "smartssd/smartssd.h"
#include "transport.h"

#define FORMAT_PATH_MAX 4096

/* A decimal number of at most `max` in val[0, n). \return 0, or -1 when it is not one. */
static int parse_number(const char *val, size_t n, uint64_t max, uint64_t *out)
{
	char v[32];
	char *end;
	unsigned long long x;

	if (n == 0 || n >= sizeof(v) || val[0] < '0' || val[0] > '9')
		return -1;
	memcpy(v, val, n);
	v[n] = '\0';
	errno = 0;
	x = strtoull(v, &end, 10);
	if (*end != '\0' || errno || x > max)
		return -1;
	*out = x;
	return 0;
}

/* A decimal number up to `max` from the value of option `key`. \return 0 or -EINVAL. */
static int number(const char *uri, const char *key, const char *val, size_t n, uint64_t max,
		  uint64_t *out)
{
	if (parse_number(val, n, max, out) == 0)
		return 0;
	return ss_err(-EINVAL, 0, "%s: %s must be a number up to %llu", uri, key,
		      (unsigned long long)max);
}

static bool key_is(const char *opt, size_t n, const char *key)
{
	size_t k = strlen(key);

	return n > k && !strncmp(opt, key, k) && opt[k] == '=';
}

int ss_buffer_option(const char *uri, const char *opt, size_t n, struct ss_format_opts *fo)
{
	uint64_t x = 0;
	int rc;

	/* the drive's DRAM buffer (firmware-tasklets/buffer/): the firmware checks the policy
	 * name, the size against the page and block, and the threshold */
	if (key_is(opt, n, "buffer")) {
		if (n - 7 >= sizeof(fo->buffer_policy)) {
			return ss_err(-EINVAL, 0, "%s: unknown buffer policy '%.*s' (none, lru, fab, "
				      "bplru, lbclock, hbm, nv-wb, nv-sub, nv-sat[+cache|+prefetch|"
				      "+both])", uri, (int)(n - 7), opt + 7);
		}
		memcpy(fo->buffer_policy, opt + 7, n - 7);
		fo->buffer_policy[n - 7] = '\0';
		return 0;
	}
	if (key_is(opt, n, "buffer_size")) {
		return number(uri, "buffer_size", opt + 12, n - 12, 1ull << 40, &fo->buffer_bytes);
	}
	if (key_is(opt, n, "buffer_threshold")) {
		rc = number(uri, "buffer_threshold", opt + 17, n - 17, 4097, &x);
		fo->buffer_threshold = (uint32_t)x;
		return rc;
	}
	return 1;
}

/* One "key=value" option of an emu: URI's query; `what` ("format URI") starts a message.
 * \return 0 or -EINVAL (message set). */
static int format_option(const char *what, const char *opt, size_t n, struct ss_format_opts *fo)
{
	uint64_t x = 0;
	int rc;

	if (key_is(opt, n, "max_objects")) {
		rc = number(what, "max_objects", opt + 12, n - 12, UINT32_MAX, &x);
		fo->max_objects = (uint32_t)x;
		return rc;
	}
	if (key_is(opt, n, "cache_share")) {
		if (n - 12 == 7 && !strncmp(opt + 12, "default", 7)) {
			fo->cache_share_permille = SS_DEV_CACHE_SHARE_DEFAULT;
			return 0;
		}
		if (parse_number(opt + 12, n - 12, SS_DEV_CACHE_SHARE_MAX_PCT, &x) == 0) {
			fo->cache_share_permille = (uint32_t)x * 10;
			return 0;
		}
		return ss_err(-EINVAL, 0, "%s: cache_share must be a percentage from 0 to %u "
			      "or 'default'",
			      what, SS_DEV_CACHE_SHARE_MAX_PCT);
	}
	if (key_is(opt, n, "interface")) {
		static const char *const names[] = { "ftl", "open-channel", "zoned" };

		for (uint32_t i = 0; i < 3; i++) {
			if (n - 10 == strlen(names[i]) && !strncmp(opt + 10, names[i], n - 10)) {
				fo->interface = i;
				return 0;
			}
		}
		return ss_err(-EINVAL, 0, "%s: interface must be ftl, open-channel or zoned, not "
			      "'%.*s'", what, (int)(n - 10), opt + 10);
	}
	rc = ss_buffer_option(what, opt, n, fo);
	if (rc <= 0) {
		return rc;
	}
	if (n == 7 && !strncmp(opt, "force=1", n)) {
		fo->force = 1;
		return 0;
	}
	/* The open options are accepted, so the URI a drive is opened with formats it. */
	if ((n == 12 && !strncmp(opt, "time=virtual", n)) ||
	    (n == 13 && !strncmp(opt, "time=realtime", n)) ||
	    (n == 17 && (!strncmp(opt, "background=manual", n) ||
			 !strncmp(opt, "background=thread", n))))
		return 0;
	return ss_err(-EINVAL, 0, "%s: unknown option '%.*s' (max_objects=N, cache_share=PCT, "
		      "interface=ftl|open-channel|zoned, buffer=POLICY, buffer_size=BYTES, buffer_threshold=N, force=1, time=..., "
		      "background=...)",
		      what, (int)n, opt);
}

int ss_dev_format(const char *uri, const char *profile, uint64_t capacity_bytes, char *err,
		  size_t errlen)
{
	char path[FORMAT_PATH_MAX], what[FORMAT_PATH_MAX + 16];
	const char *p, *q;
	struct ss_format_opts fo;
	size_t n;
	int rc;

	ss_err_clear();
	memset(&fo, 0, sizeof(fo));
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
	snprintf(what, sizeof(what), "format %s", uri);
	for (rc = 0; q && !rc;) {
		const char *o = q + 1, *amp = strchr(o, '&');

		rc = format_option(what, o, amp ? (size_t)(amp - o) : strlen(o), &fo);
		q = amp;
	}
	if (!rc)
		rc = ss_transport_emu_format(path, profile, capacity_bytes, &fo);
out:
	if (rc && err && errlen)
		ss_dev_last_message_copy(err, errlen);
	return rc;
}

const char *ss_dev_profile_name(size_t i)
{
	return ss_transport_emu_profile_name(i);
}
