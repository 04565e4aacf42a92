/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * foreign_fd MODE DIR: the legacy idiom aimed at a file descriptor table that is not the
 * caller's, with the same fd number open on a different file in the caller's own table.
 *
 * Two anonymous files: A ("A\n"), held at fd N (42) by the caller, and B ("B\n"), held at the
 * same number N by someone else. The caller links the /proc path to DIR/out. With /proc
 * mounted the kernel links whatever the path names; a shim that turned the path into
 * linkat(N, "", ...) would link the caller's own file instead. With /proc hidden the right
 * answer for a path that is not ours is ENOENT and no DIR/out.
 *
 * MODE:
 *   process        a child process holds B at N; the path is /proc/<child>/fd/N
 *   process-task   the same through /proc/<child>/task/<child>/fd/N
 *   thread         another thread of ours unshared CLONE_FILES and holds B at N;
 *                  the path is /proc/<pid>/task/<that thread>/fd/N
 *   thread-shared  another thread of ours, sharing our table (so it holds A at N);
 *                  the path is /proc/<pid>/task/<that thread>/fd/N
 *   leader         the caller is a second thread that unshared CLONE_FILES and holds B at N;
 *                  /proc/self/fd/N is the leader's table, hence A
 *   leader-close-range  the same, but the table is made the thread's own by
 *                  close_range(~0U, ~0U, CLOSE_RANGE_UNSHARE) (exit 3 where libc has no
 *                  close_range(): glibc before 2.34, musl)
 *   thread-self    the same thread, but /proc/thread-self/fd/N: its own table, hence B.
 *                  The one mode where the path is the caller's own: the shim should rewrite.
 *   leader-exited  the main thread has called pthread_exit(); a second thread, sharing the
 *                  table that holds A, links /proc/self/fd/N. /proc/self is the leader, a
 *                  zombie whose fd table is gone: the kernel says ENOENT, even though A is
 *                  open at N in the caller's table.
 *
 * Output: "linkat=0" or "linkat=-1 errno=ENOENT", one line; the suite reads DIR/out.
 * Exit status: 0 if the call succeeded, 1 if not, 2 for a setup error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 42

enum mode {
	PROCESS,
	PROCESS_TASK,
	THREAD,
	THREAD_SHARED,
	LEADER,
	THREAD_SELF,
	LEADER_EXITED,
	LEADER_CLOSE_RANGE
};

static const char *dir;
static int dirfd_;
static pthread_barrier_t ready, done;
static pid_t other_tid;
static int result_ret, result_err;

