#!/usr/bin/env bash
# The main job: install what is missing, build, create a demo game in a
# fresh store, play it with random legal actions, print its log and verify it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh mentat   # only the tool: the demo runs no tests
rm -rf build/demo-data
./build/mentat --data build/demo-data demo --seed "${SEED:-2026}" --rules "${RULES:-advanced}"
