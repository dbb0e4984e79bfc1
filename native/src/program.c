/*
 * eBPF tasklet programs (TASKLET_LOAD, TASKLET_LIST, TASKLET_REMOVE; PROTOCOL.md 4.7): the
 * drive verifies a program at load and keeps it; a refusal's message names the verifier's
 * reason and the instruction, the same for a "bpf" instance the drive refuses at create.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"
#include "ss_bpf_reasons.h"

_Static_assert(SS_DEV_PROGRAM_NAME_MAX == SS_TASKLET_NAME_MAX, "one name limit");
_Static_assert(SS_DEV_PROGRAMS_MAX == SS_TASKLET_PROGRAMS_MAX, "one count limit");

#define NAME_(name, text) #name,
static const char *const verifier_names[] = { SS_BPF_REASONS(NAME_) };
#undef NAME_
#define TEXT_(name, text) text,
static const char *const verifier_texts[] = { SS_BPF_REASONS(TEXT_) };
#undef TEXT_

#define N_REASONS (sizeof(verifier_names) / sizeof(verifier_names[0]))

const char *ss_dev_verifier_reason_name(int reason)
{
	return reason >= 0 && (size_t)reason < N_REASONS ? verifier_names[reason] : "UNKNOWN";
}

int ss_program_refused(int rc, const struct ss_pkt_reply *rep, const char *subject)
{
	int reason = rep->value0 < N_REASONS ? (int)rep->value0 : -1;

	return ss_err(rc, SS_R_PROGRAM_REFUSED,
		      "%s: program refused at instruction %" PRIu64 ": %s (%s)", subject,
		      rep->value1, reason < 0 ? "unknown verifier reason" : verifier_texts[reason],
		      ss_dev_verifier_reason_name(reason));
}

static int check_name(const char *op, const char *name, char *subject, size_t len)
{
	size_t n;

	if (!name || !*name)
		return ss_err(-EINVAL, SS_R_BAD_PATH, "%s: empty program name", op);
	n = strlen(name);
	if (n > SS_DEV_PROGRAM_NAME_MAX)
		return ss_err(-ENAMETOOLONG, SS_R_NAME_TOO_LONG,
			      "%s: program name of %zu bytes (at most %u)", op, n,
			      SS_DEV_PROGRAM_NAME_MAX);
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return ss_err(-EINVAL, SS_R_BAD_PATH,
				      "%s: program name '%s' has a character other than "
				      "[A-Za-z0-9._-]", op, name);
	}
	snprintf(subject, len, "program %s", name);
	return 0;
}

int ss_dev_program_load(struct ss_dev *d, const char *name, const void *elf, size_t len,
			uint32_t flags, struct ss_dev_program_refusal *why)
{
	char subject[SS_DEV_PROGRAM_NAME_MAX + 16];
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (why)
		memset(why, 0, sizeof(*why));
	rc = check_name("TASKLET_LOAD", name, subject, sizeof(subject));
	if (rc)
		return rc;
	if (flags & ~SS_DEV_PROGRAM_REPLACE)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "TASKLET_LOAD %s: unknown flags 0x%x",
			      subject, flags);
	if (!elf || len == 0)
		return ss_err(-EINVAL, SS_R_BAD_LENGTH, "TASKLET_LOAD %s: empty object", subject);
	if (len > SS_TASKLET_ELF_MAX)
		return ss_err(-E2BIG, SS_R_BAD_LENGTH,
			      "TASKLET_LOAD %s: object of %zu bytes (at most %u)", subject, len,
			      SS_TASKLET_ELF_MAX);

	struct ss_pkt_req req = {
		.opcode = SS_OP_TASKLET_LOAD,
		.flags = flags,
		.length = strlen(name),
	};
	struct ss_pkt_seg segs[2] = {{name, strlen(name)}, {elf, len}};

	memset(&rep, 0, sizeof(rep));
	rc = ss_obj_exec(d, &req, segs, 2, &rep, subject);
	if (rc && ss_dev_last_reason() == SS_R_PROGRAM_REFUSED) {
		if (why) {
			why->reason = (int)rep.value0;
			why->insn = (uint32_t)rep.value1;
		}
		return ss_program_refused(rc, &rep, "TASKLET_LOAD");
	}
	return rc ? rc : (int)rep.value0;
}

int ss_dev_program_list(struct ss_dev *d, struct ss_dev_program *out, uint32_t max)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_TASKLET_LIST,
		.reply_max = SS_TASKLET_PROGRAMS_MAX * sizeof(struct ss_wire_program),
	};
	struct ss_pkt_reply rep;
	uint32_t n;
	int rc;

	ss_err_clear();
	if (!out && max)
		return ss_err(-EINVAL, 0, "TASKLET_LIST: NULL buffer");
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, "programs");
	if (rc)
		return rc;
	n = (uint32_t)rep.value0;
	if (n > SS_TASKLET_PROGRAMS_MAX || rep.payload_len != n * sizeof(struct ss_wire_program))
		return ss_err(-EPROTO, 0, "TASKLET_LIST: %u bytes for %u programs", rep.payload_len,
			      n);
	for (uint32_t i = 0; i < n && i < max; i++) {
		const uint8_t *p = rep.payload + i * sizeof(struct ss_wire_program);
		uint16_t nl = ss_get_le16(p + offsetof(struct ss_wire_program, name_len));

		if (nl == 0 || nl > SS_DEV_PROGRAM_NAME_MAX)
			return ss_err(-EPROTO, 0, "TASKLET_LIST: a name of %u bytes", nl);
		memset(&out[i], 0, sizeof(out[i]));
		memcpy(out[i].name, p + offsetof(struct ss_wire_program, name), nl);
		out[i].insns = ss_get_le32(p + offsetof(struct ss_wire_program, insns));
		out[i].loaded_ns = ss_get_le64(p + offsetof(struct ss_wire_program, loaded_ns));
	}
	return (int)n;
}

int ss_dev_program_remove(struct ss_dev *d, const char *name)
{
	char subject[SS_DEV_PROGRAM_NAME_MAX + 16];
	struct ss_pkt_req req = {.opcode = SS_OP_TASKLET_REMOVE};
	struct ss_pkt_seg seg;
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = check_name("TASKLET_REMOVE", name, subject, sizeof(subject));
	if (rc)
		return rc;
	seg.data = name;
	seg.len = strlen(name);
	return ss_obj_exec(d, &req, &seg, 1, &rep, subject);
}
