/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * parity_driver: one side of the differential parity matrix (tests/parity/parity.sh).
 *
 *     parity_driver run SCRATCH OTHERFS [oldkernel]
 *
 * runs every case of the matrix once, in the world it was started in, and prints one line per
 * case. The runner starts it several times per world, with nothing else changed: the reference
 * (no shim, /proc mounted) and the candidate (the shim preloaded, /proc hidden by a tmpfs),
 * and compares the lines. The driver itself knows nothing about which side it is: it asks the
 * world (uid, CAP_DAC_READ_SEARCH, what /proc is, whether the shim is loaded) and prints that
 * in a header line, so the runner can check that each world is the one it meant to build.
 *
 *   SCRATCH   a directory the driver may write in. The runner puts two files there, owned by
 *             root: rootfile-ro (mode 0644) and rootfile-private (0600), both holding
 *             CONTENT below: files an unprivileged caller may open but not own, so that
 *             fs.protected_hardlinks has something to refuse.
 *   OTHERFS   a writable directory on another filesystem (a second tmpfs).
 *   oldkernel every case runs under a seccomp filter that makes linkat() with AT_EMPTY_PATH
 *             in its flags fail with ENOENT, as a kernel before 6.10 refuses the direct form
 *             to a caller without CAP_DAC_READ_SEARCH.
 *
 * Output, after the header "# world ...", one line per case, tab-separated:
 *
 *     ID  ret=0|-1 errno=NAME exists=0|1 same_inode=0|1 nlink=N content=C stray=N  MARK  BEFORE
 *
 *   errno     on success "kept" when the call left errno alone (linkat()'s contract), else the
 *             name of the value it left; on failure the errno name
 *   exists, same_inode, nlink, content   the new name after the call: does it exist, is it
 *             the very inode that was open, its link count, and its bytes (ok: CONTENT, bad:
 *             anything else, unreadable, -: not a regular file or absent)
 *   stray     names that appeared in (or vanished from) the case's directories besides the
 *             new name: a call must not leave anything else behind
 *   MARK      "compare" or "refused-without-proc:WHY": no route can give this call its
 *             /proc answer with /proc hidden (see refusal() for the rules); the candidate must
 *             then answer ENOENT and leave the disk as it was
 *   BEFORE    the same disk fields, taken just before the call: what "as it was" means
 * or "ID  setup-error: WHAT", which the runner counts as a failure.
 *
 *     parity_driver exec-link ENTRY CALL TEMPLATE FD NEWDIRFD NEWNAME RESULTFD
 *
 * is the driver re-executed by the "exec" context: it links an fd inherited across execve and
 * writes the outcome to RESULTFD.
 *
 * Every case runs in a child of its own, so cases cannot disturb each other (fd tables,
 * rlimits, credentials, fds moved onto 0..2) and a hung case is killed by its alarm.
 * The driver does not use /proc itself (it must behave the same in every world), except as
 * the last resort of a setup step, give_name().
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "../unit/procfd_cases.h"
#include "../helpers/oldkernel_filter.h"
#include "../helpers/token_actors.h"
#include "errno_list.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>

#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define TMPFS_MAGIC_VALUE 0x01021994

/* What every file the driver links holds; the runner writes the same bytes in the root-owned
 * files (parity.sh: ROOTFILE_CONTENT). */
#define CONTENT "parity\n"
#define DECOY "decoy\n"
#define EXISTING "existing\n"

/* Not an errno value: if it is still there after a successful call, nobody touched errno. */
#define ERRNO_SENTINEL 31337

/* Fixed numbers for "not open": a number taken from open()+close() would be handed out again
 * to the next pipe or socket the case opens, and then name that. */
#define CLOSED_FD 900
#define BAD_DIRFD 901

/* The spelling table has paths up to 8000 bytes ({/8000}). */
#define PATH_BUF 8320
#define MAX_CASES 2048
#define ID_BYTES 192
#define CASE_ALARM 20

/* ------------------------------------------------------------------------------------------ */
/* The dimensions of the matrix. */

enum entry { VIA_LINKAT, VIA_SYSCALL, NENTRY };
static const char *const entry_names[] = { "linkat", "syscall" };

/* How the call is spelled. Only CALL_FOLLOW is the legacy idiom; the others are near misses
 * the interposer must pass through (its flags differ), and the direct form itself. */
enum call { CALL_FOLLOW, CALL_NOFOLLOW, CALL_FOLLOW_EMPTY, CALL_BADFLAG, CALL_DIRECT, NCALL };
static const char *const call_names[] = { "follow", "noflags", "follow+empty",
					  "follow+nofollow", "direct" };

/* Who opens the file relative to who links it. */
enum opener {
	OPEN_HERE,       /* the case process, before the context runs */
	OPEN_IN_CONTEXT, /* the linking task itself, inside the context */
	OPEN_ELSEWHERE   /* another process, which sends it over SCM_RIGHTS */
};

enum ctx {
	CTX_MAIN, CTX_THREAD, CTX_THREAD_UNSHARED, CTX_SIGNAL, CTX_FORK, CTX_VFORK, CTX_EXEC,
	CTX_SCM, CTX_SETUID, CTX_CAPSET, CTX_SETRESUID_NOOP, CTX_FORK_OWN, NCTX
};

/*
 * same_cred: the link runs under the very credentials object the fd was opened with. This is
 * kernel-facts.md's rule for Linux >= 6.10 (f_cred == current_cred()): threads share their
 * process's object; fork, vfork and execve make a new one; setuid() and capset() make a new
 * one even when nothing changes; setresuid(-1, -1, -1) does not.
 * own_table: the linking thread's fd table is not the leader's, so /proc/self (the leader)
 * names a table that holds another file than the caller's at that number.
 */
static const struct ctx_info {
	const char *name;
	int same_cred;
	int own_table;
	enum opener opener;
	int async_safe_only; /* the link runs where only async-signal-safe code may */
} ctxs[NCTX] = {
	[CTX_MAIN] = { "main", 1, 0, OPEN_HERE, 0 },
	[CTX_THREAD] = { "thread", 1, 0, OPEN_HERE, 0 },
	[CTX_THREAD_UNSHARED] = { "thread-unshared", 1, 1, OPEN_IN_CONTEXT, 0 },
	[CTX_SIGNAL] = { "signal", 1, 0, OPEN_HERE, 1 },
	[CTX_FORK] = { "fork", 0, 0, OPEN_HERE, 0 },
	[CTX_VFORK] = { "vfork", 0, 0, OPEN_HERE, 1 },
	[CTX_EXEC] = { "exec", 0, 0, OPEN_HERE, 1 },
	[CTX_SCM] = { "scm-rights", 0, 0, OPEN_ELSEWHERE, 0 },
	[CTX_SETUID] = { "setuid-self", 0, 0, OPEN_HERE, 0 },
	[CTX_CAPSET] = { "capset-same", 0, 0, OPEN_HERE, 0 },
	[CTX_SETRESUID_NOOP] = { "setresuid-noop", 1, 0, OPEN_HERE, 0 },
	[CTX_FORK_OWN] = { "fork-opens", 1, 0, OPEN_IN_CONTEXT, 0 },
};

enum kind {
	K_TMPFILE, K_TMPFILE_EXCL, K_TMPFILE_LINKED, K_TMPFILE_RELINKED, K_NAMED, K_UNLINKED,
	K_OPATH, K_OPATH_SYMLINK, K_ROOT_RO, K_ROOT_OPATH, K_DIR, K_PIPE, K_SOCKET, K_EVENTFD,
	K_MEMFD, K_OTHERFS, K_CLOSED, K_RLIMIT_EDGE, K_ABOVE_RLIMIT, NKIND
};

/* portable: opening it changes no name, so another task may open it (OPEN_IN_CONTEXT,
 * OPEN_ELSEWHERE) after the "before" snapshot without that counting as stray names. */
static const struct kind_info {
	const char *name;
	int portable;
} kinds[NKIND] = {
	[K_TMPFILE] = { "tmpfile", 1 },
	[K_TMPFILE_EXCL] = { "tmpfile-excl", 1 },
	[K_TMPFILE_LINKED] = { "tmpfile-linked", 0 },     /* linked once, that name kept */
	[K_TMPFILE_RELINKED] = { "tmpfile-relinked", 0 }, /* linked once, that name removed */
	[K_NAMED] = { "named", 1 },
	[K_UNLINKED] = { "unlinked", 0 },
	[K_OPATH] = { "opath", 1 },
	[K_OPATH_SYMLINK] = { "opath-symlink", 1 },       /* O_PATH | O_NOFOLLOW of a symlink */
	[K_ROOT_RO] = { "rootfile-ro", 1 },               /* root's 0644 file, O_RDONLY */
	[K_ROOT_OPATH] = { "rootfile-private-opath", 1 }, /* root's 0600 file, O_PATH */
	[K_DIR] = { "dir", 1 },
	[K_PIPE] = { "pipe", 1 },
	[K_SOCKET] = { "socket", 1 },
	[K_EVENTFD] = { "eventfd", 1 },
	[K_MEMFD] = { "memfd", 1 },
	[K_OTHERFS] = { "otherfs-tmpfile", 1 },           /* O_TMPFILE on the second tmpfs */
	[K_CLOSED] = { "closed", 1 },
	[K_RLIMIT_EDGE] = { "rlimit-edge", 0 },           /* at RLIMIT_NOFILE - 1 */
	[K_ABOVE_RLIMIT] = { "above-rlimit", 0 },         /* RLIMIT_NOFILE lowered below it */
};

enum target {
	T_NEW, T_NEW_ABS, T_EXISTING, T_EXISTING_DIR, T_DANGLING, T_MISSING_DIR, T_READONLY_DIR,
	T_OTHERFS, T_BAD_DIRFD, T_FILE_DIRFD, T_EMPTY_NAME, T_LONG_NAME, T_TRAILING_SLASH, NTARGET
};
static const char *const target_names[] = {
	"new", "new-absolute", "existing", "existing-dir", "dangling-symlink", "missing-dir",
	"readonly-dir", "otherfs", "bad-newdirfd", "file-newdirfd", "empty-name", "long-name",
	"trailing-slash"
};

struct pcase {
	char id[ID_BYTES];
	const char *tmpl;
	const struct procfd_case *spec; /* the spelling table's entry, or NULL */
	enum procfd_owner owner;        /* whose table tmpl names, as the spelling means it */
	int gap;                        /* the table knows the kernel resolves it to our table */
	int fixed_fd;                   /* -1, or 0..2: the file must sit there */
	enum ctx ctx;
	enum kind kind;
	enum target target;
	enum entry entry;
	enum call call;
};

static struct pcase cases[MAX_CASES];
static int ncases;

/* ------------------------------------------------------------------------------------------ */
/* What the case process, its threads and children report: shared memory, so that a fork or
 * vfork child, a thread or the SCM_RIGHTS sender can write it. */

struct disk {
	int exists;
	int same_inode;
	unsigned long nlink;
	char content; /* 'o' ok, 'b' bad, 'u' unreadable, '-' absent or not a regular file */
	int entries;
};

struct shared {
	int have_src;
	dev_t src_dev;
	ino_t src_ino;
	int called; /* 1: the call ran; -1: the linking context failed (setup_error says why) */
	long ret;
	int err;
	int errno_kept;
	struct disk before, after;
	char path[PATH_BUF];
	char setup_error[256];
};

static struct shared *sh;

/* The world, as the driver finds it. */
static const char *argv0;
static const char *scratch;
static const char *otherfs;
static int oldkernel_sim;
static int privileged;   /* CAP_DAC_READ_SEARCH in the effective set */
static int kernel_flink; /* Linux >= 6.10: the direct form for same-credentials fds */

/* ------------------------------------------------------------------------------------------ */
/* Small tools. */

static const char *errno_str(int err, char *buf, size_t size)
{
	switch (err) {
	FLINKSHIM_ERRNO_LIST(FLINKSHIM_ERRNO_CASE)
	default:
		/* No space: the runner splits the line on blanks. */
		snprintf(buf, size, "E%d", err);
		return buf;
	}
}

/* Async-signal-safe string copy into the shared error slot (used from vfork children and
 * signal handlers too). */
static void note_error(const char *what)
{
	size_t i;

	for (i = 0; what[i] != '\0' && i + 1 < sizeof(sh->setup_error); i++)
		sh->setup_error[i] = what[i];
	sh->setup_error[i] = '\0';
}

/* A setup step failed: say what, with errno, and end the case process. */
__attribute__((noreturn)) static void setup_failed(const char *what)
{
	char eb[16];
	int err = errno;

	snprintf(sh->setup_error, sizeof(sh->setup_error), "%s: %s", what,
		 errno_str(err, eb, sizeof(eb)));
	_exit(3);
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			setup_failed("write");
		s += n;
		len -= (size_t)n;
	}
}

