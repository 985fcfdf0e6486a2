"""Writes N elements (f16, bf16 and f32 files) of uniform values with NaN,
+Inf and -Inf spread out, so most segments stay finite. Used by
test/Driver/nan-inf.test (N = 5000) and test/gpu/run_on_gpu.sh reliability.

    python3 nan_inf_input.py OUT.f16 OUT.bf16 OUT.f32 [N]
"""
import math
import random
import struct
import sys

f16, b16, f32 = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
random.seed(3)
x = [random.uniform(-2, 2) for _ in range(n)]
# Positions spread over the array; for N = 5000 they are 9, 1234, 4321 (NaN),
# 40, 2600 (+Inf), 41, 3700 (-Inf), then every 9973/7919/11003 beyond.
for start, step, v in ((9, 9973, math.nan), (1234, 9973, math.nan),
                       (4321, 9973, math.nan), (40, 7919, math.inf),
                       (2600, 7919, math.inf), (41, 11003, -math.inf),
                       (3700, 11003, -math.inf)):
    for i in range(start, n, step):
        x[i] = v


def bf16(v):
    """Round to nearest even; NaN stays a quiet NaN."""
    if v != v:
        return 0x7FC0
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


open(f16, "wb").write(struct.pack(f"<{n}e", *x))
open(b16, "wb").write(struct.pack(f"<{n}H", *[bf16(v) for v in x]))
open(f32, "wb").write(struct.pack(f"<{n}f", *x))
