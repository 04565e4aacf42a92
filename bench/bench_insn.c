/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench_insn [--smoke] [-n CALLS] DIR: the loops whose instructions `make bench` counts.
 * Run it under `valgrind --tool=callgrind --collect-atstart=no` with the shim preloaded.
 *
 * Why instructions: time on a shared 2-core machine wanders by more than the shim costs, but
 * the instructions a call executes in user space do not. Valgrind sees no kernel work, so a
 * count is exactly the shim's own code plus libc's syscall wrapper behind it.
 *
 * Each variant runs twice, with CALLS calls and with none, each between two client requests
 * that switch collection on and off and then dump the counters under a label
 * ("VARIANT:CALLS", "VARIANT:0"); bench/run.sh reads the dumps and takes
 *   Ir per call = (Ir of CALLS calls - Ir of 0 calls) / CALLS
 * minus the same figure for an identical loop that calls an empty function, so that neither
 * the client requests nor the loop itself are counted.
 *
 * The pass-through calls link a new name each time (names made beforehand, removed after the
 * dump), so every counted call succeeds as in real use. The rewrite is counted with /proc
 * hidden when this process may hide it (a private mount namespace, as bench_calls does): the
 * counted calls then prove that the shim rewrote them. Where it may not, /proc stays and the
 * count is the same path (the shim tries the direct form first either way).
 * Exit status: 0, 1 if a counted call failed, 2 on a usage or setup error; 77 (and a line
 * saying why) when not running under callgrind.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "bench_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND_H 1
#endif
#endif
#ifndef LIBC_SO
#define LIBC_SO "libc.so"
#endif

typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef long (*syscall_fn)(long, ...);

static const char *prog = "bench_insn";

#if defined(HAVE_CALLGRIND_H)

static int dirfd_ = -1;
static int tmpfd = -1;
static char proc_path[64];
static char (*names)[24]; /* "n" and up to 20 digits: room for any long */
static int failures;

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(2);
}

/* The baselines: as cheap as a call can be. The loops call through a pointer read from a
 * volatile, so the compiler can neither inline these nor drop the calls: the loop around them
 * is the very loop around the real calls. */
__attribute__((noinline)) static int empty_linkat(int a, const char *b, int c, const char *d,
						   int e)
{
	__asm__ volatile("" : : "r"(a), "r"(b), "r"(c), "r"(d), "r"(e) : "memory");
	return 0;
}

__attribute__((noinline)) static long empty_syscall(long nr, ...)
{
	__asm__ volatile("" : : "r"(nr) : "memory");
	return 0;
}

static void *must_sym(void *handle, const char *name)
{
	void *p = dlsym(handle, name);

	if (p == NULL) {
		fprintf(stderr, "%s: dlsym(%s): %s\n", prog, name, dlerror());
		exit(2);
	}
	return p;
}

static void remove_names(long n)
{
	long i;

	for (i = 0; i < n; i++)
		(void)unlinkat(dirfd_, names[i], 0);
}

/* One counted loop of n linkat() calls to fresh names, dumped under "label:n". */
static void count_links(const char *label, linkat_fn f, int olddirfd, const char *oldpath,
			int flags, long n)
{
	linkat_fn volatile fv = f;
	linkat_fn g = fv;
	char dump[64];
	long i;

	snprintf(dump, sizeof(dump), "%s:%ld", label, n);
	remove_names(n);
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n; i++)
		if (g(olddirfd, oldpath, dirfd_, names[i], flags) != 0)
			failures++;
	CALLGRIND_TOGGLE_COLLECT;
	CALLGRIND_DUMP_STATS_AT(dump);
	remove_names(n);
}

static void count_getpid(const char *label, syscall_fn f, long n)
{
	syscall_fn volatile fv = f;
	syscall_fn g = fv;
	char dump[64];
	long i;

	snprintf(dump, sizeof(dump), "%s:%ld", label, n);
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n; i++)
		if (g(SYS_getpid) < 0)
			failures++;
	CALLGRIND_TOGGLE_COLLECT;
	CALLGRIND_DUMP_STATS_AT(dump);
}

