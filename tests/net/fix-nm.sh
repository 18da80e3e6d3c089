#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The same-subnet host's fixes read by the tools that will keep them:
# NetworkManager's own parser (nmcli --offline) for --fix nmcli and
# --fix nm-keyfile, and netplan generate (down to the systemd-networkd
# files it writes) for --fix netplan. Each tool reads the fix and writes
# back what it kept; every route, table and rule must still be there
# (NetworkManager drops malformed entries without a word). Then the
# doctor's "to keep it across reboots" line for each kind of host
# (doc/doctor.md). The fixes come from the demo's host (the seed case,
# no root needed) and, as root, from the seed topology in namespaces.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

have_nmcli=false
if command -v nmcli >/dev/null 2>&1 &&
	nmcli --offline connection add type infiniband con-name probe ifname probe >/dev/null 2>&1; then
	have_nmcli=true
fi
have_netplan=false
NETPLAN=$(command -v netplan 2>/dev/null || true)
[ -z "$NETPLAN" ] && [ -x /usr/sbin/netplan ] && NETPLAN=/usr/sbin/netplan
[ -n "$NETPLAN" ] && have_netplan=true
# netplan_generate ROOT: netplan generate over ROOT only. Since netplan 1.0
# (Debian 13) it also runs `udevadm control --reload` and `systemctl
# daemon-reload` for the running system, --root-dir or not: that would reload
# this machine's systemd, and where systemd is not PID 1 (a chroot) it warns.
# Stand-ins that do nothing take their place.
mkdir -p "$T/noreload"
for c in systemctl udevadm; do printf '#!/bin/sh\nexit 0\n' >"$T/noreload/$c" && chmod +x "$T/noreload/$c"; done
netplan_generate() { PATH="$T/noreload:$PATH" "$NETPLAN" generate --root-dir "$1"; }

# What the ip fix (checked against the kernel by fix-scripts.sh) says for IF:
# "SUBNET/LEN SRC TABLE" per route.
ip_routes_of() {
	sed -n "s|^ip route replace \([0-9./]*\) dev $1 scope link src \([0-9.]*\) table \([0-9]*\)\$|\1 \2 \3|p" "$2"
}

# A keyfile NetworkManager wrote for IF: the connection of an IPoIB
# interface with its address and a route of its own that must survive.
new_keyfile() {
	nmcli --offline connection add type infiniband con-name "conn-$1" ifname "$1" \
		ipv4.method manual ipv4.addresses "$2/16" ipv4.routes "10.99.0.0/16 172.16.0.254 50" >"$3"
}

# What NetworkManager keeps of a keyfile: read and written back once more.
nm_keeps() {
	nmcli --offline connection modify connection.autoconnect yes <"$1" >"$1.kept"
}

