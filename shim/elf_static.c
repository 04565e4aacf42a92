/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"
#include "elf_static.h"

#include <elf.h>
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
	int is64, big;
	unsigned long long phoff, phentsize, phnum, i;

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
	for (i = 0; i < phnum; i++)
		if (field(head + phoff + i * phentsize, 4, big) == PT_INTERP)
			return ELF_DYNAMIC;
	return ELF_STATIC;
}
