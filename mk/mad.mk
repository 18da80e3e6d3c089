# SPDX-License-Identifier: GPL-2.0-or-later
# Build and test fragment for the mad area (see Makefile.am).
