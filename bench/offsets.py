#!/usr/bin/env python3
"""Segments from offsets (issue 46): tcuc's offsets kernels beside CUB and
PyTorch on the distributions of segment lengths, on the same buffers, as a
fraction of the ceiling measured in the same run.

    bench/offsets.py fill --tcuc build/bin/tcuc --cache-dir DIR [--arch A]
    bench/offsets.py run --cache-dir DIR --tcuc-lib LIB --cub-lib LIB --out OUT

`run` needs a GPU, PyTorch and the libraries bench/gpu_build.sh builds.
Offsets are i32 (n = 2^28 fits). Bytes counted: the input, the output and
the k+1 offsets (4 bytes each); the ceiling is the read ceiling for the
reduction, the copy ceiling for the scans (bench.py's kernels). Peers: CUB
DeviceSegmentedReduce::Sum over the offsets and DeviceScan::*SumByKey over
segment ids (CUDA 13.0's CCCL has no DeviceSegmentedScan; the keys' 4 bytes
an element are its cost, not counted), torch.segment_reduce (f16 out, as a
user calls it), and a Triton kernel over the offsets as a load-balanced
Triton user would write it (bench/triton_offsets.py: blocks of elements, a
binary search for each element's segment, a segmented tl.associative_scan;
atomics across blocks for the reduction, reduce-then-scan for the scans;
skipped where Triton is missing).
"""
import argparse
import csv
import ctypes
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

DEFAULT_N = 1 << 28
# (name, what the lengths are): issue 46's distributions.
DISTRIBUTIONS = ["equal:1", "equal:16", "equal:100", "equal:4096",
                 "equal:1048576", "uniform:8", "uniform:100", "uniform:10000",
                 "zipf", "halfempty:100", "hugeplus"]
OPS = [("reduce", "reduce", False), ("scan", "scan", True),
       ("exscan", "scan", False)]
# Input and output types swept (--types): the default is the one the
# published tables use.
TYPES = ["f16:f32"]
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i32": 4}


def make_input(torch, ty, n, dev, gen):
    """Random input of type `ty`: normal floats, i8 in [-100, 100]."""
    if ty == "i8":
        return torch.randint(-100, 101, (n,), device=dev, generator=gen,
                             dtype=torch.int8)
    x = torch.randn(n, device=dev, generator=gen)
    return x.to({"f16": torch.float16, "bf16": torch.bfloat16,
                 "f32": torch.float32}[ty])


