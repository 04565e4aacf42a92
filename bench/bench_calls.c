/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench_calls [--smoke] [-r REPS] [-n LOOPS] DIR: the per-call figures of `make bench`.
 * Run it with the shim preloaded (LD_PRELOAD); it measures, in this one process:
 *
 *   passthrough  linkat(dirfd, "anchor", dirfd, "name", 0) through the shim's linkat ÷ through
 *                libc's own linkat, and syscall(SYS_getpid) through the shim's syscall ÷ libc's.
 *   rewrite      the legacy idiom through the shim with /proc hidden ÷ the same idiom through
 *                libc's linkat with /proc mounted (the kernel walks /proc/self/fd/N).
 *   tolimit      the same shim call ÷ linkat(fd, "", dirfd, "name", AT_EMPTY_PATH) by hand.
 *
 * Why one process: both sides of every ratio then share the same caches, the same CPU and the
 * same bursts of noise from the other jobs on the machine. The shim's functions are the ones
 * the program's own calls bind to (dlsym(RTLD_DEFAULT)); libc's are looked up in libc itself.
 * Every variant is called through a function pointer, so the two sides differ by the shim
 * alone.
 *
 * Why the process hides /proc itself (unshare(CLONE_NEWNS), then a tmpfs mounted over /proc
 * and unmounted again between variants) instead of running under `unshare -m sh -c 'mount
 * ...'`: the native idiom needs /proc and the shim's side must not have it, and only toggling
 * the mount lets both run interleaved, A B A B, in one process.
 *
 * Each loop links a name and unlinks it again, N times; the anchor name keeps the file's link
 * count above zero, since an O_TMPFILE whose count fell back to zero cannot be linked again.
 * Short loops (100 calls, well under a millisecond) and many repetitions: on a loaded machine
 * a preemption then spoils only the one loop it lands in, and the median passes it over.
 * DIR should be on tmpfs: a disk file system's journal adds noise and hides the shim's cost.
 * Exit status: 0 (a figure that cannot be measured here is printed as skipped), 2 on a usage
 * or setup error.
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
#include <sys/vfs.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>
#endif
#endif
#ifndef LIBC_SO
#define LIBC_SO "libc.so" /* musl's name for itself */
#endif

#define PROC_SUPER_MAGIC_VALUE 0x9fa0

typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef long (*syscall_fn)(long, ...);

static const char *prog = "bench_calls";

static linkat_fn shim_linkat;
static linkat_fn libc_linkat;
static syscall_fn shim_syscall;
static syscall_fn libc_syscall;

static int dirfd_ = -1;  /* DIR */
static int tmpfd = -1;   /* the O_TMPFILE, named "anchor" */
static char proc_path[64];

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(2);
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

/* The shim's symbols are what the program binds to; libc's are in libc. If both are the same,
 * the shim is not preloaded and there is nothing to compare. */
static void find_symbols(void)
{
	void *libc = dlopen(LIBC_SO, RTLD_NOW | RTLD_NOLOAD);

	if (libc == NULL) {
		fprintf(stderr, "%s: dlopen(%s): %s\n", prog, LIBC_SO, dlerror());
		exit(2);
	}
	shim_linkat = (linkat_fn)must_sym(RTLD_DEFAULT, "linkat");
	shim_syscall = (syscall_fn)must_sym(RTLD_DEFAULT, "syscall");
	libc_linkat = (linkat_fn)must_sym(libc, "linkat");
	libc_syscall = (syscall_fn)must_sym(libc, "syscall");
	if (shim_linkat == libc_linkat || shim_syscall == libc_syscall) {
		fprintf(stderr, "%s: linkat/syscall are libc's: run me with LD_PRELOAD=libflinkshim\n",
			prog);
		exit(2);
	}
}

static void setup(const char *dir)
{
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0)
		die(dir);
	(void)unlinkat(dirfd_, "anchor", 0);
	(void)unlinkat(dirfd_, "name", 0);
	tmpfd = openat(dirfd_, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (tmpfd < 0)
		die("O_TMPFILE");
	/* Named by the direct form: this process opened the file, so it works as root and, on
	 * Linux >= 6.10, unprivileged; /proc is not needed for the anchor. */
	if (libc_linkat(tmpfd, "", dirfd_, "anchor", AT_EMPTY_PATH) != 0)
		die("linkat(AT_EMPTY_PATH) of the anchor");
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", tmpfd);
}

static void cleanup(void)
{
	(void)unlinkat(dirfd_, "name", 0);
	(void)unlinkat(dirfd_, "anchor", 0);
}

