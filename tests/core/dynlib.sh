#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libcurl and libmicrohttpd are opened when first needed, not at start: the
# binary does not list them, everything else runs without them, and when
# they cannot be loaded, fabtop export and the Cluster pane say which
# library and why (an unloadable copy of each comes first in LD_LIBRARY_PATH).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

soname() { sed -n "s/^#define $1 \"\(.*\)\"$/\1/p" "$TOP_BUILDDIR/config.h"; }
CURL_SO=$(soname FABTOP_LIBCURL_SONAME)
MHD_SO=$(soname FABTOP_LIBMICROHTTPD_SONAME)
[ -n "$CURL_SO" ] && [ -n "$MHD_SO" ] || skip_all "config.h names no soname for libcurl and libmicrohttpd"

if command -v readelf >/dev/null 2>&1; then
	readelf -d "$FABTOP" >"$T/dyn"
	assert_eq "the binary does not need $CURL_SO or $MHD_SO at start" "" \
		"$(grep NEEDED "$T/dyn" | grep -e libcurl -e libmicrohttpd || :)"
else
	skip "readelf is not installed (binutils)"
fi

mkdir "$T/lib"
echo "not a library" >"$T/lib/$CURL_SO"
echo "not a library" >"$T/lib/$MHD_SO"
run_rc env LD_LIBRARY_PATH="$T/lib" "$FABTOP" --demo --seed 1 show ports
assert_eq "show runs without them" 0 "$rc"

run_rc env LD_LIBRARY_PATH="$T/lib" "$FABTOP" --demo --seed 1 export --textfile "$T/m.prom" --no-http --count 1
assert_eq "export --textfile --no-http runs without libmicrohttpd" 0 "$rc"
assert_match "and writes its page" '^fabtop_port_info' "$(cat "$T/m.prom" 2>/dev/null)"

run_rc env LD_LIBRARY_PATH="$T/lib" "$FABTOP" --demo --seed 1 export --listen 127.0.0.1:0 --count 1
assert_eq "export over HTTP fails (1) when libmicrohttpd cannot be loaded" 1 "$rc"
assert_match "saying which library, who needs it and why" \
	"cannot load $MHD_SO, which fabtop export's HTTP server needs: .*$MHD_SO" "$(cat "$T/err")"

command -v tmux >/dev/null 2>&1 || { skip "tmux is not installed"; done_testing; exit; }
tui_start 150 30 LD_LIBRARY_PATH="$T/lib" -- --demo --interval 1 --prometheus http://127.0.0.1:9 --pane cluster
tui_expect "the Cluster pane says libcurl cannot be loaded" "cannot load $CURL_SO"
tui_keys 1
tui_expect "the monitor runs on (1: Ports)" "mlx5_0"
tui_quit
assert_match "a clean exit" "FABTOP-EXIT=0" "$(cat "$T/screen")"
done_testing
