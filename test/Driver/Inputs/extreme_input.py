"""Writes N elements (f16, bf16 and f32 files) of uniform values with runs of
the finite values a Tensor Core split loses or overflows on (issue 44):
subnormals and other values below 2^-110, whose bits below 2^-133 no bf16
part holds, and two values of f32's top binade (bf16 rounds them up to
infinity) of opposite sign, far apart, so that no way of grouping a sum
overflows. Used by test/Driver/extreme-values.test and
test/gpu/run_on_gpu.sh reliability.

    python3 extreme_input.py OUT.f16 OUT.bf16 OUT.f32 [N]
"""
import random
import struct
import sys

f16_path, b16, f32 = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
random.seed(5)
x = [random.uniform(-2, 2) for _ in range(n)]


def run(start, length, value):
    for i in range(start, min(n, start + length)):
        x[i] = value * random.choice((1, 1, 1, -1)) * random.choice((1, 2, 3))


FLT_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
# Runs at fixed fractions of N, each about N / 20 long: the smallest
# subnormal, a larger subnormal, a normal value below 2^-110.
for frac, value in ((0.30, 1.4e-45), (0.50, 1e-40), (0.70, 1e-35)):
    run(int(frac * n), max(n // 20, 40), value)
big = [(int(0.05 * n) + 3, 3.395e38), (int(0.95 * n) + 1, -FLT_MAX)]
for i, v in big:
    x[i] = v


def f32bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def bf16(v):
    """Round to nearest even, but the top-binade values toward zero (bf16's
    largest finite, so they stay finite)."""
    b = f32bits(v)
    if (b & 0x7FFFFFFF) >= 0x7F7F8000:
        return (b >> 16) & 0xFFFF
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def f16(v):
    """f16's own extremes in place of f32's: its largest finite and its
    subnormals (the values above stay where f16 has them)."""
    if abs(v) > 65504:
        return 65504.0 if v > 0 else -65504.0
    if 0 < abs(v) < 6e-5:
        return 6e-8 if v > 0 else -6e-8
    return v


open(f16_path, "wb").write(struct.pack(f"<{n}e", *[f16(v) for v in x]))
open(b16, "wb").write(struct.pack(f"<{n}H", *[bf16(v) for v in x]))
open(f32, "wb").write(struct.pack(f"<{n}f", *x))
