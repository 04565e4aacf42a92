/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flinkshim: run a command with libflinkshim preloaded, or under the ptrace supervisor
 * (--trace, for static programs and raw system calls), or report whether legacy programs
 * can work here (--check).
 *
 * Exit status as env(1) and nice(1): the command's own status, or 125 if flinkshim itself
 * failed, 126 if the command cannot be run, 127 if it was not found.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "arch_support.h"
#include "elf_static.h"
#include "flinkshim_paths.h"
#include "flinkshim_check.h"
#include "preload_env.h"
#include "trace_supervisor.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __GLIBC__
#define LOADER_NAME "glibc's ld.so"
#else
#define LOADER_NAME "the dynamic loader"
#endif

#define EXIT_WRAPPER 125
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

static void usage(FILE *out)
{
	fputs("Usage: flinkshim [--debug] [--] COMMAND [ARG]...\n"
	      "       flinkshim --trace|--auto [--debug] [--] COMMAND [ARG]...\n"
	      "       flinkshim --check [DIR]\n"
	      "Run COMMAND with libflinkshim preloaded, so that its\n"
	      "linkat(AT_FDCWD, \"/proc/self/fd/N\", ..., AT_SYMLINK_FOLLOW) calls work\n"
	      "without /proc.\n"
	      "\n"
	      "  --debug     print one line per rewritten call to stderr (FLINKSHIM_DEBUG=1)\n"
	      "  --trace     no preload: trace COMMAND and its children with ptrace and a\n"
	      "              seccomp filter that stops them only at linkat(AT_SYMLINK_FOLLOW),\n"
	      "              and rewrite those calls; works for statically linked programs\n"
	      "              (most Go programs) and raw system calls too\n"
	      "  --auto      --trace if COMMAND is statically linked or runs under another C\n"
	      "              library's loader than this flinkshim's, the preload otherwise\n"
	      "  --check     report whether legacy programs will work here, probing DIR\n"
	      "              (default: the current directory)\n"
	      "  --help      show this help\n"
	      "  --version   show the version\n"
	      "\n"
	      "Environment: FLINKSHIM_DEBUG=1 as --debug; FLINKSHIM_LIBRARY=PATH preloads\n"
	      "PATH instead of the installed library.\n"
	      "A preload cannot reach statically linked programs: use --trace (or --auto).\n",
	      out);
}

__attribute__((format(printf, 2, 3))) static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("flinkshim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/*
 * The installed library through ld.so's $LIB token, when the build installs it in a
 * multiarch directory (FLINKSHIM_LIB_TOKEN_DIR, shim/local.mk): glibc expands $LIB for each
 * program to its own architecture's directory (lib/x86_64-linux-gnu, lib/i386-linux-gnu on
 * Debian), so one LD_PRELOAD serves the programs of every architecture whose build of the
 * library is installed, and their children of another. Only where it leads to the very
 * library at path for this program (dlopen expands $LIB as ld.so does, and gives the same
 * handle for the same file); otherwise path itself.
 */
static int lib_token_path(char *out, size_t outsz)
{
	return FLINKSHIM_LIB_TOKEN_DIR[0] == '\0' ||
			       (size_t)snprintf(out, outsz, "%s/%s", FLINKSHIM_LIB_TOKEN_DIR,
						FLINKSHIM_SONAME) >= outsz
		       ? -1
		       : 0;
}

static void prefer_lib_token(char *path, size_t pathsz)
{
	char token_path[PATH_MAX];
	void *direct, *token;

	if (lib_token_path(token_path, sizeof(token_path)) != 0 || strlen(token_path) >= pathsz)
		return;
	direct = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	token = dlopen(token_path, RTLD_NOW | RTLD_LOCAL);
	if (direct != NULL && token == direct)
		snprintf(path, pathsz, "%s", token_path);
	if (token != NULL)
		dlclose(token);
	if (direct != NULL)
		dlclose(direct);
}

/*
 * Which library to preload, as an absolute path. Run from a build tree (libflinkshim.la
 * beside the executable), the freshly built one; installed, the one in $(libdir), and then 1
 * is returned: the preload names it through $LIB where that works (prefer_lib_token, called
 * only on the way to the preload, so that --trace never loads the library). The executable's
 * own path comes from AT_EXECFN, which needs no /proc. -1 if the path is too long.
 */
