/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A legacy program: open(2)'s O_TMPFILE example, naming the file through /proc/self/fd.
 * usage: legacy DIR NAME */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[PATH_MAX], target[PATH_MAX];
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[1], O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0 || write(fd, "legacy\n", 7) != 7) {
		perror("open or write");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(target, sizeof(target), "%s/%s", argv[1], argv[2]);
	if (linkat(AT_FDCWD, path, AT_FDCWD, target, AT_SYMLINK_FOLLOW) != 0) {
		perror("linkat");
		return 1;
	}
	return 0;
}
