/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* errno values by name, for test diagnostics: "ENOENT" says more than "2" in a TAP log. */
#ifndef FLINKSHIM_TESTS_ERRNO_NAME_H
#define FLINKSHIM_TESTS_ERRNO_NAME_H

#include "errno_list.h"

#include <errno.h>
#include <stdio.h>

/* Returns a static string, or writes "errno N" into buf (at least 24 bytes). */
static inline const char *errno_name(int err, char *buf)
{
	switch (err) {
	case 0: return "success";
	FLINKSHIM_ERRNO_LIST(FLINKSHIM_ERRNO_CASE)
	default:
		snprintf(buf, 24, "errno %d", err);
		return buf;
	}
}

#endif
