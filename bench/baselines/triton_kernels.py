"""The Triton baselines: what a user writes with tl.sum / tl.cumsum over the
rows of x.view(-1, segment). One program owns ROWS segments and walks them
in BLOCK-wide chunks (a running carry for the scan), so any segment size
runs; large segments get one program each, which is where this simple form
runs out of parallelism."""

import triton
import triton.language as tl


@triton.jit
def _segment_sum(x, y, n, segments, seg, ROWS: tl.constexpr, BLOCK: tl.constexpr,
                 ACC: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    acc = tl.zeros([ROWS, BLOCK], ACC)
    for start in range(0, seg, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        offs = rows[:, None] * seg + cols[None, :]
        mask = (rows[:, None] < segments) & (cols[None, :] < seg) & (offs < n)
        v = tl.load(x + offs, mask=mask, other=0)
        acc += v.to(ACC)
    tl.store(y + rows, tl.sum(acc, 1), mask=rows < segments)


@triton.jit
def _segment_cumsum(x, y, n, segments, seg, ROWS: tl.constexpr,
                    BLOCK: tl.constexpr, ACC: tl.constexpr,
                    INCLUSIVE: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    carry = tl.zeros([ROWS], ACC)
    for start in range(0, seg, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        offs = rows[:, None] * seg + cols[None, :]
        mask = (rows[:, None] < segments) & (cols[None, :] < seg) & (offs < n)
        v = tl.load(x + offs, mask=mask, other=0).to(ACC)
        c = tl.cumsum(v, 1) + carry[:, None]
        if not INCLUSIVE:
            c -= v
        tl.store(y + offs, c.to(y.dtype.element_ty), mask=mask)
        carry += tl.sum(v, 1)


def _shape(seg, elements):
    """(ROWS, BLOCK, warps): about `elements` per program per step."""
    block = min(triton.next_power_of_2(seg), elements)
    rows = max(1, elements // block)
    return rows, block, 8 if elements >= 4096 else 4


def _acc(x):
    import torch
    return tl.int32 if x.dtype == torch.int8 else tl.float32


def segment_sum(x, y, seg):
    n = x.numel()
    segments = (n + seg - 1) // seg
    rows, block, warps = _shape(seg, 4096)
    _segment_sum[(triton.cdiv(segments, rows),)](
        x, y, n, segments, seg, ROWS=rows, BLOCK=block, ACC=_acc(x),
        num_warps=warps)


def segment_cumsum(x, y, seg, inclusive=True):
    n = x.numel()
    segments = (n + seg - 1) // seg
    rows, block, warps = _shape(seg, 2048)
    _segment_cumsum[(triton.cdiv(segments, rows),)](
        x, y, n, segments, seg, ROWS=rows, BLOCK=block, ACC=_acc(x),
        INCLUSIVE=inclusive, num_warps=warps)
