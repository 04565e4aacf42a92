/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A legacy program, exactly as open(2)'s O_TMPFILE example teaches: write an anonymous file,
 * then give it a name through /proc/self/fd. It knows nothing of flinkshim.
 *
 * usage: legacy_tmpfile DIR NAME [CONTENT]
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *content = argc > 3 ? argv[3] : "written before it had a name\n";
	char path[PATH_MAX], target[PATH_MAX];
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DIR NAME [CONTENT]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_TMPFILE | O_RDWR, S_IRUSR | S_IWUSR);
	if (fd < 0) {
		fprintf(stderr, "legacy_tmpfile: open(%s, O_TMPFILE): %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (write(fd, content, strlen(content)) != (ssize_t)strlen(content)) {
		fprintf(stderr, "legacy_tmpfile: write: %s\n", strerror(errno));
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(target, sizeof(target), "%s/%s", argv[1], argv[2]);
	if (linkat(AT_FDCWD, path, AT_FDCWD, target, AT_SYMLINK_FOLLOW) != 0) {
		printf("legacy_tmpfile: linkat(%s -> %s): %s (errno %d)\n", path, target,
		       strerror(errno), errno);
		return 1;
	}
	printf("legacy_tmpfile: linked %s -> %s\n", path, target);
	return 0;
}
