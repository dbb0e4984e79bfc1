/* Names on the drive: well-formed UTF-8 without control characters or bidirectional
 * controls (PROTOCOL.md section 4.1). Freestanding, for the firmware and the host. */
#ifndef SS_NAME_H
#define SS_NAME_H

#include <stdbool.h>
#include <stdint.h>

/** The code point of the well-formed UTF-8 sequence at p (at most `left` bytes) in *cp.
 *  \return its length, or 0 when it is not well-formed (RFC 3629: no overlong forms,
 *  surrogates or code points past U+10FFFF). */
uint32_t ss_utf8_decode(const uint8_t *p, uint32_t left, uint32_t *cp);

/** Whether a name may hold cp: not a control character (U+0000-U+001F, U+007F-U+009F) nor
 *  a bidirectional control (Bidi_Control: U+061C, U+200E-U+200F, U+202A-U+202E,
 *  U+2066-U+2069). */
bool ss_name_cp_ok(uint32_t cp);

#endif
