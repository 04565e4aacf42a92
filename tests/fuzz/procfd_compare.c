/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The classifier against the model, and its functions against each other: procfd_classify()
 * must be procfd_parse() then procfd_resolve(), must leave *fd alone when it says "not ours";
 * procfd_needs_ids() must only say "no ids needed" when the ids truly do not matter (the
 * interposer then skips getpid()/gettid() and passes garbage), and procfd_is_plain_self()
 * only for the leader's table (the interposer's fast path skips procfd_resolve()).
 */
#include "procfd_compare.h"

#include "procfd_classify.h"
#include "procfd_model.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

const struct procfd_compare_ids procfd_compare_ids[PROCFD_COMPARE_NIDS] = {
	{ 100, 100 },               /* '0': the leader */
	{ 100, 101 },               /* '1': a second thread */
	{ 1, 1 },                   /* '2': init, a one-digit id */
	{ 7, 77 },                  /* '3': the pid is a prefix of the tid */
	{ 77, 7 },                  /* '4': the tid is a prefix of the pid */
	{ INT_MAX, INT_MAX },       /* '5': the largest id procfs can parse */
	{ 42, INT_MAX },            /* '6': a thread with the largest id */
	{ 4194304, 4194303 },       /* '7': around the largest pid_max */
};

/* Ids to resolve with when procfd_needs_ids() says they are not needed: the interposer
 * passes whatever its variables hold, so the answer must not depend on them at all. */
static const long garbage_ids[][2] = {
	{ 0, 0 }, { -1, -1 }, { 1, 2 }, { 2, 1 }, { INT_MAX, 0 }, { 100, 100 }, { 100, 101 },
	{ PROCFD_ID_PID, PROCFD_ID_TID }, { LONG_MAX, LONG_MIN },
};

/* What *fd holds before procfd_classify(): it must still hold it after a "not ours". */
#define FD_UNTOUCHED (-12345)

static const char *owner_name(enum procfd_owner o)
{
	switch (o) {
	case PROCFD_NOT_OURS: return "NOT_OURS";
	case PROCFD_CALLER: return "CALLER";
	case PROCFD_LEADER: return "LEADER";
	case PROCFD_THREAD: return "THREAD (never from procfd_classify)";
	}
	return "(invalid owner)";
}

__attribute__((format(printf, 3, 4))) static int fail(char *msg, size_t size, const char *fmt,
							 ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return -1;
}

static int id_is_valid(long id)
{
	return id >= 0 || id == PROCFD_ID_PID || id == PROCFD_ID_TID;
}

/* procfd_resolve_group()'s questions, recorded: each number at most once, never the pid or
 * the tid, never a placeholder, at most four (two passed directories, proc and task). */
struct asked {
	long pid, tid;
	long n[8];
	int count;
	int answer;
	int bad; /* a question that should not have been asked */
};

static int record(long n, void *ctx)
{
	struct asked *a = ctx;
	int i;

	if (n < 0 || n == a->pid || n == a->tid || a->count >= 4)
		a->bad = 1;
	for (i = 0; i < a->count && i < 8; i++)
		if (a->n[i] == n)
			a->bad = 1;
	if (a->count < 8)
		a->n[a->count] = n;
	a->count++;
	return a->answer;
}

static int is_named(const struct procfd_ref *ref, long n)
{
	return ref->proc == n || ref->task == n;
}

/* The group-aware resolver against the pure one: knowing no other thread changes nothing;
 * taking every number for a thread of ours changes only NOT_OURS, and only into THREAD of a
 * number the path names as its table's owner, or into CALLER/LEADER through a directory
 * that the pure resolver could not vouch for. */
static int compare_group(const struct procfd_ref *ref, long pid, long tid, enum procfd_owner got,
			 char *msg, size_t size)
{
	struct asked a = { pid, tid, { 0 }, 0, 0, 0 };
	enum procfd_owner g;
	long thread = -77;

	g = procfd_resolve_group(ref, pid, tid, record, &a, &thread);
	if (a.bad)
		return fail(msg, size, "procfd_resolve_group asked a question it should not have");
	if (g != got || thread != -77)
		return fail(msg, size, "procfd_resolve_group knowing no thread says %s, "
			    "procfd_resolve %s", owner_name(g), owner_name(got));
	a.count = 0;
	a.answer = 1;
	thread = -77;
	g = procfd_resolve_group(ref, pid, tid, record, &a, &thread);
	if (a.bad)
		return fail(msg, size, "procfd_resolve_group asked a question it should not have");
	if (got != PROCFD_NOT_OURS && g != got)
		return fail(msg, size, "procfd_resolve_group says %s where procfd_resolve says %s",
			    owner_name(g), owner_name(got));
	if (g == PROCFD_THREAD &&
	    (thread < 0 || thread == pid || thread == tid || !is_named(ref, thread)))
		return fail(msg, size, "procfd_resolve_group says THREAD %ld, not a number the "
			    "path names", thread);
	if (g != PROCFD_THREAD && thread != -77)
		return fail(msg, size, "procfd_resolve_group says %s but wrote *thread",
			    owner_name(g));
	return 0;
}

