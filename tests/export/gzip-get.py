#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# gzip-get.py ADDR ACCEPT AE OUT [AE OUT ...]: GET http://ADDR/metrics
# with Accept: ACCEPT ("-": none) and Accept-Encoding: AE ("-": none) for
# each pair, one right after the other, the body decoded into OUT. Prints
# a line "STATUS ENCODING VARY WHOLE" per request: ENCODING the
# Content-Encoding ("-": none), VARY the Vary header ("-": none), WHOLE
# "one-member" when a gzip body is exactly one whole member (its CRC and
# length checked by zlib), else what it is.
import socket
import sys
import zlib

addr, accept = sys.argv[1:3]
host, port = addr.rsplit(":", 1)


def get(ae, out):
    req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    if ae != "-":
        req += b"Accept-Encoding: " + ae.encode() + b"\r\n"
    if accept != "-":
        req += b"Accept: " + accept.encode() + b"\r\n"
    s = socket.create_connection((host, int(port)), timeout=10)
    s.sendall(req + b"\r\n")
    data = []
    while True:
        b = s.recv(1 << 16)
        if not b:
            break
        data.append(b)
    s.close()
    head, _, body = b"".join(data).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    enc = headers.get("content-encoding", "-")
    whole = "plain"
    if enc == "gzip":
        z = zlib.decompressobj(31)
        try:
            body = z.decompress(body)
            if not z.eof:
                whole = "cut-short"
            elif z.unused_data:
                whole = "more-after-the-member"
            else:
                whole = "one-member"
        except zlib.error as e:
            whole = "invalid:" + str(e).replace(" ", "_")
    if int(headers.get("content-length", "-1")) not in (-1, len(b"".join(data)) - len(head) - 4):
        whole += ",content-length-wrong"
    open(out, "wb").write(body)
    print(lines[0].split(" ")[1], enc, headers.get("vary", "-").replace(" ", ""), whole)


for i in range(3, len(sys.argv) - 1, 2):
    get(sys.argv[i], sys.argv[i + 1])
