/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every line of the report comes from a measurement on this machine, not from a version
 * table: the kernel version is printed for the reader, but the verdict comes from linking a
 * real O_TMPFILE by each route, from this process and from a fork child (the case the
 * kernel's same-credentials rule refuses to unprivileged callers).
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "flinkshim_check.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define CAP_DAC_READ_SEARCH_BIT 2
#define LINUX_CAPABILITY_VERSION_3_VALUE 0x20080522

struct probe {
	int tmpfile_errno;  /* 0 if O_TMPFILE works in dir */
	int direct_own;     /* errno of the direct form on our own fd (0 = ok) */
	int direct_child;   /* ... in a fork child, on the parent's fd */
	int proc_own;       /* errno of the /proc form (0 = ok) */
};

static const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EISDIR: return "EISDIR";
	case EROFS: return "EROFS";
	case EXDEV: return "EXDEV";
	case EEXIST: return "EEXIST";
	case ENOSYS: return "ENOSYS";
	default: return strerror(e);
	}
}

/* capget(2) without <linux/capability.h>: a header {version, pid} and two data records of
 * {effective, permitted, inheritable}, the first holding capabilities 0-31. */
static int has_cap_dac_read_search(void)
{
	unsigned header[2] = { LINUX_CAPABILITY_VERSION_3_VALUE, 0 };
	unsigned data[6] = { 0 };

	if (syscall(SYS_capget, header, data) != 0)
		return -1;
	return (data[0] >> CAP_DAC_READ_SEARCH_BIT) & 1U ? 1 : 0;
}

static int proc_mounted(void)
{
	struct statfs sfs;

	return statfs("/proc", &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE;
}

/* Kernel version as major*1000+minor, from uname's release string ("6.18.44-..."). */
static int kernel_version(struct utsname *u)
{
	char *end;
	long major, minor;

	if (uname(u) != 0)
		return -1;
	major = strtol(u->release, &end, 10);
	if (*end != '.')
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (major < 0 || major > 1000 || minor < 0 || minor > 999)
		return -1;
	return (int)(major * 1000 + minor);
}

/*
 * Link a fresh O_TMPFILE in dirfd by one route, in this process or in a fork child, then
 * remove the name. Each try needs its own file: once an O_TMPFILE has been linked and that
 * name removed, the kernel never links it again. Returns 0 or the errno of the link.
 */
enum route { DIRECT_OWN, DIRECT_CHILD, PROC_OWN };

static int link_by(int fd, int dirfd, const char *name, enum route route)
{
	if (route == PROC_OWN) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		return linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
	}
	return linkat(fd, "", dirfd, name, AT_EMPTY_PATH) == 0 ? 0 : errno;
}

/* In a fork child the credentials are a new object, so the kernel accepts the direct form
 * on the parent's fd only with CAP_DAC_READ_SEARCH. */
static int link_in_child(int fd, int dirfd, const char *name)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(link_by(fd, dirfd, name, DIRECT_CHILD) & 0xff);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return ECHILD;
	return WEXITSTATUS(status);
}

/* Names other processes cannot foresee: a file left or planted in a shared directory (/tmp)
 * under a predictable name would make a route look refused (EEXIST), so try another. */
#define NAME_ATTEMPTS 16

static int try_route(int dirfd, enum route route, int *open_errno)
{
	char name[80];
	struct timespec ts;
	int fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	int err = EEXIST, attempt;

	if (fd < 0) {
		*open_errno = errno;
		return -1;
	}
	for (attempt = 0; attempt < NAME_ATTEMPTS && err == EEXIST; attempt++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(name, sizeof(name), ".flinkshim-check.%ld.%d.%lx%lx", (long)getpid(), (int)route,
			 (unsigned long)ts.tv_sec, (unsigned long)ts.tv_nsec ^ (unsigned long)attempt);
		err = route == DIRECT_CHILD ? link_in_child(fd, dirfd, name)
					    : link_by(fd, dirfd, name, route);
	}
	if (err == 0)
		unlinkat(dirfd, name, 0);
	close(fd);
	return err;
}

