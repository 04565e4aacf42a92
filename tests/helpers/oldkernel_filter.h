/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The old-kernel simulation, one filter for every test program that needs it (oldkernel, the
 * parity driver): linkat() with AT_EMPTY_PATH in its flags fails with ENOENT, which is
 * exactly how a kernel before 6.10 (or any kernel, without CAP_DAC_READ_SEARCH, for an fd
 * opened under other credentials) refuses the direct form. Everything else, linkat()
 * without AT_EMPTY_PATH included, goes to the kernel untouched.
 *
 * A seccomp filter: it binds the caller and everything it starts, and no LD_PRELOAD or raw
 * syscall gets around it. PR_SET_NO_NEW_PRIVS lets an unprivileged process install it and
 * keeps the credentials object, so it does not itself break the same-credentials rule for
 * fds opened before or after it.
 */
#ifndef FLINKSHIM_TESTS_OLDKERNEL_FILTER_H
#define FLINKSHIM_TESTS_OLDKERNEL_FILTER_H

/* 1 where this build can install the filter (seccomp headers, a known architecture). */
extern const int oldkernel_filter_supported;

/* 0, or -1 with errno: ENOSYS where unsupported, else prctl()'s. */
int oldkernel_filter_install(void);

#endif
