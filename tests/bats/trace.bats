#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# `flinkshim --trace`: programs no preload reaches (statically linked, raw syscall
# instructions) get, with /proc hidden, what they get natively with /proc mounted: the same
# return values, errno and files, or ENOENT with nothing on disk where no route exists without
# /proc. Each case runs natively first, so the expectation is the running kernel's. Then the
# supervisor itself: threads, processes, execve, exit statuses, signals, stops, and a clear
# failure where ptrace or seccomp is forbidden.

load common
load trace_common

setup_file() {
	FLS_HELPERS+=(static_legacy static_legacy_link static_legacy_i386 raw_legacy trace_deny
		trace_cases)
	trace_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
}

# ---------------------------------------------------------------------------------------------
# The legacy_link matrix, statically linked.

KINDS=(tmpfile tmpfile-excl closed named opath symlink unlinked dir pipe memfd)
WHERES=(main thread signal fork vfork)
# Extra cases, "id:options": a bad newdirfd (EBADF either way), an olddirfd that is not open
# (ignored for an absolute path), a four-digit fd, an fd kept across execve, a new
# credentials object, a name that exists (EEXIST, second call), other spellings.
EXTRAS=(
	"badnewdirfd:-d 99"
	"badolddirfd:-o 99"
	"fd1000:-n 1000"
	"exec:--exec"
	"setuid:--setuid-self"
	"threadself:-w thread -p /proc/thread-self/fd/%d"
	"pid:-w fork -p /proc/%p/fd/%d"
	"tid:-w thread -p /proc/%t/fd/%d"
	"task:-w thread -p /proc/%p/task/%t/fd/%d"
	"devfd:-p /dev/fd/%d"
	"dots:-w thread -p //proc/./self/fd/../fd/%d"
	"selfdotdot:-p /proc/self/../self/fd/%d"
)

# matrix_cases: CASE_IDS and CASE_OPTS, every kind x context x entry, then the extras.
matrix_cases() {
	local k w e x
	CASE_IDS=() CASE_OPTS=()
	for k in "${KINDS[@]}"; do
		for w in "${WHERES[@]}"; do
			for e in linkat syscall; do
				CASE_IDS+=("$k-$w-$e")
				CASE_OPTS+=("-k $k -w $w -e $e")
			done
		done
	done
	for x in "${EXTRAS[@]}"; do
		CASE_IDS+=("${x%%:*}")
		CASE_OPTS+=("${x#*:}")
	done
}

# Would the direct form be refused for this case, run by USER? Then, without /proc, the
# only honest answer is ENOENT. Root has CAP_DAC_READ_SEARCH; uid 65534 has the 6.10 rule
# (the fd opened under the caller's very credentials) where the kernel has it, else nothing.
refused() {
	local user=$1 opts=$2
	[ "$user" = unpriv ] || return 1
	[ "$FLS_KERNEL_FLINK" = yes ] || return 0
	[[ " $opts " =~ \ -w\ (fork|vfork)\  || " $opts " == *" --exec "* || " $opts " == *" --setuid-self "* ]]
}

# expect_as_native ID DIR: trace-ID did exactly what native-ID did (status, output, link count
# and content on disk, or nothing on disk).
expect_as_native() {
	local id=$1 dir=$2 want_status want_output
	batch_result "native-$id" || return 1
	want_status=$status want_output=$output
	batch_result "trace-$id" || return 1
	expect_eq "$id: status" "$status" "$want_status" || return 1
	expect_eq "$id: output" "$output" "$want_output" || return 1
	expect_eq "$id: stderr" "$stderr" "" || return 1
	if [ -e "$dir/n-$id" ]; then
		expect_eq "$id: link count" "$(stat -c %h "$dir/t-$id")" "$(stat -c %h "$dir/n-$id")" || return 1
		expect_eq "$id: content" "$(cat "$dir/t-$id")" "$(cat "$dir/n-$id")"
	else
		expect_absent "$dir" "t-$id"
	fi
}

# expect_refused ID DIR: ENOENT, nothing on disk.
expect_refused() {
	batch_result "trace-$1" || return 1
	expect_eq "$1: status" "$status" 1 || return 1
	expect_match "$1: output" "$output" "^linkat=-1 errno=ENOENT" || return 1
	expect_absent "$2" "t-$1"
}

