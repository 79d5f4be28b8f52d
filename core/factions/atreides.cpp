// The Atreides' abilities (2.01) that the phases reach through the hook table
// (core/factions/faction_rules.h); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"

#include <algorithm>

#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Atreides;

// 2.01.05: the Atreides may look at the card up for bid. Their ally may not:
// the alliance ability 2.01.09 only extends Prescience (2.01.08) in battle.
bool sees_card_up_for_bid(const GameState& s) { return !s.atreides.bidding.blind; }  // 3.01.11.02

// 3.01.11.02: a prevented 2.01.05 is the next card's (AtreidesState::Bidding::blind, public).
void card_up_for_bid(GameState& s) {
  s.atreides.bidding.blind = 0;  // the previous card's
  if (!ability_cancelled(s, kMe, Ability::AtreidesBidding)) return;
  s.atreides.bidding.blind = 1;
  consume_prevention(s, kMe, Ability::AtreidesBidding);
}

// 3.01.11.02: a plan submitted is the use opportunity of a prevented 2.01.11.
void plan_submitted(GameState& s) { consume_prevention(s, kMe, Ability::KwisatzHaderach); }

// ---- 2.01.08/09 Prescience: battle sub-steps kPrescience, kPrescienceAnswer ----
// When the Atreides fight, or their ally does, the Atreides answer
// Prescience{element} or Pass; then the opponent of that side answers
// PrescienceAnswer{value}, which binds its plan (AtreidesState::Battle;
// 255 "not playing that element", not allowed for the dial; the leader
// element is a leader id or 100 + a Cheap Hero card id). The answer must be
// a plan element the seat could play (1.07.04.02-07): no "no leader" while
// a leader or Cheap Hero is available, no card without one. The binding
// (hook plan_binding below) is checked with the plan (plan_check), and the
// Voice's "as well as they are able" reads it (bene_gesserit.cpp).

using ability::kDefense;
using ability::kDial;
using ability::kHeroOffset;
using ability::kLeader;
using ability::kNotPlayed;
using ability::kPrescience;
using ability::kPrescienceAnswer;
using ability::kWeapon;

std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }
std::string leader_name(uint8_t id) { return std::string(data::leader(id).name); }
std::string territory_name(TerritoryId t) { return std::string(data::territory(t).name); }
Action pass() { return action::Pass{}; }

// Whether `seat` may commit `value` for `element` (2.01.08 + 1.07.04).
std::optional<Rejection> answer_problem(const GameState& s, Seat seat, int element, uint8_t value) {
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  const auto& hand = s.of(me).hand;
  const bool can_lead = !battle_available_leaders(s, me, b.territory).empty() || !battle_cheap_heroes(s, me).empty();
  switch (element) {
    case kLeader:
      if (value == kNotPlayed) {
        if (can_lead)
          return reject(RejectCode::IllegalChoice, "you must play a leader or a Cheap Hero when you can (1.07.04.05): name it");
        return std::nullopt;
      }
      if (value >= kHeroOffset) {
        const int card = value - kHeroOffset;
        if (card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(card));
        if (!hand.contains(static_cast<uint8_t>(card)))
          return reject(RejectCode::IllegalChoice, card_name(static_cast<uint8_t>(card)) + " is not in your hand");
        if (!battle_is_cheap_hero(static_cast<uint8_t>(card)))
          return reject(RejectCode::IllegalChoice, card_name(static_cast<uint8_t>(card)) + " is not a Cheap Hero (3.01.04)");
        return std::nullopt;
      }
      if (value >= data::kNumLeaders) return reject(RejectCode::Malformed, "unknown leader id " + std::to_string(value));
      if (!battle_leader_available(s, me, value, b.territory))
        return reject(RejectCode::IllegalChoice, leader_name(value) + " cannot fight for you in " + territory_name(b.territory) +
                                                     " (1.07.04.04)");
      return std::nullopt;
    case kWeapon:
    case kDefense: {
      if (value == kNotPlayed) return std::nullopt;
      if (value >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(value));
      if (!hand.contains(value)) return reject(RejectCode::IllegalChoice, card_name(value) + " is not in your hand");
      if (element == kWeapon && !battle_fits_weapon_slot(value))
        return reject(RejectCode::IllegalChoice, card_name(value) + " is not a weapon or a worthless card (1.07.04.07)");
      if (element == kDefense && !battle_fits_defense_slot(value))
        return reject(RejectCode::IllegalChoice, card_name(value) + " is not a defense or a worthless card (1.07.04.07)");
      if (!can_lead)
        return reject(RejectCode::IllegalChoice, "without a leader or a Cheap Hero no treachery card may be played (1.07.04.06)");
      return std::nullopt;
    }
    case kDial: {
      if (value == kNotPlayed) return reject(RejectCode::IllegalChoice, "a number is always dialed (1.07.04.01): answer it");
      const int max = battle_max_dial(s, seat);
      if (value > max)
        return reject(RejectCode::IllegalChoice, "you may dial at most " + std::to_string(max) + " (1.07.04.02)");
      return std::nullopt;
    }
  }
  return reject(RejectCode::Malformed, "unknown Prescience element");
}

