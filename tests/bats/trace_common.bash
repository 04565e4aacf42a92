# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
# status, output and stderr are set by bats' run:
# shellcheck disable=SC2154
#
# Shared by the suites of `flinkshim --trace` (trace.bats, trace_lifecycle.bats): the
# supervisor's copy, the probe that says whether it can work here, and background runs with
# a watchdog, so that a supervisor that hangs fails its test instead of hanging the suite.

# From setup_file, after adding the suite's helpers to FLS_HELPERS.
trace_setup_file() {
	fls_setup_file
	cp "$FLINKSHIM_BIN" "$FLS_PUB/flinkshim"
	chmod 755 "$FLS_PUB/flinkshim"
	export FLS_TRACE="$FLS_PUB/flinkshim"
	trace_probe
}

# Can --trace work on this machine? Skip only where it says ptrace or seccomp is forbidden AND
# an independent probe (strace; the oldkernel seccomp filter) agrees: a supervisor that wrongly
# thinks it is forbidden must fail the suite, not skip it.
trace_probe() {
	local err

	FLS_SKIP_TRACE=
	# The build's architecture, not the machine's: an i386 build on an x86_64 kernel too.
	if [ "${FLS_HOST_CPU:-$(uname -m)}" != x86_64 ]; then
		FLS_SKIP_TRACE="--trace supports x86_64 only so far (this build is for ${FLS_HOST_CPU:-$(uname -m)})"
	elif ! err=$("$FLS_TRACE" --trace true 2>&1); then
		if [[ $err == *"ptrace is not permitted here"* ]] && [ -n "$FLS_SKIP_STRACE" ]; then
			FLS_SKIP_TRACE="ptrace is forbidden here ($FLS_SKIP_STRACE): $err"
		elif [[ $err == *"seccomp is not permitted here"* ]] && [ -n "$FLS_SKIP_OLDKERNEL" ]; then
			FLS_SKIP_TRACE="seccomp is forbidden here ($FLS_SKIP_OLDKERNEL): $err"
		fi
	fi
	export FLS_SKIP_TRACE
}

need_trace() {
	[ -z "$FLS_SKIP_TRACE" ] || skip "$FLS_SKIP_TRACE"
}

# wait_for FILE TEXT: until FILE holds a line TEXT (20 s at most: a bound for a hang, not a
# speed).
wait_for() {
	local i
	for i in $(seq 400); do
		grep -qx "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fls_fail "never saw '$2' in $1: $(cat "$1")"
}

# in_background FILE CMD...: CMD in the background, output to FILE, its pid in BG_PID, and a
# watchdog that kills it (SIGKILL: the supervisor's tracees die with it, PTRACE_O_EXITKILL)
# after 30 s, so that a supervisor that loses a signal fails the test instead of hanging it.
# Both run without bats' ERR and DEBUG traps (a subshell inherits them, and a command that
# fails there would report a failure of its own), CMD is exec'd, so that BG_PID is its pid,
# and the watchdog closes bats' fd 3, which bats waits for. The watchdog is called off with
# SIGKILL: a subshell that a catchable signal reaches before it has reset bats' handlers
# would report on the test too.
in_background() {
	local out=$1
	shift
	(
		trap - ERR DEBUG
		set +eET
		exec "$@"
	) >"$out" 2>&1 &
	BG_PID=$!
	(
		trap - ERR DEBUG
		set +eET
		exec 3>&-
		sleep 30
		kill -KILL "$BG_PID"
	) >/dev/null 2>&1 &
	BG_WATCHDOG=$!
}

# bg_wait: the status of the background command; the watchdog is called off.
bg_wait() {
	local st=0
	wait "$BG_PID" || st=$?
	kill -KILL "$BG_WATCHDOG" 2>/dev/null || :
	wait "$BG_WATCHDOG" 2>/dev/null || :
	return "$st"
}

