/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Forwarding signals to the command, once (trace_signals.h says what and why).
 *
 * The handler forwards at once while the loop waits in waitpid() (the table of tracees is
 * then still); while the loop works, it only records the signal, and the loop forwards it
 * before it waits again. So nothing is lost between a check and the wait, and the handler
 * never sees the table half changed. The handler keeps errno.
 *
 * A group signal (kill -SIG -PGID, SI_USER) reaches flinkshim and, when it is in the same
 * group, the command. The kernel queues it to every member inside one read-locked section of
 * tasklist_lock, and a traced command reports its copy at a signal-delivery-stop, with the
 * sender's pid. The two copies are matched whichever comes first:
 *   - the command's copy first: setpgid() to our own group (a no-op that takes tasklist_lock
 *     for writing, so any group signal in flight has been queued to us too) lets our copy
 *     arrive; recorded by the handler, it is not forwarded (sig_twin_done);
 *   - ours first: it is forwarded, and the forwarded copy is marked; if the sender's copy
 *     is then delivered (sig_direct), or still queued when the forwarded one arrives
 *     (PTRACE_PEEKSIGINFO), the forwarded copy is suppressed at its delivery-stop.
 * A standard signal pending twice is merged by the kernel anyway; real-time ones are not.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_signals.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PTRACE_PEEKSIGINFO
#define PTRACE_PEEKSIGINFO 0x4209
#endif
#ifndef PTRACE_PEEKSIGINFO_SHARED
#define PTRACE_PEEKSIGINFO_SHARED 1
#endif

/* Signal numbers 1 to 64, bit sig - 1 of a uint64_t. */
#define MAX_SIG 64

static volatile sig_atomic_t busy = 1;
static volatile pid_t command;
static pid_t self;

/* Signals received while the loop was busy, per number: how many, and the last one's
 * sender, code and value. */
static volatile sig_atomic_t deferred_any;
static volatile sig_atomic_t deferred_count[MAX_SIG + 1];
static volatile sig_atomic_t deferred_pid[MAX_SIG + 1];
static volatile sig_atomic_t deferred_code[MAX_SIG + 1];
static union sigval deferred_value[MAX_SIG + 1];

/* The sender whose signal was last forwarded, per number: its own copy is the twin. */
static pid_t forwarded_sender[MAX_SIG + 1];

static uint64_t bit(int sig)
{
	return (uint64_t)1 << (sig - 1);
}

static void fence(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Waits for every kill(-PGID) or kill(-1) in progress anywhere to have queued its signal
 * to every process it targets (they hold tasklist_lock for reading while they do). */
static void group_signals_barrier(void)
{
	setpgid(0, getpgrp());
}

struct receipt {
	int sig;
	pid_t from;
	int code;
	union sigval value;
};

static void send_to(struct tracee *leader, const struct receipt *r)
{
	pid_t to = leader->tgid;
	uint64_t b = bit(r->sig);

	if (leader->sig_twin_done & b) {
		leader->sig_twin_done &= ~b; /* the sender's copy reached it already */
		return;
	}
	if (r->code == SI_QUEUE)
		sigqueue(to, r->sig, r->value);
	else
		kill(to, r->sig);
	/* A signal from kill() may have been sent to the whole group: then the process got
	 * a copy of its own, if it is in ours. */
	if (r->code == SI_USER && getpgid(to) == getpgrp()) {
		leader->sig_forwarded |= b;
		leader->sig_direct &= ~b;
		forwarded_sender[r->sig] = r->from;
	}
}

static void send_each(struct tracee *t, void *arg)
{
	send_to(t, arg);
}

/* A signal flinkshim received, forwarded (the loop is idle: the table is still). */
static void forward(const struct receipt *r)
{
	pid_t to = command;
	struct tracee *leader;

	/* SI_KERNEL: the terminal signalled the whole foreground process group, the command
	 * included. From ourselves (SIGPIPE or SIGXFSZ of our own write): not the command's.
	 * From the command: not back to it. */
	if (r->code == SI_KERNEL || r->from == self || (to > 0 && r->from == to))
		return;
	if (to <= 0) {
		tracees_each_leader(send_each, (void *)r);
		return;
	}
	leader = tracees_find(to);
	if (leader != NULL && leader->tgid == to)
		send_to(leader, r);
	else
		kill(to, r->sig); /* cannot happen: the command's entry lives until it ends */
}

static void forward_deferred(void)
{
	int sig;

	deferred_any = 0;
	fence();
	for (sig = 1; sig <= MAX_SIG; sig++) {
		while (deferred_count[sig] > 0) {
			struct receipt r = { sig, (pid_t)deferred_pid[sig], deferred_code[sig],
					     deferred_value[sig] };

			deferred_count[sig]--;
			forward(&r);
		}
	}
}

static int is_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGTRAP || sig == SIGSYS;
}

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	int saved = errno;

	(void)ctx;
	if (is_fault(sig) && si->si_code > 0) {
		/* A fault of the supervisor itself: die of it, as without a handler. */
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		syscall(SYS_tgkill, (long)self, (long)self, (long)sig);
		errno = saved;
		return;
	}
	if (sig < 1 || sig > MAX_SIG) {
		errno = saved;
		return;
	}
	if (busy) {
		deferred_pid[sig] = si->si_pid;
		deferred_code[sig] = si->si_code;
		deferred_value[sig] = si->si_value;
		deferred_count[sig]++;
		deferred_any = 1;
	} else {
		struct receipt r = { sig, si->si_pid, si->si_code, si->si_value };

		forward(&r);
	}
	errno = saved;
}

