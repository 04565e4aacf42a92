/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pure classifier against the shared case table, with made-up ids: no /proc, no threads,
 * so it runs wherever the code compiles. tests/helpers/spelling_probe checks the same table
 * against the running kernel.
 */
#include "config.h"

#include "../tap.h"
#include "procfd_cases.h"
#include "procfd_classify.h"

#include <limits.h>

/* A value procfd_classify() must leave alone when the answer is PROCFD_NOT_OURS. */
#define FD_UNTOUCHED (-12345)

struct id_set {
	long pid;
	long thread_tid; /* the caller's tid in PROCFD_BY_THREAD cases */
	long sibling;
	long stranger;
	long other_pid;
	int fd;
};

/* Several sets, so that no answer can depend on one lucky number: the first is the readable
 * one shown in the descriptions; the others sit at the edges (pid 1 with fd 0, the largest
 * pid Linux hands out with the largest fd it allows). */
static const struct id_set id_sets[] = {
	{ 4242, 4343, 4444, 4545, 5151, 7 },
	{ 1, 2, 3, 4, 100, 0 },
	{ 4194303, 4194302, 4194301, 4194300, 12, 1048575 },
};
#define N_ID_SETS ((int)(sizeof(id_sets) / sizeof(id_sets[0])))

static struct procfd_ids ids_for(const struct id_set *s, enum procfd_case_caller caller)
{
	struct procfd_ids ids;

	ids.pid = s->pid;
	ids.tid = caller == PROCFD_BY_LEADER ? s->pid : s->thread_tid;
	ids.other_pid = s->other_pid;
	ids.sibling = s->sibling;
	ids.stranger = s->stranger;
	ids.fd = s->fd;
	return ids;
}

/* One case with one id set: 0 and a diagnostic in why if the classifier disagrees. */
static int check_case(const struct procfd_case *c, const struct id_set *s, char *why,
		      size_t why_size)
{
	static char path[16384];
	struct procfd_ids ids = ids_for(s, c->caller);
	int want_fd = c->fd == PROCFD_CASE_FD_F ? ids.fd : c->fd;
	int fd = FD_UNTOUCHED;
	enum procfd_owner got;

	if (procfd_case_expand(c->tmpl, &ids, path, sizeof(path)) < 0) {
		snprintf(why, why_size, "template \"%s\" does not expand", c->tmpl);
		return 0;
	}
	got = procfd_classify(path, ids.pid, ids.tid, &fd);
	if (got != c->owner) {
		snprintf(why, why_size, "pid %ld tid %ld: got %s, want %s", ids.pid, ids.tid,
			 procfd_owner_name(got), procfd_owner_name(c->owner));
		return 0;
	}
	if (got != PROCFD_NOT_OURS && fd != want_fd) {
		snprintf(why, why_size, "pid %ld tid %ld: fd %d, want %d", ids.pid, ids.tid, fd,
			 want_fd);
		return 0;
	}
	if (got == PROCFD_NOT_OURS && fd != FD_UNTOUCHED) {
		snprintf(why, why_size, "NOT_OURS but *fd was written (%d)", fd);
		return 0;
	}
	return 1;
}

static void test_table(void)
{
	static char path[16384];
	char shown[160];
	int i;

	for (i = 0; i < PROCFD_NCASES; i++) {
		const struct procfd_case *c = &procfd_cases[i];
		struct procfd_ids ids = ids_for(&id_sets[0], c->caller);
		char why[256] = "";
		int ok = 1;
		int s;

		if (procfd_case_expand(c->tmpl, &ids, path, sizeof(path)) < 0)
			snprintf(path, sizeof(path), "%s", c->tmpl);
		for (s = 0; s < N_ID_SETS && ok; s++)
			ok = check_case(c, &id_sets[s], why, sizeof(why));
		if (!tap_ok(ok, "%s %s from the %s: %s",
			    procfd_case_describe(path, shown, sizeof(shown)),
			    procfd_owner_name(c->owner),
			    c->caller == PROCFD_BY_LEADER ? "leader" : "thread", c->why))
			tap_diag("  %s", why);
	}
}

