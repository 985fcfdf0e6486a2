"""Writes CSR offsets (raw little-endian int64, k+1 entries) of a named
distribution of segment lengths, for `tcuc run --offsets`.

    offsets_file.py DIST OUT [--n N] [--seed S]

DIST: equal:S (all S long), uniform:S (lengths uniform in [1, 2S]),
zipf (power law: many tiny, a few huge), halfempty:S (half the segments
empty, the others uniform in [1, 2S]), hugeplus (one segment of n/2 among
tiny ones), k1 (one segment), allempty:K (K empty segments, n = 0), and the
bad files: decreasing, negative, past, first1, odd (7 bytes), none.
"""
import argparse
import random
import struct


def lengths(dist, n, rng):
    name, _, arg = dist.partition(":")
    out = []
    if name == "equal":
        s = int(arg)
        out = [s] * (n // s) + ([n % s] if n % s else [])
    elif name in ("uniform", "halfempty"):
        s, total = int(arg), 0
        while total < n:
            if name == "halfempty" and rng.random() < 0.5:
                out.append(0)
                continue
            length = min(rng.randint(1, 2 * s), n - total)
            out.append(length)
            total += length
    elif name == "zipf":
        total = 0
        while total < n:
            length = min(int(rng.paretovariate(1.1)), n - total)
            out.append(length)
            total += length
    elif name == "hugeplus":
        tiny = [rng.randint(0, 3) for _ in range(n // 4)]
        half = n - sum(tiny)
        at = len(tiny) // 2
        out = tiny[:at] + [half] + tiny[at:]
    elif name == "k1":
        out = [n]
    elif name == "allempty":
        out = [0] * int(arg)
    else:
        raise SystemExit("unknown distribution " + dist)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dist")
    p.add_argument("out")
    p.add_argument("--n", type=int, default=100003)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    bad = {"decreasing": [0, 5, 3, 9], "negative": [0, -1, 4],
           "past": [0, 9, 4], "first1": [1, 2, 4], "none": []}
    if a.dist == "odd":
        open(a.out, "wb").write(b"1234567")
        return
    if a.dist in bad:
        offsets = bad[a.dist]
    else:
        offsets = [0]
        for length in lengths(a.dist, a.n, random.Random(a.seed)):
            offsets.append(offsets[-1] + length)
    open(a.out, "wb").write(struct.pack("<%dq" % len(offsets), *offsets))


if __name__ == "__main__":
    main()
