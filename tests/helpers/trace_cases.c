/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace_cases: programs that test the edges of `flinkshim --trace` no well-behaved legacy
 * program reaches. Statically linked, like the programs --trace is for.
 *
 * usage: trace_cases SCENARIO ARG...
 *   regs DIR NAME       the idiom through one raw syscall instruction that declares every
 *                       argument register read-write ("+"), as inline syscalls in Rust, Zig
 *                       and C may: prints the result, then what the registers hold after
 *                       the call ("rdi=-100 rsi=same rdx=-100 r10=same r8=0x400" natively)
 *   junk-rax DIR NAME   the idiom with junk in the upper half of rax: the kernel dispatches
 *                       on eax alone, so it is linkat all the same
 *   forkkill            four threads create processes with clone(CLONE_VM) as fast as they
 *                       can (each child exits at once), while main exits after 1 to 4 ms:
 *                       a parent killed inside clone() never reports its child
 *   signals             prints "ready", then the number of every signal it receives, one
 *                       line each, until SIGRTMAX ends it (exit 0). The kernel delivers
 *                       pending signals lowest number first: copies of any other signal
 *                       sent before SIGRTMAX come before it
 *   own-filter DIR NAME installs a seccomp filter of its own that answers SECCOMP_RET_TRACE
 *                       (data 7) for getppid() and linkat(), with no tracer of its own: both
 *                       calls fail with ENOSYS natively
 *   nodump DIR NAME     prctl(PR_SET_DUMPABLE, 0), then the idiom
 * Link results are printed as "linkat=0" or "linkat=-1 errno=ENOENT". Exit status: 0, 1 if a
 * call failed, 2 on a setup error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define HAVE_FILTER 1
#endif