/* One timed loop: N times link "name" and unlink it again. A failed call ends the program:
 * a benchmark of failing calls would measure something else. */
static double link_loop(linkat_fn f, int olddirfd, const char *oldpath, int flags, long n)
{
	double t0 = bench_now_ns();
	long i;

	for (i = 0; i < n; i++) {
		if (f(olddirfd, oldpath, dirfd_, "name", flags) != 0)
			die("linkat in the timed loop");
		if (unlinkat(dirfd_, "name", 0) != 0)
			die("unlinkat in the timed loop");
	}
	return bench_now_ns() - t0;
}

static double getpid_loop(syscall_fn f, long n)
{
	double t0 = bench_now_ns();
	long i;

	for (i = 0; i < n; i++)
		(void)f(SYS_getpid);
	return bench_now_ns() - t0;
}

struct series {
	double *ratio, *a, *b;
};

static void series_init(struct series *s, size_t reps)
{
	s->ratio = calloc(reps, sizeof(double));
	s->a = calloc(reps, sizeof(double));
	s->b = calloc(reps, sizeof(double));
	if (s->ratio == NULL || s->a == NULL || s->b == NULL)
		die("calloc");
}

static void series_free(struct series *s)
{
	free(s->ratio);
	free(s->a);
	free(s->b);
}

/* Warm-up repetitions are run and thrown away: the first calls pay for lazy binding, cold
 * caches and the dentries of DIR. */
#define WARMUP 3

static void bench_passthrough(long reps, long n)
{
	struct series l, s;
	long r;

	series_init(&l, (size_t)reps);
	series_init(&s, (size_t)reps);
	for (r = -WARMUP; r < reps; r++) {
		double ta, tb, sa, sb;

		/* A B on even repetitions, B A on odd ones: neither side always goes first. */
		if (r & 1) {
			tb = link_loop(libc_linkat, dirfd_, "anchor", 0, n);
			ta = link_loop(shim_linkat, dirfd_, "anchor", 0, n);
			sb = getpid_loop(libc_syscall, n);
			sa = getpid_loop(shim_syscall, n);
		} else {
			ta = link_loop(shim_linkat, dirfd_, "anchor", 0, n);
			tb = link_loop(libc_linkat, dirfd_, "anchor", 0, n);
			sa = getpid_loop(shim_syscall, n);
			sb = getpid_loop(libc_syscall, n);
		}
		if (r < 0)
			continue;
		l.a[r] = ta / (double)n, l.b[r] = tb / (double)n, l.ratio[r] = ta / tb;
		s.a[r] = sa / (double)n, s.b[r] = sb / (double)n, s.ratio[r] = sa / sb;
	}
	bench_report("1. passthrough linkat", 1.02, l.ratio, l.a, l.b, (size_t)reps, "us/loop", 1e3,
		     NULL);
	bench_report("1. passthrough syscall", 1.05, s.ratio, s.a, s.b, (size_t)reps, "ns/call", 1.0,
		     NULL);
	series_free(&l);
	series_free(&s);
}

static int proc_hidden;