static int fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

/* Async-signal-safe: a vfork child and a signal handler expand their templates here. Only
 * the tokens of the context templates: {F} the fd, {P}/{L} our pid, {T} our tid. */
static int put_number(char *buf, size_t size, size_t *len, long n)
{
	char digits[24];
	int i = 0;
	unsigned long u = (unsigned long)n;

	do {
		digits[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	while (i > 0) {
		if (*len + 1 >= size)
			return -1;
		buf[(*len)++] = digits[--i];
	}
	return 0;
}

static int expand_safe(const char *t, int fd, long pid, long tid, char *buf, size_t size)
{
	size_t len = 0;

	for (; *t != '\0'; t++) {
		int r = 0;

		if (t[0] == '{' && t[1] != '\0' && t[2] == '}') {
			switch (t[1]) {
			case 'F': r = put_number(buf, size, &len, fd); break;
			case 'P':
			case 'L': r = put_number(buf, size, &len, pid); break;
			case 'T': r = put_number(buf, size, &len, tid); break;
			default: return -1;
			}
			t += 2;
		} else {
			if (len + 1 >= size)
				return -1;
			buf[len++] = *t;
		}
		if (r != 0)
			return -1;
	}
	buf[len] = '\0';
	return (int)len;
}

/* ------------------------------------------------------------------------------------------ */
/* The call. */

struct outcome {
	long ret;
	int err;
	int errno_kept;
};

static void call_now(enum entry e, enum call k, int fd, const char *path, int newdirfd,
		     const char *newname, struct outcome *o)
{
	int olddirfd = AT_FDCWD;
	int flags = AT_SYMLINK_FOLLOW;

	switch (k) {
	case CALL_FOLLOW: break;
	case CALL_NOFOLLOW: flags = 0; break;
	case CALL_FOLLOW_EMPTY: flags = AT_SYMLINK_FOLLOW | AT_EMPTY_PATH; break;
	case CALL_BADFLAG: flags = AT_SYMLINK_FOLLOW | AT_SYMLINK_NOFOLLOW; break;
	case CALL_DIRECT:
		olddirfd = fd;
		path = "";
		flags = AT_EMPTY_PATH;
		break;
	case NCALL: break;
	}
	errno = ERRNO_SENTINEL;
	if (e == VIA_LINKAT)
		o->ret = linkat(olddirfd, path, newdirfd, newname, flags);
	else
		/* Plain ints, as real programs pass them (the upper halves of the argument
		 * registers are then undefined). */
		o->ret = syscall(SYS_linkat, olddirfd, path, newdirfd, newname, flags);
	o->err = errno;
	o->errno_kept = o->err == ERRNO_SENTINEL;
}

/* What the linking context needs, prepared beforehand: a signal handler or a vfork child
 * must not allocate or parse. */
static struct {
	const struct pcase *c;
	int fd;
	int newdirfd;
	const char *newname;
	struct procfd_ids ids;
} job;

/* Async-signal-safe unless the case comes from the spelling table (procfd_case_expand uses
 * snprintf): those only run in the main thread or a second thread (see add_case). */
static void do_link(void)
{
	const struct pcase *c = job.c;
	long pid = getpid();
	long tid = token_tid();
	struct outcome o;
	int n;

	if (c->spec != NULL) {
		job.ids.pid = pid;
		job.ids.tid = tid;
		job.ids.fd = job.fd;
		n = procfd_case_expand(c->tmpl, &job.ids, sh->path, sizeof(sh->path));
	} else {
		n = expand_safe(c->tmpl, job.fd, pid, tid, sh->path, sizeof(sh->path));
	}
	if (n < 0) {
		note_error("the template does not expand");
		sh->called = -1;
		return;
	}
	call_now(c->entry, c->call, job.fd, sh->path, job.newdirfd, job.newname, &o);
	sh->ret = o.ret;
	sh->err = o.err;
	sh->errno_kept = o.errno_kept;
	sh->called = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The refusal rule: where no route can give the /proc answer once /proc is hidden. */

enum table { TABLE_NONE, TABLE_OURS, TABLE_FOREIGN };

/*
 * The spelling table's gaps are spellings the kernel resolves to one of our own tasks where
 * the pure classifier cannot know it ({S}, a sibling thread sharing the leader's table; a
 * directory outside its model). Whose table they name is the task written right before the
 * last "/fd/": our own thread ({T}, thread-self), else the leader's (self, {P}, {S}, or a
 * ".." that climbs back to /proc/<pid>).
 */
static enum procfd_owner gap_owner(const char *tmpl)
{
	const char *fd = NULL;
	const char *p;
	size_t len;

	for (p = strstr(tmpl, "/fd/"); p != NULL; p = strstr(p + 1, "/fd/"))
		fd = p;
	if (fd == NULL)
		return PROCFD_NOT_OURS;
	for (p = fd; p > tmpl && p[-1] != '/'; p--)
		;
	len = (size_t)(fd - p);
	if ((len == 3 && memcmp(p, "{T}", 3) == 0) ||
	    (len == 11 && memcmp(p, "thread-self", 11) == 0))
		return PROCFD_CALLER;
	return PROCFD_LEADER;
}

/* Whose fd table the path names, when the call is the idiom at all. */
static enum table table_named(const struct pcase *c)
{
	if (c->call != CALL_FOLLOW)
		return TABLE_NONE; /* other flags: not the idiom, no rule applies */
	if (c->owner == PROCFD_CALLER)
		return TABLE_OURS;
	if (c->owner == PROCFD_LEADER)
		return ctxs[c->ctx].own_table ? TABLE_FOREIGN : TABLE_OURS;
	if (c->gap)
		return gap_owner(c->tmpl) == PROCFD_CALLER || !ctxs[c->ctx].own_table
			       ? TABLE_OURS
			       : TABLE_FOREIGN;
	/* Another process ({O}), or a thread with its own table ({X}). */
	if (strstr(c->tmpl, "{O}") != NULL || strstr(c->tmpl, "{X}") != NULL)
		return TABLE_FOREIGN;
	return TABLE_NONE; /* the kernel refuses the spelling itself */
}

/*
 * kernel-facts.md: the direct form works for a caller with CAP_DAC_READ_SEARCH, or (Linux
 * >= 6.10) for an fd opened under the caller's very credentials; otherwise the kernel says
 * ENOENT and only /proc could link the file. A file that sits in another process's or
 * another thread's table has no fd in ours at all: only /proc reaches it.
 */
static const char *refusal(const struct pcase *c)
{
	enum table t = table_named(c);

	if (t == TABLE_FOREIGN)
		return "another-table";
	if (t != TABLE_OURS)
		return NULL;
	if (oldkernel_sim)
		return "old-kernel-simulated";
	if (privileged)
		return NULL;
	if (!kernel_flink)
		return "kernel-before-6.10";
	if (!ctxs[c->ctx].same_cred)
		return "other-credentials";
	return NULL;
}

/*
 * What the candidate owes the reference, by the contract:
 *   refused-without-proc:WHY  the idiom, but no route exists with /proc hidden: ENOENT and
 *                             the disk as it was;
 *   pass-through              not the idiom (other flags, or a path that does not end on one
 *                             of our fd links: a trailing slash, /proc/self/fd itself, a
 *                             spelling the kernel refuses): the shim must not touch it, so the
 *                             candidate answers as the run without the shim, /proc hidden;
 *   gap:WHY                   the idiom in a spelling the shim knowingly refuses (the
 *                             spelling table's gaps, but the sibling gap, which the shim
 *                             closes): reported as TODO, so that it stays visible and a fix
 *                             shows as an unexpected pass;
 *   compare                   the idiom: exactly the reference.
 */
static const char *mark(const struct pcase *c, char *buf, size_t size)
{
	const char *why = refusal(c);

	if (why != NULL) {
		snprintf(buf, size, "refused-without-proc:%s", why);
		return buf;
	}
	if (table_named(c) == TABLE_NONE)
		return "pass-through";
	/* The sibling gap is the pure classifier's: the shim closes it with tgkill and kcmp. */
	if (c->gap && !(c->spec != NULL && c->spec->gap == procfd_gap_sibling)) {
		snprintf(buf, size, "gap:%s", c->spec != NULL && c->spec->gap ? c->spec->gap : "?");
		for (char *p = buf; *p != '\0'; p++)
			if (*p == '\t' || *p == '\n' || *p == '#')
				*p = ' ';
		return buf;
	}
	return "compare";
}

/* ------------------------------------------------------------------------------------------ */
/* The case's files. */

struct env {
	char casedir[PATH_MAX];
	int casefd;
	char otherdir[PATH_MAX];
	int otherfd;
	int rofd;
	int newdirfd;
	const char *newname;
	char newname_buf[PATH_MAX + 16];
	int inspect_dirfd;
	const char *inspect_name;
};

static void record_src(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		setup_failed("fstat of the file");
	sh->src_dev = st.st_dev;
	sh->src_ino = st.st_ino;
	sh->have_src = 1;
}

static int place_at(int fd, int want)
{
	if (want < 0 || fd == want)
		return fd;
	if (dup2(fd, want) != want)
		setup_failed("dup2");
	close(fd);
	return want;
}

/* Give an O_TMPFILE a name during setup, before any filter: the direct form, or /proc where
 * the kernel refuses it (the reference world of an old kernel). */
static void give_name(int fd, int dirfd, const char *name)
{
	char path[64];

	if (linkat(fd, "", dirfd, name, AT_EMPTY_PATH) == 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW) != 0)
		setup_failed("naming an O_TMPFILE for the tmpfile-linked kinds");
}

static int open_tmpfile(const char *dir, int extra, const char *content)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC | extra, 0644);

	if (fd < 0)
		setup_failed("O_TMPFILE");
	write_all(fd, content);
	return fd;
}