std::vector<uint8_t> answer_values(const GameState& s, Seat seat, int element) {
  const Faction me = s.faction_at(seat);
  std::vector<uint8_t> cand{kNotPlayed};
  switch (element) {
    case kLeader:
      for (uint8_t id : battle_available_leaders(s, me, s.battle.territory)) cand.push_back(id);
      for (uint8_t card : battle_cheap_heroes(s, me)) cand.push_back(static_cast<uint8_t>(kHeroOffset + card));
      break;
    case kWeapon:
    case kDefense: {
      const auto& hand = s.of(me).hand;
      for (int i = 0; i < hand.n; ++i) cand.push_back(hand.ids[i]);
      break;
    }
    case kDial:
      for (int v = 0; v <= battle_max_dial(s, seat) && v < kNotPlayed; ++v) cand.push_back(static_cast<uint8_t>(v));
      break;
  }
  std::vector<uint8_t> out;
  for (uint8_t v : cand)
    if (!answer_problem(s, seat, element, v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}


bool prescience_opens(Ctx& c) {
  auto& s = c.s;
  if (battle_supported_side(s, kMe) < 0) return false;  // 2.01.08/09
  s.step = kPrescience;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

// The target's dial may not be asked (hook force_token: a battle of the Richese
// concealed No-Field, ruling no_field_prescience).
bool dial_hidden(const GameState& s) {
  const Seat target = battle_target_of(s, kMe);
  if (target < 0) return false;
  const auto h = faction_rules(s.faction_at(target)).force_token.dial_hidden;
  return h && h(s, target == s.battle.aggressor ? 0 : 1);
}

std::optional<Rejection> prescience_validate(const GameState& s, Seat seat, const Action& a) {
  const bool asked = has_bit(s.waiting, seat);
  if (s.step == kPrescience) {
    if (a.kind() != ActionKind::Prescience && a.kind() != ActionKind::Pass)
      return reject(RejectCode::WrongPhase, "the Atreides may use Prescience before the battle plans: the phase takes Prescience (or Pass) now");
    if (!asked) return reject(RejectCode::NotYourDecision, "the Atreides decide whether to use Prescience (2.01.08)");
    if (a.kind() == ActionKind::Prescience)
      if (auto why = ability_blocked(s, kMe, Ability::AtreidesPrescience)) return reject(RejectCode::IllegalChoice, *why);
    if (a.kind() == ActionKind::Prescience && a.as<action::Prescience>().element > kDial)
      return reject(RejectCode::Malformed, "Prescience asks for element 0 (leader), 1 (weapon), 2 (defense) or 3 (number dialed)");
    if (a.kind() == ActionKind::Prescience && a.as<action::Prescience>().element == kDial && dial_hidden(s))
      return reject(RejectCode::IllegalChoice, "the dial of a No-Field battle may not be asked (ruling no_field_prescience)");
    return std::nullopt;
  }
  if (a.kind() != ActionKind::PrescienceAnswer)
    return reject(RejectCode::WrongPhase, "the Atreides' Prescience awaits its answer: the phase takes PrescienceAnswer now");
  if (!asked)
    return reject(RejectCode::NotYourDecision, std::string("the opponent reveals its ") + battle_element_name(s.atreides.battle.prescience - 1) +
                                                   " to the Atreides (2.01.08)");
  return answer_problem(s, seat, s.atreides.battle.prescience - 1, a.as<action::PrescienceAnswer>().value);
}

void prescience_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (s.step == kPrescience) {
    // 3.01.11.01: a Karama may cancel it as it is used (cards.cpp; ruling karama_windows).
    if (a.kind() == ActionKind::Prescience && karama_window(c, seat, Ability::AtreidesPrescience, a)) return;
    consume_prevention(s, kMe, Ability::AtreidesPrescience);  // 3.01.11.02: its use opportunity
    if (a.kind() == ActionKind::Pass) {
      battle_open_after(c, static_cast<int>(kMe));
      return;
    }
    s.atreides.battle.prescience = static_cast<uint8_t>(a.as<action::Prescience>().element + 1);
    s.step = kPrescienceAnswer;
    s.waiting = bit(battle_target_of(s, kMe));
    return;
  }
  s.atreides.battle.prescience_value = a.as<action::PrescienceAnswer>().value;
  s.atreides.battle.prescience_answered = 1;
  battle_open_after(c, static_cast<int>(kMe));
}

void prescience_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (s.step == kPrescience) {
    const Seat target = battle_target_of(s, kMe);
    if (auto why = ability_blocked(s, kMe, Ability::AtreidesPrescience)) {
      out.push_back(Decision{ActionKind::Pass, "No Prescience in this battle: " + *why, 0, 0, {}});
      return;
    }
    // The dial may not be asked where it is hidden (ruling no_field_prescience): neither offered nor in the range.
    const bool hidden = dial_hidden(s);
    out.push_back(Decision{ActionKind::Prescience,
                           "Prescience (2.01.08): make " + std::string(faction_name(s.faction_at(target))) +
                               " reveal one element of its battle plan in " + territory_name(s.battle.territory) +
                               (hidden ? ": its leader, weapon or defense" : ": its leader, weapon, defense or number dialed"),
                           0, hidden ? kDefense : kDial,
                           hidden ? std::vector<uint16_t>{kLeader, kWeapon, kDefense} : std::vector<uint16_t>{kLeader, kWeapon, kDefense, kDial}});
    out.push_back(Decision{ActionKind::Pass, "Do not use Prescience in this battle", 0, 0, {}});
    return;
  }
  const int e = s.atreides.battle.prescience - 1;
  Decision d{ActionKind::PrescienceAnswer,
             std::string("The Atreides' Prescience (2.01.08): reveal the ") + battle_element_name(e) +
                 " you will play; it binds your battle plan" +
                 (e == kDial ? "" : std::string(": choose it among these")),
             0, 0, {}};
  d.topic = static_cast<Topic>(static_cast<int>(Topic::PrescienceLeader) + e);  // kLeader, kWeapon, kDefense, kDial in order
  for (uint8_t v : answer_values(s, seat, e)) d.options.push_back(v);
  if (e == kDial) d.max = battle_max_dial(s, seat);
  out.push_back(std::move(d));
}

void prescience_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (s.step == kPrescience) {
    for (uint8_t e = kLeader; e <= kDial && !ability_cancelled(s, kMe, Ability::AtreidesPrescience); ++e)
      if (e != kDial || !dial_hidden(s)) out.push_back(action::Prescience{.element = e});
    out.push_back(pass());
    return;
  }
  for (uint8_t v : answer_values(s, seat, s.atreides.battle.prescience - 1)) out.push_back(action::PrescienceAnswer{.value = v});
}

