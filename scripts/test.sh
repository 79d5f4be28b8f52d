#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test   # adds chromium for the HTML replay test
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
