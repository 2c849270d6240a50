"""What people run first (docs/Python.md): a ttnn-style golden function for
from_torch(x, bfloat8_b) and its BFP4/BFP2 siblings on a row-major bf16
matrix, an fp8 embedding-bag scatter-add the way the BIR simulator does it
beside a saturating device and plain float32, the fidelity counts of both,
and one picture of the error each BFP format leaves per block.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/golden.py out.png
"""
import sys

import numpy as np

import birsim


def golden_from_torch(x_bf16_bits, fmt):
    """ttnn.from_torch(x, <fmt>) then to_torch: tilize + pack in one pass,
    unpack back to float32 (32x32 tiles, row-major tile order)."""
    packed = birsim.bfp_pack_matrix(x_bf16_bits, fmt, src_dtype="bfloat16")
    return birsim.bfp_unpack_matrix(packed, fmt, x_bf16_bits.shape)


def main(png):
    rng = np.random.default_rng(2026)
    x = rng.normal(0, 1, (256, 256)).astype(np.float32)
    x_bits = birsim.from_float32(x, "bfloat16")
    exact = birsim.to_float32(x_bits, "bfloat16")
    errors = {}
    with birsim.fidelity() as bfp:
        for fmt in ("bfp8_b", "bfp4_b", "bfp2_b"):
            back = golden_from_torch(x_bits, fmt)
            err = np.abs(back - exact)
            # One 16-value block is one face row: 16 consecutive columns.
            errors[fmt] = err.reshape(-1, 16).max(axis=1)
            print("%s: max |error| %.4g, mean %.4g" % (fmt, err.max(), err.mean()))
    print("bfp_pack counts:", bfp.counts["bfp_pack"])

    # An fp8 (E4M3) embedding bag: rows of a table summed into bags.
    table = birsim.from_float32(rng.normal(0, 60, (64, 8)), "float8e4")
    indices = rng.integers(0, 64, 48)
    bags = np.repeat(np.arange(6), 8)
    dst = np.zeros((6, 8), np.uint8)
    src = table[indices]
    flat = (bags[:, None] * 8 + np.arange(8)).ravel()
    with birsim.fidelity() as fp8:
        sim = birsim.scatter_accumulate("add", dst, src.ravel(), flat, "float8e4")
    ref = np.zeros((6, 8), np.float32)
    np.add.at(ref, bags, birsim.to_float32(src, "float8e4"))
    device = birsim.to_float32(birsim.from_float32(ref, "float8e4"), "float8e4")
    print("embedding bag, simulator (fp8 sums, Inf on overflow):",
          birsim.to_float32(sim, "float8e4")[0])
    print("               one rounding of the float32 sum, saturating:", device[0])
    print("               float32:", ref[0])
    print("reduce counts:", fp8.counts["reduce"])

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    for fmt, e in errors.items():
        ax.hist(e, bins=60, histtype="step", label=fmt, log=True)
    ax.set_xlabel("largest |error| in a 16-value block")
    ax.set_ylabel("blocks")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png)
    print("wrote", png)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bfp-block-error.png")
