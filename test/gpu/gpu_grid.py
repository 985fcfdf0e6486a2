#!/usr/bin/env python3
"""The GPU correctness grid: every variant x dtype x scan mode on the odd
sizes of the CPU grid (test/Integration/CPU/check_grid.py), a few f16/bf16
outputs, and inputs of 2^31 + 12345 elements (64-bit indexing), each run as
`tcuc run --device gpu --check --json` against the float64 reference.

  gpu_grid.py fill --tcuc build/bin/tcuc --cache-dir DIR   (compiler machine)
  gpu_grid.py run  --tcuc BIN [--jobs 8] [--large]         (GPU machine)

`--variant class`: the class kernels instead (TCUC_SEGMENT_KERNELS=class,
the default strategy at the CPU grid's class sizes, every dtype and scan
mode); with the kernel library (TCUC_KERNEL_LIBRARY) only the sizes past
the classes need a cache.

`--reverse`: the reverse (suffix) scans' grid instead, every scan variant
(with `--variant class`: the class kernels) at the CPU grid's reverse
sizes, both modes, every dtype.

`--decay`: the decayed scans' grid instead (h = a*h + x): decays near 1,
0, negative and 0.5, the sizes of each decayed form (seg16, seg256, the
seg256n class kernel, the grid), every float dtype and scan mode
(offsets: python/tests/test_decay.py on CUDA).

`fill` compiles every kernel the grid needs into a runtime kernel cache, so
a GPU machine without LLVM (a runtime-only build) can run the grid."""

import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Integration",
                                "CPU"))
from check_grid import (DTYPES, VARIANTS, cases, dtypes_for,  # noqa: E402
                        run_env)

LARGE_N = 2**31 + 12345
# (op, variant, dtype, mode, segment[, out_dtype]): the 64-bit indexing
# runs.
LARGE = [
    ("reduce", "seg16", "f16", "reduce", 16),
    ("reduce", "seg256n", "bf16", "reduce", 1000),
    ("reduce", "grid", "i8", "reduce", 1 << 20),
    ("scan", "seg256", "f16", "exclusive", 256),
    ("reduce", "packed", "f16", "reduce", 128),
    ("scan", "packed", "f16", "inclusive", 64),
    ("scan", "seg16n", "f16", "inclusive", 100),
    ("scan", "grid", "f32", "inclusive", 1 << 20),
    # The default for f16->f32 scans from 2^22 (0.6.8; 2 tiles since
    # 0.6.9): chunk bases past 2^31 inside one segment.
    ("scan", "lagged", "f16", "inclusive", 1 << 31),
    # Its f16-output form (the default from 2^22 since 0.6.16): the prefix
    # sums of this input leave f16's range, so most outputs are infinities
    # (`--check` counts an infinity as right where the exact sum rounds to
    # one).
    ("scan", "lagged", "f16", "inclusive", 1 << 31, "f16"),
    # The streaming scan: items and tiles past 2^31 (offsets inside an
    # item are i32, the bases 64-bit).
    ("scan", "stream", "f16", "inclusive", 1000),
    # MatMulScan: level-0 tiles past 2^31 in one segment.
    ("scan", "matmulscan", "f16", "inclusive", 1 << 31),
    # Aligned walks (segments off the vector grid): the second segment
    # begins at 2^31 + 1, its walk at 2^31.
    ("scan", "lagged", "f16", "inclusive", (1 << 31) + 1),
    ("reduce", "grid", "f16", "reduce", (1 << 31) + 1),
]


# Several tiles in flight per warp (3 divides no run of tiles: the last
# group's overrun must touch nothing) in every streaming variant.
STREAMING = [("reduce", "seg256n"), ("reduce", "seg16n_coalesced"),
             ("reduce", "block"), ("reduce", "grid"), ("scan", "seg256n"),
             ("scan", "block"), ("scan", "grid"), ("scan", "stream"),
             ("scan", "matmulscan")]
# The same for the variants where a warp takes several segments (seg16,
# seg256; packed: several tiles of whole segments) or several steps of its
# 16 segments (the strided ones) at once, with the segment sizes each
# serves. On 1000003 elements no count of
# tiles, segments or steps is a multiple of 3 or 4, apart from 1000's 63
# steps (3 divides them; 4 does not).
ONE_TILE = [("reduce", "seg16", (7, 16)), ("reduce", "seg256", (48, 256)),
            ("reduce", "packed", (48, 64, 112)),
            ("reduce", "seg16n_strided", (100, 1000)),
            ("scan", "seg16", (7, 16)), ("scan", "seg256", (48, 256)),
            ("scan", "seg16n", (100, 1000)),
            ("scan", "packed", (48, 64, 112))]


