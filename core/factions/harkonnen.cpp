// The Harkonnen's abilities (2.05) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in their phase files: 2.05.02
// traitors at setup (setup.cpp), 2.05.09-13 traitors and capture
// (battle_abilities.cpp), 1.14.04 Karama (cards.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Harkonnen;

// 2.05.08 TOP CARD: with each card bought, the Harkonnen take the top card
// of the deck too while their hand has room. 3.01.11.02: a prevented one is
// this purchase's (no extra card; at the hand limit only under ruling
// karama_automatic_use = next_occasion).
void bought_card(Ctx& c) {
  auto& s = c.s;
  auto& hand = s.of(kMe).hand;
  if (hand.n < hand_limit(s, kMe)) {
    if (ability_cancelled(s, kMe, Ability::HarkonnenTopCard)) {
      consume_prevention(s, kMe, Ability::HarkonnenTopCard);
    } else {
      const uint8_t extra = draw_treachery(c);
      if (extra != kNone8) hand.push(extra);
    }
  } else if (prevention_at_next_occasion(s)) {
    consume_prevention(s, kMe, Ability::HarkonnenTopCard);  // a purchase at the hand limit
  }
}

constexpr FactionRules make() {
  FactionRules r;
  r.bought_card = bought_card;
  return r;
}

}  // namespace

constinit const FactionRules kHarkonnenRules = make();

}  // namespace mentat::rules
