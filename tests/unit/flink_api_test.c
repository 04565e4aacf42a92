/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flink() and flinkat() against the running kernel: results, errno contract (include/flink.h),
 * and, as root, the same errno as the kernel's own direct form for every error. A last part
 * makes the kernel refuse the direct form (a seccomp filter, as on Linux < 6.10 without
 * CAP_DAC_READ_SEARCH) so that the /proc fallback carries the calls.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "../tap.h"
#include "errno_name.h"
#include "namespace_root.h"
#include "flink.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#if defined(HAVE_LINUX_SECCOMP_H) && defined(HAVE_LINUX_FILTER_H)
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#define CAN_REFUSE_DIRECT_FORM 1
#endif

/* Not an errno any call makes: if it survives, nobody wrote errno. */
#define ERRNO_SENTINEL 7777
#define CONTENT "written before the file had a name\n"

static char dir[PATH_MAX];
static int dir_fd = -1;
static int is_root;

static int new_tmpfile(int extra_flags)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | extra_flags, 0600);

	/* main() checked that O_TMPFILE works here: a failure now is the test's own. */
	if (fd < 0 || write(fd, CONTENT, sizeof(CONTENT) - 1) != (ssize_t)(sizeof(CONTENT) - 1)) {
		printf("Bail out! cannot make a temporary file in %s: %s\n", dir, strerror(errno));
		exit(99);
	}
	return fd;
}

/* An fd number that is not open, and well above the lowest free one, so that no open()
 * in between can take it. */
static int closed_fd(void)
{
	int fd = fcntl(STDOUT_FILENO, F_DUPFD, 500);

	if (fd < 0)
		return 499;
	close(fd);
	return fd;
}