int procfd_compare(const char *path, long pid, long tid, char *msg, size_t size)
{
	struct procfd_model_answer m;
	struct procfd_ref ref;
	enum procfd_owner got, resolved;
	int fd = FD_UNTOUCHED;
	size_t i;

	procfd_model(path, pid, tid, &m);
	got = procfd_classify(path, pid, tid, &fd);
	if (got != m.owner)
		return fail(msg, size, "procfd_classify says %s (fd %d), the model %s%s%s",
			    owner_name(got), fd, owner_name(m.owner), m.why ? ": " : "",
			    m.why ? m.why : "");
	if (got == PROCFD_NOT_OURS && fd != FD_UNTOUCHED)
		return fail(msg, size, "procfd_classify says NOT_OURS but wrote *fd = %d", fd);
	if (got != PROCFD_NOT_OURS && fd != m.fd)
		return fail(msg, size, "procfd_classify says %s fd %d, the model fd %d",
			    owner_name(got), fd, m.fd);

	if (procfd_parse(path, &ref) != 0) {
		if (got != PROCFD_NOT_OURS)
			return fail(msg, size, "procfd_parse refuses what procfd_classify accepts");
		return 0;
	}
	if (ref.fd < 0 || !id_is_valid(ref.proc) ||
	    (ref.task != PROCFD_ID_NONE && !id_is_valid(ref.task)) ||
	    (unsigned)ref.via > (unsigned)PROCFD_VIA_DEV_STDERR)
		return fail(msg, size, "procfd_parse fills a bad ref: fd %d proc %ld task %ld via %d",
			    ref.fd, ref.proc, ref.task, (int)ref.via);
	resolved = procfd_resolve(&ref, pid, tid);
	if (resolved != got)
		return fail(msg, size, "procfd_resolve says %s, procfd_classify %s",
			    owner_name(resolved), owner_name(got));
	if (compare_group(&ref, pid, tid, got, msg, size) != 0)
		return -1;
	if (got != PROCFD_NOT_OURS) {
		/* The interposer readlink()s the one /dev link that via names: it must be one
		 * the walk went through, and there must be one if the walk used /dev at all. */
		if (ref.via == PROCFD_VIA_PROC ? m.dev_links != 0
					       : (m.dev_links & (1u << ref.via)) == 0)
			return fail(msg, size, "procfd_parse says via %d, the walk used /dev links %#x",
				    (int)ref.via, m.dev_links);
	}
	if (procfd_is_plain_self(&ref)) {
		/* The interposer's fast path takes such a ref as the caller's own table in the
		 * leader without resolving it: it must be the leader's table, whatever the ids. */
		for (i = 0; i < sizeof(garbage_ids) / sizeof(garbage_ids[0]); i++) {
			long p = garbage_ids[i][0], t = garbage_ids[i][1];

			resolved = procfd_resolve(&ref, p, t);
			if (resolved != (p == t ? PROCFD_CALLER : PROCFD_LEADER))
				return fail(msg, size,
					    "procfd_is_plain_self says /proc/self/fd/N, but with "
					    "pid %ld tid %ld procfd_resolve says %s",
					    p, t, owner_name(resolved));
		}
	}
	if (!procfd_needs_ids(&ref)) {
		for (i = 0; i < sizeof(garbage_ids) / sizeof(garbage_ids[0]); i++) {
			resolved = procfd_resolve(&ref, garbage_ids[i][0], garbage_ids[i][1]);
			if (resolved != got)
				return fail(msg, size,
					    "procfd_needs_ids says no ids needed, but with pid %ld "
					    "tid %ld procfd_resolve says %s, with the real ids %s",
					    garbage_ids[i][0], garbage_ids[i][1],
					    owner_name(resolved), owner_name(got));
		}
	}
	return 0;
}

void procfd_compare_print_path(FILE *f, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;

	fputc('"', f);
	while (*p != '\0') {
		size_t run = 1;

		while (p[run] == p[0])
			run++;
		if (run >= 8) {
			fprintf(f, "<%zu x ", run);
		} else {
			run = 1;
		}
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p >= 0x20 && *p < 0x7f)
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
		if (run > 1)
			fputc('>', f);
		p += run;
	}
	fputc('"', f);
}
