/*
 * eBPF tasklet programs (PROTOCOL.md 4.7): TASKLET_LOAD verifies a program and keeps it,
 * TASKLET_LIST and TASKLET_REMOVE; and the program a "bpf" instance runs, read from the
 * store and verified against the instance's layout at CREATE_OBJECT.
 *
 * Programs are objects of a reserved root directory (FW_BPF_DIR_NAME, whose first byte no
 * host path may hold), so they outlive power cycles like any object, and no host command
 * reaches them: fw_oid_hidden() hides the directory and its children from commands that
 * name an oid. The drive still trusts none of those bytes: every CREATE_OBJECT verifies the
 * program again, and so does the tasklet's init (bpf/bpf_tasklet.c), before a run.
 *
 * The board's image has no room for any of it (cross/jasmine-features.sh): this file is
 * empty there, and cmd_internal.h's stand-ins compile to nothing.
 *
 * An object holds FW_BPF_HDR bytes (magic, version, instructions) then the instructions,
 * little-endian as RFC 9669 encodes them.
 */
#include "cmd_internal.h"

#ifndef SS_FW_WITHOUT_BPF

#include "ss_bpf_tasklet.h"

#define FW_BPF_DIR_NAME "\x7fsmartssd-bpf"
#define FW_BPF_DIR_NAME_LEN 13u
#define FW_BPF_TMP_NAME "\x7fload"
#define FW_BPF_TMP_NAME_LEN 5u
#define FW_BPF_MAGIC 0x50425353u /* "SSBP" */
#define FW_BPF_VERSION 1u
#define FW_BPF_HDR 16u
#define ENTRY_SIZE ((uint32_t)sizeof(struct ss_wire_program))
#define PARAMS_SIZE ((uint32_t)sizeof(struct ss_bt_bpf_params))

/* The command layer's eBPF memory, carved once (the emulator's DRAM, never the board's). */
struct fw_bpf {
	struct ss_bpf_verifier ws;
	struct ss_bpf_prog prog;
	struct ss_bpf_helpers helpers;
	/* an instance's params: the host's, then the program read from the store */
	uint8_t params[SS_BPF_TASKLET_PARAMS_MAX];
};

uint64_t fw_bpf_dram(void)
{
	return sizeof(struct fw_bpf);
}

void fw_bpf_carve(struct ss_fw *fw, struct ss_arena *a)
{
	fw->bpf = ss_arena_alloc(a, sizeof(struct fw_bpf), 64);
	fw->bpf_dir = SS_OID_NONE;
	if (fw->bpf) {
		ss_bpf_tasklet_helpers(&fw->bpf->helpers);
	}
}

int fw_bpf_register(struct ss_fw *fw)
{
	return ss_isp_register(fw->isp, &ss_bpf_tasklet);
}

void fw_bpf_mount(struct ss_fw *fw)
{
	ss_oid_t dir;

	fw->bpf_dir = SS_OID_NONE;
	if (ss_os_lookup(fw->os, SS_OID_ROOT, FW_BPF_DIR_NAME, FW_BPF_DIR_NAME_LEN, &dir) == 0) {
		fw->bpf_dir = dir;
	}
}

bool fw_bpf_hidden(const struct ss_fw *fw, ss_oid_t oid)
{
	struct ss_obj_stat st;

	if (fw->bpf_dir == SS_OID_NONE || oid == SS_OID_NONE) {
		return false;
	}
	return oid == fw->bpf_dir ||
	       (ss_os_stat(fw->os, oid, &st) == 0 && st.parent == fw->bpf_dir);
}

uint32_t fw_bpf_hidden_objects(const struct ss_fw *fw)
{
	struct ss_obj_stat st;

	if (fw->bpf_dir == SS_OID_NONE || ss_os_stat(fw->os, fw->bpf_dir, &st)) {
		return 0;
	}
	return 1 + st.nchildren;
}

