// Faction abilities of the Battle phase still here (see
// core/rules/battle_abilities.h; the battle core is core/rules/battle.cpp):
// the plan checks of Prescience and the Voice and the Kwisatz Haderach.
//
// Flow of one battle: start_battle -> open_battle -> the factions' opening
// steps (hook battle_step.opens, by faction id: 2.01.08/09 Prescience in
// core/factions/atreides.cpp, 2.02.06/07 the Voice in
// core/factions/bene_gesserit.cpp) -> step kPlans (battle.cpp), where
// check_commitments holds the plan to them:
//  * the Prescience answer (AtreidesState::Battle::prescience_value) binds
//    the element it names;
//  * "As well as they are able to" (2.02.06): told to play a
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
// Kwisatz Haderach (advanced, 2.01.10-15; the count and the one territory a
// turn are recorded by core/factions/atreides.cpp): kh.losses counts Atreides forces
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
// Harkonnen 2.05.09-13 (traitors in the ally's battle, captured leaders):
// core/factions/harkonnen.cpp through the battle hooks (faction_rules.h).
//
// Not here: 1.14.01 (Atreides Karama power) and Karama against these
// abilities (core/rules/cards.cpp).
#include "core/rules/battle_abilities.h"

#include "core/factions/faction_rules.h"

#include <algorithm>

namespace mentat::rules::ability {
namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

constexpr uint8_t kPlansStep = 1;  // battle.cpp kPlans

Seat seat_of_side(const GameState& s, int side) { return side == 0 ? s.battle.aggressor : s.battle.defender; }
Faction faction_of_side(const GameState& s, int side) { return s.faction_at(seat_of_side(s, side)); }
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
  const auto& b = s.atreides.battle;
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
  const auto& b = s.bene_gesserit.battle;
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

// ---- Kwisatz Haderach -----------------------------------------------------------------------

std::optional<Rejection> kh_problem(const GameState& s, Seat seat) {
  const auto& b = s.battle;
  if (s.faction_at(seat) != Faction::Atreides)
    return reject(RejectCode::IllegalChoice, "only the Atreides have the Kwisatz Haderach (2.01.11)");
  if (!s.advanced) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is an advanced rule (2.01.00)");
  if (s.atreides.kh.losses < kKwisatzHaderachActivation)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is not active: the Atreides have lost " +
                                                 std::to_string(s.atreides.kh.losses) + " forces in battles, 7 awaken it (2.01.10)");
  if (s.atreides.kh.dead) return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach is in the Tleilaxu Tanks (2.01.14)");
  if (auto why = ability_blocked(s, Faction::Atreides, Ability::KwisatzHaderach)) return reject(RejectCode::IllegalChoice, *why);
  if (s.atreides.kh.used_turn == s.turn && s.atreides.kh.used_territory != b.territory)
    return reject(RejectCode::IllegalChoice, "the Kwisatz Haderach fought in " + territory_name(s.atreides.kh.used_territory) +
                                                 " this turn: one territory per turn (2.01.11)");
  return std::nullopt;
}

// ---- flow -------------------------------------------------------------------------------------

void start_plans(Ctx& c) {
  auto& s = c.s;
  s.step = kPlansStep;
  s.waiting = static_cast<uint8_t>(bit(s.battle.aggressor) | bit(s.battle.defender));
}

}  // namespace

// ---- battle start, the ability steps --------------------------------------------------------

