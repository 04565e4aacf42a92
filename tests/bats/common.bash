# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
# status, output, lines, stderr and stderr_lines are set by bats' run; the FLS_DBG_* patterns
# are for the suites that load this file:
# shellcheck disable=SC2154,SC2034
#
# Shared by the bats suites: the test worlds and the assertions.
#
# A test world is built for real, never simulated in the library:
#   noproc     a private mount namespace with an empty tmpfs over /proc (the host is untouched),
#              made by tests/private_ns.sh, which also works in a chroot (pbuilder, sbuild)
#              and, through a user namespace, for an unprivileged caller (then "root" is root of
#              that namespace)
#   unpriv     as root: uid/gid 65534, no supplementary groups, no capabilities, empty bounding
#              set (setpriv; it works inside the /proc-less namespace too: setpriv finds the
#              last capability with prctl(PR_CAPBSET_READ) when /proc/sys is missing, and
#              fls_setup_file checks the result). Not root: the caller itself, with no
#              capability, also inside the /proc-less namespace (private_ns.sh --unpriv)
#   oldkernel  a seccomp filter: linkat() with AT_EMPTY_PATH fails with ENOENT, as before 6.10
#   nokcmp     a seccomp filter: kcmp() fails with EPERM, as under Docker's default profile
#   shim       LD_PRELOAD of the library under test
#   debug      FLINKSHIM_DEBUG=1
#   preload=A:B  LD_PRELOAD=A:B exactly (composition with other preloads)
#   VAR=value  that variable, for the command alone
# and they compose in the order written:
#     run in_world noproc unpriv shim debug legacy_link -w fork "$dir" name
# A command word that names a copied helper (legacy_link, foreign_fd, ...) runs the copy.
#
# The unprivileged user must be able to read every binary it runs and write where it works,
# but the build tree may sit under a 0700 directory: fls_setup_file copies the helpers and the
# library to a world-readable directory ($FLS_PUB), and fls_workdir makes test directories
# owned by 65534 under it. Every world, the root ones included, uses the copies, so a suite
# tests the same bytes as root and as 65534.
#
# Each suite calls fls_setup_file from setup_file, fls_setup from setup, fls_teardown_file from
# teardown_file, then fls_need_* at the top of a test to skip, with the probe's reason, where
# the machine cannot build that world.

bats_require_minimum_version 1.5.0

FLS_HELPERS=(legacy_link oldkernel passthrough foreign_fd nokcmp)
# The unprivileged user: 65534 when we are root, else ourselves.
FLS_UID=65534
if [ "$(id -u)" != 0 ]; then
	FLS_UID=$(id -u)
fi
: "${FLS_PRIVATE_NS:=${top_srcdir:-.}/tests/private_ns.sh}"

# ---------------------------------------------------------------------------------------------
# Setup

