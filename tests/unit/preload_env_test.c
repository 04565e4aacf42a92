/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wrapper's LD_PRELOAD composition: ours first, others kept, no second copy of the shim. */
#include "config.h"

#include "preload_env.h"
#include "tap.h"

static const char LIB[] = "/opt/x/lib/libflinkshim.so.0";

static void check(const char *existing, const char *want)
{
	char out[256];
	size_t n = preload_compose(LIB, existing, out, sizeof(out));

	if (!tap_ok(n != (size_t)-1 && strcmp(out, want) == 0 && n == strlen(want),
		    "LD_PRELOAD=\"%s\" -> \"%s\"", existing ? existing : "(unset)", want))
		tap_diag("  got \"%s\"", n == (size_t)-1 ? "(overflow)" : out);
}

int main(void)
{
	char small[40];

	check(NULL, LIB);
	check("", LIB);
	check("/usr/lib/libeatmydata.so", "/opt/x/lib/libflinkshim.so.0:/usr/lib/libeatmydata.so");
	check("a.so:b.so", "/opt/x/lib/libflinkshim.so.0:a.so:b.so");
	/* glibc also splits on spaces: each entry survives, joined with ':' */
	check("a.so b.so", "/opt/x/lib/libflinkshim.so.0:a.so:b.so");
	check("  a.so  :: b.so ", "/opt/x/lib/libflinkshim.so.0:a.so:b.so");
#ifdef __GLIBC__
	/* glibc's ld.so splits at spaces and colons only: a tab or a newline is part of a path
	 * there, and splitting at it would preload other files than the user's */
	check("a.so\tb.so:c.so", "/opt/x/lib/libflinkshim.so.0:a.so\tb.so:c.so");
	check("my\ndir/x.so", "/opt/x/lib/libflinkshim.so.0:my\ndir/x.so");
	tap_ok(!preload_is_separator('\t') && !preload_is_separator('\n') &&
		       preload_is_separator(' ') && preload_is_separator(':'),
	       "glibc: the separators are space and colon");
#else
	/* musl's splits at colons and any whitespace */
	check("a.so\tb.so:c.so", "/opt/x/lib/libflinkshim.so.0:a.so:b.so:c.so");
	check("  a.so  :: b.so\t\n", "/opt/x/lib/libflinkshim.so.0:a.so:b.so");
	tap_ok(preload_is_separator('\t') && preload_is_separator('\n') &&
		       preload_is_separator('\v') && preload_is_separator(' ') &&
		       preload_is_separator(':'),
	       "musl: the separators are colon and whitespace");
#endif
	tap_ok(!preload_is_separator('/') && !preload_is_separator('$') &&
		       !preload_is_separator('a'),
	       "a slash, a dollar ($LIB) or a letter is part of a path");
	/* nesting the wrapper adds nothing */
	check(LIB, LIB);
	check("/opt/x/lib/libflinkshim.so.0:a.so", "/opt/x/lib/libflinkshim.so.0:a.so");
	/* another copy of the shim (other install, build tree) is dropped: ours comes first */
	check("a.so:/build/.libs/libflinkshim.so.0:b.so", "/opt/x/lib/libflinkshim.so.0:a.so:b.so");
	check("libflinkshim.so", LIB);
	check("/usr/lib/libflinkshim.so.0.0.0", LIB);
	/* names that only look alike are other libraries and stay */
	check("/usr/lib/libflinkshim.sox", "/opt/x/lib/libflinkshim.so.0:/usr/lib/libflinkshim.sox");
	check("/usr/lib/mylibflinkshim.so", "/opt/x/lib/libflinkshim.so.0:/usr/lib/mylibflinkshim.so");
	check("/libflinkshim.so/other.so", "/opt/x/lib/libflinkshim.so.0:/libflinkshim.so/other.so");

	/* LIB ":a.so" NUL needs sizeof(LIB) + 5 bytes */
	tap_ok(preload_compose(LIB, "a.so", small, sizeof(LIB) + 5) == strlen(LIB) + 5,
	       "an entry that just fits is written");
	tap_ok(preload_compose(LIB, "a.so", small, sizeof(LIB) + 4) == (size_t)-1,
	       "an entry that does not fit is reported, not cut");
	tap_ok(preload_compose(LIB, NULL, small, 0) == (size_t)-1, "a zero-size buffer is reported");
	tap_ok(preload_compose(LIB, NULL, small, sizeof(LIB)) == strlen(LIB),
	       "a buffer of exactly the right size is enough");
	tap_ok(preload_compose(LIB, NULL, small, sizeof(LIB) - 1) == (size_t)-1,
	       "one byte less is not");
	tap_done();
}
