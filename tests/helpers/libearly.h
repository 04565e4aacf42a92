/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What libearly's constructor got when it gave its O_TMPFILE a name through /proc. */
#ifndef FLINKSHIM_TESTS_LIBEARLY_H
#define FLINKSHIM_TESTS_LIBEARLY_H

struct early_result {
	int ran;       /* the constructor ran and reached the linkat() call */
	int ret;       /* linkat()'s return value */
	int err;       /* errno after the call */
	int clobbered; /* success, but errno changed */
	int mismatch;  /* success, but the new name is not the open file */
};

const struct early_result *early_result(void);

#endif