fls_setup_file() {
	local h parent

	: "${FLINKSHIM_LIB:?FLINKSHIM_LIB is not set: run the suites through make check}"
	: "${HELPERS:?HELPERS is not set: run the suites through make check}"
	[ -r "$FLINKSHIM_LIB" ] || {
		echo "# the library $FLINKSHIM_LIB is missing: build first" >&3
		return 1
	}

	# A world-readable place for the copies: $TMPDIR if 65534 can reach it, else /tmp.
	parent=${TMPDIR:-/tmp}
	FLS_PUB=$(mktemp -d "$parent/flinkshim-bats.XXXXXX")
	chmod 755 "$FLS_PUB"
	if [ "$(id -u)" = 0 ] && [ "$parent" != /tmp ] && ! fls_unpriv_can_reach "$FLS_PUB"; then
		rm -rf "$FLS_PUB"
		FLS_PUB=$(mktemp -d /tmp/flinkshim-bats.XXXXXX)
		chmod 755 "$FLS_PUB"
	fi
	for h in "${FLS_HELPERS[@]}"; do
		cp "$HELPERS/$h" "$FLS_PUB/$h"
	done
	cp "$FLINKSHIM_LIB" "$FLS_PUB/libflinkshim.so"
	cp "$HELPERS/.libs/libcountlink.so" "$FLS_PUB/libcountlink.so"
	chmod 755 "$FLS_PUB"/*
	export FLS_PUB
	export FLS_EUID=$EUID
	export FLS_LIB="$FLS_PUB/libflinkshim.so"
	export FLS_COUNT="$FLS_PUB/libcountlink.so"

	fls_probe
}

fls_teardown_file() {
	[ -n "${FLS_PUB:-}" ] && rm -rf "$FLS_PUB"
	return 0
}

# Per test: nothing from the caller's environment may change what the shim does.
fls_setup() {
	unset FLINKSHIM_DEBUG LD_PRELOAD
}

fls_unpriv_can_reach() {
	setpriv --reuid=$FLS_UID --regid=$FLS_UID --clear-groups test -x "$1" 2>/dev/null
}

# Which worlds this machine can build; each FLS_SKIP_* is empty or the reason to skip.
fls_probe() {
	local probe creds

	FLS_SKIP_NOPROC='' FLS_SKIP_UNPRIV='' FLS_SKIP_OLDKERNEL='' FLS_SKIP_STRACE='' FLS_SKIP_NOKCMP=''
	# private_ns.sh says why it cannot build the world; that is the reason to skip.
	if ! probe=$("$FLS_PRIVATE_NS" --noproc sh -c 'test ! -e /proc/self || echo "/proc is still there"' 2>&1) ||
		[ -n "$probe" ]; then
		FLS_SKIP_NOPROC="no /proc-less world here: ${probe#private_ns: }"
	fi
	if [ "$(id -u)" != 0 ]; then
		# We are the unprivileged user: it must hold no capability at all.
		creds=$(grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status | tr -d '\t' | tr '\n' ' ')
		if [ "$creds" != "CapInh:0000000000000000 CapPrm:0000000000000000 CapEff:0000000000000000 CapAmb:0000000000000000 " ]; then
			FLS_SKIP_UNPRIV="not root, but not unprivileged either (capabilities: $creds)"
		elif [ -z "$FLS_SKIP_NOPROC" ] &&
			[ "$(in_world noproc unpriv sh -c 'id -u; test -e /proc/self || echo noproc' 2>&1 | tr '\n' ' ')" != "$FLS_UID noproc " ]; then
			FLS_SKIP_UNPRIV="private_ns.sh --unpriv does not give an unprivileged /proc-less world"
		fi
	else
		probe=$(fls_workdir)
		# With /proc mounted the status file tells what setpriv really left us.
		creds=$(in_world unpriv sh -c 'id -u; id -g; id -G; grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status; test -w "$1" && echo writable' sh "$probe" 2>&1 | tr '\n' ' ')
		if [ "$creds" != "65534 65534 65534 CapInh:	0000000000000000 CapPrm:	0000000000000000 CapEff:	0000000000000000 CapBnd:	0000000000000000 CapAmb:	0000000000000000 writable " ]; then
			FLS_SKIP_UNPRIV="setpriv could not drop to an unprivileged uid 65534 with no capabilities (got: $creds)"
		elif [ -z "$FLS_SKIP_NOPROC" ] &&
			[ "$(in_world noproc unpriv sh -c 'id -u; test -e /proc/self || echo noproc' 2>&1 | tr '\n' ' ')" != "65534 noproc " ]; then
			FLS_SKIP_UNPRIV="setpriv does not work inside the /proc-less namespace"
		fi
	fi
	if ! "$FLS_PUB/oldkernel" true 2>/dev/null; then
		FLS_SKIP_OLDKERNEL="cannot install a seccomp filter here (oldkernel failed: no seccomp, or no PR_SET_NO_NEW_PRIVS)"
	fi
	if ! "$FLS_PUB/nokcmp" true 2>/dev/null; then
		FLS_SKIP_NOKCMP="cannot deny kcmp with a seccomp filter here (nokcmp failed: no seccomp, no kcmp, or another architecture)"
	fi
	if ! command -v strace >/dev/null; then
		FLS_SKIP_STRACE="strace is not installed"
	elif ! strace -f -qq -o /dev/null true 2>/dev/null; then
		FLS_SKIP_STRACE="strace cannot trace here (ptrace denied)"
	fi
	# Does the running kernel let an unprivileged process link an fd it opened itself with
	# AT_EMPTY_PATH (Linux >= 6.10)? The suites expect what this kernel does, measured.
	FLS_KERNEL_FLINK=unknown
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		probe=$(fls_workdir)
		if in_world unpriv legacy_link -e direct "$probe" probe >/dev/null 2>&1; then
			FLS_KERNEL_FLINK=yes
		else
			FLS_KERNEL_FLINK=no
		fi
	fi
	export FLS_SKIP_NOPROC FLS_SKIP_UNPRIV FLS_SKIP_OLDKERNEL FLS_SKIP_STRACE FLS_SKIP_NOKCMP \
		FLS_KERNEL_FLINK
}

fls_need_noproc() {
	[ -z "$FLS_SKIP_NOPROC" ] || skip "$FLS_SKIP_NOPROC"
}

fls_need_unpriv() {
	[ -z "$FLS_SKIP_UNPRIV" ] || skip "$FLS_SKIP_UNPRIV"
}

fls_need_oldkernel() {
	[ -z "$FLS_SKIP_OLDKERNEL" ] || skip "$FLS_SKIP_OLDKERNEL"
}

fls_need_nokcmp() {
	[ -z "$FLS_SKIP_NOKCMP" ] || skip "$FLS_SKIP_NOKCMP"
}

fls_need_strace() {
	[ -z "$FLS_SKIP_STRACE" ] || skip "$FLS_SKIP_STRACE"
}

# A fresh directory, writable by the test and by 65534 (owned by 65534 when we are root).
fls_workdir() {
	local d

	# 0700 from mktemp is enough: 65534 owns it, and root needs no permission.
	d=$(mktemp -d "$FLS_PUB/work.XXXXXX")
	if [ "$FLS_EUID" = 0 ]; then
		chown "$FLS_UID:$FLS_UID" "$d"
	fi
	echo "$d"
}

# ---------------------------------------------------------------------------------------------
# Worlds

# fls_argv WORD... CMD [ARG]...: the world words expanded into FLS_WRAP (the wrapper
# programs, in order), FLS_ENV (VAR=value settings for the command alone: the shim is never
# preloaded into unshare, mount or setpriv) and FLS_CMD (the command, a helper's name resolved
# to its copy).
fls_argv() {
	FLS_WRAP=()
	FLS_ENV=()
	local noproc_at= unpriv_seen=
	while [ $# -gt 0 ]; do
		case $1 in
		noproc)
			noproc_at=${#FLS_WRAP[@]}
			FLS_WRAP+=("$FLS_PRIVATE_NS" --noproc)
			;;
		unpriv)
			unpriv_seen=1
			if [ "$FLS_EUID" = 0 ]; then
				FLS_WRAP+=(setpriv "--reuid=$FLS_UID" "--regid=$FLS_UID" --clear-groups
					--inh-caps=-all --bounding-set=-all)
			elif [ -n "$noproc_at" ]; then
				# Not root: the namespace itself drops back to us, with no capability.
				FLS_WRAP=("${FLS_WRAP[@]:0:noproc_at+2}" --unpriv "${FLS_WRAP[@]:noproc_at+2}")
			fi
			;;
		oldkernel) FLS_WRAP+=("$FLS_PUB/oldkernel") ;;
		nokcmp) FLS_WRAP+=("$FLS_PUB/nokcmp") ;;
		shim) FLS_ENV+=("LD_PRELOAD=$FLS_LIB") ;;
		debug) FLS_ENV+=(FLINKSHIM_DEBUG=1) ;;
		preload=*) FLS_ENV+=("LD_PRELOAD=${1#preload=}") ;;
		*)
			if [[ $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; then
				FLS_ENV+=("$1")
			else
				break
			fi
			;;
		esac
		shift
	done
	[ $# -gt 0 ] || {
		echo "fls_argv: no command" >&2
		return 2
	}
	# Not root: a root world (neither noproc nor unpriv) is root of a user namespace, with
	# /proc mounted, as noproc's is without it. in_world adds it; batch_add does not, since
	# its commands run inside the batch's world.
	FLS_ROOT_NS=
	if [ "$FLS_EUID" != 0 ] && [ -z "$noproc_at" ] && [ -z "$unpriv_seen" ]; then
		FLS_ROOT_NS=$FLS_PRIVATE_NS
	fi
	FLS_CMD=("$@")
	if [ "${1#*/}" = "$1" ] && [ -x "$FLS_PUB/$1" ]; then
		FLS_CMD[0]=$FLS_PUB/$1
	fi
}

