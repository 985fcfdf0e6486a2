"""NumPy (CPU backend) and CuPy (GPU, the current stream) arrays."""

from . import _plan
from . import _tcuc as _native


def _dtype_name(dtype):
    return str(dtype)  # numpy and cupy dtypes: "float16", "int8", ...


def run(op, is_scan, xp, x, segment_size, offsets, dim, out_dtype, exclusive,
        reverse, validate, on_gpu, decay=1.0, decays=None):
    in_name = _plan.input_dtype_name(_dtype_name(x.dtype), op)
    out_name = _plan.output_dtype_name(
        in_name, None if out_dtype is None else _dtype_name(
            xp.dtype(out_dtype)), op)
    dim = _plan.normalize_dim(dim, x.ndim, op)
    segment_size = _plan.check_segment_size(segment_size,
                                            offsets is not None, op)
    if on_gpu and x.device.id != 0:
        raise ValueError(f"tcuc.{op}: tcuc runs on CUDA device 0; the "
                         f"input is on device {x.device.id}")
    if offsets is not None:
        if type(offsets).__module__.split(".")[0] != xp.__name__:
            raise ValueError(
                f"tcuc.{op}: offsets are a {type(offsets).__name__} but the "
                f"input a {type(x).__name__}: give both from the same "
                "library and device")
        _plan.check_offsets_meta(_dtype_name(offsets.dtype), offsets.ndim,
                                 offsets.size, op)
        if on_gpu and offsets.device.id != x.device.id:
            raise ValueError(f"tcuc.{op}: offsets are on device "
                             f"{offsets.device.id}, the input on "
                             f"{x.device.id}")
    d = None
    if decays is not None:
        d = _flat_decays(op, xp, x, decays, segment_size, offsets, dim,
                         on_gpu, validate)
        if d is not None and not isinstance(d, xp.ndarray):
            decay, d = d, None  # all equal: the one-decay kernels
    xs = xp.ascontiguousarray(xp.moveaxis(x, dim, -1))
    p = _plan.plan(xs.shape, segment_size,
                   None if offsets is None else offsets.size, is_scan)
    offs = None
    if offsets is not None:
        offs = xp.ascontiguousarray(offsets)
        if validate is not False:
            host = offs.get() if on_gpu else offs
            why = _native.offsets_error(
                host.ctypes.data, host.size,
                32 if host.dtype == "int32" else 64, p.length)
            if why:
                raise ValueError(f"tcuc.{op}: bad offsets: {why}")
    out = xp.empty(xs.shape[:-1] + (p.out_length,), dtype=out_name)
    n = xs.size
    if out.size and n == 0:
        out[...] = 0
    elif out.size:
        if on_gpu:
            ptr = lambda a: a.data.ptr  # noqa: E731
            stream = xp.cuda.get_current_stream().ptr
        else:
            ptr = lambda a: a.ctypes.data  # noqa: E731
            stream = 0
        device = "cuda" if on_gpu else "cpu"
        in_t, out_t = _plan.TCUC_NAMES[in_name], _plan.TCUC_NAMES[out_name]
        dp, dn = (0, 0) if d is None else (ptr(d), d.size)
        if offs is None and not p.per_row:
            _native.run(device, is_scan, ptr(xs), ptr(out), n, out.size,
                        p.segment, 0, 0, 0, in_t, out_t, not exclusive,
                        reverse, stream, decay, dp, dn)
        else:
            if p.per_row:
                if offs is None:
                    offs = xp.minimum(
                        xp.arange(0, p.length + p.segment, p.segment,
                                  dtype=xp.int64), p.length)
                base = (xp.arange(p.rows, dtype=xp.int64) * p.length)[:, None]
                offs = xp.concatenate([
                    (base + offs[:-1].astype(xp.int64)).reshape(-1),
                    xp.asarray([p.rows * p.length], dtype=xp.int64)])
            bits = 32 if offs.dtype == xp.int32 else 64
            _native.run(device, is_scan, ptr(xs), ptr(out), n, out.size, 16,
                        ptr(offs), offs.size - 1, bits, in_t, out_t,
                        not exclusive, reverse, stream, decay, dp, dn)
    return xp.moveaxis(out, -1, dim)


def _flat_decays(op, xp, x, decays, segment_size, offsets, dim, on_gpu,
                 validate):
    """Per-segment decays as the kernels take them (float32, one per segment
    of the rows, `dim` moved last, one after the other), checked; with
    `validate`, their common value (a float) where all are equal."""
    if type(decays).__module__.split(".")[0] != xp.__name__:
        raise ValueError(
            f"tcuc.{op}: per-segment decays are a {type(decays).__name__} but "
            f"the input a {type(x).__name__}: give both from the same "
            "library and device")
    if x.dtype.kind != "f" and str(x.dtype) != "bfloat16":
        raise ValueError(f"tcuc.{op}: decayed scans take float input, got "
                         f"{x.dtype}")
    if on_gpu and decays.device.id != x.device.id:
        raise ValueError(f"tcuc.{op}: decays are on device "
                         f"{decays.device.id}, the input on {x.device.id}")
    k = _plan.segments_per_row(x.shape[dim], segment_size,
                               None if offsets is None else offsets.size)
    broadcast = _plan.check_decays_meta(_dtype_name(decays.dtype),
                                        decays.shape, x.shape, dim, k, op)
    d = decays.astype(xp.float32)
    rows = x.size // max(1, x.shape[dim])
    d = xp.broadcast_to(d, (rows, k)) if broadcast else xp.moveaxis(d, dim, -1)
    d = xp.ascontiguousarray(d).reshape(-1)
    if validate is not False:
        host = d.get() if on_gpu else d
        why = _native.decays_error(host.ctypes.data, host.size)
        if why:
            raise ValueError(f"tcuc.{op}: bad per-segment {why}")
        if host.size and bool((host == host[0]).all()):
            return float(host[0])
    return d
