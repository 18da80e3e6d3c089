# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer harnesses, one per parser of bytes from outside: ./configure
# CC=clang --enable-fuzzing, then `make fuzz FUZZ_SECONDS=N` runs each on
# its seed corpus (tests/data/fuzz/NAME) and fails on any crash, keeping the
# input in fuzz-crashes/.
FUZZERS = tests/fuzz/fuzz_wire tests/fuzz/fuzz_netlink tests/fuzz/fuzz_mad \
	tests/fuzz/fuzz_text tests/fuzz/fuzz_settings tests/fuzz/fuzz_prom
FUZZ_SRCS = tests/fuzz/fuzz_wire.c tests/fuzz/fuzz_netlink.c tests/fuzz/fuzz_mad.c \
	tests/fuzz/fuzz_text.c tests/fuzz/fuzz_settings.c tests/fuzz/fuzz_prom.c
EXTRA_DIST += $(FUZZ_SRCS) tests/data/fuzz
FUZZ_SECONDS = 30

if FUZZING
noinst_PROGRAMS = $(FUZZERS)
FUZZ_LINK = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wire_SOURCES = tests/fuzz/fuzz_wire.c
tests_fuzz_fuzz_wire_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_wire_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_netlink_SOURCES = tests/fuzz/fuzz_netlink.c
tests_fuzz_fuzz_netlink_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_netlink_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_mad_SOURCES = tests/fuzz/fuzz_mad.c
tests_fuzz_fuzz_mad_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_mad_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_text_SOURCES = tests/fuzz/fuzz_text.c
tests_fuzz_fuzz_text_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_text_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_settings_SOURCES = tests/fuzz/fuzz_settings.c
tests_fuzz_fuzz_settings_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_settings_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_prom_SOURCES = tests/fuzz/fuzz_prom.c
tests_fuzz_fuzz_prom_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_prom_LDFLAGS = $(FUZZ_LINK)

# Each harness on a copy of its seeds (new inputs land in the copy, not the tree).
fuzz: $(FUZZERS)
	@failed=""; mkdir -p fuzz-crashes; for f in $(FUZZERS); do \
		n=$$(basename $$f); rm -rf fuzz-corpus/$$n; mkdir -p fuzz-corpus/$$n; \
		cp $(srcdir)/tests/data/fuzz/$${n#fuzz_}/* fuzz-corpus/$$n/ 2>/dev/null || :; \
		echo "== $$n: $(FUZZ_SECONDS) s from $$(ls fuzz-corpus/$$n | wc -l) seeds"; \
		if ./$$f -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=fuzz-crashes/$$n- \
			-print_final_stats=1 fuzz-corpus/$$n >fuzz-$$n.log 2>&1; then \
			grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' fuzz-$$n.log | tail -2; \
		else \
			tail -40 fuzz-$$n.log; failed="$$failed $$n"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: crashed:$$failed (inputs in fuzz-crashes/)"; exit 1; fi
else
fuzz:
	@echo "fuzz: configure with CC=clang --enable-fuzzing first" >&2; exit 1
endif
.PHONY: fuzz
