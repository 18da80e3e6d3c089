# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the ui area (see Makefile.am).
src_libfabtop_a_SOURCES += src/cmd_monitor.c

# --- demo fabric and data source (issue 4, demo part; owned by the demo engineer) ---
src_libfabtop_a_SOURCES += src/collect/demo.c src/collect/demo.h \
	src/collect/source.c src/collect/source.h
check_PROGRAMS += tests/demo/test_demo
TESTS += tests/demo/test_demo tests/demo/show_demo.sh
tests_demo_test_demo_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/demo/show_demo.sh tests/data/demo
# --- end demo ---
