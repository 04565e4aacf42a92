/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The classifier's specification: one table, read by two programs.
 *   - tests/unit/procfd_classify_test expands it with made-up ids and checks procfd_classify()
 *     against the expected owner (pure, runs anywhere);
 *   - tests/helpers/spelling_probe expands it with the real ids and asks the running kernel,
 *     /proc mounted, whether the spelling links the file (kernel-facts.md says to measure
 *     which spellings the kernel accepts, not to trust a page).
 * Keeping one table means the probe measures exactly the spellings the unit test asserts.
 *
 * Template tokens:
 *   {P}  our pid;  {L}  the same number, written where it stands for the leader's tid
 *   {T}  the calling thread's tid ({P} when the caller is the leader)
 *   {F}  the fd the file sits at
 *   {O}  another process's pid; its own fd {F} is a different file
 *   {S}  a thread of ours, neither leader nor caller, sharing our fd table
 *   {X}  a thread of ours that unshared CLONE_FILES; its fd {F} is a different file
 *   {W}  {F} + 2^32: the same fd to a parser that wraps at 32 bits
 *   {Z}  {F} + 2^64 (20 digits): the same fd to a parser that wraps at 64 bits
 *   {/N} as many slashes as make the whole path N bytes long (PATH_MAX edges)
 *
 * owner is what a correct pure classifier answers. It cannot see which ids exist, so where a
 * walk passes through a number that is neither our pid nor our tid ({S}, {X}, {O}, or a pid
 * that does not exist) it must say NOT_OURS: saying "ours" would let the shim link a file
 * where the kernel says ENOENT. Where that safe answer is known to differ from the kernel's
 * (the number happens to exist and be ours, a directory the model does not know), gap says
 * why; the probe reports those as TODO, so a new disagreement still fails. The sibling gap
 * ({S}) is closed by procfd_resolve_group(), which the shim uses: the probe and the parity
 * matrix hold the shim to the kernel's answer there.
 */
#ifndef FLINKSHIM_TESTS_PROCFD_CASES_H
#define FLINKSHIM_TESTS_PROCFD_CASES_H

#include "procfd_classify.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum procfd_case_caller {
	PROCFD_BY_LEADER, /* the thread-group leader calls: tid == pid */
	PROCFD_BY_THREAD  /* a second thread calls: tid != pid */
};

/* fd: the number the path names when owner is not PROCFD_NOT_OURS. */
#define PROCFD_CASE_FD_F (-1) /* whatever {F} was */

struct procfd_case {
	const char *tmpl;
	enum procfd_case_caller caller;
	enum procfd_owner owner;
	int fd;
	const char *gap; /* NULL, or why the kernel knowingly answers otherwise */
	const char *why;
};

struct procfd_ids {
	long pid;
	long tid;
	long other_pid; /* {O} */
	long sibling;   /* {S} */
	long stranger;  /* {X} */
	int fd;         /* {F} */
};

#define LEAD PROCFD_BY_LEADER
#define THRD PROCFD_BY_THREAD
#define CALLER PROCFD_CALLER
#define LEADER PROCFD_LEADER
#define NOPE PROCFD_NOT_OURS
#define FD_F PROCFD_CASE_FD_F

/* The sibling gap is the pure classifier's only: procfd_resolve_group(), given a way to tell
 * the threads of our group (the shim asks tgkill() and kcmp()), closes it. */
static const char procfd_gap_sibling[] =
	"{S} is a thread of ours sharing the table; the model cannot know that";
#define GAP_SIBLING procfd_gap_sibling
#define GAP_DIR "a directory the model does not know (it could be a symlink elsewhere)"

