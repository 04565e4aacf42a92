/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decision at a seccomp stop, in the order of its cost:
 *   0. the stop is our filter's (its SECCOMP_RET_DATA), not one of the command's own
 *      SECCOMP_RET_TRACE filters: those get what they get without a tracer of their own,
 *      ENOSYS, the call not run;
 *   1. the call: linkat with flags exactly AT_SYMLINK_FOLLOW (as the preload: any other bit
 *      earns the kernel's EINVAL, or changes what the call means);
 *   2. oldpath, read from the tracee: is it the /proc idiom? (the pure classifier);
 *   3. does this tracee see a procfs at /proc? Then the original call is the reference; and
 *      where its /proc is something else, does the path name a real file there?
 *   4. /dev/fd and /dev/std* must be the usual links into /proc/self/fd;
 *   5. does the path name the calling thread's own fd table? (/proc/self in a thread that
 *      unshared CLONE_FILES does not: kcmp, as the preload does, and where kcmp cannot tell,
 *      the call runs as it is; a pid in the path means something only if the tracee shares
 *      the supervisor's pid namespace);
 *   6. is fd N open? The /proc route says ENOENT for a closed fd where the direct form
 *      would say EBADF, so a closed fd gets ENOENT without running anything;
 *   7. rewrite the registers: olddirfd = N, oldpath = the address of the string's own
 *      terminating NUL (an empty string already in the tracee's memory: nothing is
 *      written to it), flags = AT_EMPTY_PATH. The kernel runs that in the tracee, with its
 *      cwd, fds and credentials, so its answer (Linux >= 6.10's credentials rule included)
 *      is the one the preload would get.
 * Then the tracee runs on to the syscall-exit stop, where
 *   8. the argument registers get back what the tracee put there (the ABI preserves them:
 *      compilers keep values in them across an inline syscall instruction);
 *   9. if the direct form said ENOENT (the kernel refused it, or the genuine answer), the
 *      original call is made again, exactly as the tracee made it, as the preload's engine
 *      replays the /proc form: where the tracee has a /proc of its own the kernel answers as
 *      natively, and where it has none the answer is ENOENT, the only honest one.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_rewrite.h"

#include "debug_log.h"
#include "procfd_classify.h"
#include "trace_arch.h"
#include "trace_filter.h"
#include "trace_memory.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#if TRACE_ARCH_SUPPORTED

#ifndef KCMP_FILE
#define KCMP_FILE 0 /* <linux/kcmp.h> */
#endif
#ifndef KCMP_FILES
#define KCMP_FILES 2
#endif
/* From <linux/magic.h>, spelled out to keep kernel headers optional. */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#ifndef PIDFD_GET_PID_NAMESPACE
#define PIDFD_GET_PID_NAMESPACE _IO(0xFF, 5) /* <linux/pidfd.h>, Linux 6.11 */
#endif

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e /* <linux/ptrace.h>, Linux 5.3 */
#endif
#define SYSCALL_INFO_ENTRY 1          /* PTRACE_SYSCALL_INFO_ENTRY */

/* A call the supervisor changed, from its seccomp stop until it has returned. */
struct trace_call {
	enum { CALL_REWRITTEN, CALL_REPLAYED } phase;
	int abi;
	int entry_seen;          /* kernels before 4.8: the entry stop has passed */
	int logging;             /* --debug: log holds the line, to end with the result */
	struct trace_regs entry; /* the registers as the tracee made the call */
	struct debug_line log;
};

/* linkat(olddirfd, oldpath, newdirfd, newpath, flags) */
enum { ARG_OLDDIRFD, ARG_OLDPATH, ARG_NEWDIRFD, ARG_NEWPATH, ARG_FLAGS };

/* The kernel's bound for a path, NUL included: anything longer is ENAMETOOLONG. */
#define PATH_BYTES 4096

/* "/proc/<tid>/root", through which the supervisor sees the tracee's root in the tracee's
 * mount namespace; "" when the supervisor has no /proc (then it assumes the tracee shares
 * its root, which it does unless it chrooted or unshared its mounts). */
static void tracee_root(const struct trace_rewriter *w, pid_t tid, char *buf, size_t size)
{
	if (w->supervisor_has_proc)
		snprintf(buf, size, "/proc/%ld/root", (long)tid);
	else
		buf[0] = '\0';
}

static int tracee_has_proc(const struct trace_rewriter *w, pid_t tid)
{
	char path[64];
	struct statfs sfs;

	if (!w->supervisor_has_proc)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/root/proc", (long)tid);
	if (statfs(path, &sfs) == 0)
		return sfs.f_type == PROC_SUPER_MAGIC_VALUE;
	/* ENOENT: no /proc in the tracee's root. Anything else (EACCES for a tracee that made
	 * itself non-dumpable): assume it sees what we see, a procfs. */
	return errno != ENOENT;
}

/* A /proc that is not procfs (a chroot's plain directory, say) may hold a real file at the
 * path: the kernel links that file, and so must the call (as the preload looks first where
 * /proc is not procfs). Only an answer of "nothing there" lets the rewrite go on; a /dev
 * spelling leads to /proc/self/fd/N in the same root. */
static int names_a_file(const char *root, const char *oldpath, const struct procfd_ref *ref)
{
	char path[PATH_BYTES + 64];
	struct stat st;

	if (ref->via == PROCFD_VIA_PROC)
		snprintf(path, sizeof(path), "%s%s", root, oldpath);
	else
		snprintf(path, sizeof(path), "%s/proc/self/fd/%d", root, ref->fd);
	return stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

/* The links of /dev are made by whoever built /dev: only the usual ones mean what the
 * program thinks (as shim/core/procfd_owner.c). */
static int dev_link_is_standard(const char *root, enum procfd_via via)
{
	static const char *const links[][2] = {
		[PROCFD_VIA_DEV_FD] = { "/dev/fd", "/proc/self/fd" },
		[PROCFD_VIA_DEV_STDIN] = { "/dev/stdin", "/proc/self/fd/0" },
		[PROCFD_VIA_DEV_STDOUT] = { "/dev/stdout", "/proc/self/fd/1" },
		[PROCFD_VIA_DEV_STDERR] = { "/dev/stderr", "/proc/self/fd/2" },
	};
	char path[96];
	char target[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%s%s", root, links[via][0]);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return strcmp(target, links[via][1]) == 0;
}

/* The pid namespace of process pid, as a file's identity; -1 if it cannot be told (no
 * /proc, and a kernel before 6.11 without PIDFD_GET_PID_NAMESPACE). */
static int pid_namespace(const struct trace_rewriter *w, pid_t pid, struct stat *st)
{
	int ok = -1;

	if (w->supervisor_has_proc) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%ld/ns/pid", (long)pid);
		if (stat(path, st) == 0)
			return 0;
	}
#ifdef SYS_pidfd_open
	{
		int pidfd = (int)syscall(SYS_pidfd_open, (long)pid, 0L);
		int ns = pidfd < 0 ? -1 : ioctl(pidfd, PIDFD_GET_PID_NAMESPACE, 0);

		if (ns >= 0 && fstat(ns, st) == 0)
			ok = 0;
		if (ns >= 0)
			close(ns);
		if (pidfd >= 0)
			close(pidfd);
	}
#endif
	return ok;
}

/*
 * Numbers in the tracee's path are pids of its own pid namespace; the supervisor knows its
 * ids in its own. They are the same numbers only in the same namespace (as the preload's
 * check of /proc's namespace in shim/core/procfd_owner.c). Where it cannot be told, the same
 * namespace, as nearly always.
 */
static int same_pid_namespace(const struct trace_rewriter *w, pid_t tgid)
{
	static struct stat ours;
	static int ours_known;
	struct stat theirs;

	if (!ours_known && pid_namespace(w, getpid(), &ours) == 0)
		ours_known = 1;
	if (!ours_known || pid_namespace(w, tgid, &theirs) != 0)
		return 1;
	return theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino;
}

/* Is the leader's fd table (what /proc/self names) the calling thread's? 1 yes, 0 no, -1
 * kcmp cannot tell (no CONFIG_KCMP, or a seccomp profile that denies it, as Docker's default
 * does): then the call runs as it is, since a thread that unshared CLONE_FILES would get its
 * own fd N linked where the kernel links the leader's. */
static int leader_table_is_callers(pid_t tgid, pid_t tid)
{
	long r = syscall(SYS_kcmp, (long)tgid, (long)tid, KCMP_FILES, 0L, 0L);

	return r == 0 ? 1 : r > 0 ? 0 : -1;
}

/* procfd_in_group_fn for a tracee: is n a thread of its group? tgkill() with signal 0 finds a
 * thread only in the group named (ESRCH otherwise); EPERM means it found one that we may not
 * signal (a tracee that changed its uid). */
static int in_tracee_group(long n, void *tgid)
{
	return syscall(SYS_tgkill, (long)*(pid_t *)tgid, n, 0L) == 0 || errno == EPERM;
}

/* Does thread n use tid's fd table? Unlike the leader's case, no answer means no: the call
 * then runs as it is, as it did before this rewrite existed. */
static int thread_shares_table(pid_t tid, long n)
{
	return syscall(SYS_kcmp, (long)tid, n, KCMP_FILES, 0L, 0L) == 0;
}

/* 1 if fd is not open in tid (kcmp of the fd with itself says EBADF), 0 if it is or if
 * kcmp cannot tell. */
static int fd_is_closed(pid_t tid, int fd)
{
	return syscall(SYS_kcmp, (long)tid, (long)tid, KCMP_FILE, (long)fd, (long)fd) != 0 &&
	       errno == EBADF;
}

static void log_start(struct debug_line *l, const struct tracee *t, const char *oldpath,
		      const struct trace_regs *regs, int abi)
{
	char newpath[PATH_BYTES];

	if (trace_memory_read_string(t->tid, trace_arch_arg(regs, abi, ARG_NEWPATH), newpath,
				     sizeof(newpath)) < 0)
		snprintf(newpath, sizeof(newpath), "(unreadable)");
	debug_line_start(l);
	debug_line_str(l, "[pid ");
	debug_line_int(l, t->tid);
	debug_line_str(l, "] linkat ");
	if (abi != 0) {
		debug_line_str(l, "(");
		debug_line_str(l, trace_arch_abis[abi].name);
		debug_line_str(l, ") ");
	}
	debug_line_str(l, oldpath);
	debug_line_str(l, " -> ");
	debug_line_str(l, newpath);
	debug_line_str(l, ": ");
}

static void log_line(const struct tracee *t, const char *oldpath, const struct trace_regs *regs,
		     int abi, const char *what, int err)
{
	struct debug_line l;

	log_start(&l, t, oldpath, regs, abi);
	debug_line_str(&l, what);
	if (err != 0)
		debug_line_errno(&l, err);
	debug_line_emit(&l);
}

/* Steps 2 to 5: the fd that oldpath names in the calling thread's own table, or -1 (the
 * call is left alone; *why says why, for the diagnostic, or is NULL if it is not the idiom
 * at all). */
static int own_fd(const struct trace_rewriter *w, const struct tracee *t, const char *oldpath,
		  const char **why)
{
	struct procfd_ref ref;
	enum procfd_owner owner;
	pid_t tgid;
	long thread = 0;
	char root[64];

	*why = NULL;
	if (procfd_parse(oldpath, &ref) != 0)
		return -1;
	if (tracee_has_proc(w, t->tid)) {
		*why = "not rewritten: /proc is mounted for this process, the call runs as it is";
		return -1;
	}
	tracee_root(w, t->tid, root, sizeof(root));
	if (ref.via != PROCFD_VIA_PROC && !dev_link_is_standard(root, ref.via)) {
		*why = "not rewritten: the /dev link does not point to /proc/self/fd";
		return -1;
	}
	if (names_a_file(root, oldpath, &ref)) {
		*why = "not rewritten: /proc is not procfs for this process, and the path names a "
		       "file there, which the kernel links";
		return -1;
	}
	tgid = t->tgid;
	owner = procfd_resolve_group(&ref, t->tgid, t->tid, in_tracee_group, &tgid, &thread);
	if (owner == PROCFD_NOT_OURS) {
		*why = "not rewritten: names another process's or thread's fds";
		return -1;
	}
	if (procfd_has_numbers(&ref) && !same_pid_namespace(w, t->tgid)) {
		*why = "not rewritten: the process is in another pid namespace than flinkshim, "
		       "which does not know its pid and tid there";
		return -1;
	}
	if (owner == PROCFD_LEADER && t->tgid != t->tid) {
		int shared = leader_table_is_callers(t->tgid, t->tid);

		if (shared == 0) {
			*why = "not rewritten: the leader's fd table is not this thread's "
			       "(CLONE_FILES unshared, or the main thread has exited)";
			return -1;
		}
		if (shared < 0) {
			*why = "not rewritten: kcmp(2) is not available to flinkshim, so it "
			       "cannot tell whether this thread shares the leader's fd table "
			       "(it does unless it unshared CLONE_FILES): the call runs as it is";
			return -1;
		}
	}
	if (owner == PROCFD_THREAD && !thread_shares_table(t->tid, thread)) {
		*why = "not rewritten: names another thread's fd table, not this thread's "
		       "(CLONE_FILES unshared, or kcmp unavailable)";
		return -1;
	}
	return ref.fd;
}

/* The stop is the command's own filter's: without a tracer of its own the kernel gives
 * ENOSYS and runs nothing (seccomp(2), SECCOMP_RET_TRACE). */
static enum trace_resume answer_as_untraced(const struct trace_rewriter *w, struct tracee *t,
					    unsigned long data)
{
	struct trace_regs regs;

	if (trace_arch_get(t->tid, &regs) != 0)
		return TRACE_RESUME_CONT;
	trace_arch_skip(&regs, -ENOSYS);
	if (trace_arch_set(t->tid, &regs) == 0 && w->debug) {
		struct debug_line l;

		debug_line_start(&l);
		debug_line_str(&l, "[pid ");
		debug_line_int(&l, t->tid);
		debug_line_str(&l, "] a seccomp filter of the command's own asked for a tracer "
				   "(SECCOMP_RET_TRACE, data ");
		debug_line_int(&l, (long)(data & 0xffff));
		debug_line_str(&l, "): ENOSYS, as without one");
		debug_line_emit(&l);
	}
	return TRACE_RESUME_CONT;
}

/* The seccomp stop of the replay: the very call the tracee made, registers and all. */
static int is_replay(const struct trace_call *c, const struct trace_regs *regs)
{
	int i;

	if (c == NULL || c->phase != CALL_REPLAYED ||
	    trace_arch_syscall_nr(regs) != trace_arch_syscall_nr(&c->entry))
		return 0;
	for (i = 0; i < 6; i++)
		if (trace_arch_arg(regs, c->abi, i) != trace_arch_arg(&c->entry, c->abi, i))
			return 0;
	return 1;
}

static void end_call(struct tracee *t)
{
	free(t->call);
	t->call = NULL;
}

static const char *unreadable_why(int err)
{
	if (err == EPERM)
		return "not rewritten: flinkshim may not read this process's memory: it made itself "
		       "non-dumpable (PR_SET_DUMPABLE 0, or a uid or capability change did) and "
		       "flinkshim lacks CAP_SYS_PTRACE over it (run flinkshim as root, or keep the "
		       "program dumpable): the call runs as it is";
	return NULL; /* EFAULT, ENAMETOOLONG: the kernel gives its own answer */
}

enum trace_resume trace_rewrite_seccomp(const struct trace_rewriter *w, struct tracee *t,
					unsigned long data)
{
	int abi = trace_filter_abi(data);
	struct trace_regs regs;
	char oldpath[PATH_BYTES];
	unsigned long path_addr;
	const char *why;
	ssize_t len;
	int fd;

	if (abi < 0)
		return answer_as_untraced(w, t, data);
	if (trace_arch_get(t->tid, &regs) != 0)
		return TRACE_RESUME_CONT;
	if (is_replay(t->call, &regs)) {
		/* Runs as it is; --debug waits for its result. */
		if (t->call->logging)
			return TRACE_RESUME_SYSCALL;
		end_call(t);
		return TRACE_RESUME_CONT;
	}
	end_call(t); /* a replay that never came (a signal handler's own call came first) */
	/* The number as the kernel dispatches it (an int) and the flags as it reads them. */
	if (trace_arch_syscall_nr(&regs) != trace_arch_abis[abi].linkat_nr ||
	    (int)trace_arch_arg(&regs, abi, ARG_FLAGS) != AT_SYMLINK_FOLLOW)
		return TRACE_RESUME_CONT;
	path_addr = trace_arch_arg(&regs, abi, ARG_OLDPATH);
	/* Unreadable or unterminated: the kernel gives its own EFAULT or ENAMETOOLONG. */
	len = trace_memory_read_string(t->tid, path_addr, oldpath, sizeof(oldpath));
	if (len < 0) {
		why = unreadable_why(errno);
		if (w->debug && why != NULL) {
			struct debug_line l;

			debug_line_start(&l);
			debug_line_str(&l, "[pid ");
			debug_line_int(&l, t->tid);
			debug_line_str(&l, "] linkat with AT_SYMLINK_FOLLOW: ");
			debug_line_str(&l, why);
			debug_line_emit(&l);
		}
		return TRACE_RESUME_CONT;
	}
	fd = own_fd(w, t, oldpath, &why);
	if (fd < 0) {
		if (w->debug && why != NULL)
			log_line(t, oldpath, &regs, abi, why, 0);
		return TRACE_RESUME_CONT;
	}
	if (fd_is_closed(t->tid, fd)) {
		trace_arch_skip(&regs, -ENOENT);
		if (trace_arch_set(t->tid, &regs) == 0 && w->debug)
			log_line(t, oldpath, &regs, abi, "fd is not open, as /proc would say: ",
				 ENOENT);
		return TRACE_RESUME_CONT;
	}
	t->call = malloc(sizeof(*t->call));
	if (t->call == NULL)
		return TRACE_RESUME_CONT; /* untouched: what the program gets without us */
	t->call->phase = CALL_REWRITTEN;
	t->call->abi = abi;
	t->call->entry_seen = 0;
	t->call->entry = regs;
	t->call->logging = w->debug;
	trace_arch_set_arg(&regs, abi, ARG_OLDDIRFD, (unsigned long)fd);
	trace_arch_set_arg(&regs, abi, ARG_OLDPATH, path_addr + (unsigned long)len);
	trace_arch_set_arg(&regs, abi, ARG_FLAGS, AT_EMPTY_PATH);
	if (trace_arch_set(t->tid, &regs) != 0) {
		end_call(t);
		return TRACE_RESUME_CONT;
	}
	if (w->debug) {
		/* The result comes at the syscall-exit stop: keep the line until then. */
		log_start(&t->call->log, t, oldpath, &t->call->entry, abi);
		debug_line_str(&t->call->log, "direct AT_EMPTY_PATH: ");
	}
	return TRACE_RESUME_SYSCALL;
}

/* Is this syscall stop the entry of the call (kernels 3.8 to 4.7 stop at the seccomp
 * filter before the syscall-entry stop) rather than its exit? PTRACE_GET_SYSCALL_INFO says
 * so where it exists (5.3+, always after 4.8); before, the stop order of the kernel does. */
static int is_entry_stop(const struct trace_rewriter *w, pid_t tid, struct trace_call *c,
			 const struct trace_regs *regs)
{
	static int no_info;
	unsigned char op;

	if (!no_info) {
		/* The size travels in the address argument, an integer in a pointer. */
		void *size = (void *)sizeof(op); /* NOLINT(performance-no-int-to-ptr) */

		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, size, &op) > 0)
			return op == SYSCALL_INFO_ENTRY;
		if (errno == EIO || errno == EINVAL)
			no_info = 1;
	}
	if (w->seccomp_before_entry && !c->entry_seen && trace_arch_looks_like_entry(regs)) {
		c->entry_seen = 1;
		return 1;
	}
	return 0;
}

static void log_result(struct trace_call *c, const struct trace_rewriter *w, long ret)
{
	if (ret == 0) {
		debug_line_str(&c->log, "ok");
	} else {
		debug_line_errno(&c->log, (int)-ret);
		if (ret == -ENOENT && c->phase == CALL_REPLAYED)
			debug_line_str(&c->log,
				       w->supervisor_has_proc
					       ? " (/proc is not mounted for this process; the "
						 "kernel's own answer (missing directory, deleted "
						 "file, O_EXCL), or its refusal of AT_EMPTY_PATH, "
						 "which needs CAP_DAC_READ_SEARCH, or Linux >= 6.10 "
						 "with the fd opened under the caller's own "
						 "credentials)"
					       : " (the kernel's own answer (missing directory, "
						 "deleted file, O_EXCL), or no /proc in this process "
						 "and a refusal of AT_EMPTY_PATH, which needs "
						 "CAP_DAC_READ_SEARCH, or Linux >= 6.10 with the fd "
						 "opened under the caller's own credentials)");
	}
	debug_line_emit(&c->log);
}

enum trace_resume trace_rewrite_syscall_stop(const struct trace_rewriter *w, struct tracee *t)
{
	struct trace_call *c = t->call;
	struct trace_regs regs;
	long ret;

	if (c == NULL || trace_arch_get(t->tid, &regs) != 0)
		return TRACE_RESUME_CONT;
	if (is_entry_stop(w, t->tid, c, &regs))
		return TRACE_RESUME_SYSCALL; /* the exit is to come */
	ret = trace_arch_return(&regs, c->abi);
	if (c->phase == CALL_REPLAYED) {
		if (c->logging)
			log_result(c, w, ret);
		end_call(t);
		return TRACE_RESUME_CONT;
	}
	if (ret == -ENOENT) {
		/* Make the call again as the tracee made it: its seccomp stop comes next, and
		 * is_replay lets it through. */
		trace_arch_restart(&regs, &c->entry);
		if (trace_arch_set(t->tid, &regs) != 0) {
			end_call(t);
			return TRACE_RESUME_CONT;
		}
		c->phase = CALL_REPLAYED;
		c->entry_seen = 0;
		if (c->logging)
			debug_line_str(&c->log, "ENOENT; original call replayed: ");
		return TRACE_RESUME_CONT;
	}
	trace_arch_restore_args(&regs, &c->entry, c->abi);
	trace_arch_set(t->tid, &regs);
	if (c->logging)
		log_result(c, w, ret);
	end_call(t);
	return TRACE_RESUME_CONT;
}

#else /* !TRACE_ARCH_SUPPORTED */

enum trace_resume trace_rewrite_seccomp(const struct trace_rewriter *w, struct tracee *t,
					unsigned long data)
{
	(void)w;
	(void)t;
	(void)data;
	return TRACE_RESUME_CONT;
}

enum trace_resume trace_rewrite_syscall_stop(const struct trace_rewriter *w, struct tracee *t)
{
	(void)w;
	(void)t;
	return TRACE_RESUME_CONT;
}

#endif
