# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the net area: rtnetlink collection, sysctls,
# route queries, the doctor and its fixes, `show net` (see Makefile.am).
src_libfabtop_a_SOURCES += \
	src/model/net.c src/model/net.h \
	src/kernel/nl_parse.c src/kernel/nl_parse.h \
	src/kernel/nl_sock.c src/kernel/nl_sock.h \
	src/kernel/netlink.c src/kernel/netlink.h \
	src/kernel/sysctl.c src/kernel/sysctl.h \
	src/kernel/route_query.c src/kernel/route_query.h \
	src/kernel/netconf.c src/kernel/netconf.h \
	src/change/net_apply.c src/change/net_apply.h \
	src/change/sysctl_write.c src/change/sysctl_write.h \
	src/derive/doctor.c src/derive/doctor.h \
	src/derive/fix.c src/derive/fix.h \
	src/report/net.c src/report/net.h \
	src/report/doctor.c src/report/doctor.h \
	src/cmd/cmd_doctor.c

# Namespace scenario tests (root; they SKIP with the reason otherwise),
# fixture tests of findings 4/5 and the command line (no root).
NET_SH_TESTS = \
	tests/net/doctor-seed.sh \
	tests/net/doctor-findings.sh \
	tests/net/doctor-sysctl.sh \
	tests/net/doctor-ipv6.sh \
	tests/net/fix-scripts.sh \
	tests/net/fix-nm.sh \
	tests/net/doctor-apply.sh \
	tests/net/doctor-undo.sh \
	tests/net/demo-apply.sh \
	tests/net/doctor-ports.sh \
	tests/net/gid-route.sh \
	tests/net/doctor-gids.sh \
	tests/net/doctor-usage.sh \
	tests/net/monitor.sh \
	tests/net/dump-churn.sh \
	tests/net/valgrind.sh
TESTS += $(NET_SH_TESTS)
EXTRA_DIST += $(NET_SH_TESTS) tests/net/nslib.sh

# The recorder of tests/data/netlink (run by tests/net/record-netlink.sh, by hand).
check_PROGRAMS += tests/net/nl_record
tests_net_nl_record_LDADD = $(TEST_LDADD)
# The monitor socket's checker (run by tests/net/monitor.sh).
check_PROGRAMS += tests/net/nl_monitor_check
tests_net_nl_monitor_check_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/net/record-netlink.sh tests/data/netlink

# Replay of recorded rtnetlink dumps, malformed messages, fix quoting (no root).
check_PROGRAMS += tests/net/test_nl_replay
TESTS += tests/net/test_nl_replay
tests_net_test_nl_replay_LDADD = $(TEST_LDADD)
# nl_sock against this kernel: answers, errors, timeouts, a signal, stray buffers (no root; some SKIP without it).
check_PROGRAMS += tests/net/test_nl_sock
TESTS += tests/net/test_nl_sock
tests_net_test_nl_sock_LDADD = $(TEST_LDADD)
# Sysctl reading and combining, fix table numbering (no root).
check_PROGRAMS += tests/net/test_sysctl_fix
TESTS += tests/net/test_sysctl_fix
tests_net_test_sysctl_fix_LDADD = $(TEST_LDADD)
