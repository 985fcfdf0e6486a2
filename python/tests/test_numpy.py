"""NumPy arrays through the CPU backend: every type pair, both ops and
scan modes, sizes on and off the 16-multiples, offsets, other axes."""

import numpy as np
import pytest

import tcuc
from conftest import SIZES, TYPES, check_against_reference, data, out_name

if not tcuc.has_compiler:  # a runtime-only build: no CPU backend
    pytest.skip("this tcuc has no CPU backend (built without the compiler)",
                allow_module_level=True)

@pytest.mark.parametrize("dtype,out_dtype", TYPES)
@pytest.mark.parametrize("segment", SIZES)
def test_segment_sum(dtype, out_dtype, segment):
    x = data(3 * segment + segment // 2 + 1, dtype, seed=segment)
    got = tcuc.segment_sum(x, segment, out_dtype=out_dtype)
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.dtype(out_name(dtype, out_dtype))
    check_against_reference(got, x, False, out_name(dtype, out_dtype),
                            segment_size=segment)


@pytest.mark.parametrize("dtype,out_dtype", TYPES)
@pytest.mark.parametrize("segment", SIZES)
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_segment_cumsum(dtype, out_dtype, segment, exclusive, reverse):
    x = data(2 * segment + 7, dtype, seed=segment + 1)
    got = tcuc.segment_cumsum(x, segment, exclusive=exclusive,
                              reverse=reverse, out_dtype=out_dtype)
    assert got.shape == x.shape
    check_against_reference(got, x, True, out_name(dtype, out_dtype),
                            segment_size=segment, exclusive=exclusive,
                            reverse=reverse)


def test_issue_example():
    got = tcuc.segment_cumsum(np.arange(10, dtype=np.float32), 3)
    np.testing.assert_array_equal(
        got, [0, 1, 3, 3, 7, 12, 6, 13, 21, 9])


def test_whole_axis_is_default():
    x = data(1000, "float32")
    check_against_reference(tcuc.segment_sum(x), x, False, "float32")
    check_against_reference(tcuc.segment_cumsum(x), x, True, "float32")


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_offsets(bits, dtype):
    offsets = np.array([0, 0, 5, 5, 300, 301, 4400, 4400],
                       dtype=f"int{bits}")
    x = data(int(offsets[-1]), dtype, seed=bits)
    o = out_name(dtype, None)
    got = tcuc.segment_sum(x, offsets=offsets)
    assert got.shape == (len(offsets) - 1,)
    assert got[0] == 0 and got[2] == 0 and got[6] == 0
    check_against_reference(got, x, False, o, offsets=offsets)
    for exclusive in (False, True):
        for reverse in (False, True):
            got = tcuc.segment_cumsum(x, offsets=offsets,
                                      exclusive=exclusive, reverse=reverse)
            check_against_reference(got, x, True, o, offsets=offsets,
                                    exclusive=exclusive, reverse=reverse)


@pytest.mark.parametrize("dim", [0, 1, -1, 2])
@pytest.mark.parametrize("segment", [None, 4, 5])
def test_axes(dim, segment):
    x = data(6 * 10 * 7, "float32", shape=(6, 10, 7))
    moved = np.moveaxis(x, dim, -1)
    got = tcuc.segment_sum(x, segment, dim=dim)
    want_moved = np.moveaxis(got, dim, -1)
    check_against_reference(want_moved, moved, False, "float32",
                            segment_size=segment)
    got = tcuc.segment_cumsum(x, segment, dim=dim, exclusive=True)
    check_against_reference(np.moveaxis(got, dim, -1), moved, True,
                            "float32", segment_size=segment, exclusive=True)
    got = tcuc.segment_cumsum(x, segment, dim=dim, reverse=True)
    check_against_reference(np.moveaxis(got, dim, -1), moved, True,
                            "float32", segment_size=segment, reverse=True)


def test_offsets_on_rows():
    x = data(4 * 50, "float16", shape=(4, 50))
    offsets = np.array([0, 7, 7, 50], dtype=np.int64)
    got = tcuc.segment_sum(x, offsets=offsets)
    assert got.shape == (4, 3)
    check_against_reference(got, x, False, "float32", offsets=offsets)


def test_non_contiguous():
    x = data(64 * 40, "float32", shape=(64, 40))[:, ::2]
    check_against_reference(tcuc.segment_cumsum(x, 6), x, True, "float32",
                            segment_size=6)


def test_empty():
    x = np.zeros(0, dtype=np.float32)
    assert tcuc.segment_sum(x, 4).shape == (0,)
    assert tcuc.segment_cumsum(x, 4).shape == (0,)
    got = tcuc.segment_sum(x, offsets=np.array([0, 0, 0], dtype=np.int64))
    np.testing.assert_array_equal(got, [0, 0])


def test_deterministic():
    x = data(100003, "float16")
    for reverse in (False, True):
        a = tcuc.segment_cumsum(x, 3000, reverse=reverse)
        b = tcuc.segment_cumsum(x, 3000, reverse=reverse)
        assert a.tobytes() == b.tobytes()


def test_reverse_is_flipped_forward():
    x = data(5 * 37, "float32", shape=(5, 37))
    got = tcuc.segment_cumsum(x, reverse=True)
    want = tcuc.segment_cumsum(x[:, ::-1])[:, ::-1]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
