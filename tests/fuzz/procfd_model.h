/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An independent reference model of the path classifier, for the fuzzer and for the plain
 * model-vs-classifier test. It must stay written differently from shim/core/procfd_classify.c:
 * there a state machine walks a directory model; here the path is rewritten as text (every
 * symlink replaced by its body, as the kernel does), the location is a list of names, and
 * each new location is matched against a table of the paths that exist. A bug shared by two
 * such different programs is unlikely; a bug in one shows up as a disagreement.
 */
#ifndef FLINKSHIM_TESTS_PROCFD_MODEL_H
#define FLINKSHIM_TESTS_PROCFD_MODEL_H

#include "procfd_classify.h"

#include <stddef.h>

/* What the model says about one path for one caller. */
struct procfd_model_answer {
	enum procfd_owner owner;
	int fd;             /* meaningful when owner != PROCFD_NOT_OURS */
	unsigned dev_links; /* bit (1u << PROCFD_VIA_DEV_*) for every /dev link walked */
	unsigned links;     /* symlinks followed, the final magic link included */
	const char *why;    /* for NOT_OURS: the first reason the walk stopped (static text) */
};

/* Walk path as the kernel would for a caller with these ids, /proc and the usual /dev links
 * present. Pure, like the classifier. */
void procfd_model(const char *path, long pid, long tid, struct procfd_model_answer *out);

#endif
