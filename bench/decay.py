#!/usr/bin/env python3
"""Decayed scans on a GPU: tcuc beside Triton, PyTorch, JAX and CUB.

    PYTHONPATH=<build>/python bench/decay.py --out DIR [--n N]
        [--dtypes f16,bf16,f32] [--sizes 10,16,100,256,1000,3000,65536,whole]
        [--decays 0.5,0.9,0.999,seg,elem] [--peers triton,torch,jax,cub]
        [--reverse] [--quick]

All on the same buffers, with the copy ceiling measured in the same run
and every result checked against a float64 reference. A decayed scan is
the first-order linear recurrence h_i = a*h_{i-1} + x_i, restarting at each
segment's head (h_head = x_head), of n inputs (f16, bf16 or f32; random
normal, seeded) into n f32 outputs; segments of S (the last may be
shorter) or the whole array. The decay `seg` gives each segment its own,
uniform in [0.5, 1] (seeded; the kernels that take per-segment decays):
tcuc, Triton and JAX only (torch's chunk trick and the CUB operator are
written for one decay). `elem` gives each element its own (h_i = a_i*h_{i-1}
+ x_i, a_i uniform in [0.5, 1], an f32 array read beside x): Triton and
JAX only, tcuc has no such form; its bytes count the decays' n*4 and its
ceiling is the byte copy alone (docs/rationale.md#per-element-decays).
Each (dtype, S, a) cell measures:

- the copy ceiling: `y.copy_(x)` (a cast copy: reads n*in_bytes, writes
  n*4, the scan's own traffic) and a byte copy of the same total bytes (half
  read, half written); the faster is the ceiling. Each figure is GB/s of
  n*in_bytes + n*4 bytes and its fraction of the ceiling (frac_copy).
- tcuc: `tcuc.segment_cumsum(x, S, decay=a)` (S = None for the whole
  array), f32 out; per-segment decays `decay=d` (a CUDA tensor) with
  validate=False (the default validation copies them to the host first).
- triton: one kernel for any S (below): a program owns ROWS segments as a
  [ROWS, BLOCK] block and walks them in BLOCK-wide chunks, scanning each
  chunk with tl.associative_scan over (a, x) pairs and the carry from the
  previous chunk entering column k as a^(k+1)*carry. Few long segments
  leave most of the GPU idle: the whole array is one program (noted).
- torch: no custom kernel. Rows of S (the last padded), cut into chunks of
  C = min(S, floor(60 / -log2|a|)) columns; within a chunk
  h = cumsum(x * a^-k) * a^k (weights up to 2^60, inside f32); each chunk
  then adds a^(k+1) times the previous chunk's local end. Carries from
  further back are dropped, so no sequential loop is needed: their weight
  is |a|^(C+1) < 2^-60, an absolute error under 2^-60 * max|h|, far below
  f32's rounding for inputs of one scale (random normal here; inputs that
  span more than ~2^30 in magnitude would need the full carry chain).
- jax (if importable and on a GPU): jax.lax.associative_scan with the same
  combine over the rows [rows, S] (jit), the input taken from the torch
  buffer through DLPack (zero-copy where JAX allows: noted). Timed by wall
  clock around f(x).block_until_ready(), median over reps: includes
  JAX's dispatch (tens of us), which CUDA events do not see.
- cub: bench/baselines/cub_decay.cu, built here with nvcc (skipped with a
  note when nvcc is not on PATH): DeviceScan::InclusiveScanByKey (keys i/S
  from a counting iterator) or InclusiveScan (whole) over pairs {a, h}
  with the same combine, input and output through transform iterators.

Every peer and tcuc run in try/except: a failure is recorded in the CSV's
note and the sweep goes on. Times are medians of CUDA-event timings of
single calls after a warm-up (30 calls; fewer, at least 3, for calls slower
than 130 ms). Triton and CUB write into one preallocated f32 buffer (filled
with NaN before each check); tcuc, torch and JAX allocate their outputs.

Correctness (side by side): the output's first min(n, 2^20) elements and,
when there are several segments, the last segments (from the head of the
segment holding element n - 2^16) are compared with a float64 recurrence
on the already-cast inputs, with a rounded to f32 as every peer uses it.
rel_err = max_i |y_i - ref_i| / m_i, m_i = sum_j |a|^(i-j)*|x_j| over the
segment (the decayed mass), as `tcuc run --check` measures it; the
yardstick seq_f32_rel_err is the same for the sequential f32 recurrence
(a*h rounded, then + x rounded).

--reverse times the suffix scans instead (h_i = a*h_{i+1} + x_i from each
segment's end; the gradient of a forward one): tcuc with reverse=True,
Triton's kernel reading each segment backwards, JAX's associative_scan
with reverse=True; torch and CUB rows say they have no such form. Their
checked slices end at segment ends (whole segments within the first 2^20
elements, and the last segment's last 2^16 elements).

Writes DIR/decay.csv (device, date, dtype, segment, decay, peer, ms, gbps,
frac_copy, rel_err, seq_f32_rel_err, note; one row per peer and cell, the
ceilings as peers copy and copy_bytes), DIR/decay.md (per cell each peer's
fraction of the ceiling and tcuc's speed-up over it, the errors against
the f32 recurrence's, and the worst cells) and DIR/log.txt (device, date,
command line, versions, progress). --quick: n = 2^22, f16, S = 16, 100
and whole, a = 0.9 (a smoke test: its buffers fit in L2, so its fractions
mean little). --precompile TCUC --arch T --out DIR [--cubin] fills a
kernel cache for a GPU machine without LLVM instead (with the cubins,
which need ptxas here; neither torch nor Triton is needed for it). The
full default sweep (72 cells, n = 2^28) takes several minutes; split it
with --dtypes where a run is time-limited.
"""
import argparse
import csv
import ctypes
import functools
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

