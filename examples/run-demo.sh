#!/usr/bin/env bash
# Runs the examples against the build tree.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== birsim runtime demo (examples/runtime-demo.c) =="
./build/bin/birsim-runtime-demo
