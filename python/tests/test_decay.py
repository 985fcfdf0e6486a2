"""Decayed scans (segment_cumsum(..., decay=a): h = a*h + x within each
segment) against a float64 recurrence: NumPy on the CPU backend, torch on
every device of conftest.devices(), autograd, and bad decays."""

import numpy as np
import pytest

import tcuc
from conftest import assert_decayed_close, devices

# packed (< 256, and 257..960 as a class kernel), seg16 (16), seg256 (256)
# and seg256n (longer: the carry walks the tiles), on and off multiples of
# 16, with a decay near 1 and a negative one; a = 0 and 0.5 (powers of
# two) on fewer sizes. Each decay and size up to 256 is a CPU compile: the
# grid is kept small.
CASES = ([(a, s) for a in (0.999, -0.5) for s in (1, 7, 16, 100, 256, 300,
                                                   900, 1000, 3001)] +
         [(a, s) for a in (0.0, 0.5) for s in (7, 1000)])


# NumPy arrays run on the CPU backend, which a runtime-only build lacks.
cpu_backend = pytest.mark.skipif(
    not tcuc.has_compiler, reason="no CPU backend (built without the compiler)")


def _data(shape, dtype, seed=0):
    x = np.random.default_rng(seed).standard_normal(shape)
    return x.astype(np.float32).astype(dtype)


