/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signals sent to `flinkshim --trace` go to the command, once: every signal a process can
 * catch is forwarded (but SIGCHLD, about the supervisor's own child, and SIGTTIN and
 * SIGTTOU, which the supervisor ignores so that its own diagnostics never stop it), as
 * `timeout --foreground` does; once the command has exited, to every process still traced,
 * so that SIGTERM still ends them and with them flinkshim.
 *
 * Signals that reach the command by themselves are not forwarded: those the terminal sends
 * to the foreground process group (SI_KERNEL), those the command sends, and those a process
 * sends to the whole process group (kill -SIG -PGID) when the command is in flinkshim's
 * group. The last kind looks like a signal sent to flinkshim alone (SI_USER, the sender's
 * pid); the sender's copy to the command shows at its signal-delivery-stop, and the two are
 * matched there (trace_signals_delivery), so the command sees one of them.
 */
#ifndef FLINKSHIM_TRACE_SIGNALS_H
#define FLINKSHIM_TRACE_SIGNALS_H

#include "trace_tracees.h"

#include <sys/types.h>

/* Installs the handlers; signals go to the process command from now on. */
void trace_signals_install(pid_t command);

/* The command has exited: signals go to every traced process from now on. */
void trace_signals_command_ended(void);

/* The loop is about to wait (signals are then handled at once, from the handler), or has
 * stopped waiting (the table may change: signals are kept until the next wait). */
void trace_signals_idle(void);
void trace_signals_busy(void);

/* At a signal-delivery-stop of tracee t for sig: the signal to deliver, sig or 0 (a second
 * copy of one signal, suppressed). */
int trace_signals_delivery(struct tracee *t, int sig);

#endif
