/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A minimal TAP producer for the unit tests (read by automake's tap-driver.sh).
 * Header-only: each test program includes it once.
 */
#ifndef FLINKSHIM_TAP_H
#define FLINKSHIM_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;
static int tap_planned;

static inline void tap_plan(int n)
{
	tap_planned = 1;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* ok(cond, "description %d", ...) */
__attribute__((format(printf, 2, 3))) static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2))) static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Compare two ints, printing both on failure. */
#define tap_is(got, want, ...)                                                            \
	do {                                                                              \
		long tap_g_ = (long)(got), tap_w_ = (long)(want);                         \
		if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))                               \
			tap_diag("  got %ld, want %ld", tap_g_, tap_w_);                  \
	} while (0)

/* Skip one test point with a reason. */
__attribute__((format(printf, 1, 2))) static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Skip the whole program: "1..0 # SKIP reason". */
__attribute__((format(printf, 1, 2), noreturn)) static inline void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(0);
}

/* Print the plan if tap_plan() was not called, and exit with the failure count (capped). */
__attribute__((noreturn)) static inline void tap_done(void)
{
	if (tap_count == 0)
		tap_ok(0, "no test ran");
	if (!tap_planned)
		printf("1..%d\n", tap_count);
	exit(tap_failed > 254 ? 254 : tap_failed);
}

#endif
