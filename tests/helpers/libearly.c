/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libearly: a library that uses the legacy idiom from its constructor, as real libraries do
 * when they set up a cache or a lock file at load time. The program links against it, so the
 * dynamic loader runs this constructor before the constructors of preloaded libraries that
 * depend on nothing but libc, flinkshim's included (libfaketime's worst bug class: a call
 * that arrives before the interposer has initialised itself).
 *
 * The constructor creates an O_TMPFILE in $EARLY_DIR and links it as $EARLY_DIR/early with
 * linkat(AT_FDCWD, "/proc/self/fd/N", AT_FDCWD, path, AT_SYMLINK_FOLLOW).
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "libearly.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERRNO_SENTINEL 31337
#define CONTENT "early\n"

static struct early_result result;

const struct early_result *early_result(void)
{
	return &result;
}

__attribute__((constructor)) static void early_init(void)
{
	const char *dir = getenv("EARLY_DIR");
	char proc_path[64];
	char target[4096];
	struct stat fst, lst;
	int fd;

	if (dir == NULL)
		return;
	fd = open(dir, O_TMPFILE | O_RDWR, 0644);
	if (fd < 0 || write(fd, CONTENT, strlen(CONTENT)) != (ssize_t)strlen(CONTENT) ||
	    fstat(fd, &fst) != 0)
		return;
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	snprintf(target, sizeof(target), "%s/early", dir);
	result.ran = 1;
	errno = ERRNO_SENTINEL;
	result.ret = linkat(AT_FDCWD, proc_path, AT_FDCWD, target, AT_SYMLINK_FOLLOW);
	result.err = errno;
	if (result.ret == 0) {
		result.clobbered = result.err != ERRNO_SENTINEL;
		result.mismatch = stat(target, &lst) != 0 || lst.st_ino != fst.st_ino ||
				  lst.st_dev != fst.st_dev;
	}
	close(fd);
}
