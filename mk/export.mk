# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for fabtop export: the OpenMetrics exposition, its HTTP server and textfile.
src_libfabtop_a_SOURCES += \
	src/report/openmetrics.c src/report/openmetrics.h \
	src/export/httpd.c src/export/httpd.h \
	src/export/textfile.c src/export/textfile.h \
	src/cmd_export.c

TESTS += tests/export/exporter.sh tests/export/prometheus.sh tests/export/hostile.sh
EXTRA_DIST += tests/export/lib.sh tests/export/exporter.sh tests/export/prometheus.sh tests/export/hostile.sh tests/export/hostile-http.py
