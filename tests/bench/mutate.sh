#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make mutate (and make bench): the mutation benchmark. Each mutant of
# tests/bench/mutants (a small, plausible bug: file, exact original text,
# replacement, the tests that cover it) is applied alone to a COPY of the
# tree, which is rebuilt incrementally; its covering tests run; the copy is
# restored. A table says which mutants were killed and by which test, then
# the kill rate. It fails when a mutant survives, when its original text is
# not found exactly once, when it does not build, or when its covering
# tests fail (or all skip) without it. The working tree is never touched.
#
#   mutate.sh [NAME...]     only these mutants
#   FABTOP_MUTATE_DIR       the copy and its build (default TOP_BUILDDIR/mutate;
#                           kept between runs, so a second run rebuilds little)
#   FABTOP_MUTATE_TIMEOUT   seconds a mutant's tests may take (default 600: a
#                           hang is a kill, by timeout)
#   FABTOP_MUTATE_ABSENT=1  a covering test missing from the tree is left out
#                           instead of an error (to score an older suite)
set -eu
export LC_ALL=C
: "${TOP_SRCDIR:?TOP_SRCDIR must be set (make mutate sets it)}"
: "${TOP_BUILDDIR:?TOP_BUILDDIR must be set (make mutate sets it)}"
LIST=${FABTOP_MUTANTS_FILE:-$TOP_SRCDIR/tests/bench/mutants}
W=${FABTOP_MUTATE_DIR:-$TOP_BUILDDIR/mutate}
TMO=${FABTOP_MUTATE_TIMEOUT:-600}
JOBS=${FABTOP_MUTATE_JOBS:-2}
# The inner make check must run the tests as make check does: a skip is a
# skip there, not make bench's failure.
unset FABTOP_BENCH FABTOP MAKEFLAGS MFLAGS MAKELEVEL 2>/dev/null || :

die() { echo "mutate: $*" >&2; exit 1; }
command -v perl >/dev/null 2>&1 || die "perl is needed to apply the mutants (Debian: perl-base)"
[ -r "$LIST" ] || die "no mutant list at $LIST"
W=$(mkdir -p "$W" && cd "$W" && pwd)
SRC=$(cd "$TOP_SRCDIR" && pwd)
case "$W/" in "$SRC/"*/*) inside=${W#"$SRC/"}; inside=${inside%%/*} ;; *) inside= ;; esac
C="$W/tree"
B="$C/build"
LOG="$W/log"
mkdir -p "$C" "$LOG"

# field LINE N: the Nth " @@ " field of a list line, \t as a tab, trimmed.
field() {
	printf '%s\n' "$1" | perl -ne 'chomp; my @f = split / @@ /, $_, -1; my $v = $f['"$2"'] // "";
		$v =~ s/^\s+|\s+$//g; $v =~ s/\\t/\t/g; print $v'
}

# ---- the copy: every top-level entry of the source tree but .git, build
# directories (those holding config.status) and this work directory.
sync_copy() {
	for e in "$SRC"/* "$SRC"/.[!.]*; do
		[ -e "$e" ] || continue
		n=${e##*/}
		case "$n" in .git) continue ;; esac
		[ -n "$inside" ] && [ "$n" = "$inside" ] && continue
		[ -d "$e" ] && [ -f "$e/config.status" ] && continue
		[ -e "$e/mutants" ] && [ -d "$e/tree" ] && continue	# another mutate work dir
		# tar keeps the times: make then rebuilds what changed in the tree only
		(cd "$SRC" && tar cf - "$n") | (cd "$C" && tar xf -)
	done
	# A mutant left in by a run that was killed: its file's time is older than
	# the object built from it, so make would not see the restored text.
	if [ -s "$W/dirty" ]; then
		touch "$C/$(cat "$W/dirty")"
		rm -f "$W/dirty"
	fi
}

configure_copy() {
	[ -f "$B/config.status" ] && return 0
	if [ ! -x "$C/configure" ]; then
		(cd "$C" && autoreconf -fi) >"$LOG/autoreconf" 2>&1 || die "autoreconf in the copy failed: $LOG/autoreconf"
	fi
	# The main build's options, without -Werror (a mutant may warn).
	opts=$(cd "$TOP_BUILDDIR" && ./config.status --config 2>/dev/null | sed "s/'--enable-werror'//") || opts=
	mkdir -p "$B"
	echo "mutate: configuring the copy in $B"
	# shellcheck disable=SC2086
	(cd "$B" && eval "../configure $opts") >"$LOG/configure" 2>&1 || die "configure in the copy failed: $LOG/configure"
}

# is_c_test NAME: a program (no .sh): make check must build it.
is_c_test() { case "$1" in *.sh) return 1 ;; *) return 0 ;; esac; }
# present NAME: the test is in the tree.
present() { [ -f "$C/$1" ] || [ -f "$C/$1.c" ]; }

