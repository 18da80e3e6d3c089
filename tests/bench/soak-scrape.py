#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The soak's scraper: GET /metrics from ADDR every 100 ms for SECONDS, then
# stop; while the file HOLD exists (the soak samples the server's fds) it
# waits. A scrape is answered when it comes back 200, whole (as long as its
# Content-Length, or up to the close) and holds fabtop's own metrics.
# Prints "ANSWERED TOTAL WORST_MS"; the first failures go to stderr.
import os
import sys
import time

sys.dont_write_bytecode = True	# nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rawhttp  # noqa: E402  (tests/rawhttp.py)

addr, seconds, hold = sys.argv[1], float(sys.argv[2]), sys.argv[3]
host, port = addr.rsplit(":", 1)
port = int(port)


def scrape():
    status, headers, body, head_len = rawhttp.get(host, port, timeout=5)
    if status is None:
        return "no header end (%d bytes)" % head_len
    if status.split(" ")[1:2] != ["200"]:
        return "status line %r" % status[:80]
    if "content-length" in headers and int(headers["content-length"]) != len(body):
        return "body %d bytes of %d" % (len(body), int(headers["content-length"]))
    if b"\nfabtop_exporter_" not in b"\n" + body or not body.endswith(b"\n"):
        return "body without fabtop's metrics (%d bytes)" % len(body)
    return None


answered = total = 0
worst = 0.0
failures = 0
start = time.monotonic()
next_t = start
while time.monotonic() - start < seconds:
    while os.path.exists(hold) and time.monotonic() - start < seconds:
        time.sleep(0.05)
        next_t = time.monotonic()
    t0 = time.monotonic()
    total += 1
    try:
        err = scrape()
    except OSError as e:
        err = "%s: %s" % (type(e).__name__, e)
    dt = time.monotonic() - t0
    worst = max(worst, dt)
    if err is None:
        answered += 1
    else:
        failures += 1
        if failures <= 10:
            print("scrape %d at %.1f s: %s" % (total, t0 - start, err), file=sys.stderr)
    next_t += 0.1
    delay = next_t - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    else:
        next_t = time.monotonic()	# late: no burst to catch up
print(answered, total, "%.0f" % (worst * 1000))
