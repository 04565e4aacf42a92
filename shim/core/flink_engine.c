/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fallback chain:
 *   1. linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH). No /proc needed. The kernel allows it
 *      with CAP_DAC_READ_SEARCH, or (Linux >= 6.10) when fd was opened under the caller's very
 *      credentials; otherwise it says ENOENT.
 *   2. On ENOENT, the /proc route. If the kernel refused step 1, this is the call that can
 *      still work; if the ENOENT was genuine (missing directory, deleted or O_EXCL file), the
 *      /proc route gives the same ENOENT. Either way its answer is exactly what the program
 *      would get with /proc mounted, and with /proc hidden it is ENOENT: the only honest
 *      answer left.
 *      For flinkat() the /proc route is /proc/thread-self/fd/N, taken only into procfs.
 *   3. For flinkat() on Linux 3.11 to 3.16, which have no /proc/thread-self: /proc/self/fd/N,
 *      where that is the caller's table.
 * Everything runs on the stack with plain syscalls: safe in signal handlers and fork/vfork
 * children, no locks.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "flink_engine.h"

#include "debug_log.h"
#include "proc_kind.h"
#include "procfd_owner.h"
#include "real_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

/* From <linux/magic.h>, spelled out to keep kernel headers optional. */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0

static void log_start(struct debug_line *l, const struct flink_request *r)
{
	debug_line_start(l);
	debug_line_str(l, r->caller);
	debug_line_str(l, " ");
	if (r->legacy) {
		debug_line_str(l, r->proc_path);
	} else {
		debug_line_str(l, "fd ");
		debug_line_int(l, r->fd);
	}
	debug_line_str(l, " -> ");
	debug_line_str(l, r->newpath);
	debug_line_str(l, ": ");
}

static void log_outcome(const struct flink_request *r, const char *what, int err)
{
	struct debug_line l;

	log_start(&l, r);
	debug_line_str(&l, what);
	if (err == 0)
		debug_line_str(&l, "ok");
	else
		debug_line_errno(&l, err);
	debug_line_emit(&l);
}

