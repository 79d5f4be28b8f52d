// 1.03 CHOAM Charity: seats with 0 or 1 spice may claim charity to bring
// their spice to 2, once a turn (1.03.02); the Bene Gesserit always receive
// at least 2 (2.02.09). Every eligible seat answers ClaimCharity or Pass,
// in any order; the phase ends when all have answered.
// Faction hooks (core/factions/faction_rules.h): charity_amount (2.02.09 the
// Bene Gesserit) and charity_prevention_due (its 3.01.11.02 prevention: with
// 2 or more spice they are not asked, with 1 they receive 1; the prevention is
// consumed then, at the phase's start or when they answer); charity_begins,
// no_charity_claim, charity_payer and charity_multiplier (CHOAM, CHOAM &
// Richese: its income, the claims it pays, the Inflation token; a multiplier
// of 0 is a turn without charity: nobody is asked).
#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

// A faction ability's charity amount, -1 when 1.03 applies.
int ability_amount(const GameState& s, Faction f) {
  const auto h = faction_rules(f).charity_amount;
  return h ? h(s) : -1;
}
// 3.01.11.02: the prevented ability whose outcome this charity would change.
Ability prevention_due(const GameState& s, Faction f) {
  const auto h = faction_rules(f).charity_prevention_due;
  return h ? h(s) : Ability::None;
}

// The Inflation token's multiplier (1: none).
int multiplier(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).charity_multiplier; h && s.has(static_cast<Faction>(fi))) return h(s);
  return 1;
}
// The faction whose spice pays the claims (kNoFaction: the bank).
uint8_t payer(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).charity_payer; h && s.has(static_cast<Faction>(fi)) && h(s))
      return static_cast<uint8_t>(fi);
  return kNoFaction;
}

bool eligible(const GameState& s, Faction f) {
  const auto& fs = s.of(f);
  if (fs.charity_turn == s.turn || faction_rules(f).no_charity_claim) return false;
  return fs.spice <= 1 || ability_amount(s, f) >= 0;
}

int charity_amount(const GameState& s, Faction f) {
  const int spice = s.of(f).spice;
  if (const int a = ability_amount(s, f); a >= 0) return a * multiplier(s);
  return (spice < 2 ? 2 - spice : 0) * multiplier(s);
}

void enter(Ctx& c) {
  auto& s = c.s;
  s.waiting = 0;
  raise(s, PhaseBegins{Phase::Charity});  // the owners' phase start (core/rules/owners.h)
  if (multiplier(s) == 0) {  // the Inflation token's Cancel side: no charity this turn
    enter_phase(c, Phase::Bidding);
    return;
  }
  for (int fi = 0; fi < kNumFactions; ++fi)  // CHOAM's income
    if (const auto h = faction_rules(static_cast<Faction>(fi)).charity_begins; h && s.has(static_cast<Faction>(fi))) h(c);
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    if (eligible(s, f)) s.waiting |= bit(seat);
    else if (const Ability due = prevention_due(s, f); due != Ability::None && s.of(f).charity_turn != s.turn)
      consume_prevention(s, f, due);
  }
  if (!s.waiting) enter_phase(c, Phase::Bidding);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind() != ActionKind::ClaimCharity && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "CHOAM Charity takes ClaimCharity or Pass");
  if (!has_bit(s.waiting, seat))
    return reject(RejectCode::NotYourDecision, "this seat may not claim CHOAM Charity now (more than 1 spice, or already answered)");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  const Ability due = prevention_due(s, me);
  if (a.kind() == ActionKind::ClaimCharity) {
    const int amount = charity_amount(s, me);
    const uint8_t from = payer(s);  // CHOAM pays what it can, the bank the rest
    const int paid = from == kNoFaction ? 0 : std::min<int>(amount, s.f[from].spice);
    if (paid) transfer_spice(s, shield(static_cast<Faction>(from)), shield(me), paid);
    if (amount - paid) transfer_spice(s, bank(), shield(me), amount - paid);
    s.of(me).charity_turn = s.turn;
  }
  if (due != Ability::None) consume_prevention(s, me, due);
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
  action::ClaimCharity claim;
  out.push_back(claim);
  action::Pass pass;
  out.push_back(pass);
}

}  // namespace

const PhaseRules& charity_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