static int exists_at(int at, const char *path)
{
	struct stat st;

	return fstatat(at, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int same_file(int fd, int at, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && fstatat(at, path, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The kernel's direct form; a success is undone so the next check sees the same state. */
static int direct_errno(int fd, int newdirfd, const char *newpath)
{
	if (linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH) == 0) {
		unlinkat(newdirfd, newpath, 0);
		return 0;
	}
	return errno;
}

static int call_flinkat(int fd, int newdirfd, const char *newpath, int flags, int *err)
{
	int rc;

	errno = ERRNO_SENTINEL;
	rc = flinkat(fd, newdirfd, newpath, flags);
	*err = errno;
	return rc;
}

static void expect_error(const char *what, int rc, int err, int want)
{
	char b1[24], b2[24];

	if (!tap_ok(rc == -1 && err == want, "%s: -1 with %s", what, errno_name(want, b1)))
		tap_diag("  got %d, errno %s", rc, errno_name(err, b2));
}

static void compare_direct(const char *what, int err, int fd, int newdirfd, const char *newpath)
{
	char b1[24], b2[24];
	int derr;

	if (!is_root) {
		tap_skip("%s: direct form comparison needs root (CAP_DAC_READ_SEARCH)", what);
		return;
	}
	derr = direct_errno(fd, newdirfd, newpath);
	if (!tap_ok(derr == err, "%s: same errno as linkat(fd, \"\", ..., AT_EMPTY_PATH)", what))
		tap_diag("  flinkat %s, direct form %s", errno_name(err, b1), errno_name(derr, b2));
}

static void test_success(void)
{
	char path[PATH_MAX + 32];
	char buf[sizeof(CONTENT) + 16];
	struct stat st;
	int fd = new_tmpfile(0);
	int rc, err, rfd;
	ssize_t n;

	tap_ok(fstat(fd, &st) == 0 && st.st_nlink == 0, "an O_TMPFILE starts with no link");
	snprintf(path, sizeof(path), "%s/published", dir);
	errno = ERRNO_SENTINEL;
	rc = flink(fd, path);
	err = errno;
	if (!tap_ok(rc == 0, "flink(O_TMPFILE fd, absolute path) succeeds"))
		tap_diag("  errno %s", strerror(err));
	tap_is(err, ERRNO_SENTINEL, "flink leaves errno unchanged on success");
	if (fstat(fd, &st) != 0)
		st.st_nlink = 0;
	tap_is(st.st_nlink, 1, "the file now has one link");
	tap_ok(same_file(fd, AT_FDCWD, path), "the new name is the open file");
	rfd = open(path, O_RDONLY);
	n = rfd >= 0 ? read(rfd, buf, sizeof(buf)) : -1;
	tap_ok(n == (ssize_t)(sizeof(CONTENT) - 1) && memcmp(buf, CONTENT, (size_t)n) == 0,
	       "the content written before the link is there under the name");
	if (rfd >= 0)
		close(rfd);
	close(fd);

	fd = new_tmpfile(0);
	rc = call_flinkat(fd, dir_fd, "relative", 0, &err);
	tap_ok(rc == 0 && same_file(fd, dir_fd, "relative"),
	       "flinkat(fd, newdirfd, relative name) links it under newdirfd");
	tap_is(err, ERRNO_SENTINEL, "flinkat leaves errno unchanged on success");
	close(fd);

	/* newdirfd is ignored for an absolute newpath, as in linkat(2). */
	fd = new_tmpfile(0);
	snprintf(path, sizeof(path), "%s/absolute_bad_dirfd", dir);
	rc = call_flinkat(fd, closed_fd(), path, 0, &err);
	tap_ok(rc == 0 && same_file(fd, AT_FDCWD, path),
	       "an absolute newpath works with a closed newdirfd");
	close(fd);
}

/* The flags the header defines; every other bit must be refused before anything happens. */
#define KNOWN_FLAGS (FLINK_REPLACE | FLINK_SYNC)

static void test_flags(void)
{
	static const int negative[] = { -1, INT_MIN };
	int fd = new_tmpfile(0);
	int bit, rc, err;
	size_t i;

	for (bit = 0; bit <= 30; bit++) {
		int flag = 1 << bit;

		if ((flag & KNOWN_FLAGS) != 0) {
			/* A known flag is accepted; a fresh file each time, as a linked and
			 * unlinked O_TMPFILE can never be linked again. */
			int kfd = new_tmpfile(0);

			rc = call_flinkat(kfd, dir_fd, "flagged", flag, &err);
			if (!tap_ok(rc == 0 && same_file(kfd, dir_fd, "flagged"),
				    "flags 1<<%d is a known flag: linked", bit))
				tap_diag("  got %d, %s", rc, strerror(err));
			unlinkat(dir_fd, "flagged", 0);
			close(kfd);
			/* With an unknown bit beside it, the known one must do nothing either. */
			close(openat(dir_fd, "flagged", O_CREAT | O_WRONLY, 0600));
			rc = call_flinkat(fd, dir_fd, "flagged", flag | (1 << 30), &err);
			if (!tap_ok(rc == -1 && err == EINVAL && !same_file(fd, dir_fd, "flagged"),
				    "flags 1<<%d | 1<<30: EINVAL, the existing name untouched",
				    bit))
				tap_diag("  got %d, %s", rc, strerror(err));
			unlinkat(dir_fd, "flagged", 0);
			continue;
		}
		rc = call_flinkat(fd, dir_fd, "flagged", flag, &err);
		if (!tap_ok(rc == -1 && err == EINVAL && !exists_at(dir_fd, "flagged"),
			    "flags 1<<%d: EINVAL, nothing linked", bit))
			tap_diag("  got %d, %s", rc, strerror(err));
		if (rc == 0)
			unlinkat(dir_fd, "flagged", 0);
	}
	for (i = 0; i < sizeof(negative) / sizeof(negative[0]); i++) {
		rc = call_flinkat(fd, dir_fd, "flagged", negative[i], &err);
		if (!tap_ok(rc == -1 && err == EINVAL && !exists_at(dir_fd, "flagged"),
			    "flags %d: EINVAL, nothing linked", negative[i]))
			tap_diag("  got %d, %s", rc, strerror(err));
		if (rc == 0)
			unlinkat(dir_fd, "flagged", 0);
	}
	/* Unknown flags outrank a bad fd, as in linkat(2), which checks flags first. */
	rc = call_flinkat(-1, dir_fd, "flagged", 1 << 30, &err);
	expect_error("flags 1<<30 with fd -1", rc, err, EINVAL);
	/* The same call with no flag works, so the EINVALs above came from the flags. */
	rc = call_flinkat(fd, dir_fd, "flagged", 0, &err);
	tap_ok(rc == 0 && same_file(fd, dir_fd, "flagged"), "the same call with flags 0 links");
	close(fd);
}

static void test_bad_fd(void)
{
	int rc, err;
	int fd = closed_fd();

	rc = call_flinkat(fd, dir_fd, "badfd", 0, &err);
	expect_error("closed fd", rc, err, EBADF);
	compare_direct("closed fd", err, fd, dir_fd, "badfd");

	rc = call_flinkat(-1, dir_fd, "badfd", 0, &err);
	expect_error("fd -1", rc, err, EBADF);
	compare_direct("fd -1", err, -1, dir_fd, "badfd");

	rc = call_flinkat(INT_MIN, dir_fd, "badfd", 0, &err);
	expect_error("fd INT_MIN", rc, err, EBADF);

	rc = call_flinkat(1000000, dir_fd, "badfd", 0, &err);
	expect_error("fd 1000000 (above any limit)", rc, err, EBADF);
	compare_direct("fd 1000000", err, 1000000, dir_fd, "badfd");

	/* The direct form would take AT_FDCWD as "the current directory" and answer EPERM:
	 * flinkat's fd is a file descriptor, so EBADF is the contract. */
	rc = call_flinkat(AT_FDCWD, dir_fd, "badfd", 0, &err);
	expect_error("fd AT_FDCWD", rc, err, EBADF);
	tap_ok(!exists_at(dir_fd, "badfd"), "no name was made for a bad fd");
}

static void test_errors(void)
{
	int rc, err, fd, xfd, gone, pfd, ffd;
	int bad = closed_fd();

	fd = new_tmpfile(0);
	close(openat(dir_fd, "taken", O_CREAT | O_WRONLY, 0600));
	rc = call_flinkat(fd, dir_fd, "taken", 0, &err);
	expect_error("newpath exists", rc, err, EEXIST);
	compare_direct("newpath exists", err, fd, dir_fd, "taken");

	rc = call_flinkat(fd, dir_fd, "missing/name", 0, &err);
	expect_error("newpath's directory is missing", rc, err, ENOENT);
	compare_direct("newpath's directory is missing", err, fd, dir_fd, "missing/name");

	rc = call_flinkat(fd, bad, "relative", 0, &err);
	expect_error("closed newdirfd with a relative newpath", rc, err, EBADF);
	compare_direct("closed newdirfd with a relative newpath", err, fd, bad, "relative");

	ffd = openat(dir_fd, "taken", O_RDONLY);
	rc = call_flinkat(fd, ffd, "relative", 0, &err);
	expect_error("newdirfd is a regular file", rc, err, ENOTDIR);
	compare_direct("newdirfd is a regular file", err, fd, ffd, "relative");
	close(ffd);

	rc = call_flinkat(fd, dir_fd, NULL, 0, &err);
	expect_error("newpath NULL", rc, err, EFAULT);
	close(fd);

	xfd = new_tmpfile(O_EXCL);
	rc = call_flinkat(xfd, dir_fd, "excl", 0, &err);
	expect_error("O_TMPFILE opened with O_EXCL", rc, err, ENOENT);
	compare_direct("O_TMPFILE opened with O_EXCL", err, xfd, dir_fd, "excl");
	close(xfd);

	gone = openat(dir_fd, "gone", O_CREAT | O_RDWR, 0600);
	unlinkat(dir_fd, "gone", 0);
	rc = call_flinkat(gone, dir_fd, "gone_again", 0, &err);
	expect_error("a named file since unlinked", rc, err, ENOENT);
	compare_direct("a named file since unlinked", err, gone, dir_fd, "gone_again");
	close(gone);

	rc = call_flinkat(dir_fd, dir_fd, "dirlink", 0, &err);
	expect_error("fd is a directory", rc, err, EPERM);
	compare_direct("fd is a directory", err, dir_fd, dir_fd, "dirlink");

	close(openat(dir_fd, "regular", O_CREAT | O_WRONLY, 0600));
	pfd = openat(dir_fd, "regular", O_PATH);
	rc = call_flinkat(pfd, dir_fd, "regular_again", 0, &err);
	if (!tap_ok(rc == 0 && same_file(pfd, dir_fd, "regular_again"),
		    "an O_PATH fd of a regular file links"))
		tap_diag("  got %d, %s", rc, strerror(err));
	if (is_root)
		tap_is(direct_errno(pfd, dir_fd, "regular_direct"), 0,
		       "the direct form links an O_PATH fd too");
	else
		tap_skip("O_PATH direct form comparison needs root");
	close(pfd);
}

/* A writable directory on another filesystem than dir, or NULL. */
static const char *other_filesystem(void)
{
	static const char *const candidates[] = { "/dev/shm", "/tmp", "/var/tmp", "/run" };
	struct stat here, there;
	size_t i;

	if (stat(dir, &here) != 0)
		return NULL;
	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (stat(candidates[i], &there) == 0 && S_ISDIR(there.st_mode) &&
		    there.st_dev != here.st_dev)
			return candidates[i];
	return NULL;
}

static void test_exdev(void)
{
	const char *other = other_filesystem();
	char path[PATH_MAX];
	int fd, rc, err;

	if (other == NULL) {
		tap_skip("EXDEV: no directory on another filesystem than %s", dir);
		tap_skip("EXDEV: direct form comparison");
		return;
	}
	snprintf(path, sizeof(path), "%s/flink_api_test.%ld", other, (long)getpid());
	fd = new_tmpfile(0);
	rc = call_flinkat(fd, AT_FDCWD, path, 0, &err);
	if (rc == 0)
		unlink(path);
	expect_error("newpath on another filesystem", rc, err, EXDEV);
	compare_direct("newpath on another filesystem", err, fd, AT_FDCWD, path);
	close(fd);
}

/* flink(fd, p) is flinkat(fd, AT_FDCWD, p, 0): same result, same errno, same effect, with
 * a relative p resolved against the current directory. */
static void test_flink_is_flinkat(void)
{
	static const struct {
		const char *what;
		const char *first;  /* flink's name */
		const char *second; /* flinkat's name */
		int fd_kind;        /* 0 tmpfile, 1 closed, 2 directory */
	} cases[] = {
		{ "a relative name", "eq_flink", "eq_flinkat", 0 },
		{ "an existing name", "taken", "taken", 0 },
		{ "a missing directory", "nodir/x", "nodir/x", 0 },
		{ "a closed fd", "eq_closed", "eq_closed", 1 },
		{ "a directory fd", "eq_dir", "eq_dir", 2 },
	};
	char cwd[PATH_MAX];
	size_t i;

	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(dir) != 0) {
		tap_skip("flink = flinkat: cannot chdir to %s", dir);
		return;
	}
	close(openat(dir_fd, "taken", O_CREAT | O_WRONLY, 0600));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int a = cases[i].fd_kind == 1 ? closed_fd() : cases[i].fd_kind == 2 ? dir_fd : -1;
		int b = a;
		int ra, rb, ea, eb;
		int linked_a, linked_b;

		if (cases[i].fd_kind == 0) {
			a = new_tmpfile(0);
			b = new_tmpfile(0);
		}
		errno = ERRNO_SENTINEL;
		ra = flink(a, cases[i].first);
		ea = errno;
		errno = ERRNO_SENTINEL;
		rb = flinkat(b, AT_FDCWD, cases[i].second, 0);
		eb = errno;
		linked_a = ra == 0 && same_file(a, dir_fd, cases[i].first);
		linked_b = rb == 0 && same_file(b, dir_fd, cases[i].second);
		if (!tap_ok(ra == rb && ea == eb && linked_a == linked_b,
			    "flink and flinkat(fd, AT_FDCWD, path, 0) agree on %s", cases[i].what))
			tap_diag("  flink %d/%s linked %d, flinkat %d/%s linked %d", ra,
				 strerror(ea), linked_a, rb, strerror(eb), linked_b);
		if (cases[i].fd_kind == 0) {
			close(a);
			close(b);
		}
	}
	tap_ok(exists_at(dir_fd, "eq_flink"), "flink resolved its relative name in the cwd");
	if (chdir(cwd) != 0)
		tap_diag("cannot return to %s", cwd);
}

#ifdef CAN_REFUSE_DIRECT_FORM
/* linkat() with AT_EMPTY_PATH fails with ENOENT, as the kernel does before 6.10 for a caller
 * without CAP_DAC_READ_SEARCH (kernel-facts.md). Irreversible: this part runs last. */
static int refuse_direct_form(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_linkat, 0, 3),
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4])),
#else
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4]) + 4),
#endif
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, AT_EMPTY_PATH, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOENT),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(filter) / sizeof(filter[0])), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}
#endif

