/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"
#include "elf_static.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

/* Read a little- or big-endian field of 2, 4 or 8 bytes. */
static unsigned long long field(const unsigned char *p, size_t size, int big)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (unsigned long long)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

enum elf_kind elf_classify(const unsigned char *head, size_t len)
{
	char unused[1];

	return elf_interp(head, len, unused, sizeof(unused), NULL);
}

static enum elf_kind elf_headers(const unsigned char *head, size_t len, char *out,
				 size_t outsz);

/* Copy PT_INTERP's string into out if it lies within head, is NUL-terminated there (the
 * kernel requires it) and fits. */
static void copy_interp(const unsigned char *head, size_t len, unsigned long long off,
			unsigned long long size, char *out, size_t outsz)
{
	if (off > len || size > len - off || size == 0 || size > outsz ||
	    head[off + size - 1] != '\0' || memchr(head + off, '\0', size) != head + off + size - 1)
		return;
	memcpy(out, head + off, size);
}

enum elf_kind elf_interp(const unsigned char *head, size_t len, char *out, size_t outsz,
			 struct elf_arch *arch)
{
	enum elf_kind kind = elf_headers(head, len, out, outsz);

	if (arch != NULL) {
		memset(arch, 0, sizeof(*arch));
		if (kind != ELF_NOT_ELF) {
			/* elf_headers() checked that the whole header is there. */
			arch->elf_class = head[EI_CLASS];
			arch->data = head[EI_DATA];
			arch->machine = (unsigned short)field(head + offsetof(Elf32_Ehdr, e_machine), 2,
							      arch->data == ELFDATA2MSB);
		}
	}
	return kind;
}

int elf_arch_equal(const struct elf_arch *a, const struct elf_arch *b)
{
	return a->elf_class == b->elf_class && a->data == b->data && a->machine == b->machine;
}

const char *elf_arch_name(const struct elf_arch *a, char *buf, size_t bufsz)
{
	static const struct {
		unsigned short machine;
		unsigned char elf_class;
		const char *name;
	} names[] = {
		{ EM_X86_64, ELFCLASS64, "x86-64" },
		{ EM_X86_64, ELFCLASS32, "x32 (x86-64 with 32-bit pointers)" },
		{ EM_386, ELFCLASS32, "x86 (i386)" },
		{ EM_AARCH64, ELFCLASS64, "AArch64" },
		{ EM_AARCH64, ELFCLASS32, "AArch64 ILP32" },
		{ EM_ARM, ELFCLASS32, "ARM" },
		{ EM_RISCV, ELFCLASS64, "RISC-V" },
		{ EM_PPC64, ELFCLASS64, "POWER" },
		{ EM_PPC, ELFCLASS32, "PowerPC" },
		{ EM_S390, ELFCLASS64, "s390x" },
		{ EM_MIPS, ELFCLASS32, "MIPS" },
		{ EM_MIPS, ELFCLASS64, "MIPS64" },
	};
	const char *bits = a->elf_class == ELFCLASS64 ? "64-bit" : "32-bit";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].machine == a->machine && names[i].elf_class == a->elf_class) {
			snprintf(buf, bufsz, "%s %s", bits, names[i].name);
			return buf;
		}
	snprintf(buf, bufsz, "%s machine %u, %s-endian", bits, a->machine,
		 a->data == ELFDATA2MSB ? "big" : "little");
	return buf;
}

static enum elf_kind elf_headers(const unsigned char *head, size_t len, char *out, size_t outsz)
{
	int is64, big;
	unsigned long long phoff, phentsize, phnum, i;

	if (outsz > 0)
		out[0] = '\0';

	if (len < EI_NIDENT || memcmp(head, ELFMAG, SELFMAG) != 0)
		return ELF_NOT_ELF;
	is64 = head[EI_CLASS] == ELFCLASS64;
	big = head[EI_DATA] == ELFDATA2MSB;
	if ((!is64 && head[EI_CLASS] != ELFCLASS32) ||
	    (!big && head[EI_DATA] != ELFDATA2LSB) ||
	    len < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return ELF_NOT_ELF;
	if (is64) {
		phoff = field(head + offsetof(Elf64_Ehdr, e_phoff), 8, big);
		phentsize = field(head + offsetof(Elf64_Ehdr, e_phentsize), 2, big);
		phnum = field(head + offsetof(Elf64_Ehdr, e_phnum), 2, big);
	} else {
		phoff = field(head + offsetof(Elf32_Ehdr, e_phoff), 4, big);
		phentsize = field(head + offsetof(Elf32_Ehdr, e_phentsize), 2, big);
		phnum = field(head + offsetof(Elf32_Ehdr, e_phnum), 2, big);
	}
	if (phentsize < 4 || phoff > len || phnum > (len - phoff) / phentsize)
		return ELF_NOT_ELF; /* headers beyond what we read: do not guess */
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = head + phoff + i * phentsize;

		if (field(ph, 4, big) != PT_INTERP)
			continue;
		if (is64 && phentsize >= sizeof(Elf64_Phdr))
			copy_interp(head, len, field(ph + offsetof(Elf64_Phdr, p_offset), 8, big),
				    field(ph + offsetof(Elf64_Phdr, p_filesz), 8, big), out, outsz);
		else if (!is64 && phentsize >= sizeof(Elf32_Phdr))
			copy_interp(head, len, field(ph + offsetof(Elf32_Phdr, p_offset), 4, big),
				    field(ph + offsetof(Elf32_Phdr, p_filesz), 4, big), out, outsz);
		return ELF_DYNAMIC;
	}
	return ELF_STATIC;
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *elf_loader_libc(const char *interp)
{
	const char *base = strrchr(interp, '/');

	base = base != NULL ? base + 1 : interp;
	if (starts_with(base, "ld-musl-"))
		return "musl";
	if (starts_with(base, "ld-linux") || starts_with(base, "ld64.so.") ||
	    strcmp(base, "ld.so.1") == 0)
		return "glibc";
	return NULL;
}
