#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The differential parity matrix (TAP). For each of four worlds, root or unprivileged, with
# the old-kernel simulation off or on, tests/parity/parity_driver runs every case three times:
#
#   reference  no shim, /proc mounted          what the program gets today
#   candidate  LD_PRELOAD=the shim, /proc hidden  what the shim gives where /proc is missing
#   noshim     no shim, /proc hidden           not judged: shows, for a divergence, whether the
#                                              shim passed the call through untouched
#
# each in a private mount namespace (tests/private_ns.sh) of its own, with a tmpfs to work in and a
# second tmpfs for "another filesystem"; the /proc-less runs mount an empty tmpfs over /proc
# (the host is untouched). Unprivileged runs drop
# privileges for real with setpriv after the mounts. The old-kernel simulation is a seccomp
# filter the driver installs in each case (linkat with AT_EMPTY_PATH fails with ENOENT).
#
# Each case must give the candidate exactly the reference's line (return value, errno name,
# and the disk: new name exists, same inode, link count, content, stray names), except where
# the driver marks it otherwise (see mark() in parity_driver.c):
#   refused-without-proc  no route exists once /proc is hidden (the kernel rules of
#                         kernel-facts.md): the candidate must say ENOENT and leave the disk
#                         as it was before the call;
#   pass-through          not the idiom (other flags, or a path that does not end on one of our
#                         fd links): the shim must not touch it, so the candidate must give the
#                         line of a third run, without the shim and with /proc hidden;
#   gap                   a spelling the classifier knowingly refuses (the spelling table's
#                         gaps): a TODO point, visible, which turns into a failure (XPASS) the
#                         day it is fixed.
# One TAP point per case; a divergence is a "not ok" with both lines.
# The last line is "# parity: D divergences in N cases, G known gaps as TODO".
#
# As root, the unprivileged worlds are uid 65534 (setpriv). Not root, the private namespaces are
# user namespaces too (private_ns.sh): "root" is root of the namespace, and "unprivileged" the
# caller itself with no capability. Skips, saying why, where no such namespace can be made.
set -u

: "${FLINKSHIM_LIB:?FLINKSHIM_LIB is not set: run through make check}"
: "${top_builddir:?top_builddir is not set: run through make check}"

UNPRIV=65534
[ "$(id -u)" = 0 ] || UNPRIV=$(id -u)
# parity_driver.c's CONTENT: the root-owned files must hold the bytes the driver checks.
ROOTFILE_CONTENT='parity'
SETPRIV="setpriv --reuid=$UNPRIV --regid=$UNPRIV --clear-groups --inh-caps=-all"
SETPRIV="$SETPRIV --bounding-set=-all"

driver=$top_builddir/tests/parity/parity_driver

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}
bail() {
	echo "Bail out! $*"
	exit 99
}

private_ns=${FLS_PRIVATE_NS:-$top_srcdir/tests/private_ns.sh}
why=$("$private_ns" true 2>&1) || skip_all "no private mount namespace here: ${why#private_ns: }"
command -v setpriv >/dev/null 2>&1 || bail "setpriv (util-linux) is not installed"
[ -x "$driver" ] || bail "$driver is missing: build it first"
[ -r "$FLINKSHIM_LIB" ] || bail "the library $FLINKSHIM_LIB is missing: build first"

