#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop show pci and the doctor's finding 9 over the PCI fixture trees
# (tests/data/trees/pci-*, made by tests/data/trees/mk-pci.sh; README in each):
# the whole report against the expected text and JSON beside each tree, then
# the facts a user checks, spelled out.
. "$TOP_SRCDIR/tests/setup.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed (apt-get install jq)"

for t in pci-switch pci-oldkernel; do
	dir="$DATA/trees/$t" exp="$DATA/trees/$t.pci"
	run_rc "$FABTOP" show pci --sysfs "$dir"
	assert_rc "$t: show pci exits 0" 0
	assert_file_eq "$t: text report" "$exp.expected.txt" "$T/out"
	assert_file_eq "$t: warnings" "$exp.expected.err" "$T/err"
	run_rc "$FABTOP" show pci --json --sysfs "$dir"
	assert_rc "$t: show pci --json exits 0" 0
	if json_true "$T/out" 'type == "object"' && jq -S . "$T/out" >"$T/out.json"; then
		ok "$t: JSON parses"
	else
		not_ok "$t: JSON parses"
	fi
	assert_file_eq "$t: JSON report" "$exp.expected.json" "$T/out.json"
done

# The kernel's device link back to the function (the committed trees leave
# it out: a loop make dist cannot archive): the same report through it, and
# through it alone when the class link leads elsewhere.
cp -a "$DATA/trees/pci-switch" "$T/link"
chmod -R u+w "$T/link"
ib="$T/link/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0/infiniband/mlx5_0"
ln -s ../../../0000:03:00.0 "$ib/device"
run_rc "$FABTOP" show pci --json --sysfs "$T/link"
jq -S . "$T/out" >"$T/link.json" 2>/dev/null || :
assert_file_eq "pci-switch with the device link: the same report" "$DATA/trees/pci-switch.pci.expected.json" "$T/link.json"
mkdir -p "$T/link/devices/virtual/infiniband"
mv "$ib" "$T/link/devices/virtual/infiniband/mlx5_0"
rm "$T/link/devices/virtual/infiniband/mlx5_0/device"
ln -s ../../../pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0 "$T/link/devices/virtual/infiniband/mlx5_0/device"
ln -sfn ../../devices/virtual/infiniband/mlx5_0 "$T/link/class/infiniband/mlx5_0"
run_rc "$FABTOP" show pci --json --sysfs "$T/link"
assert_eq "the device link alone decides where the function is" "0000:03:00.0" \
	"$(jq -r '.pci[] | select(.device == "mlx5_0") | .address' "$T/out" 2>/dev/null)"

# pci-switch: current kernel formats, a PCIe switch with an HCA and two GPUs
"$FABTOP" show pci --json --sysfs "$DATA/trees/pci-switch" >"$T/sw.json"
dist() { jq -c --arg g "$1" '[.gpus[] | select(.address == $g) | .hcas[] | "\(.device) \(.distance)"]' "$T/sw.json"; }
assert_eq "GPU 04:00.0: PIX to the HCA on its switch, PHB, SYS, NODE to the others" \
	'["mlx5_0 PIX","mlx5_1 PHB","mlx5_2 SYS","mlx5_3 NODE"]' "$(dist 0000:04:00.0)"
assert_eq "GPU 08:00.0 behind a second switch: PXB to mlx5_0" '"mlx5_0 PXB"' \
	"$(dist 0000:08:00.0 | jq -c '.[0]')"
assert_json "each GPU's nearest HCA is mlx5_0" "$T/sw.json" '[.gpus[].nearest] == [["mlx5_0"],["mlx5_0"],["mlx5_0"]]'
assert_json "GPUs by class: a 3D controller, a powered-down one and a VGA controller; no other function" \
	"$T/sw.json" '[.gpus[] | "\(.address) \(.class)"] == ["0000:04:00.0 0x030200","0000:05:00.0 0x030200","0000:08:00.0 0x030000"]'
assert_json "the powered-down GPU: link Unknown, width 0, no made-up speed" "$T/sw.json" \
	'.gpus[1].link | .current_link_speed == "Unknown" and .current_gts == null and .current_link_width == 0'
assert_json "mlx5_0's chain: device, switch downstream, upstream, root port" "$T/sw.json" \
	'[.pci[0].chain[].address] == ["0000:03:00.0","0000:02:08.0","0000:01:00.0","0000:00:01.0"]'
