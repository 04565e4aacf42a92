/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * static_legacy: a legacy program linked statically, so that no preload can reach it: only
 * `flinkshim --trace` can make its /proc links work without /proc. Each scenario stresses one
 * thing the supervisor must get right: the caller's own context, many threads at once, many
 * processes, a thread with its own fd table, a leader that has exited, execve from a thread,
 * exit statuses, signals and stops.
 *
 * usage: static_legacy SCENARIO ARG...
 *   link DIR NAME [TEMPLATE]  chdir(DIR), O_TMPFILE there, and link it to NAME relative to
 *                             the cwd, through TEMPLATE (default /proc/self/fd/%d; %d is the
 *                             fd, %p getpid(), %t the caller's tid; "-": read it from stdin)
 *   threads DIR N             N threads, released at once, each links its own O_TMPFILE as
 *                             DIR/tI, through /proc/self (even I) or /proc/thread-self (odd I)
 *   forks DIR N               N fork children, each with a grandchild; each process links
 *                             its own O_TMPFILE as DIR/pI and DIR/gI, by /proc/<its pid>
 *   unshared DIR              the leader holds file L at fd 42; a thread unshares its fd
 *                             table, puts its own file T at fd 42, and links
 *                             /proc/thread-self/fd/42 as DIR/own, then /proc/self/fd/42 (the
 *                             leader's table) as DIR/leaders
 *   leader-exit DIR           the main thread exits (pthread_exit); another thread then links
 *                             its file as DIR/self (/proc/self: the dead leader's table) and
 *                             DIR/thread (/proc/thread-self)
 *   exec-thread DIR NAME      a second thread execs "static_legacy link DIR NAME /proc/%p/fd/%d"
 *   exit CODE                 a second thread ends the process with exit(CODE)
 *   signal SIG                a second thread kills the process with signal number SIG
 *   stop                      prints "stopping", raise(SIGSTOP), then prints "continued"
 *   wait-signal               prints "ready", waits for SIGTERM or SIGUSR1, prints its name,
 *                             exits 0
 * Link results are printed one per line, "NAME linkat=0" or "NAME linkat=-1 errno=ENOENT",
 * in a fixed order. Exit status: 0 if every link worked, 1 if one failed, 2 on a setup error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_JOBS 64

struct result {
	char name[32];
	long ret;
	int err;
};

/* MAP_SHARED, so that fork children report to the parent. */
static struct result *results;
static const char *self_path;
static const char *work_dir;

static void die(const char *what)
{
	fprintf(stderr, "static_legacy: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long tid(void)
{
	return syscall(SYS_gettid);
}

/* A new O_TMPFILE in dir holding content. */
static int tmpfile_in(const char *dir, const char *content)
{
	int fd = open(dir, O_TMPFILE | O_RDWR, 0644);

	if (fd < 0 || write(fd, content, strlen(content)) != (ssize_t)strlen(content))
		die("O_TMPFILE");
	return fd;
}

/* Expands %d (fd), %p (getpid()), %t (tid) and links through the result, the legacy way. */
static void legacy_link(const char *template, int fd, int dirfd, const char *name,
			struct result *r)
{
	char path[256];
	size_t len = 0;
	const char *t;

	for (t = template; *t != '\0' && len < sizeof(path) - 24; t++) {
		if (t[0] == '%' && (t[1] == 'd' || t[1] == 'p' || t[1] == 't')) {
			long v = t[1] == 'd' ? fd : t[1] == 'p' ? (long)getpid() : tid();

			len += (size_t)snprintf(path + len, sizeof(path) - len, "%ld", v);
			t++;
		} else {
			path[len++] = *t;
		}
	}
	path[len] = '\0';
	snprintf(r->name, sizeof(r->name), "%s", name);
	errno = 0;
	r->ret = linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
	r->err = errno;
}

static int print_results(int n)
{
	int i, failed = 0;

	for (i = 0; i < n; i++) {
		if (results[i].ret == 0) {
			printf("%s linkat=0\n", results[i].name);
		} else {
			printf("%s linkat=%ld errno=%s\n", results[i].name, results[i].ret,
			       errno_name(results[i].err));
			failed = 1;
		}
	}
	return failed;
}

/* ------------------------------------------------------------------------------------------ */

static int scenario_link(char **argv, int argc)
{
	const char *template = argc > 2 ? argv[2] : "/proc/self/fd/%d";
	char content[64], line[256];
	int fd;

	if (argc < 2)
		return -1;
	if (strcmp(template, "-") == 0) {
		/* From stdin: a number only the test, outside, could know. */
		if (fgets(line, sizeof(line), stdin) == NULL)
			die("reading the template");
		line[strcspn(line, "\n")] = '\0';
		template = line;
	}
	if (chdir(argv[0]) != 0)
		die(argv[0]);
	snprintf(content, sizeof(content), "%s\n", argv[1]);
	fd = tmpfile_in(".", content);
	legacy_link(template, fd, AT_FDCWD, argv[1], &results[0]);
	return print_results(1);
}

static pthread_barrier_t start_line;

static void *thread_links(void *arg)
{
	long i = (long)arg;
	char name[16], content[32];
	int fd;

	snprintf(name, sizeof(name), "t%ld", i);
	snprintf(content, sizeof(content), "thread %ld\n", i);
	fd = tmpfile_in(work_dir, content);
	pthread_barrier_wait(&start_line);
	legacy_link(i % 2 == 0 ? "/proc/self/fd/%d" : "/proc/thread-self/fd/%d", fd, AT_FDCWD,
		    name, &results[i]);
	close(fd);
	return NULL;
}

static int scenario_threads(char **argv, int argc)
{
	pthread_t th[MAX_JOBS];
	long i, n;

	if (argc < 2 || (n = atol(argv[1])) < 1 || n > MAX_JOBS)
		return -1;
	work_dir = ".";
	if (chdir(argv[0]) != 0)
		die(argv[0]);
	if (pthread_barrier_init(&start_line, NULL, (unsigned)n) != 0)
		die("pthread_barrier_init");
	for (i = 0; i < n; i++)
		if ((errno = pthread_create(&th[i], NULL, thread_links, (void *)i)) != 0)
			die("pthread_create");
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return print_results((int)n);
}

static void process_links(const char *dir, const char *name, struct result *r)
{
	int dirfd = open(dir, O_PATH | O_DIRECTORY);
	int fd = tmpfile_in(dir, name);

	if (dirfd < 0)
		die(dir);
	legacy_link("/proc/%p/fd/%d", fd, dirfd, name, r);
}

static int scenario_forks(char **argv, int argc)
{
	int i, n, status, failed = 0;
	pid_t pid[MAX_JOBS];

	if (argc < 2 || (n = atoi(argv[1])) < 1 || n > MAX_JOBS / 2)
		return -1;
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork");
		if (pid[i] == 0) {
			char name[16];
			pid_t g = fork();

			if (g < 0)
				_exit(2);
			snprintf(name, sizeof(name), "%c%d", g == 0 ? 'g' : 'p', i);
			process_links(argv[0], name, &results[g == 0 ? n + i : i]);
			if (g == 0)
				_exit(0);
			_exit(waitpid(g, &status, 0) == g && WIFEXITED(status) ? WEXITSTATUS(status)
									: 2);
		}
	}
	for (i = 0; i < n; i++)
		if (waitpid(pid[i], &status, 0) != pid[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			failed = 1;
	if (failed) {
		fputs("static_legacy: a child failed\n", stderr);
		return 2;
	}
	return print_results(2 * n);
}

#define SHARED_FD 42

static void *unshared_thread(void *arg)
{
	int fd;

	(void)arg;
	if (unshare(CLONE_FILES) != 0)
		die("unshare(CLONE_FILES)");
	fd = tmpfile_in(work_dir, "thread\n");
	if (dup2(fd, SHARED_FD) != SHARED_FD)
		die("dup2");
	close(fd);
	legacy_link("/proc/thread-self/fd/%d", SHARED_FD, AT_FDCWD, "own", &results[0]);
	legacy_link("/proc/self/fd/%d", SHARED_FD, AT_FDCWD, "leaders", &results[1]);
	return NULL;
}

static int scenario_unshared(char **argv, int argc)
{
	pthread_t th;
	int fd;

	if (argc < 1 || chdir(argv[0]) != 0)
		return -1;
	work_dir = ".";
	fd = tmpfile_in(".", "leader\n");
	if (dup2(fd, SHARED_FD) != SHARED_FD)
		die("dup2");
	close(fd);
	if ((errno = pthread_create(&th, NULL, unshared_thread, NULL)) != 0)
		die("pthread_create");
	pthread_join(th, NULL);
	return print_results(2);
}

static void *orphan_thread(void *arg)
{
	pthread_t leader = *(pthread_t *)arg;
	int fd;

	/* pthread_join of the main thread: it has called pthread_exit. */
	pthread_join(leader, NULL);
	/* The leader's fd table goes only after join returns; give the kernel a moment. */
	usleep(20000);
	fd = tmpfile_in(work_dir, "orphan\n");
	legacy_link("/proc/self/fd/%d", fd, AT_FDCWD, "self", &results[0]);
	legacy_link("/proc/thread-self/fd/%d", fd, AT_FDCWD, "thread", &results[1]);
	exit(print_results(2));
}

static int scenario_leader_exit(char **argv, int argc)
{
	static pthread_t leader;
	pthread_t th;

	if (argc < 1 || chdir(argv[0]) != 0)
		return -1;
	work_dir = ".";
	leader = pthread_self();
	if ((errno = pthread_create(&th, NULL, orphan_thread, &leader)) != 0)
		die("pthread_create");
	fflush(stdout);
	pthread_exit(NULL);
}

static char **exec_argv;

static void *exec_thread(void *arg)
{
	(void)arg;
	execv(self_path, exec_argv);
	die("execv");
	return NULL;
}

static int scenario_exec_thread(char **argv, int argc)
{
	static char *args[6];
	pthread_t th;

	if (argc < 2)
		return -1;
	args[0] = (char *)self_path;
	args[1] = (char *)"link";
	args[2] = argv[0];
	args[3] = argv[1];
	args[4] = (char *)"/proc/%p/fd/%d";
	args[5] = NULL;
	exec_argv = args;
	if ((errno = pthread_create(&th, NULL, exec_thread, NULL)) != 0)
		die("pthread_create");
	for (;;)
		pause(); /* the exec replaces us */
}

static int end_code;
static int end_signal;

static void *ending_thread(void *arg)
{
	sigset_t set;

	(void)arg;
	if (end_signal != 0) {
		/* Whatever the caller left us (a test harness may ignore SIGTERM, and an
		 * ignored signal stays ignored across execve): the default action. */
		signal(end_signal, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, end_signal);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		kill(getpid(), end_signal);
		/* Under ptrace the signal kills only once the tracer has let it through: an
		 * exit() right away could end the process first. */
		sleep(10);
	}
	exit(end_code);
}

static int scenario_end(char **argv, int argc, int by_signal)
{
	pthread_t th;

	if (argc < 1)
		return -1;
	if (by_signal)
		end_signal = atoi(argv[0]);
	else
		end_code = atoi(argv[0]);
	if ((errno = pthread_create(&th, NULL, ending_thread, NULL)) != 0)
		die("pthread_create");
	for (;;)
		pause();
}

static int scenario_stop(void)
{
	printf("stopping\n");
	fflush(stdout);
	raise(SIGSTOP);
	printf("continued\n");
	return 0;
}

static int scenario_wait_signal(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready\n");
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		die("sigwait");
	printf("%s\n", sig == SIGTERM ? "SIGTERM" : "SIGUSR1");
	return 0;
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	char **args = argv + 2;
	int n = argc - 2;
	int r = -1;

	self_path = argv[0];
	results = mmap(NULL, MAX_JOBS * sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED)
		die("mmap");
	if (strcmp(s, "link") == 0)
		r = scenario_link(args, n);
	else if (strcmp(s, "threads") == 0)
		r = scenario_threads(args, n);
	else if (strcmp(s, "forks") == 0)
		r = scenario_forks(args, n);
	else if (strcmp(s, "unshared") == 0)
		r = scenario_unshared(args, n);
	else if (strcmp(s, "leader-exit") == 0)
		r = scenario_leader_exit(args, n);
	else if (strcmp(s, "exec-thread") == 0)
		r = scenario_exec_thread(args, n);
	else if (strcmp(s, "exit") == 0)
		r = scenario_end(args, n, 0);
	else if (strcmp(s, "signal") == 0)
		r = scenario_end(args, n, 1);
	else if (strcmp(s, "stop") == 0)
		r = scenario_stop();
	else if (strcmp(s, "wait-signal") == 0)
		r = scenario_wait_signal();
	if (r < 0) {
		fputs("usage: static_legacy link|threads|forks|unshared|leader-exit|exec-thread|"
		      "exit|signal|stop|wait-signal ARG...\n",
		      stderr);
		return 2;
	}
	return r;
}
