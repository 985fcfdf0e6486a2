#!/usr/bin/env python3
"""Triton peer for bench/offsets.py: segmented sum and prefix sums over CSR
offsets (k+1 int32 offsets, first 0, last n, empty segments allowed), f16 or
f32 input, f32 output, accumulated in f32. Works for any n and offsets.

Load-balanced as a Triton user would write it: each program takes BLOCK
consecutive ELEMENTS, so one huge segment or millions of tiny ones cost the
same number of programs (one program a segment collapses on both).

Finding segments: a first small kernel binary-searches, for each block start
p, bounds[b] = the first s with off[s] >= p (ceil(log2(k+1)) gathers, all
blocks at once). The segments that start in block b are [bounds[b],
bounds[b+1]), and an element's segment (the last s with off[s] <= i) lies in
[bounds[b]-1, bounds[b+1]-1]: each element binary-searches only that window,
ceil(log2(window)) gathers of cached offsets (0 inside a huge segment, about
log2(BLOCK) for one-element segments). tl.associative_scan over (value,
segment id) pairs then gives in-block segmented inclusive sums.

segment_sum: reads the input once. A segment inside one block is stored by
that block at its last element; the (at most two) segments of a block that
cross its edges get a tl.atomic_add of its part into an output that the
first kernel zeroed, so a segment spanning 3 or more blocks is NOT bitwise
deterministic from run to run. Empty segments are stored as 0.

segment_cumsum: reduce-then-scan, reads the input twice. Pass 1 sums each
block's last segment run and flags whether that run starts in the block; a
one-program kernel scans those (sum, flag) pairs across blocks into carries;
pass 2 rescans the block and adds the previous block's carry to its leading
segment if that began earlier. Deterministic. Exclusive = inclusive - x.

    TRITON_INTERPRET=1 python3 bench/triton_offsets.py --check   # on CPU
"""
import os
import sys

import torch
import triton
import triton.language as tl

BLOCK = 4096  # elements a program: 16 a thread at 8 warps (chosen, not tuned)
NUM_WARPS = 8
BOUNDS_BLOCK = 1024  # block starts searched by one program
CARRY_BLOCK = 4096  # block carries scanned an iteration (one program)


@triton.jit
def _bounds_kernel(off_ptr, bounds_ptr, out_ptr, k, nblocks, steps,
                   ZERO: tl.constexpr, BLOCK: tl.constexpr, BB: tl.constexpr):
    # bounds[b] = first s in [0, k] with off[s] >= b*BLOCK; bounds[nblocks]=k.
    b = tl.program_id(0) * BB + tl.arange(0, BB)
    m = b <= nblocks
    lo = tl.zeros([BB], tl.int32)
    hi = lo + k
    for _ in range(steps):  # steps = ceil(log2(k+1)), the same for all
        mid = lo + (hi - lo) // 2
        go = tl.load(off_ptr + mid, mask=m, other=0) < b * BLOCK
        active = lo < hi
        lo = tl.where(active & go, mid + 1, lo)
        hi = tl.where(active & ~go, mid, hi)
    lo = tl.where(b == nblocks, k, lo)
    tl.store(bounds_ptr + b, lo, mask=m)
    if ZERO:  # segment_sum: zero the segment that crosses each block start
        tl.store(out_ptr + lo - 1, 0.0, mask=m & (b > 0) & (b < nblocks))


@triton.jit
def _find_segment(off_ptr, idx, s_lo, s_hi):
    # The last s in [s_lo, s_hi] with off[s] <= idx; off[s_lo] <= idx holds.
    steps = 0
    w = s_hi - s_lo
    while w > 0:  # steps = ceil(log2(window size)), the same for the block
        w = w // 2
        steps += 1
    lo = tl.zeros_like(idx) + s_lo
    hi = tl.zeros_like(idx) + s_hi
    for _ in range(steps):
        mid = lo + (hi - lo + 1) // 2
        go = tl.load(off_ptr + mid) <= idx
        lo = tl.where(go, mid, lo)
        hi = tl.where(go, hi, mid - 1)
    return lo


@triton.jit
def _seg_add(va, sa, vb, sb):
    # Segment ids rise along the block, so this sums the right operand's run.
    return tl.where(sa == sb, va + vb, vb), sb


@triton.jit
def _flag_add(va, fa, vb, fb):
    # Head-flag form across blocks: fb set means b's run starts in b.
    return tl.where(fb != 0, vb, va + vb), fa | fb


@triton.jit
def _block_scan(x_ptr, off_ptr, bounds_ptr, n, pid, BLOCK: tl.constexpr):
    start = pid * BLOCK
    idx = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + idx, mask=idx < n, other=0.0).to(tl.float32)
    s_lo = tl.maximum(tl.load(bounds_ptr + pid) - 1, 0)
    s_hi = tl.load(bounds_ptr + pid + 1) - 1  # the last element's segment
    seg = _find_segment(off_ptr, idx, s_lo, s_hi)
    acc, _ = tl.associative_scan((x, seg), 0, _seg_add)
    return start, idx, x, s_lo, s_hi, seg, acc