static void make_file(int dirfd, const char *name, const char *content)
{
	int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		setup_failed("creating a file");
	write_all(fd, content);
	close(fd);
}

/* Names the kind needs, made by the case process before the "before" snapshot. */
static void prepare_names(enum kind k, struct env *e)
{
	switch (k) {
	case K_NAMED:
	case K_UNLINKED:
	case K_OPATH:
		make_file(e->casefd, "orig", CONTENT);
		break;
	case K_OPATH_SYMLINK:
		make_file(e->casefd, "orig", CONTENT);
		if (symlinkat("orig", e->casefd, "sym") != 0)
			setup_failed("symlink");
		break;
	case K_DIR:
		if (mkdirat(e->casefd, "d", 0755) != 0)
			setup_failed("mkdir");
		break;
	default:
		break;
	}
}

/* The file of the kind asked for, opened by the calling task, its identity recorded. */
static int open_kind(enum kind k, const struct env *e)
{
	char path[PATH_MAX + 32];
	int p[2];
	int fd = -1;

	switch (k) {
	case K_TMPFILE:
	case K_RLIMIT_EDGE:
	case K_ABOVE_RLIMIT:
		fd = open_tmpfile(e->casedir, 0, CONTENT);
		break;
	case K_TMPFILE_EXCL:
		fd = open_tmpfile(e->casedir, O_EXCL, CONTENT);
		break;
	case K_TMPFILE_LINKED:
	case K_TMPFILE_RELINKED:
		fd = open_tmpfile(e->casedir, 0, CONTENT);
		give_name(fd, e->casefd, "first");
		/* Removing the only name leaves nlink 0 without I_LINKABLE: never linkable
		 * again, by either form. */
		if (k == K_TMPFILE_RELINKED && unlinkat(e->casefd, "first", 0) != 0)
			setup_failed("unlink");
		break;
	case K_NAMED:
		fd = openat(e->casefd, "orig", O_RDWR | O_CLOEXEC);
		break;
	case K_UNLINKED:
		fd = openat(e->casefd, "orig", O_RDWR | O_CLOEXEC);
		if (fd >= 0 && unlinkat(e->casefd, "orig", 0) != 0)
			setup_failed("unlink");
		break;
	case K_OPATH:
		fd = openat(e->casefd, "orig", O_PATH | O_CLOEXEC);
		break;
	case K_OPATH_SYMLINK:
		fd = openat(e->casefd, "sym", O_PATH | O_NOFOLLOW | O_CLOEXEC);
		break;
	case K_ROOT_RO:
		snprintf(path, sizeof(path), "%s/rootfile-ro", scratch);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		break;
	case K_ROOT_OPATH:
		snprintf(path, sizeof(path), "%s/rootfile-private", scratch);
		fd = open(path, O_PATH | O_CLOEXEC);
		break;
	case K_DIR:
		fd = openat(e->casefd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		break;
	case K_PIPE:
		if (pipe2(p, O_CLOEXEC) != 0)
			setup_failed("pipe");
		write_all(p[1], CONTENT);
		close(p[1]);
		fd = p[0];
		break;
	case K_SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0)
			setup_failed("socketpair");
		close(p[1]);
		fd = p[0];
		break;
	case K_EVENTFD:
		fd = eventfd(0, EFD_CLOEXEC);
		break;
	case K_MEMFD:
		fd = memfd_create("parity", MFD_CLOEXEC);
		if (fd >= 0)
			write_all(fd, CONTENT);
		break;
	case K_OTHERFS:
		fd = open_tmpfile(e->otherdir, 0, CONTENT);
		break;
	case K_CLOSED:
		if (fd_is_open(CLOSED_FD))
			setup_failed("the closed fd number is open");
		return CLOSED_FD;
	case NKIND:
		break;
	}
	if (fd < 0)
		setup_failed(kinds[k].name);
	record_src(fd);
	return fd;
}

