"""A Python call against the C call on the same buffers (docs/Python.md):
birsim.accumulate("add", dst, src, "bfloat16", out=dst) on 2^24 elements
against birsim_accumulate through ctypes directly, alternately, best of 9.

    PYTHONPATH=build/python /usr/bin/python3 bench/python-bench.py
"""
import time

import numpy as np

import birsim

n = 1 << 24
rng = np.random.default_rng(3)
dst = rng.integers(0x3F00, 0x4000, n, dtype=np.uint16)
src = rng.integers(0x3F00, 0x4000, n, dtype=np.uint16)
lib = birsim._rt.lib
birsim.set_num_threads(1)
best_py = best_c = 1e30
for _ in range(9):
    t = time.perf_counter()
    birsim.accumulate("add", dst, src, "bfloat16", out=dst)
    best_py = min(best_py, time.perf_counter() - t)
    t = time.perf_counter()
    lib.birsim_accumulate(1, dst.ctypes.data, src.ctypes.data, 12, n)
    best_c = min(best_c, time.perf_counter() - t)
ratio = best_py / best_c
print("python accumulate bf16 2^24, out=dst: %.3f ms, C call %.3f ms: %.2fx   <= 1.1 %s"
      % (best_py * 1e3, best_c * 1e3, ratio, "ok" if ratio <= 1.1 else "MISSED"))
