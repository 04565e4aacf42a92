/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The spelling probe: which /proc spellings does the running kernel accept, and does the
 * classifier agree? Every case of tests/unit/procfd_cases.h is expanded with real ids and
 * given to the real linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW), /proc mounted,
 * no shim. A point passes when the classifier names the file the kernel linked:
 *   - from the leader, and from a second thread sharing the fd table: "ours" (CALLER or
 *     LEADER, with the fd the file sits at) <=> the kernel linked our file;
 *   - from a second thread that unshared CLONE_FILES, whose fd N is another file than the
 *     leader's fd N: CALLER <=> the kernel linked the thread's file, LEADER <=> the leader's.
 *     Only there can CALLER and LEADER be told apart by what gets linked.
 * Other tables hold different files at the same number ({O}: a child process, {X}: a thread
 * with its own table), so linking theirs never counts as ours.
 * Cases whose table entry carries a gap are reported as TODO: known, explained disagreements.
 * Each trial gives a second point: the group-aware resolver the shim uses
 * (procfd_resolve_group(), with tgkill and kcmp as the shim asks them) against the same
 * kernel answer; there only the gaps it cannot close stay TODO.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "../tap.h"
#include "../unit/errno_name.h"
#include "../unit/procfd_cases.h"
#include "procfd_classify.h"
#include "token_actors.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define KCMP_FILES_VALUE 2 /* <linux/kcmp.h> KCMP_FILES */

enum mode {
	MODE_LEADER,
	MODE_THREAD,          /* a second thread, sharing the leader's fd table */
	MODE_THREAD_UNSHARED  /* a second thread with its own copy of the table */
};

static const char *const mode_names[] = { "the leader", "a thread",
					  "a thread with its own fd table" };

/* Which file a link names. Another table's file is, for the comparison, no file of ours. */
enum which { NO_FILE, LEADER_FILE, CALLER_FILE, OTHER_FILE };

struct trial {
	const struct procfd_case *c;
	enum mode mode;
	int idx;
	int slot;            /* where the file sits: {F}, or the case's fixed fd 0..2 */
	struct stat leader_file;
	struct stat caller_file; /* MODE_THREAD_UNSHARED only */
	struct procfd_ids ids;
	char path[8192];
	enum procfd_owner owner;
	int cls_fd;
	/* The group-aware resolver, as the shim runs it (tgkill for "a thread of ours", kcmp
	 * for the table of a thread named by its tid). */
	enum procfd_owner gowner;
	int gfd;
	enum which gtable; /* gowner THREAD: whose table that thread uses */
	int rc;
	int err;
	struct stat linked;
	int setup_err;       /* nonzero: the trial could not be set up, errno-like */
	const char *setup_what;
};

static char dir[PATH_MAX];
static int dir_fd = -1;
static int dev_links_standard;

