/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The opt-in diagnostic (FLINKSHIM_DEBUG=1): one line per rewrite, fallback or refusal, built
 * on the stack and written to stderr with a single write(2), so it is async-signal-safe and
 * lines from several threads do not interleave.
 */
#ifndef FLINKSHIM_DEBUG_LOG_H
#define FLINKSHIM_DEBUG_LOG_H

#include <stddef.h>

/* Read FLINKSHIM_DEBUG once, at load time (secure_getenv: ignored in setuid programs). */
void debug_log_init(void);

/* Nonzero when diagnostics are on. Cheap: one relaxed load. */
int debug_log_enabled(void);

struct debug_line {
	size_t len;
	int cut; /* the line was too long and ends in "..." */
	char buf[1024];
};

void debug_line_start(struct debug_line *l);
void debug_line_str(struct debug_line *l, const char *s);
void debug_line_int(struct debug_line *l, long n);
/* "ENOENT", "EBADF"... or "errno 123". */
void debug_line_errno(struct debug_line *l, int err);
/* Ends the line and writes it; errno is left as it was. */
void debug_line_emit(struct debug_line *l);

/* The symbolic name of an errno value, or NULL if we do not know it. */
const char *debug_errno_name(int err);

#endif
