#!/usr/bin/env python3
"""The runtime built by GCC against the one built by clang, row by row
(`bench/run.sh --gcc`): build/bin/birsim-ratio-bench run on one path with
build/lib's libbirsim_runtime.so (clang) and with build-gcc/lib's (GCC, a
core-only build), alternately, each row's time as GCC's over clang's, and
the targets each meets (docs/Benchmarks.md, "GCC").

    bench/compilers.py ISA [ROWS]    # ISA: portable, avx2, avx512
"""
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r"(.{34}) +([0-9.]+) ms +([0-9.]+) ms +([0-9.]+)x +(.*)")


def run(isa, rows, lib):
    env = dict(os.environ, BIRSIM_ISA=isa, BIRSIM_BENCH_ROWS=rows,
               LD_LIBRARY_PATH=os.path.join(ROOT, lib, "lib"))
    out = subprocess.run([os.path.join(ROOT, "build/bin/birsim-ratio-bench")],
                         env=env, capture_output=True, text=True,
                         check=True).stdout
    return {m.group(1).strip(): (float(m.group(2)), float(m.group(4)),
                                 m.group(5).strip())
            for m in map(ROW.match, out.splitlines()) if m}


def main():
    isa, rows = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    clang, gcc = run(isa, rows, "build"), run(isa, rows, "build-gcc")
    ratios = []
    print("%-34s %9s %7s %9s %7s %9s" % ("row (%s)" % isa, "clang ms", "/memcpy",
                                       "gcc ms", "/memcpy", "gcc/clang"))
    for name, (ct, cr, cv) in clang.items():
        if name not in gcc:
            continue
        gt, gr, gv = gcc[name]
        ratios.append(gt / ct)
        note = {(True, False): " gcc misses", (False, True): " clang misses"}.get(
            ("MISSED" in gv, "MISSED" in cv), "")
        print("%-34s %9.3f %6.2fx %9.3f %6.2fx %9.2f%s"
              % (name, ct, cr, gt, gr, gt / ct, note))
    misses = [sum("MISSED" in v[2] for v in r.values()) for r in (clang, gcc)]
    print("median gcc/clang %.2f over %d rows; targets missed: clang %d, gcc %d"
          % (statistics.median(ratios), len(ratios), *misses))


if __name__ == "__main__":
    main()
