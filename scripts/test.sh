#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run ctest.
# The PostgreSQL store tests start their own throwaway server (ctest's "pg:"
# fixture, scripts/pg-test-server.sh) and stop it when they end; should
# ctest itself be killed, the trap below stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test   # adds chromium and the PostgreSQL server for the tests
scripts/build.sh
root=$(pwd)
trap '"$root/scripts/pg-test-server.sh" stop "$root/build/pg-test-server.url"' EXIT
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
