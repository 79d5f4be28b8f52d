#!/usr/bin/env bash
# Long soak of the reliability tests (docs/SERVER.md): runs the crash test
# (kill -9 under concurrent clients), the corruption test and the fault test
# ROUNDS times (default 10) from an existing build and sums the crash test's
# figures. Usage: scripts/soak.sh [ROUNDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-10}"
build="${2:-build}"
bin="$build/tests/mentat_tests"
[ -x "$bin" ] || { echo "soak.sh: $bin is not built (scripts/build.sh)" >&2; exit 2; }
crashes=0 acked=0 lost=0 duplicated=0 holes=0 failed=0
for ((i = 1; i <= rounds; i++)); do
  out=$("$bin" "[crash],[corruption],[faults]" 2>&1) || { failed=$((failed + 1)); echo "$out" | tail -40; }
  line=$(echo "$out" | grep '^crash test:' || true)
  echo "round $i: ${line:-no crash-test line}"
  [ -n "$line" ] || continue
  num() { echo "$line" | sed -E "s/.*[ (]$1[ =]([0-9]+).*/\1/"; }
  crashes=$((crashes + $(echo "$line" | sed -E 's/.*rooms, ([0-9]+) crashes.*/\1/')))
  acked=$((acked + $(echo "$line" | sed -E 's/.*\), ([0-9]+) acknowledged.*/\1/')))
  lost=$((lost + $(num lost)))
  duplicated=$((duplicated + $(num duplicated)))
  holes=$((holes + $(num holes)))
done
echo "soak: $rounds rounds, $failed failed; $crashes crashes survived, $acked acknowledged actions checked, lost=$lost, duplicated=$duplicated, holes=$holes"
[ "$failed" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$duplicated" -eq 0 ] && [ "$holes" -eq 0 ]