/* Where the file must sit: a fixed 0..2 for /dev/stdin and friends, or the RLIMIT_NOFILE
 * edges. */
static int place_kind(const struct pcase *c, int fd)
{
	struct rlimit rl;

	if (c->fixed_fd >= 0)
		return place_at(fd, c->fixed_fd);
	if (c->kind == K_RLIMIT_EDGE) {
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			setup_failed("getrlimit");
		/* The last fd the limit allows; a huge limit is lowered first, so that the
		 * table stays small. */
		if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 65536) {
			rl.rlim_cur = 65536;
			if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
				setup_failed("setrlimit");
		}
		return place_at(fd, (int)rl.rlim_cur - 1);
	}
	if (c->kind == K_ABOVE_RLIMIT) {
		fd = place_at(fd, 64);
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			setup_failed("getrlimit");
		rl.rlim_cur = 32; /* the fd stays open above the new limit */
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			setup_failed("setrlimit");
	}
	return fd;
}

static void prepare_target(const struct pcase *c, struct env *e)
{
	int fd;

	e->newname = "new";
	e->newdirfd = e->casefd;
	e->inspect_dirfd = e->casefd;
	e->inspect_name = "new";
	switch (c->target) {
	case T_NEW:
		break;
	case T_NEW_ABS:
		e->newdirfd = AT_FDCWD;
		snprintf(e->newname_buf, sizeof(e->newname_buf), "%s/new", e->casedir);
		e->newname = e->newname_buf;
		break;
	case T_EXISTING:
		make_file(e->casefd, "new", EXISTING);
		break;
	case T_EXISTING_DIR:
		if (mkdirat(e->casefd, "new", 0755) != 0)
			setup_failed("mkdir");
		break;
	case T_DANGLING:
		if (symlinkat("nowhere", e->casefd, "new") != 0)
			setup_failed("symlink");
		break;
	case T_MISSING_DIR:
		e->newname = "nodir/new";
		e->inspect_name = "nodir/new";
		break;
	case T_READONLY_DIR:
		/* Owned by the caller but not writable: EACCES without CAP_DAC_OVERRIDE. */
		if (mkdirat(e->casefd, "ro", 0755) != 0)
			setup_failed("mkdir");
		e->rofd = openat(e->casefd, "ro", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e->rofd < 0 || fchmod(e->rofd, 0555) != 0)
			setup_failed("read-only directory");
		e->newdirfd = e->rofd;
		e->inspect_dirfd = e->rofd;
		break;
	case T_OTHERFS:
		e->newdirfd = e->otherfd;
		e->inspect_dirfd = e->otherfd;
		break;
	case T_BAD_DIRFD:
		if (fd_is_open(BAD_DIRFD))
			setup_failed("the bad newdirfd number is open");
		e->newdirfd = BAD_DIRFD;
		break;
	case T_FILE_DIRFD:
		make_file(e->casefd, "plain", EXISTING);
		fd = openat(e->casefd, "plain", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			setup_failed("open");
		e->newdirfd = fd;
		break;
	case T_EMPTY_NAME:
		e->newname = "";
		break;
	case T_LONG_NAME:
		memset(e->newname_buf, 'n', 300);
		e->newname_buf[300] = '\0';
		e->newname = e->newname_buf;
		break;
	case T_TRAILING_SLASH:
		e->newname = "new/";
		break;
	case NTARGET:
		break;
	}
}

/* ------------------------------------------------------------------------------------------ */
/* Inspection: what is on disk. */

static int count_entries(int dirfd)
{
	DIR *d;
	struct dirent *de;
	int fd;
	int n = 0;

	if (dirfd < 0)
		return 0;
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		setup_failed("reading a case directory");
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static char content_of(int dirfd, const char *name)
{
	char buf[64];
	ssize_t n;
	size_t len = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 'u';
	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return 'u';
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return len == strlen(CONTENT) && memcmp(buf, CONTENT, len) == 0 ? 'o' : 'b';
}

static void inspect(const struct env *e, struct disk *d)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->content = '-';
	if (fstatat(e->inspect_dirfd, e->inspect_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		d->exists = 1;
		d->nlink = (unsigned long)st.st_nlink;
		d->same_inode = sh->have_src && st.st_dev == sh->src_dev &&
				st.st_ino == sh->src_ino;
		if (S_ISREG(st.st_mode))
			d->content = content_of(e->inspect_dirfd, e->inspect_name);
	}
	d->entries = count_entries(e->casefd) + count_entries(e->rofd) +
		     count_entries(e->otherfd);
}

static const char *content_name(char c)
{
	switch (c) {
	case 'o': return "ok";
	case 'b': return "bad";
	case 'u': return "unreadable";
	default: return "-";
	}
}

/* Remove a directory's contents, as the case's own user (so a read-only directory is made
 * writable first). */
static void empty_dir(int dirfd)
{
	DIR *d;
	struct dirent *de;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		int sub;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd, de->d_name, 0) == 0)
			continue;
		sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			fchmod(sub, 0755);
			empty_dir(sub);
			close(sub);
		}
		unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers for the spelling table's tokens ({O}, {S}, {X}), as tests/helpers/spelling_probe.c
 * sets them up: another table's fd {F} is a different file. */