# keyfile_ipv4 FILE [SECTION]: its [ipv4] (or SECTION's) routes and rules as
# NetworkManager wrote them, one a line: "route DST OPTIONS" (options sorted) and "rule TEXT".
keyfile_ipv4() {
	awk -F= -v want="[${2:-ipv4}]" '
		/^\[/ { sec = $0; next }
		sec != want { next }
		$1 ~ /^route[0-9]+$/ { dst[substr($1, 6)] = substr($0, length($1) + 2) }
		$1 ~ /^route[0-9]+_options$/ { n = $1; sub(/^route/, "", n); sub(/_options$/, "", n)
			opt[n] = substr($0, length($1) + 2) }
		$1 ~ /^routing-rule[0-9]+$/ { print "rule " substr($0, length($1) + 2) }
		END { for (n in dst) print "route " dst[n] " " opt[n] }' "$1" | sort
}

# expect_kept LABEL IF KEYFILE IPFIX: every route and rule of the ip fix for IF, and the connection's own route.
expect_kept() {
	kept=$(keyfile_ipv4 "$3")
	ip_routes_of "$2" "$4" >"$T/want"
	[ -s "$T/want" ] || { not_ok "$1: the ip fix has routes for $2"; return; }
	while read -r dst src table; do
		assert_match "$1: $2's route $dst in table $table from $src kept" \
			"^route $dst scope=253,src=$src,table=$table\$" "$kept"
		assert_match "$1: $2's rule from $src to table $table kept" \
			"^rule priority 1000 from $src table $table\$" "$kept"
	done <"$T/want"
	assert_match "$1: $2's own route kept" '^route 10.99.0.0/16,172.16.0.254,50 $' "$kept"
	assert_eq "$1: $2 has its own route and the fix's, once each" \
		"$(($(wc -l <"$T/want") * 2 + 1))" "$(printf '%s\n' "$kept" | grep -c .)"
}

# check_nmcli LABEL FIX IPFIX IF...: run the printed commands, twice, with nmcli
# working offline on keyfiles of the interfaces' connections.
check_nmcli() {
	label=$1 fix=$2 ipfix=$3; shift 3
	check "$label nmcli: sh -n" sh -n "$fix"
	if command -v shellcheck >/dev/null 2>&1; then
		check "$label nmcli: shellcheck" shellcheck -s sh "$fix"
	else
		skip "$label nmcli: shellcheck is not installed"
	fi
	if ! $have_nmcli; then
		skip "$label nmcli: nmcli --offline (network-manager >= 1.42) is not installed"
		return
	fi
	rm -rf "$T/nm" && mkdir -p "$T/nm/etc/sysctl.d"
	for i in "$@"; do
		new_keyfile "$i" "$(ip_routes_of "$i" "$ipfix" | awk 'NR == 1 { print $2 }')" "$T/nm/conn-$i"
	done
	# The commands as printed; only the file they write is moved into the test's tree.
	sed "s|/etc/sysctl.d/|$T/nm/etc/sysctl.d/|g" "$fix" >"$T/nm/fix.sh"
	cat >"$T/nm/nmcli.sh" <<EOF
nmcli() {
	case "\$*" in
	"-g GENERAL.CONNECTION device show "*) printf 'conn-%s\\n' "\$5" ;;
	"device reapply "*) printf '%s\\n' "\$3" >>"$T/nm/reapplied" ;;
	"connection modify "*)
		_c=\$3; shift 3
		command nmcli --offline connection modify "\$@" <"$T/nm/\$_c" >"$T/nm/\$_c.new" &&
			mv "$T/nm/\$_c.new" "$T/nm/\$_c" ;;
	*) echo "unexpected: nmcli \$*" >&2; return 1 ;;
	esac
}
sysctl() { printf '%s\\n' "\$*" >>"$T/nm/sysctl.log"; }
EOF
	if sh -ec ". '$T/nm/nmcli.sh'; . '$T/nm/fix.sh'; . '$T/nm/fix.sh'" >"$T/.run" 2>&1; then
		ok "$label nmcli: the commands run twice"
	else
		not_ok "$label nmcli: the commands run twice"; diag "$(cat "$T/.run")"
	fi
	for i in "$@"; do
		nm_keeps "$T/nm/conn-$i"
		expect_kept "$label nmcli" "$i" "$T/nm/conn-$i.kept" "$ipfix"
	done
	assert_eq "$label nmcli: each interface's connection reapplied, on each run" \
		"$(printf '%s\n' "$@" "$@" | sort)" "$(sort "$T/nm/reapplied" 2>/dev/null)"
	sed -n 's/^sysctl -q -w net\.ipv4\.conf\.\([^.]*\)\.\([a-z_]*\)=\([0-9]*\)$/net.ipv4.conf.\1.\2 = \3/p' \
		"$ipfix" >"$T/want-sysctl"
	assert_file_eq "$label nmcli: the sysctl.d file holds the ip fix's sysctls" "$T/want-sysctl" \
		"$T/nm/etc/sysctl.d/90-fabtop-rdma.conf"
	assert_match "$label nmcli: and loads it" "^-q -p $T/nm/etc/sysctl.d/90-fabtop-rdma.conf\$" \
		"$(cat "$T/nm/sysctl.log" 2>/dev/null)"
}