# static_matrix USER WORLD...: natively with /proc, then under --trace in WORLD.
static_matrix() {
	local user=$1 as=() dir i id opts failed=()
	shift
	[ "$user" = unpriv ] && as=(unpriv)
	matrix_cases
	dir=$(fls_workdir)
	batch_begin
	for i in "${!CASE_IDS[@]}"; do
		id=${CASE_IDS[$i]}
		read -r -a opts <<<"${CASE_OPTS[$i]}"
		batch_add "native-$id" static_legacy_link "${opts[@]}" "$dir" "n-$id"
	done
	batch_add native-eexist static_legacy_link "$dir" n-eexist n-eexist
	batch_run "${as[@]}"
	for i in "${!CASE_IDS[@]}"; do
		id=${CASE_IDS[$i]}
		read -r -a opts <<<"${CASE_OPTS[$i]}"
		batch_add "trace-$id" "$FLS_TRACE" --trace "$FLS_PUB/static_legacy_link" "${opts[@]}" "$dir" "t-$id"
	done
	batch_add trace-eexist "$FLS_TRACE" --trace "$FLS_PUB/static_legacy_link" "$dir" t-eexist t-eexist
	batch_run "$@" "${as[@]}"
	for i in "${!CASE_IDS[@]}"; do
		id=${CASE_IDS[$i]}
		if [ "$*" = noproc ] && refused "$user" "${CASE_OPTS[$i]}"; then
			expect_refused "$id" "$dir" || failed+=("$id")
		else
			expect_as_native "$id" "$dir" || failed+=("$id")
		fi
	done
	if [ "$*" = noproc ] && refused "$user" ""; then
		expect_refused eexist "$dir" || failed+=(eexist)
	else
		expect_as_native eexist "$dir" || failed+=(eexist)
	fi
	[ "${#failed[@]}" -eq 0 ] || fls_fail "cases that differ: ${failed[*]}"
}

@test "static program, /proc hidden, root: every fd kind, context and entry as natively with /proc" {
	need_trace
	fls_need_noproc
	fls_fast static_matrix root noproc
}

@test "static program, /proc hidden, uid 65534: as natively with /proc, or ENOENT where the kernel refuses the direct form" {
	need_trace
	fls_need_noproc
	fls_need_unpriv
	fls_fast static_matrix unpriv noproc
}

@test "static program, /proc mounted, root and uid 65534: every call runs untouched, as natively" {
	need_trace
	fls_fast static_matrix root
	[ -n "$FLS_SKIP_UNPRIV" ] || fls_fast static_matrix unpriv
}

# ---------------------------------------------------------------------------------------------
# What is and is not rewritten, as the diagnostic tells.

@test "without /proc: the legacy program fails natively, works under --trace, and --debug says how" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc static_legacy link "$dir" native
	expect_eq status "$status" 1
	expect_eq output "$output" "native linkat=-1 errno=ENOENT"
	expect_absent "$dir" native
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy" link "$dir" traced
	expect_eq status "$status" 0
	expect_eq output "$output" "traced linkat=0"
	expect_linked "$dir" traced $'traced\n' 1
	expect_one_debug_line "^flinkshim: \[pid [0-9]+\] linkat /proc/self/fd/[0-9]+ -> traced: direct AT_EMPTY_PATH: ok$"
}

@test "relative names land in the command's own cwd: the kernel runs the call in the tracee" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	# static_legacy link chdirs to DIR and links a relative name; flinkshim stays in /.
	cd /
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" link "$dir" here
	expect_eq status "$status" 0
	expect_linked "$dir" here $'here\n' 1
	expect_absent / here
}

@test "a closed fd: ENOENT as /proc says (not the direct form's EBADF), nothing run" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" -k closed "$dir" closed
	expect_linkat ENOENT "$dir" closed "" "fd is not open, as /proc would say: ENOENT$"
}

@test "another thread of ours by its tid: rewritten if it shares the table, never if it has its own" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" \
		-p '/proc/self/task/%s/fd/%d' "$dir" shared
	expect_linkat ok "$dir" shared $'legacy_link\n' " -> shared: direct AT_EMPTY_PATH: ok$"
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" \
		-w thread -p '/proc/%s/task/%p/fd/%d' "$dir" leader
	expect_linkat ok "$dir" leader $'legacy_link\n' " -> leader: direct AT_EMPTY_PATH: ok$"
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" \
		-p '/proc/self/task/%x/fd/%d' "$dir" own
	expect_linkat ENOENT "$dir" own "" "not rewritten: names another thread's fd table, not this thread's"
}

