# SPDX-License-Identifier: GPL-2.0-or-later
# The SM's traps (src/mad/mad_trap.c): subscribed to when the whole subnet
# is wanted, so a link change sweeps it at once. The unit test replays
# Reports opensm sent on the ibsim fabric (tests/data/mad/trap-*.bin); the
# ibsim test unlinks a cable and sees the sweep the trap triggered.
src_libfabtop_a_SOURCES += src/mad/mad_trap.c src/mad/mad_trap.h

check_PROGRAMS += tests/mad/test_mad_trap
tests_mad_test_mad_trap_LDADD = $(TEST_LDADD)
TESTS += tests/mad/test_mad_trap

# The ibsim test's preload (tests/mad/issm_shim.c says why it is needed),
# built apart from the project's flags: it goes before umad2sim in LD_PRELOAD.
check_DATA = tests/mad/issm_shim.so
MOSTLYCLEANFILES = tests/mad/issm_shim.so
tests/mad/issm_shim.so: $(srcdir)/tests/mad/issm_shim.c
	$(AM_V_CCLD)$(MKDIR_P) tests/mad && $(CC) -shared -fPIC -O2 -Wall -o $@ $(srcdir)/tests/mad/issm_shim.c -ldl
TESTS += tests/mad/trap.sh
EXTRA_DIST += tests/mad/trap.sh tests/mad/issm_shim.c