static int run_probe(int dirfd, struct probe *p)
{
	memset(p, 0, sizeof(*p));
	p->direct_own = try_route(dirfd, DIRECT_OWN, &p->tmpfile_errno);
	p->direct_child = try_route(dirfd, DIRECT_CHILD, &p->tmpfile_errno);
	p->proc_own = try_route(dirfd, PROC_OWN, &p->tmpfile_errno);
	return p->tmpfile_errno != 0 ? -1 : 0;
}

static void line(const char *label, const char *value)
{
	printf("  %-40s %s\n", label, value);
}

int flinkshim_check(const char *dir, const char *lib)
{
	struct utsname u;
	struct probe p;
	int version = kernel_version(&u);
	int proc = proc_mounted();
	int cap = has_cap_dac_read_search();
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	void *handle;
	char buf[256];

	printf("flinkshim %s (%s) report for %s\n", PACKAGE_VERSION, FLINKSHIM_LIBC, dir);
	handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	snprintf(buf, sizeof(buf), "%s (%s)", lib, handle ? "loads" : dlerror());
	line("library:", buf);
	snprintf(buf, sizeof(buf), "Linux %s%s", version >= 0 ? u.release : "(unknown)",
		 version >= 6010 ? " (>= 6.10: AT_EMPTY_PATH allowed for own fds)"
				 : " (< 6.10: AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH)");
	line("kernel:", buf);
	line("/proc:", proc ? "mounted" : "NOT mounted (legacy programs fail without the shim)");
	line("CAP_DAC_READ_SEARCH:", cap > 0 ? "yes" : cap == 0 ? "no" : "unknown");
	if (dirfd < 0) {
		printf("verdict: cannot probe: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	if (run_probe(dirfd, &p) != 0) {
		snprintf(buf, sizeof(buf), "not available here (%s)", errname(p.tmpfile_errno));
		line("O_TMPFILE in this directory:", buf);
		printf("verdict: cannot probe: this filesystem or directory does not take O_TMPFILE "
		       "files (%s); run --check on the directory your program uses\n",
		       errname(p.tmpfile_errno));
		close(dirfd);
		return 2;
	}
	close(dirfd);
	line("O_TMPFILE in this directory:", "ok");
	line("direct form, fd opened by this process:", errname(p.direct_own));
	line("direct form, fd inherited by a child:", errname(p.direct_child));
	line("/proc form:", errname(p.proc_own));

	if (handle == NULL) {
		printf("verdict: NO: the library does not load, so nothing is rewritten; "
		       "reinstall flinkshim\n");
		return 1;
	}
	if (p.direct_own == 0 && p.direct_child == 0) {
		printf("verdict: YES: legacy programs will work here under flinkshim, "
		       "with or without /proc\n");
		return 0;
	}
	if (proc && p.proc_own == 0) {
		printf("verdict: YES: legacy programs work here (/proc is mounted); if /proc goes "
		       "away, %s\n",
		       p.direct_own == 0 ? "only fds a process opened itself can be linked: grant "
					   "CAP_DAC_READ_SEARCH for the rest"
					 : "nothing can be linked: the kernel refuses AT_EMPTY_PATH "
					   "(needs Linux >= 6.10 or CAP_DAC_READ_SEARCH)");
		return 0;
	}
	if (p.direct_own == 0) {
		printf("verdict: PARTLY: without /proc, files a process opened itself can be "
		       "linked, but not fds inherited across fork or exec, or opened before a "
		       "uid/capability change (the kernel refuses AT_EMPTY_PATH for them: %s); "
		       "mount /proc or grant CAP_DAC_READ_SEARCH to fix that\n",
		       errname(p.direct_child));
		return 1;
	}
	printf("verdict: NO: without /proc nothing can be linked: the kernel refuses AT_EMPTY_PATH "
	       "(%s); mount /proc, run on Linux >= 6.10, or grant CAP_DAC_READ_SEARCH\n",
	       errname(p.direct_own));
	return 1;
}
