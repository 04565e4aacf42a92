# SPDX-License-Identifier: LGPL-2.1-or-later
# Man pages: the version and the installed library's path are filled in at build time.

man_MANS = man/flink.3 man/flinkshim.1
dist_man_MANS = man/flinkat.3
EXTRA_DIST += man/flink.3.in man/flinkshim.1.in
CLEANFILES += $(man_MANS)

man_subst = sed -e 's|@VERSION[@]|$(PACKAGE_VERSION)|g' -e 's|@LIBDIR[@]|$(libdir)|g' \
	-e 's|@SONAME[@]|$(FLINKSHIM_SONAME)|g'

man/flink.3: $(top_srcdir)/man/flink.3.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && $(man_subst) $(top_srcdir)/man/flink.3.in >$@

man/flinkshim.1: $(top_srcdir)/man/flinkshim.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && $(man_subst) $(top_srcdir)/man/flinkshim.1.in >$@

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = flinkshim.pc
EXTRA_DIST += flinkshim.pc.in
