#!/usr/bin/env python3
"""Digests of every kernel the benchmark, the GPU grid and the reliability
list compile, to show that a change alters no kernel (or which ones).

  kernel_digest.py fill --tcuc build/bin/tcuc --cache-dir DIR
      compiles them into a kernel cache (bench.py fill for every operation,
      bf16 included, gpu_grid.py fill, and test/gpu/reliability_specs.txt);
  kernel_digest.py digest DIR > manifest.txt
      one line per kernel file: its spec and arch, then the SHA-256 of the
      file without the lines that name the tcuc that made it
      (`tcuc.version`, `tcuc.build`, the cache's `tcuc-cache` line), so two
      tcuc builds compare equal when their kernels do;
  kernel_digest.py compare A.txt B.txt
      prints the kernels that differ or exist on one side only; exits 1 if
      any do;
  kernel_digest.py retag SRC DST --build ID
      copies cache SRC's kernels to DST as made by build ID (the runtime
      takes only kernels of its own build id, tcuc --version), so that one
      runtime can time the kernels of two compilers (bench/ab.sh).
"""

import argparse
import hashlib
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Lines that say which tcuc made a file, not what it computes: the kernel
# file's release and build id, and the disk cache's own first line (a hash
# and length of the kernel file, so of those two lines too).
IDENTITY = ("// tcuc.version:", "// tcuc.build:", "tcuc-cache ")


def fill(args):
    py = sys.executable
    steps = [
        [py, os.path.join(HERE, "bench.py"), "fill", "--tcuc", args.tcuc,
         "--cache-dir", args.cache_dir, "--arch", args.arch, "--ops",
         "reduce f16->f32", "scan f16->f32", "scan f16->f16", "scan i8->i32",
         "reduce bf16->f32", "scan bf16->f32", "scan bf16->bf16"],
        [py, os.path.join(ROOT, "test", "gpu", "gpu_grid.py"), "fill",
         "--tcuc", args.tcuc, "--cache-dir", args.cache_dir,
         "--arch", args.arch],
    ]
    status = 0
    for cmd in steps:
        status |= subprocess.run(cmd).returncode
    specs = os.path.join(ROOT, "test", "gpu", "reliability_specs.txt")
    failed = total = 0
    for line in open(specs):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        total += 1
        cmd = [args.tcuc, "compile", *shlex.split(line), "--arch", args.arch,
               "--cache-dir", args.cache_dir, "-o", os.devnull]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            failed += 1
            print("FAILED:", " ".join(cmd), r.stderr.strip())
    print(f"{total - failed} of {total} reliability kernels compiled")
    return 1 if status or failed else 0


def digest(args):
    rows = []
    for name in sorted(os.listdir(args.cache_dir)):
        path = os.path.join(args.cache_dir, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines(keepends=True)
        spec = arch = None
        kept = []
        for line in lines:
            if line.startswith("// tcuc.spec:"):
                spec = line.split(":", 1)[1].strip()
            elif line.startswith("// tcuc.arch:"):
                arch = line.split(":", 1)[1].strip()
            if not line.startswith(IDENTITY):
                kept.append(line)
        if spec is None or arch is None:
            continue
        sha = hashlib.sha256("".join(kept).encode()).hexdigest()
        rows.append(f"{spec} | {arch} | {sha}")
    for row in sorted(rows):
        print(row)
    return 0


def compare(args):
    def load(path):
        out = {}
        for line in open(path):
            key, _, sha = line.rstrip("\n").rpartition(" | ")
            out[key] = sha
        return out

    a, b = load(args.a), load(args.b)
    bad = 0
    for key in sorted(set(a) | set(b)):
        if key not in b:
            print("only in", args.a + ":", key)
        elif key not in a:
            print("only in", args.b + ":", key)
        elif a[key] != b[key]:
            print("differs:", key)
        else:
            continue
        bad += 1
    same = len(set(a) & set(b)) - sum(
        1 for k in set(a) & set(b) if a[k] != b[k])
    print(f"{same} identical, {bad} differ or are missing "
          f"({len(a)} and {len(b)} kernels)")
    return 1 if bad else 0


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def retag(args):
    os.makedirs(args.dst, exist_ok=True)
    count = 0
    for name in sorted(os.listdir(args.src)):
        path = os.path.join(args.src, name)
        if not os.path.isfile(path):
            continue
        raw = open(path, "rb").read()
        first, _, body = raw.partition(b"\n")
        if not first.startswith(b"tcuc-cache 1 "):
            continue
        lines = body.decode().split("\n")
        spec = arch = None
        out = []
        for line in lines:
            if line.startswith("// tcuc.build:"):
                continue
            out.append(line)
            if line.startswith("// tcuc.spec:"):
                spec = line.split(":", 1)[1].strip()
            elif line.startswith("// tcuc.arch:"):
                arch = line.split(":", 1)[1].strip()
            elif line.startswith("// tcuc.version:"):
                out.append("// tcuc.build: " + args.build)
        text = "\n".join(out).encode()
        header = b"tcuc-cache 1 %016x %d\n" % (fnv1a64(text), len(text))
        key = f"{spec}|{arch}|{args.build}".encode()
        with open(os.path.join(args.dst, "%016x" % fnv1a64(key)), "wb") as f:
            f.write(header + text)
        count += 1
    print(f"{count} kernels retagged as build {args.build} in {args.dst}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="action", required=True)
    f = sub.add_parser("fill")
    f.add_argument("--tcuc", required=True)
    f.add_argument("--cache-dir", required=True)
    f.add_argument("--arch", default="sm_90")
    d = sub.add_parser("digest")
    d.add_argument("cache_dir")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    r = sub.add_parser("retag")
    r.add_argument("src")
    r.add_argument("dst")
    r.add_argument("--build", required=True)
    args = p.parse_args()
    return {"fill": fill, "digest": digest, "compare": compare,
            "retag": retag}[args.action](args)


if __name__ == "__main__":
    sys.exit(main())
