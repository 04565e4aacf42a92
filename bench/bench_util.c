/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int bench_smoke;

double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x;
	double b = *(const double *)y;

	return (a > b) - (a < b);
}

double bench_quantile(double *v, size_t n, double q)
{
	double pos;
	size_t i;

	if (n == 0)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

long bench_count(const char *prog, const char *opt, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || n <= 0) {
		fprintf(stderr, "%s: %s wants a positive number, not '%s'\n", prog, opt, arg);
		exit(2);
	}
	return n;
}

void bench_report(const char *label, double goal, double *ratios, double *a, double *b, size_t n,
		  const char *unit, double unit_ns, const char *extra)
{
	double med = bench_quantile(ratios, n, 0.5);
	double q1 = bench_quantile(ratios, n, 0.25);
	double q3 = bench_quantile(ratios, n, 0.75);
	double med_a = bench_quantile(a, n, 0.5) / unit_ns;
	double med_b = bench_quantile(b, n, 0.5) / unit_ns;

	/* Rounded as printed, so that the verdict never contradicts the figure beside it. */
	printf("%-26s %6.3f  goal <= %.2f  %-6s  (%.4g vs %.4g %s, %zu reps, ratio iqr %.3f-%.3f, "
	       "range %.3f-%.3f%s%s)\n",
	       label, med, goal, bench_smoke ? "smoke" : med <= goal + 0.0005 ? "met" : "MISSED",
	       med_a, med_b, unit, n, q1,
	       q3, ratios[0], ratios[n - 1], extra != NULL ? "; " : "", extra != NULL ? extra : "");
	fflush(stdout);
}

void bench_skip(const char *label, const char *why)
{
	printf("%-26s skipped: %s\n", label, why);
	fflush(stdout);
}
