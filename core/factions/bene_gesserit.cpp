// The Bene Gesserit's abilities (2.02) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in their phase files: 2.02.03
// prediction and 2.02.08 placement at setup (setup.cpp), 2.02.05/11/15-17
// spiritual advisors, intrusion, take up arms (shipment_movement.cpp),
// 2.02.06-07 Voice (battle_abilities.cpp), 1.14.06 / 2.02.22 Karama
// (cards.cpp, bidding.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::BeneGesserit;

// 2.02.12 (advanced): advisors (the special side) do not occupy, collect or battle.
bool specials_passive(const GameState& s) { return s.advanced != 0; }

// 2.02.09: the Bene Gesserit receive at least 2 spice whatever they hold,
// unless a Karama prevents it (3.01.11.02): then 1.03 applies.
int charity_amount(const GameState& s) { return ability_cancelled(s, kMe, Ability::BgCharity) ? -1 : 2; }
// 3.01.11.02: the prevention is used up by the next charity where it
// matters (they hold 1 spice or more; ruling karama_automatic_use).
Ability charity_prevention_due(const GameState& s) {
  return ability_cancelled(s, kMe, Ability::BgCharity) && (s.of(kMe).spice >= 1 || prevention_at_next_occasion(s))
             ? Ability::BgCharity
             : Ability::None;
}

// 2.02.03: the prediction of the winner and the turn, if right, makes the
// Bene Gesserit the sole winner.
bool takes_over_victory(const GameState& s, FactionMask winners, VictoryClaim* claim) {
  const auto& bg = s.of(kMe);
  if (bg.prediction_turn != s.turn || !((winners >> bg.prediction_faction) & 1u)) return false;
  *claim = VictoryClaim{0, faction_bit(kMe), kPrediction};
  return true;
}

// 1.14.06 / 2.02.22 (ruling bg_worthless_karama: always, never, advanced_only):
// the Bene Gesserit may use a worthless card as a Karama.
bool worthless_as_karama(const GameState& s) {
  if (s.rulings.is(RulingId::BgWorthlessKarama, 1)) return true;   // always
  if (s.rulings.is(RulingId::BgWorthlessKarama, 2)) return false;  // never
  return s.advanced != 0;                                          // advanced_only
}

constexpr FactionRules make() {
  FactionRules r;
  r.specials_passive = specials_passive;
  r.specials_tank_as_regular = true;  // advisors are ordinary forces in the tanks
  r.charity_amount = charity_amount;
  r.charity_prevention_due = charity_prevention_due;
  r.takes_over_victory = takes_over_victory;
  r.predicts = true;
  r.worthless_as_karama = worthless_as_karama;
  return r;
}

}  // namespace

constinit const FactionRules kBeneGesseritRules = make();

}  // namespace mentat::rules
