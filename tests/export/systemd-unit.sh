#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop-exporter.service.in: the sandbox doc/export.md describes
# is really in the unit, systemd itself accepts the unit, rates its
# exposure low, and the options the unit passes are ones `fabtop export` has.
. "$TOP_SRCDIR/tests/setup.sh"
IN="$TOP_SRCDIR/data/fabtop-exporter.service.in"
UNIT="$T/fabtop-exporter.service"
# As `make` builds it, with the binary under test as @bindir@/fabtop.
sed -e "s|@bindir@|$(dirname "$FABTOP")|g" "$IN" >"$UNIT"
assert_eq "no @substitution@ is left" "" "$(grep -o '@[a-z_]*@' "$UNIT" || :)"

# [Service] settings, one KEY=VALUE a line (comments and blank lines dropped).
awk '/^\[/ { sec = $0; next } sec == "[Service]" && /^[A-Za-z]/' "$UNIT" >"$T/service"
want() { # want KEY=VALUE: that exact line is in [Service]
	if grep -qxF -- "$1" "$T/service"; then ok "[Service] $1"; else not_ok "[Service] $1"; diag "$(cat "$T/service")"; fi
}
want "DynamicUser=yes"
want "ProtectSystem=strict"
want "ProtectHome=yes"
want "PrivateTmp=yes"
want "NoNewPrivileges=yes"
want "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK"
want "ProtectKernelTunables=yes"
want "ProtectKernelModules=yes"
want "ProtectControlGroups=yes"
# No capabilities: device access comes from the umad device group and rdma.
want "CapabilityBoundingSet="
want "AmbientCapabilities="
want "DevicePolicy=closed"
want "DeviceAllow=char-infiniband_mad rw"
want "SupplementaryGroups=rdma"
assert_eq "no CAP_* is granted anywhere" "" "$(grep -o 'CAP_[A-Z_]*' "$T/service" || :)"
# Settings that would hide what the exporter reads.
assert_eq "nothing hides /dev/infiniband, /proc/sys or the host network" "" \
	"$(grep -E '^(PrivateDevices|PrivateNetwork|ProcSubset)=' "$T/service" || :)"
assert_match "ExecStart runs fabtop export" "^ExecStart=$(dirname "$FABTOP")/fabtop export " "$(cat "$T/service")"
assert_match "the unit is enabled by multi-user.target" '^WantedBy=multi-user.target$' "$(cat "$UNIT")"

if command -v systemd-analyze >/dev/null; then
	# --man=no: Documentation=man:fabtop(1) is only there once installed.
	run_rc timeout 60 systemd-analyze verify --man=no "$UNIT"
	assert_eq "systemd-analyze verify: rc 0, no message" "0 " "$rc $(cat "$T/out" "$T/err")"
	# Exposure on systemd's 0-100 scale (shown as 0.0-10.0); 2.0 is "OK".
	run_rc timeout 60 systemd-analyze security --offline=yes --threshold=20 --no-pager "$UNIT"
	level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$T/out")
	assert_eq "systemd-analyze security: exposure at most 2.0 (is $level)" 0 "$rc"
else
	skip "systemd-analyze verify: systemd-analyze not installed (Debian package systemd)"
	skip "systemd-analyze security: systemd-analyze not installed (Debian package systemd)"
fi

# The arguments the unit passes must be options of `fabtop export`.
args=$(sed -n 's/^Environment=FABTOP_EXPORT_ARGS="\(.*\)"$/\1/p' "$T/service")
assert_match "the unit listens on loopback by default" '^--listen 127\.0\.0\.1:9879$' "$args"
if "$FABTOP" export --help >"$T/help" 2>&1; then
	missing=""
	# shellcheck disable=SC2086 # the unit splits FABTOP_EXPORT_ARGS into words too
	for o in $(printf '%s\n' $args | grep -- '^--'); do grep -q -- "$o" "$T/help" || missing="$missing $o"; done
	assert_eq "fabtop export --help knows the unit's options ($args)" "" "$missing"
else
	skip "fabtop export --help fails: this fabtop has no export command"
fi
done_testing
