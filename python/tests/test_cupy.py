"""CuPy arrays on the GPU (the current stream): the NumPy suite's grid,
results returned as CuPy arrays. Skipped without CuPy or a GPU."""

import numpy as np
import pytest

cupy = pytest.importorskip("cupy")
try:
    if cupy.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError
except Exception:  # noqa: BLE001 (no driver, no device)
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

import tcuc  # noqa: E402
from conftest import (SIZES, TYPES, check_against_reference, data,  # noqa: E402
                      out_name)


@pytest.mark.parametrize("dtype,out_dtype", TYPES)
@pytest.mark.parametrize("segment", SIZES)
def test_sum_and_scan(dtype, out_dtype, segment):
    x = data(3 * segment + segment // 2 + 1, dtype, seed=segment)
    got = tcuc.segment_sum(cupy.asarray(x), segment, out_dtype=out_dtype)
    assert isinstance(got, cupy.ndarray)
    check_against_reference(got.get(), x, False, out_name(dtype, out_dtype),
                            segment_size=segment)
    x = data(2 * segment + 7, dtype, seed=segment + 1)
    for reverse in (False, True):
        got = tcuc.segment_cumsum(cupy.asarray(x), segment, exclusive=True,
                                  reverse=reverse, out_dtype=out_dtype)
        check_against_reference(got.get(), x, True,
                                out_name(dtype, out_dtype),
                                segment_size=segment, exclusive=True,
                                reverse=reverse)


@pytest.mark.parametrize("bits", [32, 64])
def test_offsets_and_stream(bits):
    offsets = np.array([0, 0, 5, 5, 300, 301, 4400, 4400],
                       dtype=f"int{bits}")
    x = data(int(offsets[-1]), "float16", seed=bits)
    with cupy.cuda.Stream(non_blocking=True):
        got = tcuc.segment_cumsum(cupy.asarray(x),
                                  offsets=cupy.asarray(offsets))
        host = got.get()
    check_against_reference(host, x, True, "float32", offsets=offsets)


def test_cuda_array_interface():
    class Wrapped:  # any object exposing __cuda_array_interface__
        def __init__(self, a):
            self.a = a
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    x = data(1000, "float32")
    got = tcuc.segment_sum(Wrapped(cupy.asarray(x)), 10)
    check_against_reference(cupy.asnumpy(got), x, False, "float32",
                            segment_size=10)


def test_offsets_from_another_library():
    x = cupy.ones(10, dtype=cupy.float32)
    with pytest.raises(ValueError, match="same library"):
        tcuc.segment_sum(x, offsets=np.array([0, 10]))
