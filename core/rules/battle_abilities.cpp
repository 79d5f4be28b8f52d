// Faction abilities of the Battle phase (see core/rules/battle_abilities.h;
// the battle core is core/rules/battle.cpp).
//
// Flow of one battle: start_battle -> open_battle:
//  * 2.01.08/09 step kPrescience: when the Atreides fight, or their ally
//    does, the Atreides answer Prescience{element} or Pass. Then step
//    kPrescienceAnswer: the opponent of that side answers
//    PrescienceAnswer{value}, which binds its plan (battle.prescience_value;
//    255 "not playing that element", not allowed for the dial; the leader
//    element is a leader id or 100 + a Cheap Hero card id). The answer must be
//    a plan element the seat could play (1.07.04.02-07): no "no leader" while
//    a leader or Cheap Hero is available, no card without one.
//  * 2.02.06/07 step kVoice: when the Bene Gesserit fight, or their ally
//    does, the Bene Gesserit answer Voice{must, kind} or Pass; the opponent
//    of that side is commanded. "As well as they are able to": told to play a
//    kind, a plan without one is rejected when the seat could have played one
//    (it holds one, a leader or Cheap Hero can carry it, and the slot is not
//    bound by its Prescience answer); told not to, a plan with one is
//    rejected unless the Prescience answer binds the seat to that card. A
//    Voice against Cheap Heroes lifts 1.07.04.05 for them (no Cheap Hero is
//    then "possible"; with no leader the seat plays no card, 1.07.04.06),
//    unless ruling voice_vs_cheap_hero = obligation_stands (with no leader
//    the Cheap Hero is still played).
//  * then step kPlans (battle.cpp) with check_commitments in the plan check.
//
// Kwisatz Haderach (advanced, 2.01.10-15): kh.losses counts Atreides forces
// that went to the tanks during battle resolutions (any battle: a lasgun/
// shield explosion counts too); from 7 the plan's flag is accepted for an
// Atreides plan with a leader or Cheap Hero, in one territory per turn
// (kh.used_turn/used_territory, recorded at the resolution unless the
// Atreides won by a traitor: 1.07.06.07.01 "one time use abilities may be
// considered not used"). +2 strength unless the leader or Cheap Hero is
// killed. 2.01.12 the leader cannot be called traitor (nobody is asked
// about it). 2.01.13 only a lasgun/shield explosion kills the token
// (kh.dead); 2.01.14 it is revived in the Revival phase (revival.cpp:
// Revive.leader = 254, cost 2 like a leader of strength 2) when every other
// Atreides leader has died once or is unavailable, as the turn's one leader
// revival.
//
// Harkonnen: 2.05.09 the traitor step also asks the Harkonnen when their ally
// fights (battle.cpp credits the call to the ally's side). Advanced
// 2.05.10-13: after a battle the Harkonnen won (by traitor too, unless ruling
// capture_after_traitor_win = no_capture), one of the
// loser's leaders that could still fight in this territory (1.07.04.04:
// pool leaders not used elsewhere this turn, and its leader of this battle if
// it survived) is drawn at random (Ctx::rand_below, recorded); step kCapture:
// the Harkonnen answer Respond{accept=true} CAPTURE (into their pool,
// LeaderState.holder), Respond{accept=false} KILL (face down to the tanks, 2
// spice from the bank) or Pass (neither: "you may"). A captured leader the
// Harkonnen used in a battle and that was not killed goes back to the pool of
// its faction (the only player that can have had it) after that battle,
// unless the Harkonnen won it by a traitor (1.07.06.07.01). 2.05.11 when all
// five Harkonnen leaders are in the tanks, every captured leader goes back at
// once (checked after each battle). 2.05.12 killed captured leaders go to
// their own faction's tanks (kill_leader). 2.05.13 a captured leader can be
// called traitor like any leader.
//
// Not here: 1.14.01 (Atreides Karama power) and Karama against these
// abilities (core/rules/cards.cpp).
#include "core/rules/battle_abilities.h"

#include <algorithm>

namespace mentat::rules::ability {
namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

constexpr uint8_t kPlansStep = 1;  // battle.cpp kPlans
constexpr int kCaptureKillSpice = 2;  // 2.05.10.02

Seat seat_of_side(const GameState& s, int side) { return side == 0 ? s.battle.aggressor : s.battle.defender; }
Faction faction_of_side(const GameState& s, int side) { return s.faction_at(seat_of_side(s, side)); }
Faction owner(uint8_t leader) { return data::leader(leader).faction; }
std::string leader_name(uint8_t id) { return std::string(data::leader(id).name); }
std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }
std::string territory_name(TerritoryId t) { return std::string(data::territory(t).name); }

