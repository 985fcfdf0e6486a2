#!/usr/bin/env python3
"""The tcuc benchmark: segmented reduce and scan against CUB, PyTorch and
Triton, with the memory ceilings measured in the same run (docs/performance.md).

  bench.py fill --tcuc build/bin/tcuc --cache-dir DIR     (compiler machine)
  bench.py run --cache-dir DIR --tcuc-lib LIB --cub-lib LIB --out DIR
                                                          (GPU machine; run.sh)

The cost model's tuned table comes from a sweep's results.csv through
`tcuc tune --csv results.csv --arch sm_90 -o TABLE` (docs/performance.md).

`fill` compiles every tcuc kernel the sweep needs (each applicable variant,
and the default choice) into a runtime kernel cache. The sweep covers the
issue's four operations (OPS); the bf16 and f32 ones (EXTRA_OPS) only where --ops
names them, in fill and run alike. `run` sweeps segment
sizes 2^4..2^24 and the whole array for each operation, times every library
on the same random data (median of CUDA-event timings of single calls after
warm-up, alternating between two input/output sets, each larger than L2),
checks every result against a float64 reference, and writes results.md,
results.csv and throughput.png into --out.

`run --energy-ms M` also measures each cell's energy: NVML's energy counter
across a loop of calls lasting about M ms, as joules per 10^9 elements
(j_gelem) and watts, split (docs/performance.md#energy) into the idle
draw for that time (j_idle), the memory traffic at the ceiling kernels'
energy per byte above idle (j_mem), and the rest (j_rest: the issued
instructions, Tensor Core products and other work beyond moving bytes).
"""

import argparse
import concurrent.futures as cf
import csv
import ctypes
import datetime
import json
import math
import os
import subprocess
import statistics
import sys
import time

# (name, op, input, output): the operations the issue asks for, swept by
# default.
# (name, op, input type, output type, inclusive).
OPS = [
    ("reduce f16->f32", "reduce", "f16", "f32", True),
    ("scan f16->f32", "scan", "f16", "f32", True),
    ("scan f16->f16", "scan", "f16", "f16", True),
    ("scan i8->i32", "scan", "i8", "i32", True),
]
# bf16 (the tuned table has no rows of its own: bf16 takes f16's), swept only
# where --ops names them.
EXTRA_OPS = [
    ("reduce bf16->f32", "reduce", "bf16", "f32", True),
    ("scan bf16->f32", "scan", "bf16", "f32", True),
    ("scan bf16->bf16", "scan", "bf16", "bf16", True),
    ("reduce f32->f32", "reduce", "f32", "f32", True),
    ("scan f32->f32", "scan", "f32", "f32", True),
    ("reduce i8->i32", "reduce", "i8", "i32", True),
    ("exscan f16->f32", "scan", "f16", "f32", False),
]
REDUCE_VARIANTS = ["seg16", "seg256", "seg256n", "seg16n_strided",
                   "seg16n_coalesced", "block", "grid", "packed"]
SCAN_VARIANTS = ["seg16", "seg256", "seg256n", "seg16n", "block", "grid",
                 "packed", "lookback", "lagged", "stream", "matmulscan"]
DEFAULT_N = 1 << 28
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i32": 4}


def segments(n, args=None):
    """The swept segment sizes; the last is the whole array. By default the
    powers of two 2^4..2^24; --dense: every size 1..64, then 8 per octave
    up to 2^24 (primes and round numbers among them); --segments with
    numbers: those sizes exactly."""
    if args is not None and args.segments:
        sizes = [int(v) for v in args.segments if v != "whole"]
        return sizes + ([n] if "whole" in args.segments else [])
    if args is not None and getattr(args, "dense", False):
        return dense_segments() + [n]
    return [1 << k for k in range(4, 25)] + [n]


def dense_segments():
    """1..64, then from each octave [2^k, 2^(k+1)) with k = 6..23 eight
    sizes: 2^k + j·2^k/8 + an odd offset (none a power of two), plus the
    round numbers and primes users meet (100, 1000, 3000, 10007, ...)."""
    out = set(range(1, 65))
    for k in range(6, 24):
        step = (1 << k) // 8
        for j in range(8):
            out.add((1 << k) + j * step + (2 * j + 1))
    out.update([100, 127, 250, 257, 500, 1000, 1021, 3000, 4099, 10000,
                10007, 50000, 100000, 131071, 1000000, 1048573])
    return sorted(v for v in out if v <= 1 << 24)


# Tiles per warp tried besides 1: for the streaming variants the cost model
# picks among from 512 up (seg256n, grid), and for the variants that give a
# warp one tile per segment or per step (seg16, seg256, the strided ones) at
# the sizes they serve.
TILES_TRIED = [2, 4]


# The reduce walks take 8 as well: with a group's loads as one run (tcuc
# 0.6.31) seg256n at 8 tiles beat 4 at 4096-262144 in every round
# (docs/rationale.md#reduce-eight-tiles).
REDUCE_WALK_TILES_TRIED = TILES_TRIED + [8]


