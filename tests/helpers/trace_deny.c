/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace_deny WHAT CMD [ARG...]: run CMD where WHAT is forbidden, as a container's seccomp
 * profile forbids it, to test that `flinkshim --trace` fails at once and says which
 * permission is missing:
 *   ptrace   ptrace(2) fails with EPERM
 *   seccomp  seccomp(2) and prctl(PR_SET_SECCOMP) fail with EPERM (PR_SET_NO_NEW_PRIVS and
 *            everything else still work)
 *   kcmp     kcmp(2) fails with EPERM, as Docker's default profile has it without
 *            CAP_SYS_PTRACE (--trace still works, but cannot compare fd tables)
 * Exit status: CMD's, 125 if the filter could not be installed, 127 if CMD could not be run.
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

#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H) && defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int install(const char *what)
{
	struct sock_filter no_ptrace[] = {
		LOAD(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
		LOAD(nr),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 0, 1),
		DENY,
		ALLOW,
	};
	struct sock_filter no_kcmp[] = {
		LOAD(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
		LOAD(nr),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kcmp, 0, 1),
		DENY,
		ALLOW,
	};
	struct sock_filter no_seccomp[] = {
		LOAD(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 6),
		LOAD(nr),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
		LOAD(args[0]),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1),
		DENY,
		ALLOW,
	};
	struct sock_fprog prog;

	if (strcmp(what, "ptrace") == 0) {
		prog.len = (unsigned short)(sizeof(no_ptrace) / sizeof(no_ptrace[0]));
		prog.filter = no_ptrace;
	} else if (strcmp(what, "kcmp") == 0) {
		prog.len = (unsigned short)(sizeof(no_kcmp) / sizeof(no_kcmp[0]));
		prog.filter = no_kcmp;
	} else {
		prog.len = (unsigned short)(sizeof(no_seccomp) / sizeof(no_seccomp[0]));
		prog.filter = no_seccomp;
	}
	/* Installed with prctl before the filter exists: the filter denies it afterwards. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		perror("trace_deny: seccomp");
		return -1;
	}
	return 0;
}
#else
static int install(const char *what)
{
	(void)what;
	fputs("trace_deny: no seccomp filter for this architecture or these headers\n", stderr);
	return -1;
}
#endif

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "ptrace") != 0 && strcmp(argv[1], "seccomp") != 0 &&
			 strcmp(argv[1], "kcmp") != 0)) {
		fputs("usage: trace_deny ptrace|seccomp|kcmp CMD [ARG...]\n", stderr);
		return 125;
	}
	if (install(argv[1]) != 0)
		return 125;
	execvp(argv[2], argv + 2);
	fprintf(stderr, "trace_deny: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
