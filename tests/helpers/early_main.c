/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * early_main: links against libearly, whose constructor has already used the legacy idiom
 * by the time main() runs; prints what it got, then uses the idiom once more from main(),
 * when every constructor has run:
 *
 *     early: linkat=0
 *     main: linkat=0
 *
 * (or "linkat=-1 errno=ENOENT"; " errno-clobbered" / " inode-mismatch" as legacy_link).
 * $EARLY_DIR is the directory; the names are "early" and "main".
 * Exit status: 0 if both calls succeeded, 1 if not, 2 if the constructor did not run.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"
#include "libearly.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERRNO_SENTINEL 31337
#define CONTENT "main\n"

static void print(const char *who, const struct early_result *r)
{
	if (r->ret == 0)
		printf("%s: linkat=0%s%s\n", who, r->clobbered ? " errno-clobbered" : "",
		       r->mismatch ? " inode-mismatch" : "");
	else
		printf("%s: linkat=%d errno=%s\n", who, r->ret, errno_name(r->err));
}

int main(void)
{
	const struct early_result *early = early_result();
	const char *dir = getenv("EARLY_DIR");
	struct early_result late = { 1, -1, 0, 0, 0 };
	char proc_path[64];
	char target[4096];
	struct stat fst, lst;
	int fd;

	if (dir == NULL || !early->ran) {
		fputs("early_main: the constructor did not run (is EARLY_DIR set and writable?)\n",
		      stderr);
		return 2;
	}
	fd = open(dir, O_TMPFILE | O_RDWR, 0644);
	if (fd < 0 || write(fd, CONTENT, strlen(CONTENT)) != (ssize_t)strlen(CONTENT) ||
	    fstat(fd, &fst) != 0) {
		perror("early_main: O_TMPFILE");
		return 2;
	}
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	snprintf(target, sizeof(target), "%s/main", dir);
	errno = ERRNO_SENTINEL;
	late.ret = linkat(AT_FDCWD, proc_path, AT_FDCWD, target, AT_SYMLINK_FOLLOW);
	late.err = errno;
	if (late.ret == 0) {
		late.clobbered = late.err != ERRNO_SENTINEL;
		late.mismatch = stat(target, &lst) != 0 || lst.st_ino != fst.st_ino ||
				lst.st_dev != fst.st_dev;
	}
	print("early", early);
	print("main", &late);
	return early->ret == 0 && late.ret == 0 && !early->clobbered && !late.clobbered &&
			       !early->mismatch && !late.mismatch
		       ? 0
		       : 1;
}
