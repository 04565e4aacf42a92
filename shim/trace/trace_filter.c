/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every system call of every traced process runs this program, so the common case must be
 * short: the number is checked first, and any call but linkat is allowed after a compare per
 * ABI (trace_arch.h: three on x86_64). A filter whose answer depends only on the number and
 * the architecture is also what lets the kernel (5.11+) precompute "allow" for every other
 * number and skip the program altogether.
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

/* The kernel reads linkat's flags as an int: the low 32 bits of the 64-bit argument slot
 * (in every ABI: the flags are argument 4, and seccomp_data holds the arguments as the
 * kernel passes them, zero-extended for a 32-bit ABI). */
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

int trace_filter_abi(unsigned long data)
{
	return data >= TRACE_FILTER_DATA && data < TRACE_FILTER_DATA + (unsigned long)trace_arch_nabis
		       ? (int)(data - TRACE_FILTER_DATA)
		       : -1;
}

/* The blocks of the program: the number compared with each ABI's linkat first (any other
 * number is allowed after nabis + 2 instructions), then, per ABI, the architecture (the same
 * number is another call in another ABI: i386's 265 is clock_gettime, x86_64's 303
 * name_to_handle_at) and the flags. */
#define HEAD(n) ((n) + 2)
#define BLOCK 6
#define MAX_ABIS 4

static int build(struct sock_filter *code)
{
	int n = trace_arch_nabis, i;

	if (n > MAX_ABIS)
		return -1;
	code[0] = (struct sock_filter)BPF_STMT(BPF_LOAD_WORD, offsetof(struct seccomp_data, nr));
	for (i = 0; i < n; i++) {
		/* From instruction 1 + i to block i at HEAD(n) + BLOCK * i. */
		code[1 + i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							   (uint32_t)trace_arch_abis[i].linkat_nr,
							   (uint8_t)(n + (BLOCK - 1) * i), 0);
	}
	code[1 + n] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (i = 0; i < n; i++) {
		int at = HEAD(n) + BLOCK * i;

		code[at] = (struct sock_filter)BPF_STMT(BPF_LOAD_WORD,
							offsetof(struct seccomp_data, arch));
		code[at + 1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							    trace_arch_abis[i].audit_arch, 0, 3);
		/* Only a call that follows the final symlink can be the /proc idiom: the /proc
		 * path without AT_SYMLINK_FOLLOW fails with EXDEV either way. */
		code[at + 2] = (struct sock_filter)BPF_STMT(BPF_LOAD_WORD, FLAGS_LOW_WORD);
		code[at + 3] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
							    AT_SYMLINK_FOLLOW, 0, 1);
		code[at + 4] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							    SECCOMP_RET_TRACE |
								    (uint32_t)(TRACE_FILTER_DATA + i));
		code[at + 5] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	return HEAD(n) + BLOCK * n;
}

int trace_filter_install(enum trace_filter_step *step)
{
	struct sock_filter code[HEAD(MAX_ABIS) + BLOCK * MAX_ABIS];
	struct sock_fprog prog;
	int len = build(code);

	if (len < 0) {
		*step = TRACE_FILTER_SECCOMP;
		errno = EINVAL;
		return -1;
	}
	prog.len = (unsigned short)len;
	prog.filter = code;
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
int trace_filter_abi(unsigned long data)
{
	(void)data;
	return -1;
}

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
