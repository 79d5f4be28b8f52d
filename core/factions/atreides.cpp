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

// 3.01.11.02: a plan submitted is the use opportunity of a prevented 2.01.11.
void plan_submitted(GameState& s) { consume_prevention(s, kMe, Ability::KwisatzHaderach); }

// 2.01.07 Wormsign (advanced): before anyone ships, the Atreides see the top
// card of the spice deck (GameState::wormsign_*, secret). 3.01.11.02: a
// prevented one is this turn's: no look.
void shipment_movement_begins(GameState& s) {
  if (!s.advanced || s.spice_deck.empty()) return;
  if (ability_cancelled(s, kMe, Ability::AtreidesWormsign)) {
    consume_prevention(s, kMe, Ability::AtreidesWormsign);
  } else {
    s.wormsign_turn = s.turn;
    s.wormsign_card = s.spice_deck.top();
  }
}

// ---- 1.14.01 Karama power: see the whole battle plan of a faction in the current battle ----

std::optional<Rejection> karama_check(const GameState& s, Faction me, const Action& a) {
  if (s.phase != Phase::Battle)
    return reject(RejectCode::WrongPhase, "the Atreides Karama power is used during the Battle phase (1.14.01)");
  if (s.step == 0 || s.battle.aggressor < 0 || s.battle.territory >= data::kNumTerritories || battle_plans_revealed(s))
    return reject(RejectCode::WrongPhase, "the Atreides look at a battle plan while a battle's plans are still secret (1.14.01)");
  if (a.to >= kNumFactions) return reject(RejectCode::Malformed, "name the faction whose battle plan you look at (target)");
  const auto target = static_cast<Faction>(a.to);
  if (target == me) return reject(RejectCode::IllegalChoice, "look at another player's battle plan (1.14.01)");
  if (s.seat_of(target) != s.battle.aggressor && s.seat_of(target) != s.battle.defender)
    return reject(RejectCode::IllegalChoice, std::string(faction_name(target)) + " is not fighting the current battle (1.14.01)");
  if (s.battle.karama_seen) return reject(RejectCode::IllegalChoice, "a battle plan of this battle is already seen by Karama");
  return std::nullopt;
}
// BattleState::karama_seen (public that it was seen; the plan itself only to the Atreides, inspect/view.cpp).
void karama_apply(Ctx& c, Seat, const Action& a) {
  auto& s = c.s;
  s.battle.karama_seen = static_cast<uint8_t>(s.seat_of(static_cast<Faction>(a.to)) == s.battle.aggressor ? 1 : 2);
}
void karama_candidates(const GameState&, Faction, const Action& base, std::vector<Action>& out) {
  target_candidates(base, out);
}

// What the Atreides' views show them (and their ally: 2.01.09 the Prescience answer).
bool reveals(const GameState& s, Faction viewer, Secret what, int side) {
  switch (what) {
    case Secret::Wormsign:
    case Secret::KwisatzHaderachLosses: return viewer == kMe;  // 2.01.07, 2.01.10
    case Secret::KaramaPlan: return viewer == kMe && s.battle.karama_seen == side + 1;  // 1.14.01
    case Secret::PrescienceAnswer:  // 2.01.08 / 2.01.09
      return viewer == kMe || (s.of(kMe).ally != kNoFaction && viewer == static_cast<Faction>(s.of(kMe).ally));
    case Secret::StormCard: return false;
  }
  return false;
}

constexpr FactionRules make() {
  FactionRules r;
  r.sees_card_up_for_bid = sees_card_up_for_bid;
  r.card_up_for_bid = card_up_for_bid;
  r.plan_submitted = plan_submitted;
  r.shipment_movement_begins = shipment_movement_begins;
  r.keeps_secrets = 1u << static_cast<int>(Secret::Wormsign) | 1u << static_cast<int>(Secret::KwisatzHaderachLosses) |
                    1u << static_cast<int>(Secret::KaramaPlan) | 1u << static_cast<int>(Secret::PrescienceAnswer);
  r.reveals = reveals;
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or look at the whole battle plan of a faction in the current battle (target, 1.14.01)"};
  return r;
}

}  // namespace

constinit const FactionRules kAtreidesRules = make();

}  // namespace mentat::rules
