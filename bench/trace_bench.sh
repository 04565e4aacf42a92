#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# trace_bench.sh [--smoke] BUILDDIR: the figures of `make bench-trace`, what `flinkshim --trace`
# costs, one line each with its goal:
#
#   untrapped   a million getppid() under --trace / the same natively. Only the seccomp
#               filter runs on those calls (the tracer never wakes): the mode's floor, at its
#               largest on the cheapest system call there is. Goal <= 1.30.
#   startup     a shell loop that starts 500 short programs (/bin/true) under --trace / the
#               same natively: what following every fork, exec and exit costs, the
#               supervisor woken at each. Goal <= 1.05.
#   trapped     2 000 legacy links under --trace with /proc hidden / the same under proot
#               with /proc (proot stops at every path system call; --trace only at
#               linkat(AT_SYMLINK_FOLLOW)). Goal <= 0.50. Also the time of one trapped link.
#
# Each figure runs both sides in turns, ROUNDS times (default 5), and keeps the best time of
# each side: a shared machine only ever adds noise, never removes it. The programs time their
# own loops (bench/trace_bench.c), so the start-up of flinkshim or proot is not counted; the
# link loop times the linkat() calls alone.
#
# --smoke runs everything once with tiny counts and prints TAP, to check that it all runs.
# The goals are printed, never enforced: the exit status is 0 whenever every figure could be
# measured or was skipped with a reason.
set -u

smoke=0
if [ "${1:-}" = "--smoke" ]; then
	smoke=1
	shift
fi
builddir=${1:-${top_builddir:-.}}
flinkshim=$builddir/flinkshim
prog=$builddir/bench/trace_bench
rounds=${ROUNDS:-5}
calls=1000000
links=2000
spawns=500
if [ "$smoke" = 1 ]; then
	rounds=1
	calls=1000
	links=20
	spawns=5
fi

scratch_parent=${TMPDIR:-/tmp}
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	scratch_parent=/dev/shm # no journal noise in the link times
fi
work=$(mktemp -d "$scratch_parent/flinkshim-trace-bench.XXXXXX") || exit 2
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# noproc CMD...: CMD in a private mount namespace with an empty tmpfs over /proc.
noproc() {
	"${FLS_PRIVATE_NS:-$(dirname "$0")/../tests/private_ns.sh}" --noproc "$@"
}

# best CURRENT NEW: the smaller, CURRENT being empty at first.
best() {
	if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi
}

# line LABEL FIGURE GOAL DETAILS
line() {
	awk -v l="$1" -v f="$2" -v g="$3" -v d="$4" -v smoke="$smoke" 'BEGIN {
		printf "%-26s %6.2f  goal <= %.2f  %-6s  (%s)\n", l, f, g,
			smoke == 1 ? "smoke" : (f <= g ? "met" : "MISSED"), d }'
}

skipped() {
	printf '%-26s skipped: %s\n' "$1" "$2"
}

# A directory for one link loop, empty, writable by whoever runs the loop.
fresh_dir() {
	rm -rf "$work/links"
	mkdir "$work/links" && echo "$work/links"
}

untrapped() {
	native= traced= i=0
	if ! err=$("$flinkshim" --trace true 2>&1); then
		skipped "trace: untrapped call" "flinkshim --trace cannot run here: $err"
		return 0
	fi
	while [ "$i" -lt "$rounds" ]; do
		n=$("$prog" getppid "$calls") || return 1
		t=$("$flinkshim" --trace "$prog" getppid "$calls") || return 1
		native=$(best "$native" "$n")
		traced=$(best "$traced" "$t")
		i=$((i + 1))
	done
	line "trace: untrapped call" "$(awk -v a="$traced" -v b="$native" 'BEGIN { print a / b }')" 1.30 \
		"$(awk -v a="$traced" -v b="$native" -v c="$calls" -v r="$rounds" 'BEGIN {
			printf "getppid() under --trace / native: %.0f / %.0f ns per call; best of %d, %d calls", a / c, b / c, r, c }')"
}