@test "with /proc mounted the call is left as it is, and --debug says so" {
	need_trace
	local dir
	dir=$(fls_workdir)
	run --separate-stderr "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" "$dir" mounted
	expect_linkat ok "$dir" mounted $'legacy_link\n' "not rewritten: /proc is mounted for this process"
}

@test "a command that hides /proc itself (its own mount namespace) is rewritten: the supervisor looks through /proc/PID/root" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr "$FLS_TRACE" --debug --trace "$FLS_PRIVATE_NS" --noproc \
		"$FLS_PUB/static_legacy" link "$dir" inner /dev/fd/%d
	expect_eq status "$status" 0
	expect_eq output "$output" "inner linkat=0"
	expect_linked "$dir" inner $'inner\n' 1
	expect_one_debug_line "linkat /dev/fd/[0-9]+ -> inner: direct AT_EMPTY_PATH: ok$"
}

@test "another process's fds (/proc/<parent>/fd/N from a fork child) are never rewritten: ENOENT without /proc" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	# Natively with /proc, root links the parent's file: the reference.
	run --separate-stderr in_world static_legacy_link -w fork -p '/proc/%P/fd/%d' "$dir" native
	expect_linkat ok "$dir" native $'legacy_link\n'
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" -w fork -p '/proc/%P/fd/%d' "$dir" traced
	expect_linkat ENOENT "$dir" traced "" "not rewritten: names another process's or thread's fds"
}

# other_pidns_link noproc|inner: a traced process in a new pid namespace (pid 1 there) links
# /proc/<its pid as flinkshim sees it>/fd/N, a number the test reads from outside and sends
# through a fifo. In its own namespace that number is another process, or none: ENOENT,
# never its own fd. noproc: flinkshim has no /proc either, and asks the kernel through a pidfd
# (Linux 6.11+); inner: flinkshim has /proc, the process hides it in its own mount namespace.
other_pidns_link() {
	local dir pid i fifo cmd
	dir=$(fls_workdir)
	cmd=("$FLS_PUB/static_legacy" link "$dir" outer -)
	if [ "$1" = inner ]; then
		cmd=("$FLS_PRIVATE_NS" --noproc "${cmd[@]}")
	fi
	command -v pgrep >/dev/null || fls_fail "pgrep is not installed (procps): the suite needs it" || return 1
	mkfifo "$dir/template"
	# Open both ends here, so that the command's open of the fifo does not wait.
	exec {fifo}<>"$dir/template"
	if [ "$1" = noproc ]; then
		in_world noproc "$FLS_TRACE" --debug --trace unshare -pf "${cmd[@]}"
	else
		"$FLS_TRACE" --debug --trace unshare -pf "${cmd[@]}"
	fi <"$dir/template" >"$dir/out" 2>"$dir/err" &
	for i in $(seq 100); do
		pid=$(pgrep -f "^$FLS_PUB/static_legacy link $dir outer -\$") && break
		sleep 0.05
	done
	[ -n "$pid" ] || fls_fail "the traced process never started" || return 1
	echo "/proc/$pid/fd/%d" >&"$fifo"
	wait $! || :
	exec {fifo}>&-
	expect_eq "$1: output" "$(cat "$dir/out")" "outer linkat=-1 errno=ENOENT" || return 1
	expect_absent "$dir" outer || return 1
	expect_match "$1: stderr" "$(cat "$dir/err")" "not rewritten: the process is in another pid namespace"
}

@test "a process in another pid namespace: its /proc/<number> is never matched with flinkshim's view of its pid" {
	need_trace
	fls_need_noproc
	if ! unshare -pf true 2>/dev/null; then
		[ "$EUID" = 0 ] || skip "not root: unshare -pf needs CAP_SYS_ADMIN (the supervisor must see the tracee's pid namespace from outside)"
		skip "pid namespaces are not allowed here"
	fi
	other_pidns_link inner
	other_pidns_link noproc
}

