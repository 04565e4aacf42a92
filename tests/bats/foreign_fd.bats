#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# A /proc path that names someone else's fd table is never rewritten. foreign_fd holds file A
# at fd 42 and lets someone else hold file B at their fd 42 (a child process, or another thread
# with its own table), then links the /proc path of THEIR fd 42 to DIR/out. A shim that turned
# the path into linkat(42, "", ...) would link A: with /proc hidden the only right answer is
# ENOENT and no DIR/out. Natively (with /proc) the kernel links whatever the path names, and
# the shim must not change that either.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
}

# check_mode MODE NATIVE_FILE NOPROC_OUTCOME NOPROC_DEBUG USER
#   NATIVE_FILE: A or B, what the kernel links with /proc mounted (with and without the shim);
#   NOPROC_OUTCOME: ok (then NATIVE_FILE is linked) or ENOENT, under the shim without /proc.
check_mode() {
	local mode=$1 file=$2 outcome=$3 debug=$4 user=$5 as=() native_dir shim_dir noproc_dir

	[ "$user" = unpriv ] && as=(unpriv)
	native_dir=$(fls_workdir)
	shim_dir=$(fls_workdir)
	noproc_dir=$(fls_workdir)
	run --separate-stderr in_world "${as[@]}" foreign_fd "$mode" "$native_dir"
	expect_linkat ok "$native_dir" out "$file"$'\n' || return 1
	run --separate-stderr in_world "${as[@]}" shim foreign_fd "$mode" "$shim_dir"
	expect_linkat ok "$shim_dir" out "$file"$'\n' || return 1
	run --separate-stderr in_world noproc "${as[@]}" shim debug foreign_fd "$mode" "$noproc_dir"
	if [ "$outcome" = ok ]; then
		expect_linkat ok "$noproc_dir" out "$file"$'\n' "$debug"
	else
		expect_linkat ENOENT "$noproc_dir" out "" "$debug"
	fi
}

# for_users MODE ...: check_mode as root, then as 65534 where possible.
for_users() {
	fls_need_noproc
	fls_fast check_mode "$@" root
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		fls_fast check_mode "$@" unpriv
	fi
}

NOT_OURS="^flinkshim: linkat /proc/[^ ]*: $FLS_DBG_NOT_OURS"
OTHER_THREADS_TABLE="^flinkshim: linkat /proc/[^ ]*: not rewritten: names another thread's fd table, not this thread's"

@test "/proc/CHILD/fd/N: the child's file natively; ENOENT under the shim without /proc" {
	for_users process B ENOENT "$NOT_OURS"
}

@test "/proc/CHILD/task/CHILD/fd/N: the child's file natively; ENOENT under the shim without /proc" {
	for_users process-task B ENOENT "$NOT_OURS"
}

@test "/proc/PID/task/OTHER/fd/N, the other thread with its own fd table: never our fd" {
	for_users thread B ENOENT "$OTHER_THREADS_TABLE"
}

@test "/proc/PID/task/OTHER/fd/N, the other thread sharing our table: our fd, rewritten" {
	fls_need_noproc
	fls_fast check_mode thread-shared A ok " -> out: $FLS_DBG_DIRECT_OK" root
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		# Threads share credentials: as for /proc/thread-self below.
		if [ "$FLS_KERNEL_FLINK" = yes ]; then
			fls_fast check_mode thread-shared A ok " -> out: $FLS_DBG_DIRECT_OK" unpriv
		else
			fls_fast check_mode thread-shared A ENOENT "$FLS_DBG_REFUSED" unpriv
		fi
	fi
}

@test "/proc/self/fd/N from a thread that unshared its fd table: the leader's fd, not rewritten" {
	for_users leader A ENOENT "not rewritten: the leader's fd table is not this thread's"
}

@test "/proc/thread-self/fd/N from that thread: its own fd, rewritten" {
	fls_need_noproc
	fls_fast check_mode thread-self B ok " -> out: $FLS_DBG_DIRECT_OK" root
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		# Threads share credentials: the direct form is allowed wherever the kernel has 6.10's
		# rule; before it, no route.
		if [ "$FLS_KERNEL_FLINK" = yes ]; then
			fls_fast check_mode thread-self B ok " -> out: $FLS_DBG_DIRECT_OK" unpriv
		else
			fls_fast check_mode thread-self B ENOENT "$FLS_DBG_REFUSED" unpriv
		fi
	fi
}

