#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop export gzip'ed (doc/export.md): a scraper that accepts gzip gets
# one whole gzip member that inflates to the plain page byte for byte (but
# the exporter's per-scrape counter), from the page after the one that
# first asked for it; "gzip;q=0" and a scraper that does not ask get plain
# text; scrapes while pages are published stay whole; both formats.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

command -v curl >/dev/null || skip_all "curl is not installed"
command -v python3 >/dev/null || skip_all "python3 is not installed"

start_exporter demo --demo --seed 3 export --interval 0.5
addr=$demo_addr

gz_get first gzip
assert_eq "the first scrape that accepts gzip gets plain text (nothing was deflated yet), with Vary" \
	"200 - Accept-Encoding plain" "$(cat "$T/first.h")"
check "from a later page on, it comes gzip'ed" gz_until gzip
assert_eq "... as one whole gzip member, with Vary" "200 gzip Accept-Encoding one-member" "$(cat "$T/z.h")"
check "which inflates to the plain page byte for byte (but the count of scrapes)" gz_same_page gzip
assert_eq "... the page whole" "fabtop_exporter_series" "$(tail -1 "$T/z" | sed 's/ .*//')"
assert_match "... its own count of scrapes" '^fabtop_exporter_scrapes_total [1-9]' "$(cat "$T/z")"

# curl --compressed: the page it reads equals a plain one taken right after (retried across a publish).
curl_same() {
	_i=0
	while [ $_i -lt 50 ]; do
		curl -sS --max-time 10 --compressed -D "$T/c.hdr" -o "$T/c" "http://$addr/metrics"
		gz_get p -
		[ "$(gz_strip "$T/p")" = "$(gz_strip "$T/c")" ] && return 0
		_i=$((_i + 1))
	done
	diag "$(diff "$T/p" "$T/c" | head -5)"
	return 1
}
check "curl --compressed reads the page as it is in plain text" curl_same
assert_match "... sent gzip'ed ($(wc -c <"$T/p") bytes plain, $(grep -i '^Content-Length' "$T/c.hdr" | tr -d '\r'))" \
	'Content-Encoding: gzip' "$(cat "$T/c.hdr")"

for ae in 'gzip;q=0' 'gzip ; q=0.000' 'identity' 'deflate, br' 'gzip;q=0, *;q=1' '*;q=0'; do
	gz_get n "$ae"
	assert_eq "Accept-Encoding: $ae gets plain text" "200 - Accept-Encoding plain" "$(cat "$T/n.h")"
done
for ae in '*' 'x-gzip' 'br;q=1.0, gzip;q=0.8, *;q=0.1' 'GZIP;q=0.001'; do
	gz_get n "$ae"
	assert_eq "Accept-Encoding: $ae gets gzip" "200 gzip Accept-Encoding one-member" "$(cat "$T/n.h")"
done

# OpenMetrics is deflated only once asked for it too.
gz_get om gzip "$OM"
assert_eq "OpenMetrics, first asked gzip'ed: plain" "200 - Accept-Encoding plain" "$(cat "$T/om.h")"
check "then gzip'ed" gz_until gzip "$OM"
check "inflating to the plain OpenMetrics page" gz_same_page gzip "$OM"
assert_eq "... which ends with # EOF" "# EOF" "$(tail -1 "$T/z")"

# Pages published every 0.1 s while thirty scrapes run: each one whole.
start_exporter busy --demo --seed 4 export --interval 0.1
addr=$busy_addr
check "the busy exporter comes gzip'ed" gz_until gzip "$OM"
bad=0 i=0
while [ $i -lt 30 ]; do
	gz_get s gzip "$OM"
	case "$(cat "$T/s.h")" in
	"200 gzip Accept-Encoding one-member") [ "$(tail -1 "$T/s")" = "# EOF" ] || bad=$((bad + 1)) ;;
	*) bad=$((bad + 1)); diag "$(cat "$T/s.h")" ;;
	esac
	i=$((i + 1))
done
c=$(metric "$T/s" fabtop_exporter_collections_total)
assert_eq "30 gzip'ed scrapes while pages were published ($c so far): every one whole" 0 "$bad"

curl -sS --max-time 10 -I -H 'Accept-Encoding: gzip' -H "Accept: $OM" "http://$addr/metrics" >"$T/head.hdr"
assert_match "HEAD says gzip too" 'Content-Encoding: gzip' "$(cat "$T/head.hdr")"
done_testing
