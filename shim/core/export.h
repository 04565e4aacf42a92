/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef FLINKSHIM_EXPORT_H
#define FLINKSHIM_EXPORT_H
/* The library is built with -fvisibility=hidden; only these symbols leave it (the version
 * script, libflinkshim.map, says the same for the linker). */
#define FLINKSHIM_EXPORT __attribute__((visibility("default")))
/* Shared between this library's files (and its assembly), never exported. */
#define FLINKSHIM_HIDDEN __attribute__((visibility("hidden")))
#endif
