/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The flink engine: give an open file a name by the best route this kernel allows, and
 * answer with the errno the caller's contract promises.
 */
#ifndef FLINKSHIM_FLINK_ENGINE_H
#define FLINKSHIM_FLINK_ENGINE_H

struct flink_request {
	int fd;              /* the open file to name */
	int newdirfd;        /* where: as linkat() */
	const char *newpath;
	/* The /proc route, replayed verbatim when the kernel refuses the direct form: for a
	 * legacy call the program's own oldpath, for flinkat() /proc/thread-self/fd/N. */
	const char *proc_path;
	/* Nonzero for a rewritten legacy call: errors are what the /proc route gives (a closed
	 * fd is ENOENT there), not what the direct form gives (EBADF). */
	int legacy;
	const char *caller;  /* for the diagnostic: "linkat", "syscall(SYS_linkat)", "flinkat" */
};

/* 0, or -1 with errno. errno is unchanged on success. */
int flink_engine_run(const struct flink_request *req);

/* The API's route: fd by itself, falling back to /proc/thread-self/fd/<fd>; EBADF for a bad
 * fd. caller names the entry point in the diagnostic. */
int flink_engine_fd(int fd, int newdirfd, const char *newpath, const char *caller);

#endif
