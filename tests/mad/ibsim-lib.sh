# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests on the ibsim InfiniBand fabric simulator (sourced after
# tests/setup.sh): start ibsim with a topology and opensm under the umad2sim
# preload, wait for LIDs with a deadline, drive the ibsim console, and stop
# every process by pid from the setup's trap.

UMAD2SIM=${UMAD2SIM:-}
if [ -z "$UMAD2SIM" ]; then
	for d in /usr/lib/*/umad2sim /usr/lib/umad2sim /usr/lib64/umad2sim /usr/local/lib/umad2sim; do
		[ -f "$d/libumad2sim.so" ] && UMAD2SIM="$d/libumad2sim.so" && break
	done
fi

# Skip the whole file, with the reason, when the simulator is not installed.
ibsim_require() {
	command -v ibsim >/dev/null 2>&1 || skip_all "ibsim not installed (Debian: ibsim-utils)"
	command -v opensm >/dev/null 2>&1 || skip_all "opensm not installed"
	[ -n "$UMAD2SIM" ] || skip_all "libumad2sim.so not found (Debian: ibsim-utils)"
	command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
}

# Processes under the preload write ./sys-PID trees into their cwd.
RUN="$T/run"
mkdir -p "$RUN"

# An ASan-built fabtop needs its runtime first in the preload list when it is
# a shared library (GCC's libasan; clang links it into the binary); umad2sim
# itself reads past its own buffers (its read() copies umad_size()+256 bytes
# out of a 288-byte request), which is not ours to report.
FAB_PRELOAD="$UMAD2SIM"
_libasan=$(ldd "$FABTOP" 2>/dev/null | awk '/libasan/ {print $3}')
if [ -n "$_libasan" ] || [ "${FABTOP_SANITIZERS:-no}" = yes ]; then
	FAB_PRELOAD="${_libasan:+$_libasan:}$UMAD2SIM"
	printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
	printf 'leak:libumad2sim.so\nleak:libibumad.so\n' >"$T/lsan.supp"
	export ASAN_OPTIONS="suppressions=$T/asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export LSAN_OPTIONS="suppressions=$T/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi

# A socket name of our own (abstract namespace), so parallel tests never meet.
export IBSIM_SOCKNAME="fabtop$$"

# stop_pid PID: TERM, up to 5 s to go, then KILL; never waits forever.
stop_pid() {
	kill "$1" 2>/dev/null || return 0
	_n=0
	while kill -0 "$1" 2>/dev/null && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	kill -9 "$1" 2>/dev/null || true
}

# wait_for DEADLINE_S CMD...: poll CMD every 0.1 s until it succeeds or time is up.
wait_for() {
	_end=$(( $(date +%s) + $1 )); shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# ibsim_start NETFILE [IBSIM-OPTION...]: the simulator, its console on fd 7.
ibsim_start() {
	_net=$1; shift
	mkfifo "$T/ibsim.console"
	ibsim "$@" -s "$_net" <"$T/ibsim.console" >"$T/ibsim.log" 2>&1 &
	IBSIM_PID=$!
	cleanup_add "stop_pid $IBSIM_PID"
	exec 7>"$T/ibsim.console"
	cleanup_add "exec 7>&-"
	wait_for 20 grep -q "simulator ready" "$T/ibsim.log" || { diag "$(cat "$T/ibsim.log")"; return 1; }
}

# ibsim_cmd COMMAND EXPECT: a console command, and the text it answers with.
ibsim_cmd() {
	echo "$1" >&7
	wait_for 10 grep -qF -- "$2" "$T/ibsim.log"
}

# sim HOST CMD...: run CMD attached to node HOST of the simulated fabric.
sim() {
	_h=$1; shift
	(cd "$RUN" && SIM_HOST=$_h LD_PRELOAD="$UMAD2SIM" "$@")
}
# fab HOST ARGS...: fabtop attached to node HOST.
fab() {
	_h=$1; shift
	(cd "$RUN" && SIM_HOST=$_h LD_PRELOAD="$FAB_PRELOAD" "$FABTOP" "$@")
}
fab_helper() {
	_h=$1; shift
	(cd "$RUN" && SIM_HOST=$_h LD_PRELOAD="$FAB_PRELOAD" "$@")
}

# sysfs_hold HOST: umad2sim writes ./sys-PID/sys for a process once it calls
# libibumad and removes it at exit, so a helper attached to HOST holds one
# for fabtop to read with --sysfs (fabtop checks that the tree's node GUIDs
# are what its own libibumad sees before it sends any MAD). Sets HOLD_SYS.
sysfs_hold() {
	(cd "$RUN" && SIM_HOST=$1 LD_PRELOAD="$FAB_PRELOAD" exec "$TOP_BUILDDIR/tests/mad/mad_sample" 600000 2) \
		>"$T/holder.out" 2>&1 &
	HOLDER_PID=$!
	cleanup_add "stop_pid $HOLDER_PID"
	HOLD_SYS="$RUN/sys-$HOLDER_PID/sys"
	wait_for 20 test -f "$HOLD_SYS/class/infiniband/ibsim0/node_guid" ||
		diag "no umad2sim tree: $(cat "$T/holder.out")"
}

# opensm_start HOST [DIR]: the SM on HOST (its files in DIR, default $T/osm);
# returns when it is MASTER and HOST's port is ACTIVE; OSM_PID is its pid.
opensm_start() {
	_od=${2:-$T/osm}
	mkdir -p "$_od"
	(cd "$_od" && SIM_HOST=$1 LD_PRELOAD="$UMAD2SIM" OSM_TMP_DIR="$_od" OSM_CACHE_DIR="$_od" \
		exec opensm -f "$_od/osm.log" >"$_od/out" 2>&1) &
	OSM_PID=$!
	cleanup_add "stop_pid $OSM_PID"
	wait_for 60 grep -q "Entering MASTER state" "$_od/out" || { diag "$(tail -20 "$_od/out")"; return 1; }
	port_active "$1"
}

# port_active HOST: wait until HOST's port 1 is ACTIVE with a LID (ibstat's view).
_port_active() { sim "$1" ibstat 2>/dev/null | grep -q "State: Active"; }
port_active() {
	wait_for 30 _port_active "$1" || { diag "$1 never became ACTIVE" "$(sim "$1" ibstat 2>&1)"; return 1; }
}

# bg_start NAME CMD...: a background helper stopped by pid at exit.
bg_start() {
	_n=$1; shift
	"$@" >"$T/$_n.out" 2>&1 &
	eval "${_n}_PID=\$!"
	cleanup_add "stop_pid \$${_n}_PID"
}
