/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel ABI a seccomp filter is written in (<linux/filter.h>, <linux/seccomp.h>), from
 * the kernel headers where the C library has them, spelled out where it does not (musl-gcc
 * comes without them): stable since Linux 3.5.
 */
#ifndef FLINKSHIM_TRACE_BPF_H
#define FLINKSHIM_TRACE_BPF_H

#include <stdint.h>

#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H)
#include <linux/filter.h>
#include <linux/seccomp.h>
#else
struct sock_filter {
	uint16_t code;
	uint8_t jt;
	uint8_t jf;
	uint32_t k;
};
struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};
struct seccomp_data {
	int nr;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};
#define BPF_LD 0x00
#define BPF_W 0x00
#define BPF_ABS 0x20
#define BPF_JMP 0x05
#define BPF_JEQ 0x10
#define BPF_JSET 0x40
#define BPF_K 0x00
#define BPF_RET 0x06
#define BPF_STMT(code, k) { (uint16_t)(code), 0, 0, k }
#define BPF_JUMP(code, k, jt, jf) { (uint16_t)(code), jt, jf, k }
#define SECCOMP_MODE_FILTER 2
#define SECCOMP_RET_ALLOW 0x7fff0000U
#define SECCOMP_RET_TRACE 0x7ff00000U
#endif

#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER 1
#endif
#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW (1UL << 2)
#endif

/* Load a 32-bit word of struct seccomp_data (BPF_LD and BPF_W are 0: the mode is BPF_ABS). */
#define BPF_LOAD_WORD (BPF_LD | BPF_W | BPF_ABS)

#endif