# The unprivileged user must read and run the copies, but the build tree may sit under a 0700
# directory: copy both to a world-readable place. Every world uses the copies.
pub=$(mktemp -d /tmp/flinkshim-parity.XXXXXX) || bail "mktemp failed"
# PARITY_KEEP=DIR keeps every run's raw output there, for a closer look at a divergence.
cleanup() {
	if [ -n "${PARITY_KEEP:-}" ]; then
		mkdir -p "$PARITY_KEEP" && cp "$pub"/*.out "$pub"/*.err "$PARITY_KEEP"/
	fi
	rm -rf "$pub"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 755 "$pub"
{ cp "$driver" "$pub/parity_driver" && cp "$FLINKSHIM_LIB" "$pub/libflinkshim.so"; } ||
	bail "cannot copy the driver and the library to $pub"
chmod 755 "$pub/parity_driver" "$pub/libflinkshim.so"

tap_n=0
tap_fail=0
ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}
not_ok() {
	tap_n=$((tap_n + 1))
	tap_fail=$((tap_fail + 1))
	echo "not ok $tap_n - $*"
}

# run WORLD RUN: one run of the driver; its output in $pub/WORLD.RUN.out. The scratch
# directory is a tmpfs of the run's own (metadata on a tmpfs is several times faster than on a
# journalling filesystem, and it vanishes with the namespace), holding the root-owned files;
# "another filesystem" is a second tmpfs inside it.
run() {
	world=$1 kind=$2
	case $world in
	unpriv*) uid=$UNPRIV priv=$SETPRIV ns=
		# Not root: ourselves, holding the namespace's capabilities for the mounts, and
		# dropping them after.
		[ "$(id -u)" = 0 ] ||
			priv="setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all" ns=--self ;;
	*) uid=0 priv= ns= ;;
	esac
	case $world in
	*oldkernel) old=oldkernel ;;
	*) old= ;;
	esac
	case $kind in
	reference) hide=0 preload= ;;
	candidate) hide=1 preload="LD_PRELOAD=$pub/libflinkshim.so" ;;
	noshim) hide=1 preload= ;;
	esac
	scratch=$pub/$world.$kind
	mkdir -p "$scratch" || return 1
	# $ns, $priv and $preload are word lists on purpose; the inner script expands its own "$1"...
	# shellcheck disable=SC2086,SC2016
	"$private_ns" $ns sh -c '
		set -e
		mount -t tmpfs -o "mode=0755,uid=$2,gid=$2,size=64m" parity-scratch "$1"
		printf "%s\n" "$4" >"$1/rootfile-ro"
		printf "%s\n" "$4" >"$1/rootfile-private"
		chmod 644 "$1/rootfile-ro"
		chmod 600 "$1/rootfile-private"
		mkdir "$1/other"
		mount -t tmpfs -o "mode=0755,uid=$2,gid=$2,size=16m" parity-otherfs "$1/other"
		if [ "$3" = 1 ]; then mount -t tmpfs -o mode=0555,size=64k parity-noproc /proc; fi
		shift 4
		exec "$@"
	' sh "$scratch" "$uid" "$hide" "$ROOTFILE_CONTENT" \
		$priv env -u LD_PRELOAD -u FLINKSHIM_DEBUG $preload \
		"$pub/parity_driver" run "$scratch" "$scratch/other" $old \
		>"$pub/$world.$kind.out" 2>"$pub/$world.$kind.err"
}

# check_header WORLD RUN FIELD=VALUE...: the run was made in the world we meant.
check_header() {
	world=$1 kind=$2
	shift 2
	header=$(sed -n '1{/^# world /p;}' "$pub/$world.$kind.out")
	missing=
	for want in "$@"; do
		case " $header " in
		*" $want "*) ;;
		*) missing="$missing $want" ;;
		esac
	done
	if [ -n "$header" ] && [ -z "$missing" ]; then
		ok "$world $kind: ${header#\# world }"
	else
		not_ok "$world $kind: the world is not the one asked for (want:$missing)"
		echo "#   header: ${header:-none}"
		sed 's/^/#   stderr: /' "$pub/$world.$kind.err" | head -n 20
	fi
}

total=0
diverged=0
gaps=0
start=$(date +%s)

for world in root root+oldkernel unpriv unpriv+oldkernel; do
	case $world in
	unpriv*) uid=$UNPRIV cap=0 ;;
	*) uid=0 cap=1 ;;
	esac
	case $world in
	*oldkernel) seccomp=on direct=ENOENT ;;
	*) seccomp=off direct= ;;
	esac
	# The three runs of a world are independent: side by side.
	run "$world" reference &
	pid_reference=$!
	run "$world" candidate &
	pid_candidate=$!
	run "$world" noshim &
	pid_noshim=$!
	failed_run=
	wait "$pid_reference" || failed_run="$failed_run reference"
	wait "$pid_candidate" || failed_run="$failed_run candidate"
	wait "$pid_noshim" || failed_run="$failed_run noshim"
	if [ -n "$failed_run" ]; then
		not_ok "$world: the driver failed in:$failed_run"
		for kind in $failed_run; do
			sed "s/^/#   $kind: /" "$pub/$world.$kind.err" | head -n 20
		done
		continue
	fi
	if grep -q ' seccomp=unsupported ' "$pub/$world.reference.out"; then
		ok "$world # SKIP no seccomp filter for this architecture or these headers"
		continue
	fi
	# direct=ok is only certain for root (or unprivileged on >= 6.10, not checked here):
	# with the simulation, ENOENT proves the filter is in place.
	d=${direct:+direct=$direct}
	[ -z "$d" ] && [ "$cap" = 1 ] && d=direct=ok
	# shellcheck disable=SC2086 # $d is empty or one word
	check_header "$world" reference "uid=$uid" "cap_dac_read_search=$cap" proc=mounted \
		shim=absent "seccomp=$seccomp" $d
	# shellcheck disable=SC2086
	check_header "$world" candidate "uid=$uid" "cap_dac_read_search=$cap" proc=hidden \
		shim=loaded "seccomp=$seccomp" $d
	# shellcheck disable=SC2086
	check_header "$world" noshim "uid=$uid" "cap_dac_read_search=$cap" proc=hidden \
		shim=absent "seccomp=$seccomp" $d

	# One point per case, in the reference's order.
	awk -F '\t' -v world="$world" -v n="$tap_n" -v counts="$pub/counts" '
		FNR == 1 { file++ }
		/^# world / {
			for (i = 1; i <= split($0, w, " "); i++)
				if (w[i] ~ /^cases=/)
					announced[file] = substr(w[i], 7) + 0
		}
		/^#/ { next }
		{ lines[file]++ }
		file == 1 { base[$1] = $2; next }
		file == 2 { cand[$1] = $2; cmark[$1] = $3; seen[$1] = 1; next }
		file == 3 {
			id = $1; total++
			if (id in ref) { dup = 1 }
			ref[id] = $2
			why = ""
			if (!(id in cand)) {
				why = "missing from the candidate run"
			} else if ($2 ~ /^setup-error/ || cand[id] ~ /^setup-error/) {
				why = "the case could not run"
			} else if ($3 != cmark[id]) {
				why = "the refusal rule differs between the runs"
			} else {
				expect = $2
				if ($3 ~ /^refused-without-proc/)
					expect = "ret=-1 errno=ENOENT " $4
				else if ($3 == "pass-through")
					expect = base[id]
				if (cand[id] != expect)
					why = "divergence"
			}
			n++
			todo = ($3 ~ /^gap:/) ? " # TODO " substr($3, 5) : ""
			if (why == "") {
				print "ok " n " - " world ": " id todo
			} else {
				if (todo == "")
					bad++
				else
					gaps++
				print "not ok " n " - " world ": " id ": " why todo
				print "#   reference: " $2
				print "#   candidate: " cand[id]
				if ($3 ~ /^refused-without-proc/) {
					print "#   expected:  ret=-1 errno=ENOENT " $4 "  (" $3 ")"
				}
				print "#   no shim, /proc hidden: " base[id] \
				      (base[id] == cand[id] ? "  (= candidate: passed through)" : "")
			}
			delete seen[id]
		}
		END {
			for (id in seen) {
				n++; errs++
				print "not ok " n " - " world ": " id ": only in the candidate run"
			}
			if (dup) { n++; errs++; print "not ok " n " - " world ": duplicate case ids" }
			# A run that stopped early would otherwise look like a smaller matrix.
			for (f = 1; f <= 3; f++)
				if (lines[f] + 0 != announced[f] + 0 || lines[f] + 0 != lines[3] + 0) {
					n++; errs++
					print "not ok " n " - " world ": run " f " printed " lines[f] + 0 \
					      " cases of " announced[f] + 0 " announced"
				}
			print n, total, bad + 0, errs + 0, gaps + 0 > counts
		}
	' "$pub/$world.noshim.out" "$pub/$world.candidate.out" "$pub/$world.reference.out"
	read -r tap_n w_total w_bad w_errs w_gaps <"$pub/counts" || bail "the comparison failed"
	total=$((total + w_total))
	gaps=$((gaps + w_gaps))
	diverged=$((diverged + w_bad))
	tap_fail=$((tap_fail + w_bad + w_errs))
	if [ "$w_total" -lt 100 ]; then
		not_ok "$world: only $w_total cases ran"
	fi
done

echo "1..$tap_n"
echo "# parity: $diverged divergences in $total cases, $gaps known gaps as TODO ($(($(date +%s) - start)) s)"
[ "$tap_fail" -eq 0 ]
