/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ptrace loop of `flinkshim --trace`.
 *
 * The command runs under a seccomp filter (trace_filter.c) that stops it only at linkat()
 * calls with AT_SYMLINK_FOLLOW; every other system call runs at full speed with no tracer
 * involved, unlike proot, which stops at every path system call. At each stop
 * trace_rewrite.c decides and edits the registers; the kernel then runs the call in the
 * tracee itself.
 *
 * Start: the child installs the filter, then waits on a pipe until the supervisor has
 * seized it (PTRACE_SEIZE: no stop, and group-stops are told apart from signals), then execs.
 * A second pipe, closed by a successful exec, carries the child's setup error, if any.
 *
 * The supervisor follows fork, vfork and clone, and stays until the last traced process has
 * exited, as strace -f does: leaving earlier would either kill the others
 * (PTRACE_O_EXITKILL, which also makes sure nothing outlives a killed supervisor
 * untraced) or leave their linkat(AT_SYMLINK_FOLLOW) calls failing with ENOSYS, which is
 * what SECCOMP_RET_TRACE gives when no tracer is attached. It counts them, and leaves when
 * none is alive even if children it never traced (inherited across the exec of flinkshim)
 * are still running. Its exit status is the command's.
 *
 * It needs no /proc: a new tracee is taken in at its first stop, whether or not its parent's
 * fork, vfork or clone event has come (it may never come: a parent killed inside the call
 * never reports it); tgkill() tells a new process from a new thread, and finds the thread's
 * process among those traced.
 *
 * Signals sent to the supervisor go to the command (trace_signals.c); when the command stops
 * for the terminal (^Z), the supervisor stops too, so that the shell's job control sees the
 * job stopped.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_supervisor.h"

#include "debug_log.h"
#include "trace_arch.h"
#include "trace_filter.h"
#include "trace_rewrite.h"
#include "trace_signals.h"
#include "trace_tracees.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_WRAPPER 125
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

/* From <linux/magic.h>, spelled out to keep kernel headers optional. */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0

/* Set for the command, so that a nested `flinkshim --trace` (whose child the outer
 * supervisor has already attached) knows why it cannot trace, and runs its command under the
 * outer supervisor instead. */
#define NESTED_ENV "FLINKSHIM_TRACE_SUPERVISOR"

/* No PTRACE_O_TRACEEXEC: an exec stop for every process started would cost a third of what
 * following a process costs (its parent's fork event, its first stop, its exec), and nothing
 * needs it. The setup-error pipe closes itself at the exec (O_CLOEXEC); the tid that a
 * thread other than the leader loses in execve(), which vanishes without a report, only
 * leaves an entry that tracees_forget_vanished() drops where the count of tracees matters. */
#define TRACE_OPTIONS                                                                        \
	(PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |                  \
	 PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD)

/* What the child reports through the error pipe when its setup fails. */
enum setup_step { STEP_NO_NEW_PRIVS = 1, STEP_SECCOMP, STEP_EXEC };
struct setup_error {
	int step;
	int err;
};

