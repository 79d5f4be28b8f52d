#!/usr/bin/env bash
# Side-by-side CPU time of two mentat binaries in one run (docs/PERFORMANCE.md,
# "Twelve factions"): bot self-play, fold (`mentat log` of every stored game:
# decode + apply + one summary line per event) and cold replay (`mentat show`
# of each game's head: a read-only open, the nearest snapshot, the events
# after it) and full verify (`mentat verify --all`: every game replayed
# from its first event and checked). The stores are the same games: OLD plays them, NEW reads a
# migrated copy. Runs alternate OLD/NEW ROUNDS times; prints user+sys seconds.
#
#   scripts/bench_compare.sh OLD_BINARY NEW_BINARY [GAMES] [ROUNDS]
set -euo pipefail
OLD=${1:?old binary}
NEW=${2:?new binary}
GAMES=${3:-20}
ROUNDS=${4:-3}
WORK=$(mktemp -d /tmp/mentat-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.2f", $1 + $2}'; }

"$OLD" --data "$WORK/store" selfplay --games "$GAMES" --rules advanced --seed 11 --no-sync >/dev/null 2>&1
rooms=$("$OLD" --data "$WORK/store" rooms | awk '{print $1}')
# One writable open by each binary, so that both stores have their logs in
# table files (a read-only open of a store with a pending write-ahead log
# replays it every time).
"$OLD" --data "$WORK/store" new --factions atreides,fremen --room flush-log >/dev/null
cp -r "$WORK/store" "$WORK/migrated"
"$NEW" --data "$WORK/migrated" migrate --all >/dev/null
fold() { local bin=$1 dir=$2; for r in $rooms; do "$bin" --data "$dir" log "$r"; done; }
cold() { local bin=$1 dir=$2; for r in $rooms; do "$bin" --data "$dir" show "$r" --as observer; done; }
export -f fold cold
export rooms

printf "%-28s %10s %10s\n" "CPU seconds" old new
for ((i = 1; i <= ROUNDS; i++)); do
  so=$(cpu "$OLD" --data "$WORK/sp-old-$i" selfplay --games "$GAMES" --rules advanced --seed 11 --no-sync)
  sn=$(cpu "$NEW" --data "$WORK/sp-new-$i" selfplay --games "$GAMES" --rules advanced --seed 11 --no-sync)
  printf "%-28s %10s %10s\n" "bot self-play ($GAMES games)" "$so" "$sn"
  fo=$(cpu bash -c "fold $OLD $WORK/store")
  fn=$(cpu bash -c "fold $NEW $WORK/migrated")
  printf "%-28s %10s %10s\n" "fold: log of every game" "$fo" "$fn"
  co=$(cpu bash -c "cold $OLD $WORK/store")
  cn=$(cpu bash -c "cold $NEW $WORK/migrated")
  printf "%-28s %10s %10s\n" "cold replay: show each head" "$co" "$cn"
  vo=$(cpu "$OLD" --data "$WORK/store" verify --all)
  vn=$(cpu "$NEW" --data "$WORK/migrated" verify --all)
  printf "%-28s %10s %10s\n" "full verify (verify --all)" "$vo" "$vn"
done
