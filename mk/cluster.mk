# SPDX-License-Identifier: GPL-2.0-or-later
# The Cluster pane: a Prometheus client (libcurl multi + jansson), the
# cluster model, the pane, and their tests and benchmark.
src_libfabtop_a_SOURCES += src/remote/prom.c src/remote/prom.h \
	src/remote/libcurl.c src/remote/libcurl.h \
	src/remote/prom_cluster.c src/remote/prom_cluster.h \
	src/model/cluster.c src/model/cluster.h \
	src/ui/view_cluster.c

# The parser on recorded and handmade answers; the model's merge.
check_PROGRAMS += tests/cluster/test_prom
TESTS += tests/cluster/test_prom
tests_cluster_test_prom_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_cluster_test_prom_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/prom

# The pane against a fake Prometheus on loopback, which is then stopped, silenced and restarted.
TESTS += tests/cluster/tui.sh tests/cluster/prometheus.sh
EXTRA_DIST += tests/cluster/tui.sh tests/cluster/fake-prom.py tests/cluster/prometheus.sh

# make bench: refreshes of 1,000 hosts x 2 ports from the fake Prometheus.
check_PROGRAMS += tests/bench/bench_cluster
tests_bench_bench_cluster_LDADD = $(TEST_LDADD)
BENCHES += tests/bench/cluster.sh
EXTRA_DIST += tests/bench/cluster.sh
bench: tests/bench/bench_cluster
