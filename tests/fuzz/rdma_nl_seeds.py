#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the seeds of fuzz_rdma_nl (tests/data/fuzz/rdma_nl) from the recorded
# dumps (tests/data/rdma-nl): each as recorded, cut short, with a corrupt
# attribute length, with an attribute of an unknown type, and as an error.
# usage: rdma_nl_seeds.py SRCDIR
import os
import struct
import sys

top = sys.argv[1] if len(sys.argv) > 1 else "."
src = os.path.join(top, "tests/data/rdma-nl")
out = os.path.join(top, "tests/data/fuzz/rdma_nl")
os.makedirs(out, exist_ok=True)


def put(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def first_msg(data):
    n = struct.unpack_from("=I", data, 0)[0]
    return bytearray(data[:n])


for kind in ("dev", "qp", "cm_id", "cq", "mr", "pd"):
    with open(os.path.join(src, kind + ".bin"), "rb") as f:
        data = f.read()
    put(kind + ".bin", data)
    put(kind + "-cut.bin", data[: len(data) // 2])
    m = first_msg(data)
    if len(m) > 24:
        bad = bytearray(m)
        # the first attribute (after the 16-byte header) claims more than the message holds
        struct.pack_into("=H", bad, 16, len(m))
        put(kind + "-nla-len.bin", bytes(bad))
        # an attribute type no header knows, appended; the message length follows
        unk = bytearray(m) + struct.pack("=HHQ", 12, 0x3ff, 7)
        struct.pack_into("=I", unk, 0, len(unk))
        put(kind + "-unknown-attr.bin", bytes(unk))
# the kernel's refusal: NLMSG_ERROR with -EPERM
put("eperm.bin", struct.pack("=IHHII", 36, 2, 0, 1, 0) + struct.pack("=i", -1) + bytes(16))