@cpu_backend
@pytest.mark.parametrize("decay,segment", CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_numpy(decay, segment, dtype):
    x = _data((3, 4099), dtype, seed=segment)
    got = tcuc.segment_cumsum(x, segment, decay=decay)
    assert got.dtype == np.float32
    assert_decayed_close(got, x, decay, "float32", segment_size=segment)


@cpu_backend
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("segment", [7, 100, 1000])
def test_modes(exclusive, reverse, segment):
    x = _data((2, 2011), "float32", seed=3)
    got = tcuc.segment_cumsum(x, segment, decay=0.9, exclusive=exclusive,
                              reverse=reverse)
    assert_decayed_close(got, x, 0.9, "float32", segment_size=segment,
                         exclusive=exclusive, reverse=reverse)


@cpu_backend
def test_known_values():
    x = np.arange(1, 8, dtype=np.float32)
    got = tcuc.segment_cumsum(x, 3, decay=0.5)
    np.testing.assert_array_equal(got, [1, 2.5, 4.25, 4, 7, 9.5, 7])
    got = tcuc.segment_cumsum(x, 3, decay=0.5, reverse=True, exclusive=True)
    np.testing.assert_array_equal(got, [3.5, 3, 0, 8, 6, 0, 0])


@cpu_backend
def test_decay_one_is_the_plain_scan():
    x = _data((5, 300), "float16")
    np.testing.assert_array_equal(tcuc.segment_cumsum(x, 100, decay=1),
                                  tcuc.segment_cumsum(x, 100))


@cpu_backend
@pytest.mark.parametrize("bits", [32, 64])
def test_offsets(bits):
    rng = np.random.default_rng(5)
    lengths = rng.integers(0, 700, size=40)
    lengths[::7] = 0  # empty segments
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(f"int{bits}")
    x = _data(int(offsets[-1]), "float16", seed=6)
    got = tcuc.segment_cumsum(x, offsets=offsets, decay=0.99)
    assert_decayed_close(got, x, 0.99, "float32", offsets=offsets)


@cpu_backend
def test_whole_axis_and_16bit_output():
    x = _data((2, 5000), "float16")
    got = tcuc.segment_cumsum(x, decay=0.999)  # one segment a row
    assert_decayed_close(got, x, 0.999, "float32")
    got = tcuc.segment_cumsum(x, 100, decay=0.9, out_dtype=np.float16)
    assert got.dtype == np.float16
    assert_decayed_close(got, x, 0.9, "float16", segment_size=100)


@cpu_backend
def test_deterministic():
    x = _data(50000, "float32")
    a = tcuc.segment_cumsum(x, 3000, decay=0.999)
    b = tcuc.segment_cumsum(x, 3000, decay=0.999)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("bad,error", [
    (float("nan"), ValueError), (float("inf"), ValueError),
    (1.5, ValueError), (-1.01, ValueError), ("0.5", TypeError),
    (True, TypeError), ([0.5, 0.5], TypeError)])
def test_bad_decay(bad, error):
    with pytest.raises(error, match="decay"):
        tcuc.segment_cumsum(np.ones(10, np.float32), 5, decay=bad)


@cpu_backend
def test_integer_input_has_no_decay():
    with pytest.raises(ValueError, match="decay"):
        tcuc.segment_cumsum(np.ones(10, np.int8), 5, decay=0.5)


@pytest.mark.skipif(not any(d == "cuda" for d in devices()),
                    reason="no CUDA device")
def test_cupy():
    cupy = pytest.importorskip("cupy")
    x = _data((3, 2500), "float32", seed=9)
    got = tcuc.segment_cumsum(cupy.asarray(x), 1000, decay=0.9,
                              reverse=True)
    assert isinstance(got, cupy.ndarray)
    assert_decayed_close(cupy.asnumpy(got), x, 0.9, "float32",
                         segment_size=1000, reverse=True)


def _decays(shape, seed):
    """Per-segment decays in [-1, 1] with the edge values among them."""
    d = np.random.default_rng(seed).uniform(-1, 1, size=shape)
    flat = d.reshape(-1)
    flat[:5] = [0.999, 0.0, 1.0, -1.0, 0.5][:flat.size]
    return d.astype(np.float32)


@cpu_backend
@pytest.mark.parametrize("segment", [1, 7, 100, 1000, None])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_segment_decays(segment, exclusive, reverse):
    """One decay per segment (of every row; 2011 is no multiple of the
    sizes, so the rows run as offsets) against the float64 recurrence."""
    x = _data((3, 2011), "float16", seed=11)
    k = -(-2011 // (segment or 2011))
    d = _decays((3, k), seed=k)
    got = tcuc.segment_cumsum(x, segment, decay=d, exclusive=exclusive,
                              reverse=reverse)
    assert_decayed_close(got, x, d, "float32", segment_size=segment,
                         exclusive=exclusive, reverse=reverse)


@cpu_backend
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_segment_decays_shapes(dtype):
    """1-D decays serve every row; a float64 array is used as float32;
    `dim` other than the last takes decays with that axis cut to k."""
    x = _data((4, 3000), dtype, seed=12)
    d = _decays(30, seed=13)
    got = tcuc.segment_cumsum(x, 100, decay=d.astype(np.float64))
    assert_decayed_close(got, x, d, "float32", segment_size=100)
    got = tcuc.segment_cumsum(x.T, 100, decay=np.tile(d, (4, 1)).T, dim=0)
    assert_decayed_close(got.T, x, d, "float32", segment_size=100)


@cpu_backend
@pytest.mark.parametrize("bits", [32, 64])
def test_segment_decays_offsets(bits):
    rng = np.random.default_rng(14)
    lengths = rng.integers(0, 900, size=50)
    lengths[::6] = 0
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(f"int{bits}")
    x = _data((2, int(offsets[-1])), "float32", seed=15)
    d = _decays((2, 50), seed=16)
    got = tcuc.segment_cumsum(x, offsets=offsets, decay=d, reverse=True)
    assert_decayed_close(got, x, d, "float32", offsets=offsets, reverse=True)


@cpu_backend
def test_segment_decays_long_segments():
    """Rows of 150000, a decay each (from 131072 the grid: each segment's
    chunks walk with its decay)."""
    x = _data((2, 150000), "float16", seed=18)
    d = np.array([[0.9999], [-0.5]], np.float32)
    got = tcuc.segment_cumsum(x, decay=d, reverse=True)
    assert_decayed_close(got, x, d, "float32", reverse=True)


@cpu_backend
def test_equal_segment_decays_run_as_one():
    """Validated decays that are all equal give decay=a's bits (they run
    the one-decay kernel; this cannot see which kernel ran: the walk gives
    the same bits here), and validate=False (the walk) is correct."""
    x = _data((3, 4099), "float32", seed=17)
    d = np.full((3, 5), 0.5, np.float32)
    one = tcuc.segment_cumsum(x, 1000, decay=0.5)
    assert tcuc.segment_cumsum(x, 1000, decay=d).tobytes() == one.tobytes()
    walk = tcuc.segment_cumsum(x, 1000, decay=d, validate=False)
    assert_decayed_close(walk, x, d, "float32", segment_size=1000)


@pytest.mark.parametrize("decays,error,match", [
    (np.full(3, 0.5, np.float32), ValueError, r"shape \(3,\)"),
    (np.full((2, 2), 0.5, np.float32), ValueError, "shape"),
    (np.array([0.5, np.nan], np.float32), ValueError, r"decay\[1\]"),
    (np.array([0.5, 1.5], np.float32), ValueError, r"decay\[1\]"),
    (np.array([-np.inf, 0.5], np.float32), ValueError, r"decay\[0\]"),
    (np.array([1, 0], np.int32), TypeError, "floats")])
def test_bad_segment_decays(decays, error, match):
    if not tcuc.has_compiler:
        pytest.skip("no CPU backend")
    with pytest.raises(error, match=match):
        tcuc.segment_cumsum(np.ones(10, np.float32), 5, decay=decays)


@cpu_backend
def test_segment_decays_need_float_input():
    with pytest.raises(ValueError, match="float input"):
        tcuc.segment_cumsum(np.ones(10, np.int8), 5,
                            decay=np.full(2, 0.5, np.float32))


try:
    import torch
except ImportError:  # the NumPy tests above still run
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")


def _torch_offsets(seed, count, longest, empty_every):
    """(a seeded generator, int64 offsets of `count` random segments shorter
    than `longest`, every `empty_every`-th one empty)."""
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(0, longest, (count,), generator=g)
    lengths[::empty_every] = 0
    return g, torch.cat([torch.zeros(1, dtype=torch.int64),
                         lengths.cumsum(0)])


@needs_torch
@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("segment", [16, 200, 1000, None])
def test_torch(device, dtype, segment):
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = torch.randn(3, 3001, generator=torch.Generator().manual_seed(1))
    x = x.to(getattr(torch, dtype)).to(device)
    got = tcuc.segment_cumsum(x, segment, decay=0.95)
    assert got.device == x.device and got.dtype == torch.float32
    assert_decayed_close(got.cpu().numpy(), x.float().cpu().numpy(), 0.95,
                         "float32", segment_size=segment)


@needs_torch
@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("reverse", [False, True])
def test_torch_offsets_and_determinism(device, reverse):
    """Offsets with empty segments (seg256n over offsets), bitwise the
    same on a second call."""
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    g, offsets = _torch_offsets(7, 60, 3000, 5)
    x = torch.randn(int(offsets[-1]), generator=g).to(torch.bfloat16)
    got = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                              decay=0.995, reverse=reverse)
    again = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                                decay=0.995, reverse=reverse)
    assert torch.equal(got, again)
    assert_decayed_close(got.cpu().numpy(), x.float().numpy(), 0.995,
                         "float32", offsets=offsets.numpy(), reverse=reverse)


