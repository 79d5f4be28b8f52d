#!/usr/bin/env bash
# Configures and builds Mentat in ./build (Release with debug info).
#   scripts/build.sh                 everything (the tool, the tests, ...)
#   scripts/build.sh mentat          only the named targets (the demo needs only `mentat`)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build -j"$(nproc)" --target "$@"
else
  cmake --build build -j"$(nproc)"
fi
