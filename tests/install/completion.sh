#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop.bash-completion: bash completes commands, sections, options and
# their values, in step with what the binary says it accepts.
. "$TOP_SRCDIR/tests/setup.sh"
C="$TOP_SRCDIR/data/fabtop.bash-completion"

# comp WORD...: what bash offers for the last word (one per line, sorted).
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fabtop
		printf "%s\n" "${COMPREPLY[@]}"' _ "$C" "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}

assert_eq "complete -p fabtop" "complete -F _fabtop fabtop" "$(bash -c '. "$1"; complete -p fabtop' _ "$C")"
assert_eq "fabtop sh<TAB>" "show" "$(comp fabtop sh)"
assert_eq "fabtop counters <TAB>" "qp" "$(comp fabtop counters '')"
assert_eq "fabtop counters qp <TAB>: the actions" "disable enable show" "$(comp fabtop counters qp '')"
assert_eq "--counters <TAB>: every mode" "auto netlink pma sysfs" "$(comp fabtop --counters '')"
assert_eq "fabtop <TAB>: the commands" "counters doctor export help lab monitor probe record show trace version" "$(comp fabtop '')"
assert_eq "fabtop help <TAB>: the commands" "counters doctor export help lab monitor probe record show trace version" "$(comp fabtop help '')"
assert_eq "fabtop show ports <TAB>: the RDMA devices, as ibstat takes them" "mlx4_0" \
	"$(comp fabtop --sysfs "$DATA/trees/ib-2port" show ports '')"
assert_eq "fabtop show gids DEV <TAB>: its ports" "1 2" "$(comp fabtop --sysfs "$DATA/trees/ib-2port" show gids mlx4_0 '')"
assert_match "fabtop probe -<TAB>: rping's options" '(^| )-I .*-P .*-V -a -c -d -s -v( |$)' "$(comp fabtop probe -)"
assert_eq "rping's -a value does not hide the command" "--debug" "$(comp fabtop probe -c -a 10.0.0.1 --deb)"
assert_eq "fabtop monitor --d<TAB>" "--demo --device" "$(comp fabtop monitor --d)"
assert_eq "fabtop --dev<TAB> (the monitor with no command word)" "--device" "$(comp fabtop --dev)"
sections=$("$FABTOP" show --help | sed -n 's/^Sections: \(.*\) (default.*/\1/p' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
assert_eq "fabtop show <TAB>: the sections show --help lists" "$sections" "$(comp fabtop show '')"
assert_eq "fabtop --sy<TAB>" "--sysfs" "$(comp fabtop --sy)"
assert_eq "global options before the command do not hide it" "counters" "$(comp fabtop --sysfs /x --demo show cou)"
scen=$({ "$FABTOP" --demo list | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p'; echo list; } | sort | tr '\n' ' ' | sed 's/ $//')
assert_eq "fabtop --demo <TAB>: the scenarios --demo list names, and list" "$scen" \
	"$(comp fabtop --demo '' | tr ' ' '\n' | grep -v -x -e show -e doctor -e probe -e export -e record -e counters -e monitor | tr '\n' ' ' | sed 's/ $//')"
assert_eq "a scenario after --demo does not hide the command" "counters" "$(comp fabtop --demo no-sm show cou)"
formats=$("$FABTOP" doctor --help | sed -n 's/.*--fix \([a-z|-]*\)$/\1/p' | tr '|' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
assert_eq "fabtop doctor --fix <TAB>: the formats doctor --help lists" "$formats" "$(comp fabtop doctor --fix '')"
panes=$("$FABTOP" monitor --help | sed -n 's/.*Panes: \(.*\)\./\1/p' | tr -d ',' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
assert_eq "fabtop --pane <TAB>: the panes the monitor knows" "$panes" "$(comp fabtop --pane '')"
assert_eq "fabtop probe --mode <TAB>" "bw lat rping" "$(comp fabtop probe 10.0.0.1 --mode '')"
assert_match "fabtop probe --ti<TAB>" "--timeout-ms" "$(comp fabtop probe --ti)"
offered=" $(comp fabtop export --) "
missing=""
for o in $("$FABTOP" export --help | grep -o -- '--[a-z-]*' | sort -u); do
	case $offered in *" $o "*) ;; *) missing="$missing $o" ;; esac
done
assert_eq "fabtop export --<TAB>: every option export --help names" "" "$missing"
mkdir -p "$T/trees/ib"
assert_eq "--sysfs <TAB> completes directories" "$T/trees" "$(comp fabtop --sysfs "$T/tr")"
assert_eq "--device <TAB>: the RDMA devices under --sysfs" "mlx4_0" \
	"$(comp fabtop --sysfs "$DATA/trees/ib-2port" probe --lid 1 --device '')"
assert_eq "fabtop --prom<TAB>" "--prometheus" "$(comp fabtop --prom)"
assert_eq "--prometheus <TAB>: the URL schemes" "http:// https://" "$(comp fabtop --prometheus '')"
assert_eq "--prometheus's value does not hide the command" "show" "$(comp fabtop --prometheus http://x:9090 sh)"
assert_eq "--interval <TAB>: a number, nothing offered" "" "$(comp fabtop --interval '')"
if command -v shellcheck >/dev/null 2>&1; then
	check "shellcheck -s bash, warnings and up" shellcheck -s bash -S warning "$C"
else
	not_ok "shellcheck is not installed (tools/debian-packages lists it)"
fi
done_testing
