#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The soak's scraper: GET /metrics from ADDR every 100 ms for SECONDS, then
# stop; while the file HOLD exists (the soak samples the server's fds) it
# waits. A scrape is answered when it comes back 200, whole (as long as its
# Content-Length, or up to the close) and holds fabtop's own metrics.
# Prints "ANSWERED TOTAL WORST_MS"; the first failures go to stderr.
import os
import socket
import sys
import time

addr, seconds, hold = sys.argv[1], float(sys.argv[2]), sys.argv[3]
host, port = addr.rsplit(":", 1)
port = int(port)


def scrape():
    s = socket.create_connection((host, port), timeout=5)
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = []
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            data.append(b)
    finally:
        s.close()
    data = b"".join(data)
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return "no header end (%d bytes)" % len(data)
    lines = head.split(b"\r\n")
    if lines[0].split(b" ")[1:2] != [b"200"]:
        return "status line %r" % lines[0][:80]
    for h in lines[1:]:
        k, _, v = h.partition(b":")
        if k.strip().lower() == b"content-length" and int(v) != len(body):
            return "body %d bytes of %d" % (len(body), int(v))
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