static int proc_is_mounted(void)
{
	struct statfs sfs;

	return statfs("/proc", &sfs) == 0 && sfs.f_type == 0x9fa0;
}

static void test_fallback(void)
{
#ifdef CAN_REFUSE_DIRECT_FORM
	int fd, rc, err, bad;

	if (!proc_is_mounted()) {
		tap_skip("/proc fallback: /proc is not mounted");
		return;
	}
	fd = new_tmpfile(0);
	if (refuse_direct_form() != 0 || direct_errno(fd, dir_fd, "fb_probe") != ENOENT) {
		tap_skip("/proc fallback: cannot make the kernel refuse the direct form here");
		close(fd);
		return;
	}
	rc = call_flinkat(fd, dir_fd, "fb_linked", 0, &err);
	tap_ok(rc == 0 && same_file(fd, dir_fd, "fb_linked"),
	       "direct form refused: flinkat links through /proc");
	tap_is(err, ERRNO_SENTINEL, "direct form refused: errno unchanged on success");

	rc = call_flinkat(fd, dir_fd, "taken", 0, &err);
	expect_error("direct form refused: newpath exists", rc, err, EEXIST);
	rc = call_flinkat(fd, dir_fd, "missing/name", 0, &err);
	expect_error("direct form refused: newpath's directory is missing", rc, err, ENOENT);
	bad = closed_fd();
	rc = call_flinkat(fd, bad, "relative", 0, &err);
	expect_error("direct form refused: closed newdirfd", rc, err, EBADF);
	rc = call_flinkat(dir_fd, dir_fd, "dirlink", 0, &err);
	expect_error("direct form refused: fd is a directory", rc, err, EPERM);
	close(fd);

	/* The header promises EBADF for a closed fd; the refusal says ENOENT before the kernel
	 * looks at the fd, and /proc/thread-self/fd/N of a closed N says ENOENT too. */
	rc = call_flinkat(bad, dir_fd, "fb_closed", 0, &err);
	expect_error("direct form refused: closed fd", rc, err, EBADF);
#else
	tap_skip("/proc fallback: built without <linux/seccomp.h>");
#endif
}

static void remove_tree(int at, const char *name)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (d == NULL) {
		unlinkat(at, name, 0);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(fd, e->d_name, 0) != 0)
			remove_tree(fd, e->d_name);
	}
	closedir(d);
	unlinkat(at, name, AT_REMOVEDIR);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	int probe;

	snprintf(dir, sizeof(dir), "%s/flink_api_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	/* Not root: root of a user namespace of our own, where it is allowed (unprivileged
	 * builds), holds CAP_DAC_READ_SEARCH over the files this process opens from then on:
	 * the kernel's direct form then runs for the comparisons as it does for root. */
	is_root = geteuid() == 0 || become_namespace_root(0) == 0;
	if (mkdtemp(dir) == NULL)
		tap_skip_all("cannot make a temporary directory in %s: %s", dir, strerror(errno));
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	probe = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (probe < 0) {
		int err = errno;

		remove_tree(AT_FDCWD, dir);
		tap_skip_all("O_TMPFILE unsupported in %s: %s", dir, strerror(err));
	}
	close(probe);

	test_success();
	test_flags();
	test_bad_fd();
	test_errors();
	test_exdev();
	test_flink_is_flinkat();
	test_fallback();

	remove_tree(AT_FDCWD, dir);
	tap_done();
}
