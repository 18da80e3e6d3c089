# SPDX-License-Identifier: GPL-2.0-or-later
# Recordings: the file format (record/), the recorder around a source, the
# replay source, fabtop record, and their tests and benchmark.
src_libfabtop_a_SOURCES += src/record/codec.c src/record/codec.h \
	src/record/schema.c src/record/schema.h \
	src/record/sample.c src/record/sample.h \
	src/record/file.h \
	src/record/writer.c src/record/writer.h \
	src/record/reader.c src/record/reader.h \
	src/record/when.c src/record/when.h \
	src/record/mad.c src/record/mad.h src/record/subnet.c src/record/subnet.h \
	src/record/cost.c src/record/cost.h \
	src/record/probe.c src/record/probe.h src/record/roce.c src/record/roce.h \
	src/source/source_record.c src/source/source_replay.c \
	src/cmd/cmd_record.c

# The replay equals the live reports at every sample; cut and corrupted files.
check_PROGRAMS += tests/record/test_record
TESTS += tests/record/test_record
tests_record_test_record_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_record_test_record_LDADD = $(TEST_LDADD)
# The MAD view and probe records: codecs, hostile bodies, served at the cursor by the replay source.
check_PROGRAMS += tests/record/test_record_parts
TESTS += tests/record/test_record_parts
tests_record_test_record_parts_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_record_test_record_parts_LDADD = $(TEST_LDADD)
# The subnet record: codec, hostile bodies, the budget, in a file and skipped under an unknown type.
check_PROGRAMS += tests/record/test_record_subnet
TESTS += tests/record/test_record_subnet
tests_record_test_record_subnet_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_record_test_record_subnet_LDADD = $(TEST_LDADD)
# The RoCE chain record: codec, limits, written when it changes, served at the cursor by the replay source.
check_PROGRAMS += tests/record/test_record_roce
TESTS += tests/record/test_record_roce
tests_record_test_record_roce_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_record_test_record_roce_LDADD = $(TEST_LDADD)
# Small hostile files (counts, budget, zstd bombs) fail fast and small, replayed by the binary.
check_PROGRAMS += tests/record/test_record_bounds
TESTS += tests/record/test_record_bounds
tests_record_test_record_bounds_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_record_test_record_bounds_LDADD = $(TEST_LDADD)
TESTS += tests/record/record.sh tests/record/roce.sh tests/record/tui.sh tests/record/ibsim.sh tests/record/planted.sh
# Soft-RoCE (make check-vm): rxe0 recorded going down and up, replayed here.
VM_TESTS += tests/record/vm-record.sh
EXTRA_DIST += tests/record/record.sh tests/record/roce.sh tests/record/tui.sh tests/record/ibsim.sh tests/record/planted.sh tests/record/vm-record.sh \
	tests/record/vm-record.guest tests/data/record

# make bench: size and CPU of recording (built with the check programs so distcheck compiles it).
check_PROGRAMS += tests/bench/bench_record
tests_bench_bench_record_LDADD = $(TEST_LDADD)
BENCHES += tests/bench/record.sh
EXTRA_DIST += tests/bench/record.sh
bench: tests/bench/bench_record
