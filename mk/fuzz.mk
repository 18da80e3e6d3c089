# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer harnesses, one per parser of bytes from outside: ./configure
# CC=clang --enable-fuzzing, then `make fuzz FUZZ_SECONDS=N` runs each on
# its seed corpus (tests/data/fuzz/NAME) and fails on any crash, keeping the
# input in fuzz-crashes/.
FUZZERS = tests/fuzz/fuzz_wire tests/fuzz/fuzz_netlink tests/fuzz/fuzz_mad \
	tests/fuzz/fuzz_text tests/fuzz/fuzz_settings tests/fuzz/fuzz_prom \
	tests/fuzz/fuzz_server tests/fuzz/fuzz_record
FUZZ_SRCS = tests/fuzz/fuzz_wire.c tests/fuzz/fuzz_netlink.c tests/fuzz/fuzz_mad.c \
	tests/fuzz/fuzz_text.c tests/fuzz/fuzz_settings.c tests/fuzz/fuzz_prom.c \
	tests/fuzz/fuzz_server.c tests/fuzz/fake_rdma.c tests/fuzz/fake_rdma.h tests/fuzz/replay.c \
	tests/fuzz/fuzz_record.c tests/fuzz/record_seeds.sh
EXTRA_DIST += $(FUZZ_SRCS) tests/data/fuzz tests/fuzz/server_seeds.py
FUZZ_SECONDS = 30
# Memory is a crash too: an input that makes a parser allocate past these
# (a few bytes that ask for gigabytes) fails the run like an overflow. The
# largest a reader allocates by design is the recording index (96 MiB at
# record/reader.h's limit); ASan's shadow and quarantine are in the RSS.
FUZZ_LIMITS = -rss_limit_mb=1024 -malloc_limit_mb=128

# fuzz_server runs the real probe server over tests/fuzz/fake_rdma.c: every
# rdma_* and ibv_* it calls (nm -u src/probe/*.o), and util_now_ns for a
# clock the input moves, resolve to the fake's __wrap_NAME. ibv_post_send,
# ibv_post_recv, ibv_poll_cq and ibv_req_notify_cq are static inlines
# through ibv_context.ops: the fake's context carries its own.
FAKE_RDMA_WRAP = -Wl,--wrap=rdma_create_event_channel,--wrap=rdma_destroy_event_channel \
	-Wl,--wrap=rdma_create_id,--wrap=rdma_destroy_id,--wrap=rdma_bind_addr,--wrap=rdma_listen \
	-Wl,--wrap=rdma_get_cm_event,--wrap=rdma_ack_cm_event,--wrap=rdma_accept,--wrap=rdma_reject \
	-Wl,--wrap=rdma_disconnect,--wrap=rdma_create_qp,--wrap=rdma_destroy_qp \
	-Wl,--wrap=rdma_resolve_addr,--wrap=rdma_resolve_route,--wrap=rdma_connect \
	-Wl,--wrap=ibv_alloc_pd,--wrap=ibv_dealloc_pd,--wrap=ibv_create_comp_channel \
	-Wl,--wrap=ibv_destroy_comp_channel,--wrap=ibv_create_cq,--wrap=ibv_destroy_cq \
	-Wl,--wrap=ibv_get_cq_event,--wrap=ibv_ack_cq_events,--wrap=ibv_reg_mr,--wrap=ibv_reg_mr_iova2 \
	-Wl,--wrap=ibv_dereg_mr,--wrap=ibv_query_qp,--wrap=ibv_query_port,--wrap=util_now_ns
FAKE_RDMA_SRCS = tests/fuzz/fuzz_server.c tests/fuzz/fake_rdma.c tests/fuzz/fake_rdma.h

# The same harness under every build: `make check` replays its seeds (one TAP
# line each), so the fake's invariants hold in every test run, not only in CI's fuzz step.
check_PROGRAMS += tests/fuzz/replay_server
TESTS += tests/fuzz/replay_server
tests_fuzz_replay_server_SOURCES = tests/fuzz/replay.c $(FAKE_RDMA_SRCS)
tests_fuzz_replay_server_LDADD = $(TEST_LDADD)
tests_fuzz_replay_server_LDFLAGS = $(AM_LDFLAGS) $(FAKE_RDMA_WRAP)

# The recording reader's seeds, replayed in every test run.
check_PROGRAMS += tests/fuzz/replay_record
TESTS += tests/fuzz/replay_record
tests_fuzz_replay_record_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_record.c
tests_fuzz_replay_record_LDADD = $(TEST_LDADD)

if FUZZING
noinst_PROGRAMS = $(FUZZERS)
tests_fuzz_fuzz_record_SOURCES = tests/fuzz/fuzz_record.c
tests_fuzz_fuzz_record_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_record_LDFLAGS = $(FUZZ_LINK)
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
tests_fuzz_fuzz_server_SOURCES = $(FAKE_RDMA_SRCS)
tests_fuzz_fuzz_server_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_server_LDFLAGS = $(FUZZ_LINK) $(FAKE_RDMA_WRAP)

# Each harness on a copy of its seeds (new inputs land in the copy, not the
# tree), as many at once as make's -j allows; each says its lines when done.
fuzz: $(FUZZERS)
	@rm -f fuzz-failed-*; mkdir -p fuzz-crashes
	@$(MAKE) $(AM_MAKEFLAGS) $(FUZZERS:tests/fuzz/%=fuzz-run-%)
	@failed=$$(for f in fuzz-failed-*; do [ -e "$$f" ] && printf ' %s' "$${f#fuzz-failed-}"; done); \
	if [ -n "$$failed" ]; then echo "fuzz: crashed:$$failed (inputs in fuzz-crashes/)"; exit 1; fi
fuzz-run-%: tests/fuzz/%
	@n=$*; rm -rf fuzz-corpus/$$n; mkdir -p fuzz-corpus/$$n; \
	cp $(srcdir)/tests/data/fuzz/$${n#fuzz_}/* fuzz-corpus/$$n/ 2>/dev/null || :; \
	{ echo "== $$n: $(FUZZ_SECONDS) s from $$(ls fuzz-corpus/$$n | wc -l) seeds"; \
	if ./tests/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) $(FUZZ_LIMITS) -artifact_prefix=fuzz-crashes/$$n- \
		-print_final_stats=1 fuzz-corpus/$$n >fuzz-$$n.log 2>&1; then \
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' fuzz-$$n.log | tail -2; \
	else \
		tail -40 fuzz-$$n.log; touch fuzz-failed-$$n; \
	fi; } >fuzz-$$n.said; cat fuzz-$$n.said
else
fuzz:
	@echo "fuzz: configure with CC=clang --enable-fuzzing first" >&2; exit 1
endif
.PHONY: fuzz
