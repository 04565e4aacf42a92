/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The diagnostic writer. stderr is redirected to a SOCK_SEQPACKET socket while a line is
 * emitted: each write(2) arrives as one message, so "one line, one write" is observable
 * (lines from several threads must not interleave, and a pipe or file would merge writes).
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "../tap.h"
#include "debug_log.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/socket.h>
#include <unistd.h>

#define PREFIX "flinkshim: "
#define MAX_MSGS 8

struct capture {
	int rd;
	int saved_stderr;
	int n;                 /* messages received */
	size_t len[MAX_MSGS];
	char msg[MAX_MSGS][8192];
};

static int capture_begin(struct capture *c)
{
	int sv[2];

	c->n = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	c->saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (c->saved_stderr < 0 || dup2(sv[1], STDERR_FILENO) < 0)
		return -1;
	close(sv[1]);
	c->rd = sv[0];
	return 0;
}

/* Restores stderr, which closes the last write end, so reading stops at end of stream. */
static void capture_end(struct capture *c)
{
	dup2(c->saved_stderr, STDERR_FILENO);
	close(c->saved_stderr);
	for (;;) {
		char scratch[8192];
		char *dst = c->n < MAX_MSGS ? c->msg[c->n] : scratch;
		ssize_t r = recv(c->rd, dst, sizeof(scratch) - 1, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		dst[r] = '\0';
		if (c->n < MAX_MSGS)
			c->len[c->n] = (size_t)r;
		c->n++;
	}
	close(c->rd);
}

/* Emit l and return the single message it produced, or NULL (with a diagnostic). */
static const char *emit_captured(struct debug_line *l, struct capture *c, size_t *len)
{
	if (capture_begin(c) != 0) {
		tap_diag("  cannot redirect stderr: %s", strerror(errno));
		return NULL;
	}
	debug_line_emit(l);
	capture_end(c);
	if (c->n != 1) {
		tap_diag("  %d writes, want exactly 1", c->n);
		return NULL;
	}
	*len = c->len[0];
	return c->msg[0];
}

static int count_char(const char *s, size_t len, char ch)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == ch;
	return n;
}

/* Does the message say exactly PREFIX + body + "\n"? */
static int says(const char *msg, size_t len, const char *body)
{
	size_t blen = strlen(body);

	return msg != NULL && len == strlen(PREFIX) + blen + 1 &&
	       memcmp(msg, PREFIX, strlen(PREFIX)) == 0 &&
	       memcmp(msg + strlen(PREFIX), body, blen) == 0 && msg[len - 1] == '\n';
}

static void show(const char *msg, size_t len)
{
	if (msg != NULL)
		tap_diag("  got %zu bytes: \"%.*s\"", len, (int)(len > 0 ? len - 1 : 0), msg);
}

static void test_plain_line(void)
{
	struct debug_line l;
	struct capture c;
	const char *msg;
	size_t len = 0;

	debug_line_start(&l);
	debug_line_str(&l, "linkat ");
	debug_line_str(&l, "/proc/self/fd/3");
	debug_line_str(&l, " -> ");
	debug_line_str(&l, "x");
	msg = emit_captured(&l, &c, &len);
	if (!tap_ok(says(msg, len, "linkat /proc/self/fd/3 -> x"),
		    "pieces make one line, prefixed, one newline, one write"))
		show(msg, len);

	debug_line_start(&l);
	msg = emit_captured(&l, &c, &len);
	if (!tap_ok(says(msg, len, ""), "an empty line is the prefix and a newline"))
		show(msg, len);

	/* The engine logs newpath, which a buggy caller may pass as NULL. */
	debug_line_start(&l);
	debug_line_str(&l, NULL);
	msg = emit_captured(&l, &c, &len);
	if (!tap_ok(msg != NULL && len > strlen(PREFIX) + 1 && count_char(msg, len, '\n') == 1 &&
			    memcmp(msg, PREFIX, strlen(PREFIX)) == 0,
		    "a NULL string is written as something, not a crash"))
		show(msg, len);

	/* A line restarted after use must not keep the old text. */
	debug_line_start(&l);
	debug_line_str(&l, "old text");
	debug_line_start(&l);
	debug_line_str(&l, "new");
	msg = emit_captured(&l, &c, &len);
	if (!tap_ok(says(msg, len, "new"), "debug_line_start() starts afresh"))
		show(msg, len);
}

