# SPDX-License-Identifier: GPL-2.0-or-later
"""One HTTP/1.1 GET over a plain socket, read to the close, for the tests'
scrapers: they see every byte the server sent (no client library to hide
a body cut short or to decode gzip on its own)."""
import socket


def get(host, port, path="/metrics", headers=(), timeout=10):
    """GET path with the (name, value) headers. Returns (status line or
    None when the answer has no end of header, {lower-case name: value},
    body, the bytes of the header). Raises OSError."""
    req = b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    for name, value in headers:
        req += name.encode() + b": " + value.encode() + b"\r\n"
    s = socket.create_connection((host, int(port)), timeout=timeout)
    try:
        s.sendall(req + b"\r\n")
        data = []
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            data.append(b)
    finally:
        s.close()
    head, sep, body = b"".join(data).partition(b"\r\n\r\n")
    if not sep:
        return None, {}, head, len(head)
    lines = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    return lines[0], fields, body, len(head)