def spec_args(op, variant, dtype, mode, segment, out_dtype=None):
    a = ["--op", op] + (["--variant", variant] if variant else []) + \
        ["--dtype", dtype, "--segment", str(segment)]
    if mode.startswith("exclusive"):
        a.append("--exclusive")
    if mode.endswith("reverse"):
        a.append("--reverse")
    if out_dtype:
        a += ["--out-dtype", out_dtype]
    return a


def grid(large):
    """Yields (spec args, n)."""
    for op, variants in VARIANTS.items():
        for variant in variants:
            for dtype in dtypes_for(variant):
                for segment, n, mode in cases(op, variant):
                    yield spec_args(op, variant, dtype, mode, segment), n
    # Outputs in the input's type.
    for op, mode in (("reduce", "reduce"), ("scan", "inclusive")):
        for dtype in ("f16", "bf16"):
            yield spec_args(op, "seg256n", dtype, mode, 1000, dtype), 1000003
    for op, variant in STREAMING:
        mode = "reduce" if op == "reduce" else "inclusive"
        for tiles in (3, 4):
            for dtype in ("f16", "i8"):
                for segment, n in ((1000, 1000003), (70001, 3 * 70001 + 17)):
                    yield (spec_args(op, variant, dtype, mode, segment) +
                           ["--tiles-per-warp", str(tiles)]), n
    for op, variant, sizes in ONE_TILE:
        modes = ("reduce",) if op == "reduce" else ("inclusive", "exclusive")
        for tiles in (3, 4):
            for dtype, mode in zip(("f16", "i8"), modes * 2):
                for segment in sizes:
                    yield (spec_args(op, variant, dtype, mode, segment) +
                           ["--tiles-per-warp", str(tiles)]), 1000003
    if large:
        for case in (LARGE if large is True else [LARGE[i] for i in large]):
            yield spec_args(*case), LARGE_N


def class_grid(reverse=False):
    """Yields (spec args, n) of the class kernels' grid: no variant (the
    default strategy), run under TCUC_SEGMENT_KERNELS=class."""
    for op in ("scan",) if reverse else ("reduce", "scan"):
        for dtype in DTYPES:
            for segment, n, mode in cases(op, "class", reverse=reverse):
                yield spec_args(op, None, dtype, mode, segment), n


def reverse_grid():
    """Yields (spec args, n) of the reverse scans: every scan variant."""
    for variant in VARIANTS["scan"]:
        for dtype in dtypes_for(variant):
            for segment, n, mode in cases("scan", variant, reverse=True):
                yield spec_args("scan", variant, dtype, mode, segment), n


DECAYS = ("0.999", "0.9", "0.5", "0", "-0.5")
# seg16, seg256, the seg256n class kernel (257..131071), the grid (131072+).
DECAY_SIZES = ((7, 100003), (16, 100003), (100, 100003),
               (256, 100003), (1000, 1000003), (5000, 1000003),
               (70001, 3 * 70001 + 17), (1 << 20, 3 << 20),
               # more than 4096 chunks: the grid's totals by the grid
               (17000000, 17000003))
DECAY_MODES = ("inclusive", "exclusive", "inclusive reverse",
               "exclusive reverse")


def decay_grid():
    """Yields (spec args, n) of the decayed scans: a decay near 1 and a
    negative one at every size, float dtype and scan mode (bf16: two
    modes; the grid's sizes: two modes), the other decays on f16 at three
    sizes."""
    for decay in DECAYS:
        main = decay in ("0.999", "-0.5")
        for dtype in ("f16", "bf16", "f32") if main else ("f16",):
            for segment, n in DECAY_SIZES:
                if not main and segment not in (7, 100, 1000):
                    continue
                modes = DECAY_MODES
                if not main:
                    modes = DECAY_MODES[:1]
                elif dtype == "bf16" or segment >= 70001:
                    modes = (DECAY_MODES[0], DECAY_MODES[3])
                for mode in modes:
                    yield spec_args("scan", None, dtype, mode, segment) + [
                        "--decay", decay], n


