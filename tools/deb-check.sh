#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package end to end, as an admin meets it: built from the
# committed HEAD in a bare Debian root that has only its Build-Depends, lintian
# on the result, then in a second bare root: installed with
# `apt-get install ./fabtop_*.deb`, used (version, man page, completion, the
# exporter's unit and the exporter itself, the demo report), removed and
# purged, with nothing of it left behind.
#
# usage: tools/deb-check.sh [-s SUITE] [-o LOGDIR]   as root, inside the git checkout
#   -s SUITE   the Debian release of both roots (default bookworm)
#   -o LOGDIR  logs and the built packages (default: a temp dir, printed)
# FABTOP_DEB_TESTS=1 lets the package build run the test suite (dh_auto_test);
# by default it is built with DEB_BUILD_OPTIONS=nocheck, since CI runs the
# suite on its own.
#        tools/deb-check.sh --inside DIR   in the second root: install DIR/fabtop_*.deb, use it, purge it
set -u

# --- in the bare root: install, use, remove, purge ---------------------------
if [ "${1:-}" = --inside ]; then
	debs=$2
	fail=0 n=0
	ok() { n=$((n + 1)); echo "ok $n - $*"; }
	bad() { n=$((n + 1)); fail=1; echo "not ok $n - $*"; }
	T=$(mktemp -d)
	export DEBIAN_FRONTEND=noninteractive
	# What the checks run (a bare root has no man, no systemd); not fabtop's.
	apt-get update -qq && apt-get install -y -qq man-db systemd bash-completion >"$T/tools.log" 2>&1 ||
		{ cat "$T/tools.log"; echo "not ok - cannot install man-db, systemd, bash-completion"; exit 1; }
	deb=$(ls "$debs"/fabtop_*.deb)
	# Every path on this root with fabtop's dependencies and recommends but
	# not fabtop (apt's and dpkg's bookkeeping, logs and caches and the
	# project copy in /root aside): after the purge, nothing may be there that
	# was not.
	snapshot() {
		find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /root \
			-o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path '/var/lib/dpkg/*-old' \
			-o -path /var/lib/dpkg/triggers \) -prune -o -print | sort
	}
	deps="$(dpkg-deb -f "$deb" Depends), $(dpkg-deb -f "$deb" Recommends)"
	apt-get satisfy -y "${deps%, }" >"$T/deps.log" 2>&1 || { cat "$T/deps.log"; bad "apt-get satisfy '$deps'"; exit 1; }
	echo "# fabtop's dependencies and recommends: $(grep -c '^Setting up ' "$T/deps.log") packages set up: $(grep '^Setting up ' "$T/deps.log" | sed 's/^Setting up \([^ :]*\).*/\1/' | tr '\n' ' ')"
	snapshot >"$T/before"
	# As a user would: recommends included, dependencies from the archive.
	if apt-get install -y "$deb" >"$T/install.log" 2>&1; then
		ok "apt-get install $(basename "$deb")"
	else
		cat "$T/install.log"; bad "apt-get install $(basename "$deb")"; exit 1
	fi
	dpkg -L fabtop | sort >"$T/files"
	echo "# $(wc -l <"$T/files") paths in the package"

	version=$(dpkg-query -W -f='${Version}' fabtop)
	v=$(fabtop --version 2>&1)
	case $v in
	"fabtop ${version%-*}"*) ok "fabtop --version: $v" ;;
	*) bad "fabtop --version says '$v', the package is $version" ;;
	esac

	MANPAGER=cat MANWIDTH=80 man fabtop >"$T/man" 2>"$T/man.err"
	if grep -q 'fabtop - live terminal monitor and doctor for RDMA fabrics' "$T/man" &&
		grep -q '^EXIT STATUS' "$T/man"; then
		ok "man fabtop ($(wc -l <"$T/man") lines)"
	else
		bad "man fabtop"; head -20 "$T/man" "$T/man.err"
	fi

	# bash-completion loads a command's completion on first use; ask for it,
	# then complete "fabtop sh" as a <Tab> would.
	comp=$(bash -c '. /usr/share/bash-completion/bash_completion
		_completion_loader fabtop
		complete -p fabtop || exit 1
		COMP_WORDS=(fabtop sh) COMP_CWORD=1 COMP_LINE="fabtop sh" COMP_POINT=9
		"$(complete -p fabtop | sed "s/.*-F \([^ ]*\) .*/\1/")" fabtop sh fabtop
		printf "%s\n" "${COMPREPLY[@]}"' 2>&1)
	if printf '%s\n' "$comp" | grep -qx 'complete -F _fabtop fabtop' && printf '%s\n' "$comp" | grep -qx show; then
		ok "bash completion: loaded by bash-completion, 'fabtop sh<Tab>' offers show"
	else
		bad "bash completion"; printf '%s\n' "$comp"
	fi

	unit=$(grep '/fabtop-exporter\.service$' "$T/files")
	if [ -n "$unit" ] && systemd-analyze verify --man=no "$unit" >"$T/verify" 2>&1 && [ ! -s "$T/verify" ]; then
		ok "systemd-analyze verify $unit"
	else
		bad "systemd-analyze verify '$unit'"; cat "$T/verify"
	fi
	# Installed, not enabled: it listens on the network (debian/rules says why).
	if ls /etc/systemd/system/*.wants/fabtop-exporter.service >/dev/null 2>&1; then
		bad "the package enabled fabtop-exporter.service"
	else
		ok "fabtop-exporter.service installed, not enabled"
	fi

	if fabtop --demo show all >"$T/show" 2>"$T/show.err" && grep -q '^mlx5_0 (CA)' "$T/show" && [ ! -s "$T/show.err" ]; then
		ok "fabtop --demo show all ($(wc -l <"$T/show") lines)"
	else
		bad "fabtop --demo show all"; head -20 "$T/show" "$T/show.err"
	fi

	# The exporter opens libmicrohttpd at run time: the package must have
	# brought it. One scrape over loopback, through bash's /dev/tcp.
	port=$((20000 + $$ % 20000))
	fabtop --demo export --listen "127.0.0.1:$port" >"$T/export.log" 2>&1 &
	epid=$!
	got=""
	for _ in $(seq 50); do
		got=$({ exec 3<>"/dev/tcp/127.0.0.1/$port" &&
			printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && timeout 5 cat <&3; } 2>/dev/null) && break
		kill -0 $epid 2>/dev/null || break
		sleep 0.1
	done
	kill $epid 2>/dev/null; wait $epid 2>/dev/null
	if printf '%s\n' "$got" | grep -q '^fabtop_port_state{'; then
		ok "fabtop --demo export serves /metrics ($(printf '%s\n' "$got" | grep -c '^fabtop_') samples)"
	else
		bad "fabtop --demo export"; cat "$T/export.log"; printf '%s\n' "$got" | head -5
	fi

	conffiles=$(dpkg-query -W -f='${Conffiles}' fabtop)
	[ -z "$conffiles" ] && ok "no conffiles" || bad "conffiles: $conffiles"

	# Remove, then purge: every file the package had is gone, and so is
	# every directory that was only its own.
	apt-get remove -y fabtop >"$T/remove.log" 2>&1 && ok "apt-get remove fabtop" || { bad "apt-get remove fabtop"; cat "$T/remove.log"; }
	apt-get purge -y fabtop >"$T/purge.log" 2>&1 && ok "apt-get purge fabtop" || { bad "apt-get purge fabtop"; cat "$T/purge.log"; }
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' fabtop 2>/dev/null)
	[ -z "$status" ] || [ "$status" = "un " ] && ok "dpkg knows no fabtop" || bad "dpkg still has fabtop: '$status'"
	while read -r f; do
		if [ -d "$f" ]; then
			# (/lib is a link to usr/lib on a merged /usr: a directory too)
			[ -z "$(ls -A "$f")" ] || continue	# shared with other packages, not empty
			dpkg -S "$f" >/dev/null 2>&1 && continue	# another package's empty directory
		elif [ ! -e "$f" ] && [ ! -L "$f" ]; then
			continue
		fi
		echo "$f"
	done <"$T/files" >"$T/left"
	# ... and nothing its maintainer scripts made (systemd's enablement state, say).
	snapshot >"$T/after"
	comm -13 "$T/before" "$T/after" >>"$T/left"
	if [ -s "$T/left" ]; then
		bad "left after purge: $(sort -u "$T/left" | tr '\n' ' ')"
	else
		ok "nothing left after purge ($(wc -l <"$T/before") paths as before fabtop)"
	fi
	rm -rf "$T"
	echo "deb-check: $n checks, $([ $fail = 0 ] && echo all passed || echo some FAILED)"
	exit $fail
fi

# --- on this machine: build, lint, then the install check in a bare root -------
suite=bookworm logs=""
while getopts "s:o:" o; do
	case $o in
	s) suite=$OPTARG ;;
	o) logs=$OPTARG ;;
	*) sed -n '2,17p' "$0"; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "deb-check: needs root (bare Debian roots)" >&2; exit 2; }
cd "$(git rev-parse --show-toplevel)" || exit 2
[ -n "$logs" ] || logs=$(mktemp -d /tmp/fabtop-deb.XXXXXX)
mkdir -p "$logs/out"
rc=0
step() { echo "== deb-check: $*"; }
t0=$(date +%s)

# The build root has the project and its Build-Depends only (apt-get
# build-dep reads debian/control): a missing build dependency fails here.
# Without the tests, the nocheck profile leaves their Build-Depends out too.
nocheck=nocheck
[ "${FABTOP_DEB_TESTS:-0}" = 1 ] && nocheck=""
step "dpkg-buildpackage -us -uc -b in a bare Debian $suite root (DEB_BUILD_OPTIONS=$nocheck DEB_BUILD_PROFILES=$nocheck)"
bash tools/fresh-debian.sh -s "$suite" -o "$logs/build" -b "$logs/out:/root/out" \
	"export DEB_BUILD_OPTIONS=$nocheck DEB_BUILD_PROFILES=$nocheck &&
	 apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./ >/dev/null &&
	 dpkg-buildpackage -us -uc -b && cp ../fabtop*.deb ../fabtop_*.changes ../fabtop_*.buildinfo /root/out/" \
	>"$logs/build.out" 2>&1 || rc=1
grep '^== fresh-debian' "$logs/build.out"
[ $rc = 0 ] || { tail -40 "$logs/build/cmd1.log"; exit 1; }
ls "$logs/out"

# lintian from this machine (it is Debian's own lint): no error, no warning;
# each override is in debian/fabtop.lintian-overrides with its reason.
command -v lintian >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lintian >/dev/null
step "lintian --fail-on error,warning"
if lintian --fail-on error,warning --info "$logs"/out/fabtop_*.changes >"$logs/lintian.log" 2>&1; then
	echo "lintian: no error, no warning"
else
	rc=1
	echo "lintian: FAILED"
fi
grep -E '^[EWIP]:' "$logs/lintian.log"
sed -n 's/^fabtop: /overridden (reason in debian\/fabtop.lintian-overrides): /p' debian/fabtop.lintian-overrides

step "install, use, remove and purge in a bare Debian $suite root"
bash tools/fresh-debian.sh -s "$suite" -o "$logs/install" -b "$logs/out:/root/out" \
	'bash tools/deb-check.sh --inside /root/out' >"$logs/install.out" 2>&1 || rc=1
grep -E '^(not )?ok |^deb-check: |^# ' "$logs/install/cmd1.log" 2>/dev/null || cat "$logs/install.out"
grep '^== fresh-debian' "$logs/install.out"
echo "== deb-check: done in $(($(date +%s) - t0)) s, rc=$rc (logs in $logs)"
exit $rc
