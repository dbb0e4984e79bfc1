/* The arithmetic of RFC 9669 sections 4.1-4.3 and 4.3's jump conditions: one copy, which
 * the interpreter runs and the verifier folds constants with. */
#include "bpf_internal.h"

static uint64_t bswap(uint64_t v, int bits)
{
	uint64_t r = 0;

	for (int i = 0; i < bits / 8; i++) {
		r = (r << 8) | (v & 0xff);
		v >>= 8;
	}
	return r;
}

static uint64_t sext(uint64_t v, int bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);

	v &= bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
	return (v ^ m) - m;
}

int ss_bpf_alu_valid(const struct ss_bpf_insn *in)
{
	int is64 = CLASS(in->opcode) == C_ALU64;
	uint8_t code = CODE(in->opcode);
	int x = in->opcode & SRC_X;

	if (code == A_END) {
		/* the source bit picks the byte order; imm is the width */
		if (in->off || SRC(in))
			return SS_BPF_R_BAD_FIELD;
		if (is64 && x)
			return SS_BPF_R_BAD_OPCODE;
		return in->imm == 16 || in->imm == 32 || in->imm == 64 ? 0 : SS_BPF_R_BAD_FIELD;
	}
	if (x && in->imm != 0)
		return SS_BPF_R_BAD_FIELD;
	if (!x && SRC(in) != 0)
		return SS_BPF_R_BAD_FIELD;
	switch (code) {
	case A_DIV:
	case A_MOD:
		return in->off == 0 || in->off == 1 ? 0 : SS_BPF_R_BAD_FIELD;
	case A_MOV:
		if (in->off == 0)
			return 0;
		if (!x)
			return SS_BPF_R_BAD_FIELD;
		if (in->off == 8 || in->off == 16 || (is64 && in->off == 32))
			return 0;
		return SS_BPF_R_BAD_FIELD;
	case A_NEG:
		return x || in->off || in->imm ? SS_BPF_R_BAD_FIELD : 0;
	case A_ADD: case A_SUB: case A_MUL: case A_OR: case A_AND: case A_LSH: case A_RSH:
	case A_XOR: case A_ARSH:
		return in->off ? SS_BPF_R_BAD_FIELD : 0;
	default:
		return SS_BPF_R_BAD_OPCODE;
	}
}

uint64_t ss_bpf_alu(const struct ss_bpf_insn *in, uint64_t d, uint64_t s)
{
	int is64 = CLASS(in->opcode) == C_ALU64;
	int bits = is64 ? 64 : 32;
	uint64_t mask = is64 ? ~(uint64_t)0 : 0xffffffffu;
	uint64_t r;

	if (CODE(in->opcode) == A_END) {
		/* works on the 64-bit register whatever the class */
		if (is64 || (in->opcode & SRC_X))
			return bswap(d, in->imm);
		return in->imm == 64 ? d : d & (((uint64_t)1 << in->imm) - 1);
	}
	if (!is64) {
		d &= mask;
		s &= mask;
	}
	switch (CODE(in->opcode)) {
	case A_ADD: r = d + s; break;
	case A_SUB: r = d - s; break;
	case A_MUL: r = d * s; break;
	case A_DIV:
		if (s == 0) {
			r = 0;
		} else if (in->off == 0) {
			r = d / s;
		} else {
			int64_t sd = (int64_t)sext(d, bits), ss = (int64_t)sext(s, bits);

			/* the one quotient that overflows wraps to the dividend */
			r = ss == -1 ? (uint64_t)0 - (uint64_t)sd : (uint64_t)(sd / ss);
		}
		break;
	case A_MOD:
		if (s == 0) {
			r = d;
		} else if (in->off == 0) {
			r = d % s;
		} else {
			int64_t sd = (int64_t)sext(d, bits), ss = (int64_t)sext(s, bits);

			r = ss == -1 ? 0 : (uint64_t)(sd % ss);
		}
		break;
	case A_OR: r = d | s; break;
	case A_AND: r = d & s; break;
	case A_LSH: r = d << (s & (bits - 1)); break;
	case A_RSH: r = d >> (s & (bits - 1)); break;
	case A_NEG: r = (uint64_t)0 - d; break;
	case A_XOR: r = d ^ s; break;
	case A_MOV: r = in->off ? sext(s, in->off) : s; break;
	case A_ARSH: {
		uint64_t sh = s & (bits - 1);
		uint64_t v = sext(d, bits);

		/* an arithmetic shift without relying on the compiler's signed >> */
		r = sh ? (v >> sh) | ((v >> 63) ? ~(~(uint64_t)0 >> sh) : 0) : v;
		break;
	}
	default: r = 0; break;
	}
	return r & mask;
}

int ss_bpf_cond(const struct ss_bpf_insn *in, uint64_t d, uint64_t s)
{
	int64_t sd, ss;

	if (CLASS(in->opcode) == C_JMP32) {
		d &= 0xffffffffu;
		s &= 0xffffffffu;
		sd = (int64_t)sext(d, 32);
		ss = (int64_t)sext(s, 32);
	} else {
		sd = (int64_t)d;
		ss = (int64_t)s;
	}
	switch (CODE(in->opcode)) {
	case J_JA: return 1;
	case J_JEQ: return d == s;
	case J_JGT: return d > s;
	case J_JGE: return d >= s;
	case J_JSET: return (d & s) != 0;
	case J_JNE: return d != s;
	case J_JSGT: return sd > ss;
	case J_JSGE: return sd >= ss;
	case J_JLT: return d < s;
	case J_JLE: return d <= s;
	case J_JSLT: return sd < ss;
	case J_JSLE: return sd <= ss;
	default: return 0;
	}
}