# What examples/cpp/reduce_scan.cpp runs (default variants).
EXAMPLE = [("--op", "reduce", "--segment", "1000", "--dtype", "f16"),
           ("--op", "scan", "--segment", "256", "--dtype", "f16")]


def chosen(a, variant):
    """Whether spec args `a` pass the --variant filter."""
    return not variant or ("--variant" in a and
                           a[a.index("--variant") + 1] == variant)


def fill(args):
    if args.decay:
        specs = {tuple(a) for a, _ in decay_grid()}
    elif args.variant == "class":
        specs = {tuple(a) for a, _ in class_grid(args.reverse)}
    elif args.reverse:
        specs = {tuple(a) for a, _ in reverse_grid()
                 if chosen(a, args.variant)}
    else:
        specs = {tuple(a) for a, _ in grid(large=True)
                 if chosen(a, args.variant)} | \
            (set(EXAMPLE) if not args.variant else set())
    failed = 0
    for a in sorted(specs):
        cmd = [args.tcuc, "compile", *a, "--arch", args.arch,
               "--cache-dir", args.cache_dir]
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              env=run_env(args.variant))
        if proc.returncode:
            failed += 1
            print("FAIL:", " ".join(cmd), proc.stderr.strip())
    print(f"{len(specs) - failed} of {len(specs)} kernels compiled")
    return 1 if failed else 0


def run_one(tcuc, a, n, variant=None):
    cmd = [tcuc, "run", "--device", "gpu", *a, "--n", str(n),
           "--seed", str(n + int(a[a.index("--segment") + 1])), "--check",
           "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=run_env(variant))
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        result = None
    ok = proc.returncode == 0 and result is not None and result["ok"]
    # A reverse run must say it ran reverse.
    ok = ok and result.get("reverse", False) == ("--reverse" in a)
    # The class grid fails if a size a class takes ran a per-size kernel.
    if ok and variant == "class":
        segment = int(a[a.index("--segment") + 1])
        ok = (result.get("segment_kernel") == "class") == (segment <= 8192)
    return ok, " ".join(cmd), proc.returncode, proc.stdout.strip(), \
        proc.stderr.strip()


def run(args):
    large_sel = True
    if args.large_cases:
        large_sel = [int(i) for i in args.large_cases.split(",")]
    if args.decay:
        todo = list(decay_grid())
    elif args.variant == "class":
        todo = list(class_grid(args.reverse))
    elif args.reverse:
        todo = [(a, n) for a, n in reverse_grid() if chosen(a, args.variant)]
    else:
        todo = [(a, n) for a, n in grid(large_sel if args.large else False)
                if chosen(a, args.variant)]
    if args.only_large:
        todo = [(a, n) for a, n in todo if n == LARGE_N]
    failures = []
    # Large inputs take tens of GB of host memory: run them one at a time.
    small = [(a, n) for a, n in todo if n != LARGE_N]
    large = [(a, n) for a, n in todo if n == LARGE_N]
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(
            lambda c: run_one(args.tcuc, *c, variant=args.variant), small))
    for c in large:
        results.append(run_one(args.tcuc, *c))
        print("done:", results[-1][3], flush=True)
    for ok, cmd, rc, out, err in results:
        if ok:
            print("ok", cmd.split(" run ", 1)[1], out)
        else:
            failures.append((cmd, rc, out, err))
    for cmd, rc, out, err in failures:
        print(f"FAIL (exit {rc}): {cmd}\n  {out}\n  {err}")
    print(f"{len(results) - len(failures)} of {len(results)} GPU runs passed")
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("action", choices=["fill", "run"])
    p.add_argument("--tcuc", required=True)
    p.add_argument("--cache-dir")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--jobs", type=int, default=8)
    p.add_argument("--large", action="store_true",
                   help="also the 2^31 + 12345 element runs")
    p.add_argument("--only-large", action="store_true")
    p.add_argument("--variant", help="only the runs of this variant; "
                   "'class': the class kernels' grid")
    p.add_argument("--reverse", action="store_true",
                   help="the reverse scans' grid instead")
    p.add_argument("--decay", action="store_true",
                   help="the decayed scans' grid instead")
    p.add_argument("--large-cases", default="",
                   help="comma-separated indices into LARGE (default: all)")
    args = p.parse_args()
    if args.action == "fill":
        if not args.cache_dir:
            p.error("fill needs --cache-dir")
        return fill(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
