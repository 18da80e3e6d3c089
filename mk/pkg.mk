# SPDX-License-Identifier: GPL-2.0-or-later
# Packaging: debian/ (tools/deb-check.sh builds, lints, installs and purges
# the package in bare Debian roots) and the RPM spec, made by configure from
# fabtop.spec.in and shipped in the tarball so `rpmbuild -ta` takes it as is
# (tools/rpm-check.sh lints it and builds the source RPM).
EXTRA_DIST += COPYING fabtop.spec.in fabtop.spec fabtop.rpmlintrc \
	tools/deb-check.sh tools/rpm-check.sh \
	debian/changelog debian/control debian/copyright debian/docs debian/rules \
	debian/source/format debian/README.Debian debian/fabtop.lintian-overrides
