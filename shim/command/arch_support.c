/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"
#include "arch_support.h"

#include "trace_arch.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The linker's name for this program's own ELF header (GNU ld, gold and lld define it). */
extern const unsigned char __ehdr_start[] __attribute__((visibility("hidden")));

void arch_self(struct elf_arch *out)
{
	uint16_t machine; /* in this machine's own byte order, since it is this program's */

	memcpy(&machine, __ehdr_start + offsetof(Elf32_Ehdr, e_machine), sizeof(machine));
	out->elf_class = __ehdr_start[EI_CLASS];
	out->data = __ehdr_start[EI_DATA];
	out->machine = machine;
}

int arch_trace_serves(const struct elf_arch *a)
{
#if TRACE_ARCH_SUPPORTED
	/* The tracer rewrites the system calls of the ABIs its seccomp filter traps
	 * (trace_arch_abis: on x86_64, native, i386 and x32), each known by the audit arch the
	 * kernel reports: the ELF machine, with bits for 64 bits and little-endian. x32
	 * programs enter the kernel through the x86-64 entry, so theirs is AUDIT_ARCH_X86_64. */
	unsigned int audit = a->machine;
	int i;

	if (a->elf_class == ELFCLASS64 || a->machine == EM_X86_64)
		audit |= 0x80000000U; /* __AUDIT_ARCH_64BIT */
	if (a->data == ELFDATA2LSB)
		audit |= 0x40000000U; /* __AUDIT_ARCH_LE */
	for (i = 0; i < trace_arch_nabis; i++)
		if (a->elf_class != 0 && trace_arch_abis[i].audit_arch == audit)
			return 1;
#else
	(void)a;
#endif
	return 0;
}

const char *arch_trace_scope(char *buf, size_t bufsz)
{
	struct elf_arch self;
	char name[64];

	if (!TRACE_ARCH_SUPPORTED) {
		snprintf(buf, bufsz, "this build has no --trace (x86_64 builds only)");
		return buf;
	}
	arch_self(&self);
	snprintf(buf, bufsz, "--trace in this build rewrites the system calls of %s programs only",
		 elf_arch_name(&self, name, sizeof(name)));
	return buf;
}

/* Is path an ELF file of architecture a? */
static int file_is_arch(const char *path, const struct elf_arch *a)
{
	unsigned char head[4096]; /* the program headers too: elf_interp() wants them */
	struct elf_arch got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n > 0 && elf_interp(head, (size_t)n, NULL, 0, &got) != ELF_NOT_ELF &&
	       elf_arch_equal(&got, a);
}

/* Does dir/ENTRY/soname, for an entry of dir whose name starts with prefix, hold a library
 * of architecture a? */
static int some_entry_holds(const char *dir, const char *prefix, const char *soname,
			    const struct elf_arch *a)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (d == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		char path[PATH_MAX];

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, soname) >=
			    sizeof(path))
			continue;
		found = file_is_arch(path, a);
	}
	closedir(d);
	return found;
}

int arch_preload_serves(const char *preload, const struct elf_arch *a)
{
	static const char token[] = "/$LIB/";
	struct elf_arch self;
	const char *at = strstr(preload, token);
	char base[PATH_MAX], lib[PATH_MAX + 8];

	arch_self(&self);
	if (elf_arch_equal(a, &self))
		return 1;
	if (at == NULL || (size_t)(at - preload) >= sizeof(base))
		return 0;
	/* $LIB is lib/<triplet> on Debian's multiarch glibc (libc6:i386 too), lib32 for
	 * Debian's multilib i386 loader (libc6-i386), lib64 or lib elsewhere. */
	snprintf(base, sizeof(base), "%.*s", (int)(at - preload), preload);
	snprintf(lib, sizeof(lib), "%s/lib", base);
	return some_entry_holds(base, "lib", at + sizeof(token) - 1, a) ||
	       some_entry_holds(lib, "", at + sizeof(token) - 1, a);
}