@needs_torch
@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_torch_gradient(device, exclusive, reverse):
    """The gradient of a decayed scan is the decayed scan of the gradient
    run the other way: checked against torch's own gradient of the
    float64 recurrence, and by gradcheck (float32 kernels: loose)."""
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = torch.randn(2, 700, dtype=torch.float32, device=device,
                    requires_grad=True)
    y = tcuc.segment_cumsum(x, 300, decay=0.9, exclusive=exclusive,
                            reverse=reverse)
    g = torch.randn_like(y)
    (y * g).sum().backward()
    # The recurrence as a matrix: y = x @ W.T per segment, W[i][j] = a^(i-j)
    # (j <= i; exclusive: j < i, a^(i-1-j)); reverse mirrors it.
    n = 300
    i = torch.arange(n, dtype=torch.float64)
    d = i[:, None] - i[None, :] - (1 if exclusive else 0)
    w = torch.where(d >= 0, 0.9 ** d.clamp(min=0), torch.zeros(()))
    if reverse:
        w = w.flip(0).flip(1)
    want = torch.zeros(2, 700, dtype=torch.float64)
    gd = g.detach().double().cpu()
    for b in range(0, 700, n):
        e = min(b + n, 700)
        want[:, b:e] = gd[:, b:e] @ w[:e - b, :e - b]
    torch.testing.assert_close(x.grad.double().cpu(), want, rtol=1e-4,
                               atol=1e-4)


