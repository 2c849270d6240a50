#!/usr/bin/env python3
"""Checks docs/Semantics.md against the runtime's tables: section 1's dtype
table row by row (number, name, bytes, MLIR element type, how add/min/max
reduce it) and its count, the MemoryReductionOp numbering and the AluOpType
list with its count, and section 5's BFP format table. Prints one line per mismatch and
"semantics tables: N dtypes, N ops, N alu ops match" when all agree.

Usage: check-semantics-tables.py libbirsim_runtime.so docs/Semantics.md"""
import ctypes
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
from birsim_runtime import Runtime  # noqa: E402

rt = Runtime(sys.argv[1])
text = Path(sys.argv[2]).read_text()
section = text[text.index("## 1."):text.index("## 2.")]
problems = []


def expect(what, got, want):
    if got != want:
        problems.append("%s: Semantics.md says %r, the runtime %r" % (what, got, want))


dtypes = rt.dtypes()
count = re.search(r"`bir::Dtype` has (\d+) values", section)
expect("dtype count", int(count.group(1)) if count else None, len(dtypes))
rows = [[c.strip() for c in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if re.match(r"\| \d+ \|", line)]
expect("dtype rows", len(rows), len(dtypes))
for row, d in zip(rows, dtypes):
    number, name, nbytes, mlir, reduction = row
    spelling = mlir.split(" / ")[0].strip("`")
    expect("dtype %s number" % d.name, int(number), d.number)
    expect("dtype %d name" % d.number, name, d.name)
    expect("dtype %s bytes" % d.name, int(nbytes), d.bytes)
    expect("dtype %s MLIR type" % d.name, spelling, d.mlir_type)
    expect("dtype %s add/min/max" % d.name, reduction,
           "rejected" if d.reduction == "none" else d.reduction)

ops = re.search(r"`MemoryReductionOp` is `([^`]*)`", section)
expect("MemoryReductionOp", ops.group(1) if ops else None,
       ", ".join("%s = %d" % (n, i)
                 for i, n in enumerate(rt.names("memory_reduction_op"))))

alu = re.search(r"`bir::AluOpType` has (\d+) values: ([^\[]*)\[", section)
alu_names = rt.names("alu_op_type")
expect("AluOpType count", int(alu.group(1)) if alu else None, len(alu_names))
expect("AluOpType list", " ".join(alu.group(2).split()).rstrip(" ,.") if alu else None,
       ", ".join("%s %d" % (n, i) for i, n in enumerate(alu_names)))

# Section 5's format tables: the BFP rows, then the MX rows.
bfp = text[text.index("## 5."):]
bfp = bfp[:bfp.index("\n## ", 4)] if "\n## " in bfp[4:] else bfp
bfp_rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in bfp.splitlines() if re.match(r"\| \d+ \| (bfp|mx)", line)]
formats = rt.bfp_formats()
expect("BFP format rows", len(bfp_rows), len(formats))
for row, (number, name, exponent, _, _) in zip(bfp_rows, formats):
    tile_bytes = rt.lib.birsim_bfp_tile_bytes(number)
    expect("BFP format %s number" % name, int(row[0]), number)
    expect("BFP format %d name" % number, row[1], name)
    expect("BFP format %s M" % name, int(row[2]), rt.lib.birsim_bfp_mantissa_bits(number))
    expect("BFP format %s exponent" % name, row[3].split()[0], exponent)
    expect("BFP format %s tile bytes" % name, int(row[4]), tile_bytes)

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print("semantics tables: %d dtypes, %d ops, %d alu ops, %d bfp formats match" % (
    len(dtypes), len(rt.names("memory_reduction_op")), len(alu_names),
    len(formats)))
