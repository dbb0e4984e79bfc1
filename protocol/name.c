/*
 * Which characters a name on the drive may hold: the one definition of the rule. The
 * firmware refuses a path with any other (fw_path_check, BAD_PATH); the host library
 * escapes the others when it puts a name in a message.
 */
#include "ss_name.h"

uint32_t ss_utf8_decode(const uint8_t *p, uint32_t left, uint32_t *cp)
{
	uint32_t c, n;

	if (left == 0) {
		return 0;
	}
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		n = 2;
		c = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		c = p[0] & 0x0F;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	if (left < n) {
		return 0;
	}
	for (uint32_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80) {
			return 0;
		}
		c = c << 6 | (p[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
	    (c >= 0xD800 && c <= 0xDFFF)) {
		return 0;
	}
	*cp = c;
	return n;
}

bool ss_name_cp_ok(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
		return false;   /* C0, DEL, C1 */
	}
	/* Bidi_Control: they reorder what follows ("evil\u202Etxt.exe" shows as "evilexe.txt") */
	return !(cp == 0x061C || (cp >= 0x200E && cp <= 0x200F) ||
		 (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069));
}