// The side (0/1) that faction f fights on or supports as an ally; -1 if none.
int supported_side(const GameState& s, Faction f) {
  if (!s.has(f)) return -1;
  for (int i = 0; i < 2; ++i)
    if (faction_of_side(s, i) == f) return i;
  const uint8_t ally = s.of(f).ally;
  if (ally >= kNumFactions) return -1;
  for (int i = 0; i < 2; ++i)
    if (static_cast<uint8_t>(faction_of_side(s, i)) == ally) return i;
  return -1;
}

// The seat the Atreides' Prescience / the Bene Gesserit's Voice is aimed at.
Seat target_of(const GameState& s, Faction f) {
  const int side = supported_side(s, f);
  return side < 0 ? kNoSeat : seat_of_side(s, 1 - side);
}

bool traitor_win(const GameState& s, int side) {
  const auto& b = s.battle;
  return has_bit(b.traitor_calls, seat_of_side(s, side)) && !has_bit(b.traitor_calls, seat_of_side(s, 1 - side));
}

// ---- Prescience (2.01.08) ---------------------------------------------------------------

const char* element_name(int e) {
  switch (e) {
    case kLeader: return "leader";
    case kWeapon: return "weapon";
    case kDefense: return "defense";
    case kDial: return "number dialed";
  }
  return "?";
}

std::string answer_text(int element, uint8_t v) {
  if (element == kDial) return "a dial of " + std::to_string(v);
  if (v == kNotPlayed) return std::string("no ") + element_name(element);
  if (element == kLeader) {
    if (v >= kHeroOffset && v - kHeroOffset < data::kNumTreacheryCards) return card_name(static_cast<uint8_t>(v - kHeroOffset));
    return v < data::kNumLeaders ? leader_name(v) : "?";
  }
  return v < data::kNumTreacheryCards ? card_name(v) : "?";
}

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
        if (card >= data::kNumTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(card));
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
      if (value >= data::kNumTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(value));
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

// What the Prescience answer binds in `seat`'s plan.
struct Bound {
  bool lead = false;
  uint8_t leader = kNone8, hero = kNone8;
  bool weapon = false;
  uint8_t weapon_card = kNone8;
  bool defense = false;
  uint8_t defense_card = kNone8;
  bool dial = false;
  uint8_t dial_value = 0;
  int element = -1;
  uint8_t value = 0;
};

Bound bound_of(const GameState& s, Seat seat) {
  Bound k;
  const auto& b = s.battle;
  if (!b.prescience || !b.prescience_answered || target_of(s, Faction::Atreides) != seat) return k;
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
  return k;
}

// ---- Voice (2.02.06) ----------------------------------------------------------------------

bool valid_voice_kind(uint8_t kind) {
  if (kind <= kCheapHero) return true;
  if (kind < kNamed || kind - kNamed >= data::kNumTreacheryKinds) return false;
  // A special weapon or defense by name: the base deck's only one is the Lasgun.
  for (int id = 0; id < data::kNumTreacheryCards; ++id) {
    const auto& c = data::treachery_card(static_cast<uint8_t>(id));
    if (static_cast<int>(c.kind) == kind - kNamed) return c.category == TreacheryCategory::WeaponLasgun;
  }
  return false;
}

std::string voice_kind_name(uint8_t kind) {
  switch (kind) {
    case kPoisonWeapon: return "a poison weapon";
    case kProjectileWeapon: return "a projectile weapon";
    case kPoisonDefense: return "a poison defense";
    case kProjectileDefense: return "a projectile defense";
    case kWorthless: return "a worthless card";
    case kCheapHero: return "a Cheap Hero";
  }
  if (kind >= kNamed && kind - kNamed < data::kNumTreacheryKinds)
    return "a " + std::string(data::treachery_kind_name(static_cast<TreacheryKind>(kind - kNamed)));
  return "?";
}

bool card_matches(uint8_t kind, uint8_t card) {
  if (card == kNone8 || card >= data::kNumTreacheryCards) return false;
  const auto& c = data::treachery_card(card);
  switch (kind) {
    case kPoisonWeapon: return c.category == TreacheryCategory::WeaponPoison;
    case kProjectileWeapon: return c.category == TreacheryCategory::WeaponProjectile;
    case kPoisonDefense: return c.category == TreacheryCategory::DefensePoison;
    case kProjectileDefense: return c.category == TreacheryCategory::DefenseProjectile;
    case kWorthless: return c.category == TreacheryCategory::Worthless;
    case kCheapHero: return battle_is_cheap_hero(card);
  }
  return kind >= kNamed && static_cast<int>(c.kind) == kind - kNamed;
}

