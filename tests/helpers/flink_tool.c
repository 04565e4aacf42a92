/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flinkat() from the command line, for the bats suites: write CONTENT to an O_TMPFILE made in
 * TMPDIR (default: the target's directory), then flinkat() it to DIR/NAME.
 * usage: flink_tool [--replace] [--sync] [--tmpdir TMPDIR] DIR NAME CONTENT
 * Prints "flinkat=0" or "flinkat=-1 errno=NAME"; exit 0 on success, 1 on failure, 2 on misuse.
 */
#define _GNU_SOURCE 1
#include "flink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	const char *tmpdir = NULL;
	int flags = 0, i, fd, dirfd, r;
	size_t len;

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--replace") == 0)
			flags |= FLINK_REPLACE;
		else if (strcmp(argv[i], "--sync") == 0)
			flags |= FLINK_SYNC;
		else if (strcmp(argv[i], "--tmpdir") == 0 && i + 1 < argc)
			tmpdir = argv[++i];
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
	r = flinkat(fd, dirfd, argv[i + 1], flags);
	if (r == 0)
		printf("flinkat=0\n");
	else
		printf("flinkat=-1 errno=%s\n", errno_name(errno));
	return r == 0 ? 0 : 1;
}
