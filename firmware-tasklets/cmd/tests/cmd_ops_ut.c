/*
 * The opcode table (cmd_ops.c) against the protocol's two other descriptions: the opcode
 * list of ss_proto.h (SS_PROTO_OPCODES) and the opcode tables of native/PROTOCOL.md
 * section 4, parsed from the markdown. Then each entry's flags and session rule are tried
 * on a running drive through the SEND path.
 */
#include <ctype.h>
#include <stdlib.h>

#include "cmd_internal.h"
#include "fixture.h"

#define MD_MAX_OPS 64

struct md_op {
	unsigned code;
	char name[32];
	uint32_t flags;     /* flag bits the row names with a value, e.g. `FUA` (1) */
	int session0;       /* the row allows session 0 */
	int seen;
};

static struct md_op md_ops[MD_MAX_OPS];
static int md_n;

/* Flag values the row gives as "`NAME` (1)" or "`NAME` (100h)". */
static uint32_t row_flags(const char *row)
{
	uint32_t flags = 0;
	const char *p = row;

	while ((p = strstr(p, "` (")) != NULL) {
		char *end;
		unsigned long v;

		p += 3;
		v = strtoul(p, &end, 16);
		if (end > p && (*end == ')' || (*end == 'h' && end[1] == ')'))) {
			/* a decimal-looking value without 'h' is the same digit in hex (1, 2) */
			flags |= (uint32_t)v;
		}
	}
	return flags;
}

/* Rows "| `01h` | `OPEN_SESSION` | request | reply |" of section 4. */
static void parse_protocol_md(const char *path)
{
	char line[2048];
	int in_opcodes = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned code;
		char name[32];

		if (!strncmp(line, "## ", 3)) {
			in_opcodes = !strncmp(line, "## 4. Opcodes", 13);
			continue;
		}
		if (!in_opcodes || sscanf(line, "| `%2xh` | `%31[A-Z_]` |", &code, name) != 2) {
			continue;
		}
		if (md_n == MD_MAX_OPS) {
			fprintf(stderr, "%s: more than %d opcode rows\n", path, MD_MAX_OPS);
			exit(1);
		}
		md_ops[md_n].code = code;
		snprintf(md_ops[md_n].name, sizeof(md_ops[md_n].name), "%s", name);
		md_ops[md_n].flags = row_flags(strchr(strchr(line + 1, '|') + 1, '|'));
		md_ops[md_n].session0 = strstr(line, "session 0") != NULL;
		md_n++;
	}
	fclose(f);
}

static struct md_op *md_find(uint16_t code)
{
	for (int i = 0; i < md_n; i++) {
		if (md_ops[i].code == code) {
			return &md_ops[i];
		}
	}
	return NULL;
}

static void check_static(void)
{
	static const struct {
		uint16_t code;
		const char *name;
	} header[] = {
#define HEADER_OP(name, code) { code, #name },
		SS_PROTO_OPCODES(HEADER_OP)
#undef HEADER_OP
	};

	/* PROTOCOL.md's opcode list as written today: 21 opcodes */
	CHECK(md_n >= 21);
	CHECK_EQ(fw_ops_count, SS_ARRAY_SIZE(header));
	for (uint32_t i = 0; i < fw_ops_count; i++) {
		const struct fw_op *op = &fw_ops[i];
		struct md_op *md = md_find(op->opcode);

		CHECK(op->check != NULL && op->exec != NULL);
		CHECK(fw_op_find(op->opcode) == op);
		for (uint32_t j = 0; j < i; j++) {
			CHECK(fw_ops[j].opcode != op->opcode);
		}
		CHECK(i < SS_ARRAY_SIZE(header) && header[i].code == op->opcode &&
		      !strcmp(header[i].name, op->name));
		if (!md) {
			fprintf(stderr, "opcode %02Xh %s is not in PROTOCOL.md section 4\n",
				op->opcode, op->name);
			fx_failures++;
			continue;
		}
		md->seen++;
		if (strcmp(md->name, op->name)) {
			fprintf(stderr, "opcode %02Xh: table says %s, PROTOCOL.md says %s\n",
				op->opcode, op->name, md->name);
			fx_failures++;
		}
		/* every flag the document gives a value for is one the table accepts */
		if (md->flags & ~op->allowed_flags) {
			fprintf(stderr, "%s: PROTOCOL.md flags 0x%x, table allows 0x%x\n", op->name,
				md->flags, op->allowed_flags);
			fx_failures++;
		}
		CHECK_EQ(md->session0, op->sessionless);
	}
	for (int i = 0; i < md_n; i++) {
		if (md_ops[i].seen != 1) {
			fprintf(stderr, "PROTOCOL.md opcode %02Xh %s is not in the table once\n",
				md_ops[i].code, md_ops[i].name);
			fx_failures++;
		}
	}
	CHECK(fw_op_find(0x00) == NULL);
	CHECK(fw_op_find(0x04) == NULL);
	CHECK(fw_op_find(0xFFFF) == NULL);
}

/* The dispatcher follows the table: a flag bit outside allowed_flags is BAD_FIELD, and
 * session 0 is BAD_SESSION unless the opcode is sessionless. */
static void check_dispatch(void)
{
	struct ss_ata_result res;
	struct fx f;

	fx_create(&f, 0);
	fx_open_session(&f);
	for (uint32_t i = 0; i < fw_ops_count; i++) {
		const struct fw_op *op = &fw_ops[i];
		uint32_t bad = 0x80000000u;
		struct fx_pkt p = { .opcode = op->opcode, .flags = bad, .reply_max = 4096 };

		CHECK_EQ(op->allowed_flags & bad, 0);
		p.tag = fx_tag(&f);
		fx_send(&f, &p, &res);
		CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));

		if (op->sessionless) {
			continue;
		}
		p.flags = 0;
		p.tag = 0x7000 + i;   /* session 0 */
		fx_send(&f, &p, &res);
		CHECK(FX_ABORTED(res, SS_R_BAD_SESSION));
	}
	fx_destroy(&f);
}

int main(void)
{
	parse_protocol_md(SS_PROTOCOL_MD);
	check_static();
	check_dispatch();
	return fx_failures ? 1 : 0;
}
