/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Many threads doing the legacy idiom at once, with fork children doing it too, and a signal
 * handler that does it in the middle of everyone's calls. Every name must hold the file that
 * was linked under it, errno must be left alone by every successful call, and the fd table
 * must end as it began.
 * usage: stress DIR [THREADS [ITERATIONS]]   (defaults 8 and 10000)
 * Prints a summary; exit 0 only if nothing went wrong.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENTINEL 7777

static int dirfd_;
static int iterations = 10000;
static long failures, errno_clobbered, links_done, handler_links, fork_links;

/* Write "<tag>" into a fresh O_TMPFILE, link it by the idiom under name, check the name
 * holds exactly that file, remove the name. Only async-signal-safe calls: the signal handler
 * uses it too. Returns 0 on success. */
static int one_link(const char *tag, const char *name, int use_thread_self)
{
	char path[64], buf[64];
	size_t len = strlen(tag);
	struct stat a, b;
	int fd, rfd, ok = 0;
	ssize_t n;
	char *p;
	int v;

	fd = openat(dirfd_, ".", O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, tag, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	/* "/proc/self/fd/" or "/proc/thread-self/fd/", then the number: no stdio in a handler. */
	strcpy(path, use_thread_self ? "/proc/thread-self/fd/" : "/proc/self/fd/");
	p = path + strlen(path);
	v = fd;
	n = 0;
	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = buf[--n];
	*p = '\0';
	errno = SENTINEL;
	if (linkat(AT_FDCWD, path, dirfd_, name, AT_SYMLINK_FOLLOW) == 0) {
		if (errno != SENTINEL)
			__atomic_add_fetch(&errno_clobbered, 1, __ATOMIC_RELAXED);
		rfd = openat(dirfd_, name, O_RDONLY);
		n = rfd >= 0 ? read(rfd, buf, sizeof(buf)) : -1;
		ok = rfd >= 0 && fstat(fd, &a) == 0 && fstat(rfd, &b) == 0 && a.st_ino == b.st_ino &&
		     n == (ssize_t)len && memcmp(buf, tag, len) == 0;
		if (rfd >= 0)
			close(rfd);
		unlinkat(dirfd_, name, 0);
	}
	close(fd);
	return ok ? 0 : -1;
}

static long handler_seq;

static void on_signal(int sig)
{
	int saved = errno;
	char name[32] = "sig-", digits[24];
	long n = __atomic_add_fetch(&handler_seq, 1, __ATOMIC_RELAXED);
	int len = 0, at = 4;

	(void)sig;
	/* A name of its own per delivery (several threads take signals at once). */
	do {
		digits[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n != 0);
	while (len > 0)
		name[at++] = digits[--len];
	name[at] = '\0';
	if (one_link("from the handler", name, 0) != 0)
		__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&handler_links, 1, __ATOMIC_RELAXED);
	errno = saved;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	char tag[48], name[48];
	int i;

	for (i = 0; i < iterations; i++) {
		snprintf(tag, sizeof(tag), "thread %ld iteration %d", id, i);
		snprintf(name, sizeof(name), "w%ld-%d", id, i);
		if (one_link(tag, name, i % 2) != 0)
			__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&links_done, 1, __ATOMIC_RELAXED);
		/* A fork now and then, while the other threads keep linking: the child must be
		 * able to link its own files (no lock held across fork can hang it). */
		if (i % 1000 == 500) {
			pid_t pid;
			int status;

			snprintf(name, sizeof(name), "forked-%ld-%d", id, i);
			pid = fork();
			if (pid == 0)
				_exit(one_link("from a fork child", name, 0) == 0 ? 0 : 1);
			if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0)
				__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
			else
				__atomic_add_fetch(&fork_links, 1, __ATOMIC_RELAXED);
		}
		if (i % 97 == 0)
			pthread_kill(pthread_self(), SIGUSR1);
	}
	return NULL;
}

static int count_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			n++;
	return n;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	pthread_t *t;
	int threads = 8, i, fds_before, fds_after;

	if (argc < 2 || (dirfd_ = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0)
		return 2;
	if (argc > 2)
		threads = atoi(argv[2]);
	if (argc > 3)
		iterations = atoi(argv[3]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	fds_before = count_fds();
	t = calloc((size_t)threads, sizeof(*t));
	if (t == NULL)
		return 2;
	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	fds_after = count_fds();
	printf("links=%ld handler_links=%ld fork_links=%ld failures=%ld errno_clobbered=%ld "
	       "fds_before=%d fds_after=%d\n",
	       links_done, handler_links, fork_links, failures, errno_clobbered, fds_before,
	       fds_after);
	return failures == 0 && errno_clobbered == 0 && fds_before == fds_after &&
			       links_done == (long)threads * iterations && handler_links > 0
		       ? 0
		       : 1;
}
