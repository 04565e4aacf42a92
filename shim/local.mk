# SPDX-License-Identifier: LGPL-2.1-or-later
# The library, and the flinkshim command.

include_HEADERS = include/flink.h

# The pure classifier is its own convenience library so the unit tests and the fuzzer can link
# it without the interposers.
noinst_LTLIBRARIES += libprocfd.la
libprocfd_la_SOURCES = shim/procfd_classify.c shim/procfd_classify.h
libprocfd_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

lib_LTLIBRARIES += libflinkshim.la
libflinkshim_la_SOURCES = \
	shim/debug_log.c shim/debug_log.h \
	shim/export.h \
	shim/flink_api.c \
	shim/flink_engine.c shim/flink_engine.h \
	shim/flink_replace.c shim/flink_replace.h \
	shim/interpose.c \
	shim/library_init.c \
	shim/procfd_owner.c shim/procfd_owner.h \
	shim/raw_syscall.h \
	shim/real_syms.c shim/real_syms.h
libflinkshim_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libflinkshim_la_LIBADD = libprocfd.la
libflinkshim_la_LDFLAGS = -version-info $(LT_VERSION_INFO) -no-undefined \
	-Wl,--version-script=$(top_srcdir)/shim/libflinkshim.map -Wl,-z,now -Wl,-z,relro
EXTRA_libflinkshim_la_DEPENDENCIES = shim/libflinkshim.map
EXTRA_DIST += shim/libflinkshim.map

# The flinkshim command. It does not link the library: it only finds it, checks that it loads,
# and preloads it.
bin_PROGRAMS += flinkshim
flinkshim_SOURCES = \
	shim/flinkshim_main.c \
	shim/flinkshim_check.c shim/flinkshim_check.h \
	shim/preload_env.c shim/preload_env.h \
	shim/elf_static.c shim/elf_static.h
flinkshim_CPPFLAGS = $(AM_CPPFLAGS) -DFLINKSHIM_LIBDIR='"$(libdir)"' \
	-DFLINKSHIM_SONAME='"$(FLINKSHIM_SONAME)"'
