# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the probe area (see Makefile.am).
src_libfabtop_a_SOURCES += src/cmd/cmd_probe.c \
	src/probe/probe.h src/probe/probe_int.h src/probe/probe.c \
	src/probe/server.c src/probe/conn.c src/probe/fair.c src/probe/fair.h src/probe/stats.c \
	src/probe/wire.c src/probe/wire.h \
	src/probe/cm_reason.c src/probe/cm_reason.h \
	src/probe/explain.c src/probe/explain.h src/probe/driven.h

# Unit tests (no RDMA needed) and the hostile client the VM test drives.
check_PROGRAMS += tests/probe/test_wire tests/probe/test_cm_reason tests/probe/test_probe \
	tests/probe/test_fair tests/probe/test_outbuf tests/probe/test_explain tests/probe/hostile
TESTS += tests/probe/test_wire tests/probe/test_cm_reason tests/probe/test_probe \
	tests/probe/test_fair tests/probe/test_outbuf tests/probe/test_explain tests/probe/cli.sh tests/probe/why.sh
EXTRA_DIST += tests/probe/cli.sh tests/probe/why.sh
tests_probe_test_wire_LDADD = $(TEST_LDADD)
tests_probe_test_cm_reason_LDADD = $(TEST_LDADD)
tests_probe_test_probe_LDADD = $(TEST_LDADD)
tests_probe_test_fair_LDADD = $(TEST_LDADD)
tests_probe_test_outbuf_LDADD = $(TEST_LDADD)
tests_probe_test_explain_LDADD = $(TEST_LDADD)
tests_probe_hostile_LDADD = $(TEST_LDADD)

# Soft-RoCE VM tests: they boot qemu, so `make check` skips them unless
# FABTOP_VM_TESTS=1 (or CI is set); `make check-vm` runs just them.
VM_TESTS += tests/vm/probe-single.sh tests/vm/probe-twonic.sh
EXTRA_DIST += $(VM_TESTS) doc/probe.md tests/vm/README tests/vm/prepare.sh tests/vm/init.sh \
	tests/vm/run-vm.sh tests/vm/two-vm.sh tests/vm/lib.sh tests/vm/guest/lib.inc \
	tests/vm/guest/single.sh tests/vm/guest/twonic-server.sh tests/vm/guest/twonic-client.sh

# make bench: probe bw and lat against perftest in the VM, medians of 5
# alternating runs (boots the VM: ~1.5 min under TCG).
BENCHES += tests/vm/probe-perf.sh
EXTRA_DIST += tests/vm/probe-perf.sh tests/vm/guest/perf.sh
check-vm: all
	$(MAKE) $(AM_MAKEFLAGS) check-am TESTS='$(VM_TESTS)' FABTOP_VM_TESTS=1
.PHONY: check-vm