def tiles_tried(op, v, seg):
    if op == "reduce" and v in ("grid", "seg256n") and seg >= 512:
        return REDUCE_WALK_TILES_TRIED
    if v in ("grid", "lookback", "lagged", "matmulscan") or (
            v == "seg256n" and seg >= 512):
        return TILES_TRIED
    if v == "block" and op == "scan":
        return TILES_TRIED
    if v in ("seg16", "seg256", "packed", "stream"):
        return TILES_TRIED
    if v in ("seg16n_strided", "seg16n") and 32 <= seg <= 256:
        return TILES_TRIED
    return []


# One-warp-per-segment variants leave most of the GPU idle below this many
# segments (132 SMs x 64 warp slots is 8448): measured at 0.006-0.33 of the
# ceiling from 256 segments down in the sweeps of 2026-11-22, and such a
# call takes up to a second, so the sweep skips them there. (At 2048
# segments seg256n still won the scans of 2026-11-22.)
MIN_SEGMENTS_ONE_WARP = 1024
# The block scan gives a segment the 4-16 warps of a block: 64 segments of
# 2^22 are 1024 warps.
MIN_SEGMENTS_ONE_BLOCK = 64
# The look-back scan is swept only where the grid is the default (from
# 2^22: the block scan reads the input once up to 2^21 and reaches 0.9+);
# measured 0.54 at best there (docs/rationale.md#lookback-fenwick).
MIN_LOOKBACK_SEGMENT = 1 << 22
# The lagged scan from 2^16 (its prototype measured 0.92-0.96 of the copy
# ceiling from there, bench/results/lagged-scan-prototype; below, the block
# scan reads the input once at 0.95+).
MIN_LAGGED_SEGMENT = 1 << 16


# Warps per block tried for the block scan (its rule, blockScanWarps, picks
# one of these; the sweep measures each so `tcuc tune` can choose).
BLOCK_SCAN_WARPS = [4, 8, 16]
# The same for the look-back scan (kLookbackWarps = 16 without them; 1, 2
# and 8 were slower than these: docs/rationale.md#lookback-fenwick).
LOOKBACK_WARPS = [4, 16]
# The lagged scan (kLaggedWarps = 4 without them; 8 is the prototype's 256
# threads).
LAGGED_WARPS = [4, 8, 16]


def variants(op, seg, n=DEFAULT_N, din="f16"):
    """Strategies to try for (op, segment), as the C interface takes them:
    "" is the compiler's choice, "name:k" a variant with k tiles per warp,
    "block:k:w" / "lookback:k:w" / "lagged:k:w" with w warps per block."""
    names = REDUCE_VARIANTS if op == "reduce" else SCAN_VARIANTS
    out = [""]
    for v in names:
        if v == "seg16" and seg > 16:
            continue
        if v == "seg256" and seg > 256:
            continue
        if v == "packed" and (seg % 16 or seg > 256):
            continue
        if v == "lookback" and seg < MIN_LOOKBACK_SEGMENT:
            continue
        if v == "lagged" and seg < MIN_LAGGED_SEGMENT:
            continue
        if v == "stream" and (seg < 16 or seg > 1 << 24 or din == "f32"):
            continue
        # Up to 256 MatMulScan is its top level, the seg256 kernel.
        if v == "matmulscan" and seg <= 256:
            continue
        if v == "seg256n" and n // seg < MIN_SEGMENTS_ONE_WARP:
            continue
        if v == "block" and n // seg < (MIN_SEGMENTS_ONE_BLOCK if op == "scan"
                                        else MIN_SEGMENTS_ONE_WARP):
            continue
        tiles = [1] + tiles_tried(op, v, seg)
        if v == "block" and op == "scan":
            out += [f"{v}:{k}:{w}" for k in tiles for w in BLOCK_SCAN_WARPS]
        elif v == "lookback":
            out += [f"{v}:{k}:{w}" for k in tiles for w in LOOKBACK_WARPS]
        elif v == "lagged":
            out += [f"{v}:{k}:{w}" for k in tiles for w in LAGGED_WARPS]
        else:
            out += [f"{v}:{k}" for k in tiles]
    return out


def strategies(op, seg, n, only, din="f16"):
    """The strategies timed for (op, segment): the sweep's (variants) that
    pass --only, then any full strategy --only names that the sweep does
    not try (e.g. lagged:3:4), so one-off shapes can be timed too."""
    swept_ = [v for v in variants(op, seg, n, din) if selected(v, only)]
    names = REDUCE_VARIANTS if op == "reduce" else SCAN_VARIANTS
    extra = [v for v in (only or [])
             if v.count(":") >= 1 and v.split(":")[0] in names
             and all(p.isdigit() for p in v.split(":")[1:]) and v not in swept_]
    return swept_ + extra


def selected(v, only):
    """Whether strategy `v` passes the --only filter (variant names,
    name:tiles or name:tiles:warps; "default" for the compiler's choice)."""
    if not only:
        return True
    return (v or "default") in only or v.split(":")[0] in only


def swept_ops(args):
    """The operations a sweep covers: OPS, or those --ops names (of OPS and
    EXTRA_OPS); a name that is neither stops the sweep."""
    if not args.ops:
        return OPS
    known = [o[0] for o in OPS + EXTRA_OPS]
    unknown = [o for o in args.ops if o not in known]
    if unknown:
        sys.exit(f"unknown --ops {', '.join(map(repr, unknown))}; known: "
                 f"{', '.join(known)}")
    return [o for o in OPS + EXTRA_OPS if o[0] in args.ops]