@test "/dev/fd that is not the usual link to /proc/self/fd: what it points to, never our fd" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	mkdir "$dir/fake"
	printf 'fake\n' >"$dir/fake/7"
	# /proc hidden, and /dev a tmpfs whose fd link leads to DIR/fake: the kernel links
	# DIR/fake/7, not the open file (legacy_link says inode-mismatch), traced or not.
	run --separate-stderr "$FLS_PRIVATE_NS" --noproc sh -c 'mount -t tmpfs none /dev &&
		ln -s "$1" /dev/fd && shift && exec "$@"' sh "$dir/fake" \
		"$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" -p /dev/fd/%d --fd=7 "$dir" traced
	expect_eq output "$output" "linkat=0 inode-mismatch"
	expect_linked "$dir" traced $'fake\n' 2
	expect_one_debug_line "not rewritten: the /dev link does not point to /proc/self/fd"
}

@test "a /proc that is a plain directory holding a file at the path: the kernel links that file, traced or not" {
	need_trace
	fls_need_noproc
	local dir fake
	dir=$(fls_workdir)
	fake=$dir/fake
	# /proc is a plain directory (a chroot's, say) with a real file at self/fd/3, the number
	# static_legacy's O_TMPFILE gets (bats' fd 3 closed). The program works in /proc itself:
	# a link never crosses a mount.
	mkdir -p "$fake/self/fd"
	printf 'decoy\n' >"$fake/self/fd/3"
	run --separate-stderr unshare -m sh -c 'mount --bind "$1" /proc && shift && exec "$@"' sh "$fake" \
		"$FLS_PUB/static_legacy" link /proc native 3>&-
	expect_eq "native output" "$output" "native linkat=0"
	expect_linked "$fake" native $'decoy\n' 2
	rm "$fake/native"
	run --separate-stderr unshare -m sh -c 'mount --bind "$1" /proc && shift && exec "$@"' sh "$fake" \
		"$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy" link /proc traced 3>&-
	expect_eq output "$output" "traced linkat=0"
	expect_linked "$fake" traced $'decoy\n' 2
	expect_one_debug_line "not rewritten: /proc is not procfs for this process, and the path names a file there"
}

@test "calls that are not the idiom pass untouched: a real path with AT_SYMLINK_FOLLOW, the direct form" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" -k named -p "$dir/plain.orig" "$dir" plain
	expect_eq status "$status" 0
	expect_eq output "$output" "linkat=0"
	expect_eq "link count" "$(stat -c %h "$dir/plain")" 2
	expect_quiet
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_link" -e direct "$dir" direct
	expect_linkat ok "$dir" direct $'legacy_link\n'
}

@test "an old kernel (AT_EMPTY_PATH refused), /proc hidden: ENOENT and nothing on disk" {
	need_trace
	fls_need_noproc
	fls_need_oldkernel
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc oldkernel "$FLS_TRACE" --trace "$FLS_PUB/static_legacy_link" "$dir" old
	expect_linkat ENOENT "$dir" old ""
}

@test "raw syscall instruction (dynamic program): the preload cannot see it, --trace can" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world raw_legacy "$dir" native
	[ "$status" -ne 77 ] || skip "raw_legacy has no inline syscall for $(uname -m)"
	expect_linkat ok "$dir" native $'native\n'
	run --separate-stderr in_world noproc shim raw_legacy "$dir" preloaded
	expect_linkat ENOENT "$dir" preloaded ""
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/raw_legacy" "$dir" traced
	expect_linkat ok "$dir" traced $'traced\n'
}

@test "raw syscall instruction as uid 65534, /proc hidden" {
	need_trace
	fls_need_noproc
	fls_need_unpriv
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc unpriv "$FLS_TRACE" --trace "$FLS_PUB/raw_legacy" "$dir" traced
	[ "$status" -ne 77 ] || skip "raw_legacy has no inline syscall for $(uname -m)"
	if [ "$FLS_KERNEL_FLINK" = yes ]; then
		expect_linkat ok "$dir" traced $'traced\n'
	else
		expect_linkat ENOENT "$dir" traced ""
	fi
}

# ---------------------------------------------------------------------------------------------
# After a rewritten call: the registers, the replay, other ABIs, other filters.

