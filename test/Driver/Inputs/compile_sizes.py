"""Compiles the default kernel of 50 segment sizes (1..8192, odd and round)
into a kernel cache with TCUC_SEGMENT_KERNELS set to argv[3] and prints how
many kernel files the cache holds. Usage: compile_sizes.py TCUC DIR MODE OP"""
import os
import subprocess
import sys

tcuc, cache, mode, op = sys.argv[1:5]
sizes = [1, 2, 3, 5, 7, 10, 11, 13, 15, 16, 17, 19, 23, 24, 31, 33, 37, 48,
         50, 63, 64, 65, 99, 100, 101, 127, 128, 129, 200, 255, 256, 257,
         300, 499, 500, 511, 512, 999, 1000, 1023, 1024, 1025, 2047, 3000,
         4095, 4096, 4097, 5000, 8191, 8192]
assert len(set(sizes)) == 50
env = dict(os.environ, TCUC_SEGMENT_KERNELS=mode)
for s in sizes:
    subprocess.run([tcuc, "compile", "--op", op, "--segment", str(s),
                    "--cache-dir", cache, "-o", os.devnull], env=env,
                   check=True)
print(f"{len(sizes)} sizes: {len(os.listdir(cache))} kernel files")