# check_keyfile LABEL FIX IPFIX IF...: each interface's block appended to its keyfile.
check_keyfile() {
	label=$1 fix=$2 ipfix=$3; shift 3
	if ! $have_nmcli; then
		skip "$label nm-keyfile: nmcli --offline (network-manager >= 1.42) is not installed"
		return
	fi
	rm -rf "$T/kf" && mkdir -p "$T/kf"
	for i in "$@"; do
		new_keyfile "$i" "$(ip_routes_of "$i" "$ipfix" | awk 'NR == 1 { print $2 }')" "$T/kf/conn-$i"
		# The block: from its "# interface-name=IF" line to the next blank line.
		awk -v want="# interface-name=$i" '$0 == want { on = 1 } on && /^$/ { on = 0 } on' "$fix" >"$T/kf/block-$i"
		assert_match "$label nm-keyfile: a block for $i" '^\[ipv4\]$' "$(cat "$T/kf/block-$i")"
		{ echo; cat "$T/kf/block-$i"; } >>"$T/kf/conn-$i"
		nm_keeps "$T/kf/conn-$i"
		expect_kept "$label nm-keyfile" "$i" "$T/kf/conn-$i.kept" "$ipfix"
		# Appended twice: the entries replace themselves.
		{ echo; cat "$T/kf/block-$i"; echo; cat "$T/kf/block-$i"; } >>"$T/kf/conn-$i"
		nm_keeps "$T/kf/conn-$i"
		expect_kept "$label nm-keyfile (appended twice)" "$i" "$T/kf/conn-$i.kept" "$ipfix"
	done
}

# network_keys FILE: "[Section] Key=Value" lines of a systemd .network file.
network_keys() {
	awk '/^\[/ { sec = $0; next } /=/ { print sec " " $0 }' "$1"
}

# check_netplan LABEL FIX IPFIX IF...: netplan generate over the fix and the host's own file.
check_netplan() {
	label=$1 fix=$2 ipfix=$3; shift 3
	if ! $have_netplan; then
		skip "$label netplan: netplan (netplan.io) is not installed"
		return
	fi
	R=$T/np
	rm -rf "$R" && mkdir -p "$R/etc/netplan"
	# The host's own configuration: the addresses; the fix's file is merged with it.
	{
		printf 'network:\n  version: 2\n  ethernets:\n'
		for i in "$@"; do
			printf '    %s:\n      addresses: [%s/16]\n' "$i" \
				"$(ip_routes_of "$i" "$ipfix" | awk 'NR == 1 { print $2 }')"
		done
	} >"$R/etc/netplan/01-host.yaml"
	cp "$fix" "$R/etc/netplan/90-fabtop-rdma-routes.yaml"
	chmod 600 "$R/etc/netplan/"*.yaml
	if netplan_generate "$R" >"$T/.np" 2>&1; then
		ok "$label netplan: netplan generate reads it"
	else
		not_ok "$label netplan: netplan generate reads it"; diag "$(cat "$T/.np")"
	fi
	assert_eq "$label netplan: and says nothing about it" "" "$(cat "$T/.np")"
	for i in "$@"; do
		f="$R/run/systemd/network/10-netplan-$i.network"
		keys=$(network_keys "$f" 2>/dev/null || true)
		ip_routes_of "$i" "$ipfix" >"$T/want"
		while read -r dst src table; do
			assert_match "$label netplan: $i keeps its address" "^\[Network\] Address=$src/16\$" "$keys"
			# One [Route] section with all four keys: print each section's keys on one line.
			routes=$(awk '/^\[/ { if (s != "") print s; s = $0; next } /=/ { s = s " " $0 } END { print s }' "$f")
			assert_match "$label netplan: $i's route to $dst from $src in table $table (scope link)" \
				"^\[Route\] Destination=$dst PreferredSource=$src Scope=link Table=$table\$" "$routes"
			assert_match "$label netplan: $i's rule from $src to table $table, priority 1000" \
				"^\[RoutingPolicyRule\] From=$src Table=$table Priority=1000\$" "$routes"
		done <"$T/want"
	done
}

# check_all LABEL FIXCMD...: every check on the fixes FIXCMD prints.
check_all() {
	label=$1; shift
	"$@" doctor --fix ip >"$T/fix-ip" || true
	for f in nmcli nm-keyfile netplan; do "$@" doctor --fix "$f" >"$T/fix-$f" || true; done
	assert_match "$label: the ip fix routes ib1 by its own table" "^172.16.0.0/16 172.16.34.2 [0-9]+\$" \
		"$(ip_routes_of ib1 "$T/fix-ip")"
	check_nmcli "$label" "$T/fix-nmcli" "$T/fix-ip" ib0 ib1
	check_keyfile "$label" "$T/fix-nm-keyfile" "$T/fix-ip" ib0 ib1
	check_netplan "$label" "$T/fix-netplan" "$T/fix-ip" ib0 ib1
}

