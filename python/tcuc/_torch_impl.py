"""The torch implementation behind the custom ops (tcuc/_torch_ops.py):
moves `dim` last, makes the input contiguous, allocates the result and
launches one kernel on the tensor's device and current stream."""

import torch

from . import _plan
from . import _tcuc as _native

DTYPES = {torch.float16: "float16", torch.bfloat16: "bfloat16",
          torch.float32: "float32", torch.int8: "int8",
          torch.int32: "int32", torch.int64: "int64",
          torch.float64: "float64", torch.int16: "int16",
          torch.uint8: "uint8", torch.bool: "bool"}
BY_NAME = {v: k for k, v in DTYPES.items()}


def dtype_name(dtype):
    return DTYPES.get(dtype, str(dtype).replace("torch.", ""))


def out_dtype_of(x_dtype, out_dtype, op):
    name = _plan.input_dtype_name(dtype_name(x_dtype), op)
    out = None if out_dtype is None else dtype_name(out_dtype)
    return BY_NAME[_plan.output_dtype_name(name, out, op)]


def check(op, x, segment_size, offsets, dim, out_dtype, decays=None):
    """Every check that needs no data: what the fake implementation runs too,
    so a traced call fails as an eager one does."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"tcuc.{op}: expected a tensor, got {type(x)}")
    out_dtype_of(x.dtype, out_dtype, op)
    dim = _plan.normalize_dim(dim, x.dim(), op)
    _plan.check_segment_size(None if segment_size < 0 else segment_size,
                             offsets is not None, op)
    if x.device.type not in ("cpu", "cuda"):
        raise ValueError(f"tcuc.{op}: tensors on {x.device} are not "
                         "supported (CPU and CUDA only)")
    if x.device.type == "cuda" and x.device.index not in (None, 0):
        raise ValueError(f"tcuc.{op}: tcuc runs on CUDA device 0; the "
                         f"input is on {x.device} (set CUDA_VISIBLE_DEVICES "
                         "to make that GPU device 0)")
    if offsets is not None:
        _plan.check_offsets_meta(dtype_name(offsets.dtype), offsets.dim(),
                                 offsets.numel(), op)
        if offsets.device != x.device:
            raise ValueError(f"tcuc.{op}: offsets are on {offsets.device} "
                             f"but the input on {x.device}: put both on "
                             "the same device")
    if decays is not None:
        if x.dtype not in (torch.float16, torch.bfloat16, torch.float32):
            raise ValueError(f"tcuc.{op}: decayed scans take float input, "
                             f"got {dtype_name(x.dtype)}")
        _plan.check_decays_meta(
            dtype_name(decays.dtype), decays.shape, x.shape, dim,
            _plan.segments_per_row(x.shape[dim], None if segment_size < 0
                                   else segment_size,
                                   None if offsets is None else
                                   offsets.numel()), op)
        if decays.device != x.device:
            raise ValueError(f"tcuc.{op}: decays are on {decays.device} "
                             f"but the input on {x.device}: put both on "
                             "the same device")
    return dim


def fake(op, is_scan, x, segment_size, offsets, dim, out_dtype, decays=None):
    """The result's metadata without running anything: what run() returns,
    strides included (computed with `dim` last, then moved back)."""
    dim = check(op, x, segment_size, offsets, dim, out_dtype, decays)
    shape = list(x.shape)
    length = shape.pop(dim)
    if not is_scan:
        if offsets is not None:
            length = offsets.shape[0] - 1
        else:
            seg = length if segment_size < 0 else segment_size
            length = -(-length // max(1, seg))
    out = x.new_empty(shape + [length],
                      dtype=out_dtype_of(x.dtype, out_dtype, op))
    return out if dim == x.dim() - 1 else out.movedim(-1, dim)


def _capturing(x):
    return x.is_cuda and torch.cuda.is_current_stream_capturing()


def validate_offsets(op, offsets, length):
    host = offsets.cpu() if offsets.is_cuda else offsets.contiguous()
    why = _native.offsets_error(host.data_ptr(), host.numel(),
                                32 if host.dtype == torch.int32 else 64,
                                length)
    if why:
        raise ValueError(f"tcuc.{op}: bad offsets: {why}")


def flat_decays(decays, dim, rows, k):
    """Per-segment decays as the kernels take them: float32, one per
    segment of the rows (`dim` moved last) one after the other."""
    d = decays.to(torch.float32)
    d = d.expand(rows, k) if d.dim() == 1 else d.movedim(dim, -1)
    return d.contiguous().reshape(-1)


def validate_decays(op, decays):
    """Checks float32 per-segment decays on the host; returns their common
    value where all are equal (the one-decay kernels then run: they also
    split long segments over warps), else None."""
    host = decays.cpu() if decays.is_cuda else decays
    why = _native.decays_error(host.data_ptr(), host.numel())
    if why:
        raise ValueError(f"tcuc.{op}: bad per-segment {why}")
    if host.numel() and bool((host == host[0]).all()):
        return float(host[0])
    return None


def _row_offsets(offsets, rows, length, segment, device):
    """Offsets of every row's segments, one after the other (a segment never
    straddles two rows)."""
    if offsets is None:
        offsets = torch.arange(0, length + segment, segment, device=device,
                               dtype=torch.int64).clamp_(max=length)
    base = (torch.arange(rows, device=device, dtype=torch.int64) *
            length).unsqueeze(1)
    flat = (base + offsets[:-1].to(torch.int64)).reshape(-1)
    end = torch.full((1,), rows * length, device=device, dtype=torch.int64)
    return torch.cat([flat, end])


# (input dtype, out_dtype) -> (result dtype, tcuc's input and output names).
_TYPES = {}


def _types(x_dtype, out_dtype, op):
    result = out_dtype_of(x_dtype, out_dtype, op)
    t = (result, _plan.TCUC_NAMES[dtype_name(x_dtype)],
         _plan.TCUC_NAMES[dtype_name(result)])
    _TYPES[(x_dtype, out_dtype)] = t
    return t


def run(op, is_scan, x, segment_size, offsets, dim, out_dtype, exclusive,
        reverse, validate, decay=1.0, decays=None):
    """One call. The common case (a contiguous tensor on the CPU or CUDA
    device 0, segments along its last axis that never straddle two rows) is
    a few attribute reads and one native call (docs/python.md "Overhead");
    everything else goes through run_general's checks and copies."""
    if offsets is None and decays is None and x.dim() > 0 and (
            dim == -1 or dim == x.dim() - 1) and x.is_contiguous():
        cuda = x.is_cuda
        if cuda and x.get_device() == 0 or not cuda and x.is_cpu:
            t = _TYPES.get((x.dtype, out_dtype)) or _types(x.dtype, out_dtype,
                                                          op)
            shape = x.shape
            length, n = shape[-1], x.numel()
            seg = length if segment_size == -1 else segment_size
            if n > 0 and 1 <= seg <= 1 << 47 and (n == length or
                                                 length % seg == 0):
                out = torch.empty(shape[:-1] + (length if is_scan else
                                                -(-length // seg),),
                                  dtype=t[0], device=x.device)
                _native.run("cuda" if cuda else "cpu", is_scan,
                            x.data_ptr(), out.data_ptr(), n, out.numel(),
                            seg, 0, 0, 0, t[1], t[2], not exclusive, reverse,
                            _raw_stream() if cuda else 0, decay)
                return out
    return run_general(op, is_scan, x, segment_size, offsets, dim, out_dtype,
                       exclusive, reverse, validate, decay, decays)


def _raw_stream():
    """The current CUDA stream of device 0 (where tcuc runs), as an int."""
    return torch._C._cuda_getCurrentRawStream(0)


def run_general(op, is_scan, x, segment_size, offsets, dim, out_dtype,
                exclusive, reverse, validate, decay=1.0, decays=None):
    dim = check(op, x, segment_size, offsets, dim, out_dtype, decays)
    result_dtype = out_dtype_of(x.dtype, out_dtype, op)
    last = x.dim() - 1
    xs = x if dim == last else x.movedim(dim, -1)
    xs = xs.contiguous()
    p = _plan.plan(tuple(xs.shape), None if segment_size < 0 else
                   segment_size, None if offsets is None else
                   offsets.numel(), is_scan)
    if offsets is not None and validate is not False and not _capturing(x):
        validate_offsets(op, offsets, p.length)
    d = None
    if decays is not None:
        d = flat_decays(decays, dim, p.rows, _plan.segments_per_row(
            p.length, p.segment, None if offsets is None else
            offsets.numel()))
        if validate is not False and not _capturing(x):
            uniform = validate_decays(op, d)
            if uniform is not None:
                decay, d = uniform, None
    dp, dn = (0, 0) if d is None else (d.data_ptr(), d.numel())
    out = torch.empty(xs.shape[:-1] + (p.out_length,), dtype=result_dtype,
                      device=x.device)
    n = xs.numel()
    if out.numel() == 0:
        pass
    elif n == 0:
        out.zero_()  # empty segments sum to 0
    else:
        device = "cuda" if x.is_cuda else "cpu"
        stream = _raw_stream() if x.is_cuda else 0
        in_name = _plan.TCUC_NAMES[dtype_name(x.dtype)]
        out_name = _plan.TCUC_NAMES[dtype_name(result_dtype)]
        if offsets is None and not p.per_row:
            _native.run(device, is_scan, xs.data_ptr(), out.data_ptr(), n,
                        out.numel(), p.segment, 0, 0, 0, in_name, out_name,
                        not exclusive, reverse, stream, decay, dp, dn)
        else:
            offs = offsets.contiguous() if offsets is not None else None
            if p.per_row:
                offs = _row_offsets(offs, p.rows, p.length, p.segment,
                                    x.device)
            bits = 32 if offs.dtype == torch.int32 else 64
            _native.run(device, is_scan, xs.data_ptr(), out.data_ptr(), n,
                        out.numel(), 16, offs.data_ptr(), offs.numel() - 1,
                        bits, in_name, out_name, not exclusive, reverse,
                        stream, decay, dp, dn)
    return out if dim == last else out.movedim(-1, dim)
