"""bench/decay.py's float64 reference against a brute-force recurrence,
forward and reverse (suffix), one decay and one per segment, on slices
that HEAD and TAIL shrink to a few elements. Needs numpy only (decay.py
imports torch and Triton only where present)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import decay as D  # noqa: E402


class Host:
    """The torch-tensor surface reference() uses, over a NumPy array."""

    def __init__(self, a):
        self.a = a

    def numel(self):
        return self.a.size

    def __getitem__(self, k):
        return Host(self.a[k])

    def double(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self.a


D.HEAD, D.TAIL = 64, 16
rng = np.random.default_rng(1)
checked = 0
for n, seg in [(200, 7), (200, 50), (200, 200), (50, 7), (200, 100),
               (200, 1000), (190, 70), (65, 8)]:
    x = rng.standard_normal(n)
    k = -(-n // seg)
    for a in (0.9, rng.uniform(0.5, 1, k).astype(np.float32)):
        d = (np.full(k, a) if np.ndim(a) == 0 else a).astype(
            np.float32).astype(np.float64)
        for reverse in (False, True):
            want = np.empty(n)
            for head in range(0, n, seg):
                end = min(n, head + seg)
                order = range(end - 1, head - 1, -1) if reverse else range(
                    head, end)
                h = 0.0
                for i in order:
                    h = d[head // seg] * h + x[i]
                    want[i] = h
            spans = D.reference(Host(x), seg, a, False, reverse)
            assert spans, (n, seg, reverse)
            for s0, s1, ref, _, _ in spans:
                assert np.allclose(ref, want[s0:s1], rtol=1e-12, atol=1e-12), \
                    (n, seg, reverse, s0, s1)
                checked += s1 - s0
print(f"decay.py reference: {checked} elements match")