def swept(args, seg, n):
    """Whether the --max-segment and --segments filters keep a segment
    size (--ops is swept_ops')."""
    if args.max_segment and seg > args.max_segment and seg != n:
        return False
    return not args.segments or ("whole" if seg == n else str(seg)) \
        in args.segments


def fill(args):
    jobs = []
    for opname, op, din, dout, inclusive in swept_ops(args):
        for seg in segments(args.n, args):
            if not swept(args, seg, args.n):
                continue
            for v in strategies(op, seg, args.n, args.only, din):
                cmd = [args.tcuc, "compile", "--op", op, "--segment", str(seg),
                       "--dtype", din, "--out-dtype", dout, "--arch", args.arch,
                       "--cache-dir", args.cache_dir, "-o", os.devnull]
                if not inclusive:
                    cmd.append("--exclusive")
                if args.cubin:
                    cmd.append("--cubin")
                if v:
                    name, tiles, *warps = v.split(":")
                    cmd += ["--variant", name, "--tiles-per-warp", tiles]
                    if warps:
                        cmd += ["--warps-per-block", warps[0]]
                jobs.append(cmd)
    failed = 0
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for cmd, r in zip(jobs, ex.map(
                lambda c: subprocess.run(c, capture_output=True, text=True),
                jobs)):
            if r.returncode != 0:
                failed += 1
                print("FAILED:", " ".join(cmd), "\n", r.stderr.strip())
    print(f"{len(jobs) - failed} of {len(jobs)} kernels compiled into "
          f"{args.cache_dir}" + (", with cubins" if args.cubin else ""))
    return 1 if failed else 0


# --------------------------------------------------------------------------
# The GPU side.


class Energy:
    """NVML's total energy counter (millijoules) of one GPU, through
    libnvidia-ml: what `--energy-ms` reads around a loop of calls."""

    def __init__(self, pci_bus_id, index):
        self.nvml = ctypes.CDLL("libnvidia-ml.so.1")
        if self.nvml.nvmlInit_v2() != 0:
            raise RuntimeError("nvmlInit_v2 failed")
        self.handle = ctypes.c_void_p()
        # NVML numbers devices by PCI order, CUDA by speed unless
        # CUDA_DEVICE_ORDER says otherwise: the bus id names the same one.
        r = (self.nvml.nvmlDeviceGetHandleByPciBusId_v2(
            pci_bus_id.encode(), ctypes.byref(self.handle)) if pci_bus_id
            else self.nvml.nvmlDeviceGetHandleByIndex_v2(
                index, ctypes.byref(self.handle)))
        if r != 0:
            raise RuntimeError(f"NVML has no device {pci_bus_id or index} "
                               f"(error {r})")

    def millijoules(self):
        v = ctypes.c_ulonglong(0)
        r = self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle,
                                                          ctypes.byref(v))
        if r != 0:
            raise RuntimeError(f"nvmlDeviceGetTotalEnergyConsumption: {r}")
        return v.value

    def measure(self, torch, fn, call_ms, loop_ms):
        """(joules per call, watts) over calls of fn(i) lasting ~loop_ms."""
        calls = max(5, int(loop_ms / max(call_ms, 1e-3)))
        torch.cuda.synchronize()
        e0, t0 = self.millijoules(), time.perf_counter()
        for i in range(calls):
            fn(i)
        torch.cuda.synchronize()
        e1, t1 = self.millijoules(), time.perf_counter()
        joules = (e1 - e0) / 1000.0
        return joules / calls, joules / (t1 - t0)

    def idle_watts(self, seconds=2.0):
        e0, t0 = self.millijoules(), time.perf_counter()
        time.sleep(seconds)
        return (self.millijoules() - e0) / 1000.0 / (time.perf_counter() - t0)