static const struct env *cur_env;

/* A different file (DECOY) at fd slot of the calling task's table. */
static int decoy_at(int slot)
{
	int fd = open(cur_env->casedir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, DECOY, strlen(DECOY)) != (ssize_t)strlen(DECOY))
		return -1;
	if (fd != slot) {
		if (dup2(fd, slot) < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* {S} and {X} (token_actors.c): a setup failure ends the case. */
static void helper_start(struct token_thread *h, int slot, int own_table)
{
	if (token_thread_start(h, slot, own_table ? decoy_at : NULL) != 0)
		setup_failed("helper thread");
	if (h->err != 0) {
		errno = h->err;
		setup_failed("helper thread with its own table");
	}
}

/* {O}: another process whose slot is the decoy. */
static pid_t other_start(int slot)
{
	pid_t pid = token_other_start(slot, decoy_at);

	if (pid < 0)
		setup_failed("the other process");
	return pid;
}

/* ------------------------------------------------------------------------------------------ */
/* The contexts. */

static void *thread_link(void *arg)
{
	(void)arg;
	do_link();
	return NULL;
}

/* A thread that unshared its fd table: the leader's fd job.fd is a decoy, ours the file. */
static void *thread_unshared_link(void *arg)
{
	int fd;

	(void)arg;
	if (unshare(CLONE_FILES) != 0)
		setup_failed("unshare(CLONE_FILES)");
	if (job.c->kind == K_CLOSED) {
		close(job.fd); /* closed in our table only; the leader keeps its decoy */
	} else {
		fd = open_kind(job.c->kind, cur_env);
		if (fd != job.fd && dup2(fd, job.fd) != job.fd)
			setup_failed("dup2");
		if (fd != job.fd)
			close(fd);
	}
	do_link();
	return NULL;
}

static void on_sigusr1(int sig)
{
	int saved = errno;

	(void)sig;
	do_link();
	errno = saved;
}

static void send_fd(int sock, int fd)
{
	char data = 'f';
	struct iovec iov = { &data, 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg;
	struct cmsghdr *cm;

	memset(&msg, 0, sizeof(msg));
	memset(&u, 0, sizeof(u));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = u.buf;
	msg.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		setup_failed("sendmsg");
}

static int recv_fd(int sock)
{
	char data;
	struct iovec iov = { &data, 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg;
	struct cmsghdr *cm;
	int fd;

	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = u.buf;
	msg.msg_controllen = sizeof(u.buf);
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		setup_failed("recvmsg");
	cm = CMSG_FIRSTHDR(&msg);
	if (cm == NULL || cm->cmsg_type != SCM_RIGHTS) {
		errno = EIO;
		setup_failed("no fd received");
	}
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The file, opened by another process (a fork child, so other credentials) and received
 * over SCM_RIGHTS. */
static int receive_kind(const struct pcase *c, const struct env *e)
{
	int sv[2];
	int status;
	pid_t pid;
	int fd;

	if (c->kind == K_CLOSED)
		return open_kind(K_CLOSED, e);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		setup_failed("socketpair");
	pid = fork();
	if (pid < 0)
		setup_failed("fork");
	if (pid == 0) {
		send_fd(sv[1], open_kind(c->kind, e));
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		setup_failed("the SCM_RIGHTS sender");
	close(sv[0]);
	close(sv[1]);
	return fd;
}

static void wait_child(pid_t pid, const char *what)
{
	int status;

	if (pid < 0)
		setup_failed(what);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			setup_failed(what);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = EIO;
		setup_failed(what);
	}
}

static void keep_across_exec(int fd)
{
	if (fd >= 0 && fcntl(fd, F_SETFD, 0) != 0)
		setup_failed("clearing FD_CLOEXEC");
}

/* The file inherited across fork + execve: the driver itself, in exec-link mode, links it. */
static void run_exec(void)
{
	char fdarg[16], dirarg[16], resarg[16], entryarg[4], callarg[4];
	struct outcome o;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		setup_failed("pipe");
	snprintf(fdarg, sizeof(fdarg), "%d", job.fd);
	snprintf(dirarg, sizeof(dirarg), "%d", job.newdirfd);
	snprintf(resarg, sizeof(resarg), "%d", p[1]);
	snprintf(entryarg, sizeof(entryarg), "%d", (int)job.c->entry);
	snprintf(callarg, sizeof(callarg), "%d", (int)job.c->call);
	pid = fork();
	if (pid == 0) {
		char *const args[] = { (char *)argv0, (char *)"exec-link", entryarg, callarg,
				       (char *)job.c->tmpl, fdarg, dirarg,
				       (char *)job.newname, resarg, NULL };

		if (job.fd != CLOSED_FD)
			keep_across_exec(job.fd);
		if (job.newdirfd != AT_FDCWD && job.newdirfd != BAD_DIRFD)
			keep_across_exec(job.newdirfd);
		keep_across_exec(p[1]);
		execv(argv0, args);
		setup_failed("execv");
	}
	close(p[1]);
	if (token_read_full(p[0], &o, sizeof(o)) != 0) {
		errno = EIO;
		setup_failed("the exec'd linker");
	}
	close(p[0]);
	wait_child(pid, "the exec'd linker");
	sh->ret = o.ret;
	sh->err = o.err;
	sh->errno_kept = o.errno_kept;
	sh->called = 1;
}

static void run_context(const struct pcase *c)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	struct sigaction sa;
	pthread_t th;
	pid_t pid;

	switch (c->ctx) {
	case CTX_MAIN:
	case CTX_SCM:
		do_link();
		break;
	case CTX_THREAD:
	case CTX_THREAD_UNSHARED:
		errno = pthread_create(&th, NULL,
				       c->ctx == CTX_THREAD ? thread_link : thread_unshared_link,
				       NULL);
		if (errno != 0)
			setup_failed("pthread_create");
		pthread_join(th, NULL);
		break;
	case CTX_SIGNAL:
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigusr1;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL) != 0)
			setup_failed("sigaction");
		/* raise() delivers to this thread before it returns. */
		if (raise(SIGUSR1) != 0)
			setup_failed("raise");
		break;
	case CTX_FORK:
		pid = fork();
		if (pid == 0) {
			do_link();
			_exit(0);
		}
		wait_child(pid, "fork");
		break;
	case CTX_VFORK:
		pid = vfork();
		if (pid == 0) {
			do_link();
			_exit(0);
		}
		wait_child(pid, "vfork");
		break;
	case CTX_EXEC:
		run_exec();
		break;
	case CTX_SETUID:
		if (setuid(getuid()) != 0)
			setup_failed("setuid");
		do_link();
		break;
	case CTX_CAPSET:
		/* The same capabilities: a new credentials object all the same. */
		if (syscall(SYS_capget, &hdr, data) != 0 || syscall(SYS_capset, &hdr, data) != 0)
			setup_failed("capget/capset");
		do_link();
		break;
	case CTX_SETRESUID_NOOP:
		if (setresuid((uid_t)-1, (uid_t)-1, (uid_t)-1) != 0)
			setup_failed("setresuid");
		do_link();
		break;
	case CTX_FORK_OWN:
		pid = fork();
		if (pid == 0) {
			job.fd = open_kind(c->kind, cur_env);
			do_link();
			_exit(0);
		}
		wait_child(pid, "fork");
		break;
	case NCTX:
		break;
	}
}

/* ------------------------------------------------------------------------------------------ */
/* One case, in a process of its own. */

__attribute__((noreturn)) static void case_main(const struct pcase *c, int seq)
{
	static struct env e;
	struct token_thread sibling, stranger;
	int use_sibling = strstr(c->tmpl, "{S}") != NULL;
	int use_stranger = strstr(c->tmpl, "{X}") != NULL;
	pid_t other = -1;
	int fd = -1;

	alarm(CASE_ALARM);
	memset(&e, 0, sizeof(e));
	e.otherfd = -1;
	e.rofd = -1;
	cur_env = &e;
	snprintf(e.casedir, sizeof(e.casedir), "%s/c%d", scratch, seq);
	if (mkdir(e.casedir, 0755) != 0)
		setup_failed("mkdir of the case directory");
	e.casefd = open(e.casedir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Relative spellings then resolve in a directory with no proc/ in it. */
	if (e.casefd < 0 || chdir(e.casedir) != 0)
		setup_failed("the case directory");
	if (c->kind == K_OTHERFS || c->target == T_OTHERFS) {
		snprintf(e.otherdir, sizeof(e.otherdir), "%s/c%d", otherfs, seq);
		if (mkdir(e.otherdir, 0755) != 0)
			setup_failed("mkdir on the other filesystem");
		e.otherfd = open(e.otherdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e.otherfd < 0)
			setup_failed("the other filesystem");
	}
	prepare_target(c, &e);
	prepare_names(c->kind, &e);

	switch (ctxs[c->ctx].opener) {
	case OPEN_HERE:
		fd = place_kind(c, open_kind(c->kind, &e));
		break;
	case OPEN_IN_CONTEXT:
		if (c->ctx == CTX_THREAD_UNSHARED) {
			/* The leader holds a decoy at the number; the thread puts the file
			 * there in its own table. */
			fd = c->fixed_fd >= 0 ? c->fixed_fd : 3;
			while (fd_is_open(fd) && c->fixed_fd < 0)
				fd++;
			if (decoy_at(fd) != 0)
				setup_failed("decoy");
		}
		break;
	case OPEN_ELSEWHERE:
		fd = place_kind(c, receive_kind(c, &e));
		break;
	}

	memset(&job.ids, 0, sizeof(job.ids));
	if (strstr(c->tmpl, "{O}") != NULL)
		job.ids.other_pid = other = other_start(fd);
	if (use_sibling) {
		helper_start(&sibling, fd, 0);
		job.ids.sibling = sibling.tid;
	}
	if (use_stranger) {
		helper_start(&stranger, fd, 1);
		job.ids.stranger = stranger.tid;
	}
	job.c = c;
	job.fd = fd;
	job.newdirfd = e.newdirfd;
	job.newname = e.newname;

	/* The old-kernel simulation (the bats suites' filter) binds the case process from here
	 * on: the setup above may still use the direct form, and one driver serves every case. */
	if (oldkernel_sim && oldkernel_filter_install() != 0)
		setup_failed("installing the seccomp filter");
	inspect(&e, &sh->before);
	run_context(c);
	if (sh->called != 1) {
		if (sh->setup_error[0] == '\0')
			note_error("the linking context did not run");
		_exit(3);
	}
	inspect(&e, &sh->after);

	if (other > 0) {
		kill(other, SIGKILL);
		waitpid(other, NULL, 0);
	}
	if (e.rofd >= 0)
		fchmod(e.rofd, 0755);
	empty_dir(e.casefd);
	if (e.otherfd >= 0) {
		empty_dir(e.otherfd);
		rmdir(e.otherdir);
	}
	if (chdir("/") != 0 || rmdir(e.casedir) != 0)
		note_error("the case directory could not be removed");
	_exit(0);
}

static void format_disk(char *buf, size_t size, const struct disk *d, int stray)
{
	snprintf(buf, size, "exists=%d same_inode=%d nlink=%lu content=%s stray=%d", d->exists,
		 d->same_inode, d->nlink, content_name(d->content), stray);
}

static void run_one(const struct pcase *c, int seq)
{
	char eb[16], after[160], before[160], mb[200];
	int status;
	pid_t pid;
	int stray;

	memset(sh, 0, sizeof(*sh));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("%s\tsetup-error: fork: %s\n", c->id, errno_str(errno, eb, sizeof(eb)));
		return;
	}
	if (pid == 0)
		case_main(c, seq);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			printf("%s\tsetup-error: waitpid\n", c->id);
			return;
		}
	if (WIFSIGNALED(status)) {
		printf("%s\tsetup-error: the case process died of signal %d%s%s\n", c->id,
		       WTERMSIG(status), sh->setup_error[0] ? ": " : "", sh->setup_error);
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || sh->setup_error[0] != '\0') {
		printf("%s\tsetup-error: %s\n", c->id,
		       sh->setup_error[0] ? sh->setup_error : "the case process failed");
		return;
	}
	/* The new name, when the call made it, is expected; any other change is stray. */
	stray = sh->after.entries - sh->before.entries -
		(sh->after.exists && !sh->before.exists ? 1 : 0);
	format_disk(after, sizeof(after), &sh->after, stray);
	format_disk(before, sizeof(before), &sh->before, 0);
	printf("%s\tret=%ld errno=%s %s\t%s\t%s\n", c->id, sh->ret,
	       sh->ret == 0 ? (sh->errno_kept ? "kept" : errno_str(sh->err, eb, sizeof(eb)))
			    : errno_str(sh->err, eb, sizeof(eb)),
	       after, mark(c, mb, sizeof(mb)), before);
}

/* ------------------------------------------------------------------------------------------ */
/* The matrix. */

/* A case id: no blank, tab, newline or '#' (TAP reads a directive after '#'). */
static void append_sanitized(char *out, size_t size, const char *s)
{
	size_t o = strlen(out);

	for (; *s != '\0' && o + 4 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch > 0x20 && ch < 0x7f && ch != '#' && ch != '%')
			out[o++] = (char)ch;
		else
			o += (size_t)snprintf(out + o, size - o, "%%%02X", ch);
	}
	out[o] = '\0';
}