@triton.jit
def _reduce_kernel(x_ptr, off_ptr, bounds_ptr, out_ptr, n,
                   BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start, idx, x, s_lo, s_hi, seg, acc = _block_scan(
        x_ptr, off_ptr, bounds_ptr, n, pid, BLOCK)
    end = tl.minimum(start + BLOCK, n)
    seg_end = tl.load(off_ptr + seg + 1)
    last = (idx < end) & ((idx + 1 == seg_end) | (idx + 1 == end))
    whole = (tl.load(off_ptr + seg) >= start) & (seg_end <= end)
    tl.store(out_ptr + seg, acc, mask=last & whole)
    # Crossing an edge: s_lo if it began before, s_hi if it goes on; scalar
    # atomics (per-element masked ones measured slower: layout shuffles).
    lead = (tl.load(off_ptr + s_lo) < start) & (
        tl.load(off_ptr + s_lo + 1) > start)
    tl.atomic_add(out_ptr + s_lo, tl.sum(tl.where(seg == s_lo, x, 0.0), 0),
                  mask=lead, sem="relaxed")
    tail = (tl.load(off_ptr + s_hi + 1) > end) & ~(lead & (s_hi == s_lo))
    tl.atomic_add(out_ptr + s_hi, tl.sum(tl.where(seg == s_hi, x, 0.0), 0),
                  mask=tail, sem="relaxed")
    # Empty segments that start in this block (or at n, for the last one).
    for s0 in range(tl.load(bounds_ptr + pid), s_hi + 1, BLOCK):
        s = s0 + tl.arange(0, BLOCK)
        ms = s <= s_hi
        a = tl.load(off_ptr + s, mask=ms, other=0)
        b = tl.load(off_ptr + s + 1, mask=ms, other=0)
        tl.store(out_ptr + s, tl.zeros([BLOCK], tl.float32), mask=ms & (a == b))


@triton.jit
def _tails_kernel(x_ptr, off_ptr, bounds_ptr, tail_ptr, flag_ptr, n,
                  BLOCK: tl.constexpr):
    # Sum of the block's last segment run; flag: that run starts here.
    pid = tl.program_id(0)
    start = pid * BLOCK
    idx = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + idx, mask=idx < n, other=0.0).to(tl.float32)
    run_start = tl.load(off_ptr + tl.load(bounds_ptr + pid + 1) - 1)
    tl.store(tail_ptr + pid, tl.sum(tl.where(idx >= run_start, x, 0.0), 0))
    tl.store(flag_ptr + pid, (run_start >= start).to(tl.int32))


@triton.jit
def _carry_kernel(tail_ptr, flag_ptr, carry_ptr, nblocks, CB: tl.constexpr):
    # One program: carry[b] = the sum of b's last segment up to b's end.
    run = tl.zeros([], tl.float32)
    for c in range(0, nblocks, CB):
        i = c + tl.arange(0, CB)
        m = i < nblocks
        t = tl.load(tail_ptr + i, mask=m, other=0.0)
        f = tl.load(flag_ptr + i, mask=m, other=0)
        v, g = tl.associative_scan((t, f), 0, _flag_add)
        v = tl.where(g != 0, v, v + run)
        tl.store(carry_ptr + i, v, mask=m)
        run = tl.sum(tl.where(i == tl.minimum(c + CB, nblocks) - 1, v, 0.0), 0)


