// The battle plans' commitments and the factions' battle sub-steps (see
// core/rules/battle_abilities.h; the battle core is core/rules/battle.cpp).
//
// Flow of one battle: start_battle -> open_battle -> the factions' opening
// steps (hook battle_step.opens, by faction id: 2.01.08/09 Prescience in
// core/factions/atreides.cpp, 2.02.06/07 the Voice in
// core/factions/bene_gesserit.cpp) -> step kPlans (battle.cpp), where
// check_commitments holds the plan to what they bound: each faction's
// plan_binding (the Prescience answer binds the element it names) is
// folded into one PlanBinding, handed to every plan_check (the Prescience's,
// then the Voice's "as well as they are able", which reads the binding).
// plan_candidates builds candidate plans from the binding and the command
// (plan_command) the factions put on the seat; narrow_plan narrows the
// BattlePlan decision.
//
// The plan's flag (BattlePlan.flag, BattlePlanState::kwisatz_haderach) is
// the plan_flag of the seat's faction (2.01.10-14 the Kwisatz Haderach,
// core/factions/atreides.cpp): its availability, strength (2.01.11),
// loyalty (2.01.12: the leader it accompanies is never asked about as a
// traitor), its lasgun/shield death (2.01.13) and its revival (2.01.14,
// asked by revival.cpp through kh_unrevivable / revive_kh).
//
// Harkonnen 2.05.09-13 (traitors in the ally's battle, captured leaders):
// core/factions/harkonnen.cpp through the battle hooks (faction_rules.h).
//
// Not here: 1.14.01 (Atreides Karama power) and Karama against these
// abilities (core/rules/cards.cpp).
#include "core/rules/battle_abilities.h"

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"

#include <algorithm>

namespace mentat::rules::ability {
namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

constexpr uint8_t kPlansStep = 1;  // battle.cpp kPlans

Seat seat_of_side(const GameState& s, int side) { return side == 0 ? s.battle.aggressor : s.battle.defender; }
Faction faction_of_side(const GameState& s, int side) { return s.faction_at(seat_of_side(s, side)); }

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

// The seat a faction's Prescience / Voice is aimed at (2.01.09, 2.02.07).
Seat target_of(const GameState& s, Faction f) {
  const int side = supported_side(s, f);
  return side < 0 ? kNoSeat : seat_of_side(s, 1 - side);
}

bool traitor_win(const GameState& s, int side) {
  const auto& b = s.battle;
  return has_bit(b.traitor_calls, seat_of_side(s, side)) && !has_bit(b.traitor_calls, seat_of_side(s, 1 - side));
}

const char* element_name(int e) {
  switch (e) {
    case kLeader: return "leader";
    case kWeapon: return "weapon";
    case kDefense: return "defense";
    case kDial: return "number dialed";
  }
  return "?";
}

// Does `card` match a commanded kind (VoiceKind)?
bool card_matches(uint8_t kind, uint8_t card) {
  if (card == kNone8 || card >= data::kNumAllTreacheryCards) return false;  // Portable Snooper: a poison defense
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

// The plan flag of `seat`'s faction may be set now (2.01.10-11).
bool flag_available(const GameState& s, Seat seat) {
  const auto& fl = faction_rules(s.faction_at(seat)).plan_flag;
  return fl.unavailable && !fl.unavailable(s, seat);
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
  b.winner = b.after = 0;
  clear_battle_opening(s);  // the factions' per-battle answers (core/factions/faction_rules.h)
  battle_open_after(c, -1);  // 2.01.08 Prescience, 2.02.06 Voice (hook battle_step.opens), then the plans
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (skill_step(s.step)) return skills_step_validate(s, seat, a);  // core/cards/leader_skills.cpp
  if (const auto* st = faction_battle_step(s, s.step)) return st->validate(s, seat, a);
  return reject(RejectCode::WrongPhase, "nothing is decided in this step");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  if (skill_step(c.s.step)) return skills_step_apply(c, seat, a);
  if (const auto* st = faction_battle_step(c.s, c.s.step)) st->apply(c, seat, a);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (skill_step(s.step)) return skills_step_decisions(s, seat, out);
  if (const auto* st = faction_battle_step(s, s.step)) st->decisions(s, seat, out);
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (skill_step(s.step)) return skills_step_legal(s, seat, out);
  if (const auto* st = faction_battle_step(s, s.step)) st->legal(s, seat, out);
}

// ---- battle plans -------------------------------------------------------------------------------

std::optional<Rejection> check_kwisatz_haderach(const GameState& s, Seat seat, const action::BattlePlan& a) {
  const auto& fl = faction_rules(s.faction_at(seat)).plan_flag;
  if (!fl.check) return reject(RejectCode::IllegalChoice, "only the Atreides have the Kwisatz Haderach (2.01.11)");
  return fl.check(s, seat, a);
}

bool may_play_cheap_hero(const GameState& s, Seat seat) {
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.02.06 (hook forbids_cheap_hero)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).forbids_cheap_hero; h && s.has(static_cast<Faction>(fi)) && h(s, seat))
      return false;
  return true;
}