@test "the registers the tracee passed are its own again after a rewritten call (the ABI keeps rdi, rsi, r8)" {
	need_trace
	fls_need_noproc
	local dir native
	dir=$(fls_workdir)
	run --separate-stderr in_world trace_cases regs "$dir" native
	[ "$status" -ne 77 ] || skip "no raw syscall for $(uname -m) in trace_cases"
	expect_eq "native status" "$status" 0
	native=$output
	expect_match "native registers" "$native" "rdi=-100 rsi=same rdx=-100 r10=same r8=0x400$"
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" regs "$dir" traced
	expect_eq status "$status" 0
	expect_eq output "$output" "$native"
	expect_linked "$dir" traced $'traced\n' 1
}

@test "junk in the upper half of rax: still linkat for the kernel, so still rewritten" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world trace_cases junk-rax "$dir" native
	[ "$status" -ne 77 ] || skip "no raw syscall for $(uname -m) in trace_cases"
	expect_eq "native output" "$output" "linkat=0"
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" junk-rax "$dir" traced
	expect_eq status "$status" 0
	expect_eq output "$output" "linkat=0"
	expect_linked "$dir" traced $'traced\n' 1
}

# The supervisor has no /proc; the command mounts its own and runs on an old kernel (the
# direct form refused): only the original call can work, and it does natively.
@test "no /proc for flinkshim, a /proc of the command's own, AT_EMPTY_PATH refused: the original call is replayed and works" {
	need_trace
	fls_need_noproc
	fls_need_oldkernel
	local dir own_proc
	dir=$(fls_workdir)
	own_proc=(unshare -m sh -c 'mount -t proc proc /proc && exec "$@"' sh "$FLS_PUB/oldkernel")
	run --separate-stderr in_world noproc "${own_proc[@]}" "$FLS_PUB/static_legacy" link "$dir" native
	expect_eq "native output" "$output" "native linkat=0"
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "${own_proc[@]}" \
		"$FLS_PUB/static_legacy" link "$dir" traced
	expect_eq status "$status" 0
	expect_eq output "$output" "traced linkat=0"
	expect_linked "$dir" traced $'traced\n' 1
	expect_one_debug_line "linkat /proc/self/fd/[0-9]+ -> traced: direct AT_EMPTY_PATH: ENOENT; original call replayed: ok$"
}

@test "AT_EMPTY_PATH refused and no /proc anywhere: the replay says ENOENT too, and the diagnostic does not guess" {
	need_trace
	fls_need_noproc
	fls_need_oldkernel
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/oldkernel" \
		"$FLS_PUB/static_legacy" link "$dir" refused
	expect_eq status "$status" 1
	expect_eq output "$output" "refused linkat=-1 errno=ENOENT"
	expect_absent "$dir" refused
	expect_one_debug_line "direct AT_EMPTY_PATH: ENOENT; original call replayed: ENOENT \(the kernel's own answer .*or no /proc in this process and a refusal of AT_EMPTY_PATH"
}

@test "flinkshim in a new pid namespace without its own /proc: it does not read another namespace's /proc" {
	need_trace
	fls_need_noproc
	if ! unshare -pf true 2>/dev/null; then
		skip "pid namespaces are not allowed here"
	fi
	local dir
	dir=$(fls_workdir)
	# /proc is the parent namespace's: /proc/<pid of the command here> is another process
	# (pid 2 is the kernel's kthreadd), which has /proc. The command hides its own /proc.
	run --separate-stderr unshare -pf "$FLS_TRACE" --debug --trace unshare -m sh -c \
		'mount -t tmpfs none /proc && exec "$@"' sh "$FLS_PUB/static_legacy" link "$dir" pidns
	expect_eq status "$status" 0
	expect_eq output "$output" "pidns linkat=0"
	expect_linked "$dir" pidns $'pidns\n' 1
	expect_one_debug_line "-> pidns: direct AT_EMPTY_PATH: ok$"
}

@test "a 32-bit (i386) static program is rewritten too, by its own system call numbers and registers" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world static_legacy_i386 link "$dir" native
	[ "$status" -ne 77 ] || skip "$stderr"
	expect_eq "native output" "$output" "native linkat=0"
	run --separate-stderr in_world noproc static_legacy_i386 link "$dir" untraced
	expect_eq "without --trace" "$output" "untraced linkat=-1 errno=ENOENT"
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy_i386" link "$dir" traced
	expect_eq status "$status" 0
	expect_eq output "$output" "traced linkat=0"
	expect_linked "$dir" traced $'traced\n' 1
	expect_one_debug_line "linkat \(i386\) /proc/self/fd/[0-9]+ -> traced: direct AT_EMPTY_PATH: ok$"
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy_i386" forks "$dir" 3
	expect_eq "forks" "$output" $'p0 linkat=0\np1 linkat=0\np2 linkat=0\ng0 linkat=0\ng1 linkat=0\ng2 linkat=0'
}