static void test_int(void)
{
	static const long values[] = { 0, 7, -1, 42, -42, 1000000, INT_MIN, INT_MAX,
				       LONG_MAX, LONG_MIN, LONG_MIN + 1 };
	size_t i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct debug_line l;
		struct capture c;
		char want[32];
		const char *msg;
		size_t len = 0;

		snprintf(want, sizeof(want), "%ld", values[i]);
		debug_line_start(&l);
		debug_line_int(&l, values[i]);
		msg = emit_captured(&l, &c, &len);
		if (!tap_ok(says(msg, len, want), "debug_line_int(%s)", want))
			show(msg, len);
	}
}

static void test_errno(void)
{
	static const struct {
		int err;
		const char *name;
	} named[] = { { ENOENT, "ENOENT" }, { EBADF, "EBADF" }, { EEXIST, "EEXIST" },
		      { EXDEV, "EXDEV" }, { EPERM, "EPERM" } };
	static const int unknown[] = { 9999, -1, INT_MIN };
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		struct debug_line l;
		struct capture c;
		const char *msg;
		size_t len = 0;

		debug_line_start(&l);
		debug_line_errno(&l, named[i].err);
		msg = emit_captured(&l, &c, &len);
		if (!tap_ok(says(msg, len, named[i].name), "debug_line_errno(%d) is %s",
			    named[i].err, named[i].name))
			show(msg, len);
	}
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		struct debug_line l;
		struct capture c;
		char want[32];
		const char *msg;
		size_t len = 0;

		snprintf(want, sizeof(want), "errno %d", unknown[i]);
		tap_ok(debug_errno_name(unknown[i]) == NULL, "debug_errno_name(%d) is NULL",
		       unknown[i]);
		debug_line_start(&l);
		debug_line_errno(&l, unknown[i]);
		msg = emit_captured(&l, &c, &len);
		if (!tap_ok(says(msg, len, want), "debug_line_errno(%d) is \"%s\"", unknown[i],
			    want))
			show(msg, len);
	}
}

/* The line sits inside a larger object with a guard after it: writing past buf would change
 * the guard even where it does not crash. */
struct guarded_line {
	struct debug_line l;
	unsigned char guard[256];
};

static int guard_intact(const struct guarded_line *g)
{
	size_t i;

	for (i = 0; i < sizeof(g->guard); i++)
		if (g->guard[i] != 0xA5)
			return 0;
	return 1;
}

/*
 * Every string length from 0 to well past the buffer: the line is either the whole text or
 * a cut one ending in "...", never longer than the buffer, always one write and one newline;
 * once a length is cut every longer one is too, and a cut line uses the room it has.
 */
static void test_cut(void)
{
	static char text[3000];
	size_t room = sizeof(((struct debug_line *)0)->buf);
	size_t k;
	size_t first_cut = 0;
	int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	for (k = 0; k < sizeof(text); k++) {
		struct guarded_line g;
		struct capture c;
		const char *msg;
		size_t len = 0;
		char saved = text[k];
		int whole;
		int cut;

		memset(g.guard, 0xA5, sizeof(g.guard));
		text[k] = '\0';
		debug_line_start(&g.l);
		debug_line_str(&g.l, text);
		msg = emit_captured(&g.l, &c, &len);
		text[k] = saved;
		if (msg == NULL) {
			bad++;
			continue;
		}
		whole = len == strlen(PREFIX) + k + 1 && memcmp(msg + strlen(PREFIX), text, k) == 0;
		cut = len >= 4 && memcmp(msg + len - 4, "...\n", 4) == 0 &&
		      memcmp(msg + strlen(PREFIX), text, len - 4 - strlen(PREFIX)) == 0 &&
		      len + 16 >= room && g.l.cut;
		if (cut && first_cut == 0)
			first_cut = k;
		if ((!whole && !cut) || len > room || count_char(msg, len, '\n') != 1 ||
		    memcmp(msg, PREFIX, strlen(PREFIX)) != 0 || !guard_intact(&g) ||
		    (first_cut != 0 && !cut) || (k < room / 2 && !whole)) {
			if (bad++ < 3) {
				tap_diag("  length %zu: whole %d cut %d first cut at %zu", k, whole,
					 cut, first_cut);
				show(msg, len);
			}
		}
	}
	tap_ok(bad == 0 && first_cut > 0,
	       "strings of 0..%zu bytes: whole, or cut with \"...\" within %zu bytes",
	       sizeof(text) - 1, room);
	if (first_cut > 0)
		tap_diag("  first cut at a %zu-byte string", first_cut);
}