@needs_torch
@pytest.mark.parametrize("device", devices())
def test_torch_compile_and_opcheck(device):
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = torch.randn(4, 500, device=device)
    want = tcuc.segment_cumsum(x, 100, decay=0.8)
    f = torch.compile(lambda t: tcuc.segment_cumsum(t, 100, decay=0.8),
                      backend="aot_eager", fullgraph=True)
    assert torch.equal(f(x), want)
    torch.library.opcheck(torch.ops.tcuc.segment_cumsum,
                          (x, 100, None, -1, False, False, None, True, 0.8))


def _recurrence(x, decays, segment, exclusive, reverse):
    """The decayed scan in float64 torch ops (differentiable in the decays):
    the gradients' reference."""
    out = []
    for s, b in enumerate(range(0, x.shape[-1], segment)):
        cols = list(range(b, min(b + segment, x.shape[-1])))
        a, h, seg = decays[..., s], torch.zeros_like(x[..., 0]), {}
        for j in (cols[::-1] if reverse else cols):
            if exclusive:
                seg[j] = h
            h = a * h + x[..., j]
            if not exclusive:
                seg[j] = h
        out += [seg[j] for j in cols]
    return torch.stack(out, dim=-1)


@needs_torch
@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_torch_segment_decays_gradient(device, exclusive, reverse):
    """Per-segment decays: the values, and the gradients of the input and of
    the decays (broadcast 1-D decays sum their rows' gradients) against
    torch's own of the float64 recurrence."""
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    g = torch.Generator().manual_seed(21)
    x = torch.randn(2, 250, generator=g, dtype=torch.float64)
    d = torch.tensor(_decays(3, seed=22), dtype=torch.float64)
    w = torch.randn(2, 250, generator=g, dtype=torch.float64)
    xd, dd = x.clone().requires_grad_(), d.clone().requires_grad_()
    (_recurrence(xd, dd, 100, exclusive, reverse) * w).sum().backward()
    xt = x.float().to(device).requires_grad_()
    dt = d.float().to(device).requires_grad_()
    y = tcuc.segment_cumsum(xt, 100, decay=dt, exclusive=exclusive,
                            reverse=reverse)
    (y * w.float().to(device)).sum().backward()
    want = _recurrence(x, d, 100, exclusive, reverse)
    for got, ref in ((y, want), (xt.grad, xd.grad), (dt.grad, dd.grad)):
        torch.testing.assert_close(got.detach().double().cpu(), ref,
                                   rtol=1e-4, atol=1e-4)


@needs_torch
@pytest.mark.parametrize("device", devices())
def test_torch_segment_decays_offsets(device):
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    g, offsets = _torch_offsets(23, 40, 2000, 4)
    x = torch.randn(2, int(offsets[-1]), generator=g).to(torch.float16)
    d = torch.tensor(_decays((2, 40), seed=24))
    got = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                              decay=d.to(device), exclusive=True)
    again = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                                decay=d.to(device), exclusive=True)
    assert torch.equal(got, again)
    assert_decayed_close(got.cpu().numpy(), x.float().numpy(), d.numpy(),
                         "float32", offsets=offsets.numpy(), exclusive=True)
    same = torch.full_like(d, 0.995).to(device)
    assert torch.equal(
        tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                            decay=same),
        tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                            decay=0.995))
    with pytest.raises(ValueError, match=r"decay\[3\]"):
        bad = d.clone()
        bad[0, 3] = float("nan")
        tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                            decay=bad.to(device))


@needs_torch
@pytest.mark.parametrize("device", devices())
def test_torch_segment_decays_compile_and_opcheck(device):
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = torch.randn(4, 500, device=device)
    d = torch.rand(4, 5, device=device)
    want = tcuc.segment_cumsum(x, 100, decay=d)
    f = torch.compile(lambda t, e: tcuc.segment_cumsum(t, 100, decay=e),
                      backend="aot_eager", fullgraph=True)
    assert torch.equal(f(x, d), want)
    torch.library.opcheck(torch.ops.tcuc.segment_cumsum,
                          (x, 100, None, -1, False, False, None, True, 1.0,
                           d.requires_grad_()))
