/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The path classifier: does a linkat() oldpath name one of this process's own file
 * descriptors through /proc, the way the kernel would resolve it with /proc mounted?
 *
 * Pure code: no syscalls, no globals, no allocation. The interposer gives it the caller's
 * pid and tid; the unit tests and the fuzzer give it anything.
 */
#ifndef FLINKSHIM_PROCFD_CLASSIFY_H
#define FLINKSHIM_PROCFD_CLASSIFY_H

/* Placeholders for "the caller's pid" and "the caller's tid", for spellings that name them
 * through a symlink (/proc/self, /proc/thread-self) rather than by number. */
#define PROCFD_ID_PID (-2L)
#define PROCFD_ID_TID (-3L)
#define PROCFD_ID_NONE (-1L)

/* Which symlink in /dev the spelling went through. Those links are made by whoever built
 * /dev (udev, a container runtime), so the caller must check they point at /proc/self/fd. */
enum procfd_via {
	PROCFD_VIA_PROC = 0, /* /proc/... directly */
	PROCFD_VIA_DEV_FD,   /* /dev/fd -> /proc/self/fd */
	PROCFD_VIA_DEV_STDIN,
	PROCFD_VIA_DEV_STDOUT,
	PROCFD_VIA_DEV_STDERR
};

/* What a spelling resolves to, before the caller's ids are known:
 * /proc/<proc>/fd/<fd>, or /proc/<proc>/task/<task>/fd/<fd> when task != PROCFD_ID_NONE.
 * proc and task are numbers (>= 0) or the placeholders above. */
struct procfd_ref {
	int fd;
	long proc;
	long task;
	enum procfd_via via;
	/* Numbered directories the path entered and left with "..": the kernel looked them up,
	 * so they must exist, which we can vouch for only if they are our own pid or tid. */
	long passed[2];
	int npassed;
};

/* Whose file descriptor table a spelling names, once the ids are known. */
enum procfd_owner {
	PROCFD_NOT_OURS = 0, /* not the idiom, or another process's or another thread's table */
	PROCFD_CALLER,       /* the calling thread's own table: fd can be used as is */
	PROCFD_LEADER,       /* the thread-group leader's table: the caller's unless it unshared
	                        CLONE_FILES (or the leader has exited) */
	PROCFD_THREAD        /* another thread of our group, by its tid (procfd_resolve_group
	                        only): the caller's table only if that thread shares it */
};

/* Parse an absolute path. Returns 0 and fills *ref if the path, walked as the kernel walks it
 * (repeated slashes, ".", ".." after the /proc/self, /proc/thread-self and /dev/fd symlinks),
 * ends on a /proc/<id>/fd/<n> magic link; -1 otherwise. Numbers are accepted as procfs
 * accepts them: decimal digits only, no leading zero, no sign, fd at most INT_MAX. As in the
 * kernel, a path of 4096 bytes or more, or one that follows more than 40 symlinks, fails. */
int procfd_parse(const char *path, struct procfd_ref *ref);

/* Does resolving ref need the caller's pid and tid? (No for /proc/thread-self/fd/N.) */
int procfd_needs_ids(const struct procfd_ref *ref);

/* Does ref name a process or task by number (/proc/<pid>, task/<tid>, or a number walked
 * through)? Such numbers mean something only in the pid namespace of the /proc they are read
 * in. */
int procfd_has_numbers(const struct procfd_ref *ref);

/* Is ref plainly /proc/self/fd/N (however spelt): the leader's table, with no id to check?
 * In the leader thread that is the caller's own table. */
int procfd_is_plain_self(const struct procfd_ref *ref);

/* Whose table ref names, for a caller with these ids. */
enum procfd_owner procfd_resolve(const struct procfd_ref *ref, long pid, long tid);

/* Is n, a number that is neither the caller's pid nor its tid, a thread of the caller's
 * thread group? Only the caller can know (a syscall): the classifier asks, it never looks. */
typedef int (*procfd_in_group_fn)(long n, void *ctx);

/* procfd_resolve() for a caller that can tell its own threads: numbers in the path that are
 * threads of the group (in_group says so) count as existing directories of ours, as the
 * kernel finds them with /proc mounted, and a table named by such a thread's tid gives
 * PROCFD_THREAD with the tid in *thread. in_group is asked only about numbers that are
 * neither pid nor tid, at most once each; with in_group NULL this is procfd_resolve(). */
enum procfd_owner procfd_resolve_group(const struct procfd_ref *ref, long pid, long tid,
				       procfd_in_group_fn in_group, void *ctx, long *thread);

/* Both steps: returns the owner and stores the fd in *fd when the owner is not
 * PROCFD_NOT_OURS. */
enum procfd_owner procfd_classify(const char *path, long pid, long tid, int *fd);

#endif
