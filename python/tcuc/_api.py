"""The public functions: dispatch on the array library."""

import sys

from . import _xp_impl


def _library(x):
    """'torch', 'cupy' or 'numpy', converting other arrays (DLPack or CUDA
    array interface) without a copy; returns (library, array)."""
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        return "torch", x
    if mod == "cupy":
        return "cupy", x
    if mod == "numpy":
        return "numpy", x
    if hasattr(x, "__cuda_array_interface__"):
        if "cupy" in sys.modules or _try_import("cupy"):
            import cupy
            return "cupy", cupy.asarray(x)
        import torch
        return "torch", torch.as_tensor(x, device="cuda")
    if hasattr(x, "__dlpack__"):
        device_type = x.__dlpack_device__()[0] if hasattr(
            x, "__dlpack_device__") else 1
        if device_type == 1:  # kDLCPU
            import numpy
            return "numpy", numpy.from_dlpack(x)
        if device_type == 2:  # kDLCUDA
            if _try_import("torch"):
                import torch
                return "torch", torch.from_dlpack(x)
            import cupy
            return "cupy", cupy.from_dlpack(x)
        raise ValueError(f"tcuc: arrays on DLPack device type {device_type} "
                         "are not supported (CPU and CUDA only)")
    raise TypeError(
        f"tcuc: expected a torch tensor, a CuPy or NumPy array, or an object "
        f"with __dlpack__ or __cuda_array_interface__; got {type(x)}")


