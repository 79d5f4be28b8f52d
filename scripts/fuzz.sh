#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/README.md), in their own clang build tree.
#
#   scripts/fuzz.sh build                 configure + build the fuzzers (clang, ASan, UBSan)
#   scripts/fuzz.sh run TARGET SECONDS [libFuzzer options...]
#                                          TARGET: action | event | names; runs that long on the
#                                          committed + generated seeds, exit 1 on a crash
#   scripts/fuzz.sh all SECONDS           build, then run every target SECONDS each
#
# MENTAT_FUZZ_BUILD: the build tree (default build-fuzz beside the sources);
# JOBS: compile jobs (default 1). Crash inputs go to $MENTAT_FUZZ_BUILD/artifacts/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MENTAT_FUZZ_BUILD:-$ROOT/build-fuzz}"
CXX_FUZZ="${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++ || true)}"

build() {
  [ -n "$CXX_FUZZ" ] || { echo "fuzz.sh: clang++ not found (scripts/install-deps.sh installs clang)" >&2; exit 2; }
  local launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_FUZZ" \
    -DMENTAT_BUILD_FUZZ=ON -DMENTAT_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
  cmake --build "$BUILD" --target mentat_fuzz_action mentat_fuzz_event mentat_fuzz_names mentat_fuzz_seeds -j "${JOBS:-1}"
  rm -rf "$BUILD/seeds"
  "$BUILD/tests/fuzz/mentat_fuzz_seeds" "$BUILD/seeds"
}

run() {
  local target="$1" secs="$2"
  shift 2
  local bin="$BUILD/tests/fuzz/mentat_fuzz_$target"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built (scripts/fuzz.sh build)" >&2; exit 2; }
  # New inputs go to a scratch corpus; the committed and generated seeds are only read.
  local work="$BUILD/corpus/$target"
  mkdir -p "$work" "$BUILD/artifacts"
  # The names pre-pass reads whole request bodies: longer inputs, and a
  # memory bound that a pass growing faster than its input would break.
  local limits=(-timeout=10 -rss_limit_mb=2048 -max_len=8192)
  if [ "$target" = names ]; then limits=(-timeout=5 -rss_limit_mb=512 -max_len=1048576 -len_control=0); fi
  mkdir -p "$BUILD/seeds/$target"
  "$bin" "$work" "$ROOT/tests/fuzz/corpus/$target" "$BUILD/seeds/$target" \
    -max_total_time="$secs" "${limits[@]}" -print_final_stats=1 \
    -artifact_prefix="$BUILD/artifacts/$target-" "$@"
}

case "${1:-}" in
  build) build ;;
  run) [ $# -ge 3 ] || { echo "usage: fuzz.sh run action|event|names SECONDS [options]" >&2; exit 2; }; shift; run "$@" ;;
  all) build; run action "${2:-60}"; run event "${2:-60}"; run names "${2:-60}" ;;
  *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
