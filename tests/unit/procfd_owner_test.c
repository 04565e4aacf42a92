/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The owner checks (shim/core/procfd_owner.c) against worlds built for real: a private mount
 * namespace in which /proc is replaced, in this very process. Built from the library's own
 * sources, without the interposers: mount() here is libc's, so the test tells the shim what
 * it would have seen (proc_kind_forget()).
 *
 * Needs root (a mount namespace); skips otherwise. It runs in the sanitizer build too, where
 * the bats suites cannot: a /proc that is not procfs may hold any link, and reading it must
 * not overflow (review S5: a planted /proc/self of 25 digits).
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "../tap.h"
#include "namespace_root.h"
#include "proc_kind.h"
#include "procfd_owner.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new empty tmpfs over /proc, over the previous one's place (the original /proc stays
 * underneath). */
static int tmpfs_on_proc;

static void fresh_proc(void)
{
	if (tmpfs_on_proc && umount2("/proc", MNT_DETACH) != 0)
		tap_diag("umount2 /proc: %s", strerror(errno));
	tmpfs_on_proc = 1;
	if (mount("none", "/proc", "tmpfs", 0, "size=64k") != 0) {
		tap_diag("mount tmpfs on /proc: %s", strerror(errno));
		tap_done();
	}
	proc_kind_forget(); /* as the interposed mount() would */
}

static int owned(const char *path, int *fd)
{
	*fd = -1;
	return procfd_own_fd(path, fd, "test");
}

int main(void)
{
	char path[64];
	int fd, mounted_procfs = 0;

	if (geteuid() != 0 ? become_namespace_root(CLONE_NEWNS) != 0 : unshare(CLONE_NEWNS) != 0)
		tap_skip_all("cannot make a private mount namespace (%s): not root, and no user "
			     "namespace allowed?", strerror(errno));
	/* In a chroot (pbuilder, sbuild) / is not a mount point and cannot be made private; the
	 * only mounts made here are over /proc, the chroot's own mount point. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 &&
	    (errno != EINVAL || mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) != 0))
		tap_skip_all("neither / nor /proc can be made a private mount: %s", strerror(errno));
	procfd_owner_init();

	/* With procfs: /proc/<pid> is ours when /proc/thread-self says both numbers are. */
	mounted_procfs = proc_kind_get() == PROC_KIND_PROCFS;
	snprintf(path, sizeof(path), "/proc/%d/fd/0", (int)getpid());
	if (mounted_procfs) {
		tap_ok(owned(path, &fd) == 1 && fd == 0, "procfs: %s is ours", path);
	} else {
		tap_skip("/proc is not procfs here to begin with");
	}

	/* A tmpfs with a planted /proc/self of 25 digits: not procfs, so the numbers in a path
	 * mean the program's own namespace, and the link is never parsed (it used to be, into
	 * a long that overflowed). */
	fresh_proc();
	tap_ok(symlink("1234567890123456789012345", "/proc/self") == 0, "planted /proc/self");
	tap_ok(symlink("99999999999999999999999/task/99999999999999999999", "/proc/thread-self") == 0,
	       "planted /proc/thread-self");
	tap_is(proc_kind_get(), PROC_KIND_OTHER, "a tmpfs with entries is PROC_KIND_OTHER");
	tap_ok(owned(path, &fd) == 1 && fd == 0, "%s is ours: nothing in that /proc resolves it",
	       path);

	/* A real file at the idiom's path: the kernel links it, so the path is not ours. */
	snprintf(path, sizeof(path), "/proc/%d", (int)getpid());
	tap_ok(mkdir(path, 0755) == 0, "%s as a plain directory", path);
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)getpid());
	tap_ok(mkdir(path, 0755) == 0, "%s", path);
	snprintf(path, sizeof(path), "/proc/%d/fd/0", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	tap_ok(fd >= 0, "%s as a regular file", path);
	if (fd >= 0)
		close(fd);
	tap_is(owned(path, &fd), 0, "%s names that file: not ours", path);
	tap_ok(owned("/proc/self/fd/0", &fd) == 1 && fd == 0,
	       "/proc/self/fd/0 resolves to nothing there (self is a dangling link): ours");

	/* Empty: the case the shim exists for. */
	fresh_proc();
	tap_is(proc_kind_get(), PROC_KIND_NONE, "an empty tmpfs is PROC_KIND_NONE");
	tap_ok(owned(path, &fd) == 1 && fd == 0, "%s is ours", path);
	tap_ok(owned("/proc/self/fd/0", &fd) == 1 && fd == 0, "/proc/self/fd/0 is ours");

	/* The original /proc again: remembered kinds are measured again. */
	tap_ok(umount2("/proc", MNT_DETACH) == 0, "the tmpfs is gone");
	proc_kind_forget();
	if (mounted_procfs)
		tap_is(proc_kind_get(), PROC_KIND_PROCFS, "... and /proc is procfs again");
	tap_done();
}
