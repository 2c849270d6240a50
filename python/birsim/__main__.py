"""python3 -m birsim: cast, pack and unpack .npy files (docs/Python.md
"Command line")."""
import argparse
import contextlib
import json
import sys
from typing import List, Optional

import numpy as np

import birsim

_EXAMPLES = {
    "cast": "python3 -m birsim cast x.npy --to bfloat16 -o x_bf16.npy",
    "pack": ("python3 -m birsim pack weights.npy --format bfp8_b "
             "--tile 32x32 -o w.bin"),
    "unpack": ("python3 -m birsim unpack w.bin --format bfp8_b "
               "--shape 64x64 -o w.npy"),
}


def _shape(text: str):
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not ROWSxCOLS" % text)
    return dims


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m birsim",
        description="Exact BIR-simulator casts and tt-metal BFP tiles on "
                    ".npy files (birsim %s)." % birsim.__version__,
        epilog="examples:\n  " + "\n  ".join(_EXAMPLES.values()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fidelity", action="store_true",
                        help="print the fidelity counts (docs/Fidelity.md) "
                             "of the run to stderr as JSON")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog="example:\n  " + _EXAMPLES[name],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("-o", "--output", required=True,
                       help="the file to write")
        p.add_argument("--fidelity", action="store_true",
                       default=argparse.SUPPRESS,
                       help="print the fidelity counts to stderr as JSON")
        return p

    p = command("cast", "cast an .npy array with the simulator's cast engine")
    p.add_argument("input", help=".npy file")
    p.add_argument("--to", required=True, help="target dtype "
                   "(birsim, MLIR or ml_dtypes name)")
    p.add_argument("--src-dtype", help="the input's dtype when its array "
                   "holds bits (uint8/uint16)")
    p.add_argument("--fp8-config", default="saturate",
                   help="none, saturate, nan_suppress or saturate|nan_suppress")

    p = command("pack", "pack an .npy matrix (leading dimensions folded into "
                "rows) into BFP tiles, as ttnn's from_torch; writes the raw "
                "tile bytes")
    p.add_argument("input", help=".npy file: float32, bf16 bits with "
                   "--src-dtype bfloat16, or integers")
    p.add_argument("--format", required=True, help="bfp8_b, bfp4_b, bfp2_b "
                   "or an _a form")
    p.add_argument("--tile", type=_shape, default=(32, 32),
                   help="ROWSxCOLS (default 32x32)")
    p.add_argument("--transpose", action="store_true",
                   help="ttnn's transposed tilize")
    p.add_argument("--src-dtype", help="the input's dtype when it holds bits")

    p = command("unpack", "unpack raw BFP tile bytes to an .npy float32 "
                "matrix")
    p.add_argument("input", help="file of packed tiles (from pack)")
    p.add_argument("--format", required=True)
    p.add_argument("--shape", type=_shape, required=True,
                   help="the matrix, ROWSxCOLS")
    p.add_argument("--tile", type=_shape, default=(32, 32))
    p.add_argument("--transpose", action="store_true")
    return parser


def _run(args) -> None:
    if args.command == "cast":
        x = np.load(args.input)
        np.save(args.output, birsim.cast(x, args.to, src_dtype=args.src_dtype,
                                         fp8_config=args.fp8_config))
    elif args.command == "pack":
        m = np.load(args.input)
        packed = birsim.bfp_pack_matrix(m, args.format, tile=args.tile,
                                        transpose=args.transpose,
                                        src_dtype=args.src_dtype)
        packed.tofile(args.output)
    else:
        packed = np.fromfile(args.input, np.uint8)
        np.save(args.output, birsim.bfp_unpack_matrix(
            packed, args.format, args.shape, tile=args.tile,
            transpose=args.transpose))


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with (birsim.fidelity() if args.fidelity else
              contextlib.nullcontext()) as counts:
            _run(args)
    except (OSError, TypeError, ValueError, IndexError,
            birsim.BirsimError) as e:
        print("birsim: error: %s" % e, file=sys.stderr)
        return 1
    if args.fidelity:
        assert counts is not None  # birsim.fidelity() gave it
        print(json.dumps(counts.counts, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
