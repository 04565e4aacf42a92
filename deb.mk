# SPDX-License-Identifier: LGPL-2.1-or-later
# `make deb`: the Debian packages (debian/), built as a packager builds them, then checked
# by lintian, which must find no error and no warning. The tree is a copy of the release tree
# without the files autotools generate (configure, Makefile.in, build-aux...), as a git
# checkout is: dh_autoreconf runs a plain `autoreconf -fi`, so the build also proves that
# configure.ac asks for every auxiliary file. dpkg-buildpackage runs `make check` there, with
# Debian's hardening flags. The packages stay in _deb/ (apt-get install ./_deb/*.deb).
# Needs dpkg-dev, debhelper, lintian and the test dependencies of debian/control.
DEB_DIR = _deb
DEB_TREE = $(DEB_DIR)/$(PACKAGE)-$(VERSION)
EXTRA_DIST += deb.mk
.PHONY: deb
deb:
	@for tool in dpkg-buildpackage dh lintian; do \
		command -v $$tool >/dev/null 2>&1 || { \
			echo "make deb: $$tool not found (Debian: apt-get install dpkg-dev debhelper lintian)" >&2; \
			exit 1; }; \
	done
	@test -f $(srcdir)/debian/control || { \
		echo "make deb: $(srcdir)/debian is missing (it is not in the release tarball: build from a git checkout)" >&2; \
		exit 1; }
	rm -rf $(DEB_DIR)
	$(MKDIR_P) $(DEB_DIR)
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(DEB_TREE)
	cd $(DEB_TREE) && rm -rf configure aclocal.m4 config.h.in build-aux m4/libtool.m4 \
		m4/ltoptions.m4 m4/ltsugar.m4 m4/ltversion.m4 m4/lt~obsolete.m4 && \
		find . -name Makefile.in -exec rm -f {} +
	cp -R $(srcdir)/debian $(DEB_TREE)/debian
	cd $(DEB_TREE) && dpkg-buildpackage -us -uc -b
	lintian --fail-on error,warning --display-info $(DEB_DIR)/*.changes
	@echo "make deb: the packages are in $(DEB_DIR)/:"; ls $(DEB_DIR)/*.deb

clean-local: clean-local-deb
clean-local-deb:
	-rm -rf $(DEB_DIR)
