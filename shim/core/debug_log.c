/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "config.h"
#include "debug_log.h"
#include "errno_list.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#if !defined(HAVE_SECURE_GETENV)
#include <sys/auxv.h>
#endif

static int enabled;

static const char *read_env(const char *name)
{
#if defined(HAVE_SECURE_GETENV)
	return secure_getenv(name);
#else
	return getauxval(AT_SECURE) ? NULL : getenv(name);
#endif
}

void debug_log_init(void)
{
	const char *v = read_env("FLINKSHIM_DEBUG");
	int on = v != NULL && v[0] != '\0' && !(v[0] == '0' && v[1] == '\0');

	__atomic_store_n(&enabled, on, __ATOMIC_RELAXED);
}

int debug_log_enabled(void)
{
	return __atomic_load_n(&enabled, __ATOMIC_RELAXED);
}

/* Room kept for the "...\n" that marks a cut line. */
#define RESERVE 5

void debug_line_start(struct debug_line *l)
{
	l->len = 0;
	l->cut = 0;
	debug_line_str(l, "flinkshim: ");
}

void debug_line_str(struct debug_line *l, const char *s)
{
	if (s == NULL)
		s = "(null)";
	while (*s != '\0' && l->len < sizeof(l->buf) - RESERVE)
		l->buf[l->len++] = *s++;
	if (*s != '\0' && !l->cut) {
		l->cut = 1;
		l->buf[l->len++] = '.';
		l->buf[l->len++] = '.';
		l->buf[l->len++] = '.';
	}
}

void debug_line_int(struct debug_line *l, long n)
{
	char digits[24];
	int i = (int)sizeof(digits) - 1;
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (n < 0)
		digits[--i] = '-';
	debug_line_str(l, &digits[i]);
}

const char *debug_errno_name(int err)
{
	switch (err) {
	case 0: return "0";
	FLINKSHIM_ERRNO_LIST(FLINKSHIM_ERRNO_CASE)
	default: return NULL;
	}
}

void debug_line_errno(struct debug_line *l, int err)
{
	const char *name = debug_errno_name(err);

	if (name != NULL) {
		debug_line_str(l, name);
	} else {
		debug_line_str(l, "errno ");
		debug_line_int(l, err);
	}
}

void debug_line_emit(struct debug_line *l)
{
	int saved = errno;
	size_t off = 0;

	l->buf[l->len++] = '\n';
	while (off < l->len) {
		ssize_t n = write(STDERR_FILENO, l->buf + off, l->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	errno = saved;
}
