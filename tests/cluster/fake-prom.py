#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# A fake Prometheus HTTP API for the Cluster pane's tests and benchmark:
# answers /api/v1/query for the queries fabtop sends, about N synthetic
# hosts, on loopback only, and exits by itself after --lifetime seconds.
import argparse
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

STATE_DOWN, STATE_ACTIVE = 1, 4


def port_series(args):
    """(instance, device, port, host index, port number) of every port."""
    for h, name in enumerate(args.names):
        for p in range(1, args.ports + 1):
            yield f"{name}:9879", "mlx5_0", str(p), h, p


def vector(samples):
    result = [{"metric": m, "value": [1700000000.0, v]} for m, v in samples]
    return {"status": "success", "data": {"resultType": "vector", "result": result}}


def family_answer(args, query):
    ports = list(port_series(args))
    # The last port of the second host is down and has errors: something to see.
    def down(h, p):
        return h == 1 and p == args.ports

    def labels(name, inst, dev, port, **extra):
        d = {"__name__": name, "instance": inst, "job": "fabtop", "device": dev, "port": port}
        d.update(extra)
        return d

    if "__name__=~" in query:
        m = re.search(r'instance="([^"]*)", device="([^"]*)", port="([^"]*)"', query)
        if not m:
            return 400, {"status": "error", "errorType": "bad_data", "error": "no instance in details query"}
        inst, dev, port = m.groups()
        rows = [x for x in ports if x[:3] == (inst, dev, port)]
        out = []
        for i, d, p, h, n in rows:
            out.append((labels("fabtop_port_state", i, d, p), str(STATE_DOWN if down(h, n) else STATE_ACTIVE)))
            out.append((labels("fabtop_port_rate_bytes_per_second", i, d, p), "12500000000"))
            out.append((labels("fabtop_port_receive_bytes_total", i, d, p), str(1000000 * (h + 1))))
            out.append((labels("fabtop_link_partner_info", i, d, p, partner_desc=f"leaf{h % 4:02d}",
                               partner_port=str(n + 10), partner_guid="0x1", partner_type="Switch"), "1"))
        return 200, vector(out)
    if "fabtop_port_state" in query:
        return 200, vector((labels("fabtop_port_state", i, d, p), str(STATE_DOWN if down(h, n) else STATE_ACTIVE))
                           for i, d, p, h, n in ports)
    if "fabtop_port_rate_bytes_per_second" in query:
        return 200, vector((labels("fabtop_port_rate_bytes_per_second", i, d, p), "12500000000")
                           for i, d, p, h, n in ports)
    if "fabtop_port_receive_bytes_total" in query or "fabtop_port_transmit_bytes_total" in query:
        scale = 3 if "receive" in query else 5
        return 200, vector(({"instance": i, "device": d, "port": p}, str(scale * 1e9 * (h % 7) / 7))
                           for i, d, p, h, n in ports)
    if "fabtop_port_counter_total" in query:
        return 200, vector(({"instance": i, "device": d, "port": p}, "17" if down(h, n) else "0")
                           for i, d, p, h, n in ports)
    if "fabtop_link_partner_info" in query:
        return 200, vector((labels("fabtop_link_partner_info", i, d, p, partner_desc=f"leaf{h % 4:02d}",
                                   partner_port=str(n + 10), partner_guid="0x1", partner_type="Switch"), "1")
                           for i, d, p, h, n in ports if not down(h, n))
    if "fabtop_doctor_finding" in query:
        return 200, vector(({"instance": f"{name}:9879"}, "2") for h, name in enumerate(args.names) if h == 1)
    return 400, {"status": "error", "errorType": "bad_data", "error": f"fake-prom does not know: {query}"}


def handler(args):
    cache = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *a):
            if args.verbose:
                sys.stderr.write("fake-prom: " + fmt % a + "\n")

        def answer(self, query):
            if args.hang:
                # A server that takes the request and never answers: fabtop's timeout must end it.
                time.sleep(args.lifetime)
                return
            with lock:
                if query not in cache:
                    code, doc = family_answer(args, query)
                    cache[query] = (code, json.dumps(doc).encode())
                code, body = cache[query]
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            u = urlparse(self.path)
            if u.path != "/api/v1/query":
                self.send_error(404)
                return
            self.answer(parse_qs(u.query).get("query", [""])[0])

        def do_POST(self):
            n = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(n).decode())
            if urlparse(self.path).path != "/api/v1/query":
                self.send_error(404)
                return
            self.answer(form.get("query", [""])[0])

    return Handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file", help="write the bound port here once listening")
    ap.add_argument("--hosts", type=int, default=3)
    ap.add_argument("--ports", type=int, default=2, help="ports per host")
    ap.add_argument("--names", help="comma list of host names (else node0001...)")
    ap.add_argument("--lifetime", type=float, default=120, help="exit after this many seconds")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--hang", action="store_true", help="accept queries and never answer")
    args = ap.parse_args()
    args.names = args.names.split(",") if args.names else [f"node{i:04d}" for i in range(1, args.hosts + 1)]
    # Loopback only: a test must never listen on the machine's network.
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), handler(args))
    srv.daemon_threads = True
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{srv.server_address[1]}\n")
        os.rename(tmp, args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
