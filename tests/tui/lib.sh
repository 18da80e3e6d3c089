# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the terminal tests: fabtop runs in a private tmux server
# (socket fabtop-PID, killed at exit); tests send keys and poll the screen
# for the text they expect, with a deadline, never a fixed sleep.
# Source after tests/setup.sh.

command -v tmux >/dev/null 2>&1 || skip_all "tmux not installed (apt-get install tmux)"

# One private server per session (fabtop-PID-N): a server being killed
# must not be reused by the next session.
_tui_n=0
TUI_SOCK="fabtop-$$-0"
# The config file is ignored so a user's ~/.tmux.conf cannot change what we see.
tui() { tmux -L "$TUI_SOCK" -f /dev/null "$@"; }

# tui_start W H [ENV=VALUE...] -- ARGS...: fabtop in a fresh W x H session.
# After fabtop the shell prints FABTOP-EXIT=rc, then waits (so the screen
# after exit can be inspected). TERM=screen is in every ncurses-base.
# TUI_WRAP, if set, is a command prefix (e.g. "ip netns exec NS").
tui_start() {
	_w=$1 _h=$2
	shift 2
	_env="TERM=screen XDG_CONFIG_HOME=$T/cfg"
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		_env="$_env $1"
		shift
	done
	[ $# -gt 0 ] && shift
	tui kill-server >/dev/null 2>&1 || true
	_tui_n=$((_tui_n + 1))
	TUI_SOCK="fabtop-$$-$_tui_n"
	cleanup_add "tmux -L $TUI_SOCK kill-server >/dev/null 2>&1"
	tui new-session -d -s fab -x "$_w" -y "$_h" -c "${TUI_CWD:-$PWD}" \
		"env $_env ${TUI_WRAP:-} $FABTOP $*; echo FABTOP-EXIT=\$?; sleep 600"
}

tui_screen() { tui capture-pane -p -t fab; }
tui_keys() { tui send-keys -t fab "$@"; }
tui_resize() { tui resize-window -t fab -x "$1" -y "$2"; }
# The pid of the pane's shell, and of fabtop (its child) while it runs,
# found through /proc so no procps is needed.
tui_pid() { tui list-panes -t fab -F '#{pane_pid}'; }
tui_app_pid() {
	_pp=$(tui_pid)
	for _d in /proc/[0-9]*; do
		# field 4 of stat is the parent pid (fabtop's comm has no blanks)
		if [ "$(cut -d' ' -f4 "$_d/stat" 2>/dev/null)" = "$_pp" ]; then
			echo "${_d#/proc/}"
			return 0
		fi
	done
	return 1
}

# tui_wait TEXT [SECONDS]: poll until the screen shows TEXT (fixed string).
tui_wait() {
	_deadline=$(( $(date +%s) + ${2:-10} ))
	while :; do
		tui_screen >"$T/screen" 2>/dev/null || :
		grep -Fq -- "$1" "$T/screen" && return 0
		[ "$(date +%s)" -ge "$_deadline" ] && return 1
		sleep 0.1
	done
}

# tui_wait_gone TEXT [SECONDS]: poll until TEXT is no longer on the screen.
tui_wait_gone() {
	_deadline=$(( $(date +%s) + ${2:-10} ))
	while :; do
		tui_screen >"$T/screen" 2>/dev/null || :
		grep -Fq -- "$1" "$T/screen" || return 0
		[ "$(date +%s)" -ge "$_deadline" ] && return 1
		sleep 0.1
	done
}

# tui_expect_re DESC ERE [SECONDS]: poll until a screen line matches ERE (grep -E).
tui_expect_re() {
	if tui_wait_re "$2" "${3:-10}"; then ok "$1"; else not_ok "$1"; diag "waited for /$2/" "screen:"; diag "$(cat "$T/screen")"; fi
}

# tui_wait_re ERE [SECONDS]: poll the screen for a regular expression (the screen stays in $T/screen).
tui_wait_re() {
	_deadline=$(( $(date +%s) + ${2:-10} ))
	while :; do
		tui_screen >"$T/screen" 2>/dev/null || :
		grep -Eq -- "$1" "$T/screen" && return 0
		[ "$(date +%s)" -ge "$_deadline" ] && return 1
		sleep 0.1
	done
}

# tui_expect DESC TEXT [SECONDS] / tui_expect_gone DESC TEXT [SECONDS]: TAP results.
tui_expect() {
	if tui_wait "$2" "${3:-10}"; then ok "$1"; else not_ok "$1"; diag "waited for: $2" "screen:"; diag "$(cat "$T/screen")"; fi
}
tui_expect_gone() {
	if tui_wait_gone "$2" "${3:-10}"; then ok "$1"; else not_ok "$1"; diag "still there: $2" "screen:"; diag "$(cat "$T/screen")"; fi
}

# tui_expect_after DESC TEXT SECONDS CMD...: TEXT must not be on the screen
# yet; CMD causes the event, then TEXT must appear. A wait for text that is
# already there (a column header, say) returns at once and proves nothing:
# this fails instead.
tui_expect_after() {
	_ad=$1 _at=$2 _as=$3
	shift 3
	tui_screen >"$T/screen" 2>/dev/null || :
	if grep -Fq -- "$_at" "$T/screen"; then
		not_ok "$_ad"; diag "already on the screen before the event: $_at" "screen:"; diag "$(cat "$T/screen")"
		"$@" || :
		return 0
	fi
	"$@" || :
	tui_expect "$_ad" "$_at" "$_as"
}
# tui_expect_gone_after DESC TEXT SECONDS CMD...: TEXT must be on the screen
# now; CMD causes the event, then TEXT must go.
tui_expect_gone_after() {
	_ad=$1 _at=$2 _as=$3
	shift 3
	tui_screen >"$T/screen" 2>/dev/null || :
	if ! grep -Fq -- "$_at" "$T/screen"; then
		not_ok "$_ad"; diag "not on the screen before the event: $_at" "screen:"; diag "$(cat "$T/screen")"
		"$@" || :
		return 0
	fi
	"$@" || :
	tui_expect_gone "$_ad" "$_at" "$_as"
}

# tui_exit_status: fabtop's exit status as the pane's shell printed it (the
# whole FABTOP-EXIT=N line, after a tui_wait), or nothing.
tui_exit_status() { sed -n 's/^FABTOP-EXIT=\([0-9][0-9]*\) *$/\1/p' "$T/screen" | head -n 1; }
# tui_expect_exit DESC WANT...: fabtop has exited, and with exactly one of WANT.
tui_expect_exit() {
	_xd=$1
	shift
	tui_wait "FABTOP-EXIT=" 10 || :
	rc=$(tui_exit_status)
	assert_rc "$_xd" "$@"
}

# tui_line TEXT: the first screen line holding TEXT (after a tui_wait).
tui_line() { grep -F -- "$1" "$T/screen" | head -n 1; }

# tui_click X Y: a left-button press and release at column X, row Y
# (0-based), as xterm X10 mouse reports, which ncurses decodes for
# TERM=screen (kmous=\E[M).
tui_click() {
	_p=$(printf '\\%03o\\%03o\\%03o' 32 $((33 + $1)) $((33 + $2)))
	_r=$(printf '\\%03o\\%03o\\%03o' 35 $((33 + $1)) $((33 + $2)))
	tui send-keys -t fab -l "$(printf "\033[M$_p\033[M$_r")"
}

# tui_quit: press q and wait for the shell to report fabtop's exit status.
tui_quit() {
	tui_keys q
	tui_wait "FABTOP-EXIT=" 10
}