struct Command {
  bool on = false;
  bool must = false;
  uint8_t kind = 0;
};
Command command_on(const GameState& s, Seat seat) {
  Command v;
  const auto& b = s.battle;
  if (!b.voice || target_of(s, Faction::BeneGesserit) != seat) return v;
  v.on = true;
  v.must = b.voice_must != 0;
  v.kind = static_cast<uint8_t>(b.voice - 1);
  return v;
}

bool lead_possible(const GameState& s, Seat seat, const Bound& k) {
  if (k.lead) return k.leader != kNone8 || k.hero != kNone8;
  const Faction me = s.faction_at(seat);
  return !battle_available_leaders(s, me, s.battle.territory).empty() || !battle_cheap_heroes(s, me).empty();
}

// A Cheap Hero the seat has to play whatever the Voice says: its Prescience
// answer named it, or named a card while no leader can carry it.
// Ruling voice_vs_cheap_hero = obligation_stands: with no leader available,
// 1.07.04.05 still makes the seat play its Cheap Hero.
bool hero_forced(const GameState& s, Seat seat, const Bound& k) {
  if (k.lead) return k.hero != kNone8;
  if (s.rulings.is(RulingId::VoiceVsCheapHero, 1) && battle_available_leaders(s, s.faction_at(seat), s.battle.territory).empty() &&
      !battle_cheap_heroes(s, s.faction_at(seat)).empty())
    return true;
  const bool card_bound = (k.weapon && k.weapon_card != kNone8) || (k.defense && k.defense_card != kNone8);
  return card_bound && battle_available_leaders(s, s.faction_at(seat), s.battle.territory).empty() &&
         !battle_cheap_heroes(s, s.faction_at(seat)).empty();
}

// Could the seat play a card of `kind` in a plan that keeps its Prescience answer?
bool able_to_play(const GameState& s, Seat seat, uint8_t kind, const Bound& k) {
  const Faction me = s.faction_at(seat);
  if (kind == kCheapHero) return !k.lead && !battle_cheap_heroes(s, me).empty();
  if (!lead_possible(s, seat, k)) return false;
  const auto& hand = s.of(me).hand;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t c = hand.ids[i];
    if (!card_matches(kind, c)) continue;
    if (battle_fits_weapon_slot(c) && !k.weapon) return true;
    if (battle_fits_defense_slot(c) && !k.defense) return true;
  }
  return false;
}

bool plan_plays(uint8_t kind, const Action& a) {
  if (kind == kCheapHero) return a.forces != kNone8;
  return card_matches(kind, a.to) || card_matches(kind, a.from);
}

// A card of `kind` in the plan that the Prescience answer does not bind.
bool plays_unbound(const GameState& s, Seat seat, uint8_t kind, const Action& a, const Bound& k) {
  if (kind == kCheapHero) return a.forces != kNone8 && !hero_forced(s, seat, k);
  return (card_matches(kind, a.to) && !(k.weapon && k.weapon_card == a.to)) ||
         (card_matches(kind, a.from) && !(k.defense && k.defense_card == a.from));
}

Action pass_action() {
  Action a;
  a.kind = ActionKind::Pass;
  return a;
}

// ---- Kwisatz Haderach -----------------------------------------------------------------------

std::optional<Rejection> kh_problem(const GameState& s, Seat seat) {
  const auto& b = s.battle;
  if (s.faction_at(seat) != Faction::Atreides)
    return reject(RejectCode::IllegalChoice, "only the Atreides have the Kwisatz Haderach (2.01.11)");
  if (!s.advanced) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is an advanced rule (2.01.00)");
  if (s.kh.losses < kKwisatzHaderachActivation)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is not active: the Atreides have lost " +
                                                 std::to_string(s.kh.losses) + " forces in battles, 7 awaken it (2.01.10)");
  if (s.kh.dead) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is in the Tleilaxu Tanks (2.01.14)");
  if (auto why = ability_blocked(s, Faction::Atreides, Ability::KwisatzHaderach)) return reject(RejectCode::IllegalChoice, *why);
  if (s.kh.used_turn == s.turn && s.kh.used_territory != b.territory)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach fought in " + territory_name(s.kh.used_territory) +
                                                 " this turn: one territory per turn (2.01.11)");
  return std::nullopt;
}

// ---- flow -------------------------------------------------------------------------------------

void start_plans(Ctx& c) {
  auto& s = c.s;
  s.step = kPlansStep;
  s.waiting = static_cast<uint8_t>(bit(s.battle.aggressor) | bit(s.battle.defender));
}

void ask_voice(Ctx& c) {
  auto& s = c.s;
  if (supported_side(s, Faction::BeneGesserit) >= 0) {  // 2.02.06/07
    s.step = kVoice;
    s.waiting = bit(s.seat_of(Faction::BeneGesserit));
    return;
  }
  start_plans(c);
}