/* Hide /proc in a private mount namespace (never the host's). Returns 1 if hidden. */
static int hide_proc(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return 0;
	/* In a chroot / is not a mount point (EINVAL); /proc, the only mount made here, is. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 &&
	    (errno != EINVAL || mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) != 0))
		return 0;
	return mount("none", "/proc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k") == 0;
}

static void setup(const char *dir, long n, linkat_fn libc_linkat)
{
	long i;

	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0)
		die(dir);
	(void)unlinkat(dirfd_, "anchor", 0);
	tmpfd = openat(dirfd_, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (tmpfd < 0)
		die("O_TMPFILE");
	if (libc_linkat(tmpfd, "", dirfd_, "anchor", AT_EMPTY_PATH) != 0)
		die("linkat(AT_EMPTY_PATH) of the anchor");
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", tmpfd);
	names = calloc((size_t)n, sizeof(*names));
	if (names == NULL)
		die("calloc");
	for (i = 0; i < n; i++)
		snprintf(names[i], sizeof(names[i]), "n%ld", i);
}

static int run(const char *dir, long n)
{
	void *libc = dlopen(LIBC_SO, RTLD_NOW | RTLD_NOLOAD);
	linkat_fn shim_linkat, libc_linkat;
	syscall_fn shim_syscall, libc_syscall;
	int hidden;
	long k;

	if (libc == NULL) {
		fprintf(stderr, "%s: dlopen(%s): %s\n", prog, LIBC_SO, dlerror());
		return 2;
	}
	shim_linkat = (linkat_fn)must_sym(RTLD_DEFAULT, "linkat");
	shim_syscall = (syscall_fn)must_sym(RTLD_DEFAULT, "syscall");
	libc_linkat = (linkat_fn)must_sym(libc, "linkat");
	libc_syscall = (syscall_fn)must_sym(libc, "syscall");
	if (shim_linkat == libc_linkat || shim_syscall == libc_syscall) {
		fprintf(stderr, "%s: linkat/syscall are libc's: run me with LD_PRELOAD=libflinkshim\n",
			prog);
		return 2;
	}
	setup(dir, n, libc_linkat);
	hidden = hide_proc();
	/* One uncounted call of each first: the first call of anything pays for lazy binding. */
	count_links("warmup", shim_linkat, AT_FDCWD, proc_path, AT_SYMLINK_FOLLOW, 1);
	count_links("warmup", shim_linkat, dirfd_, "anchor", 0, 1);
	count_links("warmup", libc_linkat, dirfd_, "anchor", 0, 1);
	count_getpid("warmup", shim_syscall, 1);
	count_getpid("warmup", libc_syscall, 1);
	for (k = 0; k <= n; k += n) {
		count_links("empty_linkat", empty_linkat, dirfd_, "anchor", 0, k);
		count_links("libc_linkat", libc_linkat, dirfd_, "anchor", 0, k);
		count_links("shim_linkat", shim_linkat, dirfd_, "anchor", 0, k);
		count_links("shim_rewrite", shim_linkat, AT_FDCWD, proc_path, AT_SYMLINK_FOLLOW, k);
		count_links("libc_direct", libc_linkat, tmpfd, "", AT_EMPTY_PATH, k);
		count_getpid("empty_syscall", empty_syscall, k);
		count_getpid("libc_syscall", libc_syscall, k);
		count_getpid("shim_syscall", shim_syscall, k);
	}
	(void)unlinkat(dirfd_, "anchor", 0);
	printf("proc=%s\n", hidden ? "hidden" : "mounted");
	if (failures != 0) {
		fprintf(stderr, "%s: %d counted calls failed\n", prog, failures);
		return 1;
	}
	return 0;
}

#endif

int main(int argc, char **argv)
{
	long n = 1000;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--smoke") == 0) {
			n = 10;
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			n = bench_count(prog, "-n", argv[++i]);
		} else {
			fprintf(stderr, "usage: %s [--smoke] [-n CALLS] DIR\n", prog);
			return 2;
		}
	}
	if (i + 1 != argc) {
		fprintf(stderr, "usage: %s [--smoke] [-n CALLS] DIR\n", prog);
		return 2;
	}
#if defined(HAVE_CALLGRIND_H)
	if (!RUNNING_ON_VALGRIND) {
		printf("skipped: not running under valgrind --tool=callgrind\n");
		return 77;
	}
	return run(argv[i], n);
#else
	(void)n; /* counted only under callgrind */
	printf("skipped: built without <valgrind/callgrind.h> (install valgrind)\n");
	return 77;
#endif
}
