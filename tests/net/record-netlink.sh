#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-record tests/data/netlink/ from the same-subnet topology (root): the memory
# server's dumps before the fix (two main-table routes for 172.16.0.0/16) and
# after `fabtop doctor --fix ip` ran. Not part of `make check`:
#   sudo FABTOP=src/fabtop TOP_SRCDIR=$srcdir NL_RECORD=tests/net/nl_record sh tests/net/record-netlink.sh
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
: "${NL_RECORD:?NL_RECORD must point at the built tests/net/nl_record}"
OUT="$TOP_SRCDIR/tests/data/netlink"
rdma_fixture "$T/sys" rxe_A ib0 InfiniBand
rdma_fixture "$T/sys" rxe_B ib1 InfiniBand
build_seed_topology
mkdir -p "$OUT/seed-before" "$OUT/seed-after"
in_ns "$NS_MEM" "$NL_RECORD" "$OUT/seed-before"
in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor --fix ip >"$T/fix.sh"
in_ns "$NS_MEM" sh -e "$T/fix.sh"
in_ns "$NS_MEM" "$NL_RECORD" "$OUT/seed-after"
plan 1
ok "recorded into $OUT"
