/*
 * Paths on the wire: absolute, '/'-separated, no empty, "." or ".." components, well-formed
 * UTF-8 without control characters (C0, DEL, C1) or bidirectional controls (Unicode's
 * Bidi_Control: U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). Such names are
 * refused rather than stored: a raw newline or ESC makes listings ambiguous or drives a
 * terminal, a right-to-left override shows "evil\u202Etxt.exe" as "evilexe.txt", and bytes
 * that are not UTF-8 collide once a client decodes them (HDFS refuses them too). The rule
 * is protocol/ss_name.h's; the host relies on this check and does not repeat it.
 * The firmware's own root-level names start with DEL (0x7F), a control character, so no
 * host path can name them.
 */
#include "cmd_internal.h"
#include "ss_name.h"

bool fw_oid_hidden(const struct ss_fw *fw, ss_oid_t oid)
{
	return oid != SS_OID_NONE && (oid == fw->record_oid || fw_bpf_hidden(fw, oid));
}

/* The length of the well-formed UTF-8 sequence at p (at most left bytes) of a character a
 * name may hold (ss_name.h), or 0. */
static uint32_t name_char(const uint8_t *p, uint32_t left)
{
	uint32_t cp, n = ss_utf8_decode(p, left, &cp);

	return n && ss_name_cp_ok(cp) ? n : 0;
}

/* \return SS_R_OK, SS_R_BAD_PATH or SS_R_NAME_TOO_LONG. */
uint32_t fw_path_check(const uint8_t *path, uint32_t len)
{
	uint32_t start = 1;

	if (len == 0 || path[0] != '/') {
		return SS_R_BAD_PATH;
	}
	if (len > FW_PATH_MAX) {
		return SS_R_NAME_TOO_LONG;
	}
	if (len == 1) {
		return SS_R_OK;
	}
	for (uint32_t i = 1; i <= len; i++) {
		uint32_t n;

		if (i < len && path[i] != '/') {
			uint32_t k = name_char(path + i, len - i);

			if (k == 0) {
				return SS_R_BAD_PATH;
			}
			i += k - 1;
			continue;
		}
		n = i - start;
		if (n == 0) {
			return SS_R_BAD_PATH;
		}
		if ((n == 1 && path[start] == '.') ||
		    (n == 2 && path[start] == '.' && path[start + 1] == '.')) {
			return SS_R_BAD_PATH;
		}
		if (n > SS_NAME_MAX) {
			return SS_R_NAME_TOO_LONG;
		}
		start = i + 1;
	}
	return SS_R_OK;
}

int fw_path_resolve(struct ss_fw *fw, const uint8_t *path, uint32_t len, ss_oid_t *oid)
{
	return ss_os_lookup_path(fw->os, (const char *)path, len, oid);
}

/*
 * The directory holding the last component of a checked path, and that component.
 * With make_parents, missing directories on the way are created.
 * \return 0, -SS_EPERM for the root itself (it has no parent), or the object store's error.
 */
int fw_path_parent(struct ss_fw *fw, const uint8_t *path, uint32_t len, bool make_parents,
		   uint64_t now_ns, ss_oid_t *dir, const uint8_t **name, uint32_t *name_len)
{
	uint32_t last = len;
	ss_oid_t cur = SS_OID_ROOT;
	uint32_t start = 1;
	int rc;

	if (len <= 1) {
		return -SS_EPERM;
	}
	while (last > 0 && path[last - 1] != '/') {
		last--;
	}
	*name = path + last;
	*name_len = len - last;
	if (!make_parents) {
		if (last == 1) {
			*dir = SS_OID_ROOT;
			return 0;
		}
		return ss_os_lookup_path(fw->os, (const char *)path, last - 1, dir);
	}
	while (start < last) {
		uint32_t end = start;
		ss_oid_t next;

		while (path[end] != '/') {
			end++;
		}
		rc = ss_os_lookup(fw->os, cur, (const char *)path + start, end - start, &next);
		if (rc == -SS_ENOENT) {
			rc = ss_os_create(fw->os, cur, (const char *)path + start, end - start,
					  SS_OBJ_DIR, 0, now_ns, &next);
		}
		if (rc) {
			return rc;
		}
		cur = next;
		start = end + 1;
	}
	*dir = cur;
	return 0;
}