static int find_library(char *out, size_t outsz)
{
	const char *override = secure_getenv("FLINKSHIM_LIBRARY");
	/* The auxiliary vector holds AT_EXECFN as an integer. */
	const char *exe = (const char *)getauxval(AT_EXECFN); /* NOLINT(performance-no-int-to-ptr) */
	char real[PATH_MAX];
	char *slash;

	if (override != NULL && override[0] != '\0') {
		if (realpath(override, out) == NULL || strlen(out) >= outsz)
			snprintf(out, outsz, "%s", override);
		return 0;
	}
	if (exe != NULL && realpath(exe, real) != NULL && (slash = strrchr(real, '/')) != NULL) {
		char la[PATH_MAX + 32];

		*slash = '\0';
		snprintf(la, sizeof(la), "%s/libflinkshim.la", real);
		if (access(la, F_OK) == 0) {
			if ((size_t)snprintf(out, outsz, "%s/.libs/%s", real, FLINKSHIM_SONAME) >= outsz)
				return -1;
			return 0;
		}
	}
	if ((size_t)snprintf(out, outsz, "%s/%s", FLINKSHIM_LIBDIR, FLINKSHIM_SONAME) >= outsz)
		return -1;
	return 1;
}

/*
 * LD_PRELOAD has no escaping: the loader splits it at spaces and colons (glibc), or colons
 * and any whitespace (musl). A library path holding one would be cut in two there, and the
 * command would run without the shim although dlopen() took the path whole. The separator, or
 * 0 if there is none.
 */
static char preload_breaker(const char *path)
{
	for (; *path != '\0'; path++)
		if (preload_is_separator(*path))
			return *path;
	return 0;
}

/* The path execvp() would run, for the static-binary warning; NULL if not found. */
static const char *which(const char *cmd, char *buf, size_t bufsz)
{
	const char *path = getenv("PATH");
	const char *p;

	if (strchr(cmd, '/') != NULL)
		return cmd;
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *start = p;
		size_t len;

		while (*p != '\0' && *p != ':')
			p++;
		len = (size_t)(p - start);
		if ((size_t)snprintf(buf, bufsz, "%.*s%s%s", (int)len, start, len ? "/" : "",
				     cmd) < bufsz &&
		    access(buf, X_OK) == 0)
			return buf;
		if (*p == '\0')
			return NULL;
	}
}

/* What the wrapper needs to know of COMMAND before it runs it. */
struct command_info {
	const char *path;      /* as execvp() would find it; NULL if not found */
	enum elf_kind kind;    /* of path itself (a script is ELF_NOT_ELF) */
	struct elf_arch arch;  /* the machine code that will run: path's, or for a script its
	                          #! interpreter's (elf_class 0 if unknown) */
	char interp[PATH_MAX]; /* the dynamic loader that will run it (a script's: that of its
	                          #! interpreter), or empty if none or unknown */
	char script[PATH_MAX]; /* a script's #! interpreter, or empty */
};

static ssize_t read_head(const char *path, unsigned char *head, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, head, size);
	close(fd);
	return n;
}

/* A script's #! interpreter, in out; 0 if head does not start one. One level only: the
 * kernel allows an interpreter to be a script itself, but no one builds such chains. */
