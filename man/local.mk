# SPDX-License-Identifier: LGPL-2.1-or-later
# Man pages: the version and the installed library's path are filled in at build time.

man_MANS = man/flink.3 man/flinkshim.1
dist_man_MANS = man/flinkat.3
EXTRA_DIST += man/flink.3.in man/flinkshim.1.in
CLEANFILES += $(man_MANS)

# man_subst reads the library directory from the shell variable man_libdir. groff cannot
# break a path (one word) that is wider than the page: @LIBDIR_BREAKABLE@ is the same path
# with a break point (\:) after each slash, for the places where it is filled text.
man_subst = man_libdir_breakable=$$(printf '%s\n' "$$man_libdir" | sed 's|/|/\\\\:|g') && \
	sed -e 's|@VERSION[@]|$(PACKAGE_VERSION)|g' -e "s|@LIBDIR[@]|$$man_libdir|g" \
	-e "s|@LIBDIR_BREAKABLE[@]|$$man_libdir_breakable|g" \
	-e 's|@SONAME[@]|$(FLINKSHIM_SONAME)|g'

man/flink.3: $(top_srcdir)/man/flink.3.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && man_libdir='$(libdir)' && \
		$(man_subst) $(top_srcdir)/man/flink.3.in >$@

man/flinkshim.1: $(top_srcdir)/man/flinkshim.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && man_libdir='$(libdir)' && \
		$(man_subst) $(top_srcdir)/man/flinkshim.1.in >$@

# The same page for a library installed under a very long path (a deep build directory, as
# in `make distcheck` from a long path, or a long --prefix): tests/man.sh renders it too.
MAN_LONG_LIBDIR = /build/a-directory-name-long-enough-to-fill-most-of-a-line-of-eighty-columns/and-another-one-of-the-same-kind-to-go-past-the-width-of-the-page/_inst/lib
man/flinkshim-longpath.1: $(top_srcdir)/man/flinkshim.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && man_libdir='$(MAN_LONG_LIBDIR)' && \
		$(man_subst) $(top_srcdir)/man/flinkshim.1.in >$@
CLEANFILES += man/flinkshim-longpath.1

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = flinkshim.pc
EXTRA_DIST += flinkshim.pc.in
