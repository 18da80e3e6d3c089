# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the core: model, sysfs collection, show reports.
src_libfabtop_a_SOURCES += \
	src/ctx.c src/ctx.h src/cmd/commands.h src/warn.c src/warn.h src/util.c src/util.h src/outbuf.c src/outbuf.h src/opts.c src/opts.h \
	src/dynlib.c src/dynlib.h \
	src/kernel/sysfs.c src/kernel/sysfs.h \
	src/kernel/host.c src/kernel/host.h \
	src/kernel/pci.c src/kernel/pci.h src/kernel/pci_parse.c src/kernel/pci_parse.h \
	src/model/pci.c src/model/pci.h \
	src/derive/pci.c src/derive/pci.h src/derive/pci_check.c src/derive/pci_check.h \
	src/report/pci.c src/report/pci.h \
	src/kernel/watch.c src/kernel/watch.h \
	src/source/source.c src/source/source.h src/source/source_live.c \
	src/source/snapshot.c src/source/snapshot.h \
	src/live/live.c src/live/live.h \
	src/derive/far.c src/derive/far.h src/derive/track.c src/derive/track.h \
	src/model/route.c src/model/route.h \
	src/model/fabric.c src/model/fabric.h \
	src/derive/counters.c src/derive/counters.h \
	src/derive/units.c src/derive/units.h \
	src/derive/gid.c src/derive/gid.h \
	src/derive/gid_choice.c src/derive/gid_choice.h \
	src/derive/gid_route.c src/derive/gid_route.h \
	src/report/gid_advice.c src/report/gid_advice.h \
	src/derive/port.c src/derive/port.h \
	src/report/json.c src/report/json.h \
	src/report/out.c src/report/out.h \
	src/report/escape.c src/report/escape.h \
	src/report/show.c src/report/show.h \
	src/cmd/cmd_show.c

check_PROGRAMS += tests/unit/test_live tests/unit/test_counters tests/unit/test_sysfs tests/unit/test_gid tests/unit/test_dangling tests/unit/test_gid_choice tests/unit/test_port tests/unit/test_util tests/unit/test_escape tests/unit/test_out tests/unit/test_handover tests/unit/test_fill tests/unit/test_tap
TESTS += tests/unit/test_live tests/unit/test_counters tests/unit/test_sysfs tests/unit/test_gid tests/unit/test_dangling tests/unit/test_gid_choice tests/unit/test_port tests/unit/test_util tests/unit/test_escape tests/unit/test_out tests/unit/test_handover tests/unit/test_fill tests/unit/test_tap
tests_unit_test_handover_LDADD = $(TEST_LDADD)
tests_unit_test_live_LDADD = $(TEST_LDADD)
tests_unit_test_fill_LDADD = $(TEST_LDADD)
tests_unit_test_dangling_LDADD = $(TEST_LDADD)
tests_unit_test_tap_LDADD = $(TEST_LDADD)
tests_unit_test_escape_LDADD = $(TEST_LDADD)
tests_unit_test_out_LDADD = $(TEST_LDADD)
tests_unit_test_util_LDADD = $(TEST_LDADD)
tests_unit_test_port_LDADD = $(TEST_LDADD)
tests_unit_test_gid_LDADD = $(TEST_LDADD)
tests_unit_test_gid_choice_LDADD = $(TEST_LDADD)
tests_unit_test_counters_LDADD = $(TEST_LDADD)
tests_unit_test_sysfs_LDADD = $(TEST_LDADD)

TESTS += tests/core/gid-choice.sh tests/core/trees.sh tests/core/oldkernel.sh tests/core/hostile.sh tests/core/hostile-names.sh tests/core/valgrind.sh tests/core/fd-limit.sh \
	tests/core/dynlib.sh tests/core/architecture.sh tests/core/doc-refs.sh tests/core/limit.sh tests/core/findings-same.sh \
	tests/core/habits.sh
EXTRA_DIST += tests/core/gid-choice.sh tests/core/trees.sh tests/core/oldkernel.sh tests/core/hostile.sh tests/core/hostile-tree.sh tests/core/hostile-names.sh tests/core/valgrind.sh tests/core/fd-limit.sh \
	tests/core/dynlib.sh tests/core/architecture.sh tests/core/doc-refs.sh tests/core/limit.sh tests/core/findings-same.sh \
	tests/core/habits.sh tests/data/trees tests/data/external

# make bench: bench_collect is built with the check programs so distcheck compiles it.
check_PROGRAMS += tests/bench/bench_collect
tests_bench_bench_collect_LDADD = $(TEST_LDADD)
tests_bench_bench_collect_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
BENCHES += tests/bench/collect.sh tests/bench/export.sh
EXTRA_DIST += tests/bench/collect.sh tests/bench/gen-tree.sh tests/bench/export.sh tests/bench/scrape-cpu.py
bench: tests/bench/bench_collect

# Real Soft-RoCE (tests/vm harness): GID fast path vs sysfs, the netns case.
VM_TESTS += tests/core/vm-gids.sh
EXTRA_DIST += tests/core/vm-gids.sh tests/core/vm-gids.guest