static int shebang(const unsigned char *head, size_t n, char *out, size_t outsz)
{
	size_t i = 2, len = 0;

	if (n < 2 || head[0] != '#' || head[1] != '!')
		return 0;
	while (i < n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	while (i < n && head[i] != ' ' && head[i] != '\t' && head[i] != '\n' && len + 1 < outsz)
		out[len++] = (char)head[i++];
	out[len] = '\0';
	return len > 0;
}

static void inspect(const char *cmd, char *buf, size_t bufsz, struct command_info *c)
{
	unsigned char head[4096];
	ssize_t n;

	c->kind = ELF_NOT_ELF;
	memset(&c->arch, 0, sizeof(c->arch));
	c->interp[0] = '\0';
	c->script[0] = '\0';
	c->path = which(cmd, buf, bufsz);
	/* A command that cannot run is execvp()'s to report, with its own errno. */
	if (c->path == NULL || access(c->path, X_OK) != 0 ||
	    (n = read_head(c->path, head, sizeof(head))) <= 0)
		return;
	c->kind = elf_interp(head, (size_t)n, c->interp, sizeof(c->interp), &c->arch);
	if (c->kind == ELF_NOT_ELF &&
	    shebang(head, (size_t)n, c->script, sizeof(c->script)) &&
	    (n = read_head(c->script, head, sizeof(head))) > 0)
		elf_interp(head, (size_t)n, c->interp, sizeof(c->interp), &c->arch);
}

/* This build's own architecture, for the messages below. */
static const char *self_arch_name(void)
{
	static char name[64];
	struct elf_arch self;

	arch_self(&self);
	return elf_arch_name(&self, name, sizeof(name));
}

/* For --trace: say so when the tracer cannot rewrite COMMAND's calls. */
static void trace_reach_warning(const struct command_info *c)
{
	char name[64], scope[128];

	elf_arch_name(&c->arch, name, sizeof(name));
	arch_trace_scope(scope, sizeof(scope));
	if (c->arch.elf_class != 0 && !arch_trace_serves(&c->arch))
		fprintf(stderr,
			"flinkshim: warning: %s is a %s program, and %s: its /proc/self/fd links "
			"are not rewritten (mount /proc)\n",
			c->path, name, scope);
}

/* For the preload: say so when it cannot reach COMMAND, for its linking or its
 * architecture, and what would. who names COMMAND (and a script's interpreter). */
static void preload_reach_warning(const struct command_info *c, const char *who,
				  const char *preload)
{
	char name[64], scope[128];

	elf_arch_name(&c->arch, name, sizeof(name));
	arch_trace_scope(scope, sizeof(scope));
	if (c->kind == ELF_STATIC && arch_trace_serves(&c->arch))
		fprintf(stderr,
			"flinkshim: warning: %s is statically linked: LD_PRELOAD cannot reach "
			"it, so its /proc/self/fd links are not rewritten (run it with "
			"flinkshim --trace, or --auto; or mount /proc)\n",
			c->path);
	else if (c->kind == ELF_STATIC)
		fprintf(stderr,
			"flinkshim: warning: %s is statically linked (a %s program): LD_PRELOAD "
			"cannot reach it, and %s, so its /proc/self/fd links are not rewritten "
			"(mount /proc)\n",
			c->path, name, scope);
	else if (c->arch.elf_class != 0 && !arch_preload_serves(preload, &c->arch))
		fprintf(stderr,
			"flinkshim: warning: %s runs as a %s program, and this flinkshim's library "
			"is built for %s programs: the loader will ignore it, so the program's "
			"/proc/self/fd links are not rewritten. Install the library built for "
			"that architecture (Debian: the libflinkshim0 package of it, as "
			"libflinkshim0:i386)%s, or mount /proc.\n",
			who, name, self_arch_name(),
			arch_trace_serves(&c->arch) ? ", run it with --trace" : "");
}

/* The C library of the loader that will run the command, when it is not the one this
 * flinkshim is built for; NULL when it is, or cannot be told. */
static const char *foreign_libc(const struct command_info *c)
{
	const char *libc = c->interp[0] != '\0' ? elf_loader_libc(c->interp) : NULL;

	return libc != NULL && strcmp(libc, FLINKSHIM_LIBC) != 0 ? libc : NULL;
}

/* Can the preload reach the command? 0 if so (perhaps after a warning); otherwise the exit
 * status, after a message that says what to do instead. */
static int preload_can_reach(const struct command_info *c, const char *preload)
{
	const char *libc = foreign_libc(c);
	char who[2 * PATH_MAX + 32];

	if (c->script[0] != '\0')
		snprintf(who, sizeof(who), "%s (a script for %s)", c->path, c->script);
	else
		snprintf(who, sizeof(who), "%s", c->path != NULL ? c->path : "");
	preload_reach_warning(c, who, preload);
	if (libc == NULL)
		return 0;
	/* glibc's loader cannot load a musl library at all: the program would not start. musl's
	 * takes a glibc library as long as every symbol it needs is one musl has too. */
	if (strcmp(libc, "glibc") == 0)
		return fail(EXIT_WRAPPER,
			    "%s runs under glibc's loader (%s), and this flinkshim is built for "
			    "%s: glibc cannot load its library, so the program would not start. "
			    "Run it with flinkshim --trace (or --auto), or with a glibc build of "
			    "flinkshim.",
			    who, c->interp, FLINKSHIM_LIBC);
	fprintf(stderr,
		"flinkshim: warning: %s runs under %s's loader (%s), and this flinkshim is built "
		"for %s: the loader may refuse its library. A %s build of flinkshim is the one "
		"to use (or --trace, or --auto).\n",
		who, libc, c->interp, FLINKSHIM_LIBC, libc);
	return 0;
}

static int run(char **argv, const char *lib)
{
	const char *existing = getenv("LD_PRELOAD");
	size_t need = strlen(lib) + (existing ? strlen(existing) : 0) + 2;
	struct command_info c;
	char buf[PATH_MAX];
	char *preload;
	void *handle;
	int status;
	char sep = preload_breaker(lib);

	if (sep != 0)
		return fail(EXIT_WRAPPER,
			    "cannot preload the shim library %s: its path holds %s, where %s splits "
			    "LD_PRELOAD (which has no escaping), so the command would run without "
			    "it. Install or copy the library to a path without spaces or colons, "
			    "and name it with FLINKSHIM_LIBRARY.",
			    lib, sep == ':' ? "a colon" : sep == ' ' ? "a space" : "whitespace",
			    LOADER_NAME);
	/* Load it here first, as fakechroot does: a missing or broken library is an error
	 * now, not a loader warning the user may never see. dlopen() expands $LIB as the
	 * loader does. */
	handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL)
		return fail(EXIT_WRAPPER, "cannot load the shim library %s: %s", lib, dlerror());
	preload = malloc(need);
	if (preload == NULL || preload_compose(lib, existing, preload, need) == (size_t)-1)
		return fail(EXIT_WRAPPER, "cannot build LD_PRELOAD: %s", strerror(ENOMEM));
	if (setenv("LD_PRELOAD", preload, 1) != 0)
		return fail(EXIT_WRAPPER, "cannot set LD_PRELOAD: %s", strerror(errno));
	inspect(argv[0], buf, sizeof(buf), &c);
	status = preload_can_reach(&c, lib);
	if (status != 0)
		return status;
	execvp(argv[0], argv);
	return fail(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN, "%s: %s", argv[0],
		    strerror(errno));
}

