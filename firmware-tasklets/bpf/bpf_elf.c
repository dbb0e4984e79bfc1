/*
 * The ELF loader: the program of one section of a relocatable ELF64 little-endian EM_BPF
 * object, as `clang -O2 -target bpf -c` writes it. Helpers are called by id
 * (include/tasklet/ss_tasklet_bpf.h declares them as `(void *)ID` pointers), so a program
 * needs no relocation; one that has any (globals, maps, calls between functions) is
 * refused. Every offset and size of the object is checked before use: it comes from a host.
 */
#include "bpf_internal.h"
#include "ss_rt.h"

#define EM_BPF 247
#define ET_REL 1
#define SHT_REL 9
#define SHT_RELA 4
#define SHF_EXECINSTR 0x4
#define EHDR_SIZE 64u
#define SHDR_SIZE 64u

struct shdr {
	uint32_t name;
	uint32_t type;
	uint64_t flags;
	uint64_t offset;
	uint64_t size;
	uint32_t info;
};

static int bad(struct ss_bpf_error *err, int reason)
{
	err->reason = reason;
	err->insn = 0;
	return -SS_EINVAL;
}

/* section i's header, checked to lie inside the object */
static int shdr_at(const uint8_t *elf, size_t size, uint64_t shoff, uint32_t i, struct shdr *sh)
{
	const uint8_t *p = elf + shoff + (uint64_t)i * SHDR_SIZE;

	sh->name = ss_get_le32(p);
	sh->type = ss_get_le32(p + 4);
	sh->flags = ss_get_le64(p + 8);
	sh->offset = ss_get_le64(p + 24);
	sh->size = ss_get_le64(p + 32);
	sh->info = ss_get_le32(p + 44);
	if (sh->type != 8 /* NOBITS */ && (sh->offset > size || sh->size > size - sh->offset))
		return -1;
	return 0;
}

/* does section `sh`'s name (in the string table `strtab`) equal `want`? */
static int name_is(const uint8_t *elf, const struct shdr *strtab, uint32_t name, const char *want)
{
	size_t n = ss_strnlen(want, 256);

	if (name > strtab->size || strtab->size - name <= n)
		return 0;
	return ss_memcmp(elf + strtab->offset + name, want, n) == 0 &&
	       elf[strtab->offset + name + n] == 0;
}

int ss_bpf_load_elf(struct ss_bpf_prog *prog, const struct ss_bpf_config *cfg, const void *obj,
		    size_t size, const char *section, struct ss_bpf_verifier *ws,
		    struct ss_bpf_error *err)
{
	const uint8_t *elf = obj;
	struct shdr strtab, sh, code = { 0 };
	uint64_t shoff;
	uint32_t shnum, shstrndx, code_i = 0, found = 0;

	prog->verified = 0;
	prog->n_insns = 0;
	if (size < EHDR_SIZE || elf[0] != 0x7f || elf[1] != 'E' || elf[2] != 'L' ||
	    elf[3] != 'F' || elf[4] != 2 /* 64-bit */ || elf[5] != 1 /* little-endian */ ||
	    ss_get_le16(elf + 16) != ET_REL || ss_get_le16(elf + 18) != EM_BPF ||
	    ss_get_le16(elf + 58) != SHDR_SIZE)
		return bad(err, SS_BPF_R_BAD_ELF);
	shoff = ss_get_le64(elf + 40);
	shnum = ss_get_le16(elf + 60);
	shstrndx = ss_get_le16(elf + 62);
	if (shoff > size || (size - shoff) / SHDR_SIZE < shnum || shstrndx >= shnum)
		return bad(err, SS_BPF_R_BAD_ELF);
	if (shdr_at(elf, size, shoff, shstrndx, &strtab) || strtab.type != 3 /* STRTAB */)
		return bad(err, SS_BPF_R_BAD_ELF);

	for (uint32_t i = 1; i < shnum; i++) {
		if (shdr_at(elf, size, shoff, i, &sh))
			return bad(err, SS_BPF_R_BAD_ELF);
		if (section ? !name_is(elf, &strtab, sh.name, section)
			    : !(sh.type == 1 /* PROGBITS */ && (sh.flags & SHF_EXECINSTR) && sh.size))
			continue;
		if (found++)
			return bad(err, SS_BPF_R_NO_SECTION); /* ambiguous: name the section */
		code = sh;
		code_i = i;
	}
	if (!found || code.type != 1 || code.size == 0)
		return bad(err, SS_BPF_R_NO_SECTION);
	if (code.size % sizeof(struct ss_bpf_insn))
		return bad(err, SS_BPF_R_BAD_ELF);
	for (uint32_t i = 1; i < shnum; i++) {
		shdr_at(elf, size, shoff, i, &sh);
		if ((sh.type == SHT_REL || sh.type == SHT_RELA) && sh.info == code_i && sh.size)
			return bad(err, SS_BPF_R_RELOCATION);
	}
	if (code.size / sizeof(struct ss_bpf_insn) > SS_BPF_MAX_INSNS) {
		err->reason = SS_BPF_R_TOO_BIG;
		err->insn = SS_BPF_MAX_INSNS;
		return -SS_E2BIG;
	}
	return ss_bpf_load(prog, cfg, elf + code.offset, (size_t)code.size / sizeof(struct ss_bpf_insn),
			   ws, err);
}
