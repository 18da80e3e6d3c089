# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the probe area (see Makefile.am).
src_libfabtop_a_SOURCES += src/cmd_probe.c
