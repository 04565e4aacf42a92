/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One comparison of the classifier with the reference model (tests/fuzz/procfd_model.h),
 * shared by the libFuzzer harness and the plain model-vs-classifier test so that both judge
 * a path by exactly the same rules.
 */
#ifndef FLINKSHIM_TESTS_PROCFD_COMPARE_H
#define FLINKSHIM_TESTS_PROCFD_COMPARE_H

#include <stddef.h>
#include <stdio.h>

/* The callers explored: leaders (pid == tid), other threads, ids that are prefixes of each
 * other ("7", "77"), INT_MAX, a pid above the default pid_max. An input's first byte picks
 * one (modulo PROCFD_COMPARE_NIDS); the seed corpus starts with '0'..'7' and the dictionary
 * spells these numbers, so paths that name the caller are common. */
struct procfd_compare_ids {
	long pid;
	long tid;
};
#define PROCFD_COMPARE_NIDS 8
extern const struct procfd_compare_ids procfd_compare_ids[PROCFD_COMPARE_NIDS];

/* Run procfd_classify, procfd_parse, procfd_resolve and procfd_needs_ids on path for this
 * caller, and the model. Returns 0 when they all agree; otherwise -1 with a one-line
 * explanation in msg. */
int procfd_compare(const char *path, long pid, long tid, char *msg, size_t size);

/* Print path to f on one line, as a C string literal: unprintable bytes escaped, long runs
 * of one byte shortened to "<N x 'c'>" so that a 4096-byte path stays readable. */
void procfd_compare_print_path(FILE *f, const char *path);

#endif
