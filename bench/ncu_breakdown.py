#!/usr/bin/env python3
"""Where a kernel's instructions go, from ncu's per-SASS-instruction counts.

Reads the CSV of `ncu -i REPORT --page source --csv --print-source sass`
(optionally gzipped: bench/results/*/ncu/sass_*.csv.gz) and prints

  - thread instructions an element, in all and by opcode (the top ones);
  - the warp instructions between landmarks (barriers, global loads and
    stores, mma, votes, atomics, strong loads and stores), divided by
    `--per` (e.g. the warps times the tickets of a lagged scan), so that
    per-ticket and per-tile work can be told apart.

  bench/ncu_breakdown.py sass_f16.csv.gz --elements 268435456 \\
      --per $((4 * (268435456 / 2048 + 2048)))
"""
import argparse
import collections
import csv
import gzip
import re

LANDMARK = re.compile(r"BAR\.SYNC|LDG|STG|HMMA|VOTE\.ANY P0|ATOM|EXIT|"
                      r"LD\.E\.64\.STRONG|ST\.E\.64")


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        table = list(csv.reader(f))
    # The first line names the kernel; the second is the header.
    header = table[1]
    count = header.index("Instructions Executed")
    source = header.index("Source")
    for r in table[2:]:
        yield int(r[count] or 0), r[source].strip()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv")
    p.add_argument("--elements", type=int, required=True,
                   help="elements the kernel processed (n)")
    p.add_argument("--per", type=float, default=1.0,
                   help="divide the landmark sums by this (warps x tickets)")
    p.add_argument("--top", type=int, default=24)
    p.add_argument("--min", type=float, default=2.0,
                   help="print landmark segments of at least this many")
    args = p.parse_args()

    data = list(rows(args.csv))
    total = sum(n for n, _ in data)
    ops = collections.Counter()
    for n, src in data:
        op = re.sub(r"^@!?U?P\w+\s+", "", src).split()
        ops[op[0] if op else "?"] += n
    print(f"thread instructions an element: {total * 32 / args.elements:.2f}")
    print("  " + "  ".join(f"{op} {c * 32 / args.elements:.2f}"
                           for op, c in ops.most_common(args.top)))
    print(f"warp instructions per unit (--per {args.per:g}): "
          f"{total / args.per:.1f}; between landmarks:")
    start, acc = 0, 0
    for i, (n, src) in enumerate(data):
        acc += n
        if LANDMARK.search(src) or i == len(data) - 1:
            if acc / args.per >= args.min:
                print(f"  {start:5d}-{i:5d} {acc / args.per:7.1f}  {src[:50]}")
            start, acc = i + 1, 0


if __name__ == "__main__":
    main()