void open_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  s.atreides.battle.prescience = s.atreides.battle.prescience_answered = s.atreides.battle.prescience_value = 0;
  s.bene_gesserit.battle.voice = s.bene_gesserit.battle.voice_must = 0;
  b.winner = s.atreides.battle.tanks = b.after = s.harkonnen.battle.captive = 0;
  battle_open_after(c, -1);  // 2.01.08 Prescience, 2.02.06 Voice (hook battle_step.opens), then the plans
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (const auto* st = faction_battle_step(s, s.step)) return st->validate(s, seat, a);
  return reject(RejectCode::WrongPhase, "nothing is decided in this step");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  if (const auto* st = faction_battle_step(c.s, c.s.step)) st->apply(c, seat, a);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (const auto* st = faction_battle_step(s, s.step)) st->decisions(s, seat, out);
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (const auto* st = faction_battle_step(s, s.step)) st->legal(s, seat, out);
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
    for (int fi = 0; fi < kNumFactions; ++fi)  // 2.05.09 (hook battle_traitor_askers)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).battle_traitor_askers; h && s.has(static_cast<Faction>(fi)))
        w |= h(s, i);
  }
  return w;
}

void before_resolve(Ctx& c) {
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.01.10 (hook battle_resolves)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).battle_resolves; h && c.s.has(static_cast<Faction>(fi))) h(c);
}

int kwisatz_haderach_bonus2(const BattlePlanState& p, bool killed) {
  if (!p.kwisatz_haderach || killed || (p.leader == kNone8 && p.cheap_hero == kNone8)) return 0;
  return 2 * kKwisatzHaderachStrength;
}

void lasgun_shield_explosion(GameState& s, const BattlePlanState& p) {
  if (p.kwisatz_haderach) s.atreides.kh.dead = 1;  // 2.01.13
}

bool hold_after_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  if (!b.after) {
    b.after = 1;
    for (int fi = 0; fi < kNumFactions; ++fi)  // 2.01.10-11, 2.05.10 (hook after_battle)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).after_battle; h && s.has(static_cast<Faction>(fi)) && h(c))
        return true;
  }
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.05.11 (hook battle_ends)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).battle_ends; h && s.has(static_cast<Faction>(fi))) h(s);
  return false;
}

// ---- for the factions' battle hooks (battle_abilities.h) ----

}  // namespace mentat::rules::ability
namespace mentat::rules {
Faction battle_faction_of_side(const GameState& s, int side) { return ability::faction_of_side(s, side); }
bool battle_traitor_win(const GameState& s, int side) { return ability::traitor_win(s, side); }
int battle_supported_side(const GameState& s, Faction f) { return ability::supported_side(s, f); }
Seat battle_target_of(const GameState& s, Faction f) { return ability::target_of(s, f); }
const char* battle_element_name(int e) { return ability::element_name(e); }
void battle_open_after(Ctx& c, int after) {
  for (int fi = after + 1; fi < kNumFactions; ++fi) {
    const auto& st = faction_rules(static_cast<Faction>(fi)).battle_step;
    if (st.opens && c.s.has(static_cast<Faction>(fi)) && st.opens(c)) return;
  }
  ability::start_plans(c);
}
}  // namespace mentat::rules
namespace mentat::rules::ability {

// ---- 2.01.14 revival ------------------------------------------------------------------------

std::optional<std::string> kh_unrevivable(const GameState& s, Faction f) {
  if (f != Faction::Atreides || !s.advanced) return std::string("only the Atreides have the Kwisatz Haderach (advanced, 2.01.10)");
  if (!s.atreides.kh.dead) return std::string("the Kwisatz Haderach is not in the Tleilaxu Tanks");
  if (s.of(f).leader_revived_turn == s.turn) return std::string("only one leader may be revived per turn (1.05.03, 2.01.14)");
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    const auto& l = s.leaders[data::leader_id(f, i)];
    const bool unavailable = !leader_alive(l) || l.holder != static_cast<uint8_t>(f);
    if (!l.died_once && !unavailable)
      return std::string("the Kwisatz Haderach is revived when all your other leaders have died once or are unavailable (2.01.14)");
  }
  return std::nullopt;
}

void revive_kh(GameState& s) { s.atreides.kh.dead = 0; }

int revival_strength(uint8_t id) {
  if (id == kKwisatzHaderachToken) return kKwisatzHaderachStrength;
  return id < data::kNumLeaders ? data::leader(id).strength : 0;
}

}  // namespace mentat::rules::ability