class Timer:
    """Median of CUDA-event timings of single calls, after warm-up."""

    def __init__(self, torch, reps, budget_ms):
        self.torch = torch
        self.reps = reps
        self.budget_ms = budget_ms

    def __call__(self, fn):
        """fn(i) enqueues call i on the current stream (i picks the buffer
        set); returns the median milliseconds."""
        torch = self.torch
        fn(0)  # warm-up: module load, temp storage, autotuning
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
            enable_timing=True)
        s.record()
        fn(1)
        e.record()
        e.synchronize()
        first = s.elapsed_time(e)
        if first > self.budget_ms:  # hopeless configurations: one timing
            return first
        reps = max(3, min(self.reps, int(self.budget_ms / max(first, 1e-3))))
        events = [(torch.cuda.Event(enable_timing=True),
                   torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        for i, (a, b) in enumerate(events):
            a.record()
            fn(i)
            b.record()
        torch.cuda.synchronize()
        times = sorted(a.elapsed_time(b) for a, b in events)
        return times[len(times) // 2]


def props_pci_bus_id(torch, dev):
    """The PCI bus id NVML names the torch device by ("00000000:19:00.0"),
    or None where this torch does not report it."""
    p = torch.cuda.get_device_properties(dev)
    try:
        return "%08X:%02X:%02X.0" % (p.pci_domain_id, p.pci_bus_id,
                                     p.pci_device_id)
    except AttributeError:
        return None


def run(args):
    import torch

    os.environ["TCUC_CACHE_DIR"] = os.path.abspath(args.cache_dir)
    tcuc = ctypes.CDLL(args.tcuc_lib)
    tcuc.tcuc_last_error.restype = ctypes.c_char_p
    for f in (tcuc.tcuc_reduce, tcuc.tcuc_scan):
        f.restype = ctypes.c_int
    tcuc.tcuc_reduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.c_int64, ctypes.c_int64,
                                 ctypes.c_char_p, ctypes.c_char_p,
                                 ctypes.c_void_p, ctypes.c_char_p]
    tcuc.tcuc_scan.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_int64, ctypes.c_int64,
                               ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                               ctypes.c_void_p, ctypes.c_char_p]
    tcuc.tcuc_prepare.argtypes = [ctypes.c_char_p, ctypes.c_int64,
                                  ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.c_int, ctypes.c_char_p,
                                  ctypes.c_int64,
                                  ctypes.POINTER(ctypes.c_uint64),
                                  ctypes.POINTER(ctypes.c_int)]
    cub = ctypes.CDLL(args.cub_lib)
    for name in ("cubb_segmented_reduce_f16_f32", "cubb_scan_f16_f32",
                 "cubb_scan_f16_f16", "cubb_scan_i8_i32",
                 "cubb_segmented_reduce_bf16_f32", "cubb_scan_bf16_f32",
                 "cubb_scan_bf16_bf16", "cubb_segmented_reduce_f32_f32",
                 "cubb_scan_f32_f32", "cubb_segmented_reduce_i8_i32",
                 "cubb_exscan_f16_f32"):
        getattr(cub, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int64, ctypes.c_int64,
                                       ctypes.c_void_p]
    for name in ("cubb_reduce_f16_f32", "cubb_reduce_bf16_f32",
                 "cubb_reduce_f32_f32", "cubb_reduce_i8_i32"):
        getattr(cub, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int64, ctypes.c_void_p]
    cub.cubb_read.argtypes = [ctypes.c_void_p, ctypes.c_int64,
                              ctypes.c_void_p, ctypes.c_void_p]
    for name in ("cubb_copy_kernel", "cubb_memcpy"):
        getattr(cub, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int64, ctypes.c_void_p]
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "baselines"))
    import triton
    import triton_kernels as tk

    n0 = n = args.n
    dev = torch.device("cuda")
    stream = torch.cuda.current_stream()
    sp = ctypes.c_void_p(stream.cuda_stream)
    timer = Timer(torch, args.reps, args.budget_ms)
    gen = torch.Generator(device=dev).manual_seed(2026)
    # Two input sets of each type (alternated: each is larger than L2).
    ops = swept_ops(args)
    x16 = [torch.randn(n, device=dev, generator=gen).half() for _ in range(2)]
    x8 = [torch.randint(-128, 128, (n,), device=dev, generator=gen,
                        dtype=torch.int8) for _ in range(2)]
    # bf16 input only where a bf16 operation is swept (2 GB more at 2^28).
    bf16 = any(din == "bf16" for _, _, din, *_ in ops)
    xb16 = [torch.randn(n, device=dev, generator=gen).bfloat16()
            for _ in range(2)] if bf16 else []
    f32 = any(din == "f32" for _, _, din, *_ in ops)
    x32 = [torch.randn(n, device=dev, generator=gen)
           for _ in range(2)] if f32 else []
    outs = {t: [torch.empty(n, device=dev, dtype=t) for _ in range(2)]
            for t in (torch.float32, torch.float16, torch.int32) +
            ((torch.bfloat16,) if bf16 else ())}
    props = torch.cuda.get_device_properties(dev)
    rows = []
    log = open(os.path.join(args.out, "log.txt"), "w")

    def say(*a):
        print(*a, flush=True)
        print(*a, file=log, flush=True)

    say(f"device {props.name}, {props.multi_processor_count} SMs, "
        f"L2 {props.L2_cache_size >> 20} MB; torch {torch.__version__}, "
        f"triton {triton.__version__}, CUDA {torch.version.cuda}; n = {n}")

    # Ceilings: read-only and copy (read + write), on the same 2n bytes the
    # f16 input has.
    nbytes = 2 * n
    sink = torch.empty(1 << 16, device=dev, dtype=torch.int32)
    read_ms = timer(lambda i: cub.cubb_read(x16[i % 2].data_ptr(), nbytes,
                                            sink.data_ptr(), sp))
    copy_k = timer(lambda i: cub.cubb_copy_kernel(
        x16[i % 2].data_ptr(), outs[torch.float16][i % 2].data_ptr(), nbytes,
        sp))
    copy_m = timer(lambda i: cub.cubb_memcpy(
        x16[i % 2].data_ptr(), outs[torch.float16][i % 2].data_ptr(), nbytes,
        sp))
    read_gbs = nbytes / read_ms / 1e6
    copy_gbs = 2 * nbytes / min(copy_k, copy_m) / 1e6
    say(f"read ceiling {read_gbs:.0f} GB/s; copy ceiling {copy_gbs:.0f} GB/s "
        f"(kernel {2 * nbytes / copy_k / 1e6:.0f}, cudaMemcpy "
        f"{2 * nbytes / copy_m / 1e6:.0f})")

    # Energy: the idle draw, then the ceiling kernels' joules per byte moved
    # above it (the price of memory traffic alone).
    energy = None
    if args.energy_ms:
        energy = Energy(props_pci_bus_id(torch, dev),
                        torch.cuda.current_device())
        idle_w = energy.idle_watts()
        e_read, w_read = energy.measure(
            torch, lambda i: cub.cubb_read(x16[i % 2].data_ptr(), nbytes,
                                           sink.data_ptr(), sp),
            read_ms, args.energy_ms)
        e_copy, w_copy = energy.measure(
            torch, lambda i: cub.cubb_copy_kernel(
                x16[i % 2].data_ptr(), outs[torch.float16][i % 2].data_ptr(),
                nbytes, sp), copy_k, args.energy_ms)
        # Joules per byte above idle: read kernel (nbytes), copy (2 nbytes).
        mem_j_read = (e_read - idle_w * read_ms / 1e3) / nbytes
        mem_j_copy = (e_copy - idle_w * copy_k / 1e3) / (2 * nbytes)
        say(f"energy: idle {idle_w:.0f} W; read kernel {w_read:.0f} W, "
            f"{mem_j_read * 1e12:.1f} pJ/byte above idle; copy kernel "
            f"{w_copy:.0f} W, {mem_j_copy * 1e12:.1f} pJ/byte above idle")

    tdt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
           "i8": torch.int8, "i32": torch.int32}

    for opname, op, din, dout, inclusive in ops:
        # What is measured so far, after each operation: a run cut short
        # keeps its finished operations.
        write_csv(args.out, rows)
        xs_all = {"f16": x16, "bf16": xb16, "i8": x8, "f32": x32}[din]
        ys_all = outs[tdt[dout]]
        for seg in segments(n0, args):
            if not swept(args, seg, n0):
                continue
            # n rounded down to a multiple of the segment: every library
            # gets whole rows.
            n = n0 - n0 % seg
            xs = [x[:n] for x in xs_all]
            ys = [y[:n] for y in ys_all]
            nout = (n + seg - 1) // seg if op == "reduce" else n
            moved = n * BYTES[din] + nout * BYTES[dout]
            ceiling = read_gbs if op == "reduce" else copy_gbs
            # float64 (int64) reference of input set 0.
            xv = xs[0].view(-1, seg)
            if op == "reduce":
                ref = xv.double().sum(-1) if din != "i8" else xv.long().sum(-1)
            else:
                wide = xv.double() if din != "i8" else xv.long()
                ref = torch.cumsum(wide, -1)
                if not inclusive:
                    ref -= wide
                ref = ref.view(-1)
                del wide
            segname = "whole" if seg == n0 else str(seg)

            def check(y):
                y = y[:nout]
                if din == "i8":
                    return float((y.long() != ref).sum().item())
                d = (y.double() - ref).norm() / ref.norm().clamp_min(1e-300)
                return float(d.item())

            def record(lib, variant, fn, extra=None):
                try:
                    ys[0].fill_(float("nan") if dout != "i32" else -7)
                    fn(0)
                    torch.cuda.synchronize()
                    err = check(ys[0])
                    ms = timer(fn)
                except Exception as ex:  # a library's failure is a result
                    say(f"  {opname:16} {segname:>9} {lib:18} ERROR {ex}")
                    rows.append(dict(op=opname, segment=segname, lib=lib,
                                     variant=variant, ms="", gbs="",
                                     gelems="", frac="", err="",
                                     scratch="", note=str(ex)[:200]))
                    return
                gbs = moved / ms / 1e6
                row = dict(op=opname, segment=segname, lib=lib,
                           variant=variant, ms=f"{ms:.4f}", gbs=f"{gbs:.1f}",
                           gelems=f"{n / ms / 1e6:.1f}",
                           frac=f"{gbs / ceiling:.3f}", err=f"{err:.2e}",
                           scratch="", note="")
                if extra:
                    row.update(extra)
                tail = ""
                if energy:
                    joules, watts = energy.measure(torch, fn, ms,
                                                   args.energy_ms)
                    per = 1e9 / n  # joules per call -> per 10^9 elements
                    j_idle = idle_w * ms / 1e3
                    j_mem = (mem_j_read if op == "reduce" else
                             mem_j_copy) * moved
                    row.update(j_gelem=f"{joules * per:.4f}",
                               watts=f"{watts:.0f}",
                               j_idle=f"{j_idle * per:.4f}",
                               j_mem=f"{j_mem * per:.4f}",
                               j_rest=f"{(joules - j_idle - j_mem) * per:.4f}")
                    tail = (f"  {joules * per:.3f} J/Gelem {watts:.0f} W "
                            f"(idle {j_idle * per:.3f}, memory "
                            f"{j_mem * per:.3f}, rest "
                            f"{(joules - j_idle - j_mem) * per:.3f})")
                rows.append(row)
                say(f"  {opname:16} {segname:>9} {lib:18} {ms:9.4f} ms "
                    f"{gbs:7.0f} GB/s {gbs / ceiling:6.1%}  err {err:.1e}"
                    + tail)

            # tcuc: every variant; "" is the default (the cost model's pick).
            for v in strategies(op, seg, n, args.only, din):
                scratch = ctypes.c_uint64(0)
                kernels = ctypes.c_int(0)
                if tcuc.tcuc_prepare(op.encode(), seg, din.encode(),
                                     dout.encode(), int(inclusive),
                                     v.encode(), n,
                                     ctypes.byref(scratch),
                                     ctypes.byref(kernels)) != 0:
                    say(f"  {opname:16} {segname:>9} tcuc {v or 'default'}: "
                        f"{tcuc.tcuc_last_error().decode()}")
                    continue

                def fn(i, v=v):
                    if op == "reduce":
                        r = tcuc.tcuc_reduce(xs[i % 2].data_ptr(),
                                             ys[i % 2].data_ptr(), n, seg,
                                             din.encode(), dout.encode(), sp,
                                             v.encode())
                    else:
                        r = tcuc.tcuc_scan(xs[i % 2].data_ptr(),
                                           ys[i % 2].data_ptr(), n, seg,
                                           din.encode(), dout.encode(),
                                           int(inclusive), sp,
                                           v.encode())
                    if r != 0:
                        raise RuntimeError(tcuc.tcuc_last_error().decode())
                record("tcuc" if not v else "tcuc:" + v, v or "default", fn,
                       dict(scratch=str(scratch.value),
                            note=f"{kernels.value} kernel(s)"))

            if args.no_peers:
                del ref
                continue

            # CUB.
            def cubcall(f, *a):
                r = f(*a)
                if r != 0:
                    raise RuntimeError(f"CUDA error {r}")

            kind = "scan" if inclusive else "exscan"
            if op == "reduce":
                f = getattr(cub, f"cubb_segmented_reduce_{din}_{dout}")
                record("cub", "DeviceSegmentedReduce::Sum",
                       lambda i: cubcall(f, xs[i % 2].data_ptr(),
                                         ys[i % 2].data_ptr(), n, seg, sp))
                if seg == n0:
                    f = getattr(cub, f"cubb_reduce_{din}_{dout}")
                    record("cub:DeviceReduce", "DeviceReduce::Sum",
                           lambda i: cubcall(f, xs[i % 2].data_ptr(),
                                             ys[i % 2].data_ptr(), n, sp))
            else:
                f = getattr(cub, f"cubb_{kind}_{din}_{dout}")
                record("cub", "DeviceScan::" +
                       ("InclusiveSum" if inclusive else "ExclusiveSum") +
                       ("" if seg == n0 else "ByKey"),
                       lambda i: cubcall(f, xs[i % 2].data_ptr(),
                                         ys[i % 2].data_ptr(), n, seg, sp))

            # PyTorch.
            if op == "reduce":
                record("torch", "x.view(-1,s).sum(-1)", lambda i: torch.sum(
                    xs[i % 2].view(-1, seg), -1, dtype=tdt[dout],
                    out=ys[i % 2][:nout]))
            elif inclusive:
                record("torch", "torch.cumsum", lambda i: torch.cumsum(
                    xs[i % 2].view(-1, seg), -1, dtype=tdt[dout],
                    out=ys[i % 2].view(-1, seg)))
            else:  # what a user writes: the inclusive sum minus x
                record("torch", "torch.cumsum - x", lambda i: torch.cumsum(
                    xs[i % 2].view(-1, seg), -1, dtype=tdt[dout],
                    out=ys[i % 2].view(-1, seg)).sub_(
                        xs[i % 2].view(-1, seg)))

            # Triton.
            if op == "reduce":
                record("triton", "tl.sum", lambda i: tk.segment_sum(
                    xs[i % 2], ys[i % 2], seg))
            else:
                record("triton", "tl.cumsum", lambda i: tk.segment_cumsum(
                    xs[i % 2], ys[i % 2], seg, inclusive))
            del ref

    meta = dict(device=props.name, sms=props.multi_processor_count,
                date=datetime.date.today().isoformat(),
                torch=torch.__version__, triton=triton.__version__,
                cuda=torch.version.cuda, n=n0, read_gbs=read_gbs,
                copy_gbs=copy_gbs,
                ops=[o for o, *_ in ops])
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    write_results(args.out, rows, [meta])


