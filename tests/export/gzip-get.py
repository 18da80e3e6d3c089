#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# gzip-get.py ADDR ACCEPT AE OUT [AE OUT ...]: GET http://ADDR/metrics
# with Accept: ACCEPT ("-": none) and Accept-Encoding: AE ("-": none) for
# each pair, one right after the other, the body decoded into OUT. Prints
# a line "STATUS ENCODING VARY WHOLE" per request: ENCODING the
# Content-Encoding ("-": none), VARY the Vary header ("-": none), WHOLE
# "one-member" when a gzip body is exactly one whole member (its CRC and
# length checked by zlib), else what it is.
import os
import sys
import zlib

sys.dont_write_bytecode = True	# nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rawhttp  # noqa: E402  (tests/rawhttp.py)

addr, accept = sys.argv[1:3]
host, port = addr.rsplit(":", 1)


def get(ae, out):
    headers = []
    if ae != "-":
        headers.append(("Accept-Encoding", ae))
    if accept != "-":
        headers.append(("Accept", accept))
    status, headers, body, head_len = rawhttp.get(host, port, headers=headers)
    if status is None:
        sys.exit("gzip-get.py: an answer without the end of its header")
    sent = len(body)
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
    if int(headers.get("content-length", "-1")) not in (-1, sent):
        whole += ",content-length-wrong"
    open(out, "wb").write(body)
    print(status.split(" ")[1], enc, headers.get("vary", "-").replace(" ", ""), whole)


for i in range(3, len(sys.argv) - 1, 2):
    get(sys.argv[i], sys.argv[i + 1])
