#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The library's calls into libc, read from its dynamic symbol table: each one must be on this
# list, which says why it is allowed. The call path runs in signal handlers, in threads and in
# fork/vfork children, so it may use only async-signal-safe functions: no malloc, no stdio, no
# locks. A new dependency fails here until someone decides it belongs. (TAP)
set -u
lib=${FLINKSHIM_LIB:?run through make check}
command -v nm >/dev/null 2>&1 || { echo "1..0 # SKIP nm is not installed"; exit 0; }

allowed() {
	case $1 in
	# async-signal-safe system calls (POSIX list, or plain Linux syscall wrappers)
	close | fcntl | fstatat | __fxstatat | __fxstatat64 | fsync | getpid | gettid | openat | \
	openat64 | readlink | renameat | unlinkat | write | statfs | statfs64 | clock_gettime | \
	syncfs | \
	syscall) return 0 ;;
	# async-signal-safe by POSIX.1-2016 (pure memory and string functions), errno, the thread
	# pointer
	memcpy | memcmp | strnlen | strrchr | __errno_location | pthread_self | pthread_equal) return 0 ;;
	# load time only: the constructor, or the lazy resolution before it has run
	dlsym | secure_getenv | getenv | getauxval) return 0 ;;
	# compiler and loader runtime
	__stack_chk_fail | __cxa_finalize | __gmon_start__ | _ITM_deregisterTMCloneTable | \
	_ITM_registerTMCloneTable | __tls_get_addr) return 0 ;;
	# ASan/UBSan builds (--enable-sanitizers) bring their runtime
	__asan_* | __ubsan_* | __sanitizer_* | __lsan_*) return 0 ;;
	esac
	return 1
}

syms=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
if [ -z "$syms" ]; then
	echo "1..1"
	echo "not ok 1 - nm found no undefined symbol in $lib: not a dynamic library?"
	exit 0
fi
n=0
echo "1..$(printf '%s\n' "$syms" | wc -l)"
for s in $syms; do
	n=$((n + 1))
	if allowed "$s"; then
		echo "ok $n - $s is allowed"
	else
		echo "not ok $n - $s is not on the allow-list (malloc, stdio and locks are not async-signal-safe)"
	fi
done