#if defined(__x86_64__) && !defined(__ILP32__)
/* The kernel's struct sigaction on x86_64 (arch/x86/include/uapi/asm/signal.h). */
struct kernel_sigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};
#define KERNEL_SA_RESTORER 0x04000000UL

/* The C library keeps a few signal numbers for itself (glibc 32 and 33, musl 32 to 34) and
 * its sigaction() refuses them; a single-threaded supervisor that uses none of what they are
 * for may catch them with the system call, so that they too go to the command instead of
 * killing the supervisor and, with it, every tracee. The kernel needs the C library's
 * sigreturn trampoline, read back from a signal the library has set up (like). */
static void install_reserved(int sig, int like)
{
	struct kernel_sigaction ka, model;

	if (syscall(SYS_rt_sigaction, (long)like, NULL, &model, 8L) != 0 ||
	    !(model.flags & KERNEL_SA_RESTORER))
		return;
	ka.handler = on_signal;
	ka.flags = SA_SIGINFO | SA_RESTART | KERNEL_SA_RESTORER;
	ka.restorer = model.restorer;
	ka.mask = ~(uint64_t)0;
	syscall(SYS_rt_sigaction, (long)sig, &ka, NULL, 8L);
}
#else
static void install_reserved(int sig, int like)
{
	(void)sig;
	(void)like;
}
#endif

void trace_signals_install(pid_t cmd)
{
	struct sigaction sa;
	int sig;

	self = getpid();
	command = cmd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (sig = 1; sig <= MAX_SIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGCHLD)
			continue;
		if (sig == SIGTTIN || sig == SIGTTOU) {
			/* Our own diagnostics must not stop us when TOSTOP is set: the command's
			 * stops are mirrored (trace_supervisor.c), ours alone never happen. */
			signal(sig, SIG_IGN);
			continue;
		}
		if (sigaction(sig, &sa, NULL) != 0 && errno == EINVAL)
			install_reserved(sig, SIGUSR1);
	}
}

void trace_signals_command_ended(void)
{
	command = 0;
}

void trace_signals_idle(void)
{
	for (;;) {
		forward_deferred();
		fence();
		busy = 0;
		fence();
		if (!deferred_any)
			return;
		busy = 1;
		fence();
	}
}

void trace_signals_busy(void)
{
	busy = 1;
	fence();
}

/* Is a copy of sig sent by pid `from` (kill or sigqueue) still queued for the process of the
 * stopped tid? */
static int queued(pid_t tid, int sig, pid_t from)
{
	struct {
		uint64_t off;
		uint32_t flags;
		int32_t nr;
	} args;
	siginfo_t q[16];

	args.off = 0;
	args.flags = PTRACE_PEEKSIGINFO_SHARED;
	args.nr = (int32_t)(sizeof(q) / sizeof(q[0]));
	for (;;) {
		long n = ptrace(PTRACE_PEEKSIGINFO, tid, &args, q), i;

		if (n <= 0)
			return 0;
		for (i = 0; i < n; i++)
			if (q[i].si_signo == sig && q[i].si_pid == from &&
			    (q[i].si_code == SI_USER || q[i].si_code == SI_QUEUE))
				return 1;
		args.off += (uint64_t)n;
	}
}

int trace_signals_delivery(struct tracee *t, int sig)
{
	struct tracee *leader;
	siginfo_t si;
	uint64_t b;

	if (sig < 1 || sig > MAX_SIG || t->tgid <= 0 ||
	    (leader = tracees_find(t->tgid)) == NULL ||
	    ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &si) != 0)
		return sig;
	b = bit(sig);
	if (si.si_pid == self && (si.si_code == SI_USER || si.si_code == SI_QUEUE)) {
		/* Our forwarded copy: the second one if the sender's came or is queued. */
		if (!(leader->sig_forwarded & b))
			return sig;
		leader->sig_forwarded &= ~b;
		if (leader->sig_direct & b) {
			leader->sig_direct &= ~b;
			return 0;
		}
		return queued(t->tid, sig, forwarded_sender[sig]) ? 0 : sig;
	}
	if (si.si_code != SI_USER || si.si_pid == self)
		return sig;
	if (leader->sig_forwarded & b) {
		/* Ours is on its way: this one stays, ours will not. Unless ours is not queued:
		 * the kernel merged it into a copy pending before it (a standard signal is
		 * queued once), and nothing of it is left to come. */
		if (queued(t->tid, sig, self)) {
			if (forwarded_sender[sig] == si.si_pid)
				leader->sig_direct |= b;
			return sig;
		}
		leader->sig_forwarded &= ~b;
		leader->sig_direct &= ~b;
	}
	if (getpgid(t->tgid) != getpgrp())
		return sig; /* not in our group: a group signal to us did not come here */
	group_signals_barrier();
	/* Our copy, if it was a group signal, has now reached the handler, which recorded it
	 * (the loop is busy). */
	if (deferred_count[sig] > 0 && deferred_pid[sig] == si.si_pid)
		leader->sig_twin_done |= b;
	return sig;
}
