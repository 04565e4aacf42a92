#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# run.sh [--smoke] [BUILDDIR [LIBRARY]]: the figures of `make bench`, one line each with its
# goal. BUILDDIR holds the built bench programs (default $top_builddir), LIBRARY is the shim to
# preload (default $FLINKSHIM_LIB, else BUILDDIR/.libs/libflinkshim.so.0).
#
# --smoke runs every bench program for a moment and prints TAP: `make check` uses it so that
# the benchmarks never rot. It checks that they run, never how fast: the machines that run the
# tests are shared and noisy, and a speed goal there would fail at random.
#
# The speed goals are printed, never enforced: the exit status is 0 whenever every figure could
# be measured or was skipped with a reason.
set -u

smoke=0
if [ "${1:-}" = "--smoke" ]; then
	smoke=1
	shift
fi
builddir=${1:-${top_builddir:-.}}
lib=${2:-${FLINKSHIM_LIB:-$builddir/.libs/libflinkshim.so.0}}
bench=$builddir/bench
empty=$bench/.libs/libempty.so

# A scratch directory on tmpfs where there is one: a disk file system's journal would add its
# own noise to every link and unlink, and hide the shim's cost in it.
scratch_parent=${TMPDIR:-/tmp}
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	scratch_parent=/dev/shm
fi
work=$(mktemp -d "$scratch_parent/flinkshim-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The shared object of libeatmydata, for comparison, if it is installed.
eatmydata=
for f in /usr/lib/*/libeatmydata.so /usr/lib/libeatmydata.so /usr/lib64/libeatmydata.so \
	/usr/local/lib/libeatmydata.so; do
	if [ -r "$f" ]; then
		eatmydata=$f
		break
	fi
done
# A libeatmydata built for another C library than the bench programs (Debian's, in a musl
# build) cannot be preloaded into them: then there is nothing to compare with.
if [ -n "$eatmydata" ] && ! LD_PRELOAD=$eatmydata "$bench/tiny" >/dev/null 2>&1; then
	eatmydata=
fi

# Why valgrind cannot count here, or nothing. Its launcher (on Debian a sh script, then a
# dynamic program) gets LD_PRELOAD too: built for another C library than the shim (Debian's
# valgrind and a musl build of the shim), it cannot start with the shim preloaded.
valgrind_unusable() {
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "valgrind is not installed"
	elif ! err=$(LD_PRELOAD=$lib valgrind --version 2>&1 >/dev/null); then
		echo "valgrind cannot start with the shim preloaded (built for another C library?):" \
			"$(printf '%s\n' "$err" | head -n 1)"
	fi
}

run_calls() { LD_PRELOAD=$lib "$bench/bench_calls" "$@" "$work"; }

run_startup() {
	set -- "$@" "$bench/tiny" "$empty" "$lib"
	[ -n "$eatmydata" ] && set -- "$@" "libeatmydata=$eatmydata"
	"$bench/bench_startup" "$@"
}

# callgrind's dumps land in $work/cg; the shim is preloaded into the client (valgrind passes
# LD_PRELOAD on to it, its own preloads added).
run_insn() {
	rm -rf "$work/cg"
	mkdir "$work/cg" || return 2
	LD_PRELOAD=$lib valgrind -q --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$work/cg/cg.out" "$bench/bench_insn" "$@" "$work"
}

# Read the dumps: "desc: Trigger: Client Request: LABEL:CALLS" and "totals: IR" (or
# "summary: IR"). Per call = (Ir of CALLS calls - Ir of none) / CALLS, minus the same for the
# loop that calls an empty function.
report_insn() {
	calls=$1
	proc=$2
	cat "$work"/cg/cg.out.* | awk -v n="$calls" -v proc="$proc" -v smoke="$smoke" '
		/^desc: Trigger: Client Request: / { label = $NF }
		/^(totals|summary): / { ir[label] = $2 }
		function per(v) { return (ir[v ":" n] - ir[v ":0"]) / n }
		function line(label, fig, goal, extra) {
			printf "%-26s %6.0f  goal <= %-4d  %-6s  (%s)\n", label, fig, goal,
				smoke == 1 ? "smoke" : (fig + 0.5 < goal + 1) ? "met" : "MISSED", extra
		}
		END {
			el = per("empty_linkat"); es = per("empty_syscall")
			ll = per("libc_linkat") - el; sl = per("shim_linkat") - el
			ls = per("libc_syscall") - es; ss = per("shim_syscall") - es
			rw = per("shim_rewrite") - el; dl = per("libc_direct") - el
			line("5. instructions linkat", sl, 30, sprintf("pass-through, Ir per call " \
				"beyond an empty call: shim %.0f + libc linkat %.0f; callgrind, %d calls",
				sl - ll, ll, n))
			line("5. instructions syscall", ss, 30, sprintf("pass-through " \
				"syscall(SYS_getpid): shim %.0f + libc syscall %.0f", ss - ls, ls))
			line("5. instructions rewrite", rw, 300, sprintf("legacy idiom, /proc %s: " \
				"shim %.0f + libc linkat %.0f; AT_EMPTY_PATH by hand: %.0f", proc, rw - dl,
				dl, dl))
		}'
}

# The user-space instructions of one start of bench/tiny with a preload (the loader's work for
# it and its constructors), counted by callgrind: the deterministic half of line 4, which the
# time ratio measures through a lot of noise.
startup_ir() {
	LD_PRELOAD=$1 valgrind -q --tool=callgrind --callgrind-out-file="$work/st.out" \
		"$bench/tiny" >/dev/null 2>&1 || return 1
	sed -n 's/^totals: //p' "$work/st.out"
}

report_startup_ir() {
	base=$(startup_ir "$empty") && shim=$(startup_ir "$lib") || {
		printf '%-26s skipped: %s\n' "4. startup, user space" "callgrind could not run bench/tiny"
		return 0
	}
	extra=
	if [ -n "$eatmydata" ] && emd=$(startup_ir "$eatmydata"); then
		extra="; libeatmydata $((emd - base))"
	fi
	printf '%-26s %+6d  Ir, no goal  (the loader and constructors in user space, over the empty preload: %d vs %d%s)\n' \
		"4. startup, user space" $((shim - base)) "$shim" "$base" "$extra"
}

if [ "$smoke" = 1 ]; then
	echo "1..3"
	t=0
	tap() { # tap DESCRIPTION STATUS OUTPUT
		t=$((t + 1))
		printf '%s\n' "$3" | sed 's/^/# /'
		case $2 in
		0) echo "ok $t - $1" ;;
		77) echo "ok $t - $1 # SKIP $(printf '%s\n' "$3" | sed -n 's/^skipped: //p' | head -n 1)" ;;
		*) echo "not ok $t - $1 (exit status $2)" ;;
		esac
	}
	out=$(run_calls --smoke 2>&1)
	tap "bench_calls --smoke: passthrough, rewrite, tolimit" $? "$out"
	out=$(run_startup --smoke 2>&1)
	tap "bench_startup --smoke: startup" $? "$out"
	why=$(valgrind_unusable)
	if [ -z "$why" ]; then
		out=$(run_insn --smoke 2>&1)
		st=$?
		if [ "$st" = 0 ]; then
			out="$out
$(report_insn 10 "$(printf '%s\n' "$out" | sed -n 's/^proc=//p')" 2>&1)"
		fi
	else
		out="skipped: $why"
		st=77
	fi
	tap "bench_insn --smoke under callgrind: instructions" "$st" "$out"
	exit 0
fi

echo "flinkshim bench: $(date -u +%Y-%m-%d), Linux $(uname -r) $(uname -m)," \
	"$(getconf GNU_LIBC_VERSION 2>/dev/null || echo 'libc ?'), $(nproc) CPUs," \
	"scratch on $(stat -f -c %T "$work")"
echo "  time: the median of per-repetition ratios (the variants interleaved in one run), its goal," \
	"the medians of both sides, the spread of the ratios; Ir: user-space instructions (callgrind)"
status=0
run_calls || status=$?
run_startup || status=$?
why=$(valgrind_unusable)
if [ -n "$why" ]; then
	printf '%-26s skipped: %s\n' "4. startup, user space" "$why"
	printf '%-26s skipped: %s\n' "5. instructions" "$why"
else
	report_startup_ir
	calls=1000
	out=$(run_insn -n "$calls" 2>&1)
	st=$?
	case $st in
	0) report_insn "$calls" "$(printf '%s\n' "$out" | sed -n 's/^proc=//p')" ;;
	*) printf '%-26s skipped: %s\n' "5. instructions" \
		"bench_insn under callgrind failed (exit status $st): $out"
	   status=1 ;;
	esac
fi
exit "$status"
