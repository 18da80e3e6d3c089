#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Generate the large benchmark tree (32 devices x 2 ports x 1024-entry GID tables) in DIR.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
exec "${TOP_BUILDDIR:?run through make bench}/tests/bench/bench_collect" --generate "$1"
