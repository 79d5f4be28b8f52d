// The Atreides' abilities (2.01) that the phases reach through the hook table
// (core/factions/faction_rules.h). Still in their phase files: 2.01.07
// Wormsign (shipment_movement.cpp), 2.01.08-15 Prescience and the Kwisatz
// Haderach (battle_abilities.cpp), 1.14.01 Karama (cards.cpp);
// docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Atreides;

// 2.01.05: the Atreides may look at the card up for bid. Their ally may not:
// the alliance ability 2.01.09 only extends Prescience (2.01.08) in battle.
bool sees_card_up_for_bid(const GameState& s) { return !s.bidding.atreides_blind; }  // 3.01.11.02

// 3.01.11.02: a prevented 2.01.05 is the next card's (BiddingState::atreides_blind, public).
void card_up_for_bid(GameState& s) {
  if (!ability_cancelled(s, kMe, Ability::AtreidesBidding)) return;
  s.bidding.atreides_blind = 1;
  consume_prevention(s, kMe, Ability::AtreidesBidding);
}

constexpr FactionRules make() {
  FactionRules r;
  r.sees_card_up_for_bid = sees_card_up_for_bid;
  r.card_up_for_bid = card_up_for_bid;
  return r;
}

}  // namespace

constinit const FactionRules kAtreidesRules = make();

}  // namespace mentat::rules
