/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nokcmp CMD [ARG...]: run CMD where kcmp(2) fails with EPERM, as under Docker's default
 * seccomp profile (which allows kcmp only with CAP_SYS_PTRACE) or on a kernel built without
 * CONFIG_KCMP. A seccomp filter: it binds CMD and everything CMD starts.
 *
 * Exit status: CMD's, or 125 if the filter could not be installed (the suites skip then),
 * 127 if CMD could not be run.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H) && defined(SYS_kcmp)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_I386
#endif
#endif

static int install(void)
{
#ifdef OUR_AUDIT_ARCH
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, OUR_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kcmp, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: nokcmp CMD [ARG...]\n", stderr);
		return 125;
	}
	if (install() != 0) {
		fprintf(stderr, "nokcmp: cannot install the seccomp filter: %s\n", strerror(errno));
		return 125;
	}
	/* The filter works: kcmp of ourselves with ourselves now fails. */
	if (syscall(SYS_kcmp, (long)getpid(), (long)getpid(), 2L, 0L, 0L) != -1 || errno != EPERM) {
		fputs("nokcmp: kcmp still runs under the filter\n", stderr);
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nokcmp: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
