# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for RDMA resources: RDMA netlink (nldev) dumps of
# QPs, cm_ids, CQs, MRs and PDs, who holds them (/proc, cgroups), and
# `fabtop show res` (see Makefile.am).
src_libfabtop_a_SOURCES += \
	src/model/res.c src/model/res.h \
	src/kernel/rdma_nl_parse.c src/kernel/rdma_nl_parse.h \
	src/kernel/rdma_nl.c src/kernel/rdma_nl.h \
	src/kernel/proc_attr.c src/kernel/proc_attr.h \
	src/derive/cgroup.c src/derive/cgroup.h \
	src/report/res.c src/report/res.h

# The recorder of tests/data/rdma-nl (run inside the Soft-RoCE VM, by hand or by tests/vm/res.sh).
check_PROGRAMS += tests/res/rdma_nl_record
tests_res_rdma_nl_record_LDADD = $(TEST_LDADD)

# Replays of recorded and handmade dumps, cgroup patterns, the /proc fixture tree, the reports (no root).
check_PROGRAMS += tests/res/test_res
TESTS += tests/res/test_res
tests_res_test_res_SOURCES = tests/res/test_res.c tests/res/rdma_json.c tests/res/rdma_json.h
tests_res_test_res_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/rdma-nl tests/data/res tests/fuzz/rdma_nl_seeds.py

# Soft-RoCE VM: show res against iproute2's rdma res show, attribution, no CAP_NET_ADMIN.
VM_TESTS += tests/vm/res.sh
EXTRA_DIST += tests/vm/res.sh tests/vm/guest/res.sh

# The parser under libFuzzer (mk/fuzz.mk: --enable-fuzzing, make fuzz), and its
# seeds (tests/data/fuzz/rdma_nl: recorded dumps and handmade malformed ones)
# replayed by every make check.
FUZZERS += tests/fuzz/fuzz_rdma_nl
FUZZ_SRCS += tests/fuzz/fuzz_rdma_nl.c
check_PROGRAMS += tests/fuzz/replay_rdma_nl
TESTS += tests/fuzz/replay_rdma_nl
tests_fuzz_replay_rdma_nl_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_rdma_nl.c
tests_fuzz_replay_rdma_nl_LDADD = $(TEST_LDADD)
if FUZZING
tests_fuzz_fuzz_rdma_nl_SOURCES = tests/fuzz/fuzz_rdma_nl.c
tests_fuzz_fuzz_rdma_nl_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_rdma_nl_LDFLAGS = $(FUZZ_LINK)
endif

# The IB CM's counters: definitions, REJs since the first sample, doctor finding 7 (no root).
check_PROGRAMS += tests/res/test_cm
TESTS += tests/res/test_cm
tests_res_test_cm_LDADD = $(TEST_LDADD)

# The monitor's Connections pane (who holds QPs and cm_ids), in the pane table of src/ui/views.c.
src_libfabtop_a_SOURCES += src/ui/view_conn.c