int main(int argc, char **argv)
{
	char lib[PATH_MAX];
	enum { MODE_PRELOAD, MODE_TRACE, MODE_AUTO } mode = MODE_PRELOAD;
	int check = 0, installed;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "--debug") == 0) {
			if (setenv("FLINKSHIM_DEBUG", "1", 1) != 0)
				return fail(EXIT_WRAPPER, "cannot set FLINKSHIM_DEBUG: %s",
					    strerror(errno));
		} else if (strcmp(argv[i], "--check") == 0) {
			check = 1;
		} else if (strcmp(argv[i], "--trace") == 0) {
			mode = MODE_TRACE;
		} else if (strcmp(argv[i], "--auto") == 0) {
			mode = MODE_AUTO;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
			printf("flinkshim %s (%s)\n", PACKAGE_VERSION, FLINKSHIM_LIBC);
			return 0;
		} else {
			return fail(EXIT_WRAPPER, "unknown option '%s'\nTry 'flinkshim --help'.",
				    argv[i]);
		}
	}
	if (check && mode != MODE_PRELOAD)
		return fail(EXIT_WRAPPER, "--check cannot be combined with --trace or --auto");
	installed = find_library(lib, sizeof(lib));
	if (installed < 0)
		return fail(EXIT_WRAPPER, "library path too long");
	if (mode != MODE_PRELOAD && i < argc) {
		char buf[PATH_MAX], token[PATH_MAX];
		struct command_info c;
		/* What the preload would name, for --auto's choice, without loading it. */
		const char *would = installed && lib_token_path(token, sizeof(token)) == 0 ? token
											   : lib;

		inspect(argv[i], buf, sizeof(buf), &c);
		/* --auto: the trace mode for what no preload of ours reaches (a static program,
		 * one whose loader belongs to another C library, or whose architecture has no
		 * library of ours), where the tracer can rewrite it; the preload otherwise, whose
		 * warnings then say what is not served. */
		if (mode == MODE_AUTO)
			mode = (c.kind == ELF_STATIC || foreign_libc(&c) != NULL ||
				(c.arch.elf_class != 0 && !arch_preload_serves(would, &c.arch))) &&
					       arch_trace_serves(&c.arch)
				       ? MODE_TRACE
				       : MODE_PRELOAD;
		if (mode == MODE_TRACE) {
			trace_reach_warning(&c);
			return trace_supervisor_run(argv + i);
		}
	}
	if (installed)
		prefer_lib_token(lib, sizeof(lib));
	if (check) {
		if (argc - i > 1)
			return fail(EXIT_WRAPPER, "--check takes at most one directory");
		return flinkshim_check(i < argc ? argv[i] : ".", lib);
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_WRAPPER;
	}
	return run(argv + i, lib);
}
