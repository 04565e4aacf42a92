#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# usage: private_ns.sh [--noproc] [--unpriv | --self] [--] COMMAND [ARG]...
#
# Runs COMMAND in a private mount namespace of its own, where it may mount what it likes
# without touching the caller's world; with --noproc, an empty tmpfs is mounted over /proc
# first. It works where packages are built:
#   - as root, outside a chroot: unshare -m, and / made private (recursively);
#   - as root in a chroot (pbuilder, sbuild): / is not a mount point there, so it cannot be made
#     private, and any mount below it would propagate to the parent namespace. The chroot's
#     /proc is a mount point of its own: it is made private, an anchor tmpfs goes over it, the
#     whole tree is bound inside the anchor (no propagation: its parent is private), made
#     private, and COMMAND runs chrooted into that copy, where / is a private mount point;
#   - unprivileged: a user namespace with the mount namespace (unshare -rm), where the caller is
#     root of its own namespace (capabilities there only). With --unpriv, COMMAND runs as the
#     caller's own uid instead, with no capability at all (unshare -c, then setpriv drops the
#     capabilities kept for the mounts). With --self, COMMAND runs as the caller's own uid but
#     still holds the namespace's capabilities (ambient), for a COMMAND that mounts more first
#     and then drops them itself. The kernel refuses a user namespace in a chroot.
# When none of this is possible it exits 125 and says why on stderr (the suites' skip reason).
# Without --unpriv, root stays root: the suites drop privileges themselves with setpriv.
set -u

noproc=0 unpriv=0 self=0
while [ $# -gt 0 ]; do
	case $1 in
	--noproc) noproc=1 ;;
	--unpriv) unpriv=1 ;;
	--self) self=1 ;;
	--) shift; break ;;
	*) break ;;
	esac
	shift
done
[ $# -gt 0 ] || { echo "usage: private_ns.sh [--noproc] [--unpriv | --self] [--] COMMAND [ARG]..." >&2; exit 125; }

# Runs inside the new namespace: $1 is 1 to hide /proc, $2 1 to drop the namespace's
# capabilities, $3 the directory to come back to after a chroot; then COMMAND.
inner='
	hide=$1 drop=$2 cwd=$3
	shift 3
	if ! mount --make-rprivate / 2>/dev/null; then
		if ! mount --make-rprivate /proc 2>/dev/null; then
			echo "private_ns: / is not a mount point (a chroot?) and neither is /proc: no mount can be made private here without touching the parent namespace" >&2
			exit 125
		fi
		mount -t tmpfs -o mode=0700,size=4k fls-anchor /proc &&
			mkdir /proc/root &&
			mount --rbind / /proc/root &&
			mount --make-rprivate /proc/root &&
			umount /proc/root/proc || {
			echo "private_ns: cannot bind the chroot into a private anchor (mount --rbind failed)" >&2
			exit 125
		}
		exec chroot /proc/root sh -c "$0" "$0" "$hide" "$drop" "$cwd" "$@"
	fi
	cd "$cwd" 2>/dev/null || cd /
	if [ "$hide" = 1 ] && ! mount -t tmpfs -o mode=0555,size=4k fls-noproc /proc; then
		echo "private_ns: cannot mount a tmpfs over /proc" >&2
		exit 125
	fi
	if [ "$drop" = 1 ]; then
		exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"
	fi
	exec "$@"
'

if [ "$(id -u)" = 0 ]; then
	command -v unshare >/dev/null 2>&1 || { echo "private_ns: unshare (util-linux) is not installed" >&2; exit 125; }
	# unchanged: unshare's default (private) fails in a chroot, before the fallback above.
	err=$(unshare -m --propagation unchanged true 2>&1) || {
		echo "private_ns: mount namespaces are not allowed here (unshare -m: ${err:-failed})" >&2
		exit 125
	}
	exec unshare -m --propagation unchanged sh -c "$inner" "$inner" "$noproc" 0 "$PWD" "$@"
fi

command -v unshare >/dev/null 2>&1 || { echo "private_ns: unshare (util-linux) is not installed" >&2; exit 125; }
if ! err=$(unshare -rm true 2>&1); then
	echo "private_ns: not root, and no user namespace can be made here: unprivileged user namespaces are not allowed (kernel.unprivileged_userns_clone, user.max_user_namespaces, a seccomp or AppArmor profile), or this is a chroot, where the kernel refuses them (unshare -rm: ${err:-failed})" >&2
	exit 125
fi
if [ "$unpriv" = 1 ] || [ "$self" = 1 ]; then
	exec unshare -U -m --map-current-user --keep-caps sh -c "$inner" "$inner" "$noproc" "$unpriv" "$PWD" "$@"
fi
exec unshare -rm sh -c "$inner" "$inner" "$noproc" 0 "$PWD" "$@"
