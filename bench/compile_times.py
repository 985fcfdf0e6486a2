#!/usr/bin/env python3
"""Compile time of every spec the benchmark's defaults and the reliability
list name, for the GPU (`tcuc compile`, PTX) and the CPU (`tcuc run --device
cpu`, the JIT's compile_ms), one at a time on an otherwise idle machine.

  compile_times.py --tcuc build/bin/tcuc [--out times.csv]

Prints the slowest specs of each backend; issue 44 asks for under 2 s each
on the 2-core build machine.
"""

import argparse
import csv
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402  (the sweep's operations and segment sizes)


def specs():
    out = []
    for _, op, din, dout in bench.OPS + bench.EXTRA_OPS:
        for seg in bench.segments(bench.DEFAULT_N):
            out.append(["--op", op, "--dtype", din, "--out-dtype", dout,
                        "--segment", str(seg)])
    for line in open(os.path.join(ROOT, "test", "gpu",
                                  "reliability_specs.txt")):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(shlex.split(line))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tcuc", required=True)
    p.add_argument("--out")
    p.add_argument("--arch", default="sm_90")
    args = p.parse_args()
    rows = []
    for s in specs():
        t0 = time.monotonic()
        r = subprocess.run([args.tcuc, "compile", *s, "--arch", args.arch,
                            "-o", os.devnull], capture_output=True, text=True)
        gpu = time.monotonic() - t0
        if r.returncode:
            print("FAILED:", " ".join(s), r.stderr.strip()[:200])
            continue
        # TCUC_CPU_CACHE=0: the compile itself, not a disk cache hit.
        r = subprocess.run([args.tcuc, "run", "--device", "cpu", *s, "--n",
                            "1000", "--json"], capture_output=True, text=True,
                           env=dict(os.environ, TCUC_CPU_CACHE="0"))
        cpu = json.loads(r.stdout)["compile_ms"] / 1000 if r.returncode == 0 \
            else float("nan")
        rows.append((" ".join(s), gpu, cpu))
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["spec", "gpu_s", "cpu_s"])
            for row in rows:
                w.writerow([row[0], f"{row[1]:.3f}", f"{row[2]:.3f}"])
    for name, i in (("GPU (tcuc compile)", 1), ("CPU (tcuc run --device cpu)", 2)):
        ranked = sorted(rows, key=lambda r: -r[i])
        print(f"{name}: {len(rows)} specs, slowest:")
        for row in ranked[:5]:
            print(f"  {row[i]:6.2f} s  {row[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
