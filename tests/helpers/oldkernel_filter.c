/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "config.h"

#include "oldkernel_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

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

const int oldkernel_filter_supported = 1;

int oldkernel_filter_install(void)
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

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}
#else
const int oldkernel_filter_supported = 0;

int oldkernel_filter_install(void)
{
	errno = ENOSYS;
	return -1;
}
#endif
