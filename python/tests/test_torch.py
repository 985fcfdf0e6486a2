"""torch tensors on every device under test (conftest.devices): the custom
ops, their results against float64, gradients (gradcheck), torch.compile
tracing, and CUDA graphs."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tcuc  # noqa: E402
from conftest import check_against_reference  # noqa: E402

TYPES = [(torch.float16, None), (torch.bfloat16, None),
         (torch.bfloat16, torch.bfloat16), (torch.float32, None),
         (torch.int8, None)]
NAMES = {torch.float32: "float32", torch.float16: "float16",
         torch.bfloat16: "bfloat16", torch.int32: "int32"}


def data(shape, dtype, device, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.int8:
        x = torch.randint(-128, 128, shape, generator=g, dtype=torch.int8)
    else:
        x = (torch.rand(shape, generator=g) * 2 - 1).to(dtype)
    return x.to(device)


def as_numpy(x):
    x = x.detach().cpu()
    if x.dtype == torch.bfloat16:
        x = x.float()
    return x.numpy()


def result_dtype(dtype, out_dtype):
    return out_dtype or (torch.int32 if dtype == torch.int8
                         else torch.float32)


@pytest.mark.parametrize("dtype,out_dtype", TYPES)
@pytest.mark.parametrize("segment", [1, 10, 16, 100, 3000])
def test_sum_and_scans(device, dtype, out_dtype, segment):
    x = data((2 * segment + 5,), dtype, device, seed=segment)
    r = result_dtype(dtype, out_dtype)
    got = tcuc.segment_sum(x, segment, out_dtype=out_dtype)
    assert got.device == x.device and got.dtype == r
    check_against_reference(as_numpy(got), as_numpy(x), False, NAMES[r],
                            segment_size=segment)
    for exclusive in (False, True):
        for reverse in (False, True):
            got = tcuc.segment_cumsum(x, segment, exclusive=exclusive,
                                      reverse=reverse, out_dtype=out_dtype)
            check_against_reference(as_numpy(got), as_numpy(x), True,
                                    NAMES[r], segment_size=segment,
                                    exclusive=exclusive, reverse=reverse)


@pytest.mark.parametrize("offsets_dtype", [torch.int32, torch.int64])
def test_offsets(device, offsets_dtype):
    offsets = torch.tensor([0, 3, 3, 1000, 1001, 5000], dtype=offsets_dtype,
                           device=device)
    x = data((5000,), torch.float16, device, seed=1)
    got = tcuc.segment_sum(x, offsets=offsets)
    check_against_reference(as_numpy(got), as_numpy(x), False, "float32",
                            offsets=offsets.cpu().numpy())
    for reverse in (False, True):
        got = tcuc.segment_cumsum(x, offsets=offsets, exclusive=True,
                                  reverse=reverse)
        check_against_reference(as_numpy(got), as_numpy(x), True, "float32",
                                offsets=offsets.cpu().numpy(),
                                exclusive=True, reverse=reverse)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_dim(device, dim):
    x = data((12, 33, 5), torch.float32, device)
    moved = as_numpy(x.movedim(dim, -1))
    got = tcuc.segment_sum(x, 4, dim=dim)
    check_against_reference(as_numpy(got.movedim(dim, -1)), moved, False,
                            "float32", segment_size=4)
    got = tcuc.segment_cumsum(x, dim=dim)
    torch.testing.assert_close(got, torch.cumsum(x, dim=dim), rtol=1e-5,
                               atol=1e-5)


def test_matches_torch_cumsum(device):
    x = data((64, 100), torch.float32, device)
    torch.testing.assert_close(tcuc.segment_cumsum(x), x.cumsum(-1),
                               rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(tcuc.segment_sum(x).squeeze(-1), x.sum(-1),
                               rtol=1e-5, atol=1e-5)


def test_gradcheck_sum(device):
    x = data((3, 37), torch.float32, device).requires_grad_()
    offsets = torch.tensor([0, 5, 5, 37], device=device)
    for kw in ({"segment_size": 8}, {"offsets": offsets}, {}):
        assert torch.autograd.gradcheck(
            lambda t: tcuc.segment_sum(t, **kw), (x,), eps=1e-2, atol=1e-3,
            rtol=1e-3)


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_gradcheck_cumsum(device, exclusive, reverse):
    x = data((2, 41), torch.float32, device).requires_grad_()
    offsets = torch.tensor([0, 20, 20, 41], device=device)
    for kw in ({"segment_size": 9}, {"offsets": offsets}, {"dim": 0}):
        assert torch.autograd.gradcheck(
            lambda t: tcuc.segment_cumsum(t, exclusive=exclusive,
                                          reverse=reverse, **kw),
            (x,), eps=1e-2, atol=1e-3, rtol=1e-3)


def test_double_backward(device):
    x = data((50,), torch.float32, device).requires_grad_()
    assert torch.autograd.gradgradcheck(
        lambda t: tcuc.segment_cumsum(t, 7) * t, (x,), eps=1e-2, atol=1e-2,
        rtol=1e-2)


def test_gradient_of_half_input(device):
    x = data((100,), torch.float16, device).requires_grad_()
    tcuc.segment_cumsum(x, 10).sum().backward()
    assert x.grad.dtype == torch.float16
    want = torch.arange(10, 0, -1, dtype=torch.float32).repeat(10)
    torch.testing.assert_close(x.grad.float().cpu(), want)


def test_opcheck(device):
    x = data((4, 50), torch.float32, device).requires_grad_()
    offsets = torch.tensor([0, 10, 50], device=device)
    torch.library.opcheck(torch.ops.tcuc.segment_sum.default,
                          (x, 7, None, -1, None, True))
    torch.library.opcheck(torch.ops.tcuc.segment_sum.default,
                          (x, -1, offsets, 1, None, True))
    torch.library.opcheck(torch.ops.tcuc.segment_cumsum.default,
                          (x, 7, None, 0, True, False, None, True))
    torch.library.opcheck(torch.ops.tcuc.segment_cumsum.default,
                          (x, -1, offsets, 1, False, True, None, True))


def test_compile_fullgraph(device):
    def f(x, offsets):
        a = tcuc.segment_sum(x, 16)
        b = tcuc.segment_cumsum(x, offsets=offsets, exclusive=True,
                                validate=False)
        c = tcuc.segment_cumsum(x.view(10, 100), reverse=True, dim=0)
        return a.sum() + b.sum() + (c * c).sum(), b

    x = data((1000,), torch.float32, device).requires_grad_()
    offsets = torch.tensor([0, 100, 999, 1000], device=device)
    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    s1, b1 = compiled(x, offsets)
    s2, b2 = f(x, offsets)
    torch.testing.assert_close(b1, b2)
    g1, = torch.autograd.grad(s1, x)
    g2, = torch.autograd.grad(s2, x)
    torch.testing.assert_close(g1, g2)


def test_bad_inputs(device):
    x = data((100,), torch.float32, device)
    with pytest.raises(TypeError, match="float64.*x.float()"):
        tcuc.segment_sum(x.double(), 10)
    with pytest.raises(TypeError, match="int64"):
        tcuc.segment_cumsum(x.long(), 10)
    with pytest.raises(TypeError, match="out_dtype"):
        tcuc.segment_sum(x, 10, out_dtype=torch.float16)
    with pytest.raises(ValueError, match=">= 1"):
        tcuc.segment_sum(x, 0)
    with pytest.raises(TypeError, match="segment_size"):
        tcuc.segment_sum(x, 2.5)
    with pytest.raises(ValueError, match="not both"):
        tcuc.segment_sum(x, 10, offsets=torch.tensor([0, 100],
                                                     device=device))
    with pytest.raises(IndexError, match="dim 3"):
        tcuc.segment_sum(x, 10, dim=3)
    with pytest.raises(TypeError, match="int32 or int64"):
        tcuc.segment_sum(x, offsets=torch.tensor([0.0, 100.0],
                                                 device=device))
    with pytest.raises(ValueError, match="1-D"):
        tcuc.segment_sum(x, offsets=torch.zeros(2, 2, dtype=torch.int64,
                                                device=device))
    with pytest.raises(ValueError, match="bad offsets"):
        tcuc.segment_sum(x, offsets=torch.tensor([0, 50, 40, 100],
                                                 device=device))
    with pytest.raises(ValueError, match="bad offsets"):
        tcuc.segment_cumsum(x, offsets=torch.tensor([0, 50, 99],
                                                    device=device))
    with pytest.raises(TypeError, match="torch tensor"):
        tcuc.segment_sum(x, offsets=np.array([0, 100]))
    with pytest.raises(TypeError, match="expected a torch tensor"):
        tcuc.segment_sum([1.0, 2.0], 1)
    with pytest.raises(ValueError, match="scalar"):
        tcuc.segment_sum(torch.tensor(1.0, device=device))


def test_mismatched_devices():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    x = torch.ones(100, device="cuda")
    with pytest.raises(ValueError, match="same device"):
        tcuc.segment_sum(x, offsets=torch.tensor([0, 100]))


def test_cuda_graph():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    x = torch.rand(1 << 20, device="cuda", dtype=torch.float16)
    offsets = torch.tensor([0, 1000, 1 << 19, 1 << 20], device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm up: kernels loaded, scratch sized
        for _ in range(2):
            tcuc.segment_cumsum(x, 3000)
            tcuc.segment_sum(x, offsets=offsets)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        a = tcuc.segment_cumsum(x, 3000)
        b = tcuc.segment_sum(x, offsets=offsets)
    x.copy_(torch.rand_like(x))
    g.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(a, tcuc.segment_cumsum(x, 3000))
    torch.testing.assert_close(b, tcuc.segment_sum(x, offsets=offsets))
