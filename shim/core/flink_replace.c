/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel has no "link, replacing": linkat() refuses an existing name. rename() replaces
 * atomically, so when the name exists the file gets a private temporary name beside it first
 * (same directory, hence same filesystem, so the rename cannot be EXDEV), then takes the
 * target's name in one step. This is what systemd's link_tmpfile_at() and libglnx's
 * glnx_link_tmpfile_at() do internally; here it is public, with their weak spot mended: an
 * O_TMPFILE can be linked only until it has had a name, so a failed rename must never remove
 * the only name the file got (see replace_existing()).
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "flink_replace.h"

#include "flink_engine.h"
#include "real_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h> /* renameat() */
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/* Write newpath's directory ("." for a bare name) into buf. */
static int parent_of(char *buf, size_t size, const char *newpath)
{
	size_t dlen = dir_len(newpath);

	if (dlen >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (dlen == 0) {
		buf[0] = '.';
		buf[1] = '\0';
	} else {
		memcpy(buf, newpath, dlen);
		buf[dlen] = '\0';
	}
	return 0;
}

/*
 * What rename(2) refuses by the name alone, refused before any name is made. (The link that
 * comes first refuses the rest of what a name can be: a component too long for this
 * filesystem's f_namelen, a missing directory, and so on; it makes no name when it fails.)
 * ".", ".." and "/" name directories, as EISDIR says; rename(2) itself would say EBUSY.
 */
static int check_new_name(const char *newpath)
{
	size_t len = strnlen(newpath, PATH_MAX);
	const char *last;
	size_t lastlen;

	if (len == 0) {
		errno = ENOENT;
		return -1;
	}
	if (len == PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (newpath[len - 1] == '/') {
		size_t i;

		for (i = 0; i < len && newpath[i] == '/'; i++)
			;
		/* A file is not a directory: rename(file, "x/") is ENOTDIR, "/" is a directory. */
		errno = i == len ? EISDIR : ENOTDIR;
		return -1;
	}
	last = newpath + dir_len(newpath);
	lastlen = len - (size_t)(last - newpath);
	if (last[0] == '.' && (lastlen == 1 || (lastlen == 2 && last[1] == '.'))) {
		errno = EISDIR;
		return -1;
	}
	if (lastlen > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* The kernel's own notion of who we are for file permissions: setfsuid() with an invalid id
 * changes nothing and returns the current fsuid. */
static long caller_fsuid(void)
{
	int saved = errno;
	long uid = real_syscall6(SYS_setfsuid, -1L, 0, 0, 0, 0, 0);

	errno = saved;
	return uid;
}

/* CAP_FOWNER in the effective set: capget(2) with the version 3 header {version, pid} and two
 * records of {effective, permitted, inheritable}, the first for capabilities 0 to 31. */
static int has_cap_fowner(void)
{
	uint32_t hdr[2] = { 0x20080522, 0 };
	uint32_t data[6] = { 0 };
	int saved = errno;
	long r = real_syscall6(SYS_capget, (long)hdr, (long)data, 0, 0, 0, 0);

	errno = saved;
	return r == 0 && (data[0] & (1u << 3)) != 0; /* data[0]: effective; CAP_FOWNER is 3 */
}

/*
 * In a sticky directory (/tmp), a name may be removed or replaced only by the owner of the
 * file, the owner of the directory, or a caller with CAP_FOWNER (the kernel's check_sticky()).
 * The link of the temporary name would succeed there and the rename fail with EPERM: say it
 * first. (In a user namespace the capability counts only for ids mapped in it; where that is
 * what refuses, the rename says so, as below.)
 */
static int sticky_refuses(int newdirfd, const char *newpath, const struct stat *target)
{
	char dir[PATH_MAX];
	struct stat d;
	long fsuid;

	if (parent_of(dir, sizeof(dir), newpath) != 0 || fstatat(newdirfd, dir, &d, 0) != 0 ||
	    (d.st_mode & S_ISVTX) == 0)
		return 0; /* not sticky, or not ours to judge: the kernel answers */
	fsuid = caller_fsuid();
	if (fsuid < 0 || (uid_t)fsuid == target->st_uid || (uid_t)fsuid == d.st_uid)
		return 0;
	return !has_cap_fowner();
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* newpath exists: link fd under a temporary name beside it, then rename that over it. */
static int replace_existing(int fd, int newdirfd, const char *newpath)
{
	char temp[PATH_MAX];
	struct stat self, target;
	int attempt;
	int err;

	if (fstatat(fd, "", &self, AT_EMPTY_PATH) != 0)
		return -1;
	/* Gone again already: the rename below makes it anew. */
	if (fstatat(newdirfd, newpath, &target, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(target.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		/* rename(2) of two links to one file does nothing and succeeds, which would leave
		 * the temporary name: newpath is already this file, so there is nothing to do. */
		if (same_file(&self, &target))
			return 0;
		if (sticky_refuses(newdirfd, newpath, &target)) {
			errno = EPERM;
			return -1;
		}
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
	/*
	 * The rename failed after all (a mount point, an immutable file, a security module, a
	 * directory put there meanwhile). The kernel links an O_TMPFILE only until it has had a
	 * name: if the temporary name is the file's only one, removing it would make the file
	 * unlinkable for good and lose its content. It stays, and fd stays linkable through it.
	 */
	if (fstatat(fd, "", &self, AT_EMPTY_PATH) == 0 && self.st_nlink > 1)
		unlinkat(newdirfd, temp, 0);
	errno = err;
	return -1;
}

/*
 * The kernel has no "link, replacing": linkat() refuses an existing name, and an existing name
 * is the one case that needs the rename. So link first; only EEXIST takes the temporary name.
 */
int flink_replace(int fd, int newdirfd, const char *newpath)
{
	if (newpath == NULL) {
		errno = EFAULT;
		return -1;
	}
	if (check_new_name(newpath) != 0)
		return -1;
	if (flink_engine_fd(fd, newdirfd, newpath, "flinkat(FLINK_REPLACE)") == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	return replace_existing(fd, newdirfd, newpath);
}

/* Is fd an O_PATH descriptor? */
static int is_opath(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl != -1 && (fl & O_PATH) != 0;
}

int flink_sync_file(int fd, int newdirfd, const char *newpath)
{
	char dir[PATH_MAX];
	int dfd, r, err;

	if (fsync(fd) == 0)
		return 0;
	if (errno != EBADF || newpath == NULL || !is_opath(fd))
		return -1;
	/*
	 * fsync(2) refuses an O_PATH descriptor, and without /proc nothing can reopen one. But a
	 * link never leaves the file's filesystem: syncing the filesystem that holds newpath's
	 * directory syncs the file's data too. Costlier than one fsync, and only here.
	 */
	if (parent_of(dir, sizeof(dir), newpath) != 0)
		return -1;
	dfd = openat(newdirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	r = syncfs(dfd);
	err = errno;
	close(dfd);
	errno = err;
	return r;
}

int flink_sync_parent(int newdirfd, const char *newpath)
{
	char dir[PATH_MAX];
	int dfd, r, err;

	if (parent_of(dir, sizeof(dir), newpath) != 0)
		return -1;
	dfd = openat(newdirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	r = fsync(dfd);
	err = errno;
	close(dfd);
	errno = err;
	return r;
}
