"""RuntimeFunctions.def (as birsim_function_info gives it) has exactly one
row per function Runtime.h declares and per birsim_* symbol the library
exports, and Runtime.h's prose list of counted calls is its Counted rows.
Usage: check-function-table.py SRC_ROOT LIBRARY EXPORTED_SYMBOLS_FILE"""
import os
import re
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "utils"))
import birsim_runtime  # noqa: E402

header = open(os.path.join(sys.argv[1], "include", "birsim", "Runtime",
                           "Runtime.h")).read()
declared = set(re.findall(r"BIRSIM_RT_API[^;]*?\b(birsim_\w+)\s*\(", header))
exported = set(open(sys.argv[3]).read().split())
functions = birsim_runtime.Runtime(sys.argv[2]).functions
rows = set(functions)
counted = {name for name, row in functions.items() if row.counted}
prose = header[header.index("Fidelity counters (docs/Fidelity.md)"):]
prose = set(re.findall(r"birsim_\w+", prose[:prose.index("over all threads")]))

failed = False
for what, left, right in (("declared in Runtime.h", declared, rows),
                          ("exported by the library", exported, rows),
                          ("listed as counted in Runtime.h", prose, counted)):
    for name in sorted(left - right):
        print("%s is %s but has no%s row" % (
            name, what, " Counted" if "counted" in what else ""))
        failed = True
    for name in sorted(right - left):
        print("%s has a%s row but is not %s" % (
            name, " Counted" if "counted" in what else "", what))
        failed = True
print("%d rows, %d counted" % (len(rows), len(counted)))
sys.exit(1 if failed else 0)