bool captured(const GameState& s, uint8_t id) {
  return id < data::kNumLeaders && s.leaders[id].holder == static_cast<uint8_t>(Faction::Harkonnen) &&
         owner(id) != Faction::Harkonnen;
}
bool alive(const LeaderState& l) { return l.zone == LeaderZone::Pool || l.zone == LeaderZone::Battlefield; }

// 2.05.10.03 / 2.05.11: a captured leader back to the pool of the player who last had it.
void return_captive(GameState& s, uint8_t id) {
  auto& l = s.leaders[id];
  l.holder = static_cast<uint8_t>(owner(id));
  l.zone = LeaderZone::Pool;
  l.aux = kNone8;  // used_in_territory stays: 1.07.04.04 holds for the phase
}

void prison_break(GameState& s) {  // 2.05.11
  if (!s.has(Faction::Harkonnen)) return;
  for (int i = 0; i < data::kLeadersPerFaction; ++i)
    if (alive(s.leaders[data::leader_id(Faction::Harkonnen, i)])) return;
  for (int id = 0; id < data::kNumLeaders; ++id)
    if (captured(s, static_cast<uint8_t>(id)) && alive(s.leaders[id])) return_captive(s, static_cast<uint8_t>(id));
}

}  // namespace

// ---- battle start, the ability steps --------------------------------------------------------

