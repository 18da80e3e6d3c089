#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doctor, its fixes, --apply and show net under valgrind: no invalid access,
# no leak; on the same-subnet topology in namespaces when root.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
slow_scenario
[ "${FABTOP_SANITIZERS:-no}" != yes ] || skip_all "built with sanitizers (valgrind cannot run ASan binaries; ASan covers this build)"
command -v valgrind >/dev/null 2>&1 || skip_all "valgrind not installed"

# vg DESC [ip netns exec NS] fabtop ARGS...: exit 99 means valgrind found something.
vg() {
	desc=$1; shift
	set +e
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	if [ "$rc" -ne 99 ] && [ "$rc" -le 2 ]; then ok "valgrind: $desc (exit $rc)"; else not_ok "valgrind: $desc (exit $rc)"; diag "$(head -40 "$T/err")"; fi
}
mkdir -p "$T/empty"
vg "doctor, no RDMA" "$FABTOP" --sysfs "$T/empty" doctor 127.0.0.1 --from lo
vg "show net --json" "$FABTOP" --sysfs "$T/empty" show net --json
vg "--demo doctor with a peer" "$FABTOP" --demo doctor 172.16.16.1 --from 172.16.34.2 --json
vg "--demo doctor --fix netplan" "$FABTOP" --demo doctor --fix netplan
vg "--demo doctor --fix nmcli" "$FABTOP" --demo doctor --fix nmcli
vg "--demo doctor --fix nm-keyfile" "$FABTOP" --demo doctor --fix nm-keyfile

if [ "$(id -u)" = 0 ] && ip netns add "ftv$$" 2>/dev/null; then
	ip netns del "ftv$$"
	rdma_fixture "$T/sys" rxe_A ib0 InfiniBand "" datagram
	rdma_fixture "$T/sys" rxe_B ib1 InfiniBand "" connected
	build_seed_topology
	in_ns "$NS_MEM" sysctl -q -w net.ipv4.conf.all.rp_filter=1
	vg "doctor on the same-subnet host" ip netns exec "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor 172.16.16.1 --from ib1
	vg "doctor --json, local peer" ip netns exec "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor 172.16.34.2 --json
	for f in ip networkd-dispatcher nm-dispatcher ifupdown netplan nmcli nm-keyfile; do
		vg "doctor --fix $f" ip netns exec "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor --fix "$f"
	done
	vg "show net" ip netns exec "$NS_MEM" "$FABTOP" --sysfs "$T/sys" show net
	vg "doctor --apply --yes" ip netns exec "$NS_MEM" "$FABTOP" --sysfs "$T/sys" doctor --apply --yes
else
	skip "needs root for the namespace part"
fi
done_testing
