// Residual Poison (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md).
//
// PlayCard{card = Residual Poison} in the Battle phase, by a seat fighting the
// battle being fought, before the plans are revealed (ruling
// residual_poison_timing: `before_plans` — while the opponent's plan is not
// in, the face's "before battle plans are chosen"; `until_reveal`
// (treachery.online) — until the reveal, and an opponent's plan already
// naming the poisoned leader is revoked: that seat plans again). One of the
// opponent's leaders that could fight this battle (1.07.04.04; a leader the
// Harkonnen captured counts for its holder) is drawn at random with the
// game's Rng (recorded, DrawKind::Random) and goes to the Tleilaxu Tanks
// (face down if it died before, 1.05.04); no spice is paid for it. Refused
// when the opponent has no such leader. The card is discarded.
#include "core/cards/card_rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

constexpr uint8_t kUntilReveal = 1;  // RulingId::ResidualPoisonTiming

int side_of_seat(const GameState& s, Seat seat) {
  return seat == s.battle.aggressor ? 0 : seat == s.battle.defender ? 1 : -1;
}
Seat opponent_of(const GameState& s, Seat seat) { return side_of_seat(s, seat) == 0 ? s.battle.defender : s.battle.aggressor; }

std::optional<Rejection> check(const GameState& s, Seat seat, const action::PlayCard&) {
  const auto& b = s.battle;
  if (s.phase != Phase::Battle || b.aggressor < 0 || b.defender < 0 || b.territory >= data::kNumTerritories || battle_plans_revealed(s))
    return reject(RejectCode::WrongPhase, "Residual Poison is played in a battle you fight, before the plans are revealed");
  if (side_of_seat(s, seat) < 0) return reject(RejectCode::IllegalChoice, "Residual Poison is played by a seat fighting this battle");
  const Seat opp = opponent_of(s, seat);
  if (((b.plans_in >> opp) & 1u) && !s.rulings.is(RulingId::ResidualPoisonTiming, kUntilReveal))
    return reject(RejectCode::WrongPhase,
                  "your opponent's battle plan is in: Residual Poison is played before it (ruling residual_poison_timing)");
  if (battle_available_leaders(s, s.faction_at(opp), b.territory).empty())
    return reject(RejectCode::IllegalChoice, "your opponent has no leader that could fight this battle");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const action::PlayCard& a) {
  auto& s = c.s;
  auto& b = s.battle;
  auto& hand = s.of(s.faction_at(seat)).hand;
  if (hand.remove(a.card)) to_treachery_discard(s, a.card, s.faction_at(seat));
  const Seat opp = opponent_of(s, seat);
  const auto leaders = battle_available_leaders(s, s.faction_at(opp), b.territory);
  if (leaders.empty()) return;
  const uint32_t pick = s.rng.below(static_cast<uint32_t>(leaders.size()));
  c.record(DrawKind::Random, static_cast<uint16_t>(pick));
  const uint8_t id = leaders[pick];
  battle_kill_leader(s, id);
  // A plan already naming it (ruling until_reveal): revoked, its seat plans again.
  const int side = side_of_seat(s, opp);
  if (((b.plans_in >> opp) & 1u) && b.plan[side].leader == id) {
    b.plan[side] = BattlePlanState{};
    b.plans_in = static_cast<uint8_t>(b.plans_in & ~(1u << opp));
    s.waiting = static_cast<uint8_t>(s.waiting | (1u << opp));
  }
}

void candidates(const GameState&, Seat, const action::PlayCard& base, std::vector<Action>& out) { out.push_back(base); }

std::string prompt(const GameState&, Seat) {
  return "Play Residual Poison: one of your opponent's leaders that could fight this battle, at random, goes to the "
         "Tleilaxu Tanks (no spice for it)";
}

}  // namespace

const CardRules kResidualPoisonRules{TreacheryKind::ResidualPoison, check, apply, candidates, prompt, {}};

}  // namespace mentat::rules