static void add_case(const char *tmpl, enum procfd_owner owner, const struct procfd_case *spec,
		     enum ctx ctx, enum kind kind, enum target target, enum entry entry,
		     enum call call)
{
	struct pcase *c;
	int i;

	if (ncases >= MAX_CASES) {
		fprintf(stderr, "parity_driver: more than %d cases\n", MAX_CASES);
		exit(2);
	}
	/* The table's templates are expanded with snprintf: not where only async-signal-safe
	 * code may run. And a file opened by another task must not rename anything after the
	 * "before" snapshot. Both are mistakes in this file, not in the library. */
	if ((spec != NULL && ctxs[ctx].async_safe_only) ||
	    (ctxs[ctx].opener != OPEN_HERE && !kinds[kind].portable)) {
		fprintf(stderr, "parity_driver: case %s/%s/%s cannot be built\n", tmpl,
			ctxs[ctx].name, kinds[kind].name);
		exit(2);
	}
	c = &cases[ncases];
	memset(c, 0, sizeof(*c));
	if (spec != NULL)
		snprintf(c->id, sizeof(c->id), "t%03d:", (int)(spec - procfd_cases));
	snprintf(c->id + strlen(c->id), sizeof(c->id) - strlen(c->id), "%s:%s:%s:%s:%s:",
		 ctxs[ctx].name, kinds[kind].name, target_names[target], entry_names[entry],
		 call_names[call]);
	append_sanitized(c->id, sizeof(c->id), tmpl);
	/* The groups overlap on their defaults: keep one of each. */
	for (i = 0; i < ncases; i++)
		if (strcmp(cases[i].id, c->id) == 0)
			return;
	c->tmpl = tmpl;
	c->spec = spec;
	c->owner = owner;
	c->gap = spec != NULL && spec->gap != NULL;
	c->fixed_fd = spec != NULL && spec->fd >= 0 && spec->fd <= 2 ? spec->fd : -1;
	c->ctx = ctx;
	c->kind = kind;
	c->target = target;
	c->entry = entry;
	c->call = call;
	ncases++;
}

