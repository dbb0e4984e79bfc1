/* The reason codes of ss_proto.h (SS_PROTO_REASONS) against native/PROTOCOL.md section 3:
 * the same codes and names in the same order, and where the table gives an errno for a
 * refused SEND or RECV, the list's errno. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ss_proto.h"

static const struct {
	unsigned code;
	const char *name;
	const char *err;
} reasons[] = {
#define REASON_ROW(name, code, err) { code, #name, #err },
	SS_PROTO_REASONS(REASON_ROW)
#undef REASON_ROW
};
#define NREASONS (sizeof(reasons) / sizeof(reasons[0]))

/* Copies cell i (0: the reason number) of a "| # | reason | ..." row into out, without its
 * backticks and surrounding blanks. \return 0, or -1 when the row has fewer cells. */
static int cell(const char *row, int i, char *out, size_t len)
{
	const char *p = row, *end;
	size_t n = 0;

	for (int k = 0; k <= i; k++) {
		p = strchr(p, '|');
		if (!p) {
			return -1;
		}
		p++;
	}
	end = strchr(p, '|');
	if (!end) {
		return -1;
	}
	for (; p < end && n + 1 < len; p++) {
		if (*p != '`' && (*p != ' ' || n > 0)) {
			out[n++] = *p;
		}
	}
	while (n > 0 && out[n - 1] == ' ') {
		n--;
	}
	out[n] = '\0';
	return 0;
}

int main(void)
{
	char line[4096], num[16], name[64], err[64];
	unsigned rows = 0;
	int in_section = 0, failures = 0;
	FILE *f = fopen(SS_PROTOCOL_MD, "r");

	if (!f) {
		fprintf(stderr, "cannot open %s\n", SS_PROTOCOL_MD);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *endp;
		unsigned long code;

		if (!strncmp(line, "## ", 3)) {
			in_section = !strncmp(line, "## 3. Status and reason", 23);
			continue;
		}
		if (!in_section || line[0] != '|' || cell(line, 0, num, sizeof(num)) ||
		    cell(line, 1, name, sizeof(name)) || cell(line, 4, err, sizeof(err))) {
			continue;
		}
		code = strtoul(num, &endp, 10);
		if (endp == num || *endp) {
			continue;	/* the header and its rule */
		}
		if (rows == NREASONS) {
			fprintf(stderr, "PROTOCOL.md reason %lu %s is not in SS_PROTO_REASONS\n", code,
				name);
			failures++;
			continue;
		}
		if (code != reasons[rows].code || strcmp(name, reasons[rows].name)) {
			fprintf(stderr, "PROTOCOL.md row %u is %lu %s, SS_PROTO_REASONS has %u %s\n",
				rows, code, name, reasons[rows].code, reasons[rows].name);
			failures++;
		}
		if (err[0] && strcmp(err, "–") && strcmp(err, reasons[rows].err)) {
			fprintf(stderr, "%s: PROTOCOL.md says a refusal is %s, SS_PROTO_REASONS %s\n",
				name, err, reasons[rows].err);
			failures++;
		}
		rows++;
	}
	fclose(f);
	if (rows != NREASONS) {
		fprintf(stderr, "PROTOCOL.md section 3 has %u reasons, SS_PROTO_REASONS %zu\n", rows,
			NREASONS);
		failures++;
	}
	printf("reasons_ut: %u reasons, %d mismatches\n", rows, failures);
	return failures ? 1 : 0;
}