void open_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  b.prescience = b.prescience_answered = b.prescience_value = 0;
  b.voice = b.voice_must = 0;
  b.winner = b.atreides_tanks = b.after = b.captive = 0;
  if (supported_side(s, Faction::Atreides) >= 0) {  // 2.01.08/09
    s.step = kPrescience;
    s.waiting = bit(s.seat_of(Faction::Atreides));
    return;
  }
  ask_voice(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  const auto& b = s.battle;
  const bool asked = has_bit(s.waiting, seat);
  switch (s.step) {
    case kPrescience:
      if (a.kind != ActionKind::Prescience && a.kind != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Atreides may use Prescience before the battle plans: the phase takes Prescience (or Pass) now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Atreides decide whether to use Prescience (2.01.08)");
      if (a.kind == ActionKind::Prescience)
        if (auto why = ability_blocked(s, Faction::Atreides, Ability::AtreidesPrescience)) return reject(RejectCode::IllegalChoice, *why);
      if (a.kind == ActionKind::Prescience && a.value > kDial)
        return reject(RejectCode::Malformed, "Prescience asks for element 0 (leader), 1 (weapon), 2 (defense) or 3 (number dialed)");
      return std::nullopt;
    case kPrescienceAnswer:
      if (a.kind != ActionKind::PrescienceAnswer)
        return reject(RejectCode::WrongPhase, "the Atreides' Prescience awaits its answer: the phase takes PrescienceAnswer now");
      if (!asked)
        return reject(RejectCode::NotYourDecision, std::string("the opponent reveals its ") + element_name(b.prescience - 1) +
                                                       " to the Atreides (2.01.08)");
      return answer_problem(s, seat, b.prescience - 1, a.value);
    case kVoice:
      if (a.kind != ActionKind::Voice && a.kind != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Bene Gesserit may use the Voice before the battle plans: the phase takes Voice (or Pass) now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Bene Gesserit decide whether to use the Voice (2.02.06)");
      if (a.kind == ActionKind::Voice)
        if (auto why = ability_blocked(s, Faction::BeneGesserit, Ability::BgVoice)) return reject(RejectCode::IllegalChoice, *why);
      if (a.kind == ActionKind::Voice && !valid_voice_kind(a.value))
        return reject(RejectCode::Malformed, "unknown Voice kind " + std::to_string(a.value) +
                                                 " (0-5, or 64 + the kind of a special weapon or defense, 78: Lasgun)");
      return std::nullopt;
    case kCapture:
      if (a.kind != ActionKind::Respond && a.kind != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Harkonnen decide the fate of a captured leader: the phase takes Respond (or Pass) now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Harkonnen decide whether to kill or capture the leader (2.05.10)");
      if (a.kind == ActionKind::Respond)
        if (auto why = ability_blocked(s, Faction::Harkonnen, Ability::HarkonnenCapture)) return reject(RejectCode::IllegalChoice, *why);
      return std::nullopt;
  }
  return reject(RejectCode::WrongPhase, "nothing is decided in this step");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& b = s.battle;
  switch (s.step) {
    case kPrescience:
      // 3.01.11.01: a Karama may cancel it as it is used (cards.cpp; ruling karama_windows).
      if (a.kind == ActionKind::Prescience && karama_window(c, seat, Ability::AtreidesPrescience, a)) return;
      consume_prevention(s, Faction::Atreides, Ability::AtreidesPrescience);  // 3.01.11.02: its use opportunity
      if (a.kind == ActionKind::Pass) {
        ask_voice(c);
        return;
      }
      b.prescience = static_cast<uint8_t>(a.value + 1);
      s.step = kPrescienceAnswer;
      s.waiting = bit(target_of(s, Faction::Atreides));
      return;
    case kPrescienceAnswer:
      b.prescience_value = a.value;
      b.prescience_answered = 1;
      ask_voice(c);
      return;
    case kVoice:
      if (a.kind == ActionKind::Voice && karama_window(c, seat, Ability::BgVoice, a)) return;  // 3.01.11.01
      consume_prevention(s, Faction::BeneGesserit, Ability::BgVoice);  // 3.01.11.02: its use opportunity
      if (a.kind == ActionKind::Voice) {
        b.voice = static_cast<uint8_t>(a.value + 1);
        b.voice_must = a.flag ? 1 : 0;
      }
      start_plans(c);
      return;
    case kCapture: {
      consume_prevention(s, Faction::Harkonnen, Ability::HarkonnenCapture);  // 3.01.11.02: its use opportunity
      const auto id = static_cast<uint8_t>(b.captive - 1);
      auto& l = s.leaders[id];
      if (a.kind == ActionKind::Respond && a.flag) {  // 2.05.10.03 CAPTURE
        l.holder = static_cast<uint8_t>(Faction::Harkonnen);
        l.zone = LeaderZone::Pool;
        l.aux = kNone8;
      } else if (a.kind == ActionKind::Respond) {  // 2.05.10.02 KILL
        l.zone = LeaderZone::TanksFaceDown;
        l.died_once = 1;
        l.holder = static_cast<uint8_t>(owner(id));
        l.aux = kNone8;
        l.used_in_territory = kNone8;
        transfer_spice(s, bank(), shield(Faction::Harkonnen), kCaptureKillSpice);
      }
      s.waiting = 0;
      (void)seat;
      battle_end(c);
      return;
    }
  }
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const auto& b = s.battle;
  switch (s.step) {
    case kPrescience: {
      const Seat target = target_of(s, Faction::Atreides);
      if (auto why = ability_blocked(s, Faction::Atreides, Ability::AtreidesPrescience)) {
        out.push_back(Decision{ActionKind::Pass, "No Prescience in this battle: " + *why, 0, 0, {}});
        return;
      }
      out.push_back(Decision{ActionKind::Prescience,
                             "Prescience (2.01.08): make " + std::string(faction_name(s.faction_at(target))) +
                                 " reveal one element of its battle plan in " + territory_name(b.territory) +
                                 ": 0 leader, 1 weapon, 2 defense, 3 number dialed",
                             0, kDial, {kLeader, kWeapon, kDefense, kDial}});
      out.push_back(Decision{ActionKind::Pass, "Do not use Prescience in this battle", 0, 0, {}});
      return;
    }
    case kPrescienceAnswer: {
      const int e = b.prescience - 1;
      Decision d{ActionKind::PrescienceAnswer,
                 std::string("The Atreides' Prescience (2.01.08): reveal the ") + element_name(e) +
                     " you will play; it binds your battle plan" +
                     (e == kDial ? "" : std::string(" (PrescienceAnswer.value: one of the choices)")),
                 0, 0, {}};
      for (uint8_t v : answer_values(s, seat, e)) d.options.push_back(v);
      if (e == kDial) d.max = battle_max_dial(s, seat);
      out.push_back(std::move(d));
      return;
    }
    case kVoice: {
      const Seat target = target_of(s, Faction::BeneGesserit);
      if (auto why = ability_blocked(s, Faction::BeneGesserit, Ability::BgVoice)) {
        out.push_back(Decision{ActionKind::Pass, "No Voice in this battle: " + *why, 0, 0, {}});
        return;
      }
      Decision d{ActionKind::Voice,
                 "The Voice (2.02.06): command " + std::string(faction_name(s.faction_at(target))) +
                     " to play (must) or not to play a kind of card (Voice.kind: one of the choices)",
                 0, 0, {}};
      for (uint8_t k = 0; k <= kCheapHero; ++k) d.options.push_back(k);
      for (int k = 0; k < data::kNumTreacheryKinds; ++k)
        if (valid_voice_kind(static_cast<uint8_t>(kNamed + k))) d.options.push_back(static_cast<uint16_t>(kNamed + k));
      out.push_back(std::move(d));
      out.push_back(Decision{ActionKind::Pass, "Do not use the Voice in this battle", 0, 0, {}});
      return;
    }
    case kCapture: {
      const auto id = static_cast<uint8_t>(b.captive - 1);
      if (auto why = ability_blocked(s, Faction::Harkonnen, Ability::HarkonnenCapture)) {
        out.push_back(Decision{ActionKind::Pass, "Neither kill nor capture: " + *why, 0, 0, {}});
        return;
      }
      out.push_back(Decision{ActionKind::Respond,
                             "Captured leaders (2.05.10): " + leader_name(id) + " of " +
                                 std::string(faction_name(owner(id))) +
                                 " was drawn. accept: CAPTURE it into your leader pool; decline: KILL it (face down to the "
                                 "tanks, 2 spice)",
                             0, 1, {}});
      out.push_back(Decision{ActionKind::Pass, "Neither kill nor capture", 0, 0, {}});
      return;
    }
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  Action a;
  switch (s.step) {
    case kPrescience:
      for (uint8_t e = kLeader; e <= kDial && !ability_cancelled(s, Faction::Atreides, Ability::AtreidesPrescience); ++e) {
        a.kind = ActionKind::Prescience;
        a.value = e;
        out.push_back(a);
      }
      out.push_back(pass_action());
      return;
    case kPrescienceAnswer:
      for (uint8_t v : answer_values(s, seat, s.battle.prescience - 1)) {
        a.kind = ActionKind::PrescienceAnswer;
        a.value = v;
        out.push_back(a);
      }
      return;
    case kVoice:
      for (bool must : {true, false}) {
        if (ability_cancelled(s, Faction::BeneGesserit, Ability::BgVoice)) break;
        for (int k = 0; k < kNamed + data::kNumTreacheryKinds; ++k) {
          if (!valid_voice_kind(static_cast<uint8_t>(k))) continue;
          a.kind = ActionKind::Voice;
          a.flag = must;
          a.value = static_cast<uint8_t>(k);
          out.push_back(a);
        }
      }
      out.push_back(pass_action());
      return;
    case kCapture:
      for (bool accept : {true, false}) {
        if (ability_cancelled(s, Faction::Harkonnen, Ability::HarkonnenCapture)) break;  // 3.01.11.02
        a.kind = ActionKind::Respond;
        a.flag = accept;
        out.push_back(a);
      }
      out.push_back(pass_action());
      return;
  }
}

// ---- battle plans -------------------------------------------------------------------------------

std::optional<Rejection> check_kwisatz_haderach(const GameState& s, Seat seat, const Action& a) {
  if (auto r = kh_problem(s, seat)) return r;
  if (a.card == kNone8 && a.forces == kNone8)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach accompanies a leader or a Cheap Hero (2.01.11)");
  return std::nullopt;
}

bool may_play_cheap_hero(const GameState& s, Seat seat) {
  const Command v = command_on(s, seat);
  if (!v.on || v.must || v.kind != kCheapHero) return true;
  return hero_forced(s, seat, bound_of(s, seat));
}

std::optional<Rejection> check_commitments(const GameState& s, Seat seat, const Action& a) {
  const Bound k = bound_of(s, seat);
  auto broken = [&]() {
    return reject(RejectCode::IllegalChoice, "you revealed " + answer_text(k.element, k.value) +
                                                 " to the Atreides' Prescience: your battle plan must keep it (2.01.08)");
  };
  if (k.lead && (a.card != k.leader || a.forces != k.hero)) return broken();
  if (k.weapon && a.to != k.weapon_card) return broken();
  if (k.defense && a.from != k.defense_card) return broken();
  if (k.dial && a.value != k.dial_value) return broken();
  const Command v = command_on(s, seat);
  if (!v.on) return std::nullopt;
  if (v.must && !plan_plays(v.kind, a) && able_to_play(s, seat, v.kind, k))
    return reject(RejectCode::IllegalChoice, "the Voice commands you to play " + voice_kind_name(v.kind) +
                                                 " and you can: your plan must include one (2.02.06)");
  if (!v.must && plays_unbound(s, seat, v.kind, a, k))
    return reject(RejectCode::IllegalChoice, "the Voice commands you not to play " + voice_kind_name(v.kind) + " (2.02.06)");
  return std::nullopt;
}

void plan_candidates(const GameState& s, Seat seat, std::vector<Action>& out) {
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  const Bound k = bound_of(s, seat);
  const Command v = command_on(s, seat);
  const auto leaders = battle_available_leaders(s, me, b.territory);
  const auto heroes = battle_cheap_heroes(s, me);
  std::vector<std::pair<uint8_t, uint8_t>> leads;  // (leader, cheap hero)
  if (k.lead) {
    leads.push_back({k.leader, k.hero});
  } else if (v.on && v.must && v.kind == kCheapHero && !heroes.empty()) {
    for (uint8_t h : heroes) leads.push_back({kNone8, h});
  } else {
    for (uint8_t id : leaders) leads.push_back({id, kNone8});
    if (!heroes.empty() && may_play_cheap_hero(s, seat)) leads.push_back({kNone8, heroes.front()});
    if (leads.empty()) leads.push_back({kNone8, kNone8});
  }
  const auto& hand = s.of(me).hand;
  // Slot choices: the bound card, else "none", the commanded kind first, then any card.
  auto slot = [&](bool bound, uint8_t card, bool (*fits)(uint8_t)) {
    std::vector<uint8_t> out_cards;
    if (bound) return std::vector<uint8_t>{card};
    out_cards.push_back(kNone8);
    if (v.on && v.must)
      for (int i = 0; i < hand.n; ++i)
        if (card_matches(v.kind, hand.ids[i]) && fits(hand.ids[i])) out_cards.push_back(hand.ids[i]);
    for (int i = 0; i < hand.n; ++i)
      if (fits(hand.ids[i]) && std::find(out_cards.begin(), out_cards.end(), hand.ids[i]) == out_cards.end())
        out_cards.push_back(hand.ids[i]);
    return out_cards;
  };
  const auto weapons = slot(k.weapon, k.weapon_card, battle_fits_weapon_slot);
  const auto defenses = slot(k.defense, k.defense_card, battle_fits_defense_slot);
  const int max = battle_max_dial(s, seat);
  std::vector<int> dials;
  if (k.dial) dials.push_back(k.dial_value);
  else {
    dials.push_back(0);
    if (max > 0) dials.push_back(max);
  }
  const bool kh = !kh_problem(s, seat);
  auto add = [&](uint8_t leader, uint8_t hero, uint8_t w, uint8_t d, int dial) {
    if (w != kNone8 && w == d) return;
    Action a;
    a.kind = ActionKind::BattlePlan;
    a.card = leader;
    a.forces = hero;
    a.to = w;
    a.from = d;
    a.value = static_cast<uint8_t>(dial);
    out.push_back(a);
    if (kh && (leader != kNone8 || hero != kNone8)) {
      a.flag = true;
      out.push_back(a);
    }
  };
  // The first choice for a slot: the commanded kind where the Voice requires
  // one (and the other slot does not already hold it), else the bound card or none.
  auto pick = [&](const std::vector<uint8_t>& cards, uint8_t other) {
    if (v.on && v.must && !card_matches(v.kind, other))
      for (uint8_t c : cards)
        if (c != kNone8 && card_matches(v.kind, c)) return c;
    return cards.front();
  };
  for (const auto& [leader, hero] : leads) {
    for (int dial : dials) {
      const uint8_t w0 = pick(weapons, kNone8);
      const uint8_t d0 = pick(defenses, w0);
      add(leader, hero, w0, d0, dial);
      for (uint8_t w : weapons) add(leader, hero, w, d0, dial);
      for (uint8_t d : defenses) add(leader, hero, w0, d, dial);
    }
  }
}

void narrow_plan_decision(const GameState& s, Seat seat, Decision& d) {
  const Bound k = bound_of(s, seat);
  const Command v = command_on(s, seat);
  if (k.lead) {
    d.options.clear();
    if (k.leader != kNone8) d.options.push_back(k.leader);
    if (k.hero != kNone8) d.options.push_back(static_cast<uint16_t>(kHeroOffset + k.hero));
  } else if (v.on && v.kind == kCheapHero) {
    const bool heroes_only = v.must && able_to_play(s, seat, kCheapHero, k);
    const bool no_heroes = !v.must && !may_play_cheap_hero(s, seat);
    std::erase_if(d.options, [&](uint16_t o) { return (heroes_only && o < kHeroOffset) || (no_heroes && o >= kHeroOffset); });
  }
  if (k.dial) d.min = d.max = k.dial_value;
  if (k.element >= 0) d.prompt += "; you revealed " + answer_text(k.element, k.value) + " to the Atreides' Prescience (2.01.08)";
  if (v.on)
    d.prompt += std::string("; the Voice: you must ") + (v.must ? "" : "not ") + "play " + voice_kind_name(v.kind) +
                " as well as you are able (2.02.06)";
  if (!kh_problem(s, seat)) d.prompt += "; flag: the Kwisatz Haderach adds 2 to your leader or Cheap Hero (2.01.11)";
}

// ---- reveal, traitors, resolution ---------------------------------------------------------------

bool loyal(const BattlePlanState& p) { return p.kwisatz_haderach != 0; }

uint8_t traitor_askers(const GameState& s) {
  const auto& b = s.battle;
  uint8_t w = 0;
  for (int i = 0; i < 2; ++i) {
    const auto& opp = b.plan[1 - i];
    if (opp.leader == kNone8 || loyal(opp)) continue;  // 1.07.06.07, 2.01.12
    w |= bit(seat_of_side(s, i));
    // 2.05.09: the Harkonnen may use their traitors in their ally's battle.
    const Faction f = faction_of_side(s, i);
    if (f != Faction::Harkonnen && s.has(Faction::Harkonnen) && s.of(Faction::Harkonnen).ally == static_cast<uint8_t>(f))
      w |= bit(s.seat_of(Faction::Harkonnen));
  }
  return w;
}

void before_resolve(Ctx& c) {
  auto& s = c.s;
  if (!s.has(Faction::Atreides)) return;
  const auto& fs = s.of(Faction::Atreides);
  s.battle.atreides_tanks = static_cast<uint8_t>(std::min(255, fs.tanks[0] + fs.tanks[1]));
}

int kwisatz_haderach_bonus2(const BattlePlanState& p, bool killed) {
  if (!p.kwisatz_haderach || killed || (p.leader == kNone8 && p.cheap_hero == kNone8)) return 0;
  return 2 * kKwisatzHaderachStrength;
}

void lasgun_shield_explosion(GameState& s, const BattlePlanState& p) {
  if (p.kwisatz_haderach) s.kh.dead = 1;  // 2.01.13
}

bool hold_after_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  if (!b.after) {
    b.after = 1;
    // 2.01.10 forces lost in this battle.
    if (s.advanced && s.has(Faction::Atreides)) {
      const auto& fs = s.of(Faction::Atreides);
      const int lost = fs.tanks[0] + fs.tanks[1] - b.atreides_tanks;
      if (lost > 0) s.kh.losses = static_cast<uint8_t>(std::min(255, s.kh.losses + lost));
    }
    for (int i = 0; i < 2; ++i) {
      // 2.01.11 one territory per turn (a traitor win does not use it up, 1.07.06.07.01).
      if (b.plan[i].kwisatz_haderach && !traitor_win(s, i)) {
        s.kh.used_turn = s.turn;
        s.kh.used_territory = b.territory;
      }
      // 2.05.10.03 a captured leader used in this battle and not killed goes back.
      const uint8_t id = b.plan[i].leader;
      if (faction_of_side(s, i) == Faction::Harkonnen && id != kNone8 && captured(s, id) && alive(s.leaders[id]) &&
          !traitor_win(s, i))
        return_captive(s, id);
    }
    // 2.05.10.01 the Harkonnen won: draw one of the loser's active leaders.
    // Ruling capture_after_traitor_win = no_capture: a traitor win takes no captive.
    if (s.advanced && b.winner && faction_of_side(s, b.winner - 1) == Faction::Harkonnen &&
        !(s.rulings.is(RulingId::CaptureAfterTraitorWin, 1) && traitor_win(s, b.winner - 1))) {
      const Faction loser = faction_of_side(s, 2 - b.winner);
      std::vector<uint8_t> pool;
      for (int id = 0; id < data::kNumLeaders; ++id)
        if (battle_leader_available(s, loser, static_cast<uint8_t>(id), b.territory)) pool.push_back(static_cast<uint8_t>(id));
      if (!pool.empty()) {
        const uint8_t id = pool[c.rand_below(static_cast<uint32_t>(pool.size()), DrawKind::Random)];
        b.captive = static_cast<uint8_t>(id + 1);
        s.step = kCapture;
        s.waiting = bit(s.seat_of(Faction::Harkonnen));
        return true;
      }
    }
  }
  prison_break(s);
  return false;
}

// ---- 2.01.14 revival ------------------------------------------------------------------------

std::optional<std::string> kh_unrevivable(const GameState& s, Faction f) {
  if (f != Faction::Atreides || !s.advanced) return std::string("only the Atreides have the Kwisatz Haderach (advanced, 2.01.10)");
  if (!s.kh.dead) return std::string("the Kwisatz Haderach is not in the Tleilaxu Tanks");
  if (s.of(f).leader_revived_turn == s.turn) return std::string("only one leader may be revived per turn (1.05.03, 2.01.14)");
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    const auto& l = s.leaders[data::leader_id(f, i)];
    const bool unavailable = !alive(l) || l.holder != static_cast<uint8_t>(f);
    if (!l.died_once && !unavailable)
      return std::string("the Kwisatz Haderach is revived when all your other leaders have died once or are unavailable (2.01.14)");
  }
  return std::nullopt;
}

void revive_kh(GameState& s) { s.kh.dead = 0; }

int revival_strength(uint8_t id) {
  if (id == kKwisatzHaderachToken) return kKwisatzHaderachStrength;
  return id < data::kNumLeaders ? data::leader(id).strength : 0;
}

}  // namespace mentat::rules::ability
