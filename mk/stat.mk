# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the RDMA netlink statistics: the port's hw
# counters by STAT_GET (--counters netlink), QP counters and their auto
# mode (`fabtop counters qp`), see Makefile.am.
src_libfabtop_a_SOURCES += \
	src/model/stat.c src/model/stat.h \
	src/kernel/rdma_stat_parse.c src/kernel/rdma_stat_parse.h \
	src/kernel/rdma_stat.c src/kernel/rdma_stat.h \
	src/change/stat_set.c src/change/stat_set.h
src_libfabtop_a_SOURCES += \
	src/change/stat_verify.c src/change/stat_verify.h \
	src/report/stat.c src/report/stat.h \
	src/cmd/cmd_counters.c

# Soft-RoCE (make check-vm): --counters netlink against rdma statistic and
# sysfs, QP counters only when asked, without CAP_NET_ADMIN.
VM_TESTS += tests/vm/nlstat.sh
EXTRA_DIST += tests/vm/nlstat.sh tests/vm/guest/nlstat.sh

# make bench: a port's STAT_GET against its sysfs hw_counters files, in the VM.
check_PROGRAMS += tests/bench/bench_nlstat
tests_bench_bench_nlstat_LDADD = $(TEST_LDADD)
BENCHES += tests/bench/nlstat.sh
EXTRA_DIST += tests/bench/nlstat.sh
bench: tests/bench/bench_nlstat

# The recorder of tests/data/rdma-stat (run inside the Soft-RoCE VM by tests/vm/nlstat.sh).
check_PROGRAMS += tests/stat/rdma_stat_record
tests_stat_rdma_stat_record_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/rdma-stat

# STAT_GET answers in the kernel's shapes, cut, corrupted, unknown attributes; the reports (no root).
check_PROGRAMS += tests/stat/test_stat
TESTS += tests/stat/test_stat
tests_stat_test_stat_LDADD = $(TEST_LDADD)

# The parser under libFuzzer (mk/fuzz.mk), its seeds (tests/data/fuzz/rdma_stat:
# the handmade answers `tests/stat/test_stat --seeds DIR` writes, and the
# recorded ones of tests/data/rdma-stat) replayed by every make check.
FUZZERS += tests/fuzz/fuzz_rdma_stat
FUZZ_SRCS += tests/fuzz/fuzz_rdma_stat.c
check_PROGRAMS += tests/fuzz/replay_rdma_stat
TESTS += tests/fuzz/replay_rdma_stat
tests_fuzz_replay_rdma_stat_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_rdma_stat.c
tests_fuzz_replay_rdma_stat_LDADD = $(TEST_LDADD)
if FUZZING
tests_fuzz_fuzz_rdma_stat_SOURCES = tests/fuzz/fuzz_rdma_stat.c
tests_fuzz_fuzz_rdma_stat_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_rdma_stat_LDFLAGS = $(FUZZ_LINK)
endif

# Usage errors, the demo, recordings and trees: clear messages (no kernel needed).
TESTS += tests/stat/cli.sh
EXTRA_DIST += tests/stat/cli.sh
