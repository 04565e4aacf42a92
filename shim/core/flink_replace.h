/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* flinkat()'s FLINK_REPLACE and FLINK_SYNC: atomic replacement and durability. */
#ifndef FLINKSHIM_FLINK_REPLACE_H
#define FLINKSHIM_FLINK_REPLACE_H

/* Link fd under a fresh name in newpath's directory, then rename it over newpath. 0, or -1
 * with errno and no temporary name left behind. */
int flink_replace(int fd, int newdirfd, const char *newpath);

/* fsync(fd). 0 or -1 with errno. */
int flink_sync_file(int fd);

/* fsync the directory that holds newpath (relative to newdirfd). 0 or -1 with errno. */
int flink_sync_parent(int newdirfd, const char *newpath);

#endif
