/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * legacy_link: behaves like a program written for the old kernel rule, which gives an open
 * file a name through /proc (the idiom of the open(2) man page's O_TMPFILE example):
 *
 *     fd = open(dir, O_TMPFILE | O_RDWR, 0644); write(fd, ...);
 *     linkat(AT_FDCWD, "/proc/self/fd/N", newdirfd, name, AT_SYMLINK_FOLLOW);
 *
 * Real programs do this from many places, and each is a separate risk for the shim: another
 * thread (/proc/self is the leader, not the caller), a signal handler (only async-signal-safe
 * code may run), a fork() child (the fd was opened under the parent's credentials, so the
 * kernel refuses the direct form for an unprivileged caller), a vfork() child (shares the
 * parent's memory and stack), and through syscall(SYS_linkat, ...) rather than linkat().
 *
 * Usage: legacy_link [options] DIR NAME...
 *   -p, --path=TEMPLATE  the oldpath spelling: %d is the fd, %p getpid() and %t gettid(),
 *                        both taken where the link happens; %P the pid of the process that
 *                        opened the file (a path made before fork); %s the tid of another
 *                        thread of ours that shares the fd table (started for the purpose,
 *                        idle until exit), %x the tid of one that unshared it and holds
 *                        another file at the same fd; %% is a percent sign.
 *                        Default: /proc/self/fd/%d
 *   -w, --where=WHERE    main (default), thread, signal (a SIGUSR1 handler), fork (a child
 *                        links the parent's fd), vfork, thread-fork (a fork child of a
 *                        second thread: its only thread is not the original leader)
 *   -e, --entry=ENTRY    linkat (default), syscall (syscall(SYS_linkat, ...)), or direct:
 *                        linkat(fd, "", newdirfd, name, AT_EMPTY_PATH) itself, to ask the
 *                        running kernel whether it allows the direct form here
 *   -k, --kind=KIND      what the fd is:
 *                          tmpfile       O_TMPFILE, written (the default)
 *                          tmpfile-excl  O_TMPFILE | O_EXCL: never linkable
 *                          closed        a descriptor number that is not open
 *                          named         a regular file, DIR/<first NAME>.orig
 *                          opath         an O_PATH descriptor of such a named file
 *                          symlink       an O_PATH | O_NOFOLLOW descriptor of a symlink,
 *                                        DIR/<first NAME>.orig, to such a named file
 *                          unlinked      a named file, unlinked again before the call
 *                          dir           DIR itself, opened O_RDONLY | O_DIRECTORY
 *                          pipe          the read end of a pipe holding the content
 *                          memfd         a memfd_create() file holding the content
 *   -c, --content=TEXT   what the file holds (default "legacy_link\n")
 *   -n, --fd=N           move the file to descriptor N first (dup2)
 *   -o, --olddirfd=N     pass N as olddirfd instead of AT_FDCWD (ignored by the kernel for an
 *                        absolute oldpath, bad or not)
 *   -d, --newdirfd=N     pass N as newdirfd instead of an fd of DIR
 *   -u, --setuid-self    setuid(getuid()) after opening the file: the same ids, but a new
 *                        credentials object, so the kernel treats the fd as opened by
 *                        someone else (Linux >= 6.10's rule compares the objects)
 *   -x, --exec           after opening the file, execv() this program again with the fd
 *                        inherited, and link there: an fd kept across execve
 * The file is created in DIR; each NAME (relative to newdirfd) gets one link call, in order.
 *
 * Output: one line per NAME, "linkat=0" or "linkat=-1 errno=ENOENT". A success is followed
 * by " errno-clobbered" if errno was not left as it was (the linkat() contract), and by
 * " inode-mismatch" if NAME is not the very file that was open.
 * Exit status: 0 if every call succeeded, 1 if one failed, 2 for a usage or setup error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"
#include "token_actors.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Not an errno value: if it is still there after a successful call, nobody touched errno. */
#define ERRNO_SENTINEL 31337

#define MAX_NAMES 16
#define PATH_BYTES 4096 /* PATH_MAX: room for any path the kernel would accept */

enum where { IN_MAIN, IN_THREAD, IN_SIGNAL, IN_FORK, IN_VFORK, IN_THREAD_FORK };
enum entry { VIA_LINKAT, VIA_SYSCALL, VIA_DIRECT };
enum kind {
	TMPFILE, TMPFILE_EXCL, CLOSED, NAMED, OPATH, SYMLINK, UNLINKED, DIRECTORY, PIPE, MEMFD,
	INHERITED
};

struct outcome {
	long ret;
	int err;
	int clobbered;
	int mismatch;
	int setup_failed; /* the template did not fit */
};

/* Everything the linking context needs, prepared beforehand: a signal handler or a vfork
 * child must not allocate or parse. */
static struct {
	const char *template;
	enum entry entry;
	int fd;
	int olddirfd;
	int dirfd;
	pid_t opener;
	long sibling;  /* %s */
	long stranger; /* %x */
	int nnames;
	const char *names[MAX_NAMES];
	struct stat file_st;
	int have_st;
	/* MAP_SHARED, so that a fork() child's results reach the parent. */
	struct shared {
		volatile sig_atomic_t ran;
		struct outcome out[MAX_NAMES];
	} *shared;
} job;

static pid_t current_tid(void)
{
	/* syscall() here would be the shim's syscall(): harmless, but keep the test's own
	 * machinery out of what is tested where we can. Only glibc's gettid() asks the kernel:
	 * musl's returns the tid cached in the thread descriptor, the parent's in a vfork
	 * child. */
#if defined(HAVE_GETTID) && defined(__GLIBC__)
	return gettid();
#else
	return (pid_t)syscall(SYS_gettid);
#endif
}

/* %x: another file, "other\n", at the fd's number in the thread's own table. */
static const char *other_dir;

static int other_file_at(int slot)
{
	int fd = open(other_dir, O_TMPFILE | O_RDWR, 0600);

	if (fd < 0 || write(fd, "other\n", 6) != 6)
		return -1;
	if (fd != slot) {
		if (dup2(fd, slot) < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* Async-signal-safe decimal formatting: the template is expanded where the link happens. */
static int put_number(char *buf, size_t size, size_t *len, long n)
{
	char digits[24];
	int i = 0;
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	do {
		digits[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (n < 0)
		digits[i++] = '-';
	while (i > 0) {
		if (*len + 1 >= size)
			return -1;
		buf[(*len)++] = digits[--i];
	}
	return 0;
}

static int expand(const char *t, int fd, char *buf, size_t size)
{
	size_t len = 0;

	for (; *t != '\0'; t++) {
		int r = 0;

		if (t[0] == '%' && t[1] == 'd')
			r = put_number(buf, size, &len, fd), t++;
		else if (t[0] == '%' && t[1] == 'p')
			r = put_number(buf, size, &len, getpid()), t++;
		else if (t[0] == '%' && t[1] == 't')
			r = put_number(buf, size, &len, current_tid()), t++;
		else if (t[0] == '%' && t[1] == 'P')
			r = put_number(buf, size, &len, job.opener), t++;
		else if (t[0] == '%' && t[1] == 's')
			r = put_number(buf, size, &len, job.sibling), t++;
		else if (t[0] == '%' && t[1] == 'x')
			r = put_number(buf, size, &len, job.stranger), t++;
		else if (t[0] == '%' && t[1] == '%')
			buf[len++] = '%', t++;
		else
			buf[len++] = *t;
		if (r != 0 || len + 1 >= size)
			return -1;
	}
	buf[len] = '\0';
	return 0;
}

/* The link calls themselves. Async-signal-safe and vfork-safe: no allocation, no stdio. */
static void do_links(void)
{
	char path[PATH_BYTES];
	int i;

	for (i = 0; i < job.nnames; i++) {
		struct outcome *o = &job.shared->out[i];
		struct stat st;

		if (expand(job.template, job.fd, path, sizeof(path)) != 0) {
			o->setup_failed = 1;
			continue;
		}
		errno = ERRNO_SENTINEL;
		switch (job.entry) {
		case VIA_LINKAT:
			o->ret = linkat(job.olddirfd, path, job.dirfd, job.names[i], AT_SYMLINK_FOLLOW);
			break;
		case VIA_SYSCALL:
			/* Plain ints, as real programs pass them: the upper halves of the argument
			 * registers are then undefined, and a syscall() wrapper must read the dirfds
			 * and flags as int (libfaketime's argument-promotion bug). */
			o->ret = syscall(SYS_linkat, job.olddirfd, path, job.dirfd, job.names[i],
					 AT_SYMLINK_FOLLOW);
			break;
		case VIA_DIRECT:
			o->ret = linkat(job.fd, "", job.dirfd, job.names[i], AT_EMPTY_PATH);
			break;
		}
		o->err = errno;
		if (o->ret == 0) {
			o->clobbered = o->err != ERRNO_SENTINEL;
			o->mismatch = !job.have_st ||
				      fstatat(job.dirfd, job.names[i], &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				      st.st_ino != job.file_st.st_ino || st.st_dev != job.file_st.st_dev;
		}
	}
	job.shared->ran = 1;
}

static void on_sigusr1(int sig)
{
	int saved = errno;

	(void)sig;
	do_links();
	errno = saved;
}

static void *thread_main(void *arg)
{
	(void)arg;
	do_links();
	return NULL;
}

static void wait_child(pid_t pid, const char *what);

static void *thread_fork_main(void *arg)
{
	pid_t pid;

	(void)arg;
	pid = fork();
	if (pid == 0) {
		do_links();
		_exit(0);
	}
	wait_child(pid, "thread-fork child");
	return NULL;
}

static void die(const char *what)
{
	fprintf(stderr, "legacy_link: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void usage(void)
{
	fputs("usage: legacy_link [-p TEMPLATE] [-w main|thread|signal|fork|vfork|thread-fork]\n"
	      "                   [-e linkat|syscall|direct]\n"
	      "                   [-k tmpfile|tmpfile-excl|closed|named|opath|symlink|unlinked|\n"
	      "                       dir|pipe|memfd]\n"
	      "                   [-c CONTENT] [-n FD] [-o OLDDIRFD] [-d NEWDIRFD] [-u] [-x]\n"
	      "                   DIR NAME...\n", stderr);
	exit(2);
}

static int pick(const char *arg, const char *const *words)
{
	int i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(arg, words[i]) == 0)
			return i;
	fprintf(stderr, "legacy_link: unknown word '%s'\n", arg);
	usage();
	return -1;
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		s += n;
		len -= (size_t)n;
	}
}

/* The descriptor to link, of the kind asked for, holding content where it is a file. */
static int open_file(const char *dir, enum kind kind, const char *first_name, const char *content)
{
	char name[PATH_BYTES];
	int fd = -1;

	if ((kind == NAMED || kind == OPATH || kind == SYMLINK || kind == UNLINKED) &&
	    snprintf(name, sizeof(name), "%s.orig", first_name) >= (int)sizeof(name)) {
		errno = ENAMETOOLONG;
		die("named file");
	}
	switch (kind) {
	case TMPFILE:
	case CLOSED:
		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
		break;
	case TMPFILE_EXCL:
		fd = open(dir, O_TMPFILE | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
		break;
	case NAMED:
	case OPATH:
	case UNLINKED:
		fd = openat(job.dirfd, name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
		break;
	case SYMLINK: {
		char target[PATH_BYTES + 8];

		snprintf(target, sizeof(target), "%s.target", name);
		fd = openat(job.dirfd, target, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
		if (fd < 0 || symlinkat(target, job.dirfd, name) != 0)
			die("symlink");
		write_all(fd, content);
		close(fd);
		fd = openat(job.dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			die("O_PATH | O_NOFOLLOW");
		return fd;
	}
	case DIRECTORY:
		return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	case PIPE: {
		int p[2];

		if (pipe2(p, O_CLOEXEC) != 0)
			die("pipe");
		write_all(p[1], content);
		close(p[1]);
		return p[0];
	}
	case MEMFD:
		fd = memfd_create("legacy_link", MFD_CLOEXEC);
		break;
	case INHERITED:
		break;
	}
	if (fd < 0)
		die("open");
	write_all(fd, content);
	if (kind == OPATH) {
		int path_fd = openat(job.dirfd, name, O_PATH | O_CLOEXEC);

		if (path_fd < 0)
			die("O_PATH");
		close(fd);
		fd = path_fd;
	}
	if (kind == UNLINKED && unlinkat(job.dirfd, name, 0) != 0)
		die("unlink");
	return fd;
}

static int move_fd(int fd, int want)
{
	if (want < 0 || want == fd)
		return fd;
	if (dup2(fd, want) != want)
		die("dup2");
	close(fd);
	return want;
}

static void wait_child(pid_t pid, const char *what)
{
	int status;

	if (pid < 0)
		die(what);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die(what);
}

static void run_in(enum where where)
{
	static const char *const where_name[] = { "main", "thread", "signal", "fork", "vfork",
						  "thread-fork" };
	pthread_t th;
	struct sigaction sa;
	pid_t pid;

	switch (where) {
	case IN_MAIN:
		do_links();
		break;
	case IN_THREAD:
	case IN_THREAD_FORK:
		errno = pthread_create(&th, NULL, where == IN_THREAD ? thread_main : thread_fork_main,
				       NULL);
		if (errno != 0)
			die("pthread_create");
		pthread_join(th, NULL);
		break;
	case IN_SIGNAL:
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigusr1;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL) != 0)
			die("sigaction");
		/* raise() delivers to this thread before it returns. */
		if (raise(SIGUSR1) != 0)
			die("raise");
		break;
	case IN_FORK:
		pid = fork();
		if (pid == 0) {
			do_links();
			_exit(0);
		}
		wait_child(pid, "fork child");
		break;
	case IN_VFORK:
		pid = vfork();
		if (pid == 0) {
			do_links();
			_exit(0);
		}
		wait_child(pid, "vfork child");
		break;
	}
	if (!job.shared->ran) {
		fprintf(stderr, "legacy_link: the link never ran in the %s context\n",
			where_name[where]);
		exit(2);
	}
}

/* --exec: run this program again, the file at the same fd number, kept across execve. */
static void exec_again(char **argv, int fd)
{
	char fd_arg[32];
	char *args[64];
	int i, n = 0;

	snprintf(fd_arg, sizeof(fd_arg), "--inherited-fd=%d", fd);
	args[n++] = argv[0];
	args[n++] = fd_arg;
	for (i = 1; argv[i] != NULL && n < 62; i++)
		if (strcmp(argv[i], "-x") != 0 && strcmp(argv[i], "--exec") != 0)
			args[n++] = argv[i];
	args[n] = NULL;
	if (fcntl(fd, F_SETFD, 0) != 0)
		die("fcntl");
	execv(argv[0], args);
	die(argv[0]);
}

/* A thread of ours for %s or %x, idle until the program exits; its tid. */
static long start_thread(struct token_thread *t, token_fill_fn own_table)
{
	if (token_thread_start(t, job.fd, own_table) != 0)
		die("starting a thread for %s or %x");
	if (t->err != 0) {
		errno = t->err;
		die("a thread with its own fd table");
	}
	return t->tid;
}

int main(int argc, char **argv)
{
	static const char *const where_words[] = { "main", "thread", "signal", "fork", "vfork",
						   "thread-fork", NULL };
	static const char *const entry_words[] = { "linkat", "syscall", "direct", NULL };
	static const char *const kind_words[] = { "tmpfile", "tmpfile-excl", "closed", "named",
						  "opath", "symlink", "unlinked", "dir", "pipe",
						  "memfd", NULL };
	static const struct option options[] = {
		{ "path", required_argument, NULL, 'p' },
		{ "where", required_argument, NULL, 'w' },
		{ "entry", required_argument, NULL, 'e' },
		{ "kind", required_argument, NULL, 'k' },
		{ "content", required_argument, NULL, 'c' },
		{ "fd", required_argument, NULL, 'n' },
		{ "olddirfd", required_argument, NULL, 'o' },
		{ "newdirfd", required_argument, NULL, 'd' },
		{ "setuid-self", no_argument, NULL, 'u' },
		{ "exec", no_argument, NULL, 'x' },
		/* Internal: set by --exec for the second image. */
		{ "inherited-fd", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 }
	};
	enum where where = IN_MAIN;
	enum kind kind = TMPFILE;
	const char *content = "legacy_link\n";
	int want_fd = -1, newdirfd = -1, inherited = -1;
	int setuid_self = 0, exec = 0;
	struct token_thread sibling, stranger;
	int failed = 0;
	int opt;
	int i;

	job.template = "/proc/self/fd/%d";
	job.entry = VIA_LINKAT;
	job.olddirfd = AT_FDCWD;
	job.opener = getpid();
	while ((opt = getopt_long(argc, argv, "p:w:e:k:c:n:o:d:ux", options, NULL)) != -1) {
		switch (opt) {
		case 'p': job.template = optarg; break;
		case 'w': where = (enum where)pick(optarg, where_words); break;
		case 'e': job.entry = (enum entry)pick(optarg, entry_words); break;
		case 'k': kind = (enum kind)pick(optarg, kind_words); break;
		case 'c': content = optarg; break;
		case 'n': want_fd = atoi(optarg); break;
		case 'o': job.olddirfd = atoi(optarg); break;
		case 'd': newdirfd = atoi(optarg); break;
		case 'u': setuid_self = 1; break;
		case 'x': exec = 1; break;
		case 'I': inherited = atoi(optarg); break;
		default: usage();
		}
	}
	if (argc - optind < 2 || argc - optind - 1 > MAX_NAMES)
		usage();
	job.nnames = argc - optind - 1;
	for (i = 0; i < job.nnames; i++)
		job.names[i] = argv[optind + 1 + i];

	job.dirfd = open(argv[optind], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (job.dirfd < 0)
		die(argv[optind]);
	if (inherited >= 0) {
		job.fd = inherited;
		kind = INHERITED;
	} else {
		job.fd = move_fd(open_file(argv[optind], kind, job.names[0], content), want_fd);
	}
	job.have_st = fstat(job.fd, &job.file_st) == 0;
	if (kind == CLOSED) {
		close(job.fd);
		job.have_st = 0;
	}
	if (exec)
		exec_again(argv, job.fd);
	if (setuid_self && setuid(getuid()) != 0)
		die("setuid");
	if (newdirfd >= 0)
		job.dirfd = newdirfd;

	if (strstr(job.template, "%s") != NULL)
		job.sibling = start_thread(&sibling, NULL);
	if (strstr(job.template, "%x") != NULL) {
		other_dir = argv[optind];
		job.stranger = start_thread(&stranger, other_file_at);
	}

	job.shared = mmap(NULL, sizeof(*job.shared), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (job.shared == MAP_FAILED)
		die("mmap");
	run_in(where);

	for (i = 0; i < job.nnames; i++) {
		const struct outcome *o = &job.shared->out[i];

		if (o->setup_failed) {
			fprintf(stderr, "legacy_link: template too long: %s\n", job.template);
			return 2;
		}
		if (o->ret == 0) {
			printf("linkat=0%s%s\n", o->clobbered ? " errno-clobbered" : "",
			       o->mismatch ? " inode-mismatch" : "");
			failed |= o->clobbered || o->mismatch;
		} else {
			printf("linkat=%ld errno=%s\n", o->ret, errno_name(o->err));
			failed = 1;
		}
	}
	return failed ? 1 : 0;
}