/* [A-Za-z0-9._-], 1..SS_TASKLET_NAME_MAX bytes. */
static bool name_ok(const uint8_t *n, uint32_t len)
{
	if (len == 0 || len > SS_TASKLET_NAME_MAX) {
		return false;
	}
	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = n[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-')) {
			return false;
		}
	}
	return true;
}

uint32_t fw_bpf_load_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->length > rq->payload_len || rq->payload_len - rq->length > SS_TASKLET_ELF_MAX ||
	    rq->payload_len == rq->length) {
		return SS_R_BAD_LENGTH;
	}
	return name_ok(rq->payload, (uint32_t)rq->length) ? SS_R_OK : SS_R_BAD_PATH;
}

uint32_t fw_bpf_list_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = SS_TASKLET_PROGRAMS_MAX * ENTRY_SIZE;
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return rq->oid || rq->offset || rq->length || rq->reply_max < *cap ? SS_R_BAD_FIELD
									      : SS_R_OK;
}

uint32_t fw_bpf_remove_check(const struct fw_req *rq, uint32_t *cap)
{
	return name_ok(rq->payload, rq->payload_len) ? SS_R_OK : SS_R_BAD_PATH;
}

static void refuse(struct fw_rep *rep, int rc, const struct ss_bpf_error *err)
{
	fw_rep_error(rep, rc == -SS_E2BIG ? -SS_E2BIG : -SS_EINVAL, SS_R_PROGRAM_REFUSED);
	rep->value[0] = (uint64_t)err->reason;
	rep->value[1] = err->insn;
}

static int dir_get(struct ss_fw *fw, uint64_t now_ns)
{
	int rc;

	if (fw->bpf_dir != SS_OID_NONE) {
		return 0;
	}
	rc = ss_os_create(fw->os, SS_OID_ROOT, FW_BPF_DIR_NAME, FW_BPF_DIR_NAME_LEN, SS_OBJ_DIR,
			  0, now_ns, &fw->bpf_dir);
	if (rc) {
		fw->bpf_dir = SS_OID_NONE;
	}
	return rc;
}

/* The program of prog, stored under a temporary name: FW_BPF_HDR bytes, instructions. */
static int store_tmp(struct ss_fw *fw, const struct ss_bpf_prog *prog, uint64_t now_ns,
		     ss_oid_t *oid)
{
	uint8_t *b = fw->bpf->params;  /* free between commands */
	uint32_t n = prog->n_insns;
	int rc;

	/* a load cut short by a power loss left it */
	rc = ss_os_lookup(fw->os, fw->bpf_dir, FW_BPF_TMP_NAME, FW_BPF_TMP_NAME_LEN, oid);
	if (rc == 0) {
		(void)ss_os_remove(fw->os, *oid);
	}
	rc = ss_os_create(fw->os, fw->bpf_dir, FW_BPF_TMP_NAME, FW_BPF_TMP_NAME_LEN, SS_OBJ_FILE,
			  SS_OS_EXCL, now_ns, oid);
	if (rc) {
		return rc;
	}
	ss_put_le32(b, FW_BPF_MAGIC);
	ss_put_le32(b + 4, FW_BPF_VERSION);
	ss_put_le32(b + 8, n);
	ss_put_le32(b + 12, 0);
	for (uint32_t i = 0; i < n; i++) {
		const struct ss_bpf_insn *in = &prog->insns[i];
		uint8_t *p = b + FW_BPF_HDR + 8 * i;

		p[0] = in->opcode;
		p[1] = in->regs;
		ss_put_le16(p + 2, (uint16_t)in->off);
		ss_put_le32(p + 4, (uint32_t)in->imm);
	}
	rc = ss_os_write(fw->os, *oid, 0, b, FW_BPF_HDR + 8 * n, SS_OS_FUA, now_ns);
	if (rc) {
		(void)ss_os_remove(fw->os, *oid);
	}
	return rc;
}

