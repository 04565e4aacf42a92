/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * FLINK_REPLACE under contention: writers replace one target in a loop while readers open and
 * read it without pause. A reader must never find the name missing or a file partly written,
 * and no temporary name may be left behind. Plus the flags' own rules.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "flink.h"
#include "tap.h"
#include "errno_name.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#define WRITERS 3
#define READERS 3
#define REPLACEMENTS 400 /* per writer */
#define BODY 8192

static char dir[64];
static int dfd;
static int writers_done;
static long reads, missing, partial, write_errors;

/* Every version of the file: a length header, then BODY bytes all equal to one value. A reader
 * sees a complete version or it has caught a torn one. */
static int write_version(int fd, unsigned char value)
{
	unsigned char buf[BODY + 4];

	buf[0] = BODY >> 24;
	buf[1] = (BODY >> 16) & 0xff;
	buf[2] = (BODY >> 8) & 0xff;
	buf[3] = BODY & 0xff;
	memset(buf + 4, value, BODY);
	return write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) ? 0 : -1;
}

static void *writer(void *arg)
{
	int id = (int)(long)arg;
	int i;

	for (i = 0; i < REPLACEMENTS; i++) {
		int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY, 0644);

		if (fd < 0 || write_version(fd, (unsigned char)(id * 50 + i % 50)) != 0 ||
		    flinkat(fd, dfd, "target", FLINK_REPLACE) != 0)
			__atomic_add_fetch(&write_errors, 1, __ATOMIC_RELAXED);
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

static void *reader(void *arg)
{
	unsigned char buf[BODY + 4 + 1];

	(void)arg;
	while (!__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE)) {
		int fd = openat(dfd, "target", O_RDONLY);
		ssize_t n, got = 0;
		size_t i;

		if (fd < 0) {
			__atomic_add_fetch(&missing, 1, __ATOMIC_RELAXED);
			continue;
		}
		while ((n = read(fd, buf + got, sizeof(buf) - (size_t)got)) > 0)
			got += n;
		close(fd);
		__atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
		if (got != BODY + 4 || buf[2] != (BODY >> 8) || buf[3] != (BODY & 0xff)) {
			__atomic_add_fetch(&partial, 1, __ATOMIC_RELAXED);
			continue;
		}
		for (i = 5; i < (size_t)got; i++)
			if (buf[i] != buf[4]) {
				__atomic_add_fetch(&partial, 1, __ATOMIC_RELAXED);
				break;
			}
	}
	return NULL;
}

static int count_temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, ".#flink.", 8) == 0)
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