static int proc_is_mounted(void)
{
	struct statfs sfs;

	return statfs("/proc", &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE;
}

/*
 * Why did both routes fail? Only for the diagnostic. The kernel checks the credentials for
 * AT_EMPTY_PATH before it looks at the new name, so naming "/" (which always exists) tells
 * a refusal (ENOENT) from a genuine answer (EEXIST), and creates nothing.
 */
static void explain_failure(const struct flink_request *r, int err)
{
	struct debug_line l;
	int refused;

	if (err != ENOENT || proc_is_mounted()) {
		log_outcome(r, "direct AT_EMPTY_PATH: ENOENT; /proc form: ", err);
		return;
	}
	refused = real_linkat(r->fd, "", AT_FDCWD, "/", AT_EMPTY_PATH) != 0 && errno == ENOENT;
	log_start(&l, r);
	if (refused)
		debug_line_str(&l, "ENOENT: /proc is not mounted and the kernel refused "
				   "AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH, or Linux >= 6.10 "
				   "with the fd opened under the caller's own credentials (not "
				   "inherited across fork or exec, not opened before a uid or "
				   "capability change); mount /proc, or open the file in this "
				   "process");
	else
		debug_line_str(&l, "direct AT_EMPTY_PATH: ENOENT (the kernel's own answer: "
				   "missing directory, deleted file, or O_TMPFILE opened with "
				   "O_EXCL); /proc is not mounted");
	debug_line_emit(&l);
}

/* /proc/thread-self rather than /proc/self: the calling thread's own fd table, even in a
 * thread that unshared CLONE_FILES. */
#define PROC_FD_PREFIX "/proc/thread-self/fd/"
#define PROC_SELF_FD_PREFIX "/proc/self/fd/"

static void format_proc_path(char *buf, const char *prefix, int fd)
{
	char digits[12];
	int n = 0;
	unsigned u = (unsigned)fd;
	const char *p;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	for (p = prefix; *p != '\0'; p++)
		*buf++ = *p;
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

/*
 * The API's /proc routes are paths this library makes up, not the program's: they may be
 * taken only into procfs. A /proc that is a plain directory (a chroot's) may hold a real file
 * at thread-self/fd/N, and linking that would link the wrong file (the legacy replay is the
 * program's own call, whose answer is the native one by definition). Free where /proc is
 * known to be procfs; else one statfs, on this failure path only.
 */
static int is_procfs_dir(const char *dir)
{
	struct statfs sfs;
	int saved = errno;
	int r;

	if (proc_kind_get() == PROC_KIND_PROCFS)
		return 1;
	r = statfs(dir, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE;
	errno = saved;
	return r;
}

/*
 * /proc/thread-self exists since Linux 3.17, O_TMPFILE since 3.11 (and RHEL 7's 3.10): there
 * the API's /proc route is /proc/self/fd/N, which names the leader's table, so only where
 * that is the caller's (review S6). Asked only after the thread-self route failed.
 */
static int leader_route_instead(void)
{
	char c;
	int saved = errno;
	int missing = readlink("/proc/thread-self", &c, 1) < 0 && errno == ENOENT;

	errno = saved;
	return missing && is_procfs_dir("/proc/self/fd") && procfd_owner_leader_table_is_callers();
}

static int fd_is_closed(int fd)
{
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

int flink_engine_run(const struct flink_request *r)
{
	int saved = errno;
	int err;

	if (real_linkat(r->fd, "", r->newdirfd, r->newpath, AT_EMPTY_PATH) == 0) {
		if (debug_log_enabled())
			log_outcome(r, "direct AT_EMPTY_PATH: ", 0);
		errno = saved;
		return 0;
	}
	err = errno;
	/* The /proc route never sees EBADF for the file: /proc/self/fd/N of a closed N does
	 * not exist. EBADF with N open is about newdirfd, and stands. */
	if (err == EBADF && r->legacy && fd_is_closed(r->fd)) {
		if (debug_log_enabled())
			log_outcome(r, "fd is not open, as /proc would say: ", ENOENT);
		errno = ENOENT;
		return -1;
	}
	if (err != ENOENT) {
		if (debug_log_enabled())
			log_outcome(r, "direct AT_EMPTY_PATH: ", err);
		errno = err;
		return -1;
	}
	if (r->legacy || is_procfs_dir("/proc/thread-self/fd")) {
		if (real_linkat(AT_FDCWD, r->proc_path, r->newdirfd, r->newpath,
				AT_SYMLINK_FOLLOW) == 0) {
			if (debug_log_enabled())
				log_outcome(r, "direct AT_EMPTY_PATH refused (ENOENT); /proc form: ", 0);
			errno = saved;
			return 0;
		}
		err = errno;
	}
	if (err == ENOENT && !r->legacy && leader_route_instead()) {
		char self_path[sizeof(PROC_SELF_FD_PREFIX) + 11];

		format_proc_path(self_path, PROC_SELF_FD_PREFIX, r->fd);
		if (real_linkat(AT_FDCWD, self_path, r->newdirfd, r->newpath, AT_SYMLINK_FOLLOW) == 0) {
			if (debug_log_enabled())
				log_outcome(r, "direct AT_EMPTY_PATH refused (ENOENT); no "
					       "/proc/thread-self (Linux < 3.17); /proc/self form: ", 0);
			errno = saved;
			return 0;
		}
		err = errno;
	}
	/* Kernels before 6.10 refuse AT_EMPTY_PATH before they look at the fd, and the /proc
	 * route says ENOENT for a closed fd: the API promises EBADF for that. */
	if (err == ENOENT && !r->legacy && fd_is_closed(r->fd))
		err = EBADF;
	if (debug_log_enabled())
		explain_failure(r, err);
	errno = err;
	return -1;
}

int flink_engine_fd(int fd, int newdirfd, const char *newpath, const char *caller)
{
	char proc_path[sizeof(PROC_FD_PREFIX) + 11];
	struct flink_request req;

	format_proc_path(proc_path, PROC_FD_PREFIX, fd);
	req.fd = fd;
	req.newdirfd = newdirfd;
	req.newpath = newpath;
	req.proc_path = proc_path;
	req.legacy = 0;
	req.caller = caller;
	return flink_engine_run(&req);
}
