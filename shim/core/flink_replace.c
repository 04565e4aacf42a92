/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel has no "link, replacing": linkat() refuses an existing name. rename() replaces
 * atomically, so the file gets a private temporary name beside the target first (same
 * directory, hence same filesystem, so the rename cannot be EXDEV), then takes the target's
 * name in one step. This is what systemd's link_tmpfile_at() and libglnx's
 * glnx_link_tmpfile_at() do internally; here it is public.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "flink_replace.h"

#include "flink_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h> /* renameat() */
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Attempts at a temporary name before giving up with EEXIST. */
#define TEMP_ATTEMPTS 64

static unsigned long counter;

/* Length of newpath's directory part, slash included: "a/b/c" -> 4, "c" -> 0. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? 0 : (size_t)(slash - path) + 1;
}

/* Append x in hex, leaving room for the NUL; returns the new end, or NULL when the buffer is
 * full (or p is NULL already). */
static char *put_hex(char *p, const char *end, unsigned long x)
{
	char digits[2 * sizeof(x)];
	int n = 0;

	if (p == NULL)
		return NULL;
	do {
		digits[n++] = "0123456789abcdef"[x & 0xf];
		x >>= 4;
	} while (x != 0);
	if (end - p <= n)
		return NULL;
	while (n > 0)
		*p++ = digits[--n];
	return p;
}

/* Append "." and x in hex; NULL in, NULL out. */
static char *put_dot_hex(char *p, const char *end, unsigned long x)
{
	if (p == NULL || end - p < 2)
		return NULL;
	*p++ = '.';
	return put_hex(p, end, x);
}

/* "<dir>/.#flink.<pid>.<n>.<ns>": unique within this process by the counter, across
 * processes by the pid, across pid reuse by the clock; EEXIST makes us try again anyway.
 * Formatted by hand: no stdio in the library. */
static int temp_name(char *buf, size_t size, const char *newpath)
{
	static const char tag[] = ".#flink.";
	size_t dlen = dir_len(newpath);
	const char *end = buf + size;
	struct timespec ts;
	unsigned long n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
	char *p = buf;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (dlen + sizeof(tag) > size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, newpath, dlen);
	p += dlen;
	memcpy(p, tag, sizeof(tag) - 1);
	p += sizeof(tag) - 1;
	p = put_hex(p, end, (unsigned long)getpid());
	p = put_dot_hex(p, end, n);
	p = put_dot_hex(p, end, (unsigned long)ts.tv_nsec);
	if (p == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*p = '\0';
	return 0;
}

int flink_replace(int fd, int newdirfd, const char *newpath)
{
	char temp[PATH_MAX];
	struct stat st;
	int attempt;
	int err;

	if (newpath == NULL) {
		errno = EFAULT;
		return -1;
	}
	/* The kernel links an O_TMPFILE only until its first name is removed: a rename that
	 * fails after the temporary link would leave the file unlinkable for good. So refuse
	 * what rename would refuse, a directory target, before making any name. */
	if (fstatat(newdirfd, newpath, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	for (attempt = 0;; attempt++) {
		if (temp_name(temp, sizeof(temp), newpath) != 0)
			return -1;
		if (flink_engine_fd(fd, newdirfd, temp, "flinkat(FLINK_REPLACE)") == 0)
			break;
		if (errno != EEXIST || attempt + 1 == TEMP_ATTEMPTS)
			return -1;
	}
	if (renameat(newdirfd, temp, newdirfd, newpath) == 0)
		return 0;
	err = errno;
	unlinkat(newdirfd, temp, 0);
	errno = err;
	return -1;
}

int flink_sync_file(int fd)
{
	return fsync(fd);
}

int flink_sync_parent(int newdirfd, const char *newpath)
{
	char dir[PATH_MAX];
	size_t dlen = dir_len(newpath);
	int dfd, r, err;

	if (dlen >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (dlen == 0) {
		dir[0] = '.';
		dir[1] = '\0';
	} else {
		memcpy(dir, newpath, dlen);
		dir[dlen] = '\0';
	}
	dfd = openat(newdirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	r = fsync(dfd);
	err = errno;
	close(dfd);
	errno = err;
	return r;
}