/* The spellings the contexts are crossed with, and whose table each names. */
static const struct {
	const char *tmpl;
	enum procfd_owner owner;
} ctx_spellings[] = {
	{ "/proc/self/fd/{F}", PROCFD_LEADER },
	{ "/proc/thread-self/fd/{F}", PROCFD_CALLER },
	{ "/proc/{P}/fd/{F}", PROCFD_LEADER },
	{ "/proc/self/task/{T}/fd/{F}", PROCFD_CALLER },
	{ "/dev/fd/{F}", PROCFD_LEADER },
};
#define IDIOM "/proc/self/fd/{F}"

static void build_matrix(void)
{
	static const enum kind ctx_kinds[] = { K_TMPFILE_EXCL, K_NAMED, K_DIR, K_CLOSED };
	static const enum target core_targets[] = { T_NEW, T_EXISTING, T_MISSING_DIR,
						    T_READONLY_DIR, T_OTHERFS };
	static const enum target ctx_targets[] = { T_EXISTING, T_MISSING_DIR, T_OTHERFS };
	int i, j, e, k, x;

	/* 1. Every spelling of the classifier's table (accepted and near misses) x entry
	 * point: from the leader, or from a second thread both sharing the fd table and with
	 * a table of its own. */
	for (i = 0; i < PROCFD_NCASES; i++) {
		const struct procfd_case *s = &procfd_cases[i];

		for (e = 0; e < NENTRY; e++) {
			if (s->caller == PROCFD_BY_LEADER) {
				add_case(s->tmpl, s->owner, s, CTX_MAIN, K_TMPFILE, T_NEW,
					 (enum entry)e, CALL_FOLLOW);
			} else {
				add_case(s->tmpl, s->owner, s, CTX_THREAD, K_TMPFILE, T_NEW,
					 (enum entry)e, CALL_FOLLOW);
				add_case(s->tmpl, s->owner, s, CTX_THREAD_UNSHARED, K_TMPFILE,
					 T_NEW, (enum entry)e, CALL_FOLLOW);
			}
		}
	}
	/* 1b. The shapes that go on past the magic link (a trailing slash, "/.", "/..", one
	 * more component) depend on what the fd is: a directory can be walked, the rest is
	 * ENOTDIR, a closed fd is ENOENT. */
	for (i = 0; i < PROCFD_NCASES; i++) {
		const struct procfd_case *s = &procfd_cases[i];

		if (s->caller != PROCFD_BY_LEADER || strncmp(s->tmpl, IDIOM "/", 18) != 0)
			continue;
		add_case(s->tmpl, s->owner, s, CTX_MAIN, K_DIR, T_NEW, VIA_LINKAT, CALL_FOLLOW);
		add_case(s->tmpl, s->owner, s, CTX_MAIN, K_OPATH, T_NEW, VIA_LINKAT, CALL_FOLLOW);
		add_case(s->tmpl, s->owner, s, CTX_MAIN, K_CLOSED, T_NEW, VIA_LINKAT,
			 CALL_FOLLOW);
	}
	/* 2. fd kind x target, the idiom from the main thread. */
	for (k = 0; k < NKIND; k++)
		for (j = 0; j < (int)(sizeof(core_targets) / sizeof(core_targets[0])); j++)
			add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, (enum kind)k,
				 core_targets[j], VIA_LINKAT, CALL_FOLLOW);
	for (k = 0; k < NKIND; k++)
		add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, (enum kind)k, T_NEW, VIA_SYSCALL,
			 CALL_FOLLOW);
	for (j = 0; j < NTARGET; j++)
		for (e = 0; e < NENTRY; e++)
			add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, K_TMPFILE, (enum target)j,
				 (enum entry)e, CALL_FOLLOW);
	/* 3. context x spelling x entry point; then context x target and context x kind. */
	for (x = 0; x < NCTX; x++) {
		for (i = 0; i < (int)(sizeof(ctx_spellings) / sizeof(ctx_spellings[0])); i++)
			for (e = 0; e < NENTRY; e++)
				add_case(ctx_spellings[i].tmpl, ctx_spellings[i].owner, NULL,
					 (enum ctx)x, K_TMPFILE, T_NEW, (enum entry)e,
					 CALL_FOLLOW);
		for (j = 0; j < (int)(sizeof(ctx_targets) / sizeof(ctx_targets[0])); j++)
			add_case(IDIOM, PROCFD_LEADER, NULL, (enum ctx)x, K_TMPFILE,
				 ctx_targets[j], VIA_LINKAT, CALL_FOLLOW);
		for (k = 0; k < (int)(sizeof(ctx_kinds) / sizeof(ctx_kinds[0])); k++)
			add_case(IDIOM, PROCFD_LEADER, NULL, (enum ctx)x, ctx_kinds[k], T_NEW,
				 VIA_LINKAT, CALL_FOLLOW);
	}
	/* 4. Calls that are not the idiom (other flags, the direct form itself): passed
	 * through, from the leader and from a fork child, for an open and a closed fd. */
	for (k = 1; k < NCALL; k++)
		for (e = 0; e < NENTRY; e++) {
			add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, K_TMPFILE, T_NEW,
				 (enum entry)e, (enum call)k);
			add_case(IDIOM, PROCFD_LEADER, NULL, CTX_FORK, K_TMPFILE, T_NEW,
				 (enum entry)e, (enum call)k);
			add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, K_CLOSED, T_NEW,
				 (enum entry)e, (enum call)k);
		}
	for (j = 0; j < (int)(sizeof(ctx_targets) / sizeof(ctx_targets[0])); j++) {
		add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, K_TMPFILE, ctx_targets[j],
			 VIA_LINKAT, CALL_DIRECT);
		add_case(IDIOM, PROCFD_LEADER, NULL, CTX_MAIN, K_TMPFILE, ctx_targets[j],
			 VIA_LINKAT, CALL_NOFOLLOW);
	}
}