void fw_bpf_load(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t name_len = (uint32_t)rq->length;
	const char *name = (const char *)rq->payload;
	struct ss_bpf_config cfg;
	struct ss_bpf_error err;
	ss_oid_t oid, old;
	int rc;

	if (!fw->bpf) {
		fw_rep_error(rep, -SS_ENOMEM, SS_R_BUSY);
		return;
	}
	/* At load the layout is not known: records of the longest size, the largest output
	 * buffer. Each instance verifies it again against its own. */
	ss_memset(&cfg, 0, sizeof(cfg));
	cfg.rec_min = SS_ISP_MAX_RECORD;
	cfg.rec_max = SS_ISP_MAX_RECORD;
	cfg.out_size = SS_BT_BPF_MAX_OUT;
	cfg.stack_size = SS_BPF_STACK_MAX;
	cfg.helpers = &fw->bpf->helpers;
	rc = ss_bpf_load_elf(&fw->bpf->prog, &cfg, rq->payload + name_len,
			     rq->payload_len - name_len, NULL, &fw->bpf->ws, &err);
	if (rc) {
		refuse(rep, rc, &err);
		return;
	}
	rc = dir_get(fw, rq->now_ns);
	if (rc) {
		fw_rep_create_error(fw, rep, rc);
		return;
	}
	if (ss_os_lookup(fw->os, fw->bpf_dir, name, name_len, &old) == 0) {
		if (!(rq->flags & SS_TASKLET_LOAD_REPLACE)) {
			fw_rep_error(rep, -SS_EEXIST, SS_R_EXISTS);
			return;
		}
	} else if (fw_bpf_hidden_objects(fw) - 1 >= SS_TASKLET_PROGRAMS_MAX) {
		fw_rep_error(rep, -SS_ENOSPC, SS_R_TOO_MANY_OBJECTS);
		return;
	}
	rc = store_tmp(fw, &fw->bpf->prog, rq->now_ns, &oid);
	if (rc == 0) {
		rc = ss_os_rename(fw->os, oid, fw->bpf_dir, name, name_len, 0, rq->now_ns);
		if (rc) {
			(void)ss_os_remove(fw->os, oid);
		}
	}
	/* durable on reply: a host that saw the load succeed never finds it gone */
	if (rc == 0) {
		rc = ss_os_flush(fw->os);
	}
	if (rc) {
		fw_rep_create_error(fw, rep, rc);
		return;
	}
	rep->value[0] = fw->bpf->prog.n_insns;
}

void fw_bpf_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint64_t cursor = 0;
	uint32_t n = 0;

	rep->payload_len = 0;
	if (fw->bpf_dir == SS_OID_NONE) {
		return;
	}
	for (;;) {
		uint32_t got = 0;
		int rc = ss_os_list(fw->os, fw->bpf_dir, &cursor, fw->dirents, FW_LIST_BATCH);

		if (rc < 0) {
			fw_rep_error(rep, rc, 0);
			return;
		}
		got = (uint32_t)rc;
		for (uint32_t i = 0; i < got && n < SS_TASKLET_PROGRAMS_MAX; i++) {
			const struct ss_dirent *d = &fw->dirents[i];
			uint8_t *p = rep->payload + n * ENTRY_SIZE;

			if (!name_ok((const uint8_t *)d->name, d->name_len) ||
			    ss_os_stat(fw->os, d->oid, &fw->st)) {
				continue;   /* the temporary of a load cut short */
			}
			ss_memset(p, 0, ENTRY_SIZE);
			ss_put_le32(p + offsetof(struct ss_wire_program, insns),
				    fw->st.size > FW_BPF_HDR ? (uint32_t)((fw->st.size - FW_BPF_HDR) / 8)
							     : 0);
			ss_put_le16(p + offsetof(struct ss_wire_program, name_len), d->name_len);
			ss_put_le64(p + offsetof(struct ss_wire_program, loaded_ns), fw->st.ctime_ns);
			ss_memcpy(p + offsetof(struct ss_wire_program, name), d->name, d->name_len);
			n++;
		}
		if (got < FW_LIST_BATCH) {
			break;
		}
	}
	rep->payload_len = n * ENTRY_SIZE;
	rep->value[0] = n;
}