@test "the command's own SECCOMP_RET_TRACE filter, with no tracer of its own: ENOSYS as natively, with or without /proc" {
	need_trace
	local dir native
	dir=$(fls_workdir)
	run --separate-stderr in_world trace_cases own-filter "$dir" native
	[ "$status" -ne 77 ] || skip "$stderr"
	native=$output
	expect_eq "native output" "$native" $'getppid=ENOSYS\nlinkat=-1 errno=ENOSYS'
	run --separate-stderr "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" own-filter "$dir" traced
	expect_eq output "$output" "$native"
	expect_absent "$dir" traced
	if [ -z "$FLS_SKIP_NOPROC" ]; then
		run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/trace_cases" own-filter "$dir" noproc
		expect_eq "without /proc" "$output" "$native"
		expect_absent "$dir" noproc
		expect_match stderr "$stderr" "a seccomp filter of the command's own asked for a tracer \(SECCOMP_RET_TRACE, data 7\): ENOSYS"
	fi
}

@test "a non-dumpable program traced by an unprivileged flinkshim: its memory cannot be read, and --debug says why" {
	need_trace
	fls_need_noproc
	fls_need_unpriv
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc unpriv "$FLS_TRACE" --debug --trace "$FLS_PUB/trace_cases" nodump "$dir" nodump
	expect_eq status "$status" 1
	expect_eq output "$output" "linkat=-1 errno=ENOENT"
	expect_absent "$dir" nodump
	expect_one_debug_line "linkat with AT_SYMLINK_FOLLOW: not rewritten: flinkshim may not read this process's memory: it made itself non-dumpable \(PR_SET_DUMPABLE 0"
	# Root may read any process's memory: the same program is rewritten.
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/trace_cases" nodump "$dir" root
	expect_eq "as root" "$output" "linkat=0"
	expect_linked "$dir" root $'root\n' 1
}

@test "kcmp denied to flinkshim: a thread's /proc/self (maybe not its own table) is passed through, never guessed" {
	need_trace
	fls_need_noproc
	fls_need_oldkernel
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc trace_deny kcmp "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy" unshared "$dir"
	expect_eq status "$status" 1
	expect_eq output "$output" $'own linkat=0\nleaders linkat=-1 errno=ENOENT'
	expect_linked "$dir" own $'thread\n' 1
	expect_absent "$dir" leaders
	expect_match stderr "$stderr" "/proc/self/fd/42 -> leaders: not rewritten: kcmp\(2\) is not available to flinkshim"
}

# ---------------------------------------------------------------------------------------------
# Threads, processes, execve.

@test "16 threads linking at once, through /proc/self and /proc/thread-self" {
	need_trace
	fls_need_noproc
	local dir i want=
	dir=$(fls_workdir)
	for i in $(seq 0 15); do
		want+="t$i linkat=0"$'\n'
	done
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" threads "$dir" 16
	expect_eq status "$status" 0
	expect_eq output "$output" "${want%$'\n'}"
	for i in $(seq 0 15); do
		expect_linked "$dir" "t$i" "thread $i"$'\n' 1
	done
}

@test "forked children and grandchildren each link their own files, by /proc/<pid>" {
	need_trace
	fls_need_noproc
	local dir i want=
	dir=$(fls_workdir)
	for i in 0 1 2 3 4 5 6 7; do want+="p$i linkat=0"$'\n'; done
	for i in 0 1 2 3 4 5 6 7; do want+="g$i linkat=0"$'\n'; done
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" forks "$dir" 8
	expect_eq status "$status" 0
	expect_eq output "$output" "${want%$'\n'}"
	for i in 0 1 2 3 4 5 6 7; do
		expect_linked "$dir" "p$i" "p$i" 1
		expect_linked "$dir" "g$i" "g$i" 1
	done
}

