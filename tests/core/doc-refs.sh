#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the texts point to exists: every source or test path that doc/*.md,
# the README, tests/README and the src/ folders' READMEs name is in the
# tree, and every function they name as `name()` is in src/ or tests/ (or
# is the kernel's or another project's, listed below with whose it is).
# Files move; a doc that still sends a reader to the old place is a lie.
. "$TOP_SRCDIR/tests/setup.sh"
cd "$TOP_SRCDIR"

texts=$(ls doc/*.md README tests/README src/*/README)
# Functions and paths of other projects the texts quote, and whose they are.
foreign='
dcbnl_ieee_fill		the kernel: net/dcb/dcbnl.c
cma_ib_req_handler	the kernel: drivers/infiniband/core/cma.c
fib_lookup		the kernel: include/net/ip_fib.h
l3mdev_update_flow	the kernel: net/l3mdev/l3mdev.c
rxe_find_route4		the kernel: drivers/infiniband/sw/rxe/rxe_net.c
rxe_udp_encap_recv	the kernel: drivers/infiniband/sw/rxe/rxe_net.c
vrf_ip_rcv		the kernel: drivers/net/vrf.c
src/uct/ib/base/ib_md.c	UCX
'

# paths: src/DIR/FILE.c|h, tests/DIR/FILE; "demo.[ch]" names both; NAME is a placeholder
# shellcheck disable=SC2086 # the texts are a list of words
grep -ohE '(src|tests)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(\[ch\]|c|h|sh|py|md|inc)' $texts | sort -u >"$T/paths"
missing=""
while read -r p; do
	case $p in *NAME*) continue ;; esac
	printf '%s\n' "$foreign" | grep -q "^$p	" && continue
	case $p in
	*'.[ch]') [ -e "${p%.\[ch\]}.c" ] && [ -e "${p%.\[ch\]}.h" ] || missing="$missing $p" ;;
	*) [ -e "$p" ] || missing="$missing $p" ;;
	esac
done <"$T/paths"
assert_eq "every path the texts name exists ($(wc -l <"$T/paths") named)" "" "${missing# }"

# functions: `name()`; a shorthand like `_end()` after `x_begin()` is not a name
# shellcheck disable=SC2086
grep -ohE '`[a-z][a-z0-9_]*\(\)' $texts | tr -d '`()' | sort -u >"$T/fns"
gone=""
while read -r f; do
	printf '%s\n' "$foreign" | grep -q "^$f	" && continue
	grep -rqw -- "$f" src tests || gone="$gone $f"
done <"$T/fns"
assert_eq "every function the texts name is in src/ or tests/ ($(wc -l <"$T/fns") named)" "" "${gone# }"

# and the check sees a stale name (it would pass on anything otherwise)
printf 'see `src/collect/gone.c` and `gone_function()`\n' >"$T/stale.md"
assert_eq "a stale path in a text is seen" "src/collect/gone.c" \
	"$(grep -ohE '(src|tests)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(\[ch\]|c|h|sh|py|md|inc)' "$T/stale.md")"

done_testing
