#!/usr/bin/env bash
# Installs the pinned playwright-core (tests/web/package-lock.json) into DIR
# (build/web-test) with `npm ci`. It never downloads a browser: the test
# drives Debian's chromium. Does nothing when that exact lock is installed.
set -euo pipefail
dir=${1:?usage: setup.sh DIR}
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
if [ -f "$dir/node_modules/playwright-core/package.json" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dir/"
cd "$dir"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
