# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the net area: rtnetlink collection, sysctls,
# route queries, the doctor and its fixes, `show net` (see Makefile.am).
src_libfabtop_a_SOURCES += \
	src/model/net.c src/model/net.h \
	src/collect/nl_parse.c src/collect/nl_parse.h \
	src/collect/netlink.c src/collect/netlink.h \
	src/collect/sysctl.c src/collect/sysctl.h \
	src/collect/route_query.c src/collect/route_query.h \
	src/collect/net_apply.c src/collect/net_apply.h \
	src/derive/doctor.c src/derive/doctor.h \
	src/derive/fix.c src/derive/fix.h \
	src/report/net.c src/report/net.h \
	src/report/doctor.c src/report/doctor.h \
	src/cmd_doctor.c

# Namespace scenario tests (root; they SKIP with the reason otherwise).
NET_SH_TESTS = \
	tests/net/doctor-seed.sh
TESTS += $(NET_SH_TESTS)
EXTRA_DIST += $(NET_SH_TESTS) tests/net/nslib.sh
