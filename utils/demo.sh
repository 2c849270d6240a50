#!/usr/bin/env bash
# Sets up, builds and runs the birsim demo (examples/).
set -euo pipefail
cd "$(dirname "$0")/.."
./utils/setup.sh
./utils/build.sh > /dev/null
exec ./examples/run-demo.sh