FIELDS = ["op", "segment", "lib", "variant", "ms", "gbs", "gelems", "frac",
          "err", "scratch", "note", "j_gelem", "watts", "j_idle", "j_mem",
          "j_rest"]


def report(args):
    """results.md, results.csv and the plot from the results of several
    runs (one directory each, with results.csv and meta.json): a sweep split
    over several device calls, each with the ceilings of its own run. A
    row (op, segment, lib) of a later directory replaces an earlier one."""
    rows, metas, index = [], [], {}
    for d in args.dirs:
        with open(os.path.join(d, "meta.json")) as f:
            metas.append(json.load(f))
        with open(os.path.join(d, "results.csv")) as f:
            for r in csv.DictReader(f):
                key = (r["op"], r["segment"], r["lib"])
                if key in index:
                    rows[index[key]] = r
                else:
                    index[key] = len(rows)
                    rows.append(r)
    os.makedirs(args.out, exist_ok=True)
    write_results(args.out, rows, metas)
    return 0


def write_csv(out, rows):
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


# The size groups of a dense sweep's summary.
GROUPS = [("1-15", 1, 15), ("16-64", 16, 64), ("65-2^24", 65, 1 << 24)]


def summary(args):
    """Worst cell and median of the default (`tcuc`) per operation and group
    of sizes, next to the best peer, from results.csv files (later files'
    rows replace earlier ones), as a markdown table."""
    rows = {}
    for path in args.csv:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["ms"]:
                    rows[(r["op"], r["segment"], r["lib"])] = r
    print("| op | sizes | tcuc worst (S), median | cells >= 0.95 / 0.90 | best "
          "peer median | tcuc / best peer, worst (S) | behind best peer > 2% |")
    print("|---|---|---|---|---|---|---|")
    ops = [o[0] for o in OPS + EXTRA_OPS]
    for opname in ops:
        cells = {}
        for (op, seg, lib), r in rows.items():
            if op == opname:
                cells.setdefault(seg, {})[lib] = r
        if not cells:
            continue
        for name, lo, hi in GROUPS + [("whole", None, None)]:
            sel = sorted(
                (s for s in cells if "tcuc" in cells[s] and (
                    s == "whole" if lo is None else
                    s != "whole" and lo <= int(s) <= hi)),
                key=lambda s: float("inf") if s == "whole" else int(s))
            if not sel:
                continue
            frac = {s: float(cells[s]["tcuc"]["frac"]) for s in sel}
            peer = {}
            for s in sel:
                ps = [r for lib, r in cells[s].items()
                      if not lib.startswith("tcuc")]
                if ps:
                    peer[s] = min(ps, key=lambda r: float(r["ms"]))
            worst = min(sel, key=frac.get)
            ratio = {s: float(peer[s]["ms"]) / float(cells[s]["tcuc"]["ms"])
                     for s in peer}
            rw = min(ratio, key=ratio.get) if ratio else None
            med = statistics.median(frac.values())
            pmed = (f"{statistics.median(float(p['frac']) for p in peer.values()):.2f}"
                    if peer else "-")
            print(f"| {opname} | {name} ({len(sel)}) | {frac[worst]:.2f} "
                  f"({worst}), {med:.2f} | "
                  f"{sum(f >= 0.95 for f in frac.values())} / "
                  f"{sum(f >= 0.90 for f in frac.values())} | "
                  f"{pmed} | "
                  + (f"{ratio[rw]:.2f} ({rw})" if rw else "-") + " | "
                  + str(sum(r < 0.98 for r in ratio.values())) + " |")
    return 0


