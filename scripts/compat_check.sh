#!/usr/bin/env bash
# Proof that a new build plays the base game exactly as the previous release:
# the OLD binary plays bot games (basic and advanced, 2..6 factions) into a
# store; the NEW binary migrates a copy of that store (`mentat migrate --all`:
# every recorded action accepted again, every recorded draw drawn again); then
# both binaries print, for every room, `mentat log` and, at every version, the
# full state view and every seat's view (`mentat replay --as SEAT --views`),
# plus the observer view (`mentat show --at V --as observer`) every STRIDE
# versions; the outputs must be identical.
#
#   scripts/compat_check.sh OLD_BINARY NEW_BINARY [GAMES_PER_LINEUP] [OBSERVER_STRIDE]
#
# 10 line-ups (basic/advanced x 2..6 factions) plus 3 with every module
# (CHOAM and the Richese, the Leader Skills, the Stronghold Cards) x
# GAMES_PER_LINEUP (default 10) games, the seats' bots of all four profiles in
# turn. Exit 0 when everything matched; prints the first difference otherwise.
#
# COMPAT_STRIP: a sed -E script applied to both binaries' outputs before they
# are compared, for a release that adds a view field on purpose (say so in
# the release's notes), e.g. the typed decision fields of issue 46:
#   COMPAT_STRIP='s/,"about": \{[^{}]*\}//g' scripts/compat_check.sh OLD NEW
set -euo pipefail
OLD=${1:?old binary}
NEW=${2:?new binary}
PER=${3:-10}
STRIDE=${4:-20}
WORK=$(mktemp -d /tmp/mentat-compat.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ALL=(atreides bene_gesserit emperor fremen harkonnen spacing_guild)

games=0
for rules in basic advanced; do
  adv=0; [ "$rules" = advanced ] && adv=1
  for n in 2 3 4 5 6; do
    # a different line-up per count and rules: rotate the faction list
    off=$(( (n * 3 + adv) % 6 ))
    list=()
    for ((i = 0; i < n; i++)); do list+=("${ALL[$(( (off + i) % 6 ))]}"); done
    factions=$(IFS=,; echo "${list[*]}")
    "$OLD" --data "$WORK/old" selfplay --games "$PER" --factions "$factions" --rules "$rules" \
      --seed $(( n * 100 + adv * 50 )) --no-sync >"$WORK/selfplay-$rules-$n.txt" 2>/dev/null || {
      echo "old selfplay failed for $rules $factions"; cat "$WORK/selfplay-$rules-$n.txt"; exit 1; }
    games=$((games + PER))
  done
done
# The modules: CHOAM and the Richese (choam_richese) with the Leader Skills
# and the Stronghold Cards, basic and advanced (COMPAT_MODULES=0: base only).
if [ "${COMPAT_MODULES:-1}" != 0 ]; then
  mods=0
  for lineup in "advanced atreides,choam,fremen,richese,harkonnen,spacing_guild" "basic emperor,richese,bene_gesserit,choam" \
                "advanced bene_gesserit,choam,emperor,richese,fremen"; do
    rules=${lineup%% *}; factions=${lineup#* }
    mods=$((mods + 1))
    "$OLD" --data "$WORK/old" selfplay --games "$PER" --factions "$factions" --rules "$rules" --modules leader_skills,stronghold_cards \
      --seed $(( 7000 + mods * 10 )) --no-sync >"$WORK/selfplay-modules-$mods.txt" 2>/dev/null || {
      echo "old selfplay failed for $rules $factions with modules"; cat "$WORK/selfplay-modules-$mods.txt"; exit 1; }
    games=$((games + PER))
  done
fi
rooms=$("$OLD" --data "$WORK/old" rooms | awk '{print $1}')
echo "old binary stored $(echo "$rooms" | wc -l) rooms ($games games)"

cp -r "$WORK/old" "$WORK/new"
if ! "$NEW" --data "$WORK/new" verify --all >"$WORK/verify-before.txt" 2>&1; then
  echo "new binary before migrate: $(grep -c FAILED "$WORK/verify-before.txt") room(s) need migration, e.g.:"
  grep FAILED "$WORK/verify-before.txt" | head -1
fi
"$NEW" --data "$WORK/new" migrate --all >"$WORK/migrate.txt" || { echo "migrate failed:"; grep FAILED "$WORK/migrate.txt" | head; exit 1; }
tail -1 "$WORK/migrate.txt"
"$NEW" --data "$WORK/new" verify --all >"$WORK/verify-after.txt" || { echo "verify after migrate failed:"; grep FAILED "$WORK/verify-after.txt" | head; exit 1; }
tail -1 "$WORK/verify-after.txt"

STRIP=${COMPAT_STRIP:-}
out() {  # binary, store, arguments: the output, with COMPAT_STRIP applied
  local bin=$1 store=$2; shift 2
  if [ -n "$STRIP" ]; then "$bin" --data "$store" "$@" 2>&1 | sed -E "$STRIP"; else "$bin" --data "$store" "$@" 2>&1; fi
}
compare() {  # label, then the command arguments after --data DIR; streams both outputs through cmp
  local label=$1; shift
  if ! cmp -s <(out "$OLD" "$WORK/old" "$@") <(out "$NEW" "$WORK/new" "$@"); then
    echo "DIFFERENT: $label ($*)"
    diff <(out "$OLD" "$WORK/old" "$@") <(out "$NEW" "$WORK/new" "$@") | head -20
    exit 1
  fi
  compared=$((compared + 1))
}
compared=0
versions=0
for room in $rooms; do
  compare "log" log "$room"
  compare "state views" replay "$room" --views
  head=$(( $("$OLD" --data "$WORK/old" log "$room" | wc -l) - 1 ))
  versions=$((versions + head + 1))
  seats=$("$OLD" --data "$WORK/old" show "$room" --at 0 | grep -o '"seat": [0-9]*' | awk '{print $2}' | sort -u)
  for seat in $seats; do compare "seat $seat views" replay "$room" --as "$seat" --views; done
  for ((v = 0; v <= head; v += STRIDE)); do compare "observer view" show "$room" --at "$v" --as observer; done
  compare "observer view" show "$room" --as observer
done
echo "identical: $(echo "$rooms" | wc -w) rooms, $versions versions; $compared outputs compared (log, state and seat views at every version, observer view every $STRIDE versions and at the head)"