assert_json "mlx5_0 carries 16 lanes x 15.754 Gb/s (128b/130b) = 252.06 Gb/s, its 200 Gb/s port fits" "$T/sw.json" \
	'.pci[0] | .gbps == 252.06 and .ports[0].fits == true'
assert_json "mlx5_1: 8.0 GT/s x8 = 63.02 Gb/s, its 200 Gb/s port does not fit, the link is degraded" "$T/sw.json" \
	'.pci[1] | .device == "mlx5_1" and .gbps == 63.02 and .ports[0].fits == false and .links[0].degraded == true'
assert_json "AER totals: mlx5_0's 2 correctable, the root port's 1 non-fatal" "$T/sw.json" \
	'.pci[0].chain[0].aer.correctable == 2 and .pci[1].chain[1].aer.nonfatal == 1'
assert_json "NUMA nodes and CPUs of each HCA" "$T/sw.json" \
	'[.pci[] | "\(.numa_node) \(.local_cpulist)"] == ["0 0-15","0 0-15","1 16-31","0 0-15"]'

# pci-oldkernel: "8 GT/s" and "Unknown speed", numa_node -1, no AER files
"$FABTOP" show pci --json --sysfs "$DATA/trees/pci-oldkernel" >"$T/old.json"
assert_json "old kernel's \"8 GT/s\" is 8 GT/s; x8 of x16 under an x8 root port is not degraded" "$T/old.json" \
	'.pci[0] | .chain[0].current_gts == 8 and .links[0].degraded == false and .links[0].max_width == 8 and .gbps == 63.02'
assert_json "a link down (\"Unknown speed\", width 0): down, nothing carried" "$T/old.json" \
	'.pci[1] | .links[0].down == true and .gbps == null and .ports[0].fits == null'
assert_json "numa_node -1 is null; no AER files is null" "$T/old.json" \
	'[.pci[] | .numa_node, .chain[0].aer] == [null, null, null, null]'
assert_json "a GPU under the HCAs' host bridge: PHB; under another with NUMA unknown: no class" "$T/old.json" \
	'[.gpus[] | [.hcas[].distance]] == [["PHB","PHB"],[null,null]] and .gpus[1].nearest == []'

# the doctor: finding 9 on its own rules, nothing where they do not hold
find9() { "$FABTOP" doctor --json --sysfs "$DATA/trees/$1" 2>/dev/null | jq -c '[.findings[] | select(.id == 9) | "\(.code) \(.device) \(.port)"]'; }
assert_eq "pci-switch: the degraded link, the link under the port's rate, the AER error, the slow sibling" \
	'["pcie-link-degraded mlx5_1 null","pcie-below-port-rate mlx5_1 1","pcie-aer-uncorrectable mlx5_1 null","port-slow-sibling mlx5_3 1"]' \
	"$(find9 pci-switch)"
assert_eq "pci-oldkernel: a narrow slot that carries its port, a down link, no AER: no finding 9" '[]' \
	"$(find9 pci-oldkernel)"
run_rc "$FABTOP" doctor --sysfs "$DATA/trees/pci-switch"
assert_rc "doctor exits 1 on finding 9's warnings" 1
assert_match "doctor's text names the narrowest link and what it carries" \
	'narrowest link 0000:09:00.0 - 0000:00:03.0: 8.0 GT/s x8 \(63.0 Gb/s after encoding\)' "$(cat "$T/out")"

# the exporter holds the same findings (one home: the host the source collects)
"$FABTOP" export --sysfs "$DATA/trees/pci-switch" --textfile "$T/m.prom" --no-http --count 1 >/dev/null 2>&1 || :
assert_eq "the exporter's fabtop_doctor_finding series carry finding 9" \
	'pcie-aer-uncorrectable pcie-below-port-rate pcie-link-degraded port-slow-sibling' \
	"$(sed -n 's/^fabtop_doctor_finding{code="\(p[a-z-]*\)".* 1$/\1/p' "$T/m.prom" | grep -E '^(pcie-|port-slow-sibling)' | sort | tr '\n' ' ' | sed 's/ $//')"

# a simulated host has no PCI side: said, not an empty report
run_rc "$FABTOP" --demo show pci
assert_rc "the demo: show pci exits 1" 1
assert_match "... and says why" 'simulated: it has no PCI side' "$(cat "$T/err")"
done_testing