def _try_import(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def _direct(torch, x):
    """Whether a torch call may skip the custom op's dispatch (tens of
    microseconds): nothing needs the op itself, neither autograd (no
    gradient wanted), torch.compile, functorch transforms, nor a dispatch
    mode (fake tensors, tracing)."""
    return (type(x) is torch.Tensor
            and not (x.requires_grad and torch.is_grad_enabled())
            and not torch.compiler.is_compiling()
            and _dispatch_mode() is None
            and not torch._C._are_functorch_transforms_active())


def _dispatch_mode():
    global _dispatch_mode
    from torch.utils._python_dispatch import _get_current_dispatch_mode
    _dispatch_mode = _get_current_dispatch_mode
    return _dispatch_mode()


_TORCH = None


def _torch_modules():
    global _TORCH
    from . import _torch_impl, _torch_ops
    _TORCH = (_torch_impl, _torch_ops)
    return _TORCH


def _decay_args(decay):
    """(one decay as a float, per-segment decays or None), or a clear error.
    A number is one decay for every segment (1.0: the plain scan); an array
    of one or more axes holds one per segment."""
    if decay is None:
        return 1.0, None
    if isinstance(decay, bool):
        raise TypeError("tcuc.segment_cumsum: decay must be a number or an "
                        "array of per-segment decays, got a bool")
    ndim = getattr(decay, "ndim", None)
    if isinstance(ndim, int) and ndim >= 1:
        return 1.0, decay
    if ndim == 0 and hasattr(decay, "item"):
        if getattr(decay, "requires_grad", False):
            raise TypeError(
                "tcuc.segment_cumsum: a 0-d decay tensor that requires grad: "
                "one decay gets no gradient; give one per segment (a 1-D "
                "tensor of k, e.g. decay.expand(k)) for its gradient")
        decay = decay.item()  # a NumPy scalar or 0-d tensor
    if not isinstance(decay, (int, float)) or isinstance(decay, bool):
        raise TypeError(
            "tcuc.segment_cumsum: decay must be a number (one decay for "
            "every segment) or an array of per-segment decays, got "
            f"{type(decay).__name__}")
    a = float(decay)
    if a != a or a in (float("inf"), float("-inf")):
        raise ValueError(f"tcuc.segment_cumsum: decay must be finite, got {a}")
    if not -1.0 <= a <= 1.0:
        raise ValueError("tcuc.segment_cumsum: decay must lie in [-1, 1], "
                         f"got {a}")
    return a, None


def _call(op, is_scan, x, segment_size, offsets, dim, out_dtype, exclusive,
          reverse, validate, decay=1.0, decays=None):
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        lib = "torch"
    else:
        lib, x = _library(x)
    if lib == "torch":
        _torch_impl, _torch_ops = _TORCH or _torch_modules()
        if offsets is not None and not isinstance(offsets, torch.Tensor):
            raise TypeError(f"tcuc.{op}: offsets must be a torch tensor "
                            "like the input")
        if decays is not None and not isinstance(decays, torch.Tensor):
            raise TypeError(f"tcuc.{op}: per-segment decays must be a torch "
                            "tensor like the input")
        seg = -1 if segment_size is None else segment_size
        if isinstance(seg, bool) or not isinstance(seg, int):
            raise TypeError(f"tcuc.{op}: segment_size must be an int, got "
                            f"{segment_size!r}")
        if seg == -1 and segment_size is not None:
            raise ValueError(f"tcuc.{op}: segment_size must be >= 1, got -1")
        if (offsets is None or type(offsets) is torch.Tensor) and _direct(
                torch, x) and (decays is None or _direct(torch, decays)):
            return _torch_impl.run(op, is_scan, x, seg, offsets, dim,
                                   out_dtype, exclusive, reverse,
                                   validate is not False, decay, decays)
        if is_scan:
            return _torch_ops.segment_cumsum(x, seg, offsets, dim, exclusive,
                                             reverse, out_dtype,
                                             validate is not False, decay,
                                             decays)
        return _torch_ops.segment_sum(x, seg, offsets, dim, out_dtype,
                                      validate is not False)
    if lib == "cupy":
        import cupy
        return _xp_impl.run(op, is_scan, cupy, x, segment_size, offsets, dim,
                            out_dtype, exclusive, reverse, validate, True,
                            decay, decays)
    import numpy
    return _xp_impl.run(op, is_scan, numpy, x, segment_size, offsets, dim,
                        out_dtype, exclusive, reverse, validate, False, decay,
                        decays)


def segment_sum(x, segment_size=None, *, offsets=None, dim=-1,
                out_dtype=None, validate=True):
    """Sums of the segments of `x` along `dim`.

    Segments are consecutive runs of `segment_size` elements along `dim`
    (the last one of each row may be shorter; None: the whole axis), or
    given by `offsets`: k+1 CSR offsets (int32 or int64, on the input's
    device; the first 0, nondecreasing, the last the axis length; empty
    segments sum to 0). The result has `dim` cut to ceil(length /
    segment_size) or k.

    `x`: a torch tensor (CUDA: the GPU on the current stream; CPU: tcuc's
    CPU backend), a CuPy array (GPU), a NumPy array (CPU), or any array
    with `__dlpack__` or `__cuda_array_interface__`; the result is of the
    same library. Types: float16, bfloat16, float32 (summed in float32)
    and int8 (in int32). `out_dtype`: float32 (default) or the input's
    16-bit type; int32 for int8. `validate`: check the offsets' values
    first (a copy to the host; skipped while a CUDA graph is captured;
    False skips it, and a bad offset then gives wrong sums but never an
    out-of-bounds access). Differentiable for torch tensors.
    """
    return _call("segment_sum", False, x, segment_size, offsets, dim,
                 out_dtype, False, False, validate)


def segment_cumsum(x, segment_size=None, *, offsets=None, exclusive=False,
                   reverse=False, decay=None, dim=-1, out_dtype=None,
                   validate=True):
    """Prefix sums within the segments of `x` along `dim` (segments as in
    segment_sum; the result has the input's shape).

    `exclusive`: each element gets the sum of the elements before it in its
    segment (0 for a segment's first). `reverse`: suffix sums, the elements
    after it (with itself unless `exclusive`). Other arguments as in
    segment_sum. Differentiable for torch tensors: the gradient is the scan
    of the output's gradient in the other direction.

    `decay` (a number in [-1, 1]; None or 1: plain sums): the decayed scan
    h_i = decay * h_{i-1} + x_i within each segment, restarted at each
    segment's head (exclusive: h_{i-1}, 0 at a head; reverse: from the
    segment's end), on float inputs. One kernel serves every decay (it
    takes the decay at launch). Its gradient is the decayed scan of the
    gradient run the other way (a number gets none).

    `decay` may instead be an array of the input's library and device with
    one decay per segment: of segment_sum's result shape (`dim` cut to the
    k segments of a row) or 1-D of k (every row alike); any float type,
    used as float32. `validate` checks them too (each finite, in [-1, 1]; a
    copy to the host). A torch tensor of them gets a gradient:
    sum over the segment of (the input's gradient) x (the exclusive decayed
    scan of the input).
    """
    decay, decays = _decay_args(decay)
    return _call("segment_cumsum", True, x, segment_size, offsets, dim,
                 out_dtype, exclusive, reverse, validate, decay, decays)