# run_tests LABEL TESTS...: make check of just these tests in the copy;
# sets failed (the tests that failed), skipped (the tests that only
# skipped), passed, and status (0, or 124 for a timeout).
run_tests() {
	label=$1; shift
	progs=""
	for t in "$@"; do is_c_test "$t" && progs="$progs $t"; done
	# Automake names a .sh test's results without its extension.
	for t in "$@"; do rm -f "$B/${t%.sh}.log" "$B/${t%.sh}.trs"; done
	set +e
	timeout "$TMO" make -C "$B" -j"$JOBS" check TESTS="$*" check_PROGRAMS="${progs# }" \
		>"$LOG/$label" 2>&1
	status=$?
	set -e
	failed="" skipped="" passed=""
	for t in "$@"; do
		r=$(sed -n 's/^:global-test-result: //p' "$B/${t%.sh}.trs" 2>/dev/null || :)
		case "$r" in
		PASS) passed="$passed $t" ;;
		SKIP) skipped="$skipped $t" ;;
		"") [ "$status" = 124 ] && failed="$failed $t(timeout)" || failed="$failed $t(no result)" ;;
		*) failed="$failed $t" ;;
		esac
	done
}

# ---- the list
names=""
n=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	name=$(field "$line" 0)
	if [ -z "$name" ] || [ -z "$(field "$line" 4)" ]; then
		die "line '$line': expected NAME @@ FILE @@ ORIGINAL @@ REPLACEMENT @@ TESTS"
	fi
	case " $names " in *" $name "*) die "mutant $name is listed twice" ;; esac
	names="$names $name"
done <"$LIST"
if [ $# -gt 0 ]; then
	for a in "$@"; do case " $names " in *" $a "*) ;; *) die "no mutant named $a in $LIST" ;; esac; done
	want=" $* "
else
	want=" $names "
fi

sync_copy
configure_copy
echo "mutate: building the copy (make -C $B)"
make -C "$B" -j"$JOBS" >"$LOG/build" 2>&1 || die "the copy does not build: $LOG/build"

# ---- every mutant's original text, exactly once; the covering tests, present
alltests=""
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	name=$(field "$line" 0)
	case "$want" in *" $name "*) ;; *) continue ;; esac
	file=$(field "$line" 1)
	[ -f "$C/$file" ] || die "$name: no file $file"
	cnt=$(FROM=$(field "$line" 2) perl -0777 -ne '$n = () = /\Q$ENV{FROM}\E/g; print $n' "$C/$file")
	[ "$cnt" = 1 ] || die "$name: the original text occurs $cnt times in $file (must be exactly once): $(field "$line" 2)"
	for t in $(field "$line" 4); do
		if ! present "$t"; then
			[ "${FABTOP_MUTATE_ABSENT:-}" = 1 ] || die "$name: covering test $t is not in the tree"
			continue
		fi
		case " $alltests " in *" $t "*) ;; *) alltests="$alltests $t" ;; esac
	done
done <"$LIST"

# ---- without any mutant, every covering test passes (or a kill would mean nothing)
echo "mutate: the covering tests without a mutant:$alltests"
# shellcheck disable=SC2086
[ -z "$alltests" ] || run_tests baseline $alltests
[ -z "$failed" ] || die "without a mutant these tests fail:$failed (see $LOG/baseline and the copy's logs in $B)"
[ -z "$skipped" ] || echo "mutate: these tests skip here, so they kill nothing:$skipped"
baseline_skipped=$skipped

# ---- one mutant at a time
printf '%-26s %-28s %-9s %s\n' MUTANT FILE RESULT "KILLED BY" >"$W/table"
killed=0 total=0 bad=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	name=$(field "$line" 0)
	case "$want" in *" $name "*) ;; *) continue ;; esac
	file=$(field "$line" 1)
	tests=""
	for t in $(field "$line" 4); do
		present "$t" || continue
		case " $baseline_skipped " in *" $t "*) continue ;; esac
		tests="$tests $t"
	done
	total=$((total + 1))
	if [ -z "$tests" ]; then
		printf '%-26s %-28s %-9s %s\n' "$name" "$file" survived "(no covering test runs here)" | tee -a "$W/table"
		bad=$((bad + 1))
		continue
	fi
	cp -p "$C/$file" "$W/orig"
	echo "$file" >"$W/dirty"
	FROM=$(field "$line" 2) TO=$(field "$line" 3) perl -0777 -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$C/$file"
	if cmp -s "$C/$file" "$W/orig"; then
		cp -p "$W/orig" "$C/$file"; rm -f "$W/dirty"
		die "$name: the replacement changed nothing in $file"
	fi
	if ! make -C "$B" -j"$JOBS" >"$LOG/$name.build" 2>&1; then
		result=error by="does not build: $LOG/$name.build"
		bad=$((bad + 1))
	else
		# shellcheck disable=SC2086
		run_tests "$name" $tests
		if [ -n "$failed" ]; then
			result=killed by=${failed# }
			killed=$((killed + 1))
		elif [ -z "$passed" ]; then
			result=error by="its tests only skipped:$skipped"
			bad=$((bad + 1))
		else
			result=survived by="(ran:$passed)"
			bad=$((bad + 1))
		fi
	fi
	# Restore with a fresh time: the next build puts the original back.
	cp "$W/orig" "$C/$file"
	touch "$C/$file"
	printf '%-26s %-28s %-9s %s\n' "$name" "$file" "$result" "$by" | tee -a "$W/table" | sed 's/^/mutate: /'
done <"$LIST"
make -C "$B" -j"$JOBS" >"$LOG/restore" 2>&1 || die "the restored copy does not build: $LOG/restore"
rm -f "$W/dirty"

echo
cat "$W/table"
pct=0
[ "$total" -eq 0 ] || pct=$((100 * killed / total))
echo "kill rate: $killed of $total mutants ($pct%)"
[ "$bad" -eq 0 ] || { echo "mutate: $bad mutant(s) not killed (table above; logs in $LOG)" >&2; exit 1; }