# in_world [noproc] [unpriv] [oldkernel] [nokcmp] [shim] [debug] [preload=LIST] [VAR=value] CMD [ARG]...
in_world() {
	fls_argv "$@" || return
	[ -z "$FLS_ROOT_NS" ] || FLS_WRAP=("$FLS_ROOT_NS" "${FLS_WRAP[@]}")
	if [ "${#FLS_ENV[@]}" -gt 0 ]; then
		"${FLS_WRAP[@]}" env "${FLS_ENV[@]}" "${FLS_CMD[@]}"
	else
		"${FLS_WRAP[@]}" "${FLS_CMD[@]}"
	fi
}

# fls_fast FUNC [ARG]...: run a shell function without bats' DEBUG trap. bats traces every
# command of a test for its failure report, which makes loops over hundreds of results cost
# more than the programs they check. A subshell: its variables do not come back, and skip does
# not work inside (skip before); a failure is its exit status, explained on stderr.
fls_fast() {
	(
		trap - DEBUG
		set +T
		"$@"
	)
}

# Batches: many commands in one world, for the big matrices. Building a world costs tens of
# milliseconds (unshare, mount, setpriv); the helper itself, a few. A batch builds the world
# once and runs every queued command in it, each with its own stdout, stderr and status:
#     batch_begin; batch_add ID1 shim legacy_link ...; batch_add ID2 ...
#     batch_run noproc unpriv
#     batch_result ID1    # sets status, output, stderr, stderr_lines as `run --separate-stderr`
batch_begin() {
	FLS_BATCH_DIR=$(fls_workdir)
	FLS_BATCH=()
	FLS_BATCH_RUNS=0
}