static const struct procfd_case procfd_cases[] = {
	/* The spellings kernel-facts.md lists as accepted, from the leader. */
	{ "/proc/self/fd/{F}", LEAD, CALLER, FD_F, NULL, "the open(2) O_TMPFILE idiom" },
	{ "/proc/thread-self/fd/{F}", LEAD, CALLER, FD_F, NULL, "the calling thread's table" },
	{ "/proc/{P}/fd/{F}", LEAD, CALLER, FD_F, NULL, "our pid is the leader's tid" },
	{ "/proc/self/task/{T}/fd/{F}", LEAD, CALLER, FD_F, NULL, "our own task dir" },
	{ "/proc/{P}/task/{T}/fd/{F}", LEAD, CALLER, FD_F, NULL, "our own task dir by number" },
	{ "/proc/{P}/task/{P}/fd/{F}", LEAD, CALLER, FD_F, NULL, "the leader's task dir" },
	{ "/dev/fd/{F}", LEAD, CALLER, FD_F, NULL, "/dev/fd -> /proc/self/fd" },
	{ "/dev/stdin", LEAD, CALLER, 0, NULL, "/dev/stdin -> /proc/self/fd/0" },
	{ "/dev/stdout", LEAD, CALLER, 1, NULL, "/dev/stdout -> /proc/self/fd/1" },
	{ "/dev/stderr", LEAD, CALLER, 2, NULL, "/dev/stderr -> /proc/self/fd/2" },
	{ "/proc/self/fd/0", LEAD, CALLER, 0, NULL, "a lone 0 is not a leading zero" },
	{ "/proc/self/fd/2147483647", LEAD, CALLER, INT_MAX, NULL,
	  "INT_MAX is still a number procfs parses (the fd is simply not open)" },
	/* Repeated slashes, "." and "..": the kernel walks them, so must the model. */
	{ "//proc//self/fd/{F}", LEAD, CALLER, FD_F, NULL, "repeated slashes" },
	{ "///dev///fd///{F}", LEAD, CALLER, FD_F, NULL, "repeated slashes through /dev" },
	{ "/proc/./self/fd/{F}", LEAD, CALLER, FD_F, NULL, "a dot" },
	{ "/proc/self/./fd/./{F}", LEAD, CALLER, FD_F, NULL, "dots, one in fd/" },
	{ "/proc/self/fd/../fd/{F}", LEAD, CALLER, FD_F, NULL, "fd/.. is /proc/<pid>" },
	{ "/proc/self/../self/fd/{F}", LEAD, CALLER, FD_F, NULL, "self/.. is /proc" },
	{ "/proc/../proc/self/fd/{F}", LEAD, CALLER, FD_F, NULL, "/proc/.. is /" },
	{ "/../proc/self/fd/{F}", LEAD, CALLER, FD_F, NULL, "/.. is /" },
	{ "/dev/../proc/self/fd/{F}", LEAD, CALLER, FD_F, NULL, "/dev/.. is /" },
	{ "/dev/./stdin", LEAD, CALLER, 0, NULL, "a dot before /dev/stdin" },
	{ "/dev/fd/../fd/{F}", LEAD, CALLER, FD_F, NULL,
	  ".. after the /dev/fd symlink is physical" },
	{ "/dev/fd/../../self/fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "/dev/fd/../.. is /proc, not /" },
	{ "/dev/fd/../../../dev/stdout", LEAD, CALLER, 1, NULL, "out of /proc and back into /dev" },
	{ "/dev/fd/../task/{T}/fd/{F}", LEAD, CALLER, FD_F, NULL, "/dev/fd/.. is /proc/<pid>" },
	{ "/proc/self/task/../fd/{F}", LEAD, CALLER, FD_F, NULL, "task/.. is /proc/<pid>" },
	{ "/proc/self/task/{T}/fd/../../{T}/fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "down and up inside our task dir" },
	{ "/proc/thread-self/../{T}/fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "thread-self/.. is /proc/<pid>/task" },
	{ "/proc/thread-self/../../fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "thread-self/../.. is /proc/<pid>: the leader, which we are" },
	{ "/proc/thread-self/../../../self/fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "thread-self/../../.. is /proc" },
	{ "/proc/self/fd/./{F}", LEAD, CALLER, FD_F, NULL, "a dot inside fd/" },
	{ "/proc/{/4095}self/fd/{F}", LEAD, CALLER, FD_F, NULL,
	  "4095 bytes plus the NUL is exactly PATH_MAX" },

	/* Near misses: procfs's number parser. */
	{ "/proc/self/fd/0{F}", LEAD, NOPE, FD_F, NULL, "leading zero" },
	{ "/proc/self/fd/+{F}", LEAD, NOPE, FD_F, NULL, "plus sign" },
	{ "/proc/self/fd/-{F}", LEAD, NOPE, FD_F, NULL, "minus sign" },
	{ "/proc/self/fd/ {F}", LEAD, NOPE, FD_F, NULL, "leading space" },
	{ "/proc/self/fd/{F} ", LEAD, NOPE, FD_F, NULL, "trailing space" },
	{ "/proc/self/fd/{F}\n", LEAD, NOPE, FD_F, NULL, "trailing newline" },
	{ "/proc/self/fd/{F}.", LEAD, NOPE, FD_F, NULL, "trailing dot in the number" },
	{ "/proc/self/fd/0x{F}", LEAD, NOPE, FD_F, NULL, "hex prefix" },
	{ "/proc/self/fd/2147483648", LEAD, NOPE, FD_F, NULL, "INT_MAX + 1" },
	{ "/proc/self/fd/{W}", LEAD, NOPE, FD_F, NULL, "{F} + 2^32 must not wrap to {F}" },
	{ "/proc/self/fd/{Z}", LEAD, NOPE, FD_F, NULL, "20 digits must not wrap to {F}" },
	{ "/dev/fd/0{F}", LEAD, NOPE, FD_F, NULL, "leading zero through /dev/fd" },
	{ "/proc/0{P}/fd/{F}", LEAD, NOPE, FD_F, NULL, "leading zero in the pid" },
	{ "/proc/+{P}/fd/{F}", LEAD, NOPE, FD_F, NULL, "plus sign in the pid" },
	{ "/proc/self/task/0{T}/fd/{F}", LEAD, NOPE, FD_F, NULL, "leading zero in the tid" },
	{ "/proc/2147483648/fd/{F}", LEAD, NOPE, FD_F, NULL, "pid above INT_MAX" },
	/* Near misses: the shape of the path. */
	{ "/proc/self/fd/{F}/", LEAD, NOPE, FD_F, NULL, "trailing slash: ENOTDIR" },
	{ "/proc/self/fd/{F}//", LEAD, NOPE, FD_F, NULL, "trailing slashes: ENOTDIR" },
	{ "/proc/self/fd/{F}/.", LEAD, NOPE, FD_F, NULL, "a dot after the magic link" },
	{ "/proc/self/fd/{F}/..", LEAD, NOPE, FD_F, NULL, "dot-dot after the magic link" },
	{ "/proc/self/fd/{F}/../{F}", LEAD, NOPE, FD_F, NULL, "the magic link is not a dir" },
	{ "/proc/self/fd/{F}/fd", LEAD, NOPE, FD_F, NULL, "a component after the magic link" },
	{ "/dev/stdin/", LEAD, NOPE, FD_F, NULL, "trailing slash after /dev/stdin" },
	{ "/dev/fd/{F}/", LEAD, NOPE, FD_F, NULL, "trailing slash after /dev/fd/N" },
	{ "/proc/self/fd", LEAD, NOPE, FD_F, NULL, "the directory itself" },
	{ "/proc/self/fd/", LEAD, NOPE, FD_F, NULL, "the directory, with a slash" },
	{ "/proc/self", LEAD, NOPE, FD_F, NULL, "a process directory" },
	{ "/proc", LEAD, NOPE, FD_F, NULL, "/proc itself" },
	{ "/dev/fd", LEAD, NOPE, FD_F, NULL, "/dev/fd itself" },
	{ "/", LEAD, NOPE, FD_F, NULL, "the root" },
	{ "", LEAD, NOPE, FD_F, NULL, "empty path" },
	{ "proc/self/fd/{F}", LEAD, NOPE, FD_F, NULL, "relative: depends on olddirfd" },
	{ "self/fd/{F}", LEAD, NOPE, FD_F, NULL, "relative to a procfs olddirfd, not ours" },
	{ "./proc/self/fd/{F}", LEAD, NOPE, FD_F, NULL, "relative with a dot" },
	{ "/proc/{/4096}self/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "4096 bytes: ENAMETOOLONG" },
	{ "/proc/{/8000}self/fd/{F}", LEAD, NOPE, FD_F, NULL, "far beyond PATH_MAX" },
	/* Near misses: names. */
	{ "/proc/self/fdinfo/{F}", LEAD, NOPE, FD_F, NULL, "fdinfo is a text file" },
	{ "/proc/selfish/fd/{F}", LEAD, NOPE, FD_F, NULL, "self is a whole name" },
	{ "/proc/Self/fd/{F}", LEAD, NOPE, FD_F, NULL, "names are case-sensitive" },
	{ "/PROC/self/fd/{F}", LEAD, NOPE, FD_F, NULL, "names are case-sensitive" },
	{ "/proc/self/FD/{F}", LEAD, NOPE, FD_F, NULL, "names are case-sensitive" },
	{ "/proc/fd/{F}", LEAD, NOPE, FD_F, NULL, "no process directory" },
	{ "/proc/self/task/fd/{F}", LEAD, NOPE, FD_F, NULL, "no tid under task/" },
	{ "/proc/self/task/{T}/task/{T}/fd/{F}", LEAD, NOPE, FD_F, NULL, "a task has no task/" },
	{ "/proc/thread-self/task/{T}/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "thread-self is a task: no task/ under it" },
	{ "/proc/thread-self/../../self/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "that lands in /proc/<pid>, which has no self" },
	{ "/dev/fd0", LEAD, NOPE, FD_F, NULL, "a floppy, not /dev/fd/0" },
	{ "/dev/stdinx", LEAD, NOPE, FD_F, NULL, "stdin is a whole name" },
	{ "/dev/tty", LEAD, NOPE, FD_F, NULL, "not a link into /proc/self/fd" },
	/* Near misses: someone else's table. */
	{ "/proc/{O}/fd/{F}", LEAD, NOPE, FD_F, NULL, "another process's table" },
	{ "/proc/{O}/task/{O}/fd/{F}", LEAD, NOPE, FD_F, NULL, "another process's task" },
	{ "/proc/self/task/{O}/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "another process's tid is not in our task/: ENOENT" },
	{ "/proc/{O}/task/{T}/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "our tid is not in another process's task/: ENOENT" },
	{ "/proc/2147483647/fd/{F}", LEAD, NOPE, FD_F, NULL, "no such process" },
	{ "/proc/0/fd/{F}", LEAD, NOPE, FD_F, NULL, "there is no /proc/0" },
	{ "/proc/self/task/{X}/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "a thread with its own table" },
	{ "/proc/{X}/fd/{F}", LEAD, NOPE, FD_F, NULL, "a thread with its own table, by tid" },
	{ "/proc/self/task/{S}/fd/{F}", LEAD, NOPE, FD_F, GAP_SIBLING,
	  "another thread: its table is shared only if it never unshared" },
	{ "/proc/{S}/fd/{F}", LEAD, NOPE, FD_F, GAP_SIBLING, "another thread, by tid" },
	{ "/proc/{S}/task/{P}/fd/{F}", LEAD, NOPE, FD_F, GAP_SIBLING,
	  "{S} could be another process's pid: ENOENT there" },
	/* ".." after a number the model cannot vouch for: the kernel needs it to exist. */
	{ "/proc/2147483647/../self/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "/proc/<no such pid>/.. is ENOENT, not /proc" },
	{ "/proc/0/../self/fd/{F}", LEAD, NOPE, FD_F, NULL, "/proc/0/.. is ENOENT" },
	{ "/proc/self/task/{O}/../{T}/fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "another process's tid is not in our task/: ENOENT before the .." },
	{ "/proc/self/task/2147483647/../../fd/{F}", LEAD, NOPE, FD_F, NULL,
	  "no such task: ENOENT before the .." },
	{ "/proc/{O}/../self/fd/{F}", LEAD, NOPE, FD_F,
	  "{O} exists, so the kernel walks through it; the model cannot know it does",
	  "a number the model cannot vouch for, then .." },
	{ "/proc/self/task/{S}/../{T}/fd/{F}", LEAD, NOPE, FD_F, GAP_SIBLING,
	  "a tid the model cannot vouch for, then .." },
	{ "/proc/self/task/{S}/../../fd/{F}", LEAD, NOPE, FD_F, GAP_SIBLING,
	  "a tid the model cannot vouch for, then ../.." },
	/* Directories outside the model. */
	{ "/tmp/../proc/self/fd/{F}", LEAD, NOPE, FD_F, GAP_DIR,
	  "not in the model: /tmp could be a symlink" },
	{ "/proc/self/ns/../fd/{F}", LEAD, NOPE, FD_F, GAP_DIR, "ns/ is not in the model" },
	{ "/dev/shm/../fd/{F}", LEAD, NOPE, FD_F, GAP_DIR, "shm/ is not in the model" },

	/* From a second thread: /proc/self and /proc/<pid> are the leader, not the caller. */
	{ "/proc/self/fd/{F}", THRD, LEADER, FD_F, NULL, "/proc/self is the leader" },
	{ "/proc/thread-self/fd/{F}", THRD, CALLER, FD_F, NULL, "the calling thread" },
	{ "/proc/{P}/fd/{F}", THRD, LEADER, FD_F, NULL, "our pid is the leader" },
	{ "/proc/{T}/fd/{F}", THRD, CALLER, FD_F, NULL, "/proc/<tid> works from that thread" },
	{ "/proc/self/task/{T}/fd/{F}", THRD, CALLER, FD_F, NULL, "our own task dir" },
	{ "/proc/self/task/{L}/fd/{F}", THRD, LEADER, FD_F, NULL, "the leader's task dir" },
	{ "/proc/{P}/task/{T}/fd/{F}", THRD, CALLER, FD_F, NULL, "our own task dir by number" },
	{ "/proc/{T}/task/{T}/fd/{F}", THRD, CALLER, FD_F, NULL, "task/ under our tid" },
	{ "/proc/{T}/task/{L}/fd/{F}", THRD, LEADER, FD_F, NULL,
	  "the leader's task under our tid" },
	{ "/dev/fd/{F}", THRD, LEADER, FD_F, NULL, "/dev/fd -> /proc/self/fd: the leader" },
	{ "/dev/stdin", THRD, LEADER, 0, NULL, "/dev/stdin -> /proc/self/fd/0: the leader" },
	{ "//proc/./thread-self//fd/{F}", THRD, CALLER, FD_F, NULL, "slashes and dots" },
	{ "/proc/self/fd/../fd/{F}", THRD, LEADER, FD_F, NULL, "fd/.. is /proc/<pid>" },
	{ "/proc/{T}/../self/fd/{F}", THRD, LEADER, FD_F, NULL, "/proc/<tid>/.. is /proc" },
	{ "/proc/thread-self/../{T}/fd/{F}", THRD, CALLER, FD_F, NULL,
	  "thread-self/.. is /proc/<pid>/task" },
	{ "/proc/thread-self/../{L}/fd/{F}", THRD, LEADER, FD_F, NULL,
	  "the leader, through thread-self/.." },
	{ "/proc/thread-self/../../fd/{F}", THRD, LEADER, FD_F, NULL,
	  "thread-self/../.. is /proc/<pid>: the leader's table" },
	{ "/proc/thread-self/../{T}/../../fd/{F}", THRD, LEADER, FD_F, NULL,
	  "up out of task/ leaves the task behind" },
	{ "/proc/self/task/{T}/../../fd/{F}", THRD, LEADER, FD_F, NULL,
	  "task/<tid>/../.. is /proc/<pid>: the leader's table" },
	{ "/proc/self/task/{T}/fd/../../../fd/{F}", THRD, LEADER, FD_F, NULL,
	  "three levels up from a task's fd/ is /proc/<pid>" },
	{ "/proc/thread-self/../../../self/fd/{F}", THRD, LEADER, FD_F, NULL,
	  "back to /proc, then self" },
	{ "/proc/thread-self/../../../thread-self/fd/{F}", THRD, CALLER, FD_F, NULL,
	  "back to /proc, then thread-self" },
	{ "/dev/fd/../../thread-self/fd/{F}", THRD, CALLER, FD_F, NULL,
	  "from /dev/fd to thread-self" },
	{ "/proc/self/task/{X}/fd/{F}", THRD, NOPE, FD_F, NULL, "a thread with its own table" },
	{ "/proc/{X}/fd/{F}", THRD, NOPE, FD_F, NULL, "a thread with its own table, by tid" },
	{ "/proc/thread-self/../{X}/fd/{F}", THRD, NOPE, FD_F, NULL,
	  "a thread with its own table, through thread-self/.." },
	{ "/proc/self/task/{S}/fd/{F}", THRD, NOPE, FD_F, GAP_SIBLING, "a third thread" },
	{ "/proc/{S}/task/{T}/fd/{F}", THRD, NOPE, FD_F, GAP_SIBLING,
	  "{S} could be another process's pid" },
	{ "/proc/{O}/fd/{F}", THRD, NOPE, FD_F, NULL, "another process's table" },
	{ "/proc/{O}/task/{T}/fd/{F}", THRD, NOPE, FD_F, NULL,
	  "our tid is not in another process's task/" },
	{ "/proc/thread-self/task/{T}/fd/{F}", THRD, NOPE, FD_F, NULL,
	  "thread-self is a task: no task/ under it" },
	{ "/proc/{T}/fd/0{F}", THRD, NOPE, FD_F, NULL, "leading zero" },
	{ "/proc/thread-self/fd/{F}/", THRD, NOPE, FD_F, NULL, "trailing slash" },
	{ "/proc/{L}/task/{T}/fd/{F}/..", THRD, NOPE, FD_F, NULL, "dot-dot after the magic link" },
};

#undef LEAD
#undef THRD
#undef CALLER
#undef LEADER
#undef NOPE
#undef FD_F
#undef GAP_SIBLING
#undef GAP_DIR

#define PROCFD_NCASES ((int)(sizeof(procfd_cases) / sizeof(procfd_cases[0])))

static inline const char *procfd_owner_name(enum procfd_owner o)
{
	switch (o) {
	case PROCFD_NOT_OURS: return "NOT_OURS";
	case PROCFD_CALLER: return "CALLER";
	case PROCFD_LEADER: return "LEADER";
	case PROCFD_THREAD: return "THREAD";
	}
	return "?";
}

/*
 * Expand a template into buf. Returns the length, or -1 if it does not fit or names a token
 * that does not exist (so a typo in the table fails instead of testing a different path).
 */
static inline int procfd_case_expand(const char *tmpl, const struct procfd_ids *ids, char *buf,
				     size_t size)
{
	size_t len = 0;
	size_t pad_at = 0;
	unsigned long pad_to = 0;
	int padded = 0;
	const char *p = tmpl;

	while (*p != '\0') {
		char num[32];
		const char *end;
		size_t n;

		if (*p != '{') {
			if (len + 1 >= size)
				return -1;
			buf[len++] = *p++;
			continue;
		}
		end = strchr(p, '}');
		if (end == NULL)
			return -1;
		if (p[1] == '/') {
			char *stop;

			if (padded)
				return -1;
			pad_to = strtoul(p + 2, &stop, 10);
			if (stop != end || stop == p + 2)
				return -1;
			pad_at = len;
			padded = 1;
			p = end + 1;
			continue;
		}
		if (end != p + 2)
			return -1;
		switch (p[1]) {
		case 'P':
		case 'L':
			snprintf(num, sizeof(num), "%ld", ids->pid);
			break;
		case 'T':
			snprintf(num, sizeof(num), "%ld", ids->tid);
			break;
		case 'F':
			snprintf(num, sizeof(num), "%d", ids->fd);
			break;
		case 'O':
			snprintf(num, sizeof(num), "%ld", ids->other_pid);
			break;
		case 'S':
			snprintf(num, sizeof(num), "%ld", ids->sibling);
			break;
		case 'X':
			snprintf(num, sizeof(num), "%ld", ids->stranger);
			break;
		case 'W':
			snprintf(num, sizeof(num), "%lld", 4294967296LL + ids->fd);
			break;
		case 'Z':
			/* 2^64 = 1844674407 3709551616, split so that no 128-bit type is needed;
			 * the low half cannot carry for any fd (fds are below 2^31). */
			snprintf(num, sizeof(num), "1844674407%010lld", 3709551616LL + ids->fd);
			break;
		default:
			return -1;
		}
		n = strlen(num);
		if (len + n >= size)
			return -1;
		memcpy(buf + len, num, n);
		len += n;
		p = end + 1;
	}
	buf[len] = '\0';
	if (padded) {
		size_t extra;

		if (pad_to < len || pad_to >= size)
			return -1;
		extra = pad_to - len;
		memmove(buf + pad_at + extra, buf + pad_at, len - pad_at + 1);
		memset(buf + pad_at, '/', extra);
		len = pad_to;
	}
	return (int)len;
}

/*
 * A path made printable for a TAP description: no newline or '#' may reach the TAP stream
 * (the driver would read a directive or a new line), and a 4096-byte path is shown as a run.
 */
static inline const char *procfd_case_describe(const char *path, char *out, size_t size)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)path;

	if (*p == '\0') {
		snprintf(out, size, "(empty)");
		return out;
	}
	while (*p != '\0' && o + 24 < size) {
		size_t run = 1;

		while (p[run] == p[0])
			run++;
		if (run > 8) {
			int shown = p[0] > 0x20 && p[0] < 0x7f && p[0] != '#' ? p[0] : '?';

			o += (size_t)snprintf(out + o, size - o, "[%zu x '%c']", run, shown);
			p += run;
			continue;
		}
		if (p[0] >= 0x20 && p[0] < 0x7f && p[0] != '#' && p[0] != '\\')
			out[o++] = (char)p[0];
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", p[0]);
		p++;
	}
	if (*p != '\0')
		o += (size_t)snprintf(out + o, size - o, "...");
	out[o] = '\0';
	return out;
}

#endif