@test "a thread with its own fd table: /proc/thread-self is rewritten, /proc/self (the leader's table) is not" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world static_legacy unshared "$dir"
	expect_eq "native output" "$output" $'own linkat=0\nleaders linkat=0'
	expect_linked "$dir" leaders $'leader\n' 1
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy" unshared "$dir"
	expect_eq status "$status" 1
	expect_eq output "$output" $'own linkat=0\nleaders linkat=-1 errno=ENOENT'
	expect_linked "$dir" own $'thread\n' 1
	expect_absent "$dir" leaders
	expect_match stderr "$stderr" "/proc/self/fd/42 -> leaders: not rewritten: the leader's fd table is not this thread's"
}

@test "the main thread has exited: /proc/self names its empty table (ENOENT, as natively), /proc/thread-self works" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world static_legacy leader-exit "$dir"
	expect_eq "native output" "$output" $'self linkat=-1 errno=ENOENT\nthread linkat=0'
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" leader-exit "$dir"
	expect_eq status "$status" 1
	expect_eq output "$output" $'self linkat=-1 errno=ENOENT\nthread linkat=0'
	expect_linked "$dir" thread $'orphan\n' 1
	expect_absent "$dir" self
}

@test "execve from a thread: the new program links by /proc/<pid> (the supervisor follows the tid change)" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" exec-thread "$dir" execd
	expect_eq status "$status" 0
	expect_eq output "$output" "execd linkat=0"
	expect_linked "$dir" execd $'execd\n' 1
}

@test "a dynamic shell starting static programs: the whole tree is traced" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace sh -c \
		'"$1" link "$2" one && "$1" link "$2" two /proc/thread-self/fd/%d & wait $!' sh "$FLS_PUB/static_legacy" "$dir"
	expect_eq status "$status" 0
	expect_eq output "$output" $'one linkat=0\ntwo linkat=0'
	expect_linked "$dir" one $'one\n' 1
	expect_linked "$dir" two $'two\n' 1
}

@test "nested: flinkshim --trace under flinkshim --trace runs its command under the outer supervisor" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLS_TRACE" --trace "$FLS_TRACE" --debug --trace "$FLS_PUB/static_legacy" link "$dir" nested
	expect_eq status "$status" 0
	expect_eq output "$output" "nested linkat=0"
	expect_linked "$dir" nested $'nested\n' 1
	expect_match stderr "$stderr" "already traced by the supervisor [0-9]+: running"
}

# ---------------------------------------------------------------------------------------------
# Exit statuses, signals, stops.

@test "the command's exit status is flinkshim's, from a static program's second thread too" {
	need_trace
	run "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" exit 42
	expect_eq status "$status" 42
	run "$FLS_TRACE" --trace sh -c 'exit 3'
	expect_eq status "$status" 3
	run "$FLS_TRACE" --trace true
	expect_eq status "$status" 0
}

@test "death by a signal: flinkshim dies of the same signal, without dumping core itself" {
	need_trace
	local dir sig
	declare -A says=([TERM]=Terminated [KILL]=Killed [ABRT]=Aborted [SEGV]="Segmentation fault")
	dir=$(fls_workdir)
	cd "$dir"
	for sig in TERM KILL ABRT SEGV; do
		# bash reports a child's death by a signal on stderr, with "(core dumped)" when it
		# did (an exit(128 + N) would look the same in $?, but bash would say nothing). The
		# command may dump core here; flinkshim must not.
		run --separate-stderr bash -c 'ulimit -c unlimited 2>/dev/null; "$@"; echo "status $?"' bash \
			"$FLS_TRACE" --trace "$FLS_PUB/static_legacy" signal "$(kill -l "$sig")"
		expect_eq "$sig: status" "$output" "status $((128 + $(kill -l "$sig")))"
		expect_match "$sig: how bash saw it" "$stderr" "${says[$sig]}"
		[[ $stderr != *"core dumped"* ]] || fls_fail "$sig: flinkshim dumped core: $stderr"
	done
}

@test "command not found: 127; not executable: 126" {
	need_trace
	local dir
	dir=$(fls_workdir)
	# A PATH every user can search: a directory we may not enter makes execvp say EACCES.
	run -127 --separate-stderr env PATH=/usr/bin:/bin "$FLS_TRACE" --trace no-such-command-flinkshim
	expect_eq stderr "$stderr" "flinkshim: no-such-command-flinkshim: No such file or directory"
	printf '#!/bin/sh\n' >"$dir/noexec"
	chmod 644 "$dir/noexec"
	run -126 --separate-stderr "$FLS_TRACE" --trace "$dir/noexec"
	expect_match stderr "$stderr" "Permission denied"
}

