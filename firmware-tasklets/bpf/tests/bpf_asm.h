/* Hand assembly of RFC 9669 instructions for the tests (encodings written from the RFC's
 * tables, independently of the module's bpf_internal.h). */
#ifndef BPF_ASM_H
#define BPF_ASM_H

#include "ss_bpf.h"

#define I(op, dst, src, off, imm) \
	((struct ss_bpf_insn){ (uint8_t)(op), (uint8_t)((dst) | ((src) << 4)), (int16_t)(off), (int32_t)(imm) })

/* classes */
#define LD 0x00
#define LDX 0x01
#define ST 0x02
#define STX 0x03
#define ALU 0x04
#define JMP 0x05
#define JMP32 0x06
#define ALU64 0x07
#define K 0x00
#define X 0x08
/* sizes and modes */
#define W 0x00
#define H 0x08
#define B 0x10
#define DW 0x18
#define MEM 0x60
#define MEMSX 0x80

#define ALU64_K(code, dst, imm) I(ALU64 | K | (code), dst, 0, 0, imm)
#define ALU64_X(code, dst, src) I(ALU64 | X | (code), dst, src, 0, 0)
#define ALU32_K(code, dst, imm) I(ALU | K | (code), dst, 0, 0, imm)
#define ALU32_X(code, dst, src) I(ALU | X | (code), dst, src, 0, 0)
#define MOV64_K(dst, imm) ALU64_K(0xb0, dst, imm)
#define MOV64_X(dst, src) ALU64_X(0xb0, dst, src)
#define LDX_MEM(sz, dst, src, off) I(LDX | MEM | (sz), dst, src, off, 0)
#define LDX_MEMSX(sz, dst, src, off) I(LDX | MEMSX | (sz), dst, src, off, 0)
#define STX_MEM(sz, dst, src, off) I(STX | MEM | (sz), dst, src, off, 0)
#define ST_MEM(sz, dst, off, imm) I(ST | MEM | (sz), dst, 0, off, imm)
#define LDDW_LO(dst, v) I(LD | 0x00 | DW, dst, 0, 0, (int32_t)(uint32_t)(v))
#define LDDW_HI(v) I(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))
#define JMP_K(code, dst, imm, off) I(JMP | K | (code), dst, 0, off, imm)
#define JMP_X(code, dst, src, off) I(JMP | X | (code), dst, src, off, 0)
#define JMP32_K(code, dst, imm, off) I(JMP32 | K | (code), dst, 0, off, imm)
#define JA(off) I(JMP | 0x00, 0, 0, off, 0)
#define CALL(id) I(JMP | 0x80, 0, 0, 0, id)
#define EXIT() I(JMP | 0x90, 0, 0, 0, 0)

/* operation codes */
#define ADD 0x00
#define SUB 0x10
#define MUL 0x20
#define DIV 0x30
#define OR 0x40
#define AND 0x50
#define LSH 0x60
#define RSH 0x70
#define NEG 0x80
#define MOD 0x90
#define XOR 0xa0
#define MOV 0xb0
#define ARSH 0xc0
#define END 0xd0
#define JEQ 0x10
#define JGT 0x20
#define JGE 0x30
#define JSET 0x40
#define JNE 0x50
#define JSGT 0x60
#define JSGE 0x70
#define JLT 0xa0
#define JLE 0xb0
#define JSLT 0xc0
#define JSLE 0xd0

#endif