# The leader-exited case: natively not linked at all.
leader_exited() {
	local user=$1 as=() native_dir noproc_dir
	[ "$user" = unpriv ] && as=(unpriv)
	native_dir=$(fls_workdir)
	noproc_dir=$(fls_workdir)
	run --separate-stderr in_world "${as[@]}" foreign_fd leader-exited "$native_dir"
	expect_linkat ENOENT "$native_dir" out "" || return 1
	run --separate-stderr in_world noproc "${as[@]}" shim debug foreign_fd leader-exited "$noproc_dir"
	expect_linkat ENOENT "$noproc_dir" out "" \
		"not rewritten: the leader's fd table is not this thread's"
}

@test "/proc/self/fd/N after the main thread exited: ENOENT natively, and not rewritten" {
	fls_need_noproc
	fls_fast leader_exited root
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		fls_fast leader_exited unpriv
	fi
}

# A path made before fork names the parent: linked in the child it is another process's fd.
before_fork() {
	local dir where id
	dir=$(fls_workdir)
	for where in fork vfork; do
		id=$where
		run --separate-stderr in_world legacy_link -w "$where" -p '/proc/%P/fd/%d' -c $'P\n' "$dir" "native-$id"
		expect_linkat ok "$dir" "native-$id" $'P\n' || return 1
		run --separate-stderr in_world noproc shim debug legacy_link -w "$where" -p '/proc/%P/fd/%d' "$dir" "noproc-$id"
		expect_linkat ENOENT "$dir" "noproc-$id" "" "$NOT_OURS" || return 1
	done
}

@test "/proc/PARENT/fd/N made before fork, linked in the fork or vfork child: the parent's, not rewritten" {
	fls_need_noproc
	fls_fast before_fork
}

# other_pidns CMD...: CMD as pid 2 of a new pid namespace that keeps the old /proc, where
# numbers are the old namespace's: /proc/2 there is not CMD (pid 2 of the namespace that
# mounted /proc: kthreadd on a host, some other process in a container).
other_pidns() {
	# Not root: a user namespace owns the pid namespace (the numbers are the same).
	if [ "$EUID" = 0 ]; then
		unshare -p -f sh -c '"$@"; exit $?' sh "$@"
	else
		unshare -r -p -f sh -c '"$@"; exit $?' sh "$@"
	fi
}

@test "/proc of another pid namespace: /proc/<getpid()>/fd/N is someone else's there, not rewritten" {
	other_pidns true 2>/dev/null || skip "pid namespaces are not allowed here"
	local dir native
	dir=$(fls_workdir)
	# fd 1000: whoever is pid 2 in /proc's namespace surely has no fd 1000: natively ENOENT.
	run --separate-stderr other_pidns "$FLS_PUB/legacy_link" -p '/proc/%p/fd/%d' --fd=1000 "$dir" native
	native=$output
	[ "$native" = "linkat=-1 errno=ENOENT" ] ||
		skip "pid 2 of /proc's namespace has an fd 1000 (natively: $native): cannot build the case"
	expect_absent "$dir" native
	run --separate-stderr other_pidns env "LD_PRELOAD=$FLS_LIB" FLINKSHIM_DEBUG=1 \
		"$FLS_PUB/legacy_link" -p '/proc/%p/fd/%d' --fd=1000 "$dir" shim
	expect_eq "under the shim, as natively" "$output" "$native"
	expect_absent "$dir" shim
}

# pidns_twin runs the helper in a new pid namespace that keeps the old /proc, as a process
# whose pid is the same number in both: /proc/self there names it, but its second thread has
# other numbers in each namespace. /proc/self/task/<its tid here>/fd/N is then no thread of
# ours in that /proc (natively ENOENT): checking the pid alone is not enough (review S5).
@test "/proc of another pid namespace where our pid happens to be the same number: a thread's numbers are not ours" {
	[ "$EUID" = 0 ] || skip "needs root for a pid namespace and clone3's set_tid"
	local dir twin=$HELPERS/pidns_twin
	dir=$(fls_workdir)
	"$twin" true 2>/dev/null || skip "cannot build the case here: $("$twin" true 2>&1)"
	run --separate-stderr "$twin" "$FLS_PUB/legacy_link" -w thread -p '/proc/self/task/%t/fd/%d' "$dir" native
	[ "$output" = "linkat=-1 errno=ENOENT" ] ||
		skip "the thread has the same number in both namespaces (natively: $output): cannot build the case"
	run --separate-stderr "$twin" env "LD_PRELOAD=$FLS_LIB" FLINKSHIM_DEBUG=1 \
		"$FLS_PUB/legacy_link" -w thread -p '/proc/self/task/%t/fd/%d' "$dir" shim
	expect_linkat ENOENT "$dir" shim "" \
		"not rewritten: /proc belongs to another pid namespace: its numbers are not ours"
	# The pid itself is right there: /proc/<pid>/fd/N from the main thread is ours.
	run --separate-stderr "$twin" "$FLS_PUB/legacy_link" -p '/proc/%p/fd/%d' "$dir" native-pid
	expect_linkat ok "$dir" native-pid $'legacy_link\n'
	run --separate-stderr "$twin" env "LD_PRELOAD=$FLS_LIB" FLINKSHIM_DEBUG=1 \
		"$FLS_PUB/legacy_link" -p '/proc/%p/fd/%d' "$dir" shim-pid
	expect_linkat ok "$dir" shim-pid $'legacy_link\n' " -> shim-pid: $FLS_DBG_DIRECT_OK"
}

