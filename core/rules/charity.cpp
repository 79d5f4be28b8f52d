// 1.03 CHOAM Charity: seats with 0 or 1 spice may claim charity to bring
// their spice to 2, once a turn (1.03.02); the Bene Gesserit always receive
// at least 2 (2.02.09). Every eligible seat answers ClaimCharity or Pass,
// in any order; the phase ends when all have answered.
// 3.01.11.02 (cards.cpp): a prevented 2.02.09 makes the Bene Gesserit's next
// charity where it matters (they hold 1 spice or more) follow 1.03: with 2 or
// more they are not asked, with 1 they receive 1; the prevention is consumed
// then (at the phase's start, or when they answer). With 0 spice both rules
// give 2 and the prevention waits for a later turn.
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

bool bg_ability(const GameState& s, Faction f) {  // 2.02.09, unless prevented
  return f == Faction::BeneGesserit && !ability_cancelled(s, f, Ability::BgCharity);
}
// 3.01.11.02: the ability would change this charity's outcome.
bool bg_prevention_used(const GameState& s, Faction f) {
  return f == Faction::BeneGesserit && ability_cancelled(s, f, Ability::BgCharity) &&
         (s.of(f).spice >= 1 || prevention_at_next_occasion(s));
}

bool eligible(const GameState& s, Faction f) {
  const auto& fs = s.of(f);
  if (fs.charity_turn == s.turn) return false;
  return fs.spice <= 1 || bg_ability(s, f);
}

int charity_amount(const GameState& s, Faction f) {
  const int spice = s.of(f).spice;
  if (bg_ability(s, f)) return 2;  // 2.02.09: at least 2 whatever they hold
  return spice < 2 ? 2 - spice : 0;
}

void enter(Ctx& c) {
  auto& s = c.s;
  s.waiting = 0;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    if (eligible(s, f)) s.waiting |= bit(seat);
    else if (bg_prevention_used(s, f) && s.of(f).charity_turn != s.turn) consume_prevention(s, f, Ability::BgCharity);
  }
  if (!s.waiting) enter_phase(c, Phase::Bidding);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind != ActionKind::ClaimCharity && a.kind != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "CHOAM Charity takes ClaimCharity or Pass");
  if (!has_bit(s.waiting, seat))
    return reject(RejectCode::NotYourDecision, "this seat may not claim CHOAM Charity now (more than 1 spice, or already answered)");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  const bool used = bg_prevention_used(s, me);
  if (a.kind == ActionKind::ClaimCharity) {
    transfer_spice(s, bank(), shield(me), charity_amount(s, me));
    s.of(me).charity_turn = s.turn;
  }
  if (used) consume_prevention(s, me, Ability::BgCharity);
  s.waiting &= static_cast<uint8_t>(~bit(seat));
  if (!s.waiting) enter_phase(c, Phase::Bidding);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const int amount = charity_amount(s, s.faction_at(seat));
  out.push_back(Decision{ActionKind::ClaimCharity, "Claim CHOAM Charity (+" + std::to_string(amount) + " spice)", amount, amount, {}});
  out.push_back(Decision{ActionKind::Pass, "Do not claim charity", 0, 0, {}});
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  Action claim;
  claim.kind = ActionKind::ClaimCharity;
  out.push_back(claim);
  Action pass;
  pass.kind = ActionKind::Pass;
  out.push_back(pass);
}

}  // namespace

const PhaseRules& charity_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
