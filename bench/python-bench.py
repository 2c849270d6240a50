"""The Python layer against NumPy and the C call, side by side in one
process on the same buffers (docs/Python.md "Speed"), best of 9:

- accumulate("add", a, b, "float32", out=o) on 2^24 elements against
  np.add(a, b, out=o) and against the C call it makes
  (birsim_accumulate_into) on the same buffers; target at most 1.1x each;
- accumulate("add", dst, src, "bfloat16", out=dst) against the C call;
- the per-call cost of a one-element call (target at most 4 us), beside
  NumPy's np.add of one element;
- birsim_tensix_matmul at 1024 x 1024 x 1024 with bf16 Src into an fp32
  Dest, one thread, against NumPy's float32 matmul (OpenBLAS, one thread):
  HiFi4 at most 60x, LoFi at most 20x (best of 3).

    PYTHONPATH=build/python /usr/bin/python3 bench/python-bench.py
"""
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads it

import numpy as np  # noqa: E402

import birsim  # noqa: E402

lib = birsim._core._rt.lib
birsim.set_num_threads(1)
FLOAT32 = birsim.dtype_of("float32").number
BFLOAT16 = birsim.dtype_of("bfloat16").number


def best(fn, repeat=9, number=1):
    t_best = 1e30
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        t_best = min(t_best, (time.perf_counter() - t) / number)
    return t_best


def row(name, t, peer_name, peer, target):
    ratio = t / peer
    print("%-52s %9.3f ms  %s %9.3f ms  %.2fx  <= %.1f %s" % (
        name, t * 1e3, peer_name, peer * 1e3, ratio, target,
        "ok" if ratio <= target else "MISSED"))


n = 1 << 24
rng = np.random.default_rng(3)
a = rng.normal(size=n).astype(np.float32)
b = rng.normal(size=n).astype(np.float32)
o = np.empty_like(a)


def c_call():
    lib.birsim_accumulate_into(1, o.ctypes.data, a.ctypes.data, b.ctypes.data,
                               FLOAT32, n)


times = {"birsim": [], "numpy": [], "c": []}
for _ in range(9):  # alternately, so drift hits all three alike
    times["birsim"].append(best(lambda: birsim.accumulate(
        "add", a, b, "float32", out=o), repeat=1))
    times["numpy"].append(best(lambda: np.add(a, b, out=o), repeat=1))
    times["c"].append(best(c_call, repeat=1))
py, npy, c = (min(times[k]) for k in ("birsim", "numpy", "c"))
row("accumulate f32 2^24, out=o", py, "np.add", npy, 1.1)
row("accumulate f32 2^24, out=o", py, "C call", c, 1.1)

dst = rng.integers(0x3F00, 0x4000, n, dtype=np.uint16)
src = rng.integers(0x3F00, 0x4000, n, dtype=np.uint16)
t_py = t_c = 1e30
for _ in range(9):
    t_py = min(t_py, best(lambda: birsim.accumulate(
        "add", dst, src, "bfloat16", out=dst), repeat=1))
    t_c = min(t_c, best(lambda: lib.birsim_accumulate(
        1, dst.ctypes.data, src.ctypes.data, BFLOAT16, n), repeat=1))
row("accumulate bf16 2^24, out=dst", t_py, "C call", t_c, 1.1)

one_a, one_b = np.ones(1, np.float32), np.ones(1, np.float32)
per_call = best(lambda: birsim.accumulate("add", one_a, one_b, "float32"),
                number=2000)
per_call_np = best(lambda: np.add(one_a, one_b), number=2000)
print("%-52s %9.2f us  np.add %6.2f us        <= 4 us %s" % (
    "accumulate one float32 element (per call)", per_call * 1e6,
    per_call_np * 1e6, "ok" if per_call <= 4e-6 else "MISSED"))
per_out = best(lambda: birsim.accumulate("add", one_a, one_b, "float32",
                                         out=one_a), number=2000)
print("%-52s %9.2f us" % ("accumulate one element, out=dst (per call)",
                          per_out * 1e6))

side = 1024
ma = rng.normal(size=(side, side)).astype(np.float32)
mb = rng.normal(size=(side, side)).astype(np.float32)
md = np.empty((side, side), np.float32)
t_np = best(lambda: ma @ mb, repeat=5)
for name, phases, target in (("hifi4", 15, 60.0), ("lofi", 1, 20.0)):
    t_mm = best(lambda: lib.birsim_tensix_matmul(
        0, phases, 0, 1, 1, ma.ctypes.data, mb.ctypes.data, side, side, side,
        md.ctypes.data, 0), repeat=3)
    row("tensix_matmul %s 1024^3, bf16 Src, fp32 Dest" % name, t_mm,
        "a @ b", t_np, target)