check_all demo "$FABTOP" --demo

# A simulated host has no configuration tool: the line names every persistent format.
run_rc "$FABTOP" --demo doctor --json
assert_eq "demo: the reboot line names every persistent format" \
	"all interfaces at once: fabtop doctor --fix ip; to keep it across reboots: --fix nmcli|nm-keyfile|netplan|networkd-dispatcher|nm-dispatcher|ifupdown" \
	"$(jq -r '[.findings[] | select(.id == 1)][0].fix[-1]' "$T/out")"

if [ "$(id -u)" != 0 ] || [ -n "${FABTOP_SKIP_SLOW:-}" ] || ! ip netns add "fabtop-probe-$$" 2>/dev/null; then
	skip "seed topology in namespaces: needs root and network namespaces (CI runs as root), and no FABTOP_SKIP_SLOW"
	done_testing
	exit
fi
ip netns del "fabtop-probe-$$"
build_seed_topology
rdma_fixture "$T/sys" rxe_A ib0 InfiniBand
rdma_fixture "$T/sys" rxe_B ib1 InfiniBand
check_all netns in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys"

# IPv6: two RDMA netdevs in one /64 (as tests/net/doctor-ipv6.sh builds it): the
# [ipv6] section, ipv6.routes and ipv6.routing-rules, no scope (an IPv4 attribute).
ns_cleanup
build_seed_topology
ip -n "$NS_MEM" -4 addr flush dev ib0; ip -n "$NS_MEM" -4 addr flush dev ib1
ip -n "$NS_MEM" addr add fd00:16::34:1/64 dev ib0 nodad
ip -n "$NS_MEM" addr add fd00:16::34:2/64 dev ib1 nodad
for f in ip nmcli nm-keyfile netplan; do
	in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor --fix "$f" >"$T/fix6-$f" || true
done
# "IF DST SRC TABLE" per route of the ip fix.
sed -n 's|^ip -6 route replace \([0-9a-f:/]*\) dev \(ib[01]\) src \([0-9a-f:]*\) table \([0-9]*\)$|\2 \1 \3 \4|p' \
	"$T/fix6-ip" >"$T/want6"
assert_eq "IPv6: the ip fix has a route for ib0 and ib1" "ib0 ib1" "$(cut -d' ' -f1 "$T/want6" | sort | paste -sd' ' -)"
if $have_nmcli; then
	rm -rf "$T/nm6" && mkdir -p "$T/nm6"
	while read -r i dst src table; do
		nmcli --offline connection add type infiniband con-name "conn-$i" ifname "$i" ipv4.method disabled \
			ipv6.method manual ipv6.addresses "$src/64" >"$T/nm6/conn-$i"
		cp "$T/nm6/conn-$i" "$T/nm6/kf-$i"
		awk -v want="# interface-name=$i" '$0 == want { on = 1 } on && /^$/ { on = 0 } on' \
			"$T/fix6-nm-keyfile" >>"$T/nm6/kf-$i"
	done <"$T/want6"
	printf '%s\n' \
		'nmcli() {' \
		'	case "$*" in' \
		"	\"-g GENERAL.CONNECTION device show \"*) printf 'conn-%s\\n' \"\$5\" ;;" \
		'	"device reapply "*) ;;' \
		'	"connection modify "*)' \
		'		_c=$3; shift 3' \
		"		command nmcli --offline connection modify \"\$@\" <\"$T/nm6/\$_c\" >\"$T/nm6/\$_c.new\" &&" \
		"			mv \"$T/nm6/\$_c.new\" \"$T/nm6/\$_c\" ;;" \
		'	*) echo "unexpected: nmcli $*" >&2; return 1 ;;' \
		'	esac' \
		'}' >"$T/nm6/nmcli.sh"
	check "IPv6 nmcli: the commands run" sh -ec ". '$T/nm6/nmcli.sh'; . '$T/fix6-nmcli'"
	while read -r i dst src table; do
		for form in conn kf; do
			nm_keeps "$T/nm6/$form-$i"
			assert_eq "IPv6 $form: $i's route and rule kept by NetworkManager" \
				"$(printf 'route %s src=%s,table=%s\nrule priority 1000 from %s table %s\n' \
					"$dst" "$src" "$table" "$src" "$table" | sort)" \
				"$(keyfile_ipv4 "$T/nm6/$form-$i.kept" ipv6)"
		done
	done <"$T/want6"