/* Many pieces, then numbers and errno names after the cut: nothing may go past the end,
 * and the "..." marks the cut once. */
static void test_cut_by_pieces(void)
{
	struct guarded_line g;
	struct capture c;
	size_t room = sizeof(g.l.buf);
	const char *msg;
	size_t len = 0;
	int i;

	memset(g.guard, 0xA5, sizeof(g.guard));
	debug_line_start(&g.l);
	for (i = 0; i < 700; i++)
		debug_line_str(&g.l, "ab");
	debug_line_int(&g.l, LONG_MIN);
	debug_line_errno(&g.l, ENOENT);
	debug_line_errno(&g.l, 9999);
	debug_line_str(&g.l, "tail");
	tap_ok(g.l.len <= room && guard_intact(&g), "1400 bytes in pieces stay inside the buffer");
	msg = emit_captured(&g.l, &c, &len);
	if (!tap_ok(msg != NULL && len <= room && guard_intact(&g) &&
			    memcmp(msg + len - 4, "...\n", 4) == 0 &&
			    strstr(msg, "...") == msg + len - 4 &&
			    count_char(msg, len, '\n') == 1 && strstr(msg, "tail") == NULL,
		    "a line cut by pieces ends in one \"...\" and one newline"))
		show(msg, len);

	/* Fill to the brim one character at a time: the cut must still leave room for the
	 * newline that emit adds. */
	memset(g.guard, 0xA5, sizeof(g.guard));
	debug_line_start(&g.l);
	for (i = 0; i < 2000; i++)
		debug_line_str(&g.l, "x");
	msg = emit_captured(&g.l, &c, &len);
	tap_ok(msg != NULL && len <= room && guard_intact(&g) &&
		       memcmp(msg + len - 4, "...\n", 4) == 0,
	       "a line filled one byte at a time is cut, newline included, within the buffer");
}

static void test_errno_preserved(void)
{
	struct debug_line l;
	struct capture c;
	int saved;
	int after;

	debug_line_start(&l);
	debug_line_str(&l, "x");
	capture_begin(&c);
	errno = 4321;
	debug_line_emit(&l);
	after = errno;
	capture_end(&c);
	tap_is(after, 4321, "emit leaves errno as it was");

	/* A failing write (stderr closed) sets errno inside emit: it must not leak out. */
	debug_line_start(&l);
	debug_line_str(&l, "nobody hears this");
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	close(STDERR_FILENO);
	errno = 4321;
	debug_line_emit(&l);
	after = errno;
	dup2(saved, STDERR_FILENO);
	close(saved);
	tap_is(after, 4321, "emit leaves errno as it was when the write fails");
}

static void test_enabled(void)
{
	static const struct {
		const char *value; /* NULL: unset */
		int on;
	} cases[] = { { NULL, 0 }, { "", 0 }, { "0", 0 }, { "1", 1 }, { "yes", 1 }, { "2", 1 } };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].value == NULL)
			unsetenv("FLINKSHIM_DEBUG");
		else
			setenv("FLINKSHIM_DEBUG", cases[i].value, 1);
		debug_log_init();
		tap_is(debug_log_enabled() != 0, cases[i].on, "FLINKSHIM_DEBUG=%s%s%s: %s",
		       cases[i].value ? "\"" : "(unset)", cases[i].value ? cases[i].value : "",
		       cases[i].value ? "\"" : "", cases[i].on ? "on" : "off");
	}
	unsetenv("FLINKSHIM_DEBUG");
	debug_log_init();
}

int main(void)
{
	test_plain_line();
	test_int();
	test_errno();
	test_cut();
	test_cut_by_pieces();
	test_errno_preserved();
	test_enabled();
	tap_done();
}
