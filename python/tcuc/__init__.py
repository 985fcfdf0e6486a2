"""tcuc: segmented sums and prefix sums on NVIDIA Tensor Cores.

    import tcuc, numpy as np
    tcuc.segment_cumsum(np.arange(10, dtype=np.float32), 3)

Functions take torch tensors (CUDA or CPU), CuPy and NumPy arrays; see
help(tcuc.segment_sum) and docs/python.md.
"""

import os as _os

# The kernel library (every class kernel, prebuilt) shipped in the package,
# else the build tree's, is read before compiling: set before the runtime
# starts.
if "TCUC_KERNEL_LIBRARY" not in _os.environ:
    _here = _os.path.join(_os.path.dirname(__file__), "kernels")
    from . import _tcuc as _native_probe
    for _dir in (_here, _native_probe.build_kernel_library):
        if _dir and _os.path.isdir(_dir):
            _os.environ["TCUC_KERNEL_LIBRARY"] = _dir
            break

from . import _tcuc as _native  # noqa: E402
from ._api import segment_cumsum, segment_sum  # noqa: E402

__version__ = _native.version
has_compiler = _native.has_compiler


def device_arch():
    """The kernel architecture CUDA device 0 runs ('sm_80' or 'sm_90')."""
    return _native.device_arch()


def runtime_stats():
    """The GPU runtime's counters: kernels compiled, read from the kernel
    library or the disk cache, modules loaded."""
    return _native.stats()


try:  # register the torch custom ops (for torch.compile) when torch exists
    import torch as _torch  # noqa: F401
    from . import _torch_ops  # noqa: F401
except ImportError:
    pass

__all__ = ["segment_sum", "segment_cumsum", "device_arch", "runtime_stats",
           "has_compiler", "__version__"]
