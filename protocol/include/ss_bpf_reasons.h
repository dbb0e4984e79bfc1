/*
 * Why the drive refused an eBPF tasklet program (TASKLET_LOAD, or CREATE_OBJECT of a "bpf"
 * instance): X(NAME, text), code = position. The drive's verifier (firmware-tasklets/bpf)
 * and the host library, which names the code in its message, share this one list; a
 * refusal's reply carries the code in value0 and the instruction's index in value1
 * (native/PROTOCOL.md 4.7).
 */
#ifndef SS_BPF_REASONS_H
#define SS_BPF_REASONS_H

#define SS_BPF_REASONS(X)                                                                \
	X(NONE, "accepted")                                                              \
	X(EMPTY, "empty program")                                                        \
	X(TOO_BIG, "program longer than the limit")                                      \
	X(BAD_OPCODE, "unknown or unsupported opcode")                                   \
	X(BAD_REG, "register number out of range")                                       \
	X(BAD_FIELD, "reserved field not zero")                                          \
	X(WRITE_R10, "write to the frame pointer r10")                                   \
	X(LDDW_TRUNCATED, "wide instruction cut off at the end")                        \
	X(JUMP_OUT, "jump out of the program")                                           \
	X(JUMP_MID_LDDW, "jump into the middle of a wide instruction")                  \
	X(BACK_EDGE, "backward jump (loop): not accepted in this version")              \
	X(FALL_OFF, "execution falls off the end of the program")                       \
	X(TOO_COMPLEX, "too many forward jumps pending at once")                        \
	X(UNINIT_REG, "read of an uninitialised or merged-unknown register")            \
	X(UNINIT_STACK, "read of stack not written before")                             \
	X(NOT_POINTER, "memory access through a scalar")                                \
	X(OUT_OF_BOUNDS, "memory access not proven inside its buffer")                  \
	X(STACK_LIMIT, "stack access beyond the stack limit")                           \
	X(READ_ONLY, "store into the record or the context")                            \
	X(POINTER_LEAK, "pointer stored, compared or returned as data")                 \
	X(POINTER_ARITH, "pointer arithmetic other than adding a bounded scalar")       \
	X(DIV_BY_ZERO, "division or modulo by a value not proven non-zero")             \
	X(UNKNOWN_HELPER, "call of a helper not in the allow-list")                     \
	X(HELPER_ARG, "helper called with a bad argument")                              \
	X(BAD_ELF, "malformed ELF object")                                              \
	X(NO_SECTION, "no program section in the ELF object")                           \
	X(RELOCATION, "program needs relocations (globals or maps): not supported")

#endif
