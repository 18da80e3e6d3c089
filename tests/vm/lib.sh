# shellcheck shell=dash disable=SC2034
# SPDX-License-Identifier: GPL-2.0-or-later
# Host side of the VM tests: decide whether they run, prepare the assets, boot
# the VM(s), and turn the guest's VMTAP lines into this test's TAP output.
# Sourced after tests/setup.sh.

VM_DIR=${FABTOP_VM_DIR:-/var/tmp/fabtop-vm}
VM_HERE="$TOP_SRCDIR/tests/vm"

# vm_require: skip the whole file (with the reason) unless the VM can run here.
vm_require() {
	case "${FABTOP_VM_TESTS:-}" in
	1|yes) ;;	# make check-vm, or .ci/run for its sanitizer suite
	0|no) skip_all "VM tests disabled (FABTOP_VM_TESTS=0)" ;;
	*)
		[ -n "${CI:-}" ] || skip_all "VM tests run with 'make check-vm' (or FABTOP_VM_TESTS=1): they boot qemu"
		# a CI that only sets CI: once per run, in the sanitizer build, never in distcheck
		[ "${FABTOP_SKIP_SLOW:-0}" != 1 ] || skip_all "FABTOP_SKIP_SLOW=1"
		[ "${FABTOP_SANITIZERS:-no}" = yes ] || skip_all "with only CI set, the VM tests run in the sanitizer build"
		;;
	esac
	command -v qemu-system-x86_64 >/dev/null 2>&1 || [ "$(id -u)" = 0 ] ||
		skip_all "qemu-system-x86_64 not installed (and not root to install it)"
	if ! why=$("$VM_HERE/prepare.sh" 2>&1 | tail -1); then
		skip_all "VM assets cannot be had: $why"
	fi
	# the binary under test must be visible in the guest at the same path
	VM_BUILD=$(cd "$(dirname "$FABTOP")/.." && pwd)
	case "$VM_BUILD" in
	/usr|/usr/*|/etc|/etc/*) ;;	# already shared
	*) VM_EXTRA_RO="$VM_BUILD" ;;
	esac
}

# vm_tap OUTPUT_FILE: VMTAP lines become TAP; every other line a comment.
vm_tap() {
	while IFS= read -r line; do
		case "$line" in
		"VMTAP ok "*) ok "${line#VMTAP ok }" ;;
		"VMTAP not ok "*"# TODO"*)
			# a known shortfall: reported, not counted as a failure (TAP's TODO)
			_tap_n=$((_tap_n + 1))
			echo "not ok $_tap_n - ${line#VMTAP not ok }" ;;
		"VMTAP not ok "*) not_ok "${line#VMTAP not ok }" ;;
		"VMTAP skip "*) skip "${line#VMTAP skip }" ;;
		"VMTAP measure "*) echo "# MEASURE ${line#VMTAP measure }"; echo "${line#VMTAP measure }" >> "$T/measures" ;;
		*) printf '# %s\n' "$line" ;;
		esac
	done < "$1"
}

# vm_run NAME TIMEOUT_S GUEST_SCRIPT [ARGS]: boot one VM; output in $T/NAME.out, status in $vm_rc.
vm_run() {
	local name=$1 tmo=$2 script=$3
	shift 3
	set +e
	# One VM test at a time (make check -j): TCG guests starved of CPU stall
	# for seconds and turn CM/ARP deadlines into false failures.
	RUN_DIR="$T/run-$name" EXTRA_RO="${VM_EXTRA_RO:-}" FABTOP_VM_DIR="$VM_DIR" \
		flock "$VM_DIR/.vm-lock" "$VM_HERE/run-vm.sh" -n "$name" -t "$tmo" "$script" "$@" > "$T/$name.out" 2> "$T/$name.err"
	vm_rc=$?
	set -e
	cat "$T/$name.err" | sed 's/^/# /'
}

# vm_pair TIMEOUT_S SERVER_SCRIPT CLIENT_SCRIPT [ARGS]: two VMs wired NIC to NIC (see two-vm.sh).
vm_pair() {
	local tmo=$1 srv=$2 cli=$3
	shift 3
	set +e
	RUN_BASE="$T/pair" EXTRA_RO="${VM_EXTRA_RO:-}" FABTOP_VM_DIR="$VM_DIR" \
		flock "$VM_DIR/.vm-lock" "$VM_HERE/two-vm.sh" -t "$tmo" "$srv" "$cli" "$@" > "$T/pair.out" 2>&1
	vm_rc=$?
	set -e
}

# vm_measure KEY: a value the guest measured (empty when absent).
vm_measure() {
	[ -f "$T/measures" ] || return 0
	sed -n "s/^$1=//p" "$T/measures" | tail -1
}