else
	skip "IPv6 nmcli: nmcli --offline (network-manager >= 1.42) is not installed"
fi
if $have_netplan; then
	rm -rf "$T/np6" && mkdir -p "$T/np6/etc/netplan"
	cp "$T/fix6-netplan" "$T/np6/etc/netplan/90-fabtop-rdma-routes.yaml"
	chmod 600 "$T/np6/etc/netplan/90-fabtop-rdma-routes.yaml"
	check "IPv6 netplan: netplan generate reads it" netplan_generate "$T/np6"
	while read -r i dst src table; do
		routes=$(awk '/^\[/ { if (s != "") print s; s = $0; next } /=/ { s = s " " $0 } END { print s }' \
			"$T/np6/run/systemd/network/10-netplan-$i.network" 2>/dev/null || true)
		assert_match "IPv6 netplan: $i's route to $dst from $src in table $table" \
			"^\[Route\] Destination=$dst PreferredSource=$src( Scope=link)? Table=$table\$" "$routes"
		assert_match "IPv6 netplan: $i's rule from $src to table $table" \
			"^\[RoutingPolicyRule\] From=$src Table=$table Priority=1000\$" "$routes"
	done <"$T/want6"
else
	skip "IPv6 netplan: netplan (netplan.io) is not installed"
fi

# The reboot line on each kind of host: fixture roots for /proc and /etc.
# host_root DIR KIND: a tree where KIND keeps the configuration.
host_root() {
	mkdir -p "$1/proc/1" "$1/proc/77" "$1/etc/network" "$1/etc/netplan"
	echo init >"$1/proc/1/comm"
	printf 'auto lo\niface lo inet loopback\n' >"$1/etc/network/interfaces"
	case $2 in
	nm) echo NetworkManager >"$1/proc/77/comm"
	    # NetworkManager first: it runs, whatever files are also there.
	    echo 'network: {version: 2}' >"$1/etc/netplan/01.yaml" ;;
	netplan) echo 'network: {version: 2}' >"$1/etc/netplan/01-netcfg.yaml"
	    echo systemd-network >"$1/proc/77/comm" ;;
	ifupdown) mkdir -p "$1/etc/network/interfaces.d"
	    printf 'auto ib0\niface ib0 inet static\n    address 172.16.34.1/16\n' >"$1/etc/network/interfaces.d/ib0"
	    echo systemd-network >"$1/proc/77/comm" ;;
	networkd) echo systemd-network >"$1/proc/77/comm" ;;
	none) echo sshd >"$1/proc/77/comm" ;;
	esac
}
for kind in "nm|NetworkManager runs here|nmcli" "netplan|netplan configures this host|netplan" \
	"ifupdown|ifupdown configures this host|ifupdown" "networkd|systemd-networkd runs here|networkd-dispatcher"; do
	k=${kind%%|*} rest=${kind#*|}
	why=${rest%|*} fmt=${rest#*|}
	host_root "$T/host-$k" "$k"
	run_rc in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" --proc "$T/host-$k/proc" --etc "$T/host-$k/etc" doctor --json
	assert_eq "$k host: the reboot line names --fix $fmt" \
		"all interfaces at once: fabtop doctor --fix ip; to keep it across reboots ($why): fabtop doctor --fix $fmt" \
		"$(jq -r '[.findings[] | select(.id == 1)][0].fix[-1]' "$T/out")"
done
host_root "$T/host-none" none
run_rc in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" --proc "$T/host-none/proc" --etc "$T/host-none/etc" doctor --json
assert_eq "a host with none of them: every persistent format" \
	"all interfaces at once: fabtop doctor --fix ip; to keep it across reboots: --fix nmcli|nm-keyfile|netplan|networkd-dispatcher|nm-dispatcher|ifupdown" \
	"$(jq -r '[.findings[] | select(.id == 1)][0].fix[-1]' "$T/out")"

done_testing
