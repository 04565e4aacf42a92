#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# `flinkshim --trace` as a process among others, compared with what the command alone does:
# processes it never saw born, children it never traced, signals sent to it or to its whole
# process group, job control, and the processes left when the command has exited (daemons).
# Nothing here is timed: every wait has a watchdog that only bounds a hang.

load common
load trace_common

setup_file() {
	FLS_HELPERS+=(trace_cases static_legacy)
	trace_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
}

# ---------------------------------------------------------------------------------------------
# Processes and threads the supervisor must not wait for, or wait for forever.

@test "a new process whose parent was killed inside clone() (its event never comes) is not held: 20 runs, none hangs" {
	need_trace
	local i st hung=0
	# trace_cases forkkill exits while four threads clone: the kernel then reports some
	# children, never their parent's clone event. Each run ends in milliseconds, or hangs.
	for i in $(seq 20); do
		st=0
		timeout -s KILL 20 "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" forkkill || st=$?
		if [ "$st" -ne 0 ]; then
			hung=$((hung + 1))
			echo "# run $i: status $st" >&3
		fi
	done
	expect_eq "runs that did not end by themselves" "$hung" 0
}

@test "exec flinkshim --trace from a shell with a background job: it ends with its command, not with the job" {
	need_trace
	local dir st=0
	dir=$(fls_workdir)
	in_background "$dir/out" sh -c 'sleep 1000 & echo $! >"$1"; exec "$2" --trace true' sh "$dir/job" "$FLS_TRACE"
	bg_wait || st=$?
	kill "$(cat "$dir/job")"
	expect_eq "status (137: the watchdog found it still waiting for the job)" "$st" 0 || return
	# The same after an execve() from a second thread, whose tid vanishes unreported.
	in_background "$dir/out" sh -c 'sleep 1000 & echo $! >"$1"; shift; exec "$@"' sh "$dir/job" \
		"$FLS_TRACE" --trace "$FLS_PUB/static_legacy" exec-thread "$dir" execd
	st=0
	bg_wait || st=$?
	kill "$(cat "$dir/job")"
	expect_eq "exec from a thread: status" "$st" 0 || return
	expect_eq "exec from a thread: output" "$(cat "$dir/out")" "execd linkat=0"
}

# flinkshim_children PID: the processes whose parent is PID.
flinkshim_children() {
	pgrep -P "$1" || :
}

@test "once the command has exited, SIGTERM, SIGINT, SIGHUP and SIGQUIT to flinkshim still end it, through the processes it still traces" {
	need_trace
	local dir sig st i job
	dir=$(fls_workdir)
	for sig in TERM INT HUP QUIT; do
		rm -f "$dir/job"
		# The command exits 3 and leaves a daemon (env: a shell's background job ignores
		# SIGINT and SIGQUIT, and a run under nohup ignores SIGHUP; this one must not, or it
		# rightly outlives the signal, as it would without flinkshim).
		in_background "$dir/out" "$FLS_TRACE" --trace sh -c \
			'env --default-signal=TERM,INT,HUP,QUIT sleep 1000 & echo $! >"$1"; exit 3' \
			sh "$dir/job"
		for i in $(seq 400); do
			[ -s "$dir/job" ] && [ -z "$(flinkshim_children "$BG_PID")" ] && break
			sleep 0.05
		done
		job=$(cat "$dir/job")
		kill "-$sig" "$BG_PID"
		st=0
		bg_wait || st=$?
		kill -KILL "$job" 2>/dev/null || :
		expect_eq "$sig: status (the command's; 137: the watchdog found flinkshim still running)" "$st" 3 || return
	done
}

# ---------------------------------------------------------------------------------------------
# Signals: every one that can be caught, once.

