/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flink.h: give a name to an open file (libflinkshim).
 *
 * Linux has no flink() system call. The kernel can do it two ways, and neither is always
 * allowed:
 *   - linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH): needs CAP_DAC_READ_SEARCH, or
 *     Linux >= 6.10 and an fd opened under the caller's own credentials (not inherited across
 *     fork() or execve(), not opened before a setuid()/capset()/setgroups() call);
 *   - linkat(AT_FDCWD, "/proc/thread-self/fd/N", newdirfd, newpath, AT_SYMLINK_FOLLOW):
 *     needs procfs mounted at /proc (Linux 3.11 to 3.16 have no /proc/thread-self: there
 *     /proc/self/fd/N, where that is the caller's table).
 * flink() and flinkat() try the first and fall back to the second, so they work wherever
 * either does.
 *
 * Typical use, to publish a fully written anonymous file:
 *     int fd = open("dir", O_TMPFILE | O_WRONLY, 0644);
 *     ... write(fd, ...) ...
 *     if (flink(fd, "dir/name") != 0) perror("flink");
 *
 * Link with -lflinkshim. Note that linking the library also interposes linkat() and syscall()
 * in the program, exactly as preloading it does (see flinkshim(1)), and watches, without
 * changing them, unshare(), close_range(), chroot(), mount(), umount(), umount2() and setns().
 */
#ifndef FLINK_H
#define FLINK_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Flags for flinkat(), to be or'ed. Every name beginning with FLINK_ is reserved for this
 * header.
 *
 * FLINK_REPLACE: if newpath exists, replace it atomically, as rename(2) would: the file is
 *   linked under a fresh temporary name (".#flink." and some digits) in newpath's directory,
 *   then renamed over newpath. A reader of newpath sees the old file or the new one, never
 *   nothing. If newpath does not exist the file is simply linked there. If newpath is already
 *   this very file, the call does nothing and returns 0.
 *   What rename(2) would refuse is refused before any name is made: an empty newpath
 *   (ENOENT), one that ends in a slash (ENOTDIR), names a directory or ends in "." or ".."
 *   (EISDIR), has a last component longer than NAME_MAX (ENAMETOOLONG), or names another
 *   user's file in a sticky directory that is not the caller's, without CAP_FOWNER (EPERM).
 *   After any failure fd can be linked as well as before the call. Only the final rename can fail once the
 *   temporary name exists (newpath is a mount point: EBUSY; an immutable or append-only file
 *   or directory: EPERM; a security module's refusal; a directory put at newpath meanwhile:
 *   EISDIR). Then the temporary name is removed if the file has another name; if it is the
 *   file's only name (an O_TMPFILE), it is kept, because the kernel never links an O_TMPFILE
 *   again once it lost the name it had: the call returns -1 with rename(2)'s errno and the
 *   file stays named ".#flink.*" in newpath's directory. So after a failure, fstat(fd)
 *   telling st_nlink == 1 for a file that had no name before means that leftover name exists
 *   (it is the entry of that directory with fd's inode number); st_nlink == 0 means nothing
 *   was left. flink() on the same fd works in both cases.
 * FLINK_SYNC: make the result durable: fsync(2) the file before it gets its name, and the
 *   directory that holds the name afterwards. fsync(2) cannot take an O_PATH descriptor: for
 *   one, the whole filesystem that holds newpath's directory (which holds the file too) is
 *   synced with syncfs(2) instead, which costs more. If the directory's fsync fails, the call
 *   returns -1 (EIO, for example) although the name exists.
 */
#define FLINK_REPLACE 0x1
#define FLINK_SYNC 0x2

/*
 * flinkat(): make newpath (relative to newdirfd, as in linkat(2); AT_FDCWD for the current
 * directory) a new hard link to the open file fd. fd may be an O_TMPFILE file, a regular
 * file, or an O_PATH descriptor of one (FLINK_SYNC included: see above).
 *
 * Returns 0, or -1 with errno set. errno is left unchanged on success.
 *   EBADF   fd is not an open file descriptor (or newdirfd is not, for a relative newpath).
 *   EINVAL  flags has an unknown bit.
 *   EISDIR  FLINK_REPLACE and newpath is a directory, "/", or ends in "." or "..".
 *   ENOTDIR FLINK_REPLACE and newpath ends in a slash; or as linkat(2).
 *   EBUSY   FLINK_REPLACE and newpath is a mount point (a ".#flink.*" name may be left: see
 *           FLINK_REPLACE).
 *   EIO     FLINK_SYNC and fsync(2) failed (see above).
 *   EEXIST  newpath exists already.
 *   EXDEV   newpath is on another filesystem (or fd is a pipe, socket or other non-file).
 *   EPERM   fd is a directory; or fs.protected_hardlinks forbids linking a file the caller
 *           does not own and cannot both read and write; or FLINK_REPLACE and the sticky bit
 *           or an immutable or append-only attribute forbids replacing newpath.
 *   EACCES, ENAMETOOLONG, ELOOP, EROFS, ENOSPC, EDQUOT, EMLINK, EFAULT: as linkat(2) (and
 *           rename(2), with FLINK_REPLACE).
 *   ENOENT  a directory in newpath does not exist; or the file can never get a name (it was
 *           deleted, or is an O_TMPFILE opened with O_EXCL); or there is no way to link on
 *           this system: the kernel refused the direct form (see above) and /proc is not
 *           mounted. Mounting /proc, running with CAP_DAC_READ_SEARCH, or (on Linux >= 6.10)
 *           opening the file in the calling process itself fixes the last case;
 *           FLINKSHIM_DEBUG=1 says which case it was.
 */
int flinkat(int fd, int newdirfd, const char *newpath, int flags);

/* flink(fd, newpath) is flinkat(fd, AT_FDCWD, newpath, 0). */
int flink(int fd, const char *newpath);

#ifdef __cplusplus
}
#endif

#endif
