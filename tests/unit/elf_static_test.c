/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Static-binary detection on real files (this test program, libc) and on crafted headers. */
#include "config.h"

#include "elf_static.h"
#include "tap.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

/* e_machine of the programs this compiler makes. */
#if defined(__x86_64__)
#define NATIVE_MACHINE EM_X86_64
#elif defined(__i386__)
#define NATIVE_MACHINE EM_386
#elif defined(__aarch64__)
#define NATIVE_MACHINE EM_AARCH64
#elif defined(__arm__)
#define NATIVE_MACHINE EM_ARM
#elif defined(__riscv)
#define NATIVE_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define NATIVE_MACHINE EM_PPC64
#elif defined(__s390x__)
#define NATIVE_MACHINE EM_S390
#else
#define NATIVE_MACHINE EM_NONE /* add the compiler's machine here */
#endif

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

/* make_elf() with the interpreter string str (size bytes, NUL included or not) after the
 * headers, and PT_INTERP's p_offset/p_filesz pointing at it. */
static size_t make_interp(unsigned char *buf, size_t bufsz, const char *str, size_t size)
{
	size_t n = make_elf(buf, bufsz, 1, 4);
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));

	ph[3].p_offset = n;
	ph[3].p_filesz = size;
	memcpy(buf + n, str, size);
	return n + size;
}

static void test_interp(const char *self)
{
	unsigned char buf[1024];
	char out[64];
	char big[PATH_MAX];
	ssize_t got;
	size_t n;
	int fd;

	n = make_interp(buf, sizeof(buf), "/lib/ld-musl-x86_64.so.1", 25);
	tap_ok(elf_interp(buf, n, out, sizeof(out), NULL) == ELF_DYNAMIC &&
		       strcmp(out, "/lib/ld-musl-x86_64.so.1") == 0,
	       "elf_interp reads PT_INTERP's string (got \"%s\")", out);
	tap_ok(elf_interp(buf, n - 1, out, sizeof(out), NULL) == ELF_DYNAMIC && out[0] == '\0',
	       "elf_interp: the string cut short by the buffer: dynamic, no name");
	tap_ok(elf_interp(buf, n, out, 10, NULL) == ELF_DYNAMIC && out[0] == '\0',
	       "elf_interp: a name that does not fit: dynamic, no name");
	n = make_interp(buf, sizeof(buf), "/lib/ld-musl-x86_64.so.1X", 25);
	tap_ok(elf_interp(buf, n, out, sizeof(out), NULL) == ELF_DYNAMIC && out[0] == '\0',
	       "elf_interp: a name without its NUL: dynamic, no name");
	n = make_interp(buf, sizeof(buf), "/lib/ld\0-musl.so.1", 19);
	tap_ok(elf_interp(buf, n, out, sizeof(out), NULL) == ELF_DYNAMIC && out[0] == '\0',
	       "elf_interp: a NUL inside the name: dynamic, no name");
	make_interp(buf, sizeof(buf), "/lib/ld.so", 11);
	((Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr)))[3].p_offset = 0xfffffffffffffff0ULL;
	tap_ok(elf_interp(buf, sizeof(buf), out, sizeof(out), NULL) == ELF_DYNAMIC && out[0] == '\0',
	       "elf_interp: an absurd p_offset: dynamic, no name, no overrun");
	n = make_elf(buf, sizeof(buf), 0, 4);
	tap_ok(elf_interp(buf, n, out, sizeof(out), NULL) == ELF_STATIC && out[0] == '\0',
	       "elf_interp of a static program: no name");

	/* This very program: its loader is the one its C library ships. */
	fd = open(self, O_RDONLY);
	got = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	tap_ok(got > 0 && elf_interp(buf, (size_t)got, big, sizeof(big), NULL) == ELF_DYNAMIC &&
		       elf_loader_libc(big) != NULL &&
		       strcmp(elf_loader_libc(big), FLINKSHIM_LIBC) == 0,
	       "this test program's loader (%s) is %s's", got > 0 ? big : "?", FLINKSHIM_LIBC);
}

static void put16(unsigned char *p, unsigned v, int big)
{
	p[big ? 1 : 0] = (unsigned char)(v & 0xff);
	p[big ? 0 : 1] = (unsigned char)(v >> 8);
}

