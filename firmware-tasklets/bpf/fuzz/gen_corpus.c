/*
 * Writes the eBPF harness's seed corpus: hand-assembled programs (accepted ones that reach
 * every instruction class and helper, and hostile ones), recipes, and the restricted-C test
 * programs' ELF objects when their directory is given.
 *   usage: fuzz_bpf_gen_corpus OUT_DIR [PROGS_DIR]
 */
#include <stdio.h>
#include <string.h>

#include "bpf_asm.h"
#include "bpf_fuzz.h"

static const char *out_dir;

static void put(const char *name, uint8_t mode, uint8_t rec_min, uint8_t span, const void *prog,
		size_t plen)
{
	static uint8_t buf[FZB_MAX_INPUT];
	uint8_t recs[256];
	char path[4096];
	size_t n;
	FILE *f;

	for (unsigned i = 0; i < sizeof(recs); i++)
		recs[i] = (uint8_t)(i * 7 + 3);
	n = fzb_input(buf, mode, rec_min, span, 64, 64, 8, 5, 3, prog, (uint16_t)plen, recs,
		      sizeof(recs));
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, n, f) != n || fclose(f))
		fprintf(stderr, "fuzz_bpf_gen_corpus: cannot write %s\n", path);
}

#define PUT(name, ...)                                                                   \
	do {                                                                             \
		const struct ss_bpf_insn p_[] = { __VA_ARGS__ };                         \
		put(name, 0, 16, 16, p_, sizeof(p_));                                    \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s OUT_DIR [PROGS_DIR]\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	PUT("raw-alu", LDDW_LO(1, 0x1122334455667788ull), LDDW_HI(0x1122334455667788ull),
	    MOV64_K(2, 7), ALU64_X(ADD, 1, 2), ALU32_X(MUL, 1, 2), ALU64_K(DIV, 1, 3),
	    ALU64_K(MOD, 1, 5), ALU64_K(LSH, 1, 3), ALU64_K(ARSH, 1, 1), ALU32_K(RSH, 1, 2),
	    I(ALU | X | END, 1, 0, 0, 32), I(ALU64 | K | END, 1, 0, 0, 16),
	    I(ALU64 | X | MOV, 3, 1, 8, 0), ALU64_K(NEG, 3, 0), ALU64_X(XOR, 1, 3),
	    MOV64_X(0, 1), EXIT());
	PUT("raw-mem", LDX_MEM(DW, 4, 2, 8), STX_MEM(DW, 10, 4, -8), LDX_MEM(W, 5, 10, -8),
	    STX_MEM(W, 3, 5, 4), ST_MEM(H, 3, 8, 0x1234), LDX_MEMSX(H, 0, 3, 8),
	    LDX_MEM(DW, 6, 1, 0), ALU64_X(ADD, 0, 6), EXIT());
	PUT("raw-bounded-index", LDX_MEM(DW, 4, 1, 16), MOV64_K(0, 0), JMP_K(JGT, 4, 31, 2),
	    ALU64_X(ADD, 2, 4), LDX_MEM(B, 0, 2, 0), EXIT());
	PUT("raw-helpers", LDX_MEM(W, 6, 2, 0), LDX_MEM(DW, 7, 2, 8), MOV64_X(1, 6),
	    MOV64_X(2, 7), CALL(2), MOV64_X(1, 7), MOV64_X(2, 6), CALL(3), MOV64_X(1, 2),
	    MOV64_X(1, 3), MOV64_K(2, 16), CALL(1), MOV64_K(1, 4), MOV64_K(2, 8), CALL(4),
	    EXIT());
	PUT("raw-jumps", LDX_MEM(DW, 4, 2, 0), MOV64_K(0, 0), JMP_K(JSGT, 4, 5, 2),
	    JMP32_K(JSET, 4, 3, 1), ALU64_K(ADD, 0, 1), JMP_X(JLE, 4, 0, 1), ALU64_K(ADD, 0, 2),
	    JA(0), I(JMP32 | 0x00, 0, 0, 0, 0), EXIT());
	PUT("raw-guarded-div", LDX_MEM(DW, 4, 1, 16), MOV64_K(0, 0), JMP_K(JEQ, 4, 0, 2),
	    MOV64_K(0, 100), ALU64_X(DIV, 0, 4), EXIT());
	PUT("raw-hostile-oob", LDX_MEM(DW, 4, 1, 16), ALU64_X(ADD, 2, 4), LDX_MEM(B, 0, 2, 0),
	    EXIT());
	PUT("raw-hostile-loop", MOV64_K(0, 0), ALU64_K(ADD, 0, 1), JMP_K(JLT, 0, 10, -2),
	    EXIT());
	PUT("raw-hostile-leak", STX_MEM(DW, 10, 2, -8), LDX_MEM(W, 0, 10, -8), EXIT());
	{
		uint8_t recipe[256];

		for (unsigned i = 0; i < sizeof(recipe); i++)
			recipe[i] = (uint8_t)(i * 37 + 11);
		put("recipe-1", 2, 16, 16, recipe, sizeof(recipe));
		for (unsigned i = 0; i < sizeof(recipe); i++)
			recipe[i] = (uint8_t)(i * 101 + 5);
		put("recipe-2", 2, 8, 32, recipe, sizeof(recipe));
	}
	if (argc > 2) {
		static const char *const progs[] = { "filter_count", "group_sum", "unrolled",
						     "field", "tail", "unbounded", "global", "byte_at",
						     "byte_at_v3" };

		for (unsigned i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
			static uint8_t obj[16384];
			char path[4096], name[64];
			size_t n;
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s.o", argv[2], progs[i]);
			f = fopen(path, "rb");
			if (!f) {
				fprintf(stderr, "fuzz_bpf_gen_corpus: no %s\n", path);
				continue;
			}
			n = fread(obj, 1, sizeof(obj), f);
			fclose(f);
			snprintf(name, sizeof(name), "elf-%s", progs[i]);
			put(name, 1, 16, 0, obj, n);
		}
	}
	return 0;
}
