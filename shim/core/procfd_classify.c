/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel resolves /proc/self/fd/N by walking components and following symlinks. We walk
 * the same way over a model of the few directories that matter, so every spelling the kernel
 * accepts (//proc/./self/fd/../fd/3, /dev/fd/3, /proc/thread-self/../<tid>/fd/3...) maps to
 * the same fd, and everything else is "not ours" and goes to the kernel untouched.
 *
 * ".." is physical, as in the kernel: /proc/self is a symlink to /proc/<pid>, so
 * /proc/self/.. is /proc, and /proc/thread-self/.. is /proc/<pid>/task.
 */
#include "procfd_classify.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

/* Where the walk stands in the model. */
enum level {
	AT_ROOT,
	AT_DEV,
	AT_PROC,
	AT_PROC_ID,      /* /proc/<proc> */
	AT_TASK_DIR,     /* /proc/<proc>/task */
	AT_TASK_ID,      /* /proc/<proc>/task/<task> */
	AT_FD_DIR,       /* .../fd */
	AT_FD_LINK       /* .../fd/<n>: a magic link to the file; nothing may follow it */
};

struct walk {
	enum level level;
	long proc;
	long task;
	long fd;
	enum procfd_via via;
	long passed[2]; /* numbered directories walked into and left again with ".." */
	int npassed;
	int links; /* symlinks the kernel follows on the way, the final magic link included */
};

/* The kernel caps a path at PATH_MAX bytes including the NUL; longer gets ENAMETOOLONG. */
#define PROCFD_PATH_MAX 4096

/* The kernel follows at most MAXSYMLINKS (40) symlinks in one lookup, the final magic link
 * included; the 41st is ELOOP. Measured with linkat(..., AT_SYMLINK_FOLLOW) on 6.18:
 * "/proc/" + 38 x "self/../" + "self/fd/N" (40 links) links, one more "self/../" is ELOOP.
 * /dev/fd costs 2 (itself, then /proc/self in its body), /dev/stdin 3 (and fd/0). */
#define PROCFD_MAX_LINKS 40

static int comp_is(const char *c, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (word[i] != c[i])
			return 0;
	return word[len] == '\0';
}

/* procfs's name_to_int(): digits only, no leading zero. Returns -1 when the kernel would not
 * find the entry, or when the value is above INT_MAX (no pid, tid or fd can be). */
static long parse_number(const char *c, size_t len)
{
	unsigned long n = 0;
	size_t i;

	if (len == 0 || len > 10 || (len > 1 && c[0] == '0'))
		return -1;
	/* Checked before each step, not after the loop: ten digits overflow a 32-bit long, and
	 * N + 2^32 would wrap to N, an fd of ours, where the kernel says ENOENT. */
	for (i = 0; i < len; i++) {
		unsigned long d = (unsigned long)(c[i] - '0');

		if (c[i] < '0' || c[i] > '9' || n > ((unsigned long)INT_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	return (long)n;
}

/*
 * The kernel looks up every component, even one that ".." leaves again: /proc/<n>/.. exists
 * only if process n does. We cannot know that of another process, so a number walked through
 * must be our own pid or tid, checked once the ids are known. Two numbers can be remembered;
 * a third distinct one cannot be ours.
 */
static int remember_passed(struct walk *w, long n)
{
	int i;

	if (n < 0)
		return 0; /* /proc/self or /proc/thread-self: always there */
	for (i = 0; i < w->npassed; i++)
		if (w->passed[i] == n)
			return 0;
	if (w->npassed == 2)
		return -1;
	w->passed[w->npassed++] = n;
	return 0;
}

static int go_up(struct walk *w)
{
	switch (w->level) {
	case AT_ROOT:
	case AT_DEV:
	case AT_PROC:
		w->level = AT_ROOT;
		return 0;
	case AT_PROC_ID:
		w->level = AT_PROC;
		return remember_passed(w, w->proc);
	case AT_TASK_DIR:
		w->level = AT_PROC_ID;
		w->task = PROCFD_ID_NONE;
		return 0;
	case AT_TASK_ID:
		w->level = AT_TASK_DIR;
		return remember_passed(w, w->task);
	case AT_FD_DIR:
		w->level = w->task == PROCFD_ID_NONE ? AT_PROC_ID : AT_TASK_ID;
		return 0;
	case AT_FD_LINK:
		break; /* unreachable: step() refuses anything after the magic link */
	}
	return -1;
}

/* One component. Returns 0 to go on, -1 if the path leaves the model. */
static int step(struct walk *w, const char *c, size_t len)
{
	long n;

	if (w->level == AT_FD_LINK)
		return -1; /* ".../fd/3/" or ".../fd/3/..": ENOTDIR or worse, not the idiom */
	if (comp_is(c, len, "."))
		return 0;
	if (comp_is(c, len, ".."))
		return go_up(w);
	switch (w->level) {
	case AT_ROOT:
		if (comp_is(c, len, "proc"))
			w->level = AT_PROC;
		else if (comp_is(c, len, "dev"))
			w->level = AT_DEV;
		else
			return -1;
		return 0;
	case AT_DEV:
		/* /dev/fd -> /proc/self/fd; /dev/stdin -> /proc/self/fd/0 (and 1, 2). */
		w->proc = PROCFD_ID_PID;
		w->task = PROCFD_ID_NONE;
		if (comp_is(c, len, "fd")) {
			w->via = PROCFD_VIA_DEV_FD;
			w->level = AT_FD_DIR;
			w->links += 2;
			return 0;
		}
		if (comp_is(c, len, "stdin"))
			w->via = PROCFD_VIA_DEV_STDIN, w->fd = 0;
		else if (comp_is(c, len, "stdout"))
			w->via = PROCFD_VIA_DEV_STDOUT, w->fd = 1;
		else if (comp_is(c, len, "stderr"))
			w->via = PROCFD_VIA_DEV_STDERR, w->fd = 2;
		else
			return -1;
		w->level = AT_FD_LINK;
		w->links += 3;
		return 0;
	case AT_PROC:
		w->task = PROCFD_ID_NONE;
		if (comp_is(c, len, "self")) {
			w->proc = PROCFD_ID_PID;
			w->level = AT_PROC_ID;
			w->links++;
		} else if (comp_is(c, len, "thread-self")) {
			/* -> /proc/<pid>/task/<tid> */
			w->proc = PROCFD_ID_PID;
			w->task = PROCFD_ID_TID;
			w->level = AT_TASK_ID;
			w->links++;
		} else if ((n = parse_number(c, len)) >= 0) {
			w->proc = n;
			w->level = AT_PROC_ID;
		} else {
			return -1;
		}
		return 0;
	case AT_PROC_ID:
		if (comp_is(c, len, "fd"))
			w->level = AT_FD_DIR;
		else if (comp_is(c, len, "task"))
			w->level = AT_TASK_DIR;
		else
			return -1;
		return 0;
	case AT_TASK_DIR:
		if ((n = parse_number(c, len)) < 0)
			return -1;
		w->task = n;
		w->level = AT_TASK_ID;
		return 0;
	case AT_TASK_ID:
		if (!comp_is(c, len, "fd"))
			return -1;
		w->level = AT_FD_DIR;
		return 0;
	case AT_FD_DIR:
		if ((n = parse_number(c, len)) < 0)
			return -1;
		w->fd = n;
		w->level = AT_FD_LINK;
		w->links++;
		return 0;
	case AT_FD_LINK:
		break;
	}
	return -1;
}

/*
 * "/proc/self/fd/N", the spelling of open(2)'s example and of nearly every program, read in one
 * pass: the walk below costs several times as many instructions. Returns 0 only for that exact
 * spelling with a number procfs accepts; anything else, even a spelling the kernel would
 * resolve, goes to the walk, which stays the one authority.
 */
static int parse_canonical(const char *path, struct procfd_ref *ref)
{
	static const char prefix[] = "/proc/self/fd/";
	const char *digits = path + sizeof(prefix) - 1;
	size_t i;
	long n;

	/* strnlen first, so that memcmp never reads past the string's end; a memcmp of a
	 * constant 14 bytes compiles to two 8-byte compares. */
	if (strnlen(path, sizeof(prefix)) < sizeof(prefix) ||
	    memcmp(path, prefix, sizeof(prefix) - 1) != 0)
		return -1;
	for (i = 0; digits[i] >= '0' && digits[i] <= '9'; i++)
		if (i == 10)
			return -1;
	if (digits[i] != '\0' || (n = parse_number(digits, i)) < 0)
		return -1;
	ref->fd = (int)n;
	ref->proc = PROCFD_ID_PID;
	ref->task = PROCFD_ID_NONE;
	ref->via = PROCFD_VIA_PROC;
	ref->passed[0] = ref->passed[1] = PROCFD_ID_NONE;
	ref->npassed = 0;
	return 0;
}

int procfd_parse(const char *path, struct procfd_ref *ref)
{
	struct walk w = { AT_ROOT, PROCFD_ID_NONE, PROCFD_ID_NONE, -1, PROCFD_VIA_PROC, { 0, 0 }, 0,
			  0 };
	int i;
	const char *p = path;

	if (path == NULL || path[0] != '/')
		return -1; /* relative paths depend on olddirfd: the kernel's business */
	if (parse_canonical(path, ref) == 0)
		return 0;
	while (*p != '\0') {
		const char *c;

		if (*p == '/') {
			p++;
			continue;
		}
		c = p;
		while (*p != '\0' && *p != '/')
			p++;
		if (step(&w, c, (size_t)(p - c)) != 0 || w.links > PROCFD_MAX_LINKS)
			return -1;
		/* A slash after the magic link asks for a directory: ENOTDIR, not ours. */
		if (w.level == AT_FD_LINK && *p == '/')
			return -1;
	}
	if (w.level != AT_FD_LINK || p - path >= PROCFD_PATH_MAX)
		return -1;
	ref->fd = (int)w.fd;
	ref->proc = w.proc;
	ref->task = w.task;
	ref->via = w.via;
	ref->npassed = w.npassed;
	for (i = 0; i < 2; i++)
		ref->passed[i] = i < w.npassed ? w.passed[i] : PROCFD_ID_NONE;
	return 0;
}

int procfd_needs_ids(const struct procfd_ref *ref)
{
	return ref->task != PROCFD_ID_TID || ref->npassed > 0;
}

int procfd_has_numbers(const struct procfd_ref *ref)
{
	return ref->proc >= 0 || ref->task >= 0 || ref->npassed > 0;
}

int procfd_is_plain_self(const struct procfd_ref *ref)
{
	return ref->proc == PROCFD_ID_PID && ref->task == PROCFD_ID_NONE && ref->npassed == 0;
}

static long id_value(long id, long pid, long tid)
{
	if (id == PROCFD_ID_PID)
		return pid;
	if (id == PROCFD_ID_TID)
		return tid;
	return id;
}

/* Numbers the walk met, each asked about once: ".." after /proc/<n>/task/<n> repeats none. */
struct group_view {
	long pid;
	long tid;
	procfd_in_group_fn in_group;
	void *ctx;
	long asked[4];
	int answer[4];
	int nasked;
};

static int ours(struct group_view *g, long n)
{
	int i;

	if (n == g->pid || n == g->tid)
		return 1;
	if (g->in_group == NULL || n < 0)
		return 0;
	for (i = 0; i < g->nasked; i++)
		if (g->asked[i] == n)
			return g->answer[i];
	if (g->nasked == (int)(sizeof(g->asked) / sizeof(g->asked[0])))
		return 0; /* cannot happen: at most 2 passed, proc and task */
	g->asked[g->nasked] = n;
	g->answer[g->nasked] = g->in_group(n, g->ctx) != 0;
	return g->answer[g->nasked++];
}

enum procfd_owner procfd_resolve_group(const struct procfd_ref *ref, long pid, long tid,
				       procfd_in_group_fn in_group, void *ctx, long *thread)
{
	struct group_view g = { pid, tid, in_group, ctx, { 0 }, { 0 }, 0 };
	long proc = id_value(ref->proc, pid, tid);
	long owner = proc;
	int i;

	/* Bounded by the array too: ref may come from anyone (the fuzzer, a unit test). */
	for (i = 0; i < ref->npassed && i < (int)(sizeof(ref->passed) / sizeof(ref->passed[0]));
	     i++)
		if (!ours(&g, ref->passed[i]))
			return PROCFD_NOT_OURS; /* the kernel may not find that directory */
	if (ref->task != PROCFD_ID_NONE) {
		/* /proc/<x>/task/<t>: x must be a task of our process, t one of its threads. */
		if (ref->task == PROCFD_ID_TID)
			return PROCFD_CALLER; /* /proc/thread-self, however reached */
		if (!ours(&g, proc))
			return PROCFD_NOT_OURS;
		owner = ref->task;
	}
	if (owner == tid)
		return PROCFD_CALLER;
	if (owner == pid)
		return PROCFD_LEADER;
	if (ours(&g, owner)) {
		*thread = owner;
		return PROCFD_THREAD;
	}
	return PROCFD_NOT_OURS; /* another process, or a thread the caller could not vouch for */
}

enum procfd_owner procfd_resolve(const struct procfd_ref *ref, long pid, long tid)
{
	long unused;

	return procfd_resolve_group(ref, pid, tid, NULL, NULL, &unused);
}

enum procfd_owner procfd_classify(const char *path, long pid, long tid, int *fd)
{
	struct procfd_ref ref;
	enum procfd_owner owner;

	if (procfd_parse(path, &ref) != 0)
		return PROCFD_NOT_OURS;
	owner = procfd_resolve(&ref, pid, tid);
	if (owner != PROCFD_NOT_OURS)
		*fd = ref.fd;
	return owner;
}
