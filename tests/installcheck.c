/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built by `make installcheck` against the installed header and library, through pkg-config. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <flink.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[32] = { 0 };
	int fd, rfd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0 || write(fd, "installed\n", 10) != 10) {
		perror("O_TMPFILE");
		return 2;
	}
	if (chdir(argv[1]) != 0 || flinkat(fd, AT_FDCWD, "out", FLINK_REPLACE | FLINK_SYNC) != 0) {
		perror("flinkat");
		return 1;
	}
	rfd = open("out", O_RDONLY);
	if (rfd < 0 || read(rfd, buf, sizeof(buf) - 1) != 10 || strcmp(buf, "installed\n") != 0) {
		fprintf(stderr, "installcheck: wrong content\n");
		return 1;
	}
	printf("installcheck: flinkat from the installed library: ok\n");
	return 0;
}
