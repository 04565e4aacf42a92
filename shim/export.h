/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef FLINKSHIM_EXPORT_H
#define FLINKSHIM_EXPORT_H
/* The library is built with -fvisibility=hidden; only these symbols leave it (the version
 * script, libflinkshim.map, says the same for the linker). */
#define FLINKSHIM_EXPORT __attribute__((visibility("default")))
#endif