def lengths(torch, dist, n, gen):
    """Segment lengths (int64, on the GPU) summing to exactly n."""
    name, _, arg = dist.partition(":")
    dev = "cuda"
    if name == "equal":
        s = int(arg)
        ls = torch.full((n // s,), s, dtype=torch.int64, device=dev)
        if n % s:
            ls = torch.cat([ls, torch.tensor([n % s], device=dev)])
        return ls
    if name in ("uniform", "halfempty"):
        s = int(arg)
        count = 2 * n // (s + 1) + 16
        ls = torch.randint(1, 2 * s + 1, (count,), device=dev, generator=gen)
        if name == "halfempty":
            ls = ls * (torch.rand(count, device=dev, generator=gen) < 0.5)
            ls = torch.cat([ls, ls])  # room for the empty half
    elif name == "zipf":
        # Pareto(1.1): many tiny, a few huge.
        u = torch.rand(n // 4, device=dev, generator=gen)
        ls = torch.clamp(u.pow(-1 / 1.1).floor(), max=n).to(torch.int64)
    elif name == "hugeplus":
        # 10^6 tiny segments (0-3) around one of the rest (about n).
        tiny = torch.randint(0, 4, (1000000,), device=dev, generator=gen)
        huge = torch.tensor([n - int(tiny.sum().item())], device=dev)
        return torch.cat([tiny[:500000], huge, tiny[500000:]])
    else:
        raise SystemExit("unknown distribution " + dist)
    # Cut at n: the segment that crosses it ends there; short: one more.
    ends = torch.cumsum(ls, 0)
    if int(ends[-1].item()) < n:
        return torch.cat([ls, torch.tensor([n - int(ends[-1].item())],
                                           device=dev)])
    keep = int(torch.searchsorted(ends, n).item())  # ends[keep] >= n
    ls = ls[:keep + 1].clone()
    ls[-1] = n - (int(ends[keep - 1].item()) if keep > 0 else 0)
    return ls


def fill(args):
    """Compiles the offsets kernels the sweep runs into a cache."""
    for types in args.types:
        i, o = types.split(":")
        for _, op, inclusive in OPS:
            cmd = [args.tcuc, "compile", "--op", op, "--offset-type", "i32",
                   "--dtype", i, "--out-dtype", o, "--arch", args.arch,
                   "--cache-dir", args.cache_dir, "-o", os.devnull]
            if op == "scan" and not inclusive:
                cmd.append("--exclusive")
            if args.cubin:
                cmd.append("--cubin")
            subprocess.run(cmd, check=True)
    print("offsets kernels compiled into", args.cache_dir)


def run(args):
    import torch
    from bench import Timer

    os.environ["TCUC_CACHE_DIR"] = os.path.abspath(args.cache_dir)
    tcuc = ctypes.CDLL(args.tcuc_lib)
    tcuc.tcuc_last_error.restype = ctypes.c_char_p
    tcuc.tcuc_reduce_offsets.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
    tcuc.tcuc_scan_offsets.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
        ctypes.c_void_p]
    cub = ctypes.CDLL(args.cub_lib)
    for types in args.types:
        suffix = types.replace(":", "_")
        getattr(cub, "cubb_segmented_reduce_offsets_" + suffix).argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_int64, ctypes.c_void_p]
        getattr(cub, "cubb_scan_by_keys_" + suffix).argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_int64, ctypes.c_int, ctypes.c_void_p]
    cub.cubb_read.argtypes = [ctypes.c_void_p, ctypes.c_int64,
                              ctypes.c_void_p, ctypes.c_void_p]
    for name in ("cubb_copy_kernel", "cubb_memcpy"):
        getattr(cub, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int64, ctypes.c_void_p]

    n = args.n
    dev = torch.device("cuda")
    sp = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    timer = Timer(torch, args.reps, args.budget_ms)
    gen = torch.Generator(device=dev).manual_seed(46)
    # Two buffers of each input type (calls alternate, so none is in L2);
    # the f16 pair also serves the ceilings.
    inputs = {ty: [make_input(torch, ty, n, dev, gen) for _ in range(2)]
              for ty in dict.fromkeys(
                  ["f16"] + [t.split(":")[0] for t in args.types])}
    x = inputs["f16"]
    out = [torch.empty(n, device=dev, dtype=torch.float32) for _ in range(2)]
    props = torch.cuda.get_device_properties(dev)
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "log.txt"), "w")

    def say(*a):
        print(*a, flush=True)
        print(*a, file=log, flush=True)

    say(f"device {props.name}; torch {torch.__version__}; n = {n}")
    try:  # the Triton peer, lazily: the rest runs without Triton
        import triton_offsets as tri
    except ImportError as e:
        tri = None
        say(f"triton peer skipped: {e}")
    nbytes = 2 * n
    sink = torch.empty(1 << 16, device=dev, dtype=torch.int32)
    half_out = out[0].view(torch.float16)[:n]
    read_ms = timer(lambda i: cub.cubb_read(x[i % 2].data_ptr(), nbytes,
                                            sink.data_ptr(), sp))
    copy_ms = min(
        timer(lambda i: cub.cubb_copy_kernel(x[i % 2].data_ptr(),
                                             half_out.data_ptr(), nbytes, sp)),
        timer(lambda i: cub.cubb_memcpy(x[i % 2].data_ptr(),
                                        half_out.data_ptr(), nbytes, sp)))
    read_gbs, copy_gbs = nbytes / read_ms / 1e6, 2 * nbytes / copy_ms / 1e6
    say(f"read ceiling {read_gbs:.0f} GB/s; copy ceiling {copy_gbs:.0f} GB/s")

    rows = []
    for dist in args.distributions:
        # Lengths from a generator of their own, seeded by the
        # distribution's name: the same offsets whatever else the run
        # draws (--types, --distributions). Runs before 0.14.1's
        # h200-types.csv drew them after the inputs (zipf then differed
        # from run to run: its k and longest segment are in the logs).
        seed = sum(ord(ch) * 31 ** i for i, ch in enumerate(dist)) % 2**31
        ls = lengths(torch, dist, n,
                     torch.Generator(device=dev).manual_seed(seed))
        k = len(ls)
        off64 = torch.zeros(k + 1, dtype=torch.int64, device=dev)
        off64[1:] = torch.cumsum(ls, 0)
        off32 = off64.to(torch.int32)
        keys = torch.repeat_interleave(
            torch.arange(k, device=dev, dtype=torch.int32), ls)
        say(f"{dist}: k = {k}, longest {int(ls.max().item())}")
        for types in args.types:
            ity, oty = types.split(":")
            xs = inputs[ity]
            run_types(args, torch, dist, k, ity, oty, xs, out, off32, off64,
                      keys, ls, tcuc, cub, tri, timer, sp, read_gbs, copy_gbs,
                      rows, say)
            with open(os.path.join(args.out, "offsets.csv"), "w") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(rows)
        del keys
        torch.cuda.empty_cache()


