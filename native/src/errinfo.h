/*
 * The per-thread detail of the last failure: reason code and message. Every public call
 * clears it on entry; the layer that finds a problem records it and returns its errno.
 */
#ifndef SS_NATIVE_ERRINFO_H
#define SS_NATIVE_ERRINFO_H

#include <stdint.h>

#include "ss_transport_provider.h"

void ss_err_clear(void);

/** Errno the firmware attaches to a reason, for failures reported as ATA ABRT with the
 *  reason only (no reply packet). */
int ss_reason_errno(int reason);

#endif
