/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* flinkat()'s FLINK_REPLACE and FLINK_SYNC: atomic replacement and durability. */
#ifndef FLINKSHIM_FLINK_REPLACE_H
#define FLINKSHIM_FLINK_REPLACE_H

/* Link fd at newpath; if that name exists, link fd under a fresh name in newpath's directory,
 * then rename it over newpath. 0, or -1 with errno. On failure fd is always still linkable: a
 * temporary name is removed, unless it is the only name the file has (include/flink.h). */
int flink_replace(int fd, int newdirfd, const char *newpath);

/* fsync(fd); for an O_PATH fd, which fsync refuses, syncfs() of the filesystem that holds
 * newpath's directory (newpath relative to newdirfd). 0 or -1 with errno. */
int flink_sync_file(int fd, int newdirfd, const char *newpath);

/* fsync the directory that holds newpath (relative to newdirfd). 0 or -1 with errno. */
int flink_sync_parent(int newdirfd, const char *newpath);

#endif
