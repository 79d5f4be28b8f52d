// The Fremen's abilities (2.04) that the phases reach through the hook table
// (core/factions/faction_rules.h). Still in their phase files: 2.04.02 setup
// placement (setup.cpp), 2.04.05-06 shipment and movement, 2.04.07/08/10/15
// worms and riding (spice_blow.cpp, nexus.cpp), 2.04.11 ally revival and
// 2.04.19-20 Fedaykin revival (revival.cpp), 2.04.18/21 battle
// (battle.cpp), 1.14.03 Karama (cards.cpp, spice_blow.cpp); docs/ARCHITECTURE.md.
#include <algorithm>

#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Fremen;

// 2.04.13 (advanced): the Fremen storm deck moves the storm from turn 2 on.
bool deals_storm_card(const GameState& s) { return s.advanced != 0; }

// 2.04.16 (advanced): the storm destroys half the Fremen forces it catches,
// rounded up, once per stay. 3.01.11.02: a prevented 2.04.16 is used up by
// the next storm movement catching Fremen forces, which destroys them all.
bool storm_catches(GameState& s, LocationId loc, int reg, int spec) {
  const bool half_losses = s.advanced && !ability_cancelled(s, kMe, Ability::FremenStormLosses);
  if (!half_losses) {
    forces_to_tanks(s, kMe, loc, reg, spec);
    return s.advanced != 0;
  }
  if (s.fremen_storm_losses_taken[loc]) return false;
  const int lose = (reg + spec + 1) / 2;
  const int lose_reg = std::min(reg, lose);
  forces_to_tanks(s, kMe, loc, lose_reg, lose - lose_reg);
  s.fremen_storm_losses_taken[loc] = 1;
  return false;
}

void storm_moved(GameState& s, bool prevented_used) {
  if (prevented_used || (s.advanced && prevention_at_next_occasion(s)))  // ruling karama_automatic_use
    consume_prevention(s, kMe, Ability::FremenStormLosses);
  // A half loss only protects forces while the storm stays on them.
  for (int l = 0; l < data::kNumLocations; ++l)
    if (!s.in_storm(static_cast<LocationId>(l))) s.fremen_storm_losses_taken[l] = 0;
}

// 2.04.13: the Fremen draw the face-down storm card for the next turn.
void storm_phase_ends(Ctx& c) {
  auto& s = c.s;
  if (!s.advanced) return;
  if (s.storm_card != 0) s.storm_deck.push(s.storm_card);
  s.storm_card = 0;
  shuffle_pile(c, s.storm_deck, DrawKind::ShuffleStormDeck);
  s.storm_card = s.storm_deck.pop();
  c.record(DrawKind::StormCard, s.storm_card);
  // 2.04.14 / 3.01.11.02: a prevented look is this card's.
  s.storm_card_hidden = 0;
  if (ability_cancelled(s, kMe, Ability::FremenStormCard)) {
    s.storm_card_hidden = 1;
    consume_prevention(s, kMe, Ability::FremenStormCard);
  }
}

// 2.04.09 special victory (with the Guild in the game: no other faction
// in Sietch Tabr and Habbanya Ridge Sietch, no Harkonnen, Atreides or
// Emperor in Tuek's Sietch), before the Guild's default win (2.06.08);
// otherwise the Fremen default win when the Guild is not in the game (2.06.11).
bool default_victory(const GameState& s, VictoryClaim* claim) {
  const auto tabr = data::territory_of(data::sietch_tabr());
  const auto habbanya = data::territory_of(data::habbanya_sietch());
  const auto tuek = data::territory_of(data::tueks_sietch());
  bool ok = other_factions_in(s, kMe, tabr) == 0 && other_factions_in(s, kMe, habbanya) == 0;
  for (auto f : {Faction::Harkonnen, Faction::Atreides, Faction::Emperor})
    if (s.has(f) && occupies(s, f, tuek)) ok = false;
  if (s.has(Faction::Guild) && ok) *claim = VictoryClaim{0, team_of(s, kMe), kFremenSpecial};
  else *claim = VictoryClaim{2, team_of(s, kMe), kFremenDefault};
  return true;
}

constexpr FactionRules make() {
  FactionRules r;
  r.deals_storm_card = deals_storm_card;
  r.storm_catches = storm_catches;
  r.storm_moved = storm_moved;
  r.storm_phase_ends = storm_phase_ends;
  r.default_victory = default_victory;
  return r;
}

}  // namespace

constinit const FactionRules kFremenRules = make();

}  // namespace mentat::rules
