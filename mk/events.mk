# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for events: the log, what derives them, the Events pane, show events.
src_libfabtop_a_SOURCES += \
	src/model/events.c src/model/events.h \
	src/derive/events.c src/derive/events.h \
	src/kernel/async.c src/kernel/async.h \
	src/report/events.c src/report/events.h \
	src/cmd/cmd_show_events.c \
	src/ui/view_events.c

# The log (ring, since, seen mark, hook) and every derived kind on hand-made samples.
check_PROGRAMS += tests/unit/test_events
TESTS += tests/unit/test_events
tests_unit_test_events_LDADD = $(TEST_LDADD)

# The demo fabric's flapping port and error bursts as events, against the expected text.
check_PROGRAMS += tests/demo/test_demo_events
TESTS += tests/demo/test_demo_events
tests_demo_test_demo_events_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/demo/seed7-events.txt

# Real Soft-RoCE (tests/vm harness): device notifications and derived flaps of rxe.
VM_TESTS += tests/core/vm-events.sh
EXTRA_DIST += tests/core/vm-events.sh tests/core/vm-events.guest

# The text harness's seeds (--since values and events of any bytes among them) replay in make check.
check_PROGRAMS += tests/fuzz/replay_text
TESTS += tests/fuzz/replay_text
tests_fuzz_replay_text_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_text.c
tests_fuzz_replay_text_LDADD = $(TEST_LDADD)

# The command's options, usage errors, JSON document and clean stop.
TESTS += tests/core/show-events.sh
EXTRA_DIST += tests/core/show-events.sh