static int same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Put a fresh, different file at fd slot in the calling thread's (or child's) table. */
static int other_file_at(int slot)
{
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);

	if (fd < 0)
		return -1;
	if (fd != slot) {
		if (dup2(fd, slot) < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int probe_in_group(long n, void *pid)
{
	return syscall(SYS_tgkill, *(long *)pid, n, 0) == 0;
}

static int same_table(long a, long b)
{
	return syscall(SYS_kcmp, a, b, KCMP_FILES_VALUE, 0, 0) == 0;
}

static void group_resolve(struct trial *t)
{
	struct procfd_ref ref;
	long thread = -1;

	t->gowner = PROCFD_NOT_OURS;
	t->gfd = -1;
	t->gtable = NO_FILE;
	if (procfd_parse(t->path, &ref) != 0)
		return;
	t->gowner = procfd_resolve_group(&ref, t->ids.pid, t->ids.tid, probe_in_group,
					 &t->ids.pid, &thread);
	t->gfd = ref.fd;
	if (t->gowner != PROCFD_THREAD)
		return;
	if (same_table(t->ids.pid, thread))
		t->gtable = LEADER_FILE;
	else if (same_table(t->ids.tid, thread))
		t->gtable = CALLER_FILE;
}

/* The call itself, in the thread the case names. */
static void run_call(struct trial *t)
{
	char name[32];

	if (t->mode == MODE_THREAD_UNSHARED) {
		if (unshare(CLONE_FILES) != 0) {
			t->setup_err = errno;
			t->setup_what = "unshare(CLONE_FILES)";
			return;
		}
		if (other_file_at(t->slot) != 0 || fstat(t->slot, &t->caller_file) != 0) {
			t->setup_err = errno;
			t->setup_what = "a file in the thread's own table";
			return;
		}
	}
	t->ids.tid = token_tid();
	if (procfd_case_expand(t->c->tmpl, &t->ids, t->path, sizeof(t->path)) < 0) {
		t->setup_err = EINVAL;
		t->setup_what = "expanding the template";
		return;
	}
	t->cls_fd = -1;
	t->owner = procfd_classify(t->path, t->ids.pid, t->ids.tid, &t->cls_fd);
	group_resolve(t);
	snprintf(name, sizeof(name), "case%d.%d", t->idx, (int)t->mode);
	t->rc = linkat(AT_FDCWD, t->path, dir_fd, name, AT_SYMLINK_FOLLOW);
	t->err = errno;
	if (t->rc == 0) {
		if (fstatat(dir_fd, name, &t->linked, AT_SYMLINK_NOFOLLOW) != 0)
			memset(&t->linked, 0, sizeof(t->linked));
		unlinkat(dir_fd, name, 0);
	}
}

static void *caller_thread(void *arg)
{
	run_call(arg);
	return NULL;
}

/* A known disagreement: TAP reads its failure as expected (XFAIL), so the exit status must
 * not count it either, as tap_ok() would; an unexpected pass still shows (XPASS). */
__attribute__((format(printf, 3, 4))) static void tap_todo(int cond, const char *reason,
							  const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # TODO %s\n", reason);
	fflush(stdout);
}

static enum which model_says(const struct trial *t)
{
	if (t->owner == PROCFD_NOT_OURS || t->cls_fd != t->slot)
		return NO_FILE;
	if (t->mode == MODE_THREAD_UNSHARED && t->owner == PROCFD_CALLER)
		return CALLER_FILE;
	return LEADER_FILE; /* in a shared table the leader's file is the caller's too */
}

static enum which group_says(const struct trial *t)
{
	if (t->gowner == PROCFD_NOT_OURS || t->gfd != t->slot)
		return NO_FILE;
	if (t->gowner == PROCFD_THREAD)
		return t->gtable;
	if (t->mode == MODE_THREAD_UNSHARED && t->gowner == PROCFD_CALLER)
		return CALLER_FILE;
	return LEADER_FILE;
}

static enum which kernel_did(const struct trial *t)
{
	if (t->rc != 0)
		return NO_FILE;
	if (same_inode(&t->linked, &t->leader_file))
		return LEADER_FILE;
	if (t->mode == MODE_THREAD_UNSHARED && same_inode(&t->linked, &t->caller_file))
		return CALLER_FILE;
	return OTHER_FILE;
}

static const char *which_name(enum which w, enum mode mode)
{
	if (w == NO_FILE)
		return "no file of ours";
	if (w == OTHER_FILE)
		return "another table's file";
	if (mode != MODE_THREAD_UNSHARED)
		return "our file";
	return w == CALLER_FILE ? "the calling thread's file" : "the leader's file";
}

static void report(const struct trial *t)
{
	char shown[200];
	char eb[24];
	char kernel[96];
	enum which model = model_says(t);
	enum which kern = kernel_did(t);
	int agree = model == (kern == OTHER_FILE ? NO_FILE : kern);
	const char *desc = procfd_case_describe(t->path, shown, sizeof(shown));

	if (t->setup_err != 0) {
		int point;

		for (point = 0; point < 2; point++) /* the classifier's, the resolver's */
			tap_skip("%s from %s: cannot set up (%s: %s)",
				 procfd_case_describe(t->c->tmpl, shown, sizeof(shown)),
				 mode_names[t->mode], t->setup_what, strerror(t->setup_err));
		return;
	}
	if (t->rc == 0)
		snprintf(kernel, sizeof(kernel), "linked %s", which_name(kern, t->mode));
	else
		snprintf(kernel, sizeof(kernel), "%s", errno_name(t->err, eb));
	if (t->c->gap != NULL)
		tap_todo(agree, t->c->gap, "%s from %s: classifier %s, kernel %s", desc,
			 mode_names[t->mode], procfd_owner_name(t->owner), kernel);
	else
		tap_ok(agree, "%s from %s: classifier %s, kernel %s", desc, mode_names[t->mode],
		       procfd_owner_name(t->owner), kernel);
	if (!agree) {
		tap_diag("  classifier: %s fd %d (file at fd %d), so %s",
			 procfd_owner_name(t->owner), t->cls_fd, t->slot,
			 which_name(model, t->mode));
		tap_diag("  kernel: %s%s", t->rc == 0 ? "linked " : "failed with ",
			 t->rc == 0 ? which_name(kern, t->mode) : errno_name(t->err, eb));
		tap_diag("  the table expects %s: %s", procfd_owner_name(t->c->owner), t->c->why);
	}

	/* The shim's view: only the gaps it cannot close stay TODO. */
	model = group_says(t);
	agree = model == (kern == OTHER_FILE ? NO_FILE : kern);
	if (t->c->gap != NULL && t->c->gap != procfd_gap_sibling)
		tap_todo(agree, t->c->gap, "%s from %s: group-aware resolver %s, kernel %s", desc,
			 mode_names[t->mode], procfd_owner_name(t->gowner), kernel);
	else
		tap_ok(agree, "%s from %s: group-aware resolver %s, kernel %s", desc,
		       mode_names[t->mode], procfd_owner_name(t->gowner), kernel);
	if (!agree)
		tap_diag("  group-aware resolver: %s fd %d (file at fd %d), so %s",
			 procfd_owner_name(t->gowner), t->gfd, t->slot, which_name(model, t->mode));
}

static void run_trial(int idx, enum mode mode)
{
	static struct trial t;
	const struct procfd_case *c = &procfd_cases[idx];
	struct token_thread sibling, stranger;
	int use_sibling = strstr(c->tmpl, "{S}") != NULL;
	int use_stranger = strstr(c->tmpl, "{X}") != NULL;
	pid_t other = -1;
	int saved_slot = -1;
	int fd;

	if (strstr(c->tmpl, "dev/") != NULL && !dev_links_standard) {
		tap_skip("%s: /dev/fd or /dev/std* is not a link into /proc/self/fd here", c->tmpl);
		tap_skip("%s: /dev/fd or /dev/std* is not a link into /proc/self/fd here", c->tmpl);
		return;
	}
	memset(&t, 0, sizeof(t));
	t.c = c;
	t.mode = mode;
	t.idx = idx;
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0) {
		printf("Bail out! O_TMPFILE in %s: %s\n", dir, strerror(errno));
		exit(99);
	}
	t.slot = fd;
	if (c->fd >= 0 && c->fd <= 2) {
		/* /dev/stdout and friends name fixed fds: the file goes there for the call, and
		 * nothing may print until the real stream is back. */
		fflush(stdout);
		fflush(stderr);
		saved_slot = fcntl(c->fd, F_DUPFD_CLOEXEC, 3);
		dup2(fd, c->fd);
		close(fd);
		t.slot = c->fd;
	}
	fstat(t.slot, &t.leader_file);
	t.ids.pid = getpid();
	t.ids.fd = t.slot;
	if (strstr(c->tmpl, "{O}") != NULL) {
		other = token_other_start(t.slot, other_file_at);
		if (other < 0) {
			t.setup_err = errno ? errno : EAGAIN;
			t.setup_what = "a child process";
		}
		t.ids.other_pid = other;
	}
	if (use_sibling && token_thread_start(&sibling, t.slot, NULL) != 0) {
		printf("Bail out! cannot start a thread: %s\n", strerror(errno));
		exit(99);
	}
	if (use_stranger && token_thread_start(&stranger, t.slot, other_file_at) != 0) {
		printf("Bail out! cannot start a thread: %s\n", strerror(errno));
		exit(99);
	}
	if (use_sibling)
		t.ids.sibling = sibling.tid;
	if (use_stranger) {
		t.ids.stranger = stranger.tid;
		if (stranger.err != 0) {
			t.setup_err = stranger.err;
			t.setup_what = "a thread with its own fd table";
		}
	}

	if (t.setup_err == 0) {
		if (mode == MODE_LEADER) {
			run_call(&t);
		} else {
			pthread_t th;
			int e = pthread_create(&th, NULL, caller_thread, &t);

			if (e != 0) {
				t.setup_err = e;
				t.setup_what = "pthread_create";
			} else {
				pthread_join(th, NULL);
			}
		}
	}

	if (use_stranger && token_thread_stop(&stranger) != 0)
		tap_diag("cannot release a helper thread");
	if (use_sibling && token_thread_stop(&sibling) != 0)
		tap_diag("cannot release a helper thread");
	if (other > 0) {
		kill(other, SIGKILL);
		waitpid(other, NULL, 0);
	}
	if (saved_slot >= 0) {
		dup2(saved_slot, c->fd);
		close(saved_slot);
	} else {
		close(t.slot);
	}
	report(&t);
}

static int link_is(const char *link, const char *target)
{
	char buf[64];
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);

	if (n < 0)
		return 0;
	buf[n] = '\0';
	return strcmp(buf, target) == 0;
}