// ---- 2.01.08 the Prescience answer binds the plan (battle_abilities.cpp asks) ----

std::string answer_text(int element, uint8_t v) {
  if (element == kDial) return "a dial of " + std::to_string(v);
  if (v == kNotPlayed) return std::string("no ") + battle_element_name(element);
  if (element == kLeader) {
    if (v >= kHeroOffset && v - kHeroOffset < data::kNumAllTreacheryCards) return card_name(static_cast<uint8_t>(v - kHeroOffset));
    return v < data::kNumLeaders ? leader_name(v) : "?";
  }
  return v < data::kNumAllTreacheryCards ? card_name(v) : "?";
}

// What the Prescience answer binds in `seat`'s plan.
void plan_binding(const GameState& s, Seat seat, PlanBinding& k) {
  const auto& b = s.atreides.battle;
  if (!b.prescience || !b.prescience_answered || battle_target_of(s, kMe) != seat) return;
  const uint8_t v = b.prescience_value;
  const auto& hand = s.of(s.faction_at(seat)).hand;
  k.element = b.prescience - 1;
  k.value = v;
  // A committed card that has left the hand since (a worthless card the Bene
  // Gesserit used as a Karama, 2.02.22) cannot be played: the slot stays empty.
  auto card = [&](uint8_t c) { return c != kNotPlayed && hand.contains(c) ? c : kNone8; };
  switch (k.element) {
    case kLeader:
      if (v == kNotPlayed) {
        k.lead = true;
      } else if (v >= kHeroOffset) {
        k.hero = card(static_cast<uint8_t>(v - kHeroOffset));
        k.lead = k.hero != kNone8;  // gone: 1.07.04.05 alone decides
      } else {
        k.lead = true;
        k.leader = v;
      }
      break;
    case kWeapon:
      k.weapon = true;
      k.weapon_card = card(v);
      break;
    case kDefense:
      k.defense = true;
      k.defense_card = card(v);
      break;
    case kDial:
      k.dial = true;
      k.dial_value = v;
      break;
  }
}