__attribute__((format(printf, 2, 3))) static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("flinkshim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* ------------------------------------------------------------------------------------------
 * The child: filter, wait for the tracer, exec. */

static void report(int fd, int step, int err)
{
	struct setup_error e = { step, err };

	/* One write of a few bytes to a pipe is atomic; nothing more can be done on failure. */
	if (write(fd, &e, sizeof(e)) < 0)
		_exit(EXIT_WRAPPER);
}

static __attribute__((noreturn)) void run_child(char *const argv[], int go_fd, int err_fd)
{
	enum trace_filter_step step;
	char go = 0;
	ssize_t n;

	if (trace_filter_install(&step) != 0) {
		report(err_fd, step == TRACE_FILTER_NO_NEW_PRIVS ? STEP_NO_NEW_PRIVS : STEP_SECCOMP,
		       errno);
		_exit(EXIT_WRAPPER);
	}
	/* Until the supervisor has seized us: a call made before would not be seen. */
	while ((n = read(go_fd, &go, 1)) < 0 && errno == EINTR)
		;
	if (n != 1 || go != 'g')
		_exit(EXIT_WRAPPER); /* the supervisor failed, and says why */
	execvp(argv[0], argv);
	report(err_fd, STEP_EXEC, errno);
	_exit(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
}

static int explain_setup_error(const struct setup_error *e, const char *cmd)
{
	switch (e->step) {
	case STEP_NO_NEW_PRIVS:
		return fail(EXIT_WRAPPER,
			    "--trace: cannot set PR_SET_NO_NEW_PRIVS: %s (an unprivileged "
			    "process may install a seccomp filter only with it)",
			    strerror(e->err));
	case STEP_SECCOMP:
		return fail(EXIT_WRAPPER,
			    "--trace: seccomp is not permitted here: installing the filter "
			    "failed: %s (the kernel needs CONFIG_SECCOMP_FILTER, and a "
			    "container's seccomp profile or a security module must allow "
			    "seccomp(2) and prctl(PR_SET_SECCOMP))",
			    strerror(e->err));
	default:
		return fail(e->err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN, "%s: %s", cmd,
			    strerror(e->err));
	}
}

static int explain_seize_error(int err)
{
	if (err == EPERM || err == EACCES)
		return fail(EXIT_WRAPPER,
			    "--trace: ptrace is not permitted here: PTRACE_SEIZE of the command "
			    "failed: %s (kernel.yama.ptrace_scope must be 0 or 1, or flinkshim "
			    "needs CAP_SYS_PTRACE; a container's seccomp profile or a security "
			    "module may forbid ptrace(2); or a debugger or strace -f tracing "
			    "flinkshim has attached the command first)",
			    strerror(err));
	if (err == ENOSYS)
		return fail(EXIT_WRAPPER,
			    "--trace: ptrace is not available here: %s (a kernel without ptrace, "
			    "or a seccomp profile that hides it)",
			    strerror(err));
	return fail(EXIT_WRAPPER,
		    "--trace: PTRACE_SEIZE failed: %s (Linux >= 3.8 is needed for "
		    "PTRACE_O_EXITKILL and PTRACE_O_TRACESECCOMP)",
		    strerror(err));
}

/* ------------------------------------------------------------------------------------------
 * Job control and death by a signal. */

/*
 * Job control: when the command stops for the terminal (^Z, or tty I/O from the
 * background), the supervisor stops too, with the same signal, so that the shell sees the
 * job stopped; the shell's SIGCONT then resumes both. Only with a controlling terminal:
 * elsewhere nobody would resume the supervisor, and the command's traced processes would
 * wait for it forever.
 */
static void mirror_stop(int sig)
{
	struct sigaction dfl, old;
	int tty;

	if (sig == SIGSTOP)
		return;
	tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (tty < 0)
		return;
	close(tty);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, &old);
	kill(getpid(), sig); /* returns once the shell has sent SIGCONT */
	sigaction(sig, &old, NULL);
}

/* The command died of sig: so do we, without a core file of our own. */
static int die_like(int sig)
{
	struct rlimit none = { 0, 0 };
	sigset_t set;

	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig; /* a signal that does not kill by default cannot have killed it */
}

/* ------------------------------------------------------------------------------------------
 * The loop. */

struct supervisor {
	struct trace_rewriter rewriter;
	pid_t main_pid;
	int main_status; /* wait status of the command, once it has ended */
	int main_done;
	int err_fd; /* the child's setup errors (nothing comes once it has exec'd) */
	const char *cmd;
	/* flinkshim had children of its own before it started the command (inherited across
	 * exec): waitpid() would wait for them too, so the count of tracees says when to go. */
	int inherited_children;
};

static void resume(pid_t tid, int request, int sig)
{
	/* The signal travels in the data argument, an integer in a pointer. ESRCH (killed
	 * meanwhile: SIGKILL needs no tracer) is ignored: wait reports its end. */
	ptrace(request, tid, NULL,
	       (void *)(long)sig); /* NOLINT(performance-no-int-to-ptr) */
}

static int is_event_stop(int status)
{
	return (unsigned)status >> 16 == PTRACE_EVENT_STOP;
}

static int is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* Is child a thread of the process tgid? tgkill() finds a thread only in its own group. */
static int in_thread_group(pid_t tgid, pid_t child)
{
	return syscall(SYS_tgkill, (long)tgid, (long)child, 0L) == 0 || errno == EPERM;
}

/* A fork, vfork or clone event of parent: the new tracee, and the process it belongs to. */
static int on_new_child(pid_t parent, pid_t parent_tgid, int event)
{
	unsigned long msg = 0;
	struct tracee *c;
	pid_t child, tgid;

	if (ptrace(PTRACE_GETEVENTMSG, parent, NULL, &msg) != 0)
		return 0;
	child = (pid_t)msg;
	tgid = event == PTRACE_EVENT_CLONE && in_thread_group(parent_tgid, child) ? parent_tgid
										    : child;
	c = tracees_find(child);
	if (c == NULL)
		return tracees_add(child, tgid, TRACEE_EXPECTED) != NULL ? 0 : -1;
	if (c->state == TRACEE_GONE) {
		tracees_remove(child); /* it died before this event: nothing left to know */
		return 0;
	}
	c->tgid = tgid;
	if (c->state == TRACEE_UNANNOUNCED)
		tracees_set_state(c, TRACEE_RUNNING);
	return 0;
}

static __attribute__((noreturn)) void out_of_memory(void)
{
	/* Exiting kills every tracee (PTRACE_O_EXITKILL): better than running them untraced. */
	fail(EXIT_WRAPPER, "--trace: out of memory for the table of traced threads");
	exit(EXIT_WRAPPER);
}

static void on_stop(struct supervisor *s, struct tracee *t, int status)
{
	pid_t tid = t->tid;
	int sig = WSTOPSIG(status);
	int event = (int)((unsigned)status >> 16);
	unsigned long data = 0;

	switch (event) {
	case PTRACE_EVENT_SECCOMP:
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &data) != 0) {
			resume(tid, PTRACE_CONT, 0);
			return;
		}
		resume(tid,
		       trace_rewrite_seccomp(&s->rewriter, t, data) == TRACE_RESUME_SYSCALL
			       ? PTRACE_SYSCALL
			       : PTRACE_CONT,
		       0);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		if (on_new_child(tid, t->tgid, event) != 0)
			out_of_memory();
		resume(tid, PTRACE_CONT, 0);
		return;
	case PTRACE_EVENT_STOP:
		if (is_stop_signal(sig)) {
			/* A group-stop: stay stopped, but let SIGCONT (or SIGKILL) through. */
			ptrace(PTRACE_LISTEN, tid, NULL, NULL);
			if (tid == s->main_pid)
				mirror_stop(sig);
		} else {
			resume(tid, PTRACE_CONT, 0); /* end of a listen, after SIGCONT */
		}
		return;
	case 0:
		if (sig == (SIGTRAP | 0x80)) {
			/* The syscall stop a rewritten call asked for. */
			resume(tid,
			       trace_rewrite_syscall_stop(&s->rewriter, t) == TRACE_RESUME_SYSCALL
				       ? PTRACE_SYSCALL
				       : PTRACE_CONT,
			       0);
		} else {
			/* A signal for the tracee: deliver it, unless it is a second copy. */
			resume(tid, PTRACE_CONT, trace_signals_delivery(t, sig));
		}
		return;
	default:
		resume(tid, PTRACE_CONT, 0);
		return;
	}
}

