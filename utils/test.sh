#!/usr/bin/env bash
# Sets up, builds and runs every birsim test; ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./utils/setup.sh || exit 1
./utils/build.sh || exit 1
LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
"$LIT" -v --no-progress-bar build/test build/test/Unit 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
count() { grep -E "^ *$1: +[0-9]+" "$log" | sed -E "s/^ *$1: +([0-9]+).*/\1/" | head -1; }
passed=$(count Passed); failed=$(count Failed)
unresolved=$(count Unresolved); timed=$(count "Timed Out")
failed=$(( ${failed:-0} + ${unresolved:-0} + ${timed:-0} ))
passed=${passed:-0}
rm -f "$log"
echo "${passed} passed, ${failed} failed"
if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then exit 1; fi
