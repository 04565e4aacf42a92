/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is a program statically linked? A preload never reaches such a program (no dynamic loader
 * runs), so the wrapper says so instead of failing silently. Pure: works on the file's first
 * bytes.
 */
#ifndef FLINKSHIM_ELF_STATIC_H
#define FLINKSHIM_ELF_STATIC_H

#include <stddef.h>

enum elf_kind {
	ELF_NOT_ELF = 0, /* a script, or unreadable: the kernel or loader decides */
	ELF_DYNAMIC,     /* has PT_INTERP: the dynamic loader runs and LD_PRELOAD works */
	ELF_STATIC       /* no PT_INTERP (static or static-pie): LD_PRELOAD is ignored */
};

/* head: the first len bytes of the file (the program headers must be among them). */
enum elf_kind elf_classify(const unsigned char *head, size_t len);

#endif