# signal_once SIG [GROUP]: trace_cases signals under flinkshim prints the number of every
# signal it gets; SIG is sent to flinkshim (or, with GROUP, to flinkshim's whole process
# group, which flinkshim leads in a session of its own), then SIGRTMAX ends it: it must have
# got SIG exactly once.
signal_once() {
	local sig=$1 group=${2:-} dir num st=0
	dir=$(fls_workdir)
	num=$(kill -l "$sig")
	in_background "$dir/out" setsid "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" signals
	wait_for "$dir/out" ready || return
	if [ -n "$group" ]; then
		[ "$(ps -o pgid= -p "$BG_PID" | tr -d ' ')" = "$BG_PID" ] ||
			fls_fail "flinkshim does not lead its process group" || return
		kill "-$sig" -- "-$BG_PID"
	else
		kill "-$sig" "$BG_PID"
	fi
	kill -RTMAX "$BG_PID"
	bg_wait || st=$?
	expect_eq "SIG$sig${group:+ to the group}: status" "$st" 0 || return
	expect_eq "SIG$sig${group:+ to the group}: what the command got" "$(cat "$dir/out")" $'ready\n'"$num"
}

# lines FILE N: until FILE has N lines (20 s at most).
lines() {
	local i
	for i in $(seq 400); do
		[ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	fls_fail "$1 never had $2 lines: $(cat "$1")"
}

@test "every signal flinkshim can catch reaches the command once: real-time ones, PWR, WINCH, URG, CONT..." {
	need_trace
	# Real-time signals above the C libraries' own (glibc keeps 32 and 33, musl 32 to 34: a
	# program built with them cannot catch those).
	local sig failed=()
	for sig in HUP INT QUIT USR1 USR2 ALRM TERM PIPE SEGV CONT TSTP URG XCPU XFSZ VTALRM PROF \
		WINCH IO PWR SYS RTMIN+5 RTMAX-5; do
		signal_once "$sig" || failed+=("$sig")
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "signals not received exactly once: ${failed[*]}"
}

@test "a signal sent to the whole process group reaches the command once, as natively: 50 runs" {
	need_trace
	local i sig failed=()
	for i in $(seq 50); do
		case $((i % 5)) in
		0) sig=RTMIN+3 ;;
		1) sig=TERM ;;
		*) sig=INT ;;
		esac
		signal_once "$sig" group || failed+=("$i:$sig")
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "runs where the command did not get the signal exactly once: ${failed[*]}"
}

@test "group signals one after the other, and one to flinkshim alone: each reaches the command once" {
	need_trace
	local dir sig num st
	dir=$(fls_workdir)
	for sig in INT RTMIN+2; do
		num=$(kill -l "$sig")
		in_background "$dir/out" setsid "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" signals
		wait_for "$dir/out" ready || return
		# Each is received before the next is sent: natively, three lines.
		kill "-$sig" -- "-$BG_PID"
		lines "$dir/out" 2 || return
		kill "-$sig" -- "-$BG_PID"
		lines "$dir/out" 3 || return
		kill "-$sig" "$BG_PID"
		lines "$dir/out" 4 || return
		kill -RTMAX "$BG_PID"
		st=0
		bg_wait || st=$?
		expect_eq "$sig: status" "$st" 0 || return
		expect_eq "$sig: what the command got" "$(cat "$dir/out")" $'ready\n'"$num"$'\n'"$num"$'\n'"$num" || return
	done
}

@test "SIGTSTP to flinkshim stops the command, SIGCONT to flinkshim resumes it" {
	need_trace
	# The kernel discards SIGTSTP in an orphaned process group: a shell with job control
	# (set -m) in a session of its own runs flinkshim as a job in a group of its own. The
	# command waits for SIGTERM, which comes after SIGCONT, also through flinkshim.
	run --separate-stderr timeout -s KILL 60 setsid bash -c '
		set -m
		"$1" --trace "$2" wait-signal >"$3" &
		f=$!
		for i in $(seq 400); do grep -q ready "$3" && break; sleep 0.05; done
		c=$(pgrep -P "$f")
		kill -TSTP "$f"
		for i in $(seq 400); do
			s=$(awk "{ print \$3 }" "/proc/$c/stat" 2>/dev/null)
			[ "$s" = t ] || [ "$s" = T ] && break
			sleep 0.05
		done
		echo "command: $s"
		kill -CONT "$f"
		kill -TERM "$f"
		wait "$f"
		echo "status: $?"' sh "$FLS_TRACE" "$FLS_PUB/static_legacy" "$(fls_workdir)/out" </dev/null
	expect_eq output "$output" $'command: t\nstatus: 0'
}