/* ------------------------------------------------------------------------------------------ */
/* The world. */

static int has_dac_read_search(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return 0;
	return (data[CAP_TO_INDEX(CAP_DAC_READ_SEARCH)].effective &
		CAP_TO_MASK(CAP_DAC_READ_SEARCH)) != 0;
}

static int kernel_at_least(int want_major, int want_minor)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > want_major || (major == want_major && minor >= want_minor);
}

static const char *proc_state(void)
{
	struct statfs sfs;
	char self[32], want[32];
	ssize_t n;

	if (statfs("/proc", &sfs) != 0)
		return "absent";
	if (sfs.f_type == PROC_SUPER_MAGIC_VALUE) {
		/* /proc/<getpid()> only means us when /proc belongs to our pid namespace: a
		 * reference made through another one would measure other spellings. */
		n = readlink("/proc/self", self, sizeof(self) - 1);
		snprintf(want, sizeof(want), "%ld", (long)getpid());
		if (n <= 0 || (self[n] = '\0', strcmp(self, want) != 0))
			return "mounted-for-another-pid-namespace";
		return "mounted";
	}
	if (sfs.f_type == TMPFS_MAGIC_VALUE)
		return "hidden";
	return "other";
}

/* Does the direct form work here, for a file this process opened? In a child, under the
 * filter when the world has one: the runner checks that the simulation is really on. */
static const char *probe_direct(void)
{
	char eb[16];
	char path[PATH_MAX + 32];
	int status;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	pid = fork();
	if (pid == 0) {
		int fd = open(scratch, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

		if (fd < 0)
			_exit(2);
		if (oldkernel_sim && oldkernel_filter_install() != 0)
			_exit(3);
		errno = 0;
		snprintf(path, sizeof(path), "%s/probe-direct", scratch);
		sh->ret = linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH);
		sh->err = errno;
		if (sh->ret == 0)
			unlink(path);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return "unknown";
	if (WEXITSTATUS(status) == 3)
		return "no-filter";
	if (WEXITSTATUS(status) != 0)
		return "unknown";
	return sh->ret == 0 ? "ok" : errno_str(sh->err, eb, sizeof(eb));
}

/* exec-link ENTRY CALL TEMPLATE FD NEWDIRFD NEWNAME RESULTFD */
static int exec_link_main(char **argv)
{
	char path[PATH_BUF];
	struct outcome o;
	int fd = atoi(argv[5]);
	int resfd = atoi(argv[8]);

	memset(&o, 0, sizeof(o));
	if (expand_safe(argv[4], fd, getpid(), token_tid(), path, sizeof(path)) < 0)
		return 2;
	call_now((enum entry)atoi(argv[2]), (enum call)atoi(argv[3]), fd, path, atoi(argv[6]),
		 argv[7], &o);
	return write(resfd, &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 2;
}

static void usage(void)
{
	fputs("usage: parity_driver run SCRATCH OTHERFS [oldkernel]\n"
	      "       parity_driver exec-link ENTRY CALL TEMPLATE FD NEWDIRFD NEWNAME RESULTFD\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct utsname u;
	int i;

	argv0 = argv[0];
	if (argc == 9 && strcmp(argv[1], "exec-link") == 0)
		return exec_link_main(argv);
	if (argc < 4 || argc > 5 || strcmp(argv[1], "run") != 0)
		usage();
	if (argc == 5 && strcmp(argv[4], "oldkernel") != 0)
		usage();
	/* The exec context re-executes this file by name: no /proc/self/exe here. */
	if (argv0[0] != '/') {
		fputs("parity_driver: run me by an absolute path\n", stderr);
		return 2;
	}
	scratch = argv[2];
	otherfs = argv[3];
	oldkernel_sim = argc == 5;
	privileged = has_dac_read_search();
	kernel_flink = kernel_at_least(6, 10);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("parity_driver: mmap");
		return 2;
	}
	build_matrix();
	if (uname(&u) != 0)
		strcpy(u.release, "unknown");
	printf("# world uid=%ld cap_dac_read_search=%d proc=%s shim=%s seccomp=%s direct=%s "
	       "kernel=%s cases=%d\n",
	       (long)getuid(), privileged, proc_state(),
	       dlsym(RTLD_DEFAULT, "flinkat") != NULL ? "loaded" : "absent",
	       oldkernel_sim ? (oldkernel_filter_supported ? "on" : "unsupported") : "off",
	       probe_direct(), u.release, ncases);
	for (i = 0; i < ncases; i++)
		run_one(&cases[i], i);
	fflush(stdout);
	return 0;
}