static void die(const char *what)
{
	fprintf(stderr, "foreign_fd: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Only glibc's gettid() asks the kernel: musl's returns the tid cached in the thread
 * descriptor, the parent's in a vfork child. */
static pid_t current_tid(void)
{
#if defined(HAVE_GETTID) && defined(__GLIBC__)
	return gettid();
#else
	return (pid_t)syscall(SYS_gettid);
#endif
}

/* An anonymous file holding text, moved to fd N of the calling thread's table. */
static void hold_at_n(const char *text)
{
	int fd = open(dir, O_TMPFILE | O_RDWR, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("O_TMPFILE");
	if (dup2(fd, N) != N)
		die("dup2");
	close(fd);
}

static void link_path(const char *path)
{
	errno = 0;
	result_ret = linkat(AT_FDCWD, path, dirfd_, "out", AT_SYMLINK_FOLLOW);
	result_err = errno;
}

/* THREAD and THREAD_SHARED: the other thread holds its fd N until the caller has linked.
 * A non-NULL arg: it takes a table of its own first. */
static void *holder(void *arg)
{
	if (arg != NULL) {
		if (unshare(CLONE_FILES) != 0)
			die("unshare(CLONE_FILES)");
		hold_at_n("B\n");
	}
	other_tid = current_tid();
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done);
	return NULL;
}

/* LEADER and THREAD_SELF: the caller itself is the thread with its own table. */
static const char *own_spelling; /* "self" or "thread-self" */
static int by_close_range;

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1) /* <linux/close_range.h> */
#endif

static void *own_table_caller(void *arg)
{
	char path[64];

	(void)arg;
	if (by_close_range) {
#if defined(HAVE_CLOSE_RANGE)
		/* An empty range: the table is unshared, nothing is closed. */
		if (close_range(~0U, ~0U, CLOSE_RANGE_UNSHARE) != 0)
			die("close_range(CLOSE_RANGE_UNSHARE)");
#endif
	} else if (unshare(CLONE_FILES) != 0) {
		die("unshare(CLONE_FILES)");
	}
	hold_at_n("B\n");
	snprintf(path, sizeof(path), "/proc/%s/fd/%d", own_spelling, N);
	link_path(path);
	return NULL;
}

static void in_own_table_thread(const char *spelling)
{
	pthread_t th;

	own_spelling = spelling;
	errno = pthread_create(&th, NULL, own_table_caller, NULL);
	if (errno != 0)
		die("pthread_create");
	pthread_join(th, NULL);
}

static void print_result(void)
{
	if (result_ret == 0)
		printf("linkat=0\n");
	else
		printf("linkat=%d errno=%s\n", result_ret, errno_name(result_err));
	fflush(stdout);
}

#ifndef KCMP_FILES
#define KCMP_FILES 2 /* <linux/kcmp.h> */
#endif

/* LEADER_EXITED: wait until the leader's fd table is gone (the kernel drops it after the
 * thread has told pthread_join() it is gone), then link through /proc/self. */
static void *after_leader(void *arg)
{
	pthread_t leader = *(pthread_t *)arg;
	struct timespec tick = { 0, 1000000 };
	int i;

	pthread_join(leader, NULL);
	for (i = 0; i < 2000; i++) {
		/* syscall() is the shim's when it is preloaded: harmless, it passes kcmp on. */
		if (syscall(SYS_kcmp, (long)getpid(), (long)current_tid(), KCMP_FILES, 0L, 0L) != 0)
			break;
		nanosleep(&tick, NULL);
	}
	link_path("/proc/self/fd/42");
	print_result();
	exit(result_ret == 0 ? 0 : 1);
}

static void leader_exits(void)
{
	static pthread_t leader;
	pthread_t th;

	leader = pthread_self();
	errno = pthread_create(&th, NULL, after_leader, &leader);
	if (errno != 0)
		die("pthread_create");
	pthread_exit(NULL);
}

/* The caller links /proc/<pid>/task/<other thread>/fd/N while that thread holds it. */
static void to_other_thread(int unshared)
{
	char path[128];
	pthread_t th;

	if (pthread_barrier_init(&ready, NULL, 2) != 0 || pthread_barrier_init(&done, NULL, 2) != 0)
		die("pthread_barrier_init");
	errno = pthread_create(&th, NULL, holder, unshared ? &th : NULL);
	if (errno != 0)
		die("pthread_create");
	pthread_barrier_wait(&ready);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/fd/%d", (int)getpid(), (int)other_tid, N);
	link_path(path);
	pthread_barrier_wait(&done);
	pthread_join(th, NULL);
}

/* The caller links /proc/<child>/fd/N (or .../task/<child>/fd/N) while the child holds it. */
static void to_child(int via_task)
{
	int to_parent[2], to_kid[2];
	char path[128];
	char c;
	pid_t pid;
	int status;

	if (pipe(to_parent) != 0 || pipe(to_kid) != 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		hold_at_n("B\n");
		if (write(to_parent[1], "r", 1) != 1 || read(to_kid[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	if (read(to_parent[0], &c, 1) != 1)
		die("child not ready");
	if (via_task)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/fd/%d", (int)pid, (int)pid, N);
	else
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, N);
	link_path(path);
	if (write(to_kid[1], "x", 1) != 1 || waitpid(pid, &status, 0) != pid)
		die("child");
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "process",	 "process-task",  "thread",
					     "thread-shared", "leader",	      "thread-self",
					     "leader-exited", "leader-close-range", NULL };
	int mode = -1;
	int i;

	for (i = 0; argc == 3 && modes[i] != NULL; i++)
		if (strcmp(argv[1], modes[i]) == 0)
			mode = i;
	if (mode < 0) {
		fputs("usage: foreign_fd process|process-task|thread|thread-shared|leader|"
		      "thread-self|leader-exited|leader-close-range DIR\n", stderr);
		return 2;
	}
	dir = argv[2];
	dirfd_ = open(dir, O_PATH | O_DIRECTORY);
	if (dirfd_ < 0)
		die(dir);
	hold_at_n("A\n");

	switch ((enum mode)mode) {
	case PROCESS:
		to_child(0);
		break;
	case PROCESS_TASK:
		to_child(1);
		break;
	case THREAD:
		to_other_thread(1);
		break;
	case THREAD_SHARED:
		to_other_thread(0);
		break;
	case LEADER:
		in_own_table_thread("self");
		break;
	case THREAD_SELF:
		in_own_table_thread("thread-self");
		break;
	case LEADER_EXITED:
		leader_exits();
		break;
	case LEADER_CLOSE_RANGE:
#if !defined(HAVE_CLOSE_RANGE)
		fputs("foreign_fd: this C library has no close_range()\n", stderr);
		return 3;
#endif
		by_close_range = 1;
		in_own_table_thread("self");
		break;
	}
	print_result();
	return result_ret == 0 ? 0 : 1;
}
