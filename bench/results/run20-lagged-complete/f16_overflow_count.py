# Count the prefix sums of tcuc run's random f16 input (seed, n) whose f16
# rounding overflows (|S| >= 65520): the outputs a correct f16-output scan
# must store as +-inf while the float64 reference stays finite.
import numpy as np, sys
seed, n = int(sys.argv[1]), int(sys.argv[2])
M = np.uint64(0xFFFFFFFFFFFFFFFF)
G = np.uint64(0x9e3779b97f4a7c15)
C = 1 << 24
carry = 0.0; over = 0; total = 0
with np.errstate(over='ignore'):
    for start in range(0, n, C):
        cnt = min(C, n - start)
        i = np.arange(start + 1, start + cnt + 1, dtype=np.uint64)
        z = np.uint64(seed) + i * G
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        r = z ^ (z >> np.uint64(31))
        k = (r >> np.uint64(40)).astype(np.int64) - (1 << 23)
        v = k.astype(np.float32) * np.float32(2.0 ** -23)
        sc = (r & np.uint64(7)) == 0
        e = ((r >> np.uint64(3)) % np.uint64(13)).astype(np.int64) - 6
        v = np.where(sc, np.ldexp(v, e.astype(np.int32)).astype(np.float32), v)
        h = v.astype(np.float16).astype(np.float64)
        s = np.cumsum(h) + carry
        carry = s[-1]
        over += int(np.count_nonzero(np.abs(s) >= 65520.0))
        total += cnt
print("n", total, "overflowing prefixes", over, "final sum", carry)