std::optional<Rejection> plan_check(const GameState&, Seat, const action::BattlePlan& a, const PlanBinding& k) {
  auto broken = [&]() {
    return reject(RejectCode::IllegalChoice, "you revealed " + answer_text(k.element, k.value) +
                                                 " to the Atreides' Prescience: your battle plan must keep it (2.01.08)");
  };
  if (k.lead && (a.leader != k.leader || a.cheap_hero != k.hero)) return broken();
  if (k.weapon && a.weapon != k.weapon_card) return broken();
  if (k.defense && a.defense != k.defense_card) return broken();
  if (k.dial && a.dial != k.dial_value) return broken();
  return std::nullopt;
}

void narrow_plan(const GameState&, Seat, const PlanBinding& k, Decision& d) {
  if (k.lead) {
    d.options.clear();
    if (k.leader != kNone8) d.options.push_back(k.leader);
    if (k.hero != kNone8) d.options.push_back(static_cast<uint16_t>(kHeroOffset + k.hero));
  }
  if (k.dial) d.min = d.max = k.dial_value;
  if (k.element >= 0) d.prompt += "; you revealed " + answer_text(k.element, k.value) + " to the Atreides' Prescience (2.01.08)";
}

// ---- 2.01.10-14 the Kwisatz Haderach: the plan's flag (battle_abilities.cpp, revival.cpp ask) ----
// kh.losses counts Atreides forces that went to the tanks during battle
// resolutions (any battle: a lasgun/shield explosion counts too; after_battle
// below); from 7 the plan's flag is accepted for an Atreides plan with a
// leader or Cheap Hero, in one territory per turn (kh.used_turn /
// used_territory, recorded at the resolution unless the Atreides won by a
// traitor: 1.07.06.07.01 "one time use abilities may be considered not
// used"). +2 strength unless the leader or Cheap Hero is killed. 2.01.12 the
// leader cannot be called traitor (nobody is asked about it). 2.01.13 only a
// lasgun/shield explosion kills the token (kh.dead); 2.01.14 it is revived
// in the Revival phase (revival.cpp: Revive.leader = 254, cost 2 like a
// leader of strength 2) when every other Atreides leader has died once or is
// unavailable, as the turn's one leader revival.

