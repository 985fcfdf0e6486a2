#!/usr/bin/env python3
"""Runs `tcuc run --device cpu --check --json` over a grid of segment sizes,
dtypes and scan modes for one (op, variant) and fails if any result misses
the float64 reference. Used by the lit tests beside this file."""

import argparse
import json
import os
import subprocess
import sys

ODD_SIZES = [1, 7, 48, 1000, 4097]
N = 1000003  # around 1e6 and prime: every segment size > 1 leaves a short tail
LIMITS = {"seg16": 16, "seg256": 256, "packed": 256}
# Variants that take only multiples of 16, and the sizes they run instead:
# one segment a tile (256), 16 (one row each), 3 and 7 rows (rows left
# over at the tile's end), and 2, 4 and 8 rows (a reduction's segments as
# blocks of tile columns).
MULTIPLES_OF_16 = {"packed": [16, 32, 48, 64, 112, 128, 256]}
# The streaming scan takes segments of 16 and more: 16 (a head at every
# row start), 17 and 100 (heads that walk across rows), 48, 1000, and 4097
# (longer than its 4096-element items: one segment an item).
STREAM_SIZES = [16, 17, 48, 100, 1000, 4097]
# `--variant class`: the default strategy under TCUC_SEGMENT_KERNELS=class,
# the class kernels that take the size at launch (each class's ends, odd
# sizes inside, and 8193 and 2^20 + 1, past the classes: per-size kernels).
CLASS_SIZES = [1, 3, 7, 10, 15, 16, 17, 100, 256, 257, 1000, 4097, 8192, 8193,
               (1 << 20) + 1]
# `--reverse`: reverse (suffix) scans at these sizes (segments of 1, 10,
# 16, 100, 3000, 4097 on ~1e6 elements: none divides it), plus inputs
# shorter than a segment (n = 1, 10, 100: one short segment, all padding
# but n elements of the mirrored view).
REVERSE_SIZES = [1, 10, 16, 100, 3000, 4097]
REVERSE_SMALL_N = [1, 10, 100]
# `--variant auto`: the default strategy with TCUC_SEGMENT_KERNELS unset
# (auto) at the same sizes; each run must have taken the kernel the
# documented rule names (docs/runtime.md "Segment classes").


VARIANTS = {
    "reduce": ["seg16", "seg256", "seg256n", "seg16n_strided",
               "seg16n_coalesced", "block", "grid", "packed"],
    "scan": ["seg16", "seg256", "seg256n", "seg16n", "block", "grid",
             "packed", "lookback", "lagged", "stream", "matmulscan"],
}
DTYPES = ["f16", "bf16", "f32", "i8"]


def dtypes_for(variant, dtypes=DTYPES):
    """The dtypes a variant takes (stream: no f32 input)."""
    return [d for d in dtypes if not (variant == "stream" and d == "f32")]


def run_env(variant):
    """The environment of `tcuc run`: class kernels for `--variant class`,
    the default (auto) otherwise."""
    env = dict(os.environ)
    env.pop("TCUC_SEGMENT_KERNELS", None)
    if variant == "class":
        env["TCUC_SEGMENT_KERNELS"] = "class"
    return env


def auto_takes_class(op, dtype, segment):
    """The auto rule: the stream class for 16-bit and i8 scans of 17..8192
    that are not a multiple of 16."""
    return (op == "scan" and dtype != "f32" and 16 < segment <= 8192 and
            segment % 16 != 0)


