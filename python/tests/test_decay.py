"""Decayed scans (segment_cumsum(..., decay=a): h = a*h + x within each
segment) against a float64 recurrence: NumPy on the CPU backend, torch on
every device of conftest.devices(), autograd, and bad decays."""

import numpy as np
import pytest

import tcuc
from conftest import assert_decayed_close, devices

# seg16 (<= 16), seg256 (<= 256) and seg256n (longer: the carry walks
# the tiles), on and off multiples of 16, with a decay near 1 and a
# negative one; a = 0 and 0.5 (powers of two) on fewer sizes. Each decay
# and size up to 256 is a CPU compile: the grid is kept small.
CASES = ([(a, s) for a in (0.999, -0.5) for s in (1, 7, 16, 100, 256, 1000,
                                                   3001)] +
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
    (True, TypeError), (np.array([0.5, 0.5]), TypeError)])
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


torch = pytest.importorskip("torch")


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


@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("reverse", [False, True])
def test_torch_offsets_and_determinism(device, reverse):
    """Offsets with empty segments (seg256n over offsets), bitwise the
    same on a second call."""
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    g = torch.Generator().manual_seed(7)
    lengths = torch.randint(0, 3000, (60,), generator=g)
    lengths[::5] = 0
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64),
                         lengths.cumsum(0)])
    x = torch.randn(int(offsets[-1]), generator=g).to(torch.bfloat16)
    got = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                              decay=0.995, reverse=reverse)
    again = tcuc.segment_cumsum(x.to(device), offsets=offsets.to(device),
                                decay=0.995, reverse=reverse)
    assert torch.equal(got, again)
    assert_decayed_close(got.cpu().numpy(), x.float().numpy(), 0.995,
                         "float32", offsets=offsets.numpy(), reverse=reverse)


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