@test "signals sent to flinkshim reach the command; signals sent to the command are delivered" {
	need_trace
	local dir
	dir=$(fls_workdir)
	in_background "$dir/out" "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" wait-signal
	wait_for "$dir/out" ready
	kill -TERM "$BG_PID"
	bg_wait || fls_fail "status $?"
	expect_eq output "$(cat "$dir/out")" $'ready\nSIGTERM'

	in_background "$dir/out" "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" wait-signal
	wait_for "$dir/out" ready
	kill -USR1 "$(pgrep -P "$BG_PID")"
	bg_wait || fls_fail "status $?"
	expect_eq output "$(cat "$dir/out")" $'ready\nSIGUSR1'
}

@test "a stopped command stays stopped until SIGCONT (group-stop), then finishes" {
	need_trace
	local dir
	dir=$(fls_workdir)
	in_background "$dir/out" "$FLS_TRACE" --trace "$FLS_PUB/static_legacy" stop
	wait_for "$dir/out" stopping
	sleep 0.5
	expect_eq "while stopped" "$(cat "$dir/out")" stopping
	kill -CONT "$(pgrep -P "$BG_PID")"
	bg_wait || fls_fail "status $?"
	expect_eq output "$(cat "$dir/out")" $'stopping\ncontinued'
}

# ---------------------------------------------------------------------------------------------
# Where ptrace or seccomp is forbidden: at once, loudly, nothing run.

@test "ptrace forbidden: status 125, the message names ptrace, the command never runs" {
	need_trace
	fls_need_oldkernel
	run --separate-stderr in_world trace_deny ptrace "$FLS_TRACE" --trace sh -c 'echo ran'
	expect_eq status "$status" 125
	expect_eq output "$output" ""
	expect_match stderr "$stderr" "^flinkshim: --trace: ptrace is not permitted here: PTRACE_SEIZE"
}

@test "seccomp forbidden: status 125, the message names seccomp, the command never runs" {
	need_trace
	fls_need_oldkernel
	run --separate-stderr in_world trace_deny seccomp "$FLS_TRACE" --trace sh -c 'echo ran'
	expect_eq status "$status" 125
	expect_eq output "$output" ""
	expect_match stderr "$stderr" "^flinkshim: --trace: seccomp is not permitted here"
}

# ---------------------------------------------------------------------------------------------
# The command line.

@test "--help documents --trace and --auto" {
	run --separate-stderr "$FLINKSHIM_BIN" --help
	expect_eq status "$status" 0
	expect_match help "$output" "--trace +no preload"
	expect_match help "$output" "--auto +--trace if COMMAND is statically linked"
}

@test "a static command without --trace: the warning suggests --trace (where the build has it)" {
	run --separate-stderr "$FLINKSHIM_BIN" "$FLS_PUB/static_legacy" exit 0
	expect_eq status "$status" 0
	if [ "${FLS_HOST_CPU:-$(uname -m)}" = x86_64 ]; then
		expect_match stderr "$stderr" "static_legacy is statically linked: LD_PRELOAD cannot reach it.*flinkshim --trace"
	else
		expect_match stderr "$stderr" "static_legacy is statically linked \\(a .* program\\): LD_PRELOAD cannot reach it, and this build has no --trace"
	fi
}

@test "--auto traces a static command and preloads a dynamic one" {
	need_trace
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "$FLINKSHIM_BIN" --auto "$FLS_PUB/static_legacy" link "$dir" auto
	expect_eq status "$status" 0
	expect_eq output "$output" "auto linkat=0"
	expect_quiet
	expect_linked "$dir" auto $'auto\n' 1
	# env_tool, not sh: built like the shim, it takes the shim in a musl build too.
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" --auto "$HELPERS/env_tool" print LD_PRELOAD
	expect_eq status "$status" 0
	expect_match LD_PRELOAD "$output" "/libflinkshim\.so\.[0-9]+$"
}

@test "--check does not combine with --trace" {
	run --separate-stderr "$FLINKSHIM_BIN" --trace --check
	expect_eq status "$status" 125
	expect_match stderr "$stderr" "cannot be combined"
}
