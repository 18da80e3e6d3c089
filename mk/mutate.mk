# SPDX-License-Identifier: GPL-2.0-or-later
# The mutation benchmark (tests/README, "Writing a check that can fail"):
# `make mutate` applies each mutant of tests/bench/mutants alone to a copy
# of the tree under mutate/ in the build directory, rebuilds it, runs the
# tests that cover the mutant and prints the kill rate; `make bench` runs it
# too. Its copy is kept between runs (a second run rebuilds little) and
# removed by make clean.
BENCHES += tests/bench/mutate.sh
EXTRA_DIST += tests/bench/mutate.sh tests/bench/mutants tests/README
mutate: all
	FABTOP='$(abs_top_builddir)/src/fabtop' TOP_SRCDIR='$(abs_top_srcdir)' \
	TOP_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(top_srcdir)/tests/bench/mutate.sh $(MUTANTS)
.PHONY: mutate
clean-local: clean-mutate
clean-mutate:
	rm -rf mutate
.PHONY: clean-mutate
