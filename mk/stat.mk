# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the RDMA netlink statistics: the port's hw
# counters by STAT_GET (--counters netlink), QP counters and their auto
# mode (`fabtop counters qp`), see Makefile.am.
src_libfabtop_a_SOURCES += \
	src/model/stat.c src/model/stat.h \
	src/collect/rdma_stat_parse.c src/collect/rdma_stat_parse.h \
	src/collect/rdma_stat.c src/collect/rdma_stat.h
src_libfabtop_a_SOURCES += \
	src/collect/stat_verify.c src/collect/stat_verify.h \
	src/report/stat.c src/report/stat.h \
	src/cmd_counters.c