# batch_add ID [per-command world words] CMD [ARG]...
batch_add() {
	local id=$1 line
	shift
	fls_argv "$@" || return
	if [ "${#FLS_WRAP[@]}" -gt 0 ] && [ "${#FLS_ENV[@]}" -gt 0 ]; then
		FLS_WRAP+=(env)
	fi
	# Without wrappers, VAR=value words in front of the command: bash sets them for it alone,
	# and an exec of env is saved.
	printf -v line '%q ' "${FLS_WRAP[@]}" "${FLS_ENV[@]}" "${FLS_CMD[@]}"
	FLS_BATCH+=("$line >$FLS_BATCH_DIR/$id.out 2>$FLS_BATCH_DIR/$id.err; echo \$? >$FLS_BATCH_DIR/$id.status")
}

# batch_run [world words]: bash runs the queued commands (printf %q quotes for bash, not for
# sh), and the queue is empty again; results stay readable until the next batch_begin.
batch_run() {
	local script=$FLS_BATCH_DIR/batch.$((++FLS_BATCH_RUNS))

	# Readable by 65534, who may run it; no chmod (every exec counts in the big matrices).
	(
		umask 022
		printf '%s\n' "${FLS_BATCH[@]}" >"$script"
	)
	FLS_BATCH=()
	in_world "$@" bash "$script"
}

# Reads a file into the named variable with builtins only, without its last newline.
fls_slurp() {
	local -n into=$1
	local lines=()

	mapfile -t lines <"$2" || return
	printf -v into '%s\n' "${lines[@]}"
	into=${into%$'\n'}
	[ "${#lines[@]}" -gt 0 ] || into=
}

batch_result() {
	local f=$FLS_BATCH_DIR/$1

	[ -f "$f.status" ] || fls_fail "batch command $1 did not run" || return 1
	read -r status <"$f.status"
	fls_slurp output "$f.out"
	fls_slurp stderr "$f.err"
	mapfile -t lines <"$f.out"
	mapfile -t stderr_lines <"$f.err"
}

# ---------------------------------------------------------------------------------------------
# Assertions: each says what it expected and what it got, then fails.

fls_fail() {
	echo "FAIL: $*" >&2
	return 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fls_fail "$1: expected '$3', got '$2'"
}

# expect_match WHAT GOT ERE
expect_match() {
	[[ $2 =~ $3 ]] || fls_fail "$1: expected to match /$3/, got '$2'"
}

# expect_linked DIR NAME CONTENT NLINK: NAME is a regular file holding exactly CONTENT, with
# NLINK links.
expect_linked() {
	local f=$1/$2 got

	[ -f "$f" ] && [ ! -L "$f" ] || fls_fail "$f: expected a regular file, found $(ls -ld "$f" 2>&1)" || return 1
	# The x keeps trailing newlines, which $(...) would strip.
	got=$(cat "$f"; echo x)
	expect_eq "content of $f" "${got%x}" "$3" || return 1
	expect_eq "link count of $f" "$(stat -c %h "$f")" "$4"
}