std::optional<Rejection> check_commitments(const GameState& s, Seat seat, const action::BattlePlan& a) {
  const PlanBinding k = battle_plan_binding(s, seat);
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.01.08, 2.02.06 (hook plan_check)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).plan_check; h && s.has(static_cast<Faction>(fi)))
      if (auto r = h(s, seat, a, k)) return r;
  return std::nullopt;
}

void plan_candidates(const GameState& s, Seat seat, std::vector<Action>& out) {
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  const PlanBinding k = battle_plan_binding(s, seat);
  const PlanCommand v = battle_plan_command(s, seat);
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
  const bool kh = flag_available(s, seat);
  auto add = [&](uint8_t leader, uint8_t hero, uint8_t w, uint8_t d, int dial) {
    if (w != kNone8 && w == d) return;
    action::BattlePlan a;
    a.leader = leader;
    a.cheap_hero = hero;
    a.weapon = w;
    a.defense = d;
    a.dial = static_cast<uint8_t>(dial);
    out.push_back(a);
    if (kh && (leader != kNone8 || hero != kNone8)) {
      a.kwisatz_haderach = true;
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
  const PlanBinding k = battle_plan_binding(s, seat);
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.01.08, 2.02.06 (hook narrow_plan)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).narrow_plan; h && s.has(static_cast<Faction>(fi))) h(s, seat, k, d);
  if (flag_available(s, seat)) d.prompt += faction_rules(s.faction_at(seat)).plan_flag.prompt;  // 2.01.11
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

int kwisatz_haderach_bonus2(Faction f, const BattlePlanState& p, bool killed) {
  if (!p.kwisatz_haderach || killed || (p.leader == kNone8 && p.cheap_hero == kNone8)) return 0;
  return 2 * faction_rules(f).plan_flag.strength;
}

void lasgun_shield_explosion(GameState& s, Faction f, const BattlePlanState& p) {
  if (const auto h = faction_rules(f).plan_flag.exploded; h && p.kwisatz_haderach) h(s);  // 2.01.13
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
  for (int fi = 0; fi < kNumFactions; ++fi)  // the CHOAM Auditor (hook after_battle_more)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).after_battle_more; h && s.has(static_cast<Faction>(fi)) && h(c))
      return true;
  if (skills_after_battle(c)) return true;  // the Rihani Decipherer's swap (core/cards/leader_skills.cpp)
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
bool battle_card_matches(uint8_t kind, uint8_t card) { return ability::card_matches(kind, card); }
PlanBinding battle_plan_binding(const GameState& s, Seat seat) {
  PlanBinding k;
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.01.08 (hook plan_binding)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).plan_binding; h && s.has(static_cast<Faction>(fi))) h(s, seat, k);
  // A binding the plan can no longer keep lapses: the answered leader is gone (a Residual Poison after the answer), or no
  // leader and no Cheap Hero is left, so no card may be played (1.07.04.06).
  if ((k.lead || k.weapon || k.defense) && s.battle.territory < data::kNumTerritories) {
    const Faction me = s.faction_at(seat);
    const auto leaders = battle_available_leaders(s, me, s.battle.territory);
    const auto heroes = battle_cheap_heroes(s, me);
    if (k.lead && k.leader != kNone8 && std::find(leaders.begin(), leaders.end(), k.leader) == leaders.end()) k.lead = false;
    if (k.lead && k.hero != kNone8 && std::find(heroes.begin(), heroes.end(), k.hero) == heroes.end()) k.lead = false;
    if (leaders.empty() && heroes.empty()) k.weapon = k.defense = false;
  }
  return k;
}
PlanCommand battle_plan_command(const GameState& s, Seat seat) {
  PlanCommand v;
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.02.06 (hook plan_command)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).plan_command; h && s.has(static_cast<Faction>(fi)) && h(s, seat, v))
      return v;
  return v;
}
void battle_open_after(Ctx& c, int after) {
  for (int fi = after + 1; fi < kNumFactions; ++fi) {
    const auto& st = faction_rules(static_cast<Faction>(fi)).battle_step;
    if (st.opens && c.s.has(static_cast<Faction>(fi)) && st.opens(c)) return;
  }
  // after = kNumFactions: the leader skills' opening step is done (the Mentat's question).
  if (after < kNumFactions && skills_battle_opens(c)) return;
  ability::start_plans(c);
}
}  // namespace mentat::rules
namespace mentat::rules::ability {

// ---- 2.01.14 revival ------------------------------------------------------------------------

std::optional<std::string> kh_unrevivable(const GameState& s, Faction f) {
  const auto h = faction_rules(f).plan_flag.unrevivable;
  if (!h) return std::string("only the Atreides have the Kwisatz Haderach (advanced, 2.01.10)");
  return h(s);
}

void revive_kh(GameState& s, Faction f) {
  if (const auto h = faction_rules(f).plan_flag.revive) h(s);
}

int revival_strength(uint8_t id) {
  if (id == kKwisatzHaderachToken) return kKwisatzHaderachStrength;
  return id < data::kNumLeaders ? data::leader(id).strength : 0;
}

}  // namespace mentat::rules::ability
