/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace_bench: the loops of `make bench-trace`, timed from inside, so that the start-up of
 * flinkshim or proot is not in the figure.
 *
 *   trace_bench getppid N     N getppid() calls: the cheapest system call there is, so the
 *                             cost of the seccomp filter shows at its largest
 *   trace_bench link N DIR    N legacy links: an O_TMPFILE in DIR, then
 *                             linkat(AT_FDCWD, "/proc/self/fd/N", DIR, "lI", AT_SYMLINK_FOLLOW);
 *                             only the linkat calls are timed
 *   trace_bench spawn N PROG  a shell loop that runs PROG N times, one process after the
 *                             other (sh -c 'while ...; do PROG; done'): what starting
 *                             processes costs, timed from the shell's fork to its end
 * Prints the total time in nanoseconds of what was timed. Exit status 0, 1 if a call failed.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bench_getppid(long n)
{
	long long t0 = now_ns();
	long i;
	pid_t sink = 0;

	for (i = 0; i < n; i++)
		sink ^= getppid();
	printf("%lld\n", now_ns() - t0);
	return sink == -1;
}

static int bench_link(long n, const char *dir)
{
	long long total = 0;
	int dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	long i;

	if (dirfd < 0) {
		fprintf(stderr, "trace_bench: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		char path[64], name[32];
		int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		long long t0;
		int r;

		if (fd < 0) {
			fprintf(stderr, "trace_bench: O_TMPFILE in %s: %s\n", dir, strerror(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		snprintf(name, sizeof(name), "l%ld", i);
		t0 = now_ns();
		r = linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
		total += now_ns() - t0;
		if (r != 0) {
			fprintf(stderr, "trace_bench: linkat %s -> %s: %s\n", path, name,
				strerror(errno));
			return 1;
		}
		close(fd);
	}
	printf("%lld\n", total);
	return 0;
}

static int bench_spawn(long n, const char *prog)
{
	char script[256];
	long long t0;
	pid_t pid;
	int status;

	snprintf(script, sizeof(script), "i=0; while [ $i -lt %ld ]; do \"$0\"; i=$((i + 1)); done",
		 n);
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("trace_bench: fork");
		return 1;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", script, prog, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "trace_bench: the loop of %s failed\n", prog);
		return 1;
	}
	printf("%lld\n", now_ns() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc == 3 && strcmp(argv[1], "getppid") == 0 && n > 0)
		return bench_getppid(n);
	if (argc == 4 && strcmp(argv[1], "link") == 0 && n > 0)
		return bench_link(n, argv[3]);
	if (argc == 4 && strcmp(argv[1], "spawn") == 0 && n > 0)
		return bench_spawn(n, argv[3]);
	fputs("usage: trace_bench getppid N | trace_bench link N DIR | trace_bench spawn N PROG\n",
	      stderr);
	return 2;
}