static void cleanup(void)
{
	rmdir(dir);
}

int main(void)
{
	struct statfs sfs;
	char self[32];
	char want[32];
	const char *tmp = getenv("TMPDIR");
	ssize_t n;
	int planned = 0;
	int i;

	if (statfs("/proc", &sfs) != 0 || sfs.f_type != PROC_SUPER_MAGIC_VALUE)
		tap_skip_all("/proc is not mounted: the kernel's spellings cannot be measured");
	/* /proc/<getpid()> only means us when /proc belongs to our pid namespace. */
	n = readlink("/proc/self", self, sizeof(self) - 1);
	snprintf(want, sizeof(want), "%ld", (long)getpid());
	if (n <= 0 || (self[n] = '\0', strcmp(self, want) != 0))
		tap_skip_all("/proc belongs to another pid namespace (/proc/self is not %s)", want);
	snprintf(dir, sizeof(dir), "%s/spelling_probe.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		tap_skip_all("cannot make a temporary directory in %s: %s", dir, strerror(errno));
	atexit(cleanup);
	/* Relative spellings then resolve in a directory with no proc/ in it, wherever the
	 * probe was started from. */
	if (chdir(dir) != 0)
		tap_skip_all("cannot enter %s: %s", dir, strerror(errno));
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	i = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (dir_fd < 0 || i < 0)
		tap_skip_all("O_TMPFILE unsupported in %s: %s", dir, strerror(errno));
	close(i);
	dev_links_standard = link_is("/dev/fd", "/proc/self/fd") &&
			     link_is("/dev/stdin", "/proc/self/fd/0") &&
			     link_is("/dev/stdout", "/proc/self/fd/1") &&
			     link_is("/dev/stderr", "/proc/self/fd/2");

	for (i = 0; i < PROCFD_NCASES; i++)
		planned += procfd_cases[i].caller == PROCFD_BY_LEADER ? 2 : 4;
	tap_plan(planned);
	for (i = 0; i < PROCFD_NCASES; i++) {
		if (procfd_cases[i].caller == PROCFD_BY_LEADER) {
			run_trial(i, MODE_LEADER);
		} else {
			run_trial(i, MODE_THREAD);
			run_trial(i, MODE_THREAD_UNSHARED);
		}
	}
	tap_done();
}