static int proc_is_mounted(void)
{
	struct statfs sfs;

	return statfs("/proc", &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE;
}

/* Outside the timed loops only. */
static void set_proc_hidden(int hide)
{
	if (hide == proc_hidden)
		return;
	if (hide && mount("none", "/proc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k") != 0)
		die("mount tmpfs over /proc");
	if (!hide && umount2("/proc", 0) != 0)
		die("umount the tmpfs over /proc");
	proc_hidden = hide;
	if (proc_is_mounted() == hide) {
		fprintf(stderr, "%s: /proc is %s after %s it\n", prog, hide ? "still procfs" : "not procfs",
			hide ? "hiding" : "showing");
		exit(2);
	}
}

/*
 * A private mount namespace of our own: the tmpfs over /proc must never reach the host, where
 * other programs are running. Returns NULL, or why it cannot be done.
 */
static const char *enter_private_namespace(void)
{
	static char why[160];

	if (unshare(CLONE_NEWNS) != 0) {
		snprintf(why, sizeof(why), "unshare(CLONE_NEWNS): %s (hiding /proc needs root and "
			 "mount namespaces)", strerror(errno));
		return why;
	}
	/* In a chroot (pbuilder, sbuild) / is not a mount point and cannot be made private
	 * (EINVAL); the only mount made here is over /proc, the chroot's own mount point, so
	 * making that one private is enough. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 &&
	    (errno != EINVAL || mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) != 0)) {
		snprintf(why, sizeof(why), "neither / nor /proc can be made a private mount (%s): "
			 "a chroot without /proc mounted?", strerror(errno));
		return why;
	}
	if (!proc_is_mounted())
		return "/proc is not mounted here, so the native idiom cannot run";
	return NULL;
}

/* The setup the ratios rely on, checked once outside the timed loops: with /proc hidden the
 * idiom fails natively and works through the shim; with /proc mounted it works natively. */
static const char *check_stage(void)
{
	static char why[160];

	set_proc_hidden(1);
	if (libc_linkat(AT_FDCWD, proc_path, dirfd_, "name", AT_SYMLINK_FOLLOW) == 0)
		return "the native idiom works with /proc hidden: the stage is wrong";
	if (shim_linkat(AT_FDCWD, proc_path, dirfd_, "name", AT_SYMLINK_FOLLOW) != 0) {
		snprintf(why, sizeof(why), "the shim's rewrite fails here (%s): no direct form for "
			 "this caller (see flinkshim --check)", strerror(errno));
		return why;
	}
	(void)unlinkat(dirfd_, "name", 0);
	set_proc_hidden(0);
	if (libc_linkat(AT_FDCWD, proc_path, dirfd_, "name", AT_SYMLINK_FOLLOW) != 0) {
		snprintf(why, sizeof(why), "the native idiom fails with /proc mounted: %s",
			 strerror(errno));
		return why;
	}
	(void)unlinkat(dirfd_, "name", 0);
	return NULL;
}

enum variant { SHIM_HIDDEN, NATIVE_PROC, DIRECT, NVARIANTS };

static double run_variant(enum variant v, long n)
{
	switch (v) {
	case SHIM_HIDDEN:
		set_proc_hidden(1);
		return link_loop(shim_linkat, AT_FDCWD, proc_path, AT_SYMLINK_FOLLOW, n);
	case NATIVE_PROC:
		set_proc_hidden(0);
		return link_loop(libc_linkat, AT_FDCWD, proc_path, AT_SYMLINK_FOLLOW, n);
	case DIRECT:
		/* /proc as the shim's side has it; the direct form does not look. */
		set_proc_hidden(1);
		return link_loop(libc_linkat, tmpfd, "", AT_EMPTY_PATH, n);
	case NVARIANTS:
		break;
	}
	return 0.0;
}

static void bench_rewrite(long reps, long n)
{
	struct series rw, lim;
	const char *why = enter_private_namespace();
	long r;

	if (why == NULL)
		why = check_stage();
	if (why != NULL) {
		bench_skip("2. rewrite", why);
		bench_skip("3. tolimit", why);
		return;
	}
	series_init(&rw, (size_t)reps);
	series_init(&lim, (size_t)reps);
	for (r = -WARMUP; r < reps; r++) {
		double t[NVARIANTS];
		int k;

		/* The three in rotation (ABC, BCA, CAB): each takes each place equally often. */
		for (k = 0; k < NVARIANTS; k++) {
			enum variant v = (enum variant)((r + WARMUP + k) % NVARIANTS);

			t[v] = run_variant(v, n);
		}
		if (r < 0)
			continue;
		rw.a[r] = t[SHIM_HIDDEN] / (double)n;
		rw.b[r] = t[NATIVE_PROC] / (double)n;
		rw.ratio[r] = t[SHIM_HIDDEN] / t[NATIVE_PROC];
		lim.a[r] = t[SHIM_HIDDEN] / (double)n;
		lim.b[r] = t[DIRECT] / (double)n;
		lim.ratio[r] = t[SHIM_HIDDEN] / t[DIRECT];
	}
	set_proc_hidden(0);
	bench_report("2. rewrite", 0.80, rw.ratio, rw.a, rw.b, (size_t)reps, "us/loop", 1e3,
		     "shim, /proc hidden vs native idiom, /proc mounted");
	bench_report("3. tolimit", 1.05, lim.ratio, lim.a, lim.b, (size_t)reps, "us/loop", 1e3,
		     "shim, /proc hidden vs AT_EMPTY_PATH by hand");
	series_free(&rw);
	series_free(&lim);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [--smoke] [-r REPS] [-n LOOPS] DIR\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	long reps = 601;
	long n = 100;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--smoke") == 0) {
			bench_smoke = 1;
			/* Enough to run every path once or twice, not to measure anything. */
			reps = 3;
			n = 20;
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			reps = bench_count(prog, "-r", argv[++i]);
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			n = bench_count(prog, "-n", argv[++i]);
		} else {
			usage();
		}
	}
	if (i + 1 != argc)
		usage();
	find_symbols();
	setup(argv[i]);
	bench_passthrough(reps, n);
	bench_rewrite(reps, n);
	cleanup();
	return 0;
}
