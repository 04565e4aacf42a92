/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidns_twin CMD [ARG...]: run CMD in a new pid namespace that keeps the parent's /proc, as a
 * process whose pid is the same number in both namespaces (clone3() with set_tid, Linux 5.5,
 * root). /proc/self then names CMD, as in a namespace of its own, but its other threads have
 * other numbers in each namespace: /proc/self/task/<gettid()> is not the caller's thread
 * there, and only /proc/thread-self ("<pid>/task/<tid>") shows it (review S5).
 *
 * Exit status: CMD's; 125 if the case cannot be built here (no pid namespace, no clone3 or
 * set_tid); 127 if CMD cannot be run.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* struct clone_args of <linux/sched.h> (Linux 5.5: set_tid and set_tid_size). */
struct twin_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
		set_tid_size;
};

static int status_of(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return 125;
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}

static long pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long n = 32768;

	if (f != NULL) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 32768;
		fclose(f);
	}
	return n;
}

/* In the new namespace's init: the twin, at the same free number in both namespaces. max is
 * the parent namespace's pid_max (since Linux 6.14 each namespace has its own, and a new one
 * may allow more). */
static int make_twin(char **argv, long max)
{
	int attempt;

	for (attempt = 0; attempt < 200; attempt++) {
		pid_t tids[2];
		struct twin_clone_args args;
		long r;

		tids[0] = tids[1] = (pid_t)(max - 100 - attempt * 37);
		memset(&args, 0, sizeof(args));
		args.exit_signal = SIGCHLD;
		args.set_tid = (uint64_t)(uintptr_t)tids;
		args.set_tid_size = 2;
		r = syscall(SYS_clone3, &args, sizeof(args));
		if (r == 0) {
			execvp(argv[0], argv);
			fprintf(stderr, "pidns_twin: %s: %s\n", argv[0], strerror(errno));
			_exit(127);
		}
		if (r > 0)
			return status_of((pid_t)r);
		if (errno != EEXIST)
			break;
	}
	fprintf(stderr, "pidns_twin: clone3 with set_tid: %s\n", strerror(errno));
	return 125;
}

int main(int argc, char **argv)
{
	pid_t init;
	long max = pid_max();

	if (argc < 2) {
		fputs("usage: pidns_twin CMD [ARG...]\n", stderr);
		return 125;
	}
	if (unshare(CLONE_NEWPID) != 0) {
		fprintf(stderr, "pidns_twin: unshare(CLONE_NEWPID): %s\n", strerror(errno));
		return 125;
	}
	init = fork();
	if (init < 0)
		return 125;
	if (init == 0)
		_exit(make_twin(argv + 1, max));
	return status_of(init);
}
