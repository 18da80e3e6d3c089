# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the mad area (see Makefile.am): InfiniBand
# management through libibumad — PMA counters, link partner, SM, fabric sweep.
src_libfabtop_a_SOURCES += \
	src/derive/mad_decode.c src/derive/mad_decode.h \
	src/mad/umad.c src/mad/umad.h \
	src/mad/mad.c src/mad/mad.h \
	src/mad/mad_port.c src/mad/mad_port.h \
	src/mad/mad_fabric.c src/mad/mad_fabric.h \
	src/mad/mad_cpi.c src/mad/mad_cpi.h \
	src/mad/mad_fpma.c src/mad/mad_fpma.h \
	src/mad/mad_watch.c src/mad/mad_watch.h \
	src/mad/mad_trace.c src/mad/mad_trace.h src/kernel/ipoib_arp.c src/kernel/ipoib_arp.h \
	src/mad/mad_subnet.c src/mad/mad_subnet.h src/ui/view_fabric.c \
	src/mad/mad_path.c src/mad/mad_path.h src/mad/mad_sa.c src/mad/mad_sa.h src/mad/mad_lpma.c src/mad/mad_lpma.h \
	src/derive/fabric_links.c src/derive/fabric_links.h src/derive/xmit_wait.c src/derive/xmit_wait.h \
	src/derive/fabric_hist.c src/derive/fabric_hist.h \
	src/cmd/cmd_probe_mad.c src/cmd/cmd_trace.c \
	src/report/trace.c src/report/trace.h \
	src/model/ibfabric.c src/model/ibfabric.h \
	src/report/ibfabric.c src/report/ibfabric.h

check_PROGRAMS += tests/mad/test_fabric_links tests/mad/test_ipoib_arp tests/mad/test_mad_decode tests/mad/test_umad tests/mad/test_mad_model tests/mad/test_mad_engine tests/mad/mad_sample tests/mad/test_fabric_partial
tests_mad_test_fabric_partial_LDADD = $(TEST_LDADD)
tests_mad_test_mad_decode_LDADD = $(TEST_LDADD)
tests_mad_test_fabric_links_LDADD = $(TEST_LDADD)
tests_mad_test_ipoib_arp_LDADD = $(TEST_LDADD)
tests_mad_mad_sample_LDADD = $(TEST_LDADD)
tests_mad_test_umad_LDADD = $(TEST_LDADD)
tests_mad_test_mad_model_LDADD = $(TEST_LDADD)
tests_mad_test_mad_engine_LDADD = $(TEST_LDADD)
TESTS += tests/mad/test_fabric_partial tests/mad/test_fabric_links tests/mad/test_ipoib_arp tests/mad/test_mad_decode tests/mad/test_umad tests/mad/test_mad_model tests/mad/test_mad_engine tests/mad/nodev.sh tests/mad/ibsim.sh tests/mad/pma-counters.sh tests/mad/sweep-scale.sh tests/mad/fabric-bad.sh tests/mad/trace.sh tests/tui/fabric.sh tests/tui/fabric-big.sh tests/tui/fabric-replay.sh tests/tui/probe-path.sh tests/export/fabric.sh
EXTRA_DIST += tests/mad/fabric-bad.sh tests/mad/trace.sh tests/tui/fabric.sh tests/tui/fabric-big.sh tests/tui/fabric-replay.sh tests/tui/probe-path.sh tests/export/fabric.sh tests/mad/nodev.sh tests/mad/ibsim.sh tests/mad/pma-counters.sh tests/mad/sweep-scale.sh tests/mad/gen-fattree.sh tests/mad/ibsim-lib.sh tests/mad/umad2sim.supp \
	tests/data/ibsim tests/data/mad
BENCHES += tests/mad/bench-sweep.sh tests/mad/bench-pma.sh tests/mad/bench-fabric.sh tests/mad/bench-subnet.sh tests/mad/bench-10k.sh
bench: tests/mad/mad_sample
EXTRA_DIST += tests/mad/bench-sweep.sh tests/mad/bench-pma.sh tests/mad/bench-fabric.sh tests/mad/bench-subnet.sh tests/mad/bench-10k.sh
