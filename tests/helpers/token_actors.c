/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "config.h"

#include "token_actors.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

long token_tid(void)
{
#if defined(HAVE_GETTID) && defined(__GLIBC__)
	return gettid();
#else
	return syscall(SYS_gettid);
#endif
}

int token_read_full(int fd, void *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = read(fd, (char *)buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

static void *token_thread_main(void *arg)
{
	struct token_thread *t = arg;
	long msg[2] = { 0, 0 };
	char c;

	if (t->own_table != NULL && (unshare(CLONE_FILES) != 0 || t->own_table(t->slot) != 0))
		msg[1] = errno ? errno : EIO;
	msg[0] = token_tid();
	if (write(t->ready[1], msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		return NULL;
	while (read(t->release[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

int token_thread_start(struct token_thread *t, int slot, token_fill_fn own_table)
{
	long msg[2];
	int e;

	t->slot = slot;
	t->own_table = own_table;
	t->ready[0] = t->ready[1] = t->release[0] = t->release[1] = -1;
	if (pipe2(t->ready, O_CLOEXEC) != 0 || pipe2(t->release, O_CLOEXEC) != 0)
		goto fail;
	e = pthread_create(&t->th, NULL, token_thread_main, t);
	if (e != 0) {
		errno = e;
		goto fail;
	}
	if (token_read_full(t->ready[0], msg, sizeof(msg)) != 0) {
		/* It wrote nothing: it cannot be waiting for the release either. */
		pthread_join(t->th, NULL);
		errno = EIO;
		goto fail;
	}
	t->tid = msg[0];
	t->err = (int)msg[1];
	return 0;
fail:
	e = errno;
	close_pair(t->ready);
	close_pair(t->release);
	errno = e;
	return -1;
}

int token_thread_stop(struct token_thread *t)
{
	int rc = write(t->release[1], "x", 1) == 1 ? 0 : -1;

	if (rc == 0)
		pthread_join(t->th, NULL);
	close_pair(t->ready);
	close_pair(t->release);
	return rc;
}

pid_t token_other_start(int slot, token_fill_fn fill)
{
	int p[2];
	pid_t pid;
	char c = 'e';

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close_pair(p);
		return -1;
	}
	if (pid == 0) {
		/* Async-signal-safe calls only: the parent may have threads. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		c = fill(slot) == 0 ? 'r' : 'e';
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (token_read_full(p[0], &c, 1) != 0 || c != 'r') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(p[0]);
		errno = EIO;
		return -1;
	}
	close(p[0]);
	return pid;
}
