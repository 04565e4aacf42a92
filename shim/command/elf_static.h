/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is a program statically linked, and if not, which dynamic loader runs it? A preload never
 * reaches a static program (no dynamic loader runs), nor one whose loader belongs to another
 * C library, so the wrapper says so instead of failing silently. Pure: works on the file's
 * first bytes.
 */
#ifndef FLINKSHIM_ELF_STATIC_H
#define FLINKSHIM_ELF_STATIC_H

#include <stddef.h>

enum elf_kind {
	ELF_NOT_ELF = 0, /* a script, or unreadable: the kernel or loader decides */
	ELF_DYNAMIC,     /* has PT_INTERP: the dynamic loader runs and LD_PRELOAD works */
	ELF_STATIC       /* no PT_INTERP (static or static-pie): LD_PRELOAD is ignored */
};

/* Which machine code a program holds: a preload is loaded only into programs of its own
 * class and machine (a 64-bit library into 64-bit x86-64 programs), and the loader ignores
 * it, with a message of its own, elsewhere. */
struct elf_arch {
	unsigned char elf_class; /* ELFCLASS32 or ELFCLASS64; 0 when not ELF */
	unsigned char data;      /* ELFDATA2LSB or ELFDATA2MSB */
	unsigned short machine;  /* e_machine: EM_X86_64, EM_386, EM_AARCH64... */
};

/* head: the first len bytes of the file (the program headers must be among them). */
enum elf_kind elf_classify(const unsigned char *head, size_t len);

/* elf_classify(), and for ELF_DYNAMIC the program interpreter that PT_INTERP names (the
 * dynamic loader, /lib64/ld-linux-x86-64.so.2 say) in out, NUL-terminated. out is left empty
 * when the name lies beyond head, does not fit, or is not a plain string. arch (may be NULL)
 * gets the class, byte order and machine whenever the result is not ELF_NOT_ELF, and zeros
 * otherwise. */
enum elf_kind elf_interp(const unsigned char *head, size_t len, char *out, size_t outsz,
			 struct elf_arch *arch);

/* Do a and b name the same machine code (class, byte order and machine)? */
int elf_arch_equal(const struct elf_arch *a, const struct elf_arch *b);

/* A name for users: "64-bit x86-64", "32-bit x86 (i386)", "64-bit AArch64", or for a
 * machine not in the list "32-bit machine 40, little-endian"; written into buf. */
const char *elf_arch_name(const struct elf_arch *a, char *buf, size_t bufsz);

/* The C library a dynamic loader belongs to, by its file name: "glibc" (ld-linux*.so.N,
 * ld64.so.N, ld.so.1), "musl" (ld-musl-ARCH.so.1), or NULL for any other. A preload must be
 * built for the same C library as the program: glibc's loader cannot load a musl library. */
const char *elf_loader_libc(const char *interp);

#endif
