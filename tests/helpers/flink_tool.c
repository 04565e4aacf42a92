/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flinkat() from the command line, for the bats suites: write CONTENT to an O_TMPFILE made in
 * TMPDIR (default: the target's directory), then flinkat() it to DIR/NAME.
 * usage: flink_tool [--replace] [--sync] [--opath] [--tmpdir TMPDIR] [--prelink PRELINK]
 *                   [--rescue RESCUE] [--in-thread [--own-table]]
 *                   DIR NAME CONTENT
 *   --opath      pass an O_PATH descriptor of the file (reopened through /proc/self/fd, which
 *                must be mounted), as a program that only holds such a descriptor would
 *   --prelink    before the call, flink() the file to DIR/PRELINK: a file with another name
 *   --rescue     after the call, whatever its outcome, flink() the same fd to DIR/RESCUE:
 *                is the file still linkable?
 *   --in-thread  make the call from a second thread
 *   --own-table  ... which first takes an fd table of its own (unshare(CLONE_FILES))
 * Prints "flinkat=0" or "flinkat=-1 errno=NAME", then with --rescue "rescue=0" or
 * "rescue=-1 errno=NAME"; exit 0 if flinkat() succeeded, 1 if not, 2 on misuse.
 */
#define _GNU_SOURCE 1
#include "flink.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case EROFS: return "EROFS";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return "other";
	}
}

struct call {
	int fd, dirfd, flags, own_table, r, err;
	const char *name;
};

static void *call_in_thread(void *arg)
{
	struct call *c = arg;

	if (c->own_table && unshare(CLONE_FILES) != 0) {
		perror("unshare(CLONE_FILES)");
		exit(2);
	}
	c->r = flinkat(c->fd, c->dirfd, c->name, c->flags);
	c->err = errno;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *tmpdir = NULL, *rescue = NULL, *prelink = NULL;
	int flags = 0, opath = 0, in_thread = 0, own_table = 0, i, fd, dirfd, r, e;
	size_t len;

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--replace") == 0)
			flags |= FLINK_REPLACE;
		else if (strcmp(argv[i], "--sync") == 0)
			flags |= FLINK_SYNC;
		else if (strcmp(argv[i], "--opath") == 0)
			opath = 1;
		else if (strcmp(argv[i], "--in-thread") == 0)
			in_thread = 1;
		else if (strcmp(argv[i], "--own-table") == 0)
			own_table = 1;
		else if (strcmp(argv[i], "--tmpdir") == 0 && i + 1 < argc)
			tmpdir = argv[++i];
		else if (strcmp(argv[i], "--prelink") == 0 && i + 1 < argc)
			prelink = argv[++i];
		else if (strcmp(argv[i], "--rescue") == 0 && i + 1 < argc)
			rescue = argv[++i];
		else
			return 2;
	}
	if (argc - i != 3)
		return 2;
	dirfd = open(argv[i], O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		perror(argv[i]);
		return 2;
	}
	fd = open(tmpdir ? tmpdir : argv[i], O_TMPFILE | O_RDWR, 0644);
	if (fd < 0) {
		perror("open O_TMPFILE");
		return 2;
	}
	len = strlen(argv[i + 2]);
	if (write(fd, argv[i + 2], len) != (ssize_t)len) {
		perror("write");
		return 2;
	}
	if (prelink != NULL && flinkat(fd, dirfd, prelink, 0) != 0) {
		perror("flinkat --prelink");
		return 2;
	}
	if (opath) {
		char proc[64];
		int pfd;

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		pfd = open(proc, O_PATH);
		if (pfd < 0) {
			perror(proc);
			return 2;
		}
		close(fd);
		fd = pfd;
	}
	if (in_thread) {
		struct call c = { fd, dirfd, flags, own_table, -1, 0, argv[i + 1] };
		pthread_t th;

		if (pthread_create(&th, NULL, call_in_thread, &c) != 0 || pthread_join(th, NULL) != 0) {
			fputs("flink_tool: pthread_create\n", stderr);
			return 2;
		}
		r = c.r;
		errno = c.err;
	} else {
		r = flinkat(fd, dirfd, argv[i + 1], flags);
	}
	if (r == 0)
		printf("flinkat=0\n");
	else
		printf("flinkat=-1 errno=%s\n", errno_name(errno));
	if (rescue != NULL) {
		e = flinkat(fd, dirfd, rescue, 0) == 0 ? 0 : errno;
		if (e == 0)
			printf("rescue=0\n");
		else
			printf("rescue=-1 errno=%s\n", errno_name(e));
	}
	return r == 0 ? 0 : 1;
}
