/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oldkernel CMD [ARG...]: run CMD as if on a kernel before 6.10 (or without
 * CAP_DAC_READ_SEARCH on any kernel): linkat() with AT_EMPTY_PATH in its flags fails with
 * ENOENT, which is exactly how such a kernel refuses the direct form. Everything else,
 * linkat() without AT_EMPTY_PATH included, goes to the kernel untouched.
 *
 * It is a seccomp filter, so it binds CMD and everything CMD starts, and no LD_PRELOAD or
 * raw syscall can get around it. PR_SET_NO_NEW_PRIVS lets an unprivileged process install
 * it, and keeps the caller's credentials object (so it does not itself break the 6.10 rule
 * for fds opened afterwards).
 *
 * Exit status: CMD's, or 125 if the filter could not be installed (the suites skip then),
 * 127 if CMD could not be run.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H)
#include <endian.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The architecture this program (and so the programs it tests) runs as. A filter that only
 * looked at the number would match some other syscall of another ABI (i386 on x86_64). */
#if defined(__x86_64__) && defined(__ILP32__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_X86_64 /* x32: same arch value, numbers have bit 30 set */
#elif defined(__x86_64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define OUR_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER == __LITTLE_ENDIAN
#define OUR_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_PPC64
#elif defined(__s390x__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_S390X
#endif
#endif

#ifdef OUR_AUDIT_ARCH
/* The kernel reads linkat's flags as an int: the low 32 bits of the 64-bit argument slot. */
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define FLAGS_LOW_WORD offsetof(struct seccomp_data, args[4])
#else
#define FLAGS_LOW_WORD (offsetof(struct seccomp_data, args[4]) + 4)
#endif

static int install_filter(void)
{
	struct sock_filter code[] = {
		/* Another ABI: not ours to judge, let it through. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, OUR_AUDIT_ARCH, 0, 5),
		/* Not linkat: allow. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_linkat, 0, 3),
		/* linkat with AT_EMPTY_PATH: refused the way an old kernel refuses it. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, FLAGS_LOW_WORD),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, AT_EMPTY_PATH, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOENT & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		perror("oldkernel: PR_SET_NO_NEW_PRIVS");
		return -1;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		perror("oldkernel: PR_SET_SECCOMP");
		return -1;
	}
	return 0;
}
#else
static int install_filter(void)
{
	fputs("oldkernel: no seccomp support for this architecture or these headers\n", stderr);
	return -1;
}
#endif

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: oldkernel CMD [ARG...]\n", stderr);
		return 125;
	}
	if (install_filter() != 0)
		return 125;
	execvp(argv[1], argv + 1);
	fprintf(stderr, "oldkernel: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