std::optional<Rejection> kh_unavailable(const GameState& s, Seat) {
  if (!s.advanced) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is an advanced rule (2.01.00)");
  if (s.atreides.kh.losses < ability::kKwisatzHaderachActivation)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is not active: the Atreides have lost " +
                                                 std::to_string(s.atreides.kh.losses) + " forces in battles, 7 awaken it (2.01.10)");
  if (s.atreides.kh.dead) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is in the Tleilaxu Tanks (2.01.14)");
  if (auto why = ability_blocked(s, kMe, Ability::KwisatzHaderach)) return reject(RejectCode::IllegalChoice, *why);
  if (s.atreides.kh.used_turn == s.turn && s.atreides.kh.used_territory != s.battle.territory)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach fought in " + territory_name(s.atreides.kh.used_territory) +
                                                 " this turn: one territory per turn (2.01.11)");
  return std::nullopt;
}

std::optional<Rejection> kh_check(const GameState& s, Seat seat, const action::BattlePlan& a) {
  if (auto r = kh_unavailable(s, seat)) return r;
  if (a.leader == kNone8 && a.cheap_hero == kNone8)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach accompanies a leader or a Cheap Hero (2.01.11)");
  return std::nullopt;
}

void kh_exploded(GameState& s) { s.atreides.kh.dead = 1; }  // 2.01.13

std::optional<std::string> kh_unrevivable(const GameState& s) {
  if (!s.advanced) return std::string("only the Atreides have the Kwisatz Haderach (advanced, 2.01.10)");
  if (!s.atreides.kh.dead) return std::string("the Kwisatz Haderach is not in the Tleilaxu Tanks");
  if (s.of(kMe).leader_revived_turn == s.turn) return std::string("only one leader may be revived per turn (1.05.03, 2.01.14)");
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    const auto& l = s.leaders[data::leader_id(kMe, i)];
    const bool unavailable = !leader_alive(l) || l.holder != static_cast<uint8_t>(kMe);
    if (!l.died_once && !unavailable)
      return std::string("the Kwisatz Haderach is revived when all your other leaders have died once or are unavailable (2.01.14)");
  }
  return std::nullopt;
}

void kh_revive(GameState& s) { s.atreides.kh.dead = 0; }

// ---- 2.01.10-11 the Kwisatz Haderach's count and its one territory a turn ----

// The resolution begins: the forces in the tanks, to count this battle's losses.
void battle_resolves(Ctx& c) {
  auto& s = c.s;
  const auto& fs = s.of(kMe);
  s.atreides.battle.tanks = static_cast<uint8_t>(std::min(255, fs.tanks[0] + fs.tanks[1]));
}

bool after_battle(Ctx& c) {
  auto& s = c.s;
  const auto& b = s.battle;
  // 2.01.10 forces lost in this battle.
  if (s.advanced) {
    const auto& fs = s.of(kMe);
    const int lost = fs.tanks[0] + fs.tanks[1] - s.atreides.battle.tanks;
    if (lost > 0) s.atreides.kh.losses = static_cast<uint8_t>(std::min(255, s.atreides.kh.losses + lost));
  }
  for (int i = 0; i < 2; ++i) {
    // 2.01.11 one territory per turn (a traitor win does not use it up, 1.07.06.07.01).
    if (b.plan[i].kwisatz_haderach && !battle_traitor_win(s, i)) {
      s.atreides.kh.used_turn = s.turn;
      s.atreides.kh.used_territory = b.territory;
    }
  }
  return false;
}

// 2.01.07 Wormsign (advanced): before anyone ships, the Atreides see the top
// card of the spice deck (AtreidesState::wormsign_*, secret). 3.01.11.02: a
// prevented one is this turn's: no look.
// 2.01.07 WORMSIGN (a basic ability, 2.01.00): as Shipment and Movement
// begins, before anyone ships, the Atreides may look at the top card of the
// spice deck. The look costs nothing, so it is taken; it stays theirs for the
// turn (their view, Secret::Wormsign). Ruling wormsign_basic=advanced_only:
// the engine before rules version 5 (advanced games only).
void shipment_movement_begins(GameState& s, const PhaseBegins& e) {
  if (e.phase != Phase::ShipmentMovement) return;
  if ((!s.advanced && s.rulings.is(RulingId::WormsignBasic, 1)) || s.spice_deck.empty()) return;
  if (ability_cancelled(s, kMe, Ability::AtreidesWormsign)) {
    consume_prevention(s, kMe, Ability::AtreidesWormsign);
  } else {
    s.atreides.wormsign_turn = s.turn;
    s.atreides.wormsign_card = s.spice_deck.top();
  }
}

