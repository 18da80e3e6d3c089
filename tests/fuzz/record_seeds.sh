#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes tests/data/fuzz/record/ from a short demo recording: the whole file
# (first byte 0) and its record bodies past the framing (first byte 1), as
# tests/fuzz/fuzz_record.c reads them; and the same of each further
# recording named (the MAD views of one made on ibsim by tests/record/ibsim.sh,
# the probe runs of one made by tests/record/tui.sh, the subnets of one made
# by `fabtop record` on ibsim as tests/tui/fabric-replay.sh does, the RoCE
# chains of `fabtop --demo roce-v1 record`, which the demo's own recording
# has too). Needs a built fabtop, zstd, python3.
# Usage: tests/fuzz/record_seeds.sh FABTOP OUTDIR [RECORDING NAME]...
set -eu
fabtop=$1 out=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
"$fabtop" --demo --seed 7 record "$tmp/r" --interval 0.1 --count 4 2>/dev/null
seeds() { # RECORDING NAME
{ printf '\000'; cat "$1"; } >"$out/file-$2"
# the stream after the format line, decompressed (an unclosed stream is fine: zstd -d stops at its end)
tail -n +2 "$1" | zstd -d -c >"$tmp/stream" 2>/dev/null || :
python3 - "$tmp/stream" "$out/bodies-$2" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
def varint(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if not x & 0x80:
            return r, i
def put(v):
    o = bytearray()
    while True:
        x = v & 0x7f; v >>= 7
        o.append(x | (0x80 if v else 0))
        if not v:
            return bytes(o)
def body(rec):
    # the record's field 3, or the whole record (samples hold their port entries at top level)
    i = 0
    while i < len(rec):
        k, i = varint(rec, i)
        if k & 7 == 0:
            _, i = varint(rec, i)
        elif k & 7 == 1:
            i += 8
        else:
            n, i = varint(rec, i)
            if k >> 3 == 3:
                return rec[i:i + n]
            i += n
    return rec
out = bytearray(b'\x01')
i = 0
kinds = {2: 0, 4: 1, 3: 2, 5: 3, 8: 4, 9: 5, 10: 6, 11: 7}
while i < len(d):
    t, i = varint(d, i); n, i = varint(d, i); rec = d[i:i + n]; i += n + 4
    if t in kinds:
        b = rec if t in (3, 4) else body(rec)
        out += put(kinds[t]) + put(len(b)) + b
open(sys.argv[2], 'wb').write(out)
PY
}
seeds "$tmp/r" demo
while [ $# -ge 2 ]; do
	seeds "$1" "$2"
	shift 2
done
