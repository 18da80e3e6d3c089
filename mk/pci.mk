# SPDX-License-Identifier: GPL-2.0-or-later
# What lies under a port: the PCIe chain, NUMA and GPUs (fabtop show pci, doctor finding 9).
# The sources are in mk/core.mk: they are read with the host.

# The parsers on every kernel's spelling; the links, the bottleneck, the
# distance classes and the findings on models built in the test.
check_PROGRAMS += tests/pci/test_pci_parse tests/pci/test_pci
TESTS += tests/pci/test_pci_parse tests/pci/test_pci
tests_pci_test_pci_parse_LDADD = $(TEST_LDADD)
tests_pci_test_pci_LDADD = $(TEST_LDADD)

# show pci and the doctor over the fixture trees (tests/data/trees/pci-*, made by mk-pci.sh).
TESTS += tests/pci/show.sh
EXTRA_DIST += tests/pci/show.sh