static void die(const char *what)
{
	fprintf(stderr, "trace_cases: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* An O_TMPFILE in dir holding "name\n", and its /proc/self/fd path. */
static int tmpfile_for(const char *dir, const char *name, char *path, size_t size)
{
	int fd = open(dir, O_TMPFILE | O_RDWR, 0644);
	char content[256];

	if (fd < 0)
		die("O_TMPFILE");
	snprintf(content, sizeof(content), "%s\n", name);
	if (write(fd, content, strlen(content)) != (ssize_t)strlen(content))
		die("write");
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

static int print_link(long ret)
{
	if (ret >= 0) {
		printf("linkat=0\n");
		return 0;
	}
	printf("linkat=-1 errno=%s\n", errno_name((int)-ret));
	return 1;
}

#if defined(__x86_64__) && !defined(__ILP32__)
static int scenario_regs(const char *dir, const char *name, int junk)
{
	char oldpath[64], newpath[4096];
	long rax, rdi, rsi, rdx;
	int failed;

	tmpfile_for(dir, name, oldpath, sizeof(oldpath));
	snprintf(newpath, sizeof(newpath), "%s/%s", dir, name);
	{
		register long r10 __asm__("r10") = (long)newpath;
		register long r8 __asm__("r8") = AT_SYMLINK_FOLLOW;

		rax = SYS_linkat | (junk ? 0x5a5a5a5a00000000L : 0);
		rdi = AT_FDCWD;
		rsi = (long)oldpath;
		rdx = AT_FDCWD;
		long after_r10, after_r8;

		__asm__ volatile("syscall"
				 : "+a"(rax), "+D"(rdi), "+S"(rsi), "+d"(rdx), "+r"(r10), "+r"(r8)
				 :
				 : "rcx", "r11", "memory");
		/* Copied before any call: r10 and r8 are caller-saved. */
		after_r10 = r10;
		after_r8 = r8;
		failed = print_link(rax);
		if (!junk)
			printf("rdi=%ld rsi=%s rdx=%ld r10=%s r8=%#lx\n", rdi,
			       rsi == (long)oldpath ? "same" : "changed", rdx,
			       after_r10 == (long)newpath ? "same" : "changed",
			       (unsigned long)after_r8);
	}
	return failed;
}
#else
static int scenario_regs(const char *dir, const char *name, int junk)
{
	(void)dir;
	(void)name;
	(void)junk;
	fputs("trace_cases: no raw syscall for this architecture\n", stderr);
	return 77;
}
#endif

static int child_exit(void *arg)
{
	(void)arg;
	syscall(SYS_exit, 0);
	return 0;
}

static void *forker(void *arg)
{
	(void)arg;
	for (;;) {
		char *stack = malloc(65536);

		if (stack == NULL)
			continue;
		/* The stack is never freed: the child shares our memory and may still use it. */
		if (clone(child_exit, stack + 65536, CLONE_VM | SIGCHLD, NULL) < 0)
			free(stack);
	}
	return NULL;
}

static int scenario_forkkill(void)
{
	struct timespec now, pause;
	pthread_t t;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < 4; i++)
		if (pthread_create(&t, NULL, forker, NULL) != 0)
			die("pthread_create");
	pause.tv_sec = 0;
	pause.tv_nsec = 1000000L + now.tv_nsec % 3000000L;
	nanosleep(&pause, NULL);
	exit(0);
}

static volatile sig_atomic_t terminated;

/* One line per signal, written at once: a test can wait for it before it sends the next. */
static void count(int sig)
{
	char line[8];
	int n = 0;

	if (sig == SIGRTMAX) {
		terminated = 1;
		return;
	}
	if (sig >= 10)
		line[n++] = (char)('0' + sig / 10);
	line[n++] = (char)('0' + sig % 10);
	line[n++] = '\n';
	if (write(1, line, (size_t)n) != n)
		_exit(2);
}

static int scenario_signals(void)
{
	struct sigaction sa;
	sigset_t all, none;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count;
	sigfillset(&sa.sa_mask);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (sig = 1; sig < 65; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	printf("ready\n");
	fflush(stdout);
	sigemptyset(&none);
	while (!terminated)
		sigsuspend(&none);
	return 0;
}

#ifdef HAVE_FILTER
static int scenario_own_filter(const char *dir, const char *name)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_linkat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 7),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };
	char oldpath[64], newpath[4096];
	long r;

	tmpfile_for(dir, name, oldpath, sizeof(oldpath));
	snprintf(newpath, sizeof(newpath), "%s/%s", dir, name);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		die("seccomp");
	r = syscall(SYS_getppid);
	printf("getppid=%s\n", r >= 0 ? "ok" : errno_name(errno));
	r = syscall(SYS_linkat, AT_FDCWD, oldpath, AT_FDCWD, newpath, AT_SYMLINK_FOLLOW);
	return print_link(r < 0 ? -errno : r);
}
#else
static int scenario_own_filter(const char *dir, const char *name)
{
	(void)dir;
	(void)name;
	fputs("trace_cases: built without the seccomp headers\n", stderr);
	return 77;
}
#endif

static int scenario_nodump(const char *dir, const char *name)
{
	char oldpath[64], newpath[4096];
	long r;

	tmpfile_for(dir, name, oldpath, sizeof(oldpath));
	snprintf(newpath, sizeof(newpath), "%s/%s", dir, name);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		die("PR_SET_DUMPABLE");
	r = linkat(AT_FDCWD, oldpath, AT_FDCWD, newpath, AT_SYMLINK_FOLLOW);
	return print_link(r < 0 ? -errno : r);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: trace_cases SCENARIO ARG...\n", stderr);
		return 2;
	}
	if (strcmp(argv[1], "regs") == 0 && argc == 4)
		return scenario_regs(argv[2], argv[3], 0);
	if (strcmp(argv[1], "junk-rax") == 0 && argc == 4)
		return scenario_regs(argv[2], argv[3], 1);
	if (strcmp(argv[1], "forkkill") == 0)
		return scenario_forkkill();
	if (strcmp(argv[1], "signals") == 0)
		return scenario_signals();
	if (strcmp(argv[1], "own-filter") == 0 && argc == 4)
		return scenario_own_filter(argv[2], argv[3]);
	if (strcmp(argv[1], "nodump") == 0 && argc == 4)
		return scenario_nodump(argv[2], argv[3]);
	fprintf(stderr, "trace_cases: unknown scenario or arguments: %s\n", argv[1]);
	return 2;
}
