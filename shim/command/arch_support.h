/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which programs this build of flinkshim can serve, by their machine code. The preload is
 * loaded only into programs of the library's own class and machine (the loader ignores it in
 * others, with a message of its own), unless LD_PRELOAD names it through ld.so's $LIB token
 * and a build of the library for the program's architecture is installed where $LIB leads
 * (Debian multiarch: libflinkshim0:i386 beside libflinkshim0:amd64). --trace rewrites the
 * system calls of the architectures its tracer knows.
 */
#ifndef FLINKSHIM_ARCH_SUPPORT_H
#define FLINKSHIM_ARCH_SUPPORT_H

#include "elf_static.h"

/* The class and machine of this very program (and of the library built with it). */
void arch_self(struct elf_arch *out);

/* Does --trace rewrite the linkat() calls of programs of architecture a? (Read from the
 * tracer's own table of system call ABIs: when it learns one, this follows.) */
int arch_trace_serves(const struct elf_arch *a);

/* What --trace covers, for messages: "--trace in this build rewrites the system calls of
 * 64-bit x86-64 programs only", or, where the build has no tracer, "this build has no
 * --trace (x86_64 builds only)". Written into buf. */
const char *arch_trace_scope(char *buf, size_t bufsz);

/* Does the preload string (as put into LD_PRELOAD) load into programs of architecture a?
 * Yes for this build's own; for another, only when preload goes through "/$LIB/" and a copy
 * of the library of that class and machine is installed in one of the directories $LIB can
 * stand for there (lib/<multiarch triplet>, lib32, lib64, libx32...). */
int arch_preload_serves(const char *preload, const struct elf_arch *a);

#endif