# Where kcmp is denied (Docker's default seccomp profile, a kernel without CONFIG_KCMP), the
# shim cannot compare fd tables, and guessing "the same" links the wrong file (review C4).
# With /proc mounted the kernel answers the call itself; without, the tables count as one only
# while no thread of the process has taken a table of its own (unshare(CLONE_FILES),
# close_range(CLOSE_RANGE_UNSHARE), both watched by the shim).
KCMP_DENIED_OWN_TABLE="not rewritten: kcmp is not available to compare fd tables, and a thread of this process has taken an fd table of its own"

# check_nokcmp MODE NATIVE_FILE NOPROC_OUTCOME NOPROC_DEBUG: as check_mode, kcmp denied.
check_nokcmp() {
	local mode=$1 file=$2 outcome=$3 debug=$4 native_dir shim_dir noproc_dir

	native_dir=$(fls_workdir)
	shim_dir=$(fls_workdir)
	noproc_dir=$(fls_workdir)
	run --separate-stderr in_world nokcmp foreign_fd "$mode" "$native_dir"
	expect_linkat ok "$native_dir" out "$file"$'\n' || return 1
	run --separate-stderr in_world nokcmp shim foreign_fd "$mode" "$shim_dir"
	expect_linkat ok "$shim_dir" out "$file"$'\n' || return 1
	run --separate-stderr in_world noproc nokcmp shim debug foreign_fd "$mode" "$noproc_dir"
	if [ "$outcome" = ok ]; then
		expect_linkat ok "$noproc_dir" out "$file"$'\n' "$debug"
	else
		expect_linkat ENOENT "$noproc_dir" out "" "$debug"
	fi
}

@test "kcmp denied: /proc/self/fd/N from a thread that unshared its table: the leader's file with /proc, not rewritten without" {
	fls_need_noproc
	fls_need_nokcmp
	fls_fast check_nokcmp leader A ENOENT "$KCMP_DENIED_OWN_TABLE"
}

@test "kcmp denied: the same with the table unshared by close_range(CLOSE_RANGE_UNSHARE)" {
	fls_need_noproc
	fls_need_nokcmp
	run in_world foreign_fd leader-close-range "$(fls_workdir)"
	[ "$status" != 3 ] || skip "$output (the C library has no close_range())"
	fls_fast check_nokcmp leader-close-range A ENOENT "$KCMP_DENIED_OWN_TABLE"
}

@test "kcmp denied: /proc/PID/task/OTHER/fd/N, the other thread with its own table: its file with /proc, not rewritten without" {
	fls_need_noproc
	fls_need_nokcmp
	fls_fast check_nokcmp thread B ENOENT "$KCMP_DENIED_OWN_TABLE"
}

@test "kcmp denied, no thread with a table of its own: /proc/PID/task/OTHER/fd/N of a sibling is ours, rewritten" {
	fls_need_noproc
	fls_need_nokcmp
	fls_fast check_nokcmp thread-shared A ok " -> out: $FLS_DBG_DIRECT_OK"
}

@test "kcmp denied, no thread with a table of its own: /proc/self/fd/N from a second thread is rewritten" {
	fls_need_noproc
	fls_need_nokcmp
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc nokcmp shim debug legacy_link -w thread -c $'T\n' "$dir" t
	expect_linkat ok "$dir" t $'T\n' " -> t: $FLS_DBG_DIRECT_OK"
}

@test "kcmp denied, /proc mounted: /proc/self/fd/N after the main thread exited is ENOENT, as natively" {
	fls_need_nokcmp
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world nokcmp foreign_fd leader-exited "$dir"
	expect_linkat ENOENT "$dir" out "" || return 1
	run --separate-stderr in_world nokcmp shim debug foreign_fd leader-exited "$dir"
	expect_linkat ENOENT "$dir" out "" \
		"not rewritten: kcmp is not available to compare fd tables, and /proc is mounted"
}
