#!/usr/bin/env python3
"""The Python package on a GPU (docs/python.md): the per-call overhead of
its path over the kernel, and a table of tcuc's functions beside the torch
code a user writes instead, on the same buffers, with the copy and read
ceilings measured in the same run.

    PYTHONPATH=<build>/python bench/python_api.py --out DIR [--n N]

Writes DIR/overhead.csv, DIR/table.csv and DIR/log.txt. Needs a CUDA GPU,
torch and Triton (the read ceiling's kernel); the kernels come from the
kernel library, the cache ($TCUC_CACHE_DIR) or the compiler.
"""
import argparse
import csv
import os
import time

import torch
import triton
import triton.language as tl

import tcuc
from tcuc import _tcuc as native


@triton.jit
def _read_kernel(x_ptr, sink_ptr, n, BLOCK: tl.constexpr):
    """Reads every byte once (int32 words) and keeps one sum a block."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(sink_ptr + pid % 65536, tl.sum(v, axis=0))


def timed(fn, reps=30):
    """Median CUDA-event milliseconds of single calls, after a warm-up."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def host_us(fn, calls=2000):
    """Host microseconds a call, over `calls` back-to-back calls (the GPU
    work of each is far shorter, so the host is what is measured)."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t) / calls * 1e6)
    return best


def overhead(say, out_dir):
    n, seg = 4096, 16
    x = torch.randn(n, device="cuda").half()
    xg = x.clone().float().requires_grad_()
    out = torch.empty(n, device="cuda", dtype=torch.float32)
    stream = torch.cuda.current_stream().cuda_stream
    ptr_in, ptr_out = x.data_ptr(), out.data_ptr()
    rows = []

    def raw():
        native.run("cuda", True, ptr_in, ptr_out, n, n, seg, 0, 0, 0, "f16",
                   "f32", True, False, stream)

    cases = [
        ("native _tcuc.run (preallocated output)", raw),
        ("tcuc.segment_cumsum(x, 16)", lambda: tcuc.segment_cumsum(x, seg)),
        ("tcuc.segment_sum(x, 16)", lambda: tcuc.segment_sum(x, seg)),
        ("tcuc.segment_cumsum(x, 16), x.requires_grad",
         lambda: tcuc.segment_cumsum(xg, seg)),
        ("torch.cumsum(x.view(-1, 16), -1, dtype=float32)",
         lambda: torch.cumsum(x.view(-1, seg), -1, dtype=torch.float32)),
        ("torch.empty(n) (an allocation)",
         lambda: torch.empty(n, device="cuda")),
    ]
    try:
        import cupy
        xc = cupy.asarray(x.float().cpu().numpy()).astype(cupy.float16)
        cases.append(("tcuc.segment_cumsum(cupy array, 16)",
                      lambda: tcuc.segment_cumsum(xc, seg)))
    except ImportError:
        pass
    kernel_ms = timed(raw, reps=200)
    say(f"overhead: n={n}, segment {seg}, f16 -> f32; the kernel alone "
        f"{kernel_ms * 1e3:.1f} us (CUDA events)")
    for name, fn in cases:
        us = host_us(fn)
        rows.append({"call": name, "host_us_per_call": f"{us:.2f}",
                     "kernel_us": f"{kernel_ms * 1e3:.2f}"})
        say(f"  {us:7.2f} us/call  {name}")
    write(os.path.join(out_dir, "overhead.csv"), rows)


def table(say, out_dir, n):
    gen = torch.Generator(device="cuda").manual_seed(2026)
    x = torch.randn(n, device="cuda", generator=gen).half()
    o16 = torch.empty(n, device="cuda", dtype=torch.float16)
    sink = torch.empty(65536, device="cuda", dtype=torch.int32)
    words = n * 2 // 4
    block = 4096
    read_ms = timed(lambda: _read_kernel[(triton.cdiv(words, block),)](
        x.view(torch.int32), sink, words, BLOCK=block))
    copy_ms = timed(lambda: o16.copy_(x))
    read_gbs, copy_gbs = 2 * n / read_ms / 1e6, 4 * n / copy_ms / 1e6
    say(f"table: n = {n} f16 in, f32 out; read ceiling {read_gbs:.0f} GB/s,"
        f" copy ceiling {copy_gbs:.0f} GB/s")
    rows = []

    def record(op, seg, lib, fn, nbytes, ceiling):
        ms = timed(fn)
        gbs = nbytes / ms / 1e6
        rows.append({"op": op, "segments": seg, "impl": lib,
                     "ms": f"{ms:.3f}", "GBps": f"{gbs:.0f}",
                     "frac_of_ceiling": f"{gbs / ceiling:.3f}"})
        say(f"  {op:7} {seg:>12} {lib:46} {ms:8.3f} ms {gbs:6.0f} GB/s "
            f"{gbs / ceiling:6.1%}")

    for seg in (16, 100, 1000, n):
        name = "whole" if seg == n else str(seg)
        v = x[: n // seg * seg].view(-1, seg)
        k = -(-n // seg)
        record("sum", name, "tcuc.segment_sum", lambda: tcuc.segment_sum(
            x, seg), 2 * n + 4 * k, read_gbs)
        record("sum", name, "torch.sum(x.view(-1, S), -1, dtype=f32)",
               lambda: torch.sum(v, -1, dtype=torch.float32), 2 * n + 4 * k,
               read_gbs)
        record("cumsum", name, "tcuc.segment_cumsum",
               lambda: tcuc.segment_cumsum(x, seg), 6 * n, copy_gbs)
        record("cumsum", name, "torch.cumsum(x.view(-1, S), -1, dtype=f32)",
               lambda: torch.cumsum(v, -1, dtype=torch.float32), 6 * n,
               copy_gbs)
        # Suffix sums (the gradient of a cumsum): torch has no reverse
        # cumsum; users flip, scan and flip back.
        record("revsum", name, "tcuc.segment_cumsum(reverse=True)",
               lambda: tcuc.segment_cumsum(x, seg, reverse=True), 6 * n,
               copy_gbs)
        record("revsum", name, "x.view(-1, S).flip(-1).cumsum(-1).flip(-1)",
               lambda: torch.cumsum(v.flip(-1), -1,
                                    dtype=torch.float32).flip(-1), 6 * n,
               copy_gbs)
    # Offsets: uniform random lengths 1..199 (mean 100).
    lengths = torch.randint(1, 200, (n // 100 + 1,), device="cuda",
                            generator=gen)
    ends = torch.cumsum(lengths, 0)
    lengths = lengths[ends <= n]
    lengths = torch.cat([lengths, (n - lengths.sum()).view(1)])
    offsets = torch.cat([torch.zeros(1, device="cuda", dtype=torch.int64),
                         torch.cumsum(lengths, 0)])
    k = lengths.numel()
    ids = torch.repeat_interleave(torch.arange(k, device="cuda"), lengths,
                                  output_size=n)
    starts = offsets[:-1]
    name = f"uniform 1..199 ({k})"
    record("sum", name, "tcuc.segment_sum(offsets=)",
           lambda: tcuc.segment_sum(x, offsets=offsets, validate=False),
           2 * n + 4 * k + 8 * k, read_gbs)
    record("sum", name, "torch.segment_reduce(x, 'sum', lengths=)",
           lambda: torch.segment_reduce(x, "sum", lengths=lengths),
           2 * n + 4 * k + 8 * k, read_gbs)
    record("sum", name, "zeros(k).index_add_(0, ids, x.float())",
           lambda: torch.zeros(k, device="cuda").index_add_(0, ids,
                                                            x.float()),
           2 * n + 4 * k + 8 * k, read_gbs)
    record("cumsum", name, "tcuc.segment_cumsum(offsets=)",
           lambda: tcuc.segment_cumsum(x, offsets=offsets, validate=False),
           6 * n + 8 * k, copy_gbs)

    def base_subtracted():
        c = torch.cumsum(x, 0, dtype=torch.float32)
        base = torch.cat([c.new_zeros(1), c])[starts]
        return c - torch.repeat_interleave(base, lengths, output_size=n)

    record("cumsum", name, "cumsum(x) - repeat_interleave(segment base)",
           base_subtracted, 6 * n + 8 * k, copy_gbs)
    write(os.path.join(out_dir, "table.csv"), rows)


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--n", type=int, default=1 << 28)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "log.txt"), "w")

    def say(*a):
        print(*a, flush=True)
        print(*a, file=log, flush=True)

    props = torch.cuda.get_device_properties(0)
    say(f"device {props.name}; tcuc {tcuc.__version__} (kernels "
        f"{tcuc.device_arch()}), torch {torch.__version__}, triton "
        f"{triton.__version__}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    overhead(say, args.out)
    table(say, args.out, args.n)
    say(f"runtime: {tcuc.runtime_stats()}")


if __name__ == "__main__":
    main()
