/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Load-time setup: everything that may allocate or read the environment happens here, once,
 * never in a call path. Calls that arrive before this runs (from another library's
 * constructor) still work: real_syms resolves lazily and diagnostics are simply off.
 */
#include "config.h"

#include "debug_log.h"
#include "procfd_owner.h"
#include "real_syms.h"

__attribute__((constructor)) static void flinkshim_init(void)
{
	debug_log_init();
	real_syms_init();
	procfd_owner_init();
}
