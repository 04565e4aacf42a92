/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the timing benchmarks share: a clock, the statistics of a set of per-repetition ratios,
 * and one printer, so that every figure of `make bench` reads the same way.
 *
 * Why ratios per repetition: these machines are shared and noisy. Each repetition measures the
 * variants back to back, so a burst of noise hits both sides of one ratio alike; the median of
 * many such ratios is what survives the noise, and their spread says how noisy the run was.
 */
#ifndef FLINKSHIM_BENCH_UTIL_H
#define FLINKSHIM_BENCH_UTIL_H

#include <stddef.h>

/* CLOCK_MONOTONIC in nanoseconds. */
double bench_now_ns(void);

/* The q-quantile (0..1) of v[0..n-1], by linear interpolation; sorts v in place. */
double bench_quantile(double *v, size_t n, double q);

/* Parse a positive count, or exit with a usage error naming the option. */
long bench_count(const char *prog, const char *opt, const char *arg);

/*
 * One result line:
 *   LABEL  RATIO  goal <= GOAL  met|MISSED  (A vs B UNIT, REPS reps, ratio iqr Q1-Q3, range MIN-MAX)
 * (with "smoke" for the verdict under --smoke).
 * ratios[] holds one A/B ratio per repetition, a[] and b[] the matching absolute figures.
 * All three are sorted in place.
 */
void bench_report(const char *label, double goal, double *ratios, double *a, double *b, size_t n,
		  const char *unit, double unit_ns, const char *extra);

/* Set by --smoke: the figures of a few repetitions mean nothing, so no verdict is printed. */
extern int bench_smoke;

/* A line for a figure that could not be measured here, and why. */
void bench_skip(const char *label, const char *why);

#endif
