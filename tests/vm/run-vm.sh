#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot the test VM (Debian kernel, qemu TCG), run SCRIPT inside as root, print
# its output and exit with its status.
#
# usage: run-vm.sh [-n NAME] [-t TIMEOUT_S] SCRIPT [ARGS...]
# env:  FABTOP_VM_DIR  assets from prepare.sh (default /var/tmp/fabtop-vm)
#       EXTRA_RO       host dirs mounted read-only at the same path in the guest
#                      (the build dir, so the fabtop under test runs inside)
#       EXTRA_RW       the same, read-write and uncached (shared between VMs)
#       QEMU_EXTRA     extra qemu arguments (NICs, see two-vm.sh)
#       RUN_DIR        the run's shared dir, /share in the guest
#       KAPPEND        more kernel command line (tests/vm/probe-perf.sh: the clock source)
#       MEM (MiB, 1024) SMP (2) ACCEL (tcg|kvm; tcg: KVM is unusable on the
#       machines we have, see TESTING.md) VERBOSE=1 streams the console.
# Exit: SCRIPT's status; 124 timeout; 125 the VM failed before SCRIPT ended.
set -uo pipefail
D=${FABTOP_VM_DIR:-/var/tmp/fabtop-vm}
NAME=vm TMO=300
while getopts "n:t:" o; do
	case $o in n) NAME=$OPTARG;; t) TMO=$OPTARG;; *) exit 2;; esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n NAME] [-t TIMEOUT] SCRIPT [ARGS...]" >&2; exit 2; }
SCRIPT=$1; shift
KVER=$(cat "$D/assets/KVER") || { echo "[run-vm] no assets in $D: run prepare.sh" >&2; exit 125; }
RUN=${RUN_DIR:-$D/runs/$NAME.$$}
rm -rf "$RUN"; mkdir -p "$RUN"
cp "$SCRIPT" "$RUN/script.sh"
# helpers next to the script (*.inc) travel with it
cp "$(dirname "$SCRIPT")"/*.inc "$RUN"/ 2>/dev/null
{ printf 'exec /bin/bash /share/script.sh'; printf ' %q' "$@"; echo; } > "$RUN/cmd.sh"

# shellcheck disable=SC2054 # qemu's own comma-separated options
if [ "${ACCEL:-tcg}" = kvm ]; then
	ACC=(-accel kvm -cpu host,-arch-capabilities)
else
	ACC=(-accel tcg,thread=multi -cpu max)
fi

EX=() tags=() i=0
for p in ${EXTRA_RO:-}; do
	i=$((i + 1)); t=xro$i; tags+=("$t"); echo "$p" > "$RUN/.extra_$t"
	EX+=(-virtfs "local,path=$p,mount_tag=$t,security_model=none,readonly=on,multidevs=remap")
done
for p in ${EXTRA_RW:-}; do
	i=$((i + 1)); t=xrw$i; tags+=("$t"); echo "$p" > "$RUN/.extra_$t"
	EX+=(-virtfs "local,path=$p,mount_tag=$t,security_model=none,multidevs=remap")
done
extra=$(IFS=,; echo "${tags[*]:-}")

start=$(date +%s%N)
# shellcheck disable=SC2086
timeout -k 5 "$TMO" qemu-system-x86_64 "${ACC[@]}" -M q35 -m "${MEM:-1024}" -smp "${SMP:-2}" \
	-nodefaults -no-user-config -display none -monitor none -no-reboot \
	-serial stdio \
	-kernel "$D/assets/vmlinuz-$KVER" -initrd "$D/assets/initrd.img" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3 fabvm_host=$NAME fabvm_extra=$extra${KAPPEND:+ $KAPPEND}" \
	-virtfs local,path=/usr,mount_tag=hostusr,security_model=none,readonly=on,multidevs=remap \
	-virtfs local,path=/etc,mount_tag=hostetc,security_model=none,readonly=on,multidevs=remap \
	-virtfs local,path="$D/kroot/lib/modules",mount_tag=kmods,security_model=none,readonly=on \
	-virtfs local,path="$RUN",mount_tag=share,security_model=none \
	"${EX[@]}" ${QEMU_EXTRA:-} </dev/null > "$RUN/console.log" 2>&1 &
qpid=$!
[ "${VERBOSE:-0}" = 1 ] && tail -n +1 -f --pid=$qpid "$RUN/console.log" >&2 &
wait $qpid; qrc=$?
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "[run-vm] $NAME qemu_rc=$qrc wall=$((ms / 1000)).$(printf %03d $((ms % 1000)))s" \
	"$(grep -ao 'FABTOP-VM-READY.*' "$RUN/console.log" | tr -d '\r')" \
	"$(grep -ao 'FABTOP-VM-EXIT.*' "$RUN/console.log" | tr -d '\r') dir=$RUN" >&2
[ -f "$RUN/output.log" ] && cat "$RUN/output.log"
[ -f "$RUN/rc" ] && exit "$(cat "$RUN/rc")"
if [ $qrc -eq 124 ]; then
	echo "[run-vm] TIMEOUT after ${TMO}s; console tail:" >&2
	tail -20 "$RUN/console.log" >&2
	exit 124
fi
echo "[run-vm] VM failed (no status); console tail:" >&2
tail -30 "$RUN/console.log" >&2
exit 125