# expect_content DIR NAME CONTENT: NAME is a regular file holding exactly CONTENT (builtins
# only: for the matrices, with the link counts read at once by fls_link_counts).
expect_content() {
	local f=$1/$2 got=

	[ -f "$f" ] && [ ! -L "$f" ] || fls_fail "$f: expected a regular file, found $(ls -ld "$f" 2>&1)" || return 1
	# read stops at the end of the file, with status 1: that is how it ends here.
	IFS= read -r -d '' got <"$f" || :
	expect_eq "content of $f" "$got" "$3"
}

# fls_link_counts DIR: FLS_NLINK[DIR/name] is the link count of each entry of DIR, read with
# one stat call (expect_linkat stats a path itself when it is not there).
declare -gA FLS_NLINK=()
fls_link_counts() {
	local n path

	while read -r n path; do
		FLS_NLINK[$path]=$n
	done < <(stat -c '%h %n' "$1"/* 2>/dev/null)
}

# expect_absent DIR NAME: nothing by that name, not even a dangling symlink.
expect_absent() {
	[ ! -e "$1/$2" ] && [ ! -L "$1/$2" ] || fls_fail "$1/$2: expected nothing on disk, found $(ls -ld "$1/$2")"
}

# expect_quiet: stderr of the last `run --separate-stderr` is empty.
expect_quiet() {
	expect_eq "stderr" "$stderr" ""
}

# expect_one_debug_line ERE: stderr of the last `run --separate-stderr` is exactly one line,
# a flinkshim diagnostic matching ERE.
expect_one_debug_line() {
	[ "${#stderr_lines[@]}" -eq 1 ] || fls_fail "expected one diagnostic line, got ${#stderr_lines[@]}: '$stderr'" || return 1
	expect_match "diagnostic" "${stderr_lines[0]}" "^flinkshim: " || return 1
	expect_match "diagnostic" "${stderr_lines[0]}" "$1"
}

# expect_linkat OUTCOME DIR NAME CONTENT [DEBUG]: the last result (run or batch_result) of a
# helper that linked one file to DIR/NAME.
#   OUTCOME ok:     status 0, output "linkat=0" (the helper also checked errno was left alone
#                   and that NAME is the open file's inode), NAME holds CONTENT with one link.
#   OUTCOME EXXX:   status 1, output "linkat=-1 errno=EXXX", and nothing at NAME (unless it
#                   existed before: EEXIST, or FLS_NAME_EXISTS=1; the caller checks it).
#   DEBUG absent:   stderr is empty. Otherwise exactly one diagnostic line matching it.
expect_linkat() {
	local outcome=$1 dir=$2 name=$3 content=$4

	if [ "$outcome" = ok ]; then
		expect_eq "$name: status" "$status" 0 || return 1
		expect_eq "$name: output" "$output" "linkat=0" || return 1
		expect_content "$dir" "$name" "$content" || return 1
		expect_eq "$name: link count" "${FLS_NLINK[$dir/$name]:-$(stat -c %h "$dir/$name")}" 1 ||
			return 1
	else
		expect_eq "$name: status" "$status" 1 || return 1
		expect_eq "$name: output" "$output" "linkat=-1 errno=$outcome" || return 1
		if [ "$outcome" != EEXIST ] && [ -z "${FLS_NAME_EXISTS:-}" ]; then
			expect_absent "$dir" "$name" || return 1
		fi
	fi
	if [ $# -ge 5 ]; then
		expect_one_debug_line "$5"
	else
		expect_quiet
	fi
}

# ERE fragments for the diagnostics (shim/core/flink_engine.c, shim/core/procfd_owner.c).
FLS_DBG_DIRECT_OK='direct AT_EMPTY_PATH: ok$'
FLS_DBG_FALLBACK_OK='direct AT_EMPTY_PATH refused \(ENOENT\); /proc form: ok$'
FLS_DBG_REFUSED='ENOENT: /proc is not mounted and the kernel refused AT_EMPTY_PATH'
FLS_DBG_GENUINE='direct AT_EMPTY_PATH: ENOENT \(the kernel.s own answer'
FLS_DBG_NOT_OURS="not rewritten: names another process's or thread's fds\$"
