/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chroot_link [--first] PATH ROOT: the legacy idiom before and after a change of
 * root (review appendix A5). An O_TMPFILE holding "tmpfile\n" is made in ROOT/out and moved to
 * fd 3; PATH is the oldpath spelling (for example /dev/fd/3 or /proc/self/fd/3).
 *   --first  link PATH to ROOT/out/first before the chroot (fills whatever the shim
 *            remembers about /proc and /dev), and print "first=0" or "first=-1 errno=NAME"
 * Then chroot(ROOT), chdir("/"), link PATH to /out/second, and print "second=0" or
 * "second=-1 errno=NAME", then "content=" and what /out/second holds (first line).
 * Exit status: 0 if the second link succeeded, 1 if not, 2 on a setup error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "chroot_link: %s: %s\n", what, strerror(errno));
	_exit(2);
}

static void print_result(const char *what, int r, int err)
{
	if (r == 0)
		printf("%s=0\n", what);
	else
		printf("%s=-1 errno=%s\n", what, errno_name(err));
}

int main(int argc, char **argv)
{
	char out[4096], content[64];
	int first = 0, i = 1, fd, r, err;
	ssize_t n;
	FILE *f;

	if (argc > 1 && strcmp(argv[1], "--first") == 0) {
		first = 1;
		i++;
	}
	if (argc - i != 2) {
		fputs("usage: chroot_link [--first] PATH ROOT\n", stderr);
		return 2;
	}
	snprintf(out, sizeof(out), "%s/out", argv[i + 1]);
	fd = open(out, O_TMPFILE | O_RDWR, 0644);
	if (fd < 0)
		die("O_TMPFILE in ROOT/out");
	if (write(fd, "tmpfile\n", 8) != 8 || dup2(fd, 3) != 3)
		die("write, dup2");
	if (fd != 3)
		close(fd);
	if (first) {
		snprintf(out, sizeof(out), "%s/out/first", argv[i + 1]);
		errno = 0;
		r = linkat(AT_FDCWD, argv[i], AT_FDCWD, out, AT_SYMLINK_FOLLOW);
		print_result("first", r, errno);
	}
	if (chroot(argv[i + 1]) != 0 || chdir("/") != 0)
		die("chroot");
	errno = 0;
	r = linkat(AT_FDCWD, argv[i], AT_FDCWD, "/out/second", AT_SYMLINK_FOLLOW);
	err = errno;
	print_result("second", r, err);
	content[0] = '\0';
	f = fopen("/out/second", "r");
	if (f != NULL) {
		if (fgets(content, sizeof(content), f) == NULL)
			content[0] = '\0';
		fclose(f);
	}
	n = (ssize_t)strcspn(content, "\n");
	printf("content=%.*s\n", (int)n, content);
	return r == 0 ? 0 : 1;
}
