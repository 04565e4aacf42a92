/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * env_tool: the few things the wrapper's tests asked of sh, from a program built with the
 * library's own compiler. A preload must match the program's C library: the musl build of
 * the shim cannot be preloaded into the system's sh (a glibc program on Debian), whose loader
 * then refuses to start at all. Built like the library, this program takes the shim in
 * either build, so the wrapper suites run unchanged against both.
 *
 *   env_tool print NAME [DEFAULT]  print NAME's value (DEFAULT, or nothing, if it is unset),
 *                                  with no newline, like printf %s "${NAME-DEFAULT}"
 *   env_tool exit N                exit with status N
 *   env_tool term                  die by SIGTERM, like kill -TERM $$
 * Exit status 2 on a usage error.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fputs("usage: env_tool print NAME [DEFAULT] | exit N | term\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && argc <= 4 && strcmp(argv[1], "print") == 0) {
		const char *v = getenv(argv[2]);

		if (v == NULL)
			v = argc == 4 ? argv[3] : "";
		return fputs(v, stdout) == EOF || fflush(stdout) != 0 ? 1 : 0;
	}
	if (argc == 3 && strcmp(argv[1], "exit") == 0) {
		char *end;
		long n = strtol(argv[2], &end, 10);

		if (*argv[2] == '\0' || *end != '\0' || n < 0 || n > 255)
			return usage();
		return (int)n;
	}
	if (argc == 2 && strcmp(argv[1], "term") == 0) {
		/* The default action, whatever the parent left: the test wants the signal's death. */
		signal(SIGTERM, SIG_DFL);
		raise(SIGTERM);
		return 1; /* not reached */
	}
	return usage();
}