def run_types(args, torch, dist, k, ity, oty, x, out, off32, off64, keys, ls,
              tcuc, cub, tri, timer, sp, read_gbs, copy_gbs, rows, say):
    """Every op of one input/output type pair on one distribution."""
    n = args.n
    dev = x[0].device
    suffix = f"{ity}_{oty}"
    outs = [o.view(torch.int32) if oty == "i32" else o for o in out]
    xd = x[0].double()
    ref_sum = torch.segment_reduce(xd, "sum", offsets=off64)
    ref_mass = torch.segment_reduce(xd.abs(), "sum", offsets=off64)
    inc = torch.cumsum(xd, 0)
    base = torch.repeat_interleave(
        torch.cat([torch.zeros(1, dtype=xd.dtype, device=dev),
                   inc])[off64[:-1]], ls)
    ref_scan = inc - base
    for kind, op, inclusive in OPS:
        opname = f"{kind} {ity}->{oty}"
        if args.ops and opname not in args.ops and kind not in args.ops:
            continue
        reduce = op == "reduce"
        moved = (n * BYTES[ity] + (k if reduce else n) * BYTES[oty] +
                 (k + 1) * 4)
        ceiling = read_gbs if reduce else copy_gbs
        ref = ref_sum if reduce else (
            ref_scan if inclusive else ref_scan - xd)
        ti, to = ity.encode(), oty.encode()
        libs = []
        if reduce:
            libs.append(("tcuc", lambda i: tcuc.tcuc_reduce_offsets(
                x[i % 2].data_ptr(), outs[i % 2].data_ptr(),
                off32.data_ptr(), k, b"i32", ti, to, sp)))
            cub_fn = getattr(cub, "cubb_segmented_reduce_offsets_" + suffix)
            libs.append(("cub", lambda i: cub_fn(
                x[i % 2].data_ptr(), outs[i % 2].data_ptr(),
                off32.data_ptr(), k, sp)))
            if tri and ity in ("f16", "f32"):
                libs.append(("triton", lambda i: tri.segment_sum(
                    x[i % 2], off32, k, outs[i % 2])))
            if ity != "i8":
                libs.append(("torch", lambda i: torch.segment_reduce(
                    x[i % 2], "sum", offsets=off64)))
        else:
            libs.append(("tcuc", lambda i: tcuc.tcuc_scan_offsets(
                x[i % 2].data_ptr(), outs[i % 2].data_ptr(),
                off32.data_ptr(), k, b"i32", ti, to, int(inclusive), sp)))
            cub_fn = getattr(cub, "cubb_scan_by_keys_" + suffix)
            libs.append(("cub", lambda i: cub_fn(
                x[i % 2].data_ptr(), outs[i % 2].data_ptr(),
                keys.data_ptr(), n, int(inclusive), sp)))
            if tri and ity in ("f16", "f32"):
                libs.append(("triton", lambda i: tri.segment_cumsum(
                    x[i % 2], off32, k, outs[i % 2], inclusive)))
        for lib, fn in libs:
            if args.libs and lib not in args.libs:
                continue
            rc = fn(0)
            if lib == "tcuc" and rc != 0:
                say(f"  {opname:16} {lib:6} ERROR "
                    f"{tcuc.tcuc_last_error().decode()}")
                continue
            torch.cuda.synchronize()
            err = ""
            if lib != "torch":
                got = outs[0][:k if reduce else n].double()
                diff = (got - ref).abs()
                err = float((diff / (ref_mass + 1e-30)).max().item()) \
                    if reduce else float(
                        (diff / (ref.abs() + 1)).max().item())
            ms = timer(fn)
            gbs = moved / ms / 1e6
            rows.append({"op": opname, "dist": dist, "k": k, "lib": lib,
                         "ms": f"{ms:.4f}", "gbs": f"{gbs:.1f}",
                         "frac": f"{gbs / ceiling:.3f}",
                         "err": f"{err:.1e}" if err != "" else ""})
            say(f"  {opname:16} {lib:6} {ms:9.4f} ms {gbs:7.0f} GB/s "
                f"{gbs / ceiling:6.1%}  err {rows[-1]['err']}")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fill", help="compile the offsets kernels into a cache")
    f.add_argument("--tcuc", required=True)
    f.add_argument("--cache-dir", required=True)
    f.add_argument("--arch", default="sm_90")
    f.add_argument("--cubin", action="store_true")
    f.add_argument("--types", nargs="*", default=TYPES,
                   help="IN:OUT pairs (f16:f32, f32:f32, i8:i32)")
    r = sub.add_parser("run", help="time them on the GPU")
    r.add_argument("--cache-dir", required=True)
    r.add_argument("--tcuc-lib", required=True)
    r.add_argument("--cub-lib", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--n", type=int, default=DEFAULT_N)
    r.add_argument("--reps", type=int, default=10)
    r.add_argument("--budget-ms", type=float, default=60)
    r.add_argument("--distributions", nargs="*", default=DISTRIBUTIONS)
    r.add_argument("--ops", nargs="*",
                   help="reduce, scan, exscan (or e.g. 'reduce f16->f32')")
    r.add_argument("--types", nargs="*", default=TYPES,
                   help="IN:OUT pairs (f16:f32, f32:f32, i8:i32)")
    r.add_argument("--libs", nargs="*",
                   help="only these of tcuc, cub, triton, torch")
    args = p.parse_args()
    return fill(args) if args.cmd == "fill" else run(args)


if __name__ == "__main__":
    sys.exit(main())
