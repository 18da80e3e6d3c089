# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop lab: the two-NIC host built for real with Soft-RoCE (doc/lab.md, "The real lab").
src_libfabtop_a_SOURCES += src/change/lab.c src/change/lab.h src/change/lab_state.c src/change/lab_state.h \
	src/cmd/cmd_lab.c

check_PROGRAMS += tests/unit/test_lab_state
TESTS += tests/unit/test_lab_state tests/lab/refuse.sh tests/lab/exists.sh
tests_unit_test_lab_state_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/lab/refuse.sh tests/lab/exists.sh

# Soft-RoCE (make check-vm): up, the probe fails, doctor --apply, it works, down, nothing left.
VM_TESTS += tests/vm/lab.sh
EXTRA_DIST += tests/vm/lab.sh tests/vm/guest/lab.sh
