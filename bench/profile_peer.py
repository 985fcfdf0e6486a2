"""Runs bench.py's Triton peer once on n random elements, for ncu
(bench/profile.sh): python3 profile_peer.py N --op scan --segment 256
--dtype f16 [--out-dtype f16]."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "baselines"))
import triton_kernels as tk  # noqa: E402

n, args = int(sys.argv[1]), sys.argv[2:]
opt = {args[i]: args[i + 1] for i in range(0, len(args) - 1, 2)}
types = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
         "i8": torch.int8}
dt = types[opt.get("--dtype", "f16")]
acc = torch.int32 if dt == torch.int8 else torch.float32
seg = int(opt["--segment"])
x = torch.randint(-8, 8, (n,), device="cuda").to(dt)
for _ in range(2):  # the first call compiles; ncu sees both launches
    if opt["--op"] == "scan":
        y = torch.empty(n, dtype=types.get(opt.get("--out-dtype", ""), acc),
                        device="cuda")
        tk.segment_cumsum(x, y, seg)
    else:
        y = torch.empty((n + seg - 1) // seg, dtype=acc, device="cuda")
        tk.segment_sum(x, y, seg)
torch.cuda.synchronize()