def cases(op, variant, odd_sizes=ODD_SIZES, n=N, reverse=False):
    """(segment, n, mode) of the grid for one op and variant: the odd sizes
    on ~1e6 elements, and a segment longer than the whole input. `reverse`:
    the reverse scans' sizes (REVERSE_SIZES) and modes."""
    limit = LIMITS.get(variant)
    if reverse and odd_sizes is ODD_SIZES:
        odd_sizes = REVERSE_SIZES
    if variant in MULTIPLES_OF_16:
        # The default grid runs the variant's own sizes (ODD_SIZES has only
        # one multiple of 16); sizes asked for run as given.
        odd_sizes = MULTIPLES_OF_16[variant] if odd_sizes is ODD_SIZES else \
            [s for s in odd_sizes if s % 16 == 0]
    if variant == "stream":
        odd_sizes = STREAM_SIZES if odd_sizes is ODD_SIZES else \
            [s for s in odd_sizes if s >= 16]
    if variant in ("class", "auto") and odd_sizes is ODD_SIZES and \
            not reverse:
        odd_sizes = CLASS_SIZES
    sizes = [s for s in odd_sizes if limit is None or s <= limit]
    if limit is not None and limit not in sizes:
        sizes.append(limit)
    longest = limit or 5000
    shapes = [(s, n) for s in sizes] + [(longest, longest - 3)]
    if reverse:
        shapes += [(sizes[min(1, len(sizes) - 1)], small)
                   for small in REVERSE_SMALL_N]
    modes = ["inclusive", "exclusive"] if op == "scan" else ["reduce"]
    if reverse:
        modes = [m + " reverse" for m in modes]
    return [(s, n, m) for m in modes for s, n in shapes]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tcuc", required=True)
    p.add_argument("--op", choices=["reduce", "scan"], required=True)
    p.add_argument("--variant", required=True)
    p.add_argument("--dtypes", default="f16,bf16,f32,i8")
    p.add_argument("--out-dtype",
                   help="output element type (default: the op's for dtype)")
    p.add_argument("--tiles-per-warp", type=int,
                   help="tiles in flight per warp")
    p.add_argument("--warps-per-block", type=int,
                   help="warps of a block (block, lookback and lagged variants)")
    p.add_argument("--sizes", help="only these of the odd segment sizes")
    p.add_argument("--n", type=int, default=N, help="elements per run")
    p.add_argument("--reverse", action="store_true",
                   help="reverse (suffix) scans, at their own sizes")
    args = p.parse_args()

    failures, runs = [], 0
    for dtype in dtypes_for(args.variant, args.dtypes.split(",")):
        sizes = ([int(x) for x in args.sizes.split(",")] if args.sizes
                 else ODD_SIZES)
        if args.reverse and not args.sizes:
            sizes = ODD_SIZES  # cases() takes REVERSE_SIZES for it
        for segment, n, mode in cases(args.op, args.variant, sizes,
                                      args.n, args.reverse):
            cmd = [args.tcuc, "run", "--device", "cpu", "--op", args.op,
                   "--dtype", dtype, "--segment", str(segment), "--n", str(n),
                   "--seed", str(segment + n), "--check", "--json"]
            if args.variant not in ("class", "auto"):
                cmd += ["--variant", args.variant]
            if args.out_dtype:
                cmd += ["--out-dtype", args.out_dtype]
            if mode.startswith("exclusive"):
                cmd.append("--exclusive")
            if mode.endswith("reverse"):
                cmd.append("--reverse")
            if args.tiles_per_warp:
                cmd += ["--tiles-per-warp", str(args.tiles_per_warp)]
            if args.warps_per_block:
                cmd += ["--warps-per-block", str(args.warps_per_block)]
            runs += 1
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  env=run_env(args.variant))
            try:
                result = json.loads(proc.stdout)
            except ValueError:
                result = None
            wrong_kernel = (
                args.variant == "auto" and result is not None and
                (result.get("segment_kernel") == "class") !=
                auto_takes_class(args.op, dtype, segment))
            # A reverse run must say it ran reverse (and a forward one not).
            wrong_mode = (result is not None and
                          result.get("reverse") != mode.endswith("reverse"))
            if (proc.returncode != 0 or not result or not result["ok"] or
                    wrong_kernel or wrong_mode):
                failures.append((" ".join(cmd), proc.returncode,
                                 proc.stdout.strip(), proc.stderr.strip() +
                                 (" (auto ran the wrong kind of kernel)"
                                  if wrong_kernel else "") +
                                 (" (the run's reverse flag is wrong)"
                                  if wrong_mode else "")))
            else:
                print(f"ok {args.op} {result['variant']} "
                      f"{result['segment_kernel']} {mode} {dtype} "
                      f"segment={segment} n={n} rel_err={result['rel_err']} "
                      f"seq_f32={result['seq_f32_rel_err']}")
    for cmd, rc, out, err in failures:
        print(f"FAIL (exit {rc}): {cmd}\n  {out}\n  {err}")
    print(f"{runs - len(failures)} of {runs} runs passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