/* Field by field: the structure may grow, and the new fields must start out zero. */
static struct procfd_ref make_ref(int fd, long proc, long task, enum procfd_via via)
{
	struct procfd_ref r;

	memset(&r, 0, sizeof(r));
	r.fd = fd;
	r.proc = proc;
	r.task = task;
	r.via = via;
	return r;
}

/* The fields of a parse, for spellings that look alike but must differ in one field. */
static void test_parse_fields(void)
{
	static const struct {
		const char *path;
		int fd;
		long proc;
		long task;
		enum procfd_via via;
	} cases[] = {
		{ "/proc/self/fd/7", 7, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_PROC },
		{ "/proc/thread-self/fd/7", 7, PROCFD_ID_PID, PROCFD_ID_TID, PROCFD_VIA_PROC },
		{ "/proc/4242/task/4343/fd/9", 9, 4242, 4343, PROCFD_VIA_PROC },
		{ "/proc/thread-self/../4343/fd/9", 9, PROCFD_ID_PID, 4343, PROCFD_VIA_PROC },
		{ "/proc/4343/fd/1", 1, 4343, PROCFD_ID_NONE, PROCFD_VIA_PROC },
		{ "/dev/fd/3", 3, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_DEV_FD },
		{ "/dev/fd/../../thread-self/fd/3", 3, PROCFD_ID_PID, PROCFD_ID_TID,
		  PROCFD_VIA_DEV_FD },
		{ "/dev/stdin", 0, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_DEV_STDIN },
		{ "/dev/stdout", 1, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_DEV_STDOUT },
		{ "/dev/stderr", 2, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_DEV_STDERR },
		/* Leaving task/ upwards must forget the task: /proc/<pid>/fd is the leader's. */
		{ "/proc/thread-self/../../fd/3", 3, PROCFD_ID_PID, PROCFD_ID_NONE,
		  PROCFD_VIA_PROC },
		{ "/proc/self/task/4343/../../fd/3", 3, PROCFD_ID_PID, PROCFD_ID_NONE,
		  PROCFD_VIA_PROC },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct procfd_ref ref = make_ref(-1, -99, -99, PROCFD_VIA_PROC);
		int r = procfd_parse(cases[i].path, &ref);

		if (!tap_ok(r == 0 && ref.fd == cases[i].fd && ref.proc == cases[i].proc &&
				    ref.task == cases[i].task && ref.via == cases[i].via,
			    "procfd_parse %s: fd %d proc %ld task %ld via %d", cases[i].path,
			    cases[i].fd, cases[i].proc, cases[i].task, (int)cases[i].via))
			tap_diag("  got %d: fd %d proc %ld task %ld via %d", r, ref.fd, ref.proc,
				 ref.task, (int)ref.via);
	}
}

/* The interposer skips getpid()/gettid() when this says no, so a wrong "no" would resolve
 * a pid-dependent path with ids of 0. */
