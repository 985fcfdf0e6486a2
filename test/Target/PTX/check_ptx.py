#!/usr/bin/env python3
"""Compiles every (op, variant, dtype) of tcuc to a kernel file for each
architecture and checks the PTX: every kernel named in the header is an
.entry, the products are mma.sync m16n8k16 on the expected operand type, and
(with --ptxas) ptxas assembles it with no stack frame and no spills, but
for kernels that ask for an occupancy (.minnctapersm, the lagged scan at 2
tiles: measured faster with a few spilled bytes than with the registers
ptxas would take), which may spill up to MAX_TARGET_SPILL bytes."""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Integration", "CPU"))
from check_grid import VARIANTS, cases, dtypes_for  # noqa: E402

# The most local memory (stack frame, spill stores or loads, each) a kernel
# with an occupancy target may use: f16 takes 8-40 bytes, i8 and bf16 up
# to 64 (68 at 2^28), measured as fast or faster than without the target
# (bench/results/lagged-complete-warp).
MAX_TARGET_SPILL = 96

# Kernels without an occupancy target that ptxas (CUDA 13.0) spills a few
# bytes of anyway, each held to its bytes: sm_80's lagged f32 scan (128
# registers) since tcuc 0.6.20's ticket atomic on a global address; with the
# generic atomic, whose extra code paths changed ptxas's allocation, it
# spilled none. Not measured (no A100 lent); on sm_90 the global atomic
# spills less everywhere (LookbackOps.cpp, LowerTicket).
# sm_80's lagged bf16 scan at segment 5000 (its default shape, no target)
# since tcuc 0.6.30, whose Fenwick completion reads 4 aggregates a lane in
# one round trip (LookbackOps.cpp, kLaggedRounds): not measured either.
KNOWN_SPILL = {("sm_80", "scan", "lagged", "f32"): 8,
               ("sm_80", "scan", "lagged", "bf16"): 16}

MMA_TYPE = {"f16": "f16", "bf16": "bf16", "f32": "bf16", "i8": "f16"}


def check(tcuc, ptxas, arch, op, variant, dtype, segment, exclusive, tmp,
          reverse=False):
    cmd = [tcuc, "compile", "--op", op, "--variant", variant, "--dtype", dtype,
           "--segment", str(segment), "--arch", arch]
    if exclusive:
        cmd.append("--exclusive")
    if reverse:
        cmd.append("--reverse")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        return f"compile failed: {proc.stderr.strip()}"
    ptx = proc.stdout
    if reverse and " reverse=1 " not in ptx.split("\n", 2)[1]:
        return "the tcuc.spec line does not say reverse=1"
    kernels = re.findall(r"^// tcuc\.kernel: (\S+)$", ptx, re.M)
    if not kernels:
        return "no tcuc.kernel lines"
    for k in kernels:
        if not re.search(rf"\.entry {re.escape(k)}\(", ptx):
            return f"kernel {k} is not an .entry"
    if f".target {arch}" not in ptx:
        return f"PTX does not target {arch}"
    mma = f"mma.sync.aligned.m16n8k16.row.col.f32.{MMA_TYPE[dtype]}." \
          f"{MMA_TYPE[dtype]}.f32"
    if mma not in ptx:
        return f"no {mma}"
    if ptxas:
        path = os.path.join(tmp, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        asm = subprocess.run([ptxas, f"-arch={arch}", "-v", path, "-o",
                              os.devnull], capture_output=True, text=True)
        if asm.returncode:
            return f"ptxas failed: {asm.stderr.strip()}"
        props = re.findall(r"Function properties for (\w+)\n\s*"
                           r"(\d+) bytes stack frame, (\d+) bytes spill "
                           r"stores, (\d+) bytes spill loads", asm.stderr)
        if len(props) != len(kernels):
            return f"ptxas reported {len(props)} of {len(kernels)} kernels"
        for name, *local in props:
            entry = re.search(rf"\.entry {re.escape(name)}\((.*?)\{{", ptx,
                              re.S)
            targeted = entry and ".minnctapersm" in entry.group(1)
            limit = MAX_TARGET_SPILL if targeted else KNOWN_SPILL.get(
                (arch, op, variant, dtype), 0)
            if any(int(x) > limit for x in local):
                return f"local memory used by {name}: {local}"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tcuc", required=True)
    p.add_argument("--ptxas", default="")
    p.add_argument("--archs", default="sm_80,sm_90")
    p.add_argument("--reverse", action="store_true",
                   help="the reverse scans instead (every scan variant)")
    args = p.parse_args()
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for arch in args.archs.split(","):
            for op, variants in VARIANTS.items():
                if args.reverse and op != "scan":
                    continue
                for variant in variants:
                    # One segment size per variant: the largest odd size
                    # of the CPU grid that it takes.
                    segment = max(s for s, _, _ in cases(op, variant))
                    for dtype in dtypes_for(variant):
                        for exclusive in ([False, True] if op == "scan"
                                          else [False]):
                            runs += 1
                            err = check(args.tcuc, args.ptxas, arch, op,
                                        variant, dtype, segment, exclusive,
                                        tmp, args.reverse)
                            what = (f"{arch} {op} {variant} {dtype} "
                                    f"segment={segment}"
                                    f"{' exclusive' if exclusive else ''}"
                                    f"{' reverse' if args.reverse else ''}")
                            if err:
                                failures.append(f"FAIL {what}: {err}")
                            else:
                                print(f"ok {what}")
    print("\n".join(failures))
    print(f"{runs - len(failures)} of {runs} kernel files checked"
          f"{' and assembled' if args.ptxas else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
