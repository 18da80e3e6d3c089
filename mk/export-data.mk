# SPDX-License-Identifier: GPL-2.0-or-later
# data/ for `fabtop export`: the systemd unit, the Prometheus scrape config and
# alert rules and the Grafana dashboard, installed as examples, and the tests
# that check each against the real tool that reads it.
exportexamplesdir = $(docdir)/examples
dist_exportexamples_DATA = data/fabtop-alerts.yml

TESTS += tests/export/alerts.sh
EXTRA_DIST += tests/export/alerts.sh tests/export/fabtop-alerts.test.yml