/* The first stop of a new tracee: the PTRACE_EVENT_STOP every one starts with. If its
 * process is in a group-stop, it carries the stop signal: then it stays stopped with its
 * process, until SIGCONT. */
static void first_stop(struct supervisor *s, struct tracee *t, int status)
{
	if (!is_event_stop(status)) {
		on_stop(s, t, status);
		return;
	}
	if (is_stop_signal(WSTOPSIG(status)))
		ptrace(PTRACE_LISTEN, t->tid, NULL, NULL);
	else
		resume(t->tid, PTRACE_CONT, 0);
}

/* The process of a tracee seen before its parent's event: itself if it leads its own thread
 * group (a new process), else one of the processes traced (a new thread), else unknown
 * until the event says. */
static pid_t process_of(pid_t tid)
{
	if (in_thread_group(tid, tid))
		return tid;
	return tracees_group_of(tid);
}

static void on_wait(struct supervisor *s, pid_t tid, int status)
{
	struct tracee *t = tracees_find(tid);

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		if (tid == s->main_pid) {
			s->main_status = status;
			s->main_done = 1;
			trace_signals_command_ended();
		}
		if (t == NULL) {
			/* Died before anything of it was seen (or a child flinkshim never traced):
			 * a mark, so that a late event does not wait for it. */
			if (tracees_add(tid, -1, TRACEE_GONE) == NULL)
				out_of_memory();
		} else if (t->state == TRACEE_UNANNOUNCED) {
			tracees_set_state(t, TRACEE_GONE); /* the same, for a late event */
		} else {
			tracees_remove(tid);
		}
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	if (t == NULL || t->state == TRACEE_GONE) {
		/* A new tracee whose parent's event has not been seen (and may never be). */
		pid_t tgid = process_of(tid);

		if (t == NULL && (t = tracees_add(tid, tgid, TRACEE_UNANNOUNCED)) == NULL)
			out_of_memory();
		t->tgid = tgid;
		tracees_set_state(t, TRACEE_UNANNOUNCED);
		first_stop(s, t, status);
		return;
	}
	if (t->state == TRACEE_EXPECTED) {
		tracees_set_state(t, TRACEE_RUNNING);
		first_stop(s, t, status);
		return;
	}
	if (t->tgid < 0)
		t->tgid = process_of(tid);
	on_stop(s, t, status);
}

