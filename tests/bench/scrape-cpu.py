#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU a server process spends per scrape: COUNT sequential GET /metrics,
# the process's utime+stime before and after (/proc/PID/stat). Then
# CONCURRENT scrapes at once, all of which must come back whole.
# Prints "cpu_ms_per_scrape BYTES SAMPLES CONCURRENT_OK CONCURRENT_S".
import os
import socket
import sys
import threading
import time

pid, addr, count, concurrent = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
host, port = addr.rsplit(":", 1)
port = int(port)
tick = os.sysconf("SC_CLK_TCK")


def cpu_s():
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick	# utime, stime


def scrape():
    s = socket.create_connection((host, port), timeout=30)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = []
    while True:
        b = s.recv(1 << 16)
        if not b:
            break
        data.append(b)
    s.close()
    data = b"".join(data)
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b" ")[1] == b"200", body


ok, body = scrape()		# warm-up, and the page's size
if not ok:
    sys.exit("bench: the first scrape failed")
c0 = cpu_s()
for _ in range(count):
    ok, _ = scrape()
    if not ok:
        sys.exit("bench: a scrape failed")
c1 = cpu_s()
samples = sum(1 for l in body.split(b"\n") if l and not l.startswith(b"#"))

results = []
lock = threading.Lock()


def one():
    try:
        r = scrape()
    except OSError:
        r = (False, b"")
    with lock:
        results.append(r[0] and len(r[1]) > 0)


threads = [threading.Thread(target=one) for _ in range(concurrent)]
t0 = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join(60)
print("%.3f %d %d %d %.3f" % ((c1 - c0) * 1000 / count, len(body), samples, sum(results), time.monotonic() - t0))