@triton.jit
def _scan_kernel(x_ptr, off_ptr, bounds_ptr, carry_ptr, out_ptr, n,
                 INCLUSIVE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start, idx, x, s_lo, s_hi, seg, acc = _block_scan(
        x_ptr, off_ptr, bounds_ptr, n, pid, BLOCK)
    # s_lo began before this block (so pid > 0): its elements take the carry.
    cont = tl.load(off_ptr + s_lo) < start
    c_in = tl.load(carry_ptr + pid - 1, mask=cont, other=0.0)
    acc += tl.where(cont & (seg == s_lo), c_in, 0.0)
    if not INCLUSIVE:
        acc -= x
    tl.store(out_ptr + idx, acc, mask=idx < n)


def _setup(x, off, k, out, block, zero_out):
    n = x.numel()
    assert off.dtype == torch.int32 and off.numel() >= k + 1 and k >= 1
    assert out.dtype == torch.float32 and x.is_contiguous() and off.is_contiguous()
    assert n + block < 2 ** 31, "positions are int32"
    nblocks = triton.cdiv(n, block)
    bounds = torch.empty(nblocks + 1, dtype=torch.int32, device=x.device)
    if n:
        _bounds_kernel[(triton.cdiv(nblocks + 1, BOUNDS_BLOCK),)](
            off, bounds, out, k, nblocks, k.bit_length(), ZERO=zero_out,
            BLOCK=block, BB=BOUNDS_BLOCK)
    return n, nblocks, bounds


def segment_sum(x, offsets_i32, k, out, block=BLOCK):
    """out[s] = sum(x[off[s]:off[s+1]]) in f32 (0 if empty), s < k."""
    n, nblocks, bounds = _setup(x, offsets_i32, k, out, block, True)
    if n == 0:
        out[:k].zero_()
        return out
    _reduce_kernel[(nblocks,)](x, offsets_i32, bounds, out, n, BLOCK=block,
                               num_warps=NUM_WARPS)
    return out


def segment_cumsum(x, offsets_i32, k, out, inclusive, block=BLOCK,
                   carry_block=CARRY_BLOCK):
    """out[i] = sum of x over [off[s], i] (inclusive) or [off[s], i)."""
    n, nblocks, bounds = _setup(x, offsets_i32, k, out, block, False)
    if n == 0:
        return out
    tails = torch.empty(nblocks, dtype=torch.float32, device=x.device)
    flags = torch.empty(nblocks, dtype=torch.int32, device=x.device)
    carry = torch.empty(nblocks, dtype=torch.float32, device=x.device)
    _tails_kernel[(nblocks,)](x, offsets_i32, bounds, tails, flags, n,
                              BLOCK=block, num_warps=NUM_WARPS)
    _carry_kernel[(1,)](tails, flags, carry, nblocks, num_warps=NUM_WARPS,
                        CB=min(carry_block, triton.next_power_of_2(nblocks)))
    _scan_kernel[(nblocks,)](x, offsets_i32, bounds, carry, out, n,
                             INCLUSIVE=bool(inclusive), BLOCK=block,
                             num_warps=NUM_WARPS)
    return out


def _offsets(n, kind, g):
    """k+1 int64 offsets over n elements, of one of the check's kinds."""
    if kind == "ones":
        return torch.arange(n + 1)
    if kind == "one":  # k = 1
        cuts = torch.tensor([], dtype=torch.int64)
    elif kind == "edges":  # repeated cuts at 0, n and block starts
        cuts = torch.tensor([0, 0, 64, 64, 64, 128, n, n] * 2)
    elif kind == "hugeplus":  # tiny segments (empties too) around a huge one
        cuts = torch.cat([torch.randint(0, 4, (20,), generator=g),
                          n - torch.randint(0, 4, (20,), generator=g)])
    else:  # "random": up to 2n+1 segments, many empty when k > n
        k = int(torch.randint(1, 2 * n + 2, (1,), generator=g))
        cuts = torch.randint(0, n + 1, (k - 1,), generator=g)
    cuts = cuts.clamp(0, n).sort().values
    return torch.cat([torch.tensor([0]), cuts, torch.tensor([n])])


def _check():
    """Random cases against a float64 reference, compared exactly: x holds
    halves of small integers, so every f32 partial sum is exact."""
    interp = os.environ.get("TRITON_INTERPRET") == "1"
    dev = "cuda" if torch.cuda.is_available() and not interp else "cpu"
    g = torch.Generator().manual_seed(46)
    # Small blocks give many blocks (carries, crossings) on small n, and a
    # small carry block many carry iterations; the interpreter scans element
    # by element, so BLOCK itself runs on few n.
    runs = [(n, b, cb) for n in [1, 2, 3, 15, 16, 17, 64, 65, 200, 1000, 3000]
            for b, cb in ((16, 4), (64, CARRY_BLOCK))]
    runs += [(n, BLOCK, CARRY_BLOCK) for n in (1, 4097, 5000)]
    bad = cases = 0
    for n, block, cb in runs:
        for kind in ["random", "random", "ones", "one", "edges", "hugeplus"]:
            off64 = _offsets(n, kind, g)
            k = len(off64) - 1
            xd = (torch.randint(-8, 9, (n,), generator=g) / 2).double()
            inc = torch.cumsum(xd, 0)
            base = torch.cat([torch.zeros(1, dtype=xd.dtype), inc])[off64[:-1]]
            ref_inc = inc - torch.repeat_interleave(base, off64.diff())
            refs = [torch.segment_reduce(xd, "sum", offsets=off64), ref_inc,
                    ref_inc - xd]
            x, off = xd.half().to(dev), off64.to(torch.int32).to(dev)
            out = torch.full((max(n, k),), float("nan"), device=dev)
            got = [segment_sum(x, off, k, out, block)[:k].clone().cpu()]
            for inclusive in (True, False):
                out.fill_(float("nan"))  # every output must be written
                got.append(segment_cumsum(x, off, k, out, inclusive, block,
                                          cb)[:n].clone().cpu())
            for name, ref, o in zip(["sum", "scan", "exscan"], refs, got):
                cases += 1
                if not torch.equal(o.double(), ref):
                    bad += 1
                    err = (o.double() - ref).abs().nan_to_num(1e9).max()
                    print(f"MISMATCH {name} n={n} k={k} {kind} block={block}"
                          f": max err {err}")
    print(f"{cases - bad} passed, {bad} failed ({dev})")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--check"]:
        sys.exit(__doc__)
    sys.exit(_check())
