#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The RPM spec as a Fedora/RHEL packager meets it, from the `make dist`
# tarball: rpmlint on the spec it carries, `rpmbuild -ts` (the source RPM),
# rpmlint on that. Binary RPMs need Fedora's or RHEL's own -devel packages,
# which Debian does not have: this builds only the source RPM (README).
# usage: tools/rpm-check.sh fabtop-VERSION.tar.gz
# Needs rpm and rpmlint (Debian ships both: apt-get install rpm rpmlint).
set -eu
tarball=$(realpath "${1:?usage: $0 fabtop-VERSION.tar.gz}")
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-rpm.XXXXXX")
trap 'rm -rf "$T"' EXIT
dir=$(basename "$tarball" .tar.gz)
rc=0

# Both come from the tarball: what ships is what is checked.
tar -xzf "$tarball" -C "$T" "$dir/fabtop.spec" "$dir/fabtop.rpmlintrc"
spec=$T/$dir/fabtop.spec

echo "== rpm-check: rpmbuild -ts $(basename "$tarball")"
if rpmbuild -ts --define "_topdir $T/rpmbuild" "$tarball" >"$T/build" 2>&1; then
	srpm=$(sed -n 's/^Wrote: //p' "$T/build")
	echo "rpmbuild: wrote $(basename "$srpm"), which needs:"
	rpm -qpR "$srpm" 2>/dev/null | grep -v '^rpmlib(' | sed 's/^/  BuildRequires: /'
else
	cat "$T/build"
	srpm="" rc=1
fi

# One run over both, so that a filter neither needs is reported as unused.
echo "== rpm-check: rpmlint fabtop.spec $(basename "${srpm:-(no source RPM)}")"
rpmlint -r "$T/$dir/fabtop.rpmlintrc" "$spec" ${srpm:+"$srpm"} >"$T/lint" 2>&1 || rc=1
tail -1 "$T/lint"
grep -E ': [EW]: ' "$T/lint" && rc=1
echo "== rpm-check: $([ $rc = 0 ] && echo clean || echo FAILED)"
exit $rc