try:
    import torch
    import triton
    import triton.language as tl
except ImportError:  # --precompile needs neither (a machine without a GPU)
    torch = triton = tl = None

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = ({"f16": torch.float16, "bf16": torch.bfloat16,
           "f32": torch.float32} if torch else dict.fromkeys(("f16", "bf16",
                                                               "f32")))
HEAD, TAIL = 1 << 20, 1 << 16  # the checked slices' lengths
REPS, SLOW_MS = 30, 4000.0     # timed calls, and the time budget of a timing
FIELDS = ["device", "date", "dtype", "segment", "decay", "peer", "ms", "gbps",
          "frac_copy", "rel_err", "seq_f32_rel_err", "note"]


# --- Triton ---------------------------------------------------------------

if triton:  # the peer kernel (triton_decay_scan)
    @triton.jit
    def _combine(a1, h1, a2, h2):
        return a1 * a2, a2 * h1 + h2

    @triton.jit
    def _decay_scan(x, y, n, segments, seg, decay, decays, ROWS: tl.constexpr,
                    BLOCK: tl.constexpr, PER: tl.constexpr,
                    REV: tl.constexpr):
        """ROWS segments a program, walked in BLOCK-wide chunks. The scan of a
        chunk over (a, x) pairs gives (a^(k+1), local h) at column k; the carry
        (h at the previous chunk's end) enters as a^(k+1) * carry.
        PER: 1: segment r's decay is decays[r]; 2: element i's is decays[i];
        0: `decay`. REV: the suffix scan (column k of a segment of L
        elements is its element L - 1 - k)."""
        rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
        if PER == 1:
            row_a = tl.load(decays + rows, mask=rows < segments, other=0.0)
        else:
            row_a = tl.zeros([ROWS], tl.float32) + decay
        last = tl.arange(0, BLOCK)[None, :] == BLOCK - 1
        carry = tl.zeros([ROWS], tl.float32)
        for start in range(0, seg, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            if REV:
                length = tl.minimum(n - rows * seg, seg)[:, None]
                offs = rows[:, None] * seg + (length - 1 - cols[None, :])
                mask = (rows[:, None] < segments) & (cols[None, :] < length)
            else:
                offs = rows[:, None] * seg + cols[None, :]
                mask = ((rows[:, None] < segments) & (cols[None, :] < seg) &
                        (offs < n))
            v = tl.load(x + offs, mask=mask, other=0).to(tl.float32)
            if PER == 2:
                a = tl.load(decays + offs, mask=mask, other=0.0)
            else:
                a = tl.zeros([ROWS, BLOCK], tl.float32) + row_a[:, None]
            p, h = tl.associative_scan((a, v), 1, _combine)
            h = h + p * carry[:, None]
            tl.store(y + offs, h, mask=mask)
            carry = tl.sum(tl.where(last, h, 0.0), 1)


def triton_shape(seg, segments):
    """(ROWS, BLOCK, warps): BLOCK the next power of two of min(S, 1024),
    ROWS segments packed to about 2048 elements a program."""
    block = triton.next_power_of_2(min(seg, 1024))
    rows = max(1, min(2048 // block, triton.next_power_of_2(segments)))
    return rows, block, 8 if rows * block >= 2048 else 4


def triton_decay_scan(x, y, seg, a, decays=None, reverse=False):
    """y (f32) = the decayed scan of x over segments of seg (decays: one
    per segment or per element, a float32 CUDA tensor, instead of a;
    reverse: the suffix scan)."""
    n = x.numel()
    segments = triton.cdiv(n, seg)
    rows, block, warps = triton_shape(seg, segments)
    _decay_scan[(triton.cdiv(segments, rows),)](
        x, y, n, segments, seg, 1.0 if decays is not None else a,
        y if decays is None else decays, ROWS=rows, BLOCK=block,
        PER=0 if decays is None else 1 if decays.numel() == segments and
        segments < n else 2, REV=reverse, num_warps=warps)
    return y


# --- torch ----------------------------------------------------------------

def torch_chunk(seg, a):
    """The chunk length C: |a|^-C stays within 2^60 (f32 holds it)."""
    if a == 0 or abs(a) == 1:
        return seg
    return max(1, min(seg, int(60 / -math.log2(abs(a)))))


def torch_decay_scan(x, seg, a):
    """The decayed scan in plain torch ops (the module docstring): rows of
    seg, chunks of C, h = cumsum(x * a^-k) * a^k in each chunk, plus
    a^(k+1) times the previous chunk's local end (older carries dropped:
    weight |a|^(C+1) < 2^-60)."""
    n = x.numel()
    if a == 0:
        return x.to(torch.float32, copy=True)
    rows, c = -(-n // seg), torch_chunk(seg, a)
    chunks = -(-seg // c)
    v = x.float()
    if rows * seg != n:
        v = torch.nn.functional.pad(v, (0, rows * seg - n))
    v = v.view(rows, seg)
    if chunks * c != seg:
        v = torch.nn.functional.pad(v, (0, chunks * c - seg))
    v = v.view(rows, chunks, c)
    k = torch.arange(c, dtype=torch.float64)
    base = torch.tensor(a, dtype=torch.float64)
    w_in, w_out, w_carry = (base.pow(e).float().to(x.device)
                            for e in (-k, k, k + 1))
    h = torch.cumsum(v * w_in, -1).mul_(w_out)
    if chunks > 1:
        h[:, 1:] += h[:, :-1, -1:] * w_carry
    h = h.view(rows, chunks * c)
    if chunks * c != seg:
        h = h[:, :seg]
    return h.reshape(-1)[:n]


# --- JAX ------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def jax_fn(n, seg, a, reverse=False):
    """A jitted f(x, d) -> the decayed scan of x's n elements (f32); a
    "seg": segment r's decay is d[r]; "elem": element i's d[i]; else d is
    unused. reverse: the suffix scan (the last row's padding, zeros at its
    end, then stays 0 and changes nothing)."""
    import jax
    import jax.numpy as jnp
    rows = -(-n // seg)

    def combine(left, right):
        (a1, h1), (a2, h2) = left, right
        return a1 * a2, a2 * h1 + h2

    def f(x, d):
        v = jnp.pad(x.astype(jnp.float32), (0, rows * seg - n))
        v = v.reshape(rows, seg)
        if a == "seg":
            av = jnp.broadcast_to(d[:, None], v.shape)
        elif a == "elem":
            av = jnp.pad(d, (0, rows * seg - n)).reshape(rows, seg)
        else:
            av = jnp.full(v.shape, a, jnp.float32)
        _, h = jax.lax.associative_scan(combine, (av, v), axis=1,
                                        reverse=reverse)
        return h.reshape(-1)[:n]

    return jax.jit(f)


def jax_input(x):
    """x as a JAX array through DLPack; True when it shares x's memory."""
    import jax
    try:
        xj = jax.dlpack.from_dlpack(x)
    except Exception:  # older JAX: a capsule
        xj = jax.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(x))
    try:
        shared = xj.unsafe_buffer_pointer() == x.data_ptr()
    except Exception:
        shared = None
    return xj, shared


# --- CUB ------------------------------------------------------------------

def build_cub(out_dir, say):
    """Compiles bench/baselines/cub_decay.cu into DIR/libcub_decay.so and
    loads it: (library, None), or (None, why not)."""
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return None, "nvcc not on PATH: CUB skipped"
    src = os.path.join(HERE, "baselines", "cub_decay.cu")
    so = os.path.join(out_dir, "libcub_decay.so")
    major, minor = torch.cuda.get_device_capability(0)
    err = ""
    for arch in ("-arch=native", f"-arch=sm_{major}{minor}"):
        cmd = [nvcc, "-O3", arch, "-shared", "-Xcompiler", "-fPIC", "-o", so,
               src]
        say("building CUB:", " ".join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 0:
            break
        err = " | ".join((r.stderr or r.stdout).strip().splitlines()[-5:])
        say(f"  failed: {err}")
    else:
        return None, f"nvcc failed: {err}"
    lib = ctypes.CDLL(so)
    for t in DTYPES:
        fn = getattr(lib, f"cubd_decay_scan_{t}_f32")
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                       ctypes.c_int64, ctypes.c_float, ctypes.c_void_p]
        fn.restype = ctypes.c_int
    lib.cubd_error_string.argtypes = [ctypes.c_int]
    lib.cubd_error_string.restype = ctypes.c_char_p
    return lib, None


# --- the reference --------------------------------------------------------

def recurrences(v, a, reverse=False):
    """For v [rows, L] float64 (a segment from its head a row; reverse:
    the suffix recurrences, from each row's end): the float64
    recurrence (the reference), the float64 recurrence over |x| with |a|
    (the decayed mass) and the sequential f32 recurrence (a*h rounded to
    f32, then + x rounded), each [rows, L]."""
    if reverse:  # the rows backwards (a row's padding zeros then lead)
        a = np.asarray(a)
        return tuple(t[:, ::-1] for t in recurrences(
            v[:, ::-1], a[:, ::-1] if a.ndim == 2 else a))
    rows, cols = v.shape
    ref, mass = np.empty_like(v), np.empty_like(v)
    seq = np.empty(v.shape, np.float32)
    # a: one decay, one per row, or one per element [rows, L] (float32).
    a32 = np.asarray(a, np.float32)
    a32 = np.broadcast_to(a32[:, None] if a32.ndim == 1 else a32, v.shape)
    a64 = a32.astype(np.float64)
    aa = np.abs(a64)
    v32 = v.astype(np.float32)
    if rows >= 32:  # vectorised over the rows, a loop over the columns
        av = np.abs(v)
        h, m, s = np.zeros(rows), np.zeros(rows), np.zeros(rows, np.float32)
        for j in range(cols):
            h = a64[:, j] * h + v[:, j]
            m = aa[:, j] * m + av[:, j]
            s = a32[:, j] * s + v32[:, j]
            ref[:, j], mass[:, j], seq[:, j] = h, m, s
        return ref, mass, seq
    for r in range(rows):  # few long segments: scalar loops
        h = m = 0.0
        hs, ms = [], []
        for xv, ar in zip(v[r].tolist(), a64[r].tolist()):
            h = ar * h + xv
            m = abs(ar) * m + abs(xv)
            hs.append(h)
            ms.append(m)
        ref[r], mass[r] = hs, ms
        s = np.float32(0)
        ss = []
        for xv, ar in zip(v32[r], a32[r]):
            s = ar * s + xv
            ss.append(s)
        seq[r] = ss
    return ref, mass, seq


def reference(x, seg, a, per_element=False, reverse=False):
    """[(start, end, ref, mass, seq)] for the checked slices of x: the first
    min(n, HEAD) elements and, with several segments, the last ones from a
    segment head (whole segments, under HEAD elements). `a`: one decay, or
    one per segment or per element (a NumPy array; `per_element`).
    reverse: suffix scans, whose slices end where a segment does: the
    whole segments within the first HEAD elements, and the last segment's
    last (up to) TAIL elements."""
    n = x.numel()
    if reverse:
        last = (n - 1) // seg * seg  # the last segment's head
        spans = [(0, min(n, HEAD) // seg * seg)] if n > HEAD else [(0, n)]
        spans = [sp for sp in spans if sp[1] > 0]
        if n > HEAD:
            spans.append((max(last, n - TAIL), n))
    else:
        spans = [(0, min(n, HEAD))]
    if not reverse and seg < n and n > HEAD:
        t0 = max(0, n - TAIL) // seg * seg
        if n - t0 <= HEAD:
            spans.append((t0, n))
    out = []
    for s0, s1 in spans:
        length = s1 - s0
        cols = min(seg, length)
        rows = -(-length // cols)
        v = np.zeros(rows * cols)
        v[:length] = x[s0:s1].double().cpu().numpy()
        if per_element:
            ar = np.ones(rows * cols, np.float32)
            ar[:length] = a[s0:s1]
            ar = ar.reshape(rows, cols)
        else:
            ar = a if np.ndim(a) == 0 else a[s0 // seg:s0 // seg + rows]
        ref, mass, seq = (t.reshape(-1)[:length]
                          for t in recurrences(v.reshape(rows, cols), ar,
                                               reverse))
        out.append((s0, s1, ref, mass, seq))
    return out


def rel_err(y, ref, mass):
    """max_i |y_i - ref_i| / mass_i (inf where y is not finite)."""
    y = np.asarray(y, np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.abs(y - ref) / np.maximum(mass, np.finfo(np.float64).tiny)
    e[~np.isfinite(y)] = np.inf
    return float(e.max()) if e.size else 0.0


def host(y, s0, s1):
    """y[s0:s1] as float64 NumPy (a torch tensor or a JAX array)."""
    if isinstance(y, torch.Tensor):
        return y[s0:s1].double().cpu().numpy()
    return np.asarray(y[s0:s1]).astype(np.float64)


# --- timing ---------------------------------------------------------------

def timed(fn, reps=REPS):
    """(median CUDA-event ms of single calls, calls timed), after a warm-up;
    calls slower than SLOW_MS / reps get fewer reps (at least 3)."""
    fn()
    torch.cuda.synchronize()

    def once():
        a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        a.record()
        fn()
        b.record()
        b.synchronize()
        return a.elapsed_time(b)

    first = once()
    reps = max(3, min(reps, int(SLOW_MS / max(first, 1e-3))))
    times = [once() for _ in range(reps)]
    return statistics.median(times), reps


def wall_timed(fn, reps=REPS):
    """As timed, by wall clock around fn().block_until_ready() (JAX)."""
    fn().block_until_ready()

    def once():
        t = time.perf_counter()
        fn().block_until_ready()
        return (time.perf_counter() - t) * 1e3

    first = once()
    reps = max(3, min(reps, int(SLOW_MS / max(first, 1e-3))))
    times = [once() for _ in range(reps)]
    return statistics.median(times), reps


# --- the sweep ------------------------------------------------------------

def one_line(e):
    return f"{type(e).__name__}: {e}".replace("\n", " | ")[:400]


def make_peer(name, ctx):
    """(run, note, wall): run() returns the output (n f32, a torch tensor or
    a JAX array); wall: timed by wall clock."""
    x, y, seg, a, a32, n = (ctx[k] for k in ("x", "y", "seg", "a", "a32", "n"))
    d = ctx.get("d")  # per-segment or per-element decays (a is None then)
    whole, rev = seg >= n, ctx["reverse"]
    if rev and name in ("torch", "cub"):
        raise RuntimeError(f"{name}: no suffix-scan form here")
    if name == "tcuc":
        if ctx["tcuc"] is None:
            raise RuntimeError(f"import tcuc failed: {ctx['tcuc_error']}")
        tcuc, size = ctx["tcuc"], None if whole else seg
        if ctx["kind"] == "elem":
            raise RuntimeError("tcuc has no per-element decays")
        if d is not None:
            return (lambda: tcuc.segment_cumsum(x, size, decay=d,
                                                validate=False, reverse=rev),
                    f"tcuc.segment_cumsum(x, {size}, decay=d, "
                    f"validate=False, reverse={rev})", False)
        return (lambda: tcuc.segment_cumsum(x, size, decay=a, reverse=rev),
                f"tcuc.segment_cumsum(x, {size}, decay={a}, reverse={rev})",
                False)
    if name == "triton":
        segments = triton.cdiv(n, seg)
        rows, block, warps = triton_shape(seg, segments)
        note = f"ROWS={rows} BLOCK={block} warps={warps}"
        programs = triton.cdiv(segments, rows)
        if programs < ctx["sms"]:
            note += (f"; {programs} program(s) for {ctx['sms']} SMs: each "
                     f"walks its segments chunk by chunk, the GPU mostly "
                     f"idle (the simple kernel a user writes)")
        return (lambda: triton_decay_scan(x, y, seg, a32, d, rev), note,
                False)
    if name == "torch":
        c = torch_chunk(seg, a32)
        chunks = -(-seg // c)
        note = (f"chunks of {c}, {chunks} a segment, carry from the previous "
                f"chunk only (weight < 2^-60 dropped)" if chunks > 1 else
                f"one chunk a segment ({c})")
        return lambda: torch_decay_scan(x, seg, a32), note, False
    if name == "jax":
        if ctx["jax"] is None:
            raise RuntimeError(ctx["jax_error"])
        if isinstance(ctx["xj"], Exception):
            raise ctx["xj"]
        xj, shared = ctx["xj"]
        fn = jax_fn(n, seg, a32 if d is None else ctx["kind"], rev)
        dj = jax_input(d)[0] if d is not None else None
        note = ("wall ms incl. dispatch; input via DLPack "
                + {True: "zero-copy", False: "copied", None: "(copy unknown)"}[
                    shared])
        return lambda: fn(xj, dj), note, True
    if name == "cub":
        lib = ctx["cub"]
        if lib is None:
            raise RuntimeError(ctx["cub_error"])
        fn = getattr(lib, f"cubd_decay_scan_{ctx['dtype']}_f32")
        stream = torch.cuda.current_stream().cuda_stream

        def run():
            e = fn(x.data_ptr(), y.data_ptr(), n, 0 if whole else seg, a32,
                   stream)
            if e:
                raise RuntimeError(f"CUDA error {e}: "
                                   f"{lib.cubd_error_string(e).decode()}")
            return y

        return run, ("DeviceScan::InclusiveScan (one segment)" if whole else
                     "DeviceScan::InclusiveScanByKey, keys i/S"), False
    raise ValueError(f"unknown peer {name}")


def measure(name, ctx, base, refs, nbytes, ceiling, say):
    row = dict(base, peer=name, ms="", gbps="", frac_copy="", rel_err="",
               note="")
    try:
        run, row["note"], wall = make_peer(name, ctx)
        ctx["y"].fill_(float("nan"))
        out = run()
        if wall:
            out.block_until_ready()
        torch.cuda.synchronize()
        size = out.numel() if isinstance(out, torch.Tensor) else out.size
        if size != ctx["n"]:
            raise RuntimeError(f"output has {size} elements, not {ctx['n']}")
        err = max(rel_err(host(out, s0, s1), ref, mass)
                  for s0, s1, ref, mass, _ in refs)
        row["rel_err"] = f"{err:.3e}"
        seq = float(base["seq_f32_rel_err"])
        if not err <= max(10 * seq, 1e-5):
            row["note"] += "; WRONG? error over 10x the f32 recurrence's"
        del out
        ms, reps = (wall_timed if wall else timed)(run)
        gbs = nbytes / ms / 1e6
        row.update(ms=f"{ms:.4f}", gbps=f"{gbs:.1f}",
                   frac_copy=f"{gbs / ceiling:.4f}")
        if reps < REPS:
            row["note"] += f"; {reps} timed calls"
    except Exception as e:  # a failing cell must not stop the sweep
        row["note"] = (row["note"] + "; " if row["note"] else "") + \
            "error: " + one_line(e)
        try:
            torch.cuda.synchronize()
        except Exception as e2:
            row["note"] += "; then " + one_line(e2)
        torch.cuda.empty_cache()
    say(f"  {name:10} {row['ms'] or '-':>10} ms {row['gbps'] or '-':>8} GB/s "
        f"frac {row['frac_copy'] or '-':>6}  err {row['rel_err'] or '-':>9}"
        f"  {row['note']}")
    return row


def sweep(args, say, emit, device, date):
    n = args.n
    ctx = {"n": n, "sms": torch.cuda.get_device_properties(0)
           .multi_processor_count, "reverse": args.reverse}
    try:
        import tcuc
        ctx["tcuc"], ctx["tcuc_error"] = tcuc, None
    except Exception as e:
        ctx["tcuc"], ctx["tcuc_error"] = None, one_line(e)
    ctx["jax"] = ctx["cub"] = None
    if "jax" in args.peers:
        try:
            import jax
            if jax.devices()[0].platform != "gpu":
                raise RuntimeError(f"JAX has no GPU ({jax.devices()[0]})")
            ctx["jax"], ctx["jax_error"] = jax, None
        except Exception as e:
            ctx["jax_error"] = "JAX unusable: " + one_line(e)
            say(ctx["jax_error"])
    if "cub" in args.peers:
        ctx["cub"], ctx["cub_error"] = build_cub(args.out, say)
        if ctx["cub_error"]:
            say(ctx["cub_error"])
    peers = ["tcuc"] + args.peers
    for dt in args.dtypes:
        gen = torch.Generator(device="cuda").manual_seed(2026)
        x = torch.randn(n, device="cuda", generator=gen).to(DTYPES[dt])
        y = torch.empty(n, device="cuda", dtype=torch.float32)
        nbytes = n * (x.element_size() + 4)
        half = nbytes // 2
        bsrc = torch.randint(0, 256, (half,), device="cuda", dtype=torch.uint8,
                             generator=gen)
        bdst = torch.empty_like(bsrc)
        ctx.update(x=x, y=y, dtype=dt)
        if ctx["jax"] is not None:
            try:
                ctx["xj"] = jax_input(x)
            except Exception as e:  # this type only
                ctx["xj"] = RuntimeError("DLPack: " + one_line(e))
        for size in args.sizes:
            seg = n if size == "whole" else int(size)
            for a_text in args.decays:
                d, a = None, None
                if a_text in ("seg", "elem"):
                    d = torch.rand(-(-n // seg) if a_text == "seg" else n,
                                   device="cuda", generator=gen)
                    d.mul_(0.5).add_(0.5)
                else:
                    a = float(a_text)
                a32 = None if a is None else float(np.float32(a))
                ctx.update(seg=seg, a=a, a32=a32, d=d, kind=a_text)
                refs = reference(x, seg, a32 if d is None else
                                 d.cpu().numpy(), a_text == "elem",
                                 args.reverse)
                # Per-element decays are read too: their bytes count.
                nb = nbytes + (4 * n if a_text == "elem" else 0)
                seq_err = max(rel_err(seq, ref, mass)
                              for _, _, ref, mass, seq in refs)
                base = {"device": device, "date": date, "dtype": dt,
                        "segment": size, "decay": a_text,
                        "seq_f32_rel_err": f"{seq_err:.3e}"}
                cast_ms, _ = timed(lambda: y.copy_(x))
                if a_text == "elem":
                    src = torch.empty(nb // 2, device="cuda",
                                      dtype=torch.uint8)
                    dst = torch.empty_like(src)
                    byte_ms, _ = timed(lambda: dst.copy_(src))
                    src = dst = None
                else:
                    byte_ms, _ = timed(lambda: bdst.copy_(bsrc))
                cast_gbs, byte_gbs = nbytes / cast_ms / 1e6, nb / byte_ms / 1e6
                ceiling = (byte_gbs if a_text == "elem" else
                           max(cast_gbs, byte_gbs))
                say(f"{dt} S={size} a={a_text}: copy ceiling {ceiling:.0f} "
                    f"GB/s (cast copy {cast_gbs:.0f}, byte copy "
                    f"{byte_gbs:.0f}); seq f32 rel err {seq_err:.2e}; "
                    f"checked elements {[(s0, s1) for s0, s1, *_ in refs]}")
                for name, ms, gbs, note in (
                        ("copy", cast_ms, cast_gbs,
                         "y.copy_(x): read n*in_bytes, write n*4"),
                        ("copy_bytes", byte_ms, byte_gbs,
                         f"uint8 copy of {nb // 2} bytes")):
                    emit(dict(base, peer=name, ms=f"{ms:.4f}",
                              gbps=f"{gbs:.1f}",
                              frac_copy=f"{gbs / ceiling:.4f}", rel_err="",
                              note=note))
                for name in peers:
                    if d is None or name in ("triton", "jax") or (
                            name == "tcuc" and a_text == "seg"):
                        emit(measure(name, ctx, base, refs, nb, ceiling,
                                     say))
        x = y = bsrc = bdst = None  # free before the next type's buffers
        ctx.pop("xj", None)
        ctx.update(x=None, y=None)
        torch.cuda.empty_cache()
    if ctx["tcuc"] is not None and hasattr(ctx["tcuc"], "runtime_stats"):
        say(f"tcuc runtime: {ctx['tcuc'].runtime_stats()}")


# --- the report -----------------------------------------------------------

def fnum(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def write_md(path, rows, peers, header):
    """Per cell: each peer's fraction of the copy ceiling and tcuc's speed-up
    over it (peer ms / tcuc ms); then the errors against the f32
    recurrence's; a worst row and worst-cell lines under each table."""
    cells = {}
    for r in rows:
        cells.setdefault((r["dtype"], r["segment"], r["decay"]), {})[
            r["peer"]] = r
    lines = ["# Decayed scans: tcuc and peers", "", header, "",
             "Fraction of the copy ceiling (n*in_bytes + n*4 bytes), and "
             "tcuc's speed-up over the peer (peer ms / tcuc ms); `err`: the "
             "peer failed (decay.csv's note says why).", "",
             "| dtype | S | a | copy GB/s | " + " | ".join(peers) + " |",
             "|---" * (4 + len(peers)) + "|"]
    worst = {p: (None, None) for p in peers}  # (frac, cell), (ratio, cell)
    worst_ratio = {p: (None, None) for p in peers}
    for cell, got in cells.items():
        ceiling = max(fnum(got.get(c, {}).get("gbps")) or 0
                      for c in ("copy", "copy_bytes"))
        t_ms = fnum(got.get("tcuc", {}).get("ms"))
        out = []
        for p in peers:
            r = got.get(p)
            frac, ms = (fnum(r.get("frac_copy")), fnum(r.get("ms"))) if r \
                else (None, None)
            if frac is None:
                out.append("err" if r else "")
                continue
            text = f"{frac:.2f}"
            if p != "tcuc" and t_ms:
                ratio = ms / t_ms
                text += f" ({ratio:.2f}x)"
                if worst_ratio[p][0] is None or ratio < worst_ratio[p][0]:
                    worst_ratio[p] = (ratio, cell)
            if worst[p][0] is None or frac < worst[p][0]:
                worst[p] = (frac, cell)
            out.append(text)
        lines.append(f"| {cell[0]} | {cell[1]} | {cell[2]} | {ceiling:.0f} | "
                     + " | ".join(out) + " |")
    lines.append("| **worst** | | | | " + " | ".join(
        (f"{worst[p][0]:.2f}" if worst[p][0] is not None else "")
        + (f" ({worst_ratio[p][0]:.2f}x)" if worst_ratio[p][0] is not None
           else "") for p in peers) + " |")
    lines.append("")
    for p in peers:
        if worst[p][0] is not None:
            c = worst[p][1]
            lines.append(f"- worst cell, {p}: {worst[p][0]:.2f} of the copy "
                         f"ceiling at {c[0]}, S={c[1]}, a={c[2]}" + (
                             f"; tcuc's smallest speed-up over it "
                             f"{worst_ratio[p][0]:.2f}x at {worst_ratio[p][1][0]}"
                             f", S={worst_ratio[p][1][1]}, "
                             f"a={worst_ratio[p][1][2]}"
                             if worst_ratio[p][0] is not None else ""))
    lines += ["", "Max relative error (against the decayed mass, as `tcuc run "
              "--check`), and its multiple of the sequential f32 "
              "recurrence's:", "",
              "| dtype | S | a | seq f32 | " + " | ".join(peers) + " |",
              "|---" * (4 + len(peers)) + "|"]
    worst_err = {p: (None, None) for p in peers}
    for cell, got in cells.items():
        seq = None
        out = []
        for p in peers:
            r = got.get(p)
            if r is None:
                out.append("")
                continue
            seq = fnum(r.get("seq_f32_rel_err"))
            err = fnum(r.get("rel_err"))
            if err is None:
                out.append("err")
                continue
            ratio = err / seq if seq else float("inf")
            out.append(f"{err:.1e} ({ratio:.2f}x)")
            if worst_err[p][0] is None or ratio > worst_err[p][0]:
                worst_err[p] = (ratio, cell)
        seq_text = f"{seq:.1e}" if seq is not None else ""
        lines.append(f"| {cell[0]} | {cell[1]} | {cell[2]} | {seq_text} | "
                     + " | ".join(out) + " |")
    lines.append("| **worst** | | | | " + " | ".join(
        f"{worst_err[p][0]:.2f}x" if worst_err[p][0] is not None else ""
        for p in peers) + " |")
    lines.append("")
    for p in peers:
        if worst_err[p][0] is not None:
            c = worst_err[p][1]
            lines.append(f"- worst cell, {p}: {worst_err[p][0]:.2f}x the f32 "
                         f"recurrence's error at {c[0]}, S={c[1]}, a={c[2]}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def versions(peers):
    out = [f"python {platform.python_version()}",
           f"torch {torch.__version__} (CUDA {torch.version.cuda})",
           f"triton {triton.__version__}", f"numpy {np.__version__}"]
    try:
        import tcuc
        arch = tcuc.device_arch() if hasattr(tcuc, "device_arch") else "?"
        out.append(f"tcuc {getattr(tcuc, '__version__', '?')} (kernels "
                   f"{arch}, from {os.path.dirname(tcuc.__file__)})")
    except Exception as e:
        out.append(f"tcuc: {one_line(e)}")
    for mod in ("jax", "jaxlib") if "jax" in peers else ():
        try:
            m = __import__(mod)
            out.append(f"{mod} {m.__version__}")
        except Exception:
            pass
    nvcc = shutil.which("nvcc")
    if nvcc:
        r = subprocess.run([nvcc, "--version"], capture_output=True, text=True)
        out.append("nvcc: " + (r.stdout.strip().splitlines() or ["?"])[-1])
    smi = shutil.which("nvidia-smi")
    if smi:
        r = subprocess.run([smi, "--query-gpu=driver_version",
                            "--format=csv,noheader"], capture_output=True,
                           text=True)
        out.append("driver " + r.stdout.strip().splitlines()[0]
                   if r.returncode == 0 and r.stdout.strip() else "driver ?")
    return out


def precompile(args):
    """Compiles the kernel of every tcuc cell into a kernel cache with
    `tcuc compile` (no GPU needed), for a GPU machine without the
    compiler: its TCUC_CACHE_DIR."""
    failed = 0
    for dtype in args.dtypes:
        for size in args.sizes:
            segment = args.n if size == "whole" else int(size)
            for decay in args.decays:
                if decay == "elem":  # no tcuc kernel
                    continue
                cmd = [args.precompile, "compile", "--op", "scan", "--dtype",
                       dtype, "--segment", str(segment), "--decay",
                       "segments" if decay == "seg" else decay,
                       "--arch", args.arch, "--cache-dir", args.out] + (
                           ["--cubin"] if args.cubin else []) + (
                           ["--reverse"] if args.reverse else [])
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    failed += 1
                    print("FAIL:", " ".join(cmd), r.stderr.strip())
    print(f"precompiled the tcuc kernels into {args.out} ({failed} failed)")
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--n", type=int)
    p.add_argument("--dtypes")
    p.add_argument("--sizes")
    p.add_argument("--decays")
    p.add_argument("--peers", default="triton,torch,jax,cub")
    p.add_argument("--precompile", metavar="TCUC",
                   help="instead of measuring: compile tcuc's kernels of "
                        "the sweep with this `tcuc` binary into the kernel "
                        "cache --out (for a GPU machine without LLVM)")
    p.add_argument("--arch", default="sm_90",
                   help="--precompile's target (sm_90:h200 for an H200)")
    p.add_argument("--cubin", action="store_true",
                   help="--precompile: also store each kernel's cubin "
                        "(needs ptxas), which the GPU machine then loads "
                        "without JIT-compiling the PTX")
    p.add_argument("--reverse", action="store_true",
                   help="suffix scans (h_i = a*h_{i+1} + x_i from each "
                        "segment's end): tcuc, Triton and JAX (torch's "
                        "chunk trick and the CUB operator have no such "
                        "form here)")
    p.add_argument("--quick", action="store_true",
                   help="n = 2^22, f16, S = 16,100,whole, a = 0.9 (options "
                        "given explicitly still apply)")
    args = p.parse_args()
    quick = {"n": 1 << 22, "dtypes": "f16", "sizes": "16,100,whole",
             "decays": "0.9"}
    full = {"n": 1 << 28, "dtypes": "f16,bf16,f32",
            "sizes": "10,16,100,256,1000,3000,65536,whole",
            "decays": "0.5,0.9,0.999"}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    args.sizes = [s for s in args.sizes.split(",") if s]
    args.decays = [s for s in args.decays.split(",") if s]
    args.peers = [s for s in args.peers.split(",") if s and s != "tcuc"]
    for d in args.dtypes:
        if d not in DTYPES:
            p.error(f"--dtypes: {d} is not one of {', '.join(DTYPES)}")
    for s in args.sizes:
        if s != "whole" and not (s.isdigit() and int(s) > 0):
            p.error(f"--sizes: {s} is not a positive integer or 'whole'")
    for s in args.decays:
        try:
            s in ("seg", "elem") or float(s)
        except ValueError:
            p.error(f"--decays: {s} is neither a number, 'seg' nor 'elem'")
    for s in args.peers:
        if s not in ("triton", "torch", "jax", "cub"):
            p.error(f"--peers: {s} is not one of triton, torch, jax, cub")
    if args.precompile:
        sys.exit(precompile(args))
    if torch is None:
        p.error("measuring needs torch and triton (not importable here); "
                "--precompile needs neither")
    if "jax" in args.peers:  # JAX would take 75% of the GPU at its import
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    if not torch.cuda.is_available():
        p.error("needs a CUDA GPU (torch.cuda.is_available() is False)")
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "log.txt"), "w")

    def say(*a):
        print(*a, flush=True)
        print(*a, file=log, flush=True)

    device = torch.cuda.get_device_name(0)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    command = " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv)
    say(f"device {device}; {date}")
    say(f"command: PYTHONPATH={shlex.quote(os.environ.get('PYTHONPATH', ''))} "
        f"{command}")
    say("versions: " + "; ".join(versions(args.peers)))
    say(f"n = {args.n}; dtypes {args.dtypes}; sizes {args.sizes}; decays "
        f"{args.decays}; peers tcuc + {args.peers}"
        + ("; suffix (reverse) scans" if args.reverse else ""))
    rows = []
    with open(os.path.join(args.out, "decay.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()

        def emit(row):
            rows.append(row)
            w.writerow(row)
            f.flush()

        try:
            sweep(args, say, emit, device, date)
        finally:  # a report of what ran, also after an interruption
            write_md(os.path.join(args.out, "decay.md"), rows,
                     ["tcuc"] + args.peers,
                     f"{device}, {date}, n = {args.n}; `{command}`")
    say(f"wrote {args.out}/decay.csv, decay.md, log.txt")


if __name__ == "__main__":
    main()
