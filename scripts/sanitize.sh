#!/usr/bin/env bash
# Sanitizer runs (issue 11): builds mentat_tests with ASan+UBSan
# (build-asan) or TSan (build-tsan) and runs a test filter ROUNDS times,
# JOBS instances at once (several at once load the CPU, which is what
# exposed the server tests' heap corruption). Any sanitizer report or
# failing run fails the script; the reports are kept in BUILD/sanitize-logs.
# Usage: scripts/sanitize.sh address|thread [FILTER] [ROUNDS] [JOBS]
#   e.g. scripts/sanitize.sh thread "[server]" 20 4
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:?address or thread}"
filter="${2:-[server]}"
rounds="${3:-10}"
jobs="${4:-3}"
case "$kind" in
  address) build=build-asan ;;
  thread) build=build-tsan ;;
  *) echo "sanitize.sh: address or thread" >&2; exit 2 ;;
esac
[ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMENTAT_SANITIZE="$kind" \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER}
nice cmake --build "$build" -j2 --target mentat mentat_tests
logs="$build/sanitize-logs"
rm -rf "$logs" && mkdir -p "$logs"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp"
failed=0
for ((r = 1; r <= rounds; r++)); do
  pids=()
  for ((j = 1; j <= jobs; j++)); do
    "$build/tests/mentat_tests" "$filter" > "$logs/run-$r-$j.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      failed=$((failed + 1))
      echo "round $r instance $((i + 1)) failed: $logs/run-$r-$((i + 1)).log"
    fi
  done
done
reports=$(grep -l "WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|runtime error:" "$logs"/*.log || true)
echo "sanitize.sh $kind \"$filter\": $((rounds * jobs)) runs, $failed failed, sanitizer reports in: ${reports:-none}"
[ "$failed" -eq 0 ] && [ -z "$reports" ]