// ---- 1.14.01 Karama power: see the whole battle plan of a faction in the current battle ----

std::optional<Rejection> karama_check(const GameState& s, Faction me, const Action& a) {
  if (s.phase != Phase::Battle)
    return reject(RejectCode::WrongPhase, "the Atreides Karama power is used during the Battle phase (1.14.01)");
  if (s.step == 0 || s.battle.aggressor < 0 || s.battle.territory >= data::kNumTerritories || battle_plans_revealed(s))
    return reject(RejectCode::WrongPhase, "the Atreides look at a battle plan while a battle's plans are still secret (1.14.01)");
  if (a.as<action::PlayCard>().target >= kNumFactions) return reject(RejectCode::Malformed, "name the faction whose battle plan you look at (target)");
  const auto target = static_cast<Faction>(a.as<action::PlayCard>().target);
  if (target == me) return reject(RejectCode::IllegalChoice, "look at another player's battle plan (1.14.01)");
  if (s.seat_of(target) != s.battle.aggressor && s.seat_of(target) != s.battle.defender)
    return reject(RejectCode::IllegalChoice, std::string(faction_name(target)) + " is not fighting the current battle (1.14.01)");
  if (s.battle.karama_seen) return reject(RejectCode::IllegalChoice, "a battle plan of this battle is already seen by Karama");
  return std::nullopt;
}
// BattleState::karama_seen (public that it was seen; the plan itself only to the Atreides, inspect/view.cpp).
void karama_apply(Ctx& c, Seat, const Action& a) {
  auto& s = c.s;
  s.battle.karama_seen = static_cast<uint8_t>(s.seat_of(static_cast<Faction>(a.as<action::PlayCard>().target)) == s.battle.aggressor ? 1 : 2);
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

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::AtreidesPrescience, kMe, "2.01.08 / 2.01.09", "prescience", ActionKind::Prescience},
    {Ability::KwisatzHaderach, kMe, "2.01.11", "the Kwisatz Haderach", ActionKind::BattlePlan},
    {Ability::AtreidesBidding, kMe, "2.01.05", "seeing the card up for bid", ActionKind::Pass},
    {Ability::AtreidesWormsign, kMe, "2.01.07", "wormsign", ActionKind::Pass},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.sees_card_up_for_bid = sees_card_up_for_bid;
  r.card_up_for_bid = card_up_for_bid;
  r.plan_submitted = plan_submitted;
  r.battle_resolves = battle_resolves;
  r.battle_step = {kPrescience, kPrescienceAnswer, prescience_opens, prescience_validate, prescience_apply, prescience_decisions,
                   prescience_legal};
  r.after_battle = after_battle;
  r.plan_binding = plan_binding;  // 2.01.08
  r.plan_check = plan_check;
  r.narrow_plan = narrow_plan;
  r.plan_flag = {kh_unavailable, kh_check, ability::kKwisatzHaderachStrength,
                 "; the Kwisatz Haderach may add 2 to your leader or Cheap Hero (2.01.11)", kh_exploded, kh_unrevivable, kh_revive};
  r.keeps_secrets = 1u << static_cast<int>(Secret::Wormsign) | 1u << static_cast<int>(Secret::KwisatzHaderachLosses) |
                    1u << static_cast<int>(Secret::KaramaPlan) | 1u << static_cast<int>(Secret::PrescienceAnswer);
  r.reveals = reveals;
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or look at the whole battle plan of a faction in the current battle (1.14.01)"};
  return r;
}

}  // namespace

constinit const FactionRules kAtreidesRules = make();

// The faction's entry in the owner table (core/rules/owners.h): no game
// events or modifiers yet; its abilities are reached through kRules' hooks.
namespace {
constexpr Subscription kSubscriptions[] = {on<PhaseBegins, shipment_movement_begins>()};
}  // namespace

constinit const Owner kAtreidesOwner{"atreides", OwnerKind::Faction, faction_seated<Faction::Atreides>, kSubscriptions, {}};

}  // namespace mentat::rules