def write_results(out, rows, metas):
    write_csv(out, rows)
    m = metas[0]
    runs = "; ".join(
        f"{', '.join(x['ops'])}: read ceiling {x['read_gbs']:.0f} GB/s, "
        f"copy ceiling {x['copy_gbs']:.0f} GB/s" for x in metas)
    # Merged parts may come from several days: name them all.
    dates = ", ".join(sorted({x["date"] for x in metas}))
    versions = (f"torch {m['torch']}, triton {m['triton']}, "
                f"CUDA {m['cuda']}. n = {m['n']} elements.")
    head = (f"Device: {m['device']} ({m['sms']} SMs). Date: {dates}. "
            f"{versions} Ceilings measured in the same run as the rows "
            f"they divide ({runs}).")
    md = ["# tcuc benchmark results", "", head, "",
          "GB/s counts every byte read and written; `frac` is that over the "
          "read ceiling (reduce) or the copy ceiling (scans). `tcuc` is the "
          "default choice; `tcuc best` the fastest variant measured; `vs "
          "peer` is tcuc's time advantage over the fastest of CUB, PyTorch "
          "and Triton (>1: tcuc faster).", ""]
    for opname, *_ in OPS + EXTRA_OPS:
        sel = [r for r in rows if r["op"] == opname and r["ms"]]
        if not sel:
            continue
        md += [f"## {opname}", "",
               "| segment | tcuc GB/s | frac | tcuc best (variant) | frac "
               "| cub | torch | triton | vs peer | default within 5% of best "
               "| scratch B |",
               "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
               "| --- |"]
        segs = []
        for r in sel:
            if r["segment"] not in segs:
                segs.append(r["segment"])
        for s in segs:
            rs = [r for r in sel if r["segment"] == s]
            by = {r["lib"]: r for r in rs}
            tc = [r for r in rs if r["lib"].startswith("tcuc")]
            best = min(tc, key=lambda r: float(r["ms"])) if tc else None
            d = by.get("tcuc")
            peers = [r for r in rs if not r["lib"].startswith("tcuc")]
            bp = min(peers, key=lambda r: float(r["ms"])) if peers else None

            def g(r):
                return r["gbs"] if r else "-"
            md.append(
                f"| {s} | {g(d)} | {d['frac'] if d else '-'} | "
                f"{g(best)} ({best['variant'] if best else '-'}) | "
                f"{best['frac'] if best else '-'} | {g(by.get('cub'))} | "
                f"{g(by.get('torch'))} | {g(by.get('triton'))} | "
                + (f"{float(bp['ms']) / float(d['ms']):.2f} ({bp['lib']})"
                   if d and bp else "-") + " | "
                + (("yes" if float(d["ms"]) <= 1.05 * float(best["ms"])
                    else "no") if d and best else "-")
                + f" | {d['scratch'] if d else '-'} |")
        md.append("")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    reads = [x["read_gbs"] for x in metas]
    copies = [x["copy_gbs"] for x in metas]
    title = (f"{m['device']} ({m['sms']} SMs), {dates}. {versions}\n"
             f"Ceilings measured in each run: read {min(reads):.0f}-"
             f"{max(reads):.0f} GB/s, copy {min(copies):.0f}-"
             f"{max(copies):.0f} GB/s (results.md names each run's).")
    plot(out, rows, metas, title)


