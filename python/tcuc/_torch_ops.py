"""tcuc's functions as torch.library custom ops (tcuc::segment_sum,
tcuc::segment_cumsum): fake implementations for torch.compile, and autograd.
The gradient of a segment sum broadcasts the output's gradient back over
each segment; the gradient of a scan is the scan of the gradient in the
other direction (reverse for a forward scan, exclusive stays exclusive), with
the same decay for a decayed scan (its transpose is the decayed scan run
the other way). Per-segment decays get a gradient too: for h_i = a·h_{i-1}
+ x_i, dL/da of a segment is the sum over it of dL/dx_i · h_{i-1}, the
input's gradient times the exclusive decayed scan of the input (mirrored
for reverse scans; exclusive scans alike, docs/python.md "Gradients")."""

from typing import Optional

import torch
from torch import Tensor

from . import _torch_impl


@torch.library.custom_op("tcuc::segment_sum", mutates_args=())
def segment_sum(x: Tensor, segment_size: int, offsets: Optional[Tensor],
                dim: int, out_dtype: Optional[torch.dtype],
                validate: bool) -> Tensor:
    return _torch_impl.run("segment_sum", False, x, segment_size, offsets,
                           dim, out_dtype, False, False, validate)


@torch.library.custom_op("tcuc::segment_cumsum", mutates_args=())
def segment_cumsum(x: Tensor, segment_size: int, offsets: Optional[Tensor],
                   dim: int, exclusive: bool, reverse: bool,
                   out_dtype: Optional[torch.dtype],
                   validate: bool, decay: float = 1.0,
                   decays: Optional[Tensor] = None) -> Tensor:
    return _torch_impl.run("segment_cumsum", True, x, segment_size, offsets,
                           dim, out_dtype, exclusive, reverse, validate, decay,
                           decays)


@segment_sum.register_fake
def _(x, segment_size, offsets, dim, out_dtype, validate):
    return _torch_impl.fake("segment_sum", False, x, segment_size, offsets,
                            dim, out_dtype)


@segment_cumsum.register_fake
def _(x, segment_size, offsets, dim, exclusive, reverse, out_dtype,
      validate, decay=1.0, decays=None):
    return _torch_impl.fake("segment_cumsum", True, x, segment_size, offsets,
                            dim, out_dtype, decays)


def _sum_setup(ctx, inputs, output):
    x, segment_size, offsets, dim, _, _ = inputs
    ctx.segment_size, ctx.dim = segment_size, dim % x.dim()
    ctx.length, ctx.x_dtype = x.shape[ctx.dim], x.dtype
    ctx.save_for_backward(offsets)


def _sum_backward(ctx, grad):
    (offsets,) = ctx.saved_tensors
    if offsets is not None:
        lengths = (offsets[1:] - offsets[:-1]).to(torch.int64)
        g = torch.repeat_interleave(grad, lengths, dim=ctx.dim,
                                    output_size=ctx.length)
    else:
        seg = ctx.length if ctx.segment_size < 0 else ctx.segment_size
        g = grad.repeat_interleave(max(1, seg), dim=ctx.dim).narrow(
            ctx.dim, 0, ctx.length)
    return g.to(ctx.x_dtype), None, None, None, None, None


def _scan_setup(ctx, inputs, output):
    x, segment_size, offsets, dim, exclusive, reverse, _, _, decay, decays = \
        inputs
    ctx.args = (segment_size, dim % x.dim(), exclusive, reverse, decay)
    ctx.x_dtype = x.dtype
    wants_decays = decays is not None and decays.requires_grad
    ctx.save_for_backward(offsets, decays, x if wants_decays else None)


def _scan_backward(ctx, grad):
    offsets, decays, x = ctx.saved_tensors
    segment_size, dim, exclusive, reverse, decay = ctx.args
    # f32 gradients through the f32 kernels (an f16 grad widens exactly).
    g = segment_cumsum(grad.to(torch.float32), segment_size, offsets, dim,
                       exclusive, not reverse, None, False, decay, decays)
    gd = None
    if x is not None and ctx.needs_input_grad[9]:
        h_before = segment_cumsum(x, segment_size, offsets, dim, True,
                                  reverse, None, False, decay, decays)
        gd = segment_sum(g * h_before, segment_size, offsets, dim, None,
                         False)
        if decays.dim() == 1 and x.dim() > 1:  # broadcast over the rows
            gd = gd.movedim(dim, -1).reshape(-1, decays.shape[0]).sum(0)
        gd = gd.to(decays.dtype)
    return (g.to(ctx.x_dtype), None, None, None, None, None, None, None, None,
            gd)


segment_sum.register_autograd(_sum_backward, setup_context=_sum_setup)
segment_cumsum.register_autograd(_scan_backward, setup_context=_scan_setup)
