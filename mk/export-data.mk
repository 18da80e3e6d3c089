# SPDX-License-Identifier: GPL-2.0-or-later
# data/ for `fabtop export`: the systemd unit, the Prometheus scrape config and
# alert rules and the Grafana dashboard, installed as examples, and the tests
# that check each against the real tool that reads it.
exportexamplesdir = $(docdir)/examples
dist_exportexamples_DATA = data/fabtop-alerts.yml data/prometheus-fabtop.yml data/fabtop-grafana.json \
	data/fabtop-fabric-alerts.yml data/fabtop-fabric-grafana.json

TESTS += tests/export/alerts.sh tests/export/fabric-alerts.sh
EXTRA_DIST += tests/export/alerts.sh tests/export/fabtop-alerts.test.yml \
	tests/export/fabric-alerts.sh tests/export/fabtop-fabric-alerts.test.yml

# The unit names the installed binary, so it is made from a template at build
# time; `make installcheck` checks the installed copy.
EXTRA_DIST += data/fabtop-exporter.service.in
CLEANFILES = data/fabtop-exporter.service
if SYSTEMD_UNIT
systemdsystemunitdir = $(SYSTEMD_SYSTEM_UNIT_DIR)
systemdsystemunit_DATA = data/fabtop-exporter.service
installcheck_unitdir = $(DESTDIR)$(systemdsystemunitdir)
else
installcheck_unitdir =
endif
data/fabtop-exporter.service: $(srcdir)/data/fabtop-exporter.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) data && \
	sed -e 's|@bindir[@]|$(bindir)|g' '$(srcdir)/data/fabtop-exporter.service.in' >$@.tmp && mv $@.tmp $@
# distcheck installs into a private prefix: so does the unit (systemd's own
# directory is outside it).
AM_DISTCHECK_CONFIGURE_FLAGS += --with-systemdsystemunitdir='$$(prefix)/lib/systemd/system'

TESTS += tests/export/systemd-unit.sh
EXTRA_DIST += tests/export/systemd-unit.sh

# The dashboard's queries run against a real Prometheus scraping real
# exporters; prom-lib.sh holds the Prometheus helpers other tests reuse.
TESTS += tests/export/prometheus-dashboard.sh tests/export/fabric-prometheus.sh
EXTRA_DIST += tests/export/prometheus-dashboard.sh tests/export/prom-lib.sh tests/export/fabric-prometheus.sh