static int new_tmpfile(const char *content)
{
	int fd = openat(dfd, ".", O_TMPFILE | O_RDWR, 0644);

	if (fd >= 0 && write(fd, content, strlen(content)) != (ssize_t)strlen(content)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void read_file(const char *name, char *buf, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	buf[n < 0 ? 0 : n] = '\0';
	if (fd >= 0)
		close(fd);
}

/*
 * What rename(2) refuses by the name alone must be refused before any name is made: the
 * kernel links an O_TMPFILE only until it has had a name, so a temporary name removed after a
 * failed rename would leave the file unlinkable, its content lost (review C3). After each
 * refusal the same fd must still be linkable, and nothing may be left.
 */
static void refused_names(void)
{
	static const struct {
		const char *name;
		int err;
		const char *why;
	} cases[] = {
		{ "", ENOENT, "an empty name" },
		{ "target/", ENOTDIR, "an existing file's name with a trailing slash" },
		{ "nothing-here/", ENOTDIR, "a new name with a trailing slash" },
		{ ".", EISDIR, "\".\"" },
		{ "..", EISDIR, "\"..\"" },
		{ "adir/..", EISDIR, "a last component \"..\"" },
		{ "/", EISDIR, "\"/\"" },
		{ NULL, ENAMETOOLONG, "a last component of 256 bytes (NAME_MAX is 255)" },
	};
	char longname[300], rescue[32], buf[64], ebuf[24];
	size_t i;
	int fd, e;

	memset(longname, 'a', 256);
	longname[256] = '\0';
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *name = cases[i].name != NULL ? cases[i].name : longname;

		fd = new_tmpfile("precious");
		e = flinkat(fd, dfd, name, FLINK_REPLACE) == 0 ? 0 : errno;
		tap_is(e, cases[i].err, "FLINK_REPLACE to %s: %s", cases[i].why,
		       errno_name(cases[i].err, ebuf));
		snprintf(rescue, sizeof(rescue), "rescue%zu", i);
		tap_is(flinkat(fd, dfd, rescue, 0), 0, "... and the file can still be linked");
		read_file(rescue, buf, sizeof(buf));
		tap_ok(strcmp(buf, "precious") == 0, "... with its content");
		unlinkat(dfd, rescue, 0);
		close(fd);
	}
	/* A 256-byte name beside a short directory part, the review's own reproducer. */
	fd = new_tmpfile("precious");
	{
		char path[400];

		snprintf(path, sizeof(path), "%s/%s", dir, longname);
		e = flinkat(fd, AT_FDCWD, path, FLINK_REPLACE) == 0 ? 0 : errno;
	}
	tap_is(e, ENAMETOOLONG, "FLINK_REPLACE to DIR/ + 256 x 'a': ENAMETOOLONG");
	tap_is(flinkat(fd, dfd, "rescue", 0), 0, "... and the file can still be linked");
	unlinkat(dfd, "rescue", 0);
	close(fd);
	tap_is(count_temporaries(), 0, "no temporary name left by the refused names");
}

/* rename(2) between two names of one file does nothing and succeeds: the temporary name must
 * not stay behind (review C9). */
static void same_file_twice(void)
{
	struct stat st;
	int fd = new_tmpfile("same");

	tap_is(flinkat(fd, dfd, "same", FLINK_REPLACE), 0, "FLINK_REPLACE once");
	tap_is(flinkat(fd, dfd, "same", FLINK_REPLACE), 0,
	       "FLINK_REPLACE again onto the name that is already this file: 0");
	tap_ok(fstat(fd, &st) == 0 && st.st_nlink == 1, "... and the file still has one name");
	tap_is(count_temporaries(), 0, "... and no temporary name is left");
	close(fd);
	fd = openat(dfd, "same", O_RDONLY);
	tap_is(flinkat(fd, dfd, "same", FLINK_REPLACE), 0,
	       "FLINK_REPLACE of a regular file onto its own name: 0");
	tap_ok(fstat(fd, &st) == 0 && st.st_nlink == 1, "... one name");
	tap_is(count_temporaries(), 0, "... and no temporary name is left");
	close(fd);
	unlinkat(dfd, "same", 0);
}

int main(void)
{
	pthread_t w[WRITERS], r[READERS];
	char buf[64];
	struct stat st;
	int i, fd, e;

	snprintf(dir, sizeof(dir), "/tmp/flink-replace.XXXXXX");
	if (mkdtemp(dir) == NULL || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0)
		tap_skip_all("cannot make a temporary directory");
	fd = new_tmpfile("v0");
	if (fd < 0)
		tap_skip_all("no O_TMPFILE in /tmp");

	/* plain rules first */
	tap_is(flinkat(fd, dfd, "target", FLINK_REPLACE), 0, "FLINK_REPLACE creates a new name");
	close(fd);
	read_file("target", buf, sizeof(buf));
	tap_ok(strcmp(buf, "v0") == 0, "... with the content");
	fd = new_tmpfile("v1");
	errno = 4242;
	tap_is(flinkat(fd, dfd, "target", FLINK_REPLACE), 0, "FLINK_REPLACE replaces an existing name");
	tap_is(errno, 4242, "errno unchanged on success");
	read_file("target", buf, sizeof(buf));
	tap_ok(strcmp(buf, "v1") == 0, "... which now holds the new file");
	tap_ok(fstat(fd, &st) == 0 && st.st_nlink == 1, "the new file has exactly one name");
	close(fd);
	fd = new_tmpfile("v2");
	tap_is(flinkat(fd, dfd, "target", 0), -1, "without FLINK_REPLACE an existing name is EEXIST");
	tap_is(errno, EEXIST, "... errno EEXIST");
	tap_ok(mkdirat(dfd, "adir", 0755) == 0, "a directory to aim at");
	e = flinkat(fd, dfd, "adir", FLINK_REPLACE) == 0 ? 0 : errno;
	tap_is(e, EISDIR, "FLINK_REPLACE over a directory fails as rename does: EISDIR");
	e = flinkat(fd, dfd, "missing/x", FLINK_REPLACE) == 0 ? 0 : errno;
	tap_is(e, ENOENT, "FLINK_REPLACE into a missing directory: ENOENT");
	/* An O_TMPFILE whose first name was removed can never be linked again: the failures
	 * above must have been caught before any temporary name was made. */
	tap_is(flinkat(fd, dfd, "synced", FLINK_SYNC | FLINK_REPLACE), 0,
	       "after those failures the file can still be linked (FLINK_SYNC|FLINK_REPLACE)");
	read_file("synced", buf, sizeof(buf));
	tap_ok(strcmp(buf, "v2") == 0, "... links the file");
	close(fd);
	fd = new_tmpfile("v3");
	tap_is(flinkat(fd, dfd, "synced2", FLINK_SYNC), 0, "FLINK_SYNC alone");
	close(fd);
	/* fsync(2) refuses O_PATH descriptors: FLINK_SYNC syncs their filesystem instead. */
	fd = new_tmpfile("named");
	tap_is(flinkat(fd, dfd, "named", 0), 0, "a named file to open with O_PATH");
	close(fd);
	fd = openat(dfd, "named", O_PATH);
	errno = 4242;
	tap_is(flinkat(fd, dfd, "opath-synced", FLINK_SYNC), 0, "FLINK_SYNC of an O_PATH fd links");
	tap_is(errno, 4242, "... errno unchanged");
	tap_ok(fstatat(dfd, "opath-synced", &st, 0) == 0 && st.st_nlink == 2,
	       "... the very file (two names now)");
	tap_is(flinkat(fd, dfd, "opath-replaced", FLINK_SYNC | FLINK_REPLACE), 0,
	       "FLINK_SYNC|FLINK_REPLACE of an O_PATH fd links");
	close(fd);
	fd = open(dir, O_PATH | O_DIRECTORY);
	e = flinkat(fd, dfd, "never", FLINK_SYNC) == 0 ? 0 : errno;
	tap_is(e, EPERM, "FLINK_SYNC of an O_PATH directory fd: EPERM, as linkat(2) says");
	tap_ok(faccessat(dfd, "never", F_OK, 0) != 0, "... and no name appears");
	close(fd);
	fd = new_tmpfile("x");
	e = flinkat(fd, dfd, "bad", 0x4) == 0 ? 0 : errno;
	tap_is(e, EINVAL, "an unknown flag bit beside the known ones: EINVAL");
	close(fd);
	tap_is(count_temporaries(), 0, "no temporary name left by the error cases");

	refused_names();
	same_file_twice();

	/* contention, from a complete first version on */
	fd = openat(dfd, ".", O_TMPFILE | O_WRONLY, 0644);
	tap_ok(fd >= 0 && write_version(fd, 0) == 0 && flinkat(fd, dfd, "target", FLINK_REPLACE) == 0,
	       "a complete first version in place");
	close(fd);
	for (i = 0; i < READERS; i++)
		pthread_create(&r[i], NULL, reader, NULL);
	for (i = 0; i < WRITERS; i++)
		pthread_create(&w[i], NULL, writer, (void *)(long)i);
	for (i = 0; i < WRITERS; i++)
		pthread_join(w[i], NULL);
	__atomic_store_n(&writers_done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < READERS; i++)
		pthread_join(r[i], NULL);
	tap_diag("%ld reads during %d replacements", reads, WRITERS * REPLACEMENTS);
	tap_is(write_errors, 0, "every replacement succeeded");
	tap_ok(reads > 0, "the readers ran during the replacements");
	tap_is(missing, 0, "no reader ever found the name missing");
	tap_is(partial, 0, "no reader ever saw a partial file");
	tap_is(count_temporaries(), 0, "no temporary name left behind");

	unlinkat(dfd, "target", 0);
	unlinkat(dfd, "synced", 0);
	unlinkat(dfd, "synced2", 0);
	unlinkat(dfd, "named", 0);
	unlinkat(dfd, "opath-synced", 0);
	unlinkat(dfd, "opath-replaced", 0);
	unlinkat(dfd, "adir", AT_REMOVEDIR);
	rmdir(dir);
	tap_done();
}
