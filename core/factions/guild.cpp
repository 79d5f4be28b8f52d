// The Spacing Guild's abilities (2.06) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in their phase files: 2.06.04-
// 2.06.12 shipping (shipment_movement.cpp), 1.14.05 Karama (cards.cpp,
// shipment_movement.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Guild;

// 2.06.08: when no one has won by the end of the last turn, the Guild (and
// its ally) win, after the Fremen special victory (2.04.09).
bool default_victory(const GameState& s, VictoryClaim* claim) {
  *claim = VictoryClaim{1, team_of(s, kMe), kGuildDefault};
  return true;
}

constexpr FactionRules make() {
  FactionRules r;
  r.default_victory = default_victory;
  return r;
}

}  // namespace

constinit const FactionRules kGuildRules = make();

}  // namespace mentat::rules
