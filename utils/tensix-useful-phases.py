#!/usr/bin/env python3
"""The useful fidelity phases of a Tensix matmul per (activation, weight)
format pair, and how many of 10^6 random outputs change when the other
phases are dropped (docs/Semantics.md section 7, "Fidelity phases").

Usage: PYTHONPATH=build/python python3 utils/tensix-useful-phases.py
         [--outputs N] [--seed S]

Two operand sets per pair, K = 64, a bf16 Dest (HiFi4 with a 16-bit Dest is
ttnn's common matmul) on Wormhole: "normal" (standard normal activations
and weights, each stored in its format) and "cancelling" (each odd K's
activation is minus the even K's before it, up to 2^-6, with the same
weight, so each group of eight products cancels to a few low bits).
"""
import argparse

import numpy as np

import birsim

ACTIVATIONS = ("float32", "bfloat16", "bfloat8_b", "bfloat4_b", "bfloat2_b")
WEIGHTS = ("float32", "bfloat16", "bfloat8_b", "bfloat4_b", "bfloat2_b")


def operands(rng, rows, kind):
    in0 = rng.standard_normal((rows, 64)).astype(np.float32)
    in1 = rng.standard_normal((64, 32)).astype(np.float32)
    if kind == "cancelling":  # K 2i + 1 cancels K 2i within each group
        nudge = rng.integers(-1, 2, (rows, 32)).astype(np.float32)
        in0[:, 1::2] = -in0[:, 0::2] * (1 + nudge * 2.0 ** -6)
        in1[1::2] = in1[0::2]
    return in0, in1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outputs", type=int, default=10 ** 6)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rows = -(-args.outputs // 32 // 32) * 32  # whole tiles of 32 columns
    print("| activations | weights | useful phases | changed (normal) | "
          "changed (cancelling) |")
    print("|---|---|---|--:|--:|")
    for act in ACTIVATIONS:
        for wt in WEIGHTS:
            useful = birsim.tensix_useful_phases("hifi4", act, wt)
            counts = []
            for kind in ("normal", "cancelling"):
                rng = np.random.default_rng(args.seed)
                in0, in1 = operands(rng, rows, kind)
                full = birsim.tensix_matmul(in0, in1, fidelity="hifi4",
                                            dest="bf16", in0_format=act,
                                            in1_format=wt, out_format="bfloat16")
                fewer = birsim.tensix_matmul(in0, in1, fidelity=useful,
                                             dest="bf16", in0_format=act,
                                             in1_format=wt,
                                             out_format="bfloat16")
                n = full.size
                changed = int((full.view(np.uint16) !=
                               fewer.view(np.uint16)).sum())
                counts.append("%d of %d" % (changed, n))
            print("| %s | %s | %s | %s | %s |"
                  % (act, wt, ",".join(map(str, useful)), *counts))


if __name__ == "__main__":
    main()