/* A 32-bit header with no program headers (static), of the given byte order and machine. */
static size_t make_elf32(unsigned char *buf, size_t size, int big, unsigned short machine)
{
	Elf32_Ehdr *eh = (Elf32_Ehdr *)buf;

	memset(buf, 0, size);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	eh->e_ident[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	/* The fields in the file's byte order, whatever this machine's. */
	put16(buf + offsetof(Elf32_Ehdr, e_machine), machine, big);
	put16(buf + offsetof(Elf32_Ehdr, e_phoff) + (big ? 2 : 0), sizeof(*eh), big);
	put16(buf + offsetof(Elf32_Ehdr, e_phentsize), sizeof(Elf32_Phdr), big);
	return sizeof(*eh);
}

static void test_arch(const char *self)
{
	unsigned char buf[1024];
	struct elf_arch a, b;
	enum elf_kind kind;
	char name[64];
	size_t n;
	int fd;
	ssize_t got;

	n = make_elf(buf, sizeof(buf), 1, 4);
	((Elf64_Ehdr *)buf)->e_machine = EM_X86_64;
	kind = elf_interp(buf, n, NULL, 0, &a);
	tap_ok(kind == ELF_DYNAMIC && a.elf_class == ELFCLASS64 &&
		       a.data == ELFDATA2LSB && a.machine == EM_X86_64,
	       "elf_interp reports a 64-bit little-endian x86-64 header (class %u, data %u, "
	       "machine %u)", a.elf_class, a.data, a.machine);
	tap_ok(strcmp(elf_arch_name(&a, name, sizeof(name)), "64-bit x86-64") == 0,
	       "elf_arch_name: \"%s\"", name);

	n = make_elf32(buf, sizeof(buf), 0, EM_386);
	kind = elf_interp(buf, n, NULL, 0, &b);
	tap_ok(kind == ELF_STATIC && b.elf_class == ELFCLASS32 &&
		       b.data == ELFDATA2LSB && b.machine == EM_386,
	       "elf_interp reports a 32-bit i386 header (class %u, machine %u)", b.elf_class,
	       b.machine);
	tap_ok(strcmp(elf_arch_name(&b, name, sizeof(name)), "32-bit x86 (i386)") == 0,
	       "elf_arch_name: \"%s\"", name);
	tap_ok(!elf_arch_equal(&a, &b) && elf_arch_equal(&a, &a), "elf_arch_equal tells them apart");

	n = make_elf32(buf, sizeof(buf), 1, EM_PPC);
	kind = elf_interp(buf, n, NULL, 0, &b);
	tap_ok(kind == ELF_STATIC && b.data == ELFDATA2MSB &&
		       b.machine == EM_PPC,
	       "elf_interp reads e_machine big-endian in a big-endian file (machine %u)",
	       b.machine);
	b.machine = 4242;
	tap_ok(strcmp(elf_arch_name(&b, name, sizeof(name)), "32-bit machine 4242, big-endian") ==
		       0,
	       "elf_arch_name of an unknown machine: \"%s\"", name);

	memset(&a, 0xff, sizeof(a));
	kind = elf_interp(buf, 3, NULL, 0, &a);
	tap_ok(kind == ELF_NOT_ELF && a.elf_class == 0 &&
		       a.machine == 0,
	       "not ELF: the arch is zeroed");

	/* This very program is of the machine the compiler built it for. */
	fd = open(self, O_RDONLY);
	got = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	kind = got > 0 ? elf_interp(buf, (size_t)got, NULL, 0, &a) : ELF_NOT_ELF;
	tap_ok(kind == ELF_DYNAMIC &&
		       a.elf_class == (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) &&
		       a.machine == NATIVE_MACHINE,
	       "this test program: %s", elf_arch_name(&a, name, sizeof(name)));
}

static void test_loader_libc(void)
{
	static const struct {
		const char *interp;
		const char *libc;
	} cases[] = {
		{ "/lib64/ld-linux-x86-64.so.2", "glibc" },
		{ "/lib/ld-linux.so.2", "glibc" },
		{ "/lib/ld-linux-aarch64.so.1", "glibc" },
		{ "/lib/ld-linux-armhf.so.3", "glibc" },
		{ "/lib64/ld64.so.2", "glibc" },
		{ "/lib/ld64.so.1", "glibc" },
		{ "/lib/ld.so.1", "glibc" },
		{ "/lib/ld-musl-x86_64.so.1", "musl" },
		{ "/lib/ld-musl-aarch64.so.1", "musl" },
		{ "ld-musl-armhf.so.1", "musl" },
		{ "/system/bin/linker64", NULL },
		{ "/lib/ld-uClibc.so.0", NULL },
		{ "/nix/store/x/lib/ld.so", NULL },
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = elf_loader_libc(cases[i].interp);

		tap_ok(cases[i].libc == NULL ? got == NULL
					     : got != NULL && strcmp(got, cases[i].libc) == 0,
		       "elf_loader_libc(\"%s\") is %s", cases[i].interp,
		       cases[i].libc != NULL ? cases[i].libc : "unknown");
	}
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

	test_interp(argv[0]);
	test_arch(argv[0]);
	test_loader_libc();
	tap_done();
}
