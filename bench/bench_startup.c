/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench_startup [--smoke] [-r REPS] [-b BATCH] PROGRAM BASELINE_LIB SHIM_LIB [NAME=LIB]...
 *
 * What preloading the shim costs a program that starts: fork + execve + wait of PROGRAM (a
 * small dynamic program that does nothing) with LD_PRELOAD=SHIM_LIB, divided by the same with
 * LD_PRELOAD=BASELINE_LIB, an empty shared object: every preload pays for one more object to
 * map and relocate, and the figure is what the shim adds on top (its constructor, its symbols).
 * Each further NAME=LIB (libeatmydata, say) is measured the same way and printed beside it.
 *
 * Each repetition times a batch of spawns of every variant in turn, in rotating order, and
 * makes one ratio per variant against the baseline of the same repetition: the noise of the
 * machine moves both alike. Small batches and many repetitions, for the reason bench_calls
 * gives: a spawn takes milliseconds here, and a long batch would always be preempted.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "bench_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *prog = "bench_startup";

struct variant {
	const char *name;
	char *env[2]; /* LD_PRELOAD=... and NULL: the same tiny environment for all */
	double *t;    /* ns per spawn, one per repetition */
	double *ratio;
};

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(2);
}

static void spawn_wait(const char *path, char *const env[])
{
	char *const args[] = { (char *)path, NULL }; /* NOLINT: execve's historic prototype */
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execve(path, args, env);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: %s with %s did not exit 0 (status 0x%x)\n", prog, path, env[0],
			status);
		exit(2);
	}
}

static double batch(const char *path, char *const env[], long b)
{
	double t0 = bench_now_ns();
	long i;

	for (i = 0; i < b; i++)
		spawn_wait(path, env);
	return (bench_now_ns() - t0) / (double)b;
}

static void variant_init(struct variant *v, const char *name, const char *lib, long reps)
{
	size_t len = strlen("LD_PRELOAD=") + strlen(lib) + 1;

	v->name = name;
	v->env[0] = malloc(len);
	v->env[1] = NULL;
	v->t = calloc((size_t)reps, sizeof(double));
	v->ratio = calloc((size_t)reps, sizeof(double));
	if (v->env[0] == NULL || v->t == NULL || v->ratio == NULL)
		die("malloc");
	snprintf(v->env[0], len, "LD_PRELOAD=%s", lib);
	if (access(lib, R_OK) != 0)
		die(lib);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [--smoke] [-r REPS] [-b BATCH] PROGRAM BASELINE_LIB SHIM_LIB "
		"[NAME=LIB]...\n", prog);
	exit(2);
}

#define WARMUP 2

int main(int argc, char **argv)
{
	long reps = 201;
	long b = 2;
	struct variant *v;
	const char *path;
	char extra[256] = "";
	int nv, i, k;
	long r;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--smoke") == 0) {
			bench_smoke = 1;
			reps = 2;
			b = 2;
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			reps = bench_count(prog, "-r", argv[++i]);
		} else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
			b = bench_count(prog, "-b", argv[++i]);
		} else {
			usage();
		}
	}
	if (argc - i < 3)
		usage();
	path = argv[i++];
	nv = argc - i;
	v = calloc((size_t)nv, sizeof(*v));
	if (v == NULL)
		die("calloc");
	variant_init(&v[0], "empty", argv[i], reps);
	variant_init(&v[1], "flinkshim", argv[i + 1], reps);
	for (k = 2; k < nv; k++) {
		char *eq = strchr(argv[i + k], '=');

		if (eq == NULL)
			usage();
		*eq = '\0';
		variant_init(&v[k], argv[i + k], eq + 1, reps);
	}
	for (r = -WARMUP; r < reps; r++) {
		for (k = 0; k < nv; k++) {
			int which = (int)((r + WARMUP + k) % nv);
			double t = batch(path, v[which].env, b);

			if (r >= 0)
				v[which].t[r] = t;
		}
		if (r < 0)
			continue;
		for (k = 0; k < nv; k++)
			v[k].ratio[r] = v[k].t[r] / v[0].t[r];
	}
	for (k = 2; k < nv; k++) {
		size_t len = strlen(extra);
		double med = bench_quantile(v[k].ratio, (size_t)reps, 0.5);

		snprintf(extra + len, sizeof(extra) - len, "%s%s %.3f (%.0f us)", len ? "; " : "",
			 v[k].name, med, bench_quantile(v[k].t, (size_t)reps, 0.5) / 1e3);
	}
	bench_report("4. startup", 1.05, v[1].ratio, v[1].t, v[0].t, (size_t)reps, "us/spawn", 1e3,
		     extra[0] != '\0' ? extra : NULL);
	return 0;
}
