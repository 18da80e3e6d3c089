# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the RoCE lossless chain (doc/roce.md): DCB over
# rtnetlink, ethtool statistics, the congestion counters, the RoCE pane and findings.
src_libfabtop_a_SOURCES += \
	src/model/roce.c src/model/roce.h \
	src/kernel/dcb_parse.c src/kernel/dcb_parse.h \
	src/kernel/dcb.c src/kernel/dcb.h \
	src/kernel/ethtool_parse.c src/kernel/ethtool_parse.h \
	src/kernel/ethtool.c src/kernel/ethtool.h \
	src/kernel/ethtool_nl_parse.c src/kernel/ethtool_nl_parse.h \
	src/kernel/ethtool_nl.c src/kernel/ethtool_nl.h \
	src/kernel/roce.c src/kernel/roce.h \
	src/demo/demo_roce.c src/demo/demo_roce.h \
	src/derive/roce_ctr.c src/derive/roce_ctr.h \
	src/derive/roce_check.c src/derive/roce_check.h \
	src/report/roce.c src/report/roce.h \
	src/ui/view_roce.c

check_PROGRAMS += tests/roce/test_dcb_parse tests/roce/test_ethtool_parse
TESTS += tests/roce/test_dcb_parse tests/roce/test_ethtool_parse tests/roce/chain.sh tests/roce/tui.sh
EXTRA_DIST += tests/roce/chain.sh tests/roce/chain-tree.py tests/roce/tui.sh

# The live path in the Soft-RoCE VM (tests/vm): veth ethtool statistics, dcbnl's "not supported".
VM_TESTS += tests/roce/vm.sh
EXTRA_DIST += tests/roce/vm.sh tests/roce/vm.guest
tests_roce_test_dcb_parse_LDADD = $(TEST_LDADD)
tests_roce_test_ethtool_parse_LDADD = $(TEST_LDADD)

# fuzz_roce (mk/fuzz.mk runs it under --enable-fuzzing); make check replays
# its seeds (tests/data/fuzz/roce, written by tests/fuzz/roce_seeds.py).
FUZZERS += tests/fuzz/fuzz_roce
FUZZ_SRCS += tests/fuzz/fuzz_roce.c tests/fuzz/roce_seeds.py
tests_fuzz_fuzz_roce_SOURCES = tests/fuzz/fuzz_roce.c
tests_fuzz_fuzz_roce_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_roce_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
check_PROGRAMS += tests/fuzz/replay_roce
TESTS += tests/fuzz/replay_roce
tests_fuzz_replay_roce_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_roce.c
tests_fuzz_replay_roce_LDADD = $(TEST_LDADD)

# The demo fabric's RoCE port: PFC on priority 3, CNP traffic, the pause-storm episode.
check_PROGRAMS += tests/roce/test_demo_roce
TESTS += tests/roce/test_demo_roce
tests_roce_test_demo_roce_LDADD = $(TEST_LDADD)
# What show roce could not check, and the loss it cannot explain (derive/roce_check.c).
check_PROGRAMS += tests/roce/test_roce_check
TESTS += tests/roce/test_roce_check
tests_roce_test_roce_check_LDADD = $(TEST_LDADD)
