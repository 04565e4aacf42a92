/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * process_vm_readv() copies a whole string in one system call. It does not split an iovec
 * element at a fault, so a read that runs from a mapped page into an unmapped one may fail as
 * a whole: the remote side is cut at page boundaries (process_vm_readv(2), NOTES), and the
 * pages read before the fault come back. Where process_vm_readv is refused (no
 * CONFIG_CROSS_MEMORY_ATTACH, or a seccomp profile that denies it), PTRACE_PEEKDATA reads
 * aligned words instead: slower, but the tracer may always read its stopped tracee.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_memory.h"

#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

/* Enough remote elements for size bytes cut at page boundaries (size is at most a few
 * pages: PATH_MAX). */
#define MAX_PIECES 4

static size_t page_size(void)
{
	static size_t cached;

	if (cached == 0) {
		long p = sysconf(_SC_PAGESIZE);

		cached = p > 0 ? (size_t)p : 4096;
	}
	return cached;
}

/* Bytes of the string found, the NUL included, or 0 if there is no NUL in buf[0..n). */
static size_t with_nul(const char *buf, size_t n)
{
	const char *nul = memchr(buf, '\0', n);

	return nul == NULL ? 0 : (size_t)(nul - buf) + 1;
}

/* Reads up to size bytes: how many were read (less at a fault), or -1 with errno when none
 * could be (or process_vm_readv cannot be used at all: ENOSYS, EPERM). */
static ssize_t read_vm(pid_t tid, unsigned long addr, char *buf, size_t size)
{
	struct iovec local = { buf, size };
	struct iovec remote[MAX_PIECES];
	unsigned long at = addr;
	size_t left = size;
	int n = 0;

	while (left > 0 && n < MAX_PIECES) {
		size_t room = page_size() - (size_t)(at % page_size());
		size_t len = left < room ? left : room;

		remote[n].iov_base = (void *)at; /* NOLINT(performance-no-int-to-ptr): remote */
		remote[n].iov_len = len;
		n++;
		at += len;
		left -= len;
	}
	local.iov_len = size - left;
	return process_vm_readv(tid, &local, 1, remote, (unsigned long)n, 0);
}

/* The same with PTRACE_PEEKDATA, one aligned word at a time, stopping at the NUL. */
static ssize_t read_peek(pid_t tid, unsigned long addr, char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		unsigned long at = addr + done;
		unsigned long word_at = at - at % sizeof(long);
		size_t skip = (size_t)(at - word_at);
		size_t take = sizeof(long) - skip;
		long word;

		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, tid, (void *)word_at, NULL); /* NOLINT: remote */
		if (word == -1 && errno != 0)
			return done > 0 ? (ssize_t)done : -1;
		if (take > size - done)
			take = size - done;
		memcpy(buf + done, (const char *)&word + skip, take);
		done += take;
		if (memchr(buf + done - take, '\0', take) != NULL)
			break;
	}
	return (ssize_t)done;
}

ssize_t trace_memory_read_string(pid_t tid, unsigned long addr, char *buf, size_t size)
{
	ssize_t n;
	size_t len;

	if (size == 0 || addr == 0) {
		errno = size == 0 ? ENAMETOOLONG : EFAULT;
		return -1;
	}
	n = read_vm(tid, addr, buf, size);
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		int vm_err = errno;

		n = read_peek(tid, addr, buf, size);
		/* Both refused: a tracee that is not dumpable, read by a tracer without
		 * CAP_SYS_PTRACE over it (PEEKDATA then says EIO, as for a bad address). */
		if (n < 0 && errno == EIO && vm_err == EPERM)
			errno = EPERM;
	}
	if (n < 0) {
		if (errno != ESRCH && errno != EPERM)
			errno = EFAULT;
		return -1;
	}
	len = with_nul(buf, (size_t)n);
	if (len == 0) {
		errno = (size_t)n == size ? ENAMETOOLONG : EFAULT;
		return -1;
	}
	return (ssize_t)len - 1;
}
