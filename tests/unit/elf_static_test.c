/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Static-binary detection on real files (this test program, libc) and on crafted headers. */
#include "config.h"

#include "elf_static.h"
#include "tap.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

static enum elf_kind classify_file(const char *path)
{
	unsigned char head[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return (enum elf_kind)-1;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n < 0 ? (enum elf_kind)-1 : elf_classify(head, (size_t)n);
}

/* A minimal 64-bit little-endian header with program headers right after it. */
static size_t make_elf(unsigned char *buf, size_t size, int with_interp, int phnum)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(*eh));
	int i;

	memset(buf, 0, size);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = (Elf64_Half)phnum;
	for (i = 0; i < phnum; i++)
		ph[i].p_type = PT_LOAD;
	if (with_interp && phnum > 0)
		ph[phnum - 1].p_type = PT_INTERP;
	return sizeof(*eh) + (size_t)phnum * sizeof(*ph);
}

int main(int argc, char **argv)
{
	unsigned char buf[1024];
	size_t n;

	(void)argc;
	tap_is(classify_file(argv[0]), ELF_DYNAMIC, "this test program is dynamically linked");
	tap_is(classify_file("/bin/sh"), ELF_DYNAMIC, "/bin/sh is dynamically linked");
	tap_is(classify_file("/etc/passwd"), ELF_NOT_ELF, "a text file is not ELF");

	n = make_elf(buf, sizeof(buf), 1, 4);
	tap_is(elf_classify(buf, n), ELF_DYNAMIC, "PT_INTERP among the headers: dynamic");
	n = make_elf(buf, sizeof(buf), 0, 4);
	tap_is(elf_classify(buf, n), ELF_STATIC, "no PT_INTERP: static");
	n = make_elf(buf, sizeof(buf), 1, 4);
	tap_is(elf_classify(buf, n - 1), ELF_NOT_ELF, "headers cut short: no guess");
	n = make_elf(buf, sizeof(buf), 0, 0);
	tap_is(elf_classify(buf, n), ELF_STATIC, "no program headers at all: static");
	make_elf(buf, sizeof(buf), 1, 4);
	((Elf64_Ehdr *)buf)->e_phnum = 0xffff;
	tap_is(elf_classify(buf, sizeof(buf)), ELF_NOT_ELF, "absurd e_phnum: no guess, no overrun");
	make_elf(buf, sizeof(buf), 1, 4);
	((Elf64_Ehdr *)buf)->e_phoff = 0xffffffffffffff00ULL;
	tap_is(elf_classify(buf, sizeof(buf)), ELF_NOT_ELF, "absurd e_phoff: no guess, no overrun");
	make_elf(buf, sizeof(buf), 1, 4);
	buf[EI_CLASS] = 7;
	tap_is(elf_classify(buf, sizeof(buf)), ELF_NOT_ELF, "unknown ELF class");
	tap_is(elf_classify(buf, 3), ELF_NOT_ELF, "three bytes");
	tap_done();
}
