/*
 * The per-thread detail of the last failure: reason code and message. Every public call
 * clears it on entry; the layer that finds a problem records it and returns its errno.
 */
#ifndef SS_NATIVE_ERRINFO_H
#define SS_NATIVE_ERRINFO_H

#include <stdint.h>

void ss_err_clear(void);

/** Record (reason, message) for this thread. \return rc, for `return ss_err(...)`. */
int ss_err(int rc, int reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Prefix the recorded message with context ("LOOKUP /a/b: "). \return rc. */
int ss_err_context(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Errno the firmware attaches to a reason, for failures reported as ATA ABRT with the
 *  reason only (no reply packet). */
int ss_reason_errno(int reason);

#endif
