#!/usr/bin/env bash
# `utils/test.sh --pypi`: birsim's Python suite on a current stack from PyPI.
# Makes build-pypi/venv from /usr/bin/python3 with utils/pypi-requirements.txt's
# pins, pip-installs birsim from this clone into it as a user would
# (`pip install .`: pyproject.toml builds the runtime alone), checks that
# build read no LLVM or MLIR file and that the runtime needs nothing but
# libc, libm and libstdc++, and runs every test/Python/test_*.py against the
# installed package. Prints each step's time and the environment's size;
# ends with "N passed, N failed" (pytest's tests and the two checks).
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD
./utils/setup.sh --gcc || exit 1
out=build-pypi
venv=$out/venv
rm -rf "$out"
mkdir -p "$out"
export PIP_DISABLE_PIP_VERSION_CHECK=1
# The pins constrain pip's isolated build environment too (scikit-build-core).
export PIP_CONSTRAINT=$src/utils/pypi-requirements.txt
step() { echo "== pypi: $1 =="; }
secs() { echo $(( $(date +%s) - $1 )); }

step "virtual environment from PyPI ($(grep -v '^#' utils/pypi-requirements.txt | tr '\n' ' '))"
t=$(date +%s)
/usr/bin/python3 -m venv "$venv" || exit 1
"$venv/bin/pip" install -q -r utils/pypi-requirements.txt || exit 1
echo "pypi: stack installed in $(secs "$t") s, $(du -sh "$venv" | cut -f1)"

step "pip install . (the runtime alone, $out/wheel)"
t=$(date +%s)
"$venv/bin/pip" install -q --config-settings=build-dir="$src/$out/wheel" . || exit 1
echo "pypi: birsim built and installed in $(secs "$t") s"

passed=0; failed=0
check() { # name, then a command that succeeds when the check passes
  local name=$1; shift
  if "$@"; then echo "PASS: pypi: $name"; passed=$((passed + 1))
  else echo "FAIL: pypi: $name"; failed=$((failed + 1)); fi
}
no_llvm() {
  local deps cache=$out/wheel/CMakeCache.txt
  deps=$(ninja -C "$out/wheel" -t deps) || return 1
  [ -n "$deps" ] || { echo "no dependency record in $out/wheel" >&2; return 1; }
  if grep -iE "llvm|mlir|clang" <<<"$deps" | grep -v "^ *$src/" >&2; then
    echo "the wheel's build read the files above" >&2; return 1
  fi
  if grep -E "^(LLVM|MLIR)_DIR:.*=/" "$cache" >&2; then
    echo "the wheel's build configured LLVM or MLIR" >&2; return 1
  fi
  grep -E "^CMAKE_CXX_COMPILER:" "$cache"
}
runtime_needs() {
  local lib needed
  lib=$(echo "$venv"/lib/python3*/site-packages/birsim/libbirsim_runtime.so.0)
  needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
  echo "$lib needs: $needed"
  [ "$needed" = "ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libstdc++.so.6 " ] ||
    [ "$needed" = "libc.so.6 libm.so.6 libstdc++.so.6 " ]
}
check "the build read no LLVM, MLIR or clang file" no_llvm
check "the runtime needs only libc, libm and libstdc++" runtime_needs

step "the Python suite against the installed package"
log=$(mktemp)
# From build-pypi/, where no birsim/ folder shadows the installed package,
# and without the variables that would point it at other libraries.
(cd "$out" && env -u PYTHONPATH -u BIRSIM_RUNTIME -u BIRSIM_COMPILER "$src/$venv/bin/python" -c \
   "import birsim; print('birsim', birsim.__version__, 'from', birsim.__file__)" &&
 env -u PYTHONPATH -u BIRSIM_RUNTIME -u BIRSIM_COMPILER "$src/$venv/bin/python" -m pytest -q \
   -p no:cacheprovider -rs "$src"/test/Python/test_*.py) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# pytest's last line: "N failed, N passed, N skipped, N errors in T s".
summary=$(grep -E "^=*.* in [0-9.]+s" "$log" | tail -1)
n() { local v; v=$(grep -oE "[0-9]+ $1" <<<"$summary" | cut -d' ' -f1 | head -1)
      echo "${v:-0}"; }
passed=$((passed + $(n passed)))
failed=$((failed + $(n failed) + $(n error)))
[ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
rm -f "$log"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
