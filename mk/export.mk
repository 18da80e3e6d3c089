# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for fabtop export: the OpenMetrics exposition, its HTTP server and textfile.
src_libfabtop_a_SOURCES += \
	src/report/openmetrics.c src/report/openmetrics.h \
	src/export/httpd.c src/export/httpd.h \
	src/export/gzip.c src/export/gzip.h \
	src/export/libmicrohttpd.c src/export/libmicrohttpd.h \
	src/export/textfile.c src/export/textfile.h \
	src/export/probe_runs.c src/export/probe_runs.h \
	src/cmd/cmd_export.c

TESTS += tests/export/exporter.sh tests/export/prometheus.sh tests/export/hostile.sh tests/export/rej.sh tests/export/hoard.sh
TESTS += tests/export/gzip.sh
EXTRA_DIST += tests/export/gzip.sh tests/export/gzip-get.py
# Soft-RoCE (make check-vm): the rxe port and --probe for real.
VM_TESTS += tests/export/vm-export.sh
TESTS += tests/export/ibsim.sh
EXTRA_DIST += tests/export/lib.sh tests/export/exporter.sh tests/export/prometheus.sh tests/export/hostile.sh tests/export/rej.sh tests/export/hostile-http.py tests/export/hoard.sh tests/export/hoard.py \
	tests/export/vm-export.sh tests/export/vm-export.guest tests/export/ibsim.sh

# Slow scrapers: pages held for them, the minimum rate, idle connections yielding to a scrape.
check_PROGRAMS += tests/export/test_httpd_slow
TESTS += tests/export/test_httpd_slow
tests_export_test_httpd_slow_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_export_test_httpd_slow_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_openmetrics tests/unit/test_gzip
TESTS += tests/unit/test_gzip
tests_unit_test_gzip_LDADD = $(TEST_LDADD)
TESTS += tests/unit/test_openmetrics
tests_unit_test_openmetrics_LDADD = $(TEST_LDADD)
