#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/private_ns.sh in a chroot as package builders make them (pbuilder, sbuild): / is not a
# mount point, /proc is mounted, and the mount holding the chroot is shared with the parent
# namespace (systemd makes / shared). There the suites' /proc-less world must still be built,
# and no mount made in it may reach the parent: plain `unshare -m` fails there, and
# `unshare -m --propagation unchanged` leaks. (TAP; needs root.)
set -u
: "${top_srcdir:?run through make check}"
private_ns=${FLS_PRIVATE_NS:-$top_srcdir/tests/private_ns.sh}
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root: it mounts the chroot it tests in"; exit 0; }
why=$("$private_ns" true 2>&1) || { echo "1..0 # SKIP no private mount namespace here: ${why#private_ns: }"; exit 0; }

# Everything happens in a private namespace of this test's own (the host is untouched): a
# shared tmpfs stands for the host's /, and the chroot is a plain directory inside it.
# shellcheck disable=SC2016 # the inner scripts expand their own variables
exec "$private_ns" sh -c '
	private_ns=$1
	host=$(mktemp -d) && mount -t tmpfs fls-host "$host" && mount --make-shared "$host" || {
		echo "1..0 # SKIP cannot make a shared tmpfs to stand for the host"; exit 0; }
	root=$host/chroot
	mkdir -p "$root/usr" "$root/proc" "$root/tmp" "$root/dev" "$root/etc"
	for d in bin sbin lib lib32 lib64 libx32; do
		[ -L "/$d" ] && ln -s "$(readlink "/$d")" "$root/$d"
		[ -d "/$d" ] && [ ! -L "/$d" ] && mkdir "$root/$d" && mount --rbind "/$d" "$root/$d"
	done
	mount --rbind /usr "$root/usr" && mount --rbind /dev "$root/dev" &&
		mount -t proc proc "$root/proc" && cp "$private_ns" "$root/private_ns.sh" || {
		echo "1..0 # SKIP cannot lay out a chroot from this system'"'"'s /usr"; exit 0; }
	leaks() { grep -cE "fls-(noproc|anchor|inner|control)" /proc/self/mounts; }
	echo "1..4"
	out=$(chroot "$root" /private_ns.sh --noproc sh -c "ls -A /proc | wc -l; mount -t tmpfs fls-inner /tmp && echo mounted" 2>&1)
	if [ "$out" = "0
mounted" ]; then
		echo "ok 1 - in the chroot: an empty /proc, and a mount of its own"
	else
		echo "not ok 1 - in the chroot: expected an empty /proc and a mount, got: $out"
	fi
	n=$(leaks)
	if [ "$n" = 0 ]; then
		echo "ok 2 - nothing reached the parent namespace"
	else
		echo "not ok 2 - $n mounts reached the parent namespace:"
		grep -E "fls-" /proc/self/mounts | sed "s/^/#   /"
	fi
	# The checks above can fail: the naive ways do.
	if ! chroot "$root" unshare -m true 2>/dev/null; then
		echo "ok 3 - plain unshare -m fails in this chroot, as in pbuilder"
	else
		echo "not ok 3 - plain unshare -m works here: the chroot is not laid out as a builder'"'"'s"
	fi
	chroot "$root" unshare -m --propagation unchanged sh -c "mount -t tmpfs fls-control /tmp" 2>/dev/null
	if [ "$(leaks)" != 0 ]; then
		echo "ok 4 - unshare -m --propagation unchanged leaks its mounts here: test 2 can see a leak"
	else
		echo "not ok 4 - a leak is not visible from here: test 2 proves nothing"
	fi
' sh "$private_ns"
