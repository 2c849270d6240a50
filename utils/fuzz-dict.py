#!/usr/bin/env python3
"""The libFuzzer dictionary of FuzzParse (utils/fuzz.sh,
test/Fuzz/dict.test): test/Fuzz/birsim.dict's syntax words, then every op
name of the ODS op reference (docs/generated/BirsimOps.md, regenerated
from BirsimOps.td and checked by docs-up-to-date.test), then the runtime's
tables: every dtype's MLIR type, every enumeration's names, every BFP
format's packed tile type.

    utils/fuzz-dict.py SOURCE_DIR path/to/libbirsim_runtime.so
"""
import os
import re
import sys

source, library = sys.argv[1:3]
sys.path.insert(0, os.path.join(source, "utils"))
from birsim_runtime import Runtime  # noqa: E402

rt = Runtime(library)
words = re.findall(r'^"(.*)"$', open(os.path.join(
    source, "test", "Fuzz", "birsim.dict")).read(), re.M)
words += re.findall(r"^### `(birsim\.\w+)`", open(os.path.join(
    source, "docs", "generated", "BirsimOps.md")).read(), re.M)
words += [d.mlir_type for d in rt.dtypes()]
for table in ("memory_reduction_op", "alu_op_type", "bfp_format"):
    words += rt.names(table)
words += ["x%dxi8>" % rt.lib.birsim_bfp_tile_bytes(f.number)
          for f in rt.bfp_formats()]
print("\n".join('"%s"' % w for w in dict.fromkeys(words)))
