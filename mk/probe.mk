# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the probe area (see Makefile.am).
src_libfabtop_a_SOURCES += src/cmd_probe.c \
	src/probe/probe.h src/probe/probe_int.h src/probe/probe.c \
	src/probe/server.c src/probe/conn.c src/probe/stats.c \
	src/probe/wire.c src/probe/wire.h \
	src/probe/cm_reason.c src/probe/cm_reason.h
