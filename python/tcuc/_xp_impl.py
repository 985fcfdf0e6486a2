"""NumPy (CPU backend) and CuPy (GPU, the current stream) arrays."""

from . import _plan
from . import _tcuc as _native


def _dtype_name(dtype):
    return str(dtype)  # numpy and cupy dtypes: "float16", "int8", ...


def run(op, is_scan, xp, x, segment_size, offsets, dim, out_dtype, exclusive,
        reverse, validate, on_gpu, decay=1.0):
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
        if offs is None and not p.per_row:
            _native.run(device, is_scan, ptr(xs), ptr(out), n, out.size,
                        p.segment, 0, 0, 0, in_t, out_t, not exclusive,
                        reverse, stream, decay)
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
                        not exclusive, reverse, stream, decay)
    return xp.moveaxis(out, -1, dim)
