/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "errno_name.h"
#include "errno_list.h"

#include <errno.h>
#include <stdio.h>

const char *errno_name(int err)
{
	static char unknown[24];

	switch (err) {
	case 0: return "0";
	FLINKSHIM_ERRNO_LIST(FLINKSHIM_ERRNO_CASE)
	default:
		snprintf(unknown, sizeof(unknown), "%d", err);
		return unknown;
	}
}