static int supervise(struct supervisor *s)
{
	for (;;) {
		int status;
		pid_t tid;

		trace_signals_idle();
		if (s->inherited_children && s->main_done) {
			tracees_forget_vanished();
			if (tracees_alive() == 0)
				break; /* the rest are not ours */
		}
		tid = waitpid(-1, &status, __WALL);
		trace_signals_busy();
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nobody left */
		}
		on_wait(s, tid, status);
	}
	if (!s->main_done)
		return fail(EXIT_WRAPPER, "--trace: lost track of the command");
	if (s->err_fd >= 0) {
		/* If it ended before exec, the pipe says why; after an exec it is empty. */
		struct setup_error e;

		if (read(s->err_fd, &e, sizeof(e)) == (ssize_t)sizeof(e))
			return explain_setup_error(&e, s->cmd);
	}
	if (WIFSIGNALED(s->main_status))
		return die_like(WTERMSIG(s->main_status));
	return WEXITSTATUS(s->main_status);
}

/* /proc is a procfs of our own pid namespace: /proc/<pid> then names the processes we know
 * by that pid. (After unshare -p without a new /proc, it shows the parent namespace's.) */
static int proc_is_ours(void)
{
	struct statfs sfs;
	char self[24], link[24];
	ssize_t n;

	if (statfs("/proc", &sfs) != 0 || sfs.f_type != PROC_SUPER_MAGIC_VALUE)
		return 0;
	n = readlink("/proc/self", link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	return strcmp(link, self) == 0;
}

/* Linux 3.8 to 4.7 stop at the seccomp filter before the syscall-entry stop. */
static int seccomp_before_entry(void)
{
	struct utsname u;
	char *end;
	long major, minor;

	if (uname(&u) != 0)
		return 0;
	major = strtol(u.release, &end, 10);
	if (*end != '.')
		return 0;
	minor = strtol(end + 1, &end, 10);
	return major < 4 || (major == 4 && minor < 8);
}

/* Children of ours that are not the command (started before an exec of flinkshim). */
static int have_children(void)
{
	return waitpid(-1, NULL, WNOHANG | __WALL) >= 0;
}

/* Already under an outer supervisor: it attached our child before we could. */
static int nested(const char *outer)
{
	return outer != NULL && outer[0] != '\0';
}

int trace_supervisor_run(char *const argv[])
{
	struct supervisor s;
	const char *outer = getenv(NESTED_ENV);
	char self[24];
	int go[2], err[2];
	pid_t pid;

	if (trace_filter_unavailable() != NULL)
		return fail(EXIT_WRAPPER, "%s; mount /proc, or use the preload",
			    trace_filter_unavailable());
	memset(&s, 0, sizeof(s));
	debug_log_init();
	s.rewriter.debug = debug_log_enabled();
	s.rewriter.supervisor_has_proc = proc_is_ours();
	s.rewriter.seccomp_before_entry = seccomp_before_entry();
	s.inherited_children = have_children();
	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
		return fail(EXIT_WRAPPER, "--trace: pipe: %s", strerror(errno));
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	if (setenv(NESTED_ENV, self, 1) != 0)
		return fail(EXIT_WRAPPER, "--trace: setenv: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fail(EXIT_WRAPPER, "--trace: fork: %s", strerror(errno));
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		run_child(argv, go[0], err[1]);
	}
	close(go[0]);
	close(err[1]);
	/* The options travel in the data argument, an integer in a pointer. */
	if (ptrace(PTRACE_SEIZE, pid, NULL,
		   (void *)(long)TRACE_OPTIONS) != 0) { /* NOLINT(performance-no-int-to-ptr) */
		int seize_err = errno;
		struct setup_error e;

		close(go[1]); /* the child exits */
		waitpid(pid, NULL, 0);
		/* A child whose filter failed exits at once, maybe before we could seize it:
		 * then its report says what really is missing. */
		if (read(err[0], &e, sizeof(e)) == (ssize_t)sizeof(e))
			return explain_setup_error(&e, argv[0]);
		if (seize_err == EPERM && nested(outer)) {
			/* Our caller is traced by another flinkshim --trace, which traces
			 * whatever we run as well. */
			if (s.rewriter.debug)
				fprintf(stderr, "flinkshim: --trace: already traced by the "
						"supervisor %s: running %s under it\n",
					outer, argv[0]);
			if (setenv(NESTED_ENV, outer, 1) != 0)
				return fail(EXIT_WRAPPER, "--trace: setenv: %s", strerror(errno));
			execvp(argv[0], argv);
			return fail(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN, "%s: %s",
				    argv[0], strerror(errno));
		}
		return explain_seize_error(seize_err);
	}
	s.main_pid = pid;
	s.err_fd = err[0];
	s.cmd = argv[0];
	if (tracees_add(pid, pid, TRACEE_RUNNING) == NULL)
		out_of_memory();
	/* From here on, signals go to the command. A broken pipe here, or on stderr later,
	 * does not kill the supervisor (and with it every tracee): the handler ignores a
	 * SIGPIPE of our own, and the write fails with EPIPE. */
	trace_signals_install(pid);
	/* If the child is already gone (its filter failed), the loop sees it exit and reads
	 * why. */
	if (write(go[1], "g", 1) != 1 && errno != EPIPE)
		return fail(EXIT_WRAPPER, "--trace: cannot start the command: %s", strerror(errno));
	close(go[1]);
	return supervise(&s);
}
