# f16_overflow_count.py SEED N [TCUC]: counts the prefix sums of `tcuc run`'s
# random f16 input (seed SEED, n = N) whose rounding to f16 overflows
# (|S| >= 65520): outputs a correct f16-output scan stores as +-inf while
# the float64 reference stays finite. The generator mirrors
# ref::makeRandomInput (compiler/lib/Reference/Reference.cpp: SplitMix64,
# the top 24 bits as a multiple of 2^-23 in [-1, 1), 1 in 8 scaled by
# 2^-6..2^6, rounded once to f16); with TCUC (a tcuc binary) it first checks
# that mirror against tcuc itself: the first 2^20 prefix sums of
# `tcuc run --device cpu --seed SEED` (f32 output) must match.
import os, subprocess, sys, tempfile
import numpy as np

seed, n = int(sys.argv[1]), int(sys.argv[2])
G = np.uint64(0x9e3779b97f4a7c15)


def inputs(start, count):
    with np.errstate(over='ignore'):
        i = np.arange(start + 1, start + count + 1, dtype=np.uint64)
        z = np.uint64(seed) + i * G
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        r = z ^ (z >> np.uint64(31))
    k = (r >> np.uint64(40)).astype(np.int64) - (1 << 23)
    v = k.astype(np.float32) * np.float32(2.0 ** -23)
    scaled = (r & np.uint64(7)) == 0
    e = ((r >> np.uint64(3)) % np.uint64(13)).astype(np.int32) - 6
    v = np.where(scaled, np.ldexp(v, e).astype(np.float32), v)
    return v.astype(np.float16).astype(np.float64)


if len(sys.argv) > 3:
    m = 1 << 20
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.bin")
        subprocess.run([sys.argv[3], "run", "--device", "cpu", "--op", "scan",
                        "--dtype", "f16", "--segment", str(m), "--n", str(m),
                        "--seed", str(seed), "--output", out], check=True,
                        capture_output=True)
        got = np.fromfile(out, dtype=np.float32).astype(np.float64)
    want = np.cumsum(inputs(0, m))
    err = np.max(np.abs(got - want)) / np.max(np.abs(want))
    print(f"mirror check against tcuc (first {m}): max rel err {err:.2e}")
    if not err < 1e-5:
        sys.exit("the generator mirror does not match tcuc's")

C = 1 << 24
carry, over = 0.0, 0
for start in range(0, n, C):
    s = np.cumsum(inputs(start, min(C, n - start))) + carry
    carry = s[-1]
    over += int(np.count_nonzero(np.abs(s) >= 65520.0))
print("n", n, "overflowing prefixes", over, "final sum", carry)