startup() {
	native= traced= i=0
	short=/bin/true
	[ -x "$short" ] || short=$(command -v true)
	if ! err=$("$flinkshim" --trace true 2>&1); then
		skipped "trace: process startup" "flinkshim --trace cannot run here: $err"
		return 0
	fi
	while [ "$i" -lt "$rounds" ]; do
		n=$("$prog" spawn "$spawns" "$short") || return 1
		t=$("$flinkshim" --trace "$prog" spawn "$spawns" "$short") || return 1
		native=$(best "$native" "$n")
		traced=$(best "$traced" "$t")
		i=$((i + 1))
	done
	line "trace: process startup" "$(awk -v a="$traced" -v b="$native" 'BEGIN { print a / b }')" 1.05 \
		"$(awk -v a="$traced" -v b="$native" -v c="$spawns" -v r="$rounds" -v p="$short" 'BEGIN {
			printf "a shell loop running %s %d times, under --trace / native: %.0f / %.0f us per process; best of %d", p, c, a / c / 1000, b / c / 1000, r }')"
}

trapped() {
	native= traced= prooted= i=0
	if ! why=$(noproc true 2>&1); then
		skipped "trace: trapped link" "cannot hide /proc: ${why#private_ns: }"
		return 0
	fi
	if ! err=$(noproc "$flinkshim" --trace true 2>&1); then
		skipped "trace: trapped link" "flinkshim --trace cannot run here: $err"
		return 0
	fi
	have_proot=0
	if command -v proot >/dev/null 2>&1 && proot true >/dev/null 2>&1; then
		have_proot=1
	fi
	while [ "$i" -lt "$rounds" ]; do
		d=$(fresh_dir) && n=$("$prog" link "$links" "$d") || return 1
		d=$(fresh_dir) && t=$(noproc "$flinkshim" --trace "$prog" link "$links" "$d") || return 1
		native=$(best "$native" "$n")
		traced=$(best "$traced" "$t")
		if [ "$have_proot" = 1 ]; then
			d=$(fresh_dir) && p=$(proot "$prog" link "$links" "$d") || return 1
			prooted=$(best "$prooted" "$p")
		fi
		i=$((i + 1))
	done
	if [ "$have_proot" = 1 ]; then
		line "trace: trapped link" "$(awk -v a="$traced" -v b="$prooted" 'BEGIN { print a / b }')" 0.50 \
			"$(awk -v a="$traced" -v b="$prooted" -v c="$links" -v r="$rounds" 'BEGIN {
				printf "--trace, /proc hidden / proot, /proc mounted: %.1f / %.1f us per link; best of %d, %d links", a / c / 1000, b / c / 1000, r, c }')"
	else
		skipped "trace: trapped link" "proot is not installed (Debian: apt-get install proot), nothing to compare with"
	fi
	awk -v a="$traced" -v n="$native" -v c="$links" -v r="$rounds" 'BEGIN {
		printf "%-26s %6.1f  us, no goal    (one legacy link under --trace with /proc hidden; natively with /proc: %.1f us; best of %d, %d links)\n",
			"trace: us per trapped link", a / c / 1000, n / c / 1000, r, c }'
}

if [ ! -x "$prog" ] || [ ! -x "$flinkshim" ]; then
	echo "trace_bench.sh: build $prog and $flinkshim first (make bench-trace)" >&2
	exit 2
fi

if [ "$smoke" = 1 ]; then
	echo "1..3"
	if out=$(untrapped 2>&1); then st=ok; else st="not ok"; fi
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "$st 1 - untrapped call under --trace runs"
	if out=$(trapped 2>&1); then st=ok; else st="not ok"; fi
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "$st 2 - trapped link under --trace runs"
	if out=$(startup 2>&1); then st=ok; else st="not ok"; fi
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "$st 3 - process startup loop under --trace runs"
	exit 0
fi

status=0
untrapped || { echo "trace: untrapped call: the measurement failed" >&2; status=1; }
startup || { echo "trace: process startup: the measurement failed" >&2; status=1; }
trapped || { echo "trace: trapped link: the measurement failed" >&2; status=1; }
exit "$status"
