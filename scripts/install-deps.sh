#!/usr/bin/env bash
# Installs the Debian 12 packages Mentat builds and tests with (only those
# missing). Needs root or sudo. Safe to run again.
#   scripts/install-deps.sh          what building and the demo need
#   scripts/install-deps.sh --test   also what only the tests need (chromium,
#                                    for the headless HTML replay test; the
#                                    PostgreSQL server, for the store tests)
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config
      librocksdb-dev libflatbuffers-dev flatbuffers-compiler
      libspdlog-dev libfmt-dev catch2 libcli11-dev libxxhash-dev librapidcheck-dev
      libcpp-httplib-dev
      libpqxx-dev                # the PostgreSQL event store (store/pg_store.h)
      clang libclang-rt-14-dev   # the libFuzzer targets (tests/fuzz)
      libbenchmark-dev)          # bench/ (MENTAT_BUILD_BENCH)
if [ "${1:-}" = "--test" ]; then
  pkgs+=(chromium)   # the headless HTML replay test (tests/test_browser.cpp)
  pkgs+=(postgresql) # a throwaway server for the PostgreSQL store tests (scripts/pg-test-server.sh)
  # The web client's browser test (tests/web) needs node and npm: Debian's,
  # unless a node is already installed (from elsewhere: its own npm comes with it).
  if ! command -v node >/dev/null 2>&1; then pkgs+=(nodejs npm); fi
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
