#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "smartssd/smartssd.h"
#include "ss_name.h"
#include "ss_proto.h"
#include "errinfo.h"

static _Thread_local int last_reason;
static _Thread_local char last_msg[SS_DEV_MSG_MAX];

/* Names reach messages as they were given: what a terminal would act on or reorder
 * (a character no name may hold, ss_name.h) is written as \xHH or \uHHHH, and so is each
 * byte that is not UTF-8. */
static void escape(char *msg)
{
	char out[SS_DEV_MSG_MAX];
	size_t o = 0, len = strlen(msg);

	for (size_t i = 0; i < len;) {
		uint32_t cp = 0, n = ss_utf8_decode((const uint8_t *)msg + i, (uint32_t)(len - i), &cp);
		char e[8];
		const char *src = e;
		size_t k;

		if (n && ss_name_cp_ok(cp)) {
			src = msg + i;
			k = n;
		} else if (n == 0 || cp < 0x100) {
			k = (size_t)snprintf(e, sizeof(e), "\\x%02x", n ? cp : (uint8_t)msg[i]);
		} else {
			k = (size_t)snprintf(e, sizeof(e), "\\u%04x", cp);
		}
		if (o + k >= sizeof(out)) {
			break;
		}
		memcpy(out + o, src, k);
		o += k;
		i += n ? n : 1;
	}
	out[o] = '\0';
	memcpy(msg, out, o + 1);
}

void ss_err_clear(void)
{
	last_reason = 0;
	last_msg[0] = '\0';
}

int ss_err(int rc, int reason, const char *fmt, ...)
{
	va_list ap;

	last_reason = reason;
	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	escape(last_msg);
	return rc;
}

int ss_err_context(int rc, const char *fmt, ...)
{
	char prefix[SS_DEV_MSG_MAX], old[SS_DEV_MSG_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	escape(prefix);
	memcpy(old, last_msg, sizeof(old));
	n = snprintf(last_msg, sizeof(last_msg), "%s: ", prefix);
	if (n > 0 && (size_t)n < sizeof(last_msg) - 1) {
		size_t room = sizeof(last_msg) - 1 - (size_t)n, len = strlen(old);

		if (len > room)
			len = room;
		memcpy(last_msg + n, old, len);
		last_msg[(size_t)n + len] = '\0';
	}
	return rc;
}

int ss_dev_last_reason(void)
{
	return last_reason;
}

const char *ss_dev_last_message(void)
{
	return last_msg;
}

size_t ss_dev_last_message_copy(char *buf, size_t len)
{
	size_t n = strlen(last_msg);

	if (len) {
		size_t c = n < len - 1 ? n : len - 1;

		memcpy(buf, last_msg, c);
		buf[c] = '\0';
	}
	return n;
}

static const struct {
	const char *name;
	int err;
} reasons[] = {
#define REASON_ROW(name, code, err) [SS_R_##name] = {#name, err},
	SS_PROTO_REASONS(REASON_ROW)
#undef REASON_ROW
};

const char *ss_dev_reason_name(int reason)
{
	if (reason < 0 || (size_t)reason >= sizeof(reasons) / sizeof(reasons[0]) ||
	    !reasons[reason].name)
		return "UNKNOWN";
	return reasons[reason].name;
}

int ss_reason_errno(int reason)
{
	if (reason <= 0 || (size_t)reason >= sizeof(reasons) / sizeof(reasons[0]) ||
	    !reasons[reason].name)
		return EIO;
	return reasons[reason].err;
}
