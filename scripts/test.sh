#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
