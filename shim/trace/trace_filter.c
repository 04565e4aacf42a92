/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every system call of every traced process runs this program, so the common case must be
 * short: the number is checked first, and any call but linkat is allowed after two
 * instructions. A filter whose answer depends only on the number and the architecture is
 * also what lets the kernel (5.11+) precompute "allow" for every other number and skip the
 * program altogether.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_filter.h"

#include "trace_arch.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if TRACE_ARCH_SUPPORTED
#include "trace_bpf.h"

#include <endian.h>

/* The kernel reads linkat's flags as an int: the low 32 bits of the 64-bit argument slot. */
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define FLAGS_LOW_WORD offsetof(struct seccomp_data, args[4])
#else
#define FLAGS_LOW_WORD (offsetof(struct seccomp_data, args[4]) + 4)
#endif

static int set_filter(struct sock_fprog *prog)
{
#ifdef SYS_seccomp
	/* SPEC_ALLOW: this filter is not a sandbox, so it must not switch on the speculative
	 * store bypass mitigation, which kernels before 5.16 did for every seccomp process
	 * and which slows down the whole program. Kernels before 4.17 do not know the flag
	 * (EINVAL); kernels without seccomp(2) have prctl. */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, prog) == 0)
		return 0;
	if (errno == EINVAL &&
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0UL, prog) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
#endif
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog, 0, 0);
}

const char *trace_filter_unavailable(void)
{
	return NULL;
}

int trace_filter_install(enum trace_filter_step *step)
{
	struct sock_filter code[] = {
		/* 0: not linkat (x32's numbers have bit 30 set and differ too): allow. */
		BPF_STMT(BPF_LOAD_WORD, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_linkat, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 3: the same number in another ABI (i386's 265 is clock_gettime): allow. */
		BPF_STMT(BPF_LOAD_WORD, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TRACE_ARCH_AUDIT, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 6: only a call that follows the final symlink can be the /proc idiom: the /proc
		 * path without AT_SYMLINK_FOLLOW fails with EXDEV either way. */
		BPF_STMT(BPF_LOAD_WORD, FLAGS_LOW_WORD),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, AT_SYMLINK_FOLLOW, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		*step = TRACE_FILTER_NO_NEW_PRIVS;
		return -1;
	}
	if (set_filter(&prog) != 0) {
		*step = TRACE_FILTER_SECCOMP;
		return -1;
	}
	return 0;
}
#else
const char *trace_filter_unavailable(void)
{
	return "--trace is not available on this architecture yet (x86_64 only)";
}

int trace_filter_install(enum trace_filter_step *step)
{
	*step = TRACE_FILTER_SECCOMP;
	errno = ENOSYS;
	return -1;
}
#endif
