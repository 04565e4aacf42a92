/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the unit tests that need root's powers over what they make themselves (mounting over
 * /proc in a mount namespace of their own, linking by the direct form): not root, a test
 * becomes root of a user namespace of its own, where unprivileged user namespaces are
 * allowed (Debian's and Fedora's default), so that unprivileged builds run it too.
 */
#ifndef FLINKSHIM_TESTS_NAMESPACE_ROOT_H
#define FLINKSHIM_TESTS_NAMESPACE_ROOT_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int namespace_root_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* unshare(CLONE_NEWUSER | extra) with our uid and gid mapped to 0 inside: 0, or -1 where the
 * system refuses (then the caller skips, and says why). */
static inline int become_namespace_root(int extra)
{
	char map[64];
	unsigned long uid = (unsigned long)geteuid(), gid = (unsigned long)getegid();

	if (unshare(CLONE_NEWUSER | extra) != 0)
		return -1;
	snprintf(map, sizeof(map), "0 %lu 1\n", uid);
	if (namespace_root_write("/proc/self/uid_map", map) != 0 ||
	    namespace_root_write("/proc/self/setgroups", "deny") != 0)
		return -1;
	snprintf(map, sizeof(map), "0 %lu 1\n", gid);
	return namespace_root_write("/proc/self/gid_map", map);
}

#endif
