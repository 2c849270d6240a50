#!/usr/bin/env python3
"""compare-fidelity.py REPORT.json COUNTS.txt

Checks that the run-time counters (the `birsim-fidelity <loc> <family>
elements=N key=N ...` lines a program lowered with fidelity-counters=true
prints at exit) equal, site by site, what `--birsim-fidelity` reported for
the same values written as constants. Prints one line per site; exits 1 on
any difference."""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
runtime = {}
for line in open(sys.argv[2]):
    m = re.match(r"birsim-fidelity (loc\(.*\)) (\w+) (.*)$", line.strip())
    if m:
        fields = dict(kv.split("=") for kv in m.group(3).split())
        runtime[(m.group(1), m.group(2))] = {k: int(v) for k, v in fields.items()}

ok = True
for entry in report:
    key = (entry["loc"], entry["family"])
    want = dict(entry["counts"], elements=entry["elements"])
    got = runtime.pop(key, None)
    if got != want:
        ok = False
        print("MISMATCH %s %s: report %s, run time %s" % (key[0], key[1], want, got))
        continue
    print("%s %s %s" % (key[0], key[1], " ".join(
        "%s=%d" % (k, v) for k, v in want.items() if v)))
for key in runtime:
    ok = False
    print("MISMATCH %s %s: counted at run time, not in the report" % key)
print("%d sites %s" % (len(report), "match" if ok else "differ"))
sys.exit(0 if ok else 1)