def plot(out, rows, metas, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot")
        return
    shown = [o for o in OPS + EXTRA_OPS
             if any(r["op"] == o[0] and r["ms"] for r in rows)]
    cols = 2
    fig, axes = plt.subplots((len(shown) + cols - 1) // cols, cols,
                             figsize=(14, 5 * ((len(shown) + cols - 1) // cols)),
                             squeeze=False)
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)
    for ax, (opname, op, *_) in zip(axes.flat, shown):
        sel = [r for r in rows if r["op"] == opname and r["ms"]]
        segs = []
        for r in sel:
            if r["segment"] not in segs:
                segs.append(r["segment"])
        xs = list(range(len(segs)))
        for lib in ("tcuc", "tcuc best", "cub", "torch", "triton"):
            ys = []
            for s in segs:
                rs = [r for r in sel if r["segment"] == s and (
                    r["lib"].startswith("tcuc") if lib == "tcuc best"
                    else r["lib"] == lib)]
                ys.append(max((float(r["gbs"]) for r in rs),
                              default=math.nan))
            ax.plot(xs, ys, marker="o", label=lib,
                    linestyle="--" if lib == "tcuc best" else "-")
        m = next((x for x in metas if opname in x["ops"]), metas[0])
        c = m["read_gbs"] if op == "reduce" else m["copy_gbs"]
        ax.axhline(c, color="k", linestyle=":",
                   label=("read" if op == "reduce" else "copy") + " ceiling")
        ax.set_xticks(xs)
        ax.set_xticklabels(
            [s if s == "whole" else f"2^{int(math.log2(int(s)))}"
             for s in segs], rotation=60, fontsize=7)
        ax.set_title(opname)
        ax.set_xlabel("segment size")
        ax.set_ylabel("GB/s (bytes read + written)")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(os.path.join(out, "throughput.png"), dpi=110)


def sweep_filters(p):
    """The options that narrow a sweep, the same for fill and run."""
    p.add_argument("--ops", nargs="*", help="only these operations")
    p.add_argument("--max-segment", type=int,
                   help="skip segments above this (not the whole array)")
    p.add_argument("--segments", nargs="*",
                   help="exactly these segment sizes ('whole' for the array)")
    p.add_argument("--dense", action="store_true",
                   help="sweep 1..64 and 8 sizes per octave to 2^24 (with "
                        "primes and round numbers) instead of the powers of "
                        "two")
    p.add_argument("--only", nargs="*",
                   help="only these tcuc strategies: variant names, name:tiles, "
                        "name:tiles:warps (block, lookback, lagged), or "
                        "'default'; a full strategy the sweep does not try "
                        "(e.g. lagged:3:4) is timed too")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fill", help="compile the sweep's kernels into a cache")
    f.add_argument("--tcuc", required=True)
    f.add_argument("--cache-dir", required=True)
    f.add_argument("--arch", default="sm_90")
    f.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    f.add_argument("--n", type=int, default=DEFAULT_N)
    f.add_argument("--cubin", action="store_true",
                   help="store each kernel's cubin beside it (tcuc compile "
                        "--cubin: needs ptxas), so the GPU machine loads it "
                        "without the driver's PTX JIT")
    sweep_filters(f)
    r = sub.add_parser("run", help="run the sweep on the GPU")
    r.add_argument("--cache-dir", required=True)
    r.add_argument("--tcuc-lib", required=True)
    r.add_argument("--cub-lib", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--n", type=int, default=DEFAULT_N)
    r.add_argument("--reps", type=int, default=30)
    r.add_argument("--budget-ms", type=float, default=400,
                   help="fewer repetitions (at least 3) when one call is slow")
    sweep_filters(r)
    r.add_argument("--no-peers", action="store_true",
                   help="time tcuc only (no CUB, PyTorch, Triton)")
    r.add_argument("--energy-ms", type=float, default=0,
                   help="also measure each cell's energy (NVML) over a loop "
                        "of calls lasting about this many ms")
    m = sub.add_parser("report", help="results.md, results.csv and the plot "
                       "from several runs' directories")
    m.add_argument("dirs", nargs="+")
    m.add_argument("--out", required=True)
    s = sub.add_parser("summary", help="worst cell and median per operation "
                       "and group of sizes (1-15, 16-64, 65-2^24, whole), "
                       "next to the best peer, from results.csv files")
    s.add_argument("csv", nargs="+")
    args = p.parse_args()
    if args.cmd == "summary":
        return summary(args)
    if args.cmd == "fill":
        return fill(args)
    if args.cmd == "report":
        return report(args)
    os.makedirs(args.out, exist_ok=True)
    t = time.time()
    run(args)
    print(f"sweep took {time.time() - t:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