void fw_bpf_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ss_oid_t oid;
	int rc = fw->bpf_dir == SS_OID_NONE ? -SS_ENOENT
					    : ss_os_lookup(fw->os, fw->bpf_dir,
							   (const char *)rq->payload,
							   rq->payload_len, &oid);

	if (rc == 0) {
		rc = ss_os_remove(fw->os, oid);
	}
	if (rc == 0) {
		rc = ss_os_flush(fw->os);
	}
	if (rc) {
		fw_rep_error(rep, rc, rc == -SS_ENOENT ? SS_R_UNKNOWN_TASKLET : 0);
	}
}

/* Read the program named in params into fw->bpf->params after a copy of params. */
static int read_program(struct ss_fw *fw, const uint8_t *params, uint32_t *n_insns)
{
	uint8_t name_len = params[offsetof(struct ss_bt_bpf_params, name_len)];
	const char *name = (const char *)params + offsetof(struct ss_bt_bpf_params, name);
	uint8_t *b = fw->bpf->params;
	uint32_t n = 0, got = 0;
	ss_oid_t oid;
	int rc;

	if (!name_ok((const uint8_t *)name, name_len)) {
		return -SS_EINVAL;
	}
	if (fw->bpf_dir == SS_OID_NONE ||
	    ss_os_lookup(fw->os, fw->bpf_dir, name, name_len, &oid)) {
		return -SS_ENOENT;
	}
	/* the header goes where the host's params will, then they overwrite it */
	rc = ss_os_read(fw->os, oid, 0, b + PARAMS_SIZE - FW_BPF_HDR,
			FW_BPF_HDR + SS_BPF_MAX_INSNS * 8, &got);
	if (rc) {
		return rc;
	}
	if (got >= FW_BPF_HDR) {
		n = ss_get_le32(b + PARAMS_SIZE - FW_BPF_HDR + 8);
	}
	if (got < FW_BPF_HDR || ss_get_le32(b + PARAMS_SIZE - FW_BPF_HDR) != FW_BPF_MAGIC ||
	    ss_get_le32(b + PARAMS_SIZE - FW_BPF_HDR + 4) != FW_BPF_VERSION ||
	    n == 0 || n > SS_BPF_MAX_INSNS || got != FW_BPF_HDR + 8 * n) {
		return -SS_EBADMSG;
	}
	ss_memcpy(b, params, PARAMS_SIZE);
	*n_insns = n;
	return 0;
}

int fw_bpf_instance_params(struct ss_fw *fw, const uint8_t *params, uint32_t params_len,
			   const struct ss_layout *layout, struct fw_rep *rep,
			   const uint8_t **out, uint32_t *out_len)
{
	struct ss_bpf_config cfg;
	struct ss_bpf_error err;
	uint32_t n = 0;
	int rc;

	if (!fw->bpf) {
		fw_rep_error(rep, -SS_ENOMEM, SS_R_BUSY);
		return -SS_ENOMEM;
	}
	if (params_len != PARAMS_SIZE || !layout ||
	    ss_bpf_tasklet_config(layout, params, params_len, &fw->bpf->helpers, &cfg)) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_TASKLET_PARAMS);
		return -SS_EINVAL;
	}
	rc = read_program(fw, params, &n);
	if (rc) {
		fw_rep_error(rep, rc, rc == -SS_ENOENT ? SS_R_UNKNOWN_TASKLET
				      : rc == -SS_EBADMSG ? SS_R_PROGRAM_REFUSED
				      : rc == -SS_EINVAL ? SS_R_TASKLET_PARAMS : 0);
		if (rc == -SS_EBADMSG) {
			rep->status = -SS_EINVAL;
			rep->value[0] = SS_BPF_R_BAD_ELF;
		}
		return rc;
	}
	rc = ss_bpf_load(&fw->bpf->prog, &cfg, fw->bpf->params + PARAMS_SIZE, n, &fw->bpf->ws,
			 &err);
	if (rc) {
		refuse(rep, rc, &err);
		return rc;
	}
	*out = fw->bpf->params;
	*out_len = PARAMS_SIZE + 8 * n;
	return 0;
}
#endif