static void test_needs_ids(void)
{
	static const struct {
		const char *path;
		int needs;
	} cases[] = {
		{ "/proc/thread-self/fd/3", 0 },
		{ "//proc/./thread-self/fd/../fd/3", 0 },
		{ "/dev/fd/../../thread-self/fd/3", 0 },
		{ "/proc/self/fd/3", 1 },
		{ "/proc/4242/fd/3", 1 },
		{ "/proc/self/task/4343/fd/3", 1 },
		{ "/proc/thread-self/../4343/fd/3", 1 },
		{ "/proc/thread-self/../../fd/3", 1 },
		{ "/proc/thread-self/../../../self/fd/3", 1 },
		{ "/dev/fd/3", 1 },
		{ "/dev/stdin", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct procfd_ref ref;

		if (procfd_parse(cases[i].path, &ref) != 0) {
			tap_ok(0, "procfd_needs_ids %s: does not parse", cases[i].path);
			continue;
		}
		tap_is(procfd_needs_ids(&ref) != 0, cases[i].needs, "procfd_needs_ids %s is %d",
		       cases[i].path, cases[i].needs);
	}
}

static void test_resolve(void)
{
	struct procfd_ref by_pid = make_ref(3, 4242, PROCFD_ID_NONE, PROCFD_VIA_PROC);
	struct procfd_ref self = make_ref(3, PROCFD_ID_PID, PROCFD_ID_NONE, PROCFD_VIA_PROC);
	struct procfd_ref thread_self = make_ref(3, PROCFD_ID_PID, PROCFD_ID_TID, PROCFD_VIA_PROC);
	struct procfd_ref task = make_ref(3, 4242, 4343, PROCFD_VIA_PROC);

	tap_is(procfd_resolve(&by_pid, 4242, 4242), PROCFD_CALLER,
	       "resolve /proc/4242 as 4242/4242");
	tap_is(procfd_resolve(&by_pid, 4242, 4343), PROCFD_LEADER,
	       "resolve /proc/4242 as 4242/4343");
	tap_is(procfd_resolve(&by_pid, 4343, 4343), PROCFD_NOT_OURS,
	       "resolve /proc/4242 as another process");
	tap_is(procfd_resolve(&self, 4242, 4343), PROCFD_LEADER, "resolve /proc/self as a thread");
	tap_is(procfd_resolve(&thread_self, 0, 0), PROCFD_CALLER,
	       "resolve /proc/thread-self needs no ids");
	tap_is(procfd_resolve(&task, 4242, 4343), PROCFD_CALLER, "resolve task/4343 as 4343");
	tap_is(procfd_resolve(&task, 4242, 4444), PROCFD_NOT_OURS, "resolve task/4343 as 4444");
	tap_is(procfd_resolve(&task, 4343, 4343), PROCFD_NOT_OURS,
	       "resolve /proc/4242/task/4343 from another process 4343");
}

/* The group-aware resolver, as the shim uses it: our process 100, threads 101, 102 and 103
 * (the predicate stands in for tgkill), another process 200. */
struct group_asks {
	int count;
	long last;
};

static int fake_group(long n, void *ctx)
{
	struct group_asks *a = ctx;

	a->count++;
	a->last = n;
	return n >= 100 && n <= 103;
}

static void test_resolve_group(void)
{
	static const struct {
		const char *path;
		long tid;
		enum procfd_owner owner;
		long thread; /* for PROCFD_THREAD */
		int asks;    /* questions the resolver may ask: each number once */
	} cases[] = {
		{ "/proc/self/task/102/fd/3", 100, PROCFD_THREAD, 102, 1 },
		{ "/proc/102/fd/3", 100, PROCFD_THREAD, 102, 1 },
		{ "/proc/102/task/100/fd/3", 100, PROCFD_CALLER, 0, 1 },
		{ "/proc/102/task/100/fd/3", 101, PROCFD_LEADER, 0, 1 },
		{ "/proc/102/task/101/fd/3", 101, PROCFD_CALLER, 0, 1 },
		{ "/proc/102/task/103/fd/3", 100, PROCFD_THREAD, 103, 2 },
		{ "/proc/self/task/102/../100/fd/3", 100, PROCFD_CALLER, 0, 1 },
		{ "/proc/self/task/102/../../fd/3", 101, PROCFD_LEADER, 0, 1 },
		{ "/proc/self/task/102/../102/fd/3", 100, PROCFD_THREAD, 102, 1 },
		{ "/proc/self/task/102/fd/3", 101, PROCFD_THREAD, 102, 1 },
		{ "/proc/103/fd/3", 101, PROCFD_THREAD, 103, 1 },
		{ "/proc/200/fd/3", 100, PROCFD_NOT_OURS, 0, 1 },
		{ "/proc/200/task/100/fd/3", 100, PROCFD_NOT_OURS, 0, 1 },
		{ "/proc/self/task/200/fd/3", 101, PROCFD_NOT_OURS, 0, 1 },
		{ "/proc/200/../self/fd/3", 100, PROCFD_NOT_OURS, 0, 1 },
		{ "/proc/self/task/102/../200/fd/3", 100, PROCFD_NOT_OURS, 0, 2 },
		{ "/proc/self/fd/3", 101, PROCFD_LEADER, 0, 0 },
		{ "/proc/101/fd/3", 101, PROCFD_CALLER, 0, 0 },
		{ "/proc/thread-self/fd/3", 101, PROCFD_CALLER, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct group_asks a = { 0, -1 };
		struct procfd_ref ref;
		long thread = -77;
		enum procfd_owner got;

		if (procfd_parse(cases[i].path, &ref) != 0) {
			tap_ok(0, "procfd_resolve_group %s: does not parse", cases[i].path);
			continue;
		}
		got = procfd_resolve_group(&ref, 100, cases[i].tid, fake_group, &a, &thread);
		if (cases[i].owner == PROCFD_THREAD)
			tap_ok(got == PROCFD_THREAD && thread == cases[i].thread,
			       "procfd_resolve_group %s from %ld: THREAD %ld (got %s, %ld)",
			       cases[i].path, cases[i].tid, cases[i].thread, procfd_owner_name(got),
			       thread);
		else
			tap_ok(got == cases[i].owner && thread == -77,
			       "procfd_resolve_group %s from %ld: %s (got %s)", cases[i].path,
			       cases[i].tid, procfd_owner_name(cases[i].owner),
			       procfd_owner_name(got));
		tap_is(a.count, cases[i].asks, "procfd_resolve_group %s from %ld asks %d question(s)",
		       cases[i].path, cases[i].tid, cases[i].asks);
		/* Without the predicate: the pure answer, which knows no thread but ours. */
		tap_is(procfd_resolve_group(&ref, 100, cases[i].tid, NULL, NULL, &thread),
		       procfd_resolve(&ref, 100, cases[i].tid),
		       "procfd_resolve_group %s without a predicate is procfd_resolve",
		       cases[i].path);
	}
}

static void test_null_and_long(void)
{
	static char huge[1 << 20];
	struct procfd_ref ref;
	int fd = FD_UNTOUCHED;
	size_t n, i;
	int bad = 0;

	tap_is(procfd_parse(NULL, &ref), -1, "procfd_parse(NULL) is -1");
	tap_is(procfd_classify(NULL, 4242, 4242, &fd), PROCFD_NOT_OURS,
	       "procfd_classify(NULL) is NOT_OURS");
	tap_is(fd, FD_UNTOUCHED, "procfd_classify(NULL) leaves *fd alone");

	/* 1 MiB of slashes before a valid tail: the walk must not be fooled into accepting it,
	 * nor run out of anything. */
	n = sizeof(huge) - sizeof("proc/self/fd/3");
	memset(huge, '/', n);
	memcpy(huge + n, "proc/self/fd/3", sizeof("proc/self/fd/3"));
	tap_is(procfd_classify(huge, 4242, 4242, &fd), PROCFD_NOT_OURS,
	       "1 MiB path of slashes then proc/self/fd/3 is NOT_OURS");
	for (i = 0; i + 2 < n; i += 2)
		huge[i] = '/', huge[i + 1] = '.';
	tap_is(procfd_classify(huge, 4242, 4242, &fd), PROCFD_NOT_OURS,
	       "1 MiB path of /./ then proc/self/fd/3 is NOT_OURS");

	/* Every length around PATH_MAX: the kernel takes up to 4095 bytes plus the NUL. */
	for (n = 4000; n <= 4200; n++) {
		static const char tail[] = "self/fd/3";
		int want = n < 4096;
		enum procfd_owner got;

		memcpy(huge, "/proc", 5);
		memset(huge + 5, '/', n - 5 - (sizeof(tail) - 1));
		memcpy(huge + n - (sizeof(tail) - 1), tail, sizeof(tail));
		fd = FD_UNTOUCHED;
		got = procfd_classify(huge, 4242, 4242, &fd);
		if ((got == PROCFD_CALLER && fd == 3) != want) {
			tap_diag("  length %zu: got %s fd %d", n, procfd_owner_name(got), fd);
			bad++;
		}
	}
	tap_ok(bad == 0, "/proc/.../self/fd/3 of 4000..4200 bytes: accepted iff below 4096");
}

/* Every byte value, in every position of two valid spellings: only a digit in place of the
 * fd's digit keeps the path valid, and then it names that fd. */
static void test_every_byte(void)
{
	static const char *const bases[] = { "/proc/self/fd/7", "/dev/fd/7" };
	char all[256];
	size_t b;
	int fd = FD_UNTOUCHED;

	for (b = 1; b < 256; b++)
		all[b - 1] = (char)b;
	all[255] = '\0';
	tap_is(procfd_classify(all, 4242, 4242, &fd), PROCFD_NOT_OURS,
	       "a path of bytes 1..255 is NOT_OURS");
	all[0] = '/';
	tap_is(procfd_classify(all, 4242, 4242, &fd), PROCFD_NOT_OURS,
	       "an absolute path of bytes 1..255 is NOT_OURS");

	for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
		char path[32];
		size_t len = strlen(bases[b]);
		size_t pos;
		int bad = 0;

		for (pos = 0; pos < len; pos++) {
			int v;

			for (v = 1; v < 256; v++) {
				int want_fd;
				enum procfd_owner got;

				if (v == (unsigned char)bases[b][pos])
					continue;
				memcpy(path, bases[b], len + 1);
				path[pos] = (char)v;
				want_fd = pos == len - 1 && v >= '0' && v <= '9' ? v - '0' : -1;
				fd = FD_UNTOUCHED;
				got = procfd_classify(path, 4242, 4242, &fd);
				if (want_fd >= 0 ? got != PROCFD_CALLER || fd != want_fd
						 : got != PROCFD_NOT_OURS) {
					if (bad++ < 5)
						tap_diag("  byte 0x%02x at %zu: %s fd %d", v, pos,
							 procfd_owner_name(got), fd);
				}
			}
		}
		tap_ok(bad == 0,
		       "%s with any one byte changed: accepted only with a digit as the fd",
		       bases[b]);
	}
}

/* The table itself: a typo'd token must not silently test another path. */
static void test_expander(void)
{
	struct procfd_ids ids = { 4242, 4343, 5151, 4444, 4545, 7 };
	char buf[64];
	char big[5000];
	int n;

	n = procfd_case_expand("/proc/{P}/task/{T}/fd/{F}", &ids, buf, sizeof(buf));
	tap_ok(n > 0 && strcmp(buf, "/proc/4242/task/4343/fd/7") == 0,
	       "expand {P} {T} {F}: %s", n > 0 ? buf : "(failed)");
	n = procfd_case_expand("{W} {Z}", &ids, buf, sizeof(buf));
	tap_ok(n > 0 && strcmp(buf, "4294967303 18446744073709551623") == 0,
	       "expand {W} {Z}: %s", n > 0 ? buf : "(failed)");
	tap_is(procfd_case_expand("/proc/{Q}/fd/1", &ids, buf, sizeof(buf)), -1,
	       "an unknown token does not expand");
	tap_is(procfd_case_expand("/proc/{P", &ids, buf, sizeof(buf)), -1,
	       "an unclosed token does not expand");
	n = procfd_case_expand("/a{/4095}b", &ids, big, sizeof(big));
	tap_ok(n == 4095 && strlen(big) == 4095 && big[0] == '/' && big[1] == 'a' &&
		       big[2] == '/' && big[4093] == '/' && big[4094] == 'b',
	       "expand {/4095} pads to 4095 bytes");
	tap_is(procfd_case_expand("/a{/4095}b", &ids, buf, sizeof(buf)), -1,
	       "padding beyond the buffer does not expand");
}

int main(void)
{
	test_expander();
	test_table();
	test_parse_fields();
	test_needs_ids();
	test_resolve();
	test_resolve_group();
	test_null_and_long();
	test_every_byte();
	tap_done();
}
