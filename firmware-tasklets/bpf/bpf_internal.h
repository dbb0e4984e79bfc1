/* Opcode fields of RFC 9669 and the arithmetic shared by the verifier and the interpreter. */
#ifndef SS_BPF_INTERNAL_H
#define SS_BPF_INTERNAL_H

#include "ss_bpf.h"

/* classes (section 3) */
#define C_LD 0x00
#define C_LDX 0x01
#define C_ST 0x02
#define C_STX 0x03
#define C_ALU 0x04
#define C_JMP 0x05
#define C_JMP32 0x06
#define C_ALU64 0x07
#define CLASS(op) ((op) & 0x07)

/* arithmetic and jumps: code | source | class */
#define SRC_X 0x08
#define CODE(op) ((op) & 0xf0)
#define A_ADD 0x00
#define A_SUB 0x10
#define A_MUL 0x20
#define A_DIV 0x30
#define A_OR 0x40
#define A_AND 0x50
#define A_LSH 0x60
#define A_RSH 0x70
#define A_NEG 0x80
#define A_MOD 0x90
#define A_XOR 0xa0
#define A_MOV 0xb0
#define A_ARSH 0xc0
#define A_END 0xd0

#define J_JA 0x00
#define J_JEQ 0x10
#define J_JGT 0x20
#define J_JGE 0x30
#define J_JSET 0x40
#define J_JNE 0x50
#define J_JSGT 0x60
#define J_JSGE 0x70
#define J_CALL 0x80
#define J_EXIT 0x90
#define J_JLT 0xa0
#define J_JLE 0xb0
#define J_JSLT 0xc0
#define J_JSLE 0xd0

/* loads and stores: mode | size | class */
#define MODE(op) ((op) & 0xe0)
#define M_IMM 0x00
#define M_MEM 0x60
#define M_MEMSX 0x80
#define SIZE(op) ((op) & 0x18)
#define S_W 0x00
#define S_H 0x08
#define S_B 0x10
#define S_DW 0x18
#define LDDW (C_LD | M_IMM | S_DW)

#define DST(i) ((i)->regs & 0x0f)
#define SRC(i) ((i)->regs >> 4)

static inline unsigned size_bytes(uint8_t op)
{
	static const uint8_t b[4] = { 4, 2, 1, 8 };

	return b[SIZE(op) >> 3];
}

/**
 * The value of an ALU or ALU64 instruction on dst and src (src already the register or the
 * immediate, sign-extended to 64 bits). Division by zero and signed overflow follow RFC 9669
 * section 4.1: x / 0 = 0, x % 0 = x, LLONG_MIN / -1 wraps. Assumes a valid instruction.
 */
uint64_t ss_bpf_alu(const struct ss_bpf_insn *insn, uint64_t dst, uint64_t src);

/** The outcome of a conditional jump on dst and src (JMP or JMP32 class). */
int ss_bpf_cond(const struct ss_bpf_insn *insn, uint64_t dst, uint64_t src);

/** Structural validity of an ALU/ALU64 opcode with its off/imm fields: 0 or a reason. */
int ss_bpf_alu_valid(const struct ss_bpf_insn *insn);

/* Memory regions a pointer may point into; the verifier records each access's in
 * prog->aux[pc] >> 4, for the interpreter's counts. */
enum { REG_CTX = 1, REG_REC, REG_STACK, REG_OUT };
#define AUX_REGION(a) ((a) >> 4)

#endif
