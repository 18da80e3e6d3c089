# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the ui area (see Makefile.am).
src_libfabtop_a_SOURCES += src/cmd/cmd_monitor.c \
	src/ui/ui.c src/ui/ui.h src/ui/ui_run.c src/ui/ui_run.h \
	src/ui/widget/term.c src/ui/widget/term.h \
	src/ui/screen.c src/ui/screen.h src/ui/action.c src/ui/action.h src/ui/mouse.c src/ui/mouse.h \
	src/ui/keys.c src/ui/keys.h \
	src/ui/widget/theme.c src/ui/widget/theme.h \
	src/ui/widget/table.c src/ui/widget/table.h \
	src/ui/widget/graph.c src/ui/widget/graph.h \
	src/ui/widget/text.c src/ui/widget/text.h \
	src/ui/widget/pager.c src/ui/widget/pager.h \
	src/ui/help.c src/ui/help.h src/ui/details.c src/ui/details.h \
	src/ui/settings.c src/ui/settings.h \
	src/ui/views.c src/ui/views.h src/ui/panes.c src/ui/panes.h \
	src/ui/view_ports.c src/ui/view_counters.c src/ui/view_gids.c \
	src/ui/view_net.c src/ui/view_doctor.c src/ui/view_probe.c \
	src/ui/probe_ui.c src/ui/probe_ui.h

# Every pane drawn off-screen for a fixed model, compared with tests/data/render/.
check_PROGRAMS += tests/unit/test_render
TESTS += tests/unit/test_render
tests_unit_test_render_LDADD = $(TEST_LDADD)

# The settings file is written safely (no symlink followed, no foreign directory).
check_PROGRAMS += tests/unit/test_settings
TESTS += tests/unit/test_settings
tests_unit_test_settings_LDADD = $(TEST_LDADD)

# A new source and a new pane in a few lines each (doc/architecture.md).
check_PROGRAMS += tests/unit/test_seams
TESTS += tests/unit/test_seams
tests_unit_test_seams_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/render

# make bench: the monitor's CPU per refresh on the large generated tree, and
# its frames from its frame log: the first one, keys while the host is read,
# re-collections (bench_collect gives main's approach beside them).
BENCHES += tests/bench/ui.sh tests/bench/monitor.sh
EXTRA_DIST += tests/bench/ui.sh tests/bench/monitor.sh tests/bench/monitor-frames.py

# make bench: the soak, the monitor and the exporter together for 10 minutes
# on a tree and a namespace that keep changing (memory, fds, scrapes).
BENCHES += tests/bench/soak.sh
EXTRA_DIST += tests/bench/soak.sh tests/bench/soak-scrape.py
bench: tests/bench/bench_collect

# Terminal tests drive the monitor in a private tmux server.
TESTS += tests/tui/demo.sh tests/tui/demo-probe.sh tests/tui/scenarios.sh tests/tui/trees.sh tests/tui/netlink.sh tests/tui/hostile.sh tests/tui/sizes.sh \
	tests/tui/habits.sh
EXTRA_DIST += tests/tui/lib.sh tests/tui/demo.sh tests/tui/demo-probe.sh tests/tui/scenarios.sh tests/tui/trees.sh tests/tui/netlink.sh \
	tests/tui/hostile.sh tests/tui/sizes.sh tests/tui/habits.sh

# --- demo fabric and data sources ---
src_libfabtop_a_SOURCES += src/demo/demo.c src/demo/demo.h src/demo/demo_net.c \
	src/demo/demo_probe.c src/demo/demo_probe.h src/demo/demo_scenario.c src/demo/demo_scenario.h \
	src/demo/demo_state.c src/demo/demo_state.h \
	src/demo/demo_int.h \
	src/source/source_demo.c
check_PROGRAMS += tests/demo/test_demo tests/demo/test_demo_net
TESTS += tests/demo/test_demo tests/demo/test_demo_net tests/demo/show_demo.sh tests/demo/probe.sh tests/demo/scenarios.sh \
	tests/demo/kept.sh
tests_demo_test_demo_LDADD = $(TEST_LDADD)
tests_demo_test_demo_net_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/demo/show_demo.sh tests/demo/probe.sh tests/demo/scenarios.sh tests/demo/kept.sh tests/data/demo
# --- end demo ---

# --- the far end of each cable through MADs in the monitor ---
src_libfabtop_a_SOURCES += src/ui/mad_ui.c src/ui/mad_ui.h
TESTS += tests/tui/ibsim.sh
EXTRA_DIST += tests/tui/ibsim.sh
# --- end far end ---
src_libfabtop_a_SOURCES += src/ui/replay_ui.c src/ui/replay_ui.h
