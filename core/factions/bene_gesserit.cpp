// The Bene Gesserit's abilities (2.02) that the phases reach through the hook
// table (core/factions/faction_rules.h): 2.02.03 the prediction, 2.02.06-07
// the Voice, 2.02.08 placement, 2.02.09 charity, 2.02.12 advisors (hook
// specials_passive: common.cpp, collection.cpp, battle.cpp, cards.cpp and
// shipment_movement.cpp ask it), 2.02.05 / 2.02.11-21 in Shipment and
// Movement (spiritual advisors, intrusion, wartime, take up arms, adaptive
// force, universal stewards: the sub-steps kAdvisor, kWartime, kIntrusion
// and the shipment and movement hooks), 2.02.22 worthless cards as Karama.
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/shipment_movement.h"

#include <bit>

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::BeneGesserit;

// ---- 2.02.06/07 the Voice: battle sub-step kVoice ----
// When the Bene Gesserit fight, or their ally does, they answer Voice{must,
// kind} or Pass; the opponent of that side is commanded
// (BeneGesseritState::Battle). "As well as they are able to" is checked with
// the plan (plan_check below), reading the Prescience answer's binding.

using ability::kCheapHero;
using ability::kNamed;
using ability::kVoice;

Action pass() { return action::Pass{}; }

// A Voice kind: the five classes and the Cheap Hero, or a special weapon or
// defense by name among the card sets of this game (the base deck's Lasgun;
// with the Richese cards, Mirror Weapon and Stone Burner too).
bool valid_voice_kind(const GameState& s, uint8_t kind) {
  if (kind <= kCheapHero) return true;
  if (kind < kNamed) return false;
  const int id = data::first_card_of_kind_in_game(s.modules, kind - kNamed);
  if (id < 0) return false;
  const auto category = data::treachery_card(static_cast<uint8_t>(id)).category;
  return category == data::TreacheryCategory::WeaponLasgun || category == data::TreacheryCategory::WeaponSpecial ||
         category == data::TreacheryCategory::DefenseSpecial;
}

bool voice_opens(Ctx& c) {
  auto& s = c.s;
  if (battle_supported_side(s, kMe) < 0) return false;  // 2.02.06/07
  s.step = kVoice;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

std::optional<Rejection> voice_validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind() != ActionKind::Voice && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the Bene Gesserit may use the Voice before the battle plans: the phase takes Voice (or Pass) now");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "the Bene Gesserit decide whether to use the Voice (2.02.06)");
  if (a.kind() == ActionKind::Voice)
    if (auto why = ability_blocked(s, kMe, Ability::BgVoice)) return reject(RejectCode::IllegalChoice, *why);
  if (const auto* voice = a.get_if<action::Voice>(); voice && !valid_voice_kind(s, voice->kind))
    return reject(RejectCode::Malformed, "unknown Voice kind " + std::to_string(voice->kind) +
                                             " (0-5, or 64 + the kind of a special weapon or defense, 78: Lasgun)");
  return std::nullopt;
}

void voice_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (a.kind() == ActionKind::Voice && karama_window(c, seat, Ability::BgVoice, a)) return;  // 3.01.11.01
  consume_prevention(s, kMe, Ability::BgVoice);  // 3.01.11.02: its use opportunity
  if (const auto* voice = a.get_if<action::Voice>()) {
    s.bene_gesserit.battle.voice = static_cast<uint8_t>(voice->kind + 1);
    s.bene_gesserit.battle.voice_must = voice->must ? 1 : 0;
  }
  battle_open_after(c, static_cast<int>(kMe));
}

void voice_decisions(const GameState& s, Seat, std::vector<Decision>& out) {
  const Seat target = battle_target_of(s, kMe);
  if (auto why = ability_blocked(s, kMe, Ability::BgVoice)) {
    out.push_back(Decision{ActionKind::Pass, "No Voice in this battle: " + *why, 0, 0, {}});
    return;
  }
  Decision d{ActionKind::Voice,
             "The Voice (2.02.06): command " + std::string(faction_name(s.faction_at(target))) +
                 " to play, or not to play, a kind of card",
             0, 0, {}};
  for (uint8_t k = 0; k <= kCheapHero; ++k) d.options.push_back(k);
  for (int k = 0; k < data::kNumAllTreacheryKinds; ++k)
    if (valid_voice_kind(s, static_cast<uint8_t>(kNamed + k))) d.options.push_back(static_cast<uint16_t>(kNamed + k));
  out.push_back(std::move(d));
  out.push_back(Decision{ActionKind::Pass, "Do not use the Voice in this battle", 0, 0, {}});
}

void voice_legal(const GameState& s, Seat, std::vector<Action>& out) {
  for (bool must : {true, false}) {
    if (ability_cancelled(s, kMe, Ability::BgVoice)) break;
    for (int k = 0; k < kNamed + data::kNumAllTreacheryKinds; ++k) {
      if (!valid_voice_kind(s, static_cast<uint8_t>(k))) continue;
      out.push_back(action::Voice{.must = must, .kind = static_cast<uint8_t>(k)});
    }
  }
  out.push_back(pass());
}

// ---- 2.02.06 "as well as they are able": the Voice's plan check (battle_abilities.cpp asks) ----
// Told to play a kind, a plan without one is rejected when the seat could
// have played one (it holds one, a leader or Cheap Hero can carry it, and
// the slot is not bound by the Prescience answer, PlanBinding); told not
// to, a plan with one is rejected unless the Prescience answer binds the
// seat to that card. A Voice against Cheap Heroes lifts 1.07.04.05 for them
// (no Cheap Hero is then "possible"; with no leader the seat plays no card,
// 1.07.04.06), unless ruling voice_vs_cheap_hero = obligation_stands (with
// no leader the Cheap Hero is still played).

std::string voice_kind_name(uint8_t kind) {
  switch (kind) {
    case ability::kPoisonWeapon: return "a poison weapon";
    case ability::kProjectileWeapon: return "a projectile weapon";
    case ability::kPoisonDefense: return "a poison defense";
    case ability::kProjectileDefense: return "a projectile defense";
    case ability::kWorthless: return "a worthless card";
    case kCheapHero: return "a Cheap Hero";
  }
  if (kind >= kNamed && kind - kNamed < data::kNumAllTreacheryKinds)
    return "a " + std::string(data::treachery_kind_name(static_cast<data::TreacheryKind>(kind - kNamed)));
  return "?";
}

bool plan_command(const GameState& s, Seat seat, PlanCommand& v) {
  const auto& b = s.bene_gesserit.battle;
  if (!b.voice || battle_target_of(s, kMe) != seat) return false;
  v.on = true;
  v.must = b.voice_must != 0;
  v.kind = static_cast<uint8_t>(b.voice - 1);
  return true;
}

bool lead_possible(const GameState& s, Seat seat, const PlanBinding& k) {
  if (k.lead) return k.leader != kNone8 || k.hero != kNone8;
  const Faction me = s.faction_at(seat);
  return !battle_available_leaders(s, me, s.battle.territory).empty() || !battle_cheap_heroes(s, me).empty();
}

// A Cheap Hero the seat has to play whatever the Voice says: its Prescience
// answer named it, or named a card while no leader can carry it.
// Ruling voice_vs_cheap_hero = obligation_stands: with no leader available,
// 1.07.04.05 still makes the seat play its Cheap Hero.
bool hero_forced(const GameState& s, Seat seat, const PlanBinding& k) {
  if (k.lead) return k.hero != kNone8;
  if (s.rulings.is(RulingId::VoiceVsCheapHero, 1) && battle_available_leaders(s, s.faction_at(seat), s.battle.territory).empty() &&
      !battle_cheap_heroes(s, s.faction_at(seat)).empty())
    return true;
  const bool card_bound = (k.weapon && k.weapon_card != kNone8) || (k.defense && k.defense_card != kNone8);
  return card_bound && battle_available_leaders(s, s.faction_at(seat), s.battle.territory).empty() &&
         !battle_cheap_heroes(s, s.faction_at(seat)).empty();
}

// Could the seat play a card of `kind` in a plan that keeps its Prescience answer?
bool able_to_play(const GameState& s, Seat seat, uint8_t kind, const PlanBinding& k) {
  const Faction me = s.faction_at(seat);
  if (kind == kCheapHero) return !k.lead && !battle_cheap_heroes(s, me).empty();
  if (!lead_possible(s, seat, k)) return false;
  const auto& hand = s.of(me).hand;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t c = hand.ids[i];
    if (!battle_card_matches(kind, c)) continue;
    if (battle_fits_weapon_slot(c) && !k.weapon) return true;
    if (battle_fits_defense_slot(c) && !k.defense) return true;
  }
  return false;
}

bool plan_plays(uint8_t kind, const action::BattlePlan& a) {
  if (kind == kCheapHero) return a.cheap_hero != kNone8;
  return battle_card_matches(kind, a.weapon) || battle_card_matches(kind, a.defense);
}

// A card of `kind` in the plan that the Prescience answer does not bind.
bool plays_unbound(const GameState& s, Seat seat, uint8_t kind, const action::BattlePlan& a, const PlanBinding& k) {
  if (kind == kCheapHero) return a.cheap_hero != kNone8 && !hero_forced(s, seat, k);
  return (battle_card_matches(kind, a.weapon) && !(k.weapon && k.weapon_card == a.weapon)) ||
         (battle_card_matches(kind, a.defense) && !(k.defense && k.defense_card == a.defense));
}

bool forbids_cheap_hero(const GameState& s, Seat seat) {
  PlanCommand v;
  if (!plan_command(s, seat, v) || v.must || v.kind != kCheapHero) return false;
  return !hero_forced(s, seat, battle_plan_binding(s, seat));
}

std::optional<Rejection> plan_check(const GameState& s, Seat seat, const action::BattlePlan& a, const PlanBinding& k) {
  PlanCommand v;
  if (!plan_command(s, seat, v)) return std::nullopt;
  if (v.must && !plan_plays(v.kind, a) && able_to_play(s, seat, v.kind, k))
    return reject(RejectCode::IllegalChoice, "the Voice commands you to play " + voice_kind_name(v.kind) +
                                                 " and you can: your plan must include one (2.02.06)");
  if (!v.must && plays_unbound(s, seat, v.kind, a, k))
    return reject(RejectCode::IllegalChoice, "the Voice commands you not to play " + voice_kind_name(v.kind) + " (2.02.06)");
  return std::nullopt;
}

void narrow_plan(const GameState& s, Seat seat, const PlanBinding& k, Decision& d) {
  PlanCommand v;
  if (!plan_command(s, seat, v)) return;
  if (!k.lead && v.kind == kCheapHero) {
    const bool heroes_only = v.must && able_to_play(s, seat, kCheapHero, k);
    const bool no_heroes = !v.must && forbids_cheap_hero(s, seat);
    std::erase_if(d.options, [&](uint16_t o) { return (heroes_only && o < ability::kHeroOffset) || (no_heroes && o >= ability::kHeroOffset); });
  }
  d.prompt += std::string("; the Voice: you must ") + (v.must ? "" : "not ") + "play " + voice_kind_name(v.kind) +
              " as well as you are able (2.02.06)";
}

// 2.02.12 (advanced): advisors (the special side) do not occupy, collect or battle.
bool specials_passive(const GameState& s) { return s.advanced != 0; }

// 2.02.09: the Bene Gesserit receive at least 2 spice whatever they hold,
// unless a Karama prevents it (3.01.11.02): then 1.03 applies.
int charity_amount(const GameState& s) { return ability_cancelled(s, kMe, Ability::BgCharity) ? -1 : 2; }
// 3.01.11.02: the prevention is used up by the next charity where it
// matters (they hold 1 spice or more; ruling karama_automatic_use).
Ability charity_prevention_due(const GameState& s) {
  return ability_cancelled(s, kMe, Ability::BgCharity) && (s.of(kMe).spice >= 1 || prevention_at_next_occasion(s))
             ? Ability::BgCharity
             : Ability::None;
}

// 2.02.03: the prediction of the winner and the turn, if right, makes the
// Bene Gesserit the sole winner.
bool takes_over_victory(const GameState& s, FactionMask winners, VictoryClaim* claim) {
  const auto& bg = s.of(kMe);
  if (bg.prediction_turn != s.turn || !((winners >> bg.prediction_faction) & 1u)) return false;
  *claim = VictoryClaim{0, faction_bit(kMe), kPrediction};
  return true;
}

// 1.14.06 / 2.02.22 (ruling bg_worthless_karama: always, never, advanced_only):
// the Bene Gesserit may use a worthless card as a Karama.
bool worthless_as_karama(const GameState& s) {
  if (s.rulings.is(RulingId::BgWorthlessKarama, 1)) return true;   // always
  if (s.rulings.is(RulingId::BgWorthlessKarama, 2)) return false;  // never
  return s.advanced != 0;                                          // advanced_only
}

// ---- 0.xx setup (setup.cpp asks): 2.02.03 the prediction, 2.02.02 / 2.02.08 the starting force ----

// 2.02.08 (advanced, or ruling bg_start_basic): the one starting force is
// placed by choice, not at the Polar Sink (2.02.02).
bool places_start_forces(const GameState& s) { return s.advanced || s.rulings.is(RulingId::BgStartBasic, 1); }

bool prediction_asks(const GameState& s) { return s.of(kMe).prediction_turn == 0; }

std::optional<Rejection> prediction_validate(const GameState& s, const Action& a) {
  if (a.kind() != ActionKind::Predict) return reject(RejectCode::WrongPhase, "the Bene Gesserit must make the prediction (Predict)");
  const auto& predict = a.as<action::Predict>();
  if (predict.faction >= kNumFactions || !s.has(static_cast<Faction>(predict.faction)))
    return reject(RejectCode::IllegalChoice, "the predicted faction is not in this game");
  if (static_cast<Faction>(predict.faction) == kMe) return reject(RejectCode::IllegalChoice, "the Bene Gesserit must predict another faction");
  if (predict.turn < 1 || predict.turn > s.max_turns)
    return reject(RejectCode::IllegalChoice, "the predicted turn must be 1.." + std::to_string(s.max_turns));
  return std::nullopt;
}

void prediction_apply(GameState& s, const Action& a) {
  s.of(kMe).prediction_faction = a.as<action::Predict>().faction;
  s.of(kMe).prediction_turn = a.as<action::Predict>().turn;
}

void prediction_decisions(const GameState& s, std::vector<Decision>& out) {
  Decision d{ActionKind::Predict, "Predict the faction and the turn of a stronghold victory", 1, s.max_turns, {}};
  for (int i = 0; i < kNumFactions; ++i)
    if (s.f[i].in_game && i != static_cast<int>(kMe)) d.options.push_back(static_cast<uint16_t>(i));
  out.push_back(d);
}

void prediction_legal(const GameState& s, std::vector<Action>& out) {
  std::vector<Decision> ds;
  prediction_decisions(s, ds);
  for (auto fac : ds.front().options)
    for (int t = 1; t <= s.max_turns; ++t) {
      out.push_back(action::Predict{.faction = static_cast<uint8_t>(fac), .turn = static_cast<uint8_t>(t)});
    }
}

bool placement_asks(const GameState& s) { return places_start_forces(s) && s.of(kMe).reserves[0] == 20; }

std::optional<Rejection> placement_validate(const GameState&, const Action& a) {
  if (a.kind() != ActionKind::PlaceForces || a.as<action::PlaceForces>().placements.size() != 1)
    return reject(RejectCode::WrongPhase, "the Bene Gesserit place one starting force (PlaceForces with one placement)");
  const auto& p = a.as<action::PlaceForces>().placements[0];
  if (p.location >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown location");
  if (p.forces + p.special != 1) return reject(RejectCode::IllegalChoice, "exactly one force is placed");
  return std::nullopt;
}

// 2.02.08: an advisor; a fighter if alone in the territory. Basic game with
// the any-territory ruling: always a fighter.
void placement_apply(GameState& s, const Action& a) {
  for (const auto& p : a.as<action::PlaceForces>().placements) {
    const int n = p.forces + p.special;
    const bool alone = other_factions_in(s, kMe, data::territory_of(p.location)) == 0;
    const int kind = (s.advanced && !alone) ? 1 : 0;
    move_forces(s, kMe, reserves_zone(), at(p.location), n, 0, ForceCause::Setup, kind == 1 ? ArriveAs::Special : ArriveAs::Same);
  }
}

void placement_decisions(const GameState&, std::vector<Decision>& out) {
  Decision d{ActionKind::PlaceForces, "Place one force (an advisor in the advanced game) in any territory", 1, 1, {}};
  for (int l = 0; l < data::kNumLocations; ++l) d.options.push_back(static_cast<uint16_t>(l));
  out.push_back(d);
}

void placement_legal(const GameState&, std::vector<Action>& out) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    out.push_back(action::PlaceForces{.placements = {Placement{static_cast<LocationId>(l), 1, 0}}});
  }
}

constexpr FactionRules::SetupDecision kSetupSteps[] = {
    {SetupStep::Prediction, prediction_asks, prediction_validate, prediction_apply, prediction_decisions, prediction_legal},
    {SetupStep::BgPlacement, placement_asks, placement_validate, placement_apply, placement_decisions, placement_legal},
};

// ---- 1.06 Shipment and Movement: spiritual advisors (2.02.05 / 2.02.11),
// intrusion (2.02.15), wartime (2.02.17), universal stewards (2.02.21) ----
// The phase's sub-steps kAdvisor, kWartime, kIntrusion (hook ship_step,
// numbered in core/rules/shipment_movement.h); where the shipment or move
// the Bene Gesserit answer went: BeneGesseritState::ShipMove.

std::string loc_name(LocationId l) { return std::string(data::location(l).name); }
std::string ter_name(TerritoryId t) { return std::string(data::territory(t).name); }

bool advisors_limited(const GameState& s) { return s.rulings.is(RulingId::AdvisorOccupancy, 1); }

// 2.02.11: an advisor to the shipment's location when no fighters are in that territory
// (and, ruling advisor_occupancy=limit_applies, not into a stronghold at the limit).
bool may_send_advisor_to(const GameState& s, LocationId to) {
  return s.advanced && to == s.bene_gesserit.shipmove.advisor_to && to != data::polar_sink() &&
         ship::kind_in_territory(s, kMe, data::territory_of(to), 0) == 0 &&
         !(advisors_limited(s) && ship::at_occupancy_limit(s, kMe, data::territory_of(to)));
}

// 2.02.17 WARTIME (with 2.02.18 peacetime, 2.02.19 stormed in, and the
// occupancy limit): why the advisors of territory t cannot flip to fighters.
std::optional<std::string> wartime_blocked(const GameState& s, TerritoryId t) {
  const auto& ter = data::territory(t);
  int flippable = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto l = static_cast<LocationId>(ter.first_location + i);
    if (!s.in_storm(l)) flippable += s.forces_at(kMe, l, 1);
  }
  if (ship::kind_in_territory(s, kMe, t, 1) == 0) return "you have no advisors in " + ter_name(t);
  if (flippable == 0) return "advisors under storm cannot flip to fighters (2.02.19)";
  if (const uint8_t ally = ally_in_game(s, kMe); ally != kNoFaction && s.forces_in_territory(static_cast<Faction>(ally), t) > 0)
    return "advisors cannot flip to fighters with your ally present (2.02.18)";
  if (s.rulings.is(RulingId::WartimeOccupancy, 0) && ship::at_occupancy_limit(s, kMe, t))  // ruling wartime_occupancy
    return ter_name(t) + " already holds two other factions' forces (occupancy limit)";
  return std::nullopt;
}

std::vector<LocationId> wartime_options(const GameState& s) {
  std::vector<LocationId> out;
  if (!s.advanced || !s.has(kMe)) return out;
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto tid = static_cast<TerritoryId>(t);
    if (ship::kind_in_territory(s, kMe, tid, 1) == 0) continue;  // no advisors: wartime_blocked's first case
    if (wartime_blocked(s, tid)) continue;
    const auto& ter = data::territory(tid);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      if (s.forces_at(kMe, l, 1) && !s.in_storm(l)) {
        out.push_back(l);
        break;
      }
    }
  }
  return out;
}

void flip_territory(GameState& s, TerritoryId t, int from_kind, bool skip_storm) {
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto l = static_cast<LocationId>(ter.first_location + i);
    if (skip_storm && s.in_storm(l)) continue;
    if (const int n = s.forces_at(kMe, l, from_kind)) flip_forces(s, kMe, l, from_kind, n);
  }
}

// 2.02.15 INTRUSION: a non-allied faction's forces entered `to` where the
// Bene Gesserit have fighters.
bool intrusion(const GameState& s, Faction mover, LocationId to) {
  if (!s.advanced || !s.has(kMe) || mover == kMe) return false;
  if (ally_in_game(s, mover) == static_cast<uint8_t>(kMe)) return false;
  return ship::kind_in_territory(s, kMe, data::territory_of(to), 0) > 0;
}

void ask(GameState& s, uint8_t step) {
  s.step = step;
  s.waiting = bit(s.seat_of(kMe));
}

// 2.02.17: before shipment and movement (hook ship_phase_opens).
bool ship_phase_opens(GameState& s) {
  if (wartime_options(s).empty()) return false;
  ask(s, ship::kWartime);
  return true;
}

// What follows another faction's shipment (or its pass): 2.02.15 intrusion,
// then 2.02.05 spiritual advisors (hook answers_shipment).
bool answers_shipment(GameState& s, Faction shipper, const action::Ship* ship, bool from_off_planet) {
  // 2.02.05: the Bene Gesserit may answer another faction's shipment from off-planet.
  bool advisors = from_off_planet && shipper != kMe && s.of(kMe).reserves[0] > 0;
  if (advisors && ability_cancelled(s, kMe, Ability::BgSpiritualAdvisor)) {  // 3.01.11.02
    consume_prevention(s, kMe, Ability::BgSpiritualAdvisor);
    advisors = false;
  }
  if (ship && !ship->to_reserves && intrusion(s, shipper, ship->to)) {
    s.bene_gesserit.shipmove.advisor_to = ship->to;
    s.bene_gesserit.shipmove.resume = advisors ? ship::kAdvisor : ship::kMove;
    ask(s, ship::kIntrusion);
    return true;
  }
  if (advisors) {  // from_off_planet: a Ship
    s.bene_gesserit.shipmove.advisor_to = ship->to;
    ask(s, ship::kAdvisor);
    return true;
  }
  return false;
}

// 2.02.15 after another faction's movement (hook answers_move).
constexpr uint8_t kResumeEndTurn = 0xFE;  // BeneGesseritState::ShipMove::resume after a movement
bool answers_move(GameState& s, Faction mover, const action::Move& m) {
  if (!intrusion(s, mover, m.to)) return false;
  s.bene_gesserit.shipmove.advisor_to = m.to;
  s.bene_gesserit.shipmove.resume = kResumeEndTurn;
  ask(s, ship::kIntrusion);
  return true;
}

// 2.02.21 (advanced): advisors alone in a territory flip to fighters
// (not under storm, 2.02.19); after each turn and as the phase ends.
void universal_stewards(GameState& s) {
  if (!s.advanced) return;
  // The territories holding advisors, from one pass over the locations (the
  // territories are independent: flipping in one changes no other's test).
  static_assert(data::kNumTerritories <= 64);
  uint64_t with_advisors = 0;
  for (int l = 0; l < data::kNumLocations; ++l)
    if (s.forces_at(kMe, static_cast<LocationId>(l), 1) > 0)
      with_advisors |= uint64_t{1} << data::location(static_cast<LocationId>(l)).territory;
  for (; with_advisors != 0; with_advisors &= with_advisors - 1) {
    const auto tid = static_cast<TerritoryId>(std::countr_zero(with_advisors));
    bool alone = true;
    for (Seat seat = 0; seat < s.num_seats && alone; ++seat)  // the seated factions
      if (const Faction o = s.faction_at(seat); o != kMe && s.forces_in_territory(o, tid) > 0) alone = false;
    if (!alone) continue;
    const auto& ter = data::territory(tid);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      if (s.in_storm(l)) continue;
      if (const int n = s.forces_at(kMe, l, 1)) flip_forces(s, kMe, l, 1, n);
    }
  }
}

std::optional<Rejection> expect(const Action& a, ActionKind k, const char* what) {
  if (a.kind() == k || a.kind() == ActionKind::Pass) return std::nullopt;
  return reject(RejectCode::WrongPhase, std::string("now ") + what);
}

std::optional<Rejection> ship_validate(const GameState& s, Seat, const Action& a) {
  const LocationId at = s.bene_gesserit.shipmove.advisor_to;
  switch (s.step) {
    case ship::kAdvisor:
      if (auto r = expect(a, ActionKind::SendSpiritualAdvisor, "the Bene Gesserit may send a spiritual advisor (SendSpiritualAdvisor) or pass")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (auto why = ability_blocked(s, kMe, Ability::BgSpiritualAdvisor)) return reject(RejectCode::IllegalChoice, *why);
      if (const LocationId to = a.as<action::SendSpiritualAdvisor>().to; to == data::polar_sink() || may_send_advisor_to(s, to))
        return std::nullopt;
      if (s.advanced && a.as<action::SendSpiritualAdvisor>().to == at)
        return reject(RejectCode::IllegalChoice, "an advisor may follow the shipment only where you have no fighters (2.02.11); send a fighter to the Polar Sink instead");
      return reject(RejectCode::IllegalChoice, s.advanced ? "a spiritual advisor goes to the Polar Sink or, as an advisor, to " + loc_name(at) + " (2.02.05, 2.02.11)"
                                                          : std::string("a spiritual advisor goes to the Polar Sink (2.02.05)"));
    case ship::kWartime:
      if (auto r = expect(a, ActionKind::Flip, "the Bene Gesserit may flip advisors to fighters (Flip) or pass (2.02.17)")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (a.as<action::Flip>().location >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown location");
      if (auto why = ability_blocked(s, kMe, Ability::BgWartime)) return reject(RejectCode::IllegalChoice, *why);
      if (auto why = wartime_blocked(s, data::territory_of(a.as<action::Flip>().location))) return reject(RejectCode::IllegalChoice, *why);
      return std::nullopt;
    default:  // ship::kIntrusion
      if (auto r = expect(a, ActionKind::Flip, "the Bene Gesserit may flip their fighters to advisors (Flip) or pass (2.02.15)")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (auto why = ability_blocked(s, kMe, Ability::BgIntrusion)) return reject(RejectCode::IllegalChoice, *why);
      if (const LocationId to = a.as<action::Flip>().location; to >= data::kNumLocations || data::territory_of(to) != data::territory_of(at))
        return reject(RejectCode::IllegalChoice, "only the fighters in " + ter_name(data::territory_of(at)) + " may flip now (2.02.15)");
      return std::nullopt;
  }
}

void ship_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  switch (s.step) {
    case ship::kAdvisor:
      // 3.01.11.01: a Karama may cancel the spiritual advisor as it is sent (cards.cpp).
      if (a.kind() == ActionKind::SendSpiritualAdvisor && karama_window(c, seat, Ability::BgSpiritualAdvisor, a)) return;
      consume_prevention(s, kMe, Ability::BgSpiritualAdvisor);
      if (a.kind() == ActionKind::SendSpiritualAdvisor) {
        const LocationId to = a.as<action::SendSpiritualAdvisor>().to;
        const int kind = to == data::polar_sink() ? 0 : 1;  // fighter to the Polar Sink, else an advisor
        move_forces(s, kMe, reserves_zone(), at(to), 1, 0, ForceCause::Ability, kind == 1 ? ArriveAs::Special : ArriveAs::Same);
      }
      ship::to_move_step(c);
      return;
    case ship::kWartime:
      if (const auto* flip = a.get_if<action::Flip>()) {
        if (karama_window(c, seat, Ability::BgWartime, a)) return;  // 3.01.11.01: each flip is a use
        flip_territory(s, data::territory_of(flip->location), 1, true);
        if (!wartime_options(s).empty()) return;  // more territories may flip
      }
      consume_prevention(s, kMe, Ability::BgWartime);  // 3.01.11.02: its use opportunity
      ship::advance(c);
      return;
    default:  // ship::kIntrusion
      if (a.kind() == ActionKind::Flip && karama_window(c, seat, Ability::BgIntrusion, a)) return;  // 3.01.11.01
      consume_prevention(s, kMe, Ability::BgIntrusion);  // 3.01.11.02: its use opportunity
      if (const auto* flip = a.get_if<action::Flip>()) flip_territory(s, data::territory_of(flip->location), 0, false);
      if (s.bene_gesserit.shipmove.resume == ship::kAdvisor)
        ask(s, ship::kAdvisor);
      else if (s.bene_gesserit.shipmove.resume == ship::kMove)
        ship::to_move_step(c);
      else
        ship::after_move(c, true);  // 3.01.09 Hajr, or the turn ends
      return;
  }
}

void ship_decisions(const GameState& s, Seat, std::vector<Decision>& out) {
  const LocationId at = s.bene_gesserit.shipmove.advisor_to;
  switch (s.step) {
    case ship::kAdvisor: {
      if (ability_cancelled(s, kMe, Ability::BgSpiritualAdvisor)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Send no spiritual advisor (a Karama stopped it)", 0, 0, {}});
        break;
      }
      Decision d{ActionKind::SendSpiritualAdvisor, "Send one force free from reserves to the Polar Sink (Spiritual Advisors)", 1, 1, {data::polar_sink()}};
      if (may_send_advisor_to(s, at)) {
        d.prompt += ", or an advisor to " + loc_name(at);
        d.options.push_back(at);
      }
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Send no spiritual advisor", 0, 0, {}});
      break;
    }
    case ship::kWartime: {
      if (auto why = ability_blocked(s, kMe, Ability::BgWartime)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Flip no (more) advisors: " + *why, 0, 0, {}});
        break;
      }
      Decision d{ActionKind::Flip, "Wartime: flip all your advisors in a territory to fighters (2.02.17)", 0, 0, {}};
      for (auto l : wartime_options(s)) d.options.push_back(l);
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Flip no (more) advisors", 0, 0, {}});
      break;
    }
    default:  // ship::kIntrusion
      if (auto why = ability_blocked(s, kMe, Ability::BgIntrusion)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Keep them as fighters: " + *why, 0, 0, {}});
        break;
      }
      out.push_back(Decision{ActionKind::Flip, "Intrusion: flip your fighters in " + ter_name(data::territory_of(at)) + " to advisors (2.02.15)", 0, 0, {at},
                             Topic::Intrusion});
      out.push_back(Decision{ActionKind::Pass, "Keep them as fighters", 0, 0, {}});
      break;
  }
}

void ship_legal(const GameState& s, Seat, std::vector<Action>& out) {
  switch (s.step) {
    case ship::kAdvisor: {
      if (ability_cancelled(s, kMe, Ability::BgSpiritualAdvisor)) break;  // 3.01.11.01/.02
      action::SendSpiritualAdvisor a;
      a.to = data::polar_sink();
      out.push_back(a);
      if (may_send_advisor_to(s, s.bene_gesserit.shipmove.advisor_to)) {
        a.to = s.bene_gesserit.shipmove.advisor_to;
        out.push_back(a);
      }
      break;
    }
    case ship::kWartime:
      for (auto l : wartime_options(s)) {
        if (ability_cancelled(s, kMe, Ability::BgWartime)) break;  // 3.01.11.02
        action::Flip a;
        a.location = l;
        out.push_back(a);
      }
      break;
    default: {  // ship::kIntrusion
      if (ability_cancelled(s, kMe, Ability::BgIntrusion)) break;  // 3.01.11.02
      action::Flip a;
      a.location = s.bene_gesserit.shipmove.advisor_to;
      out.push_back(a);
      break;
    }
  }
}

// ---- 1.06 the Bene Gesserit's own shipments and moves (advanced): 2.02.13
// fighters are not shipped where advisors are, 2.02.14 enlistment, 2.02.16
// take up arms (Move.flip), 2.02.20 adaptive force ----

std::optional<Rejection> check_shipment(const GameState& s, const action::Ship& a) {
  if (s.advanced && ship::kind_in_territory(s, kMe, data::territory_of(a.to), 1) > 0)
    return reject(RejectCode::IllegalChoice, "fighters may not be shipped to a territory where you have advisors (2.02.13)");
  return std::nullopt;
}

// 2.02.14 / 2.02.20: what the moved group becomes.
ship::GroupType moved_group(const GameState& s, const action::Move& a) {
  using ship::GroupType;
  if (!s.advanced) return GroupType::Keep;
  const TerritoryId t = data::territory_of(a.to);
  int fighters = ship::kind_in_territory(s, kMe, t, 0), advisors = ship::kind_in_territory(s, kMe, t, 1);
  for (int i = 0; i < a.from.size(); ++i)  // repositioning: the group itself does not count (a gather: its group from t)
    if (data::territory_of(a.from[i].location) == t) {
      fighters -= a.from[i].forces;
      advisors -= a.from[i].special;
    }
  if (fighters > 0) return GroupType::Fighters;  // 2.02.20
  if (advisors > 0) return GroupType::Advisors;  // 2.02.20
  bool occupied = false;
  for (int o = 0; o < kNumFactions; ++o)
    if (o != static_cast<int>(kMe) && s.f[o].in_game && s.forces_in_territory(static_cast<Faction>(o), t) > 0) occupied = true;
  if (!occupied) return GroupType::Fighters;  // 2.02.14 enlistment
  return GroupType::Keep;
}

// 2.02.16 Take Up Arms: advisors moving into a territory occupied by another
// faction, where the Bene Gesserit have no forces, become fighters (with
// 2.02.18: not with the ally present).
std::optional<Rejection> check_move_flip(const GameState& s, const action::Move& a, int advisors, ship::GroupType type) {
  if (!s.advanced)
    return reject(RejectCode::IllegalChoice, "only the Bene Gesserit (advanced) flip advisors to fighters as they move (2.02.16)");
  if (auto why = ability_blocked(s, kMe, Ability::BgTakeUpArms)) return reject(RejectCode::IllegalChoice, *why);
  const TerritoryId from_t = data::territory_of(a.from[0].location), to_t = data::territory_of(a.to);
  if (advisors == 0) return reject(RejectCode::IllegalChoice, "the moving group has no advisors to flip (2.02.16)");
  if (to_t == from_t) return reject(RejectCode::IllegalChoice, "Take Up Arms needs a move into another territory (2.02.16)");
  if (type == ship::GroupType::Advisors)
    return reject(RejectCode::IllegalChoice, "you already have advisors in " + ter_name(to_t) + ": the group joins them as advisors (2.02.16, 2.02.20)");
  if (type == ship::GroupType::Fighters)
    return reject(RejectCode::IllegalChoice, "the group becomes fighters in " + ter_name(to_t) + " anyway (2.02.14 / 2.02.20): no flip to ask for");
  if (const uint8_t ally = ally_in_game(s, kMe); ally != kNoFaction && s.forces_in_territory(static_cast<Faction>(ally), to_t) > 0)
    return reject(RejectCode::IllegalChoice, "advisors cannot flip to fighters with your ally present (2.02.18)");
  return std::nullopt;
}

// 3.01.11.02: a prevented 2.02.16 is used up by the Bene Gesserit's next move
// that could have taken up arms (the same move with flip would be legal).
void moving(GameState& s, const action::Move& a) {
  if (!ability_cancelled(s, kMe, Ability::BgTakeUpArms)) return;
  if (prevention_at_next_occasion(s)) {  // ruling karama_automatic_use: any move
    consume_prevention(s, kMe, Ability::BgTakeUpArms);
    return;
  }
  GameState free = s;
  consume_prevention(free, kMe, Ability::BgTakeUpArms);
  action::Move flip = a;
  flip.flip = true;
  if (!ship::check_move(free, kMe, flip)) consume_prevention(s, kMe, Ability::BgTakeUpArms);
}

// 2.02.16: each legal movement that moves advisors may also take up arms.
void move_variants(const GameState& s, std::vector<action::Move>& c) {
  if (!s.advanced) return;
  const size_t n = c.size();
  for (size_t i = 0; i < n; ++i) {
    action::Move a = c[i];
    a.flip = true;
    if (!ship::check_move(s, kMe, a)) c.push_back(a);
  }
}

// 3.01.11.01: a move with Take Up Arms uses it (a KaramaCancel window; cancelled, the move is retaken without the flip).
Ability move_uses(const GameState&, const action::Move& a) { return a.flip ? Ability::BgTakeUpArms : Ability::None; }

const char* move_prompt(const GameState& s) {
  return s.advanced ? "; advisors moving into a territory another faction occupies may take up arms (2.02.16)" : "";
}

// 1.00.05: the ability the phase waits on.
const char* ship_in_use(const GameState& s) {
  switch (s.step) {
    case ship::kAdvisor: return "the Bene Gesserit's Spiritual Advisors (2.02.05)";
    case ship::kWartime: return "the Bene Gesserit's Wartime (2.02.17)";
    default: return "the Bene Gesserit's Intrusion (2.02.15)";
  }
}

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::BgSpiritualAdvisor, kMe, "2.02.05 / 2.02.11", "spiritual advisors", ActionKind::SendSpiritualAdvisor},
    {Ability::BgVoice, kMe, "2.02.06 / 2.02.07", "the Voice", ActionKind::Voice},
    {Ability::BgIntrusion, kMe, "2.02.15", "intrusion", ActionKind::Flip},
    {Ability::BgWartime, kMe, "2.02.17", "wartime", ActionKind::Flip},
    {Ability::BgCharity, kMe, "2.02.09", "charity", ActionKind::Pass},
    {Ability::BgTakeUpArms, kMe, "2.02.16", "take up arms", ActionKind::Move},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.plan_command = plan_command;  // 2.02.06
  r.plan_check = plan_check;
  r.narrow_plan = narrow_plan;
  r.forbids_cheap_hero = forbids_cheap_hero;
  r.places_start_forces = places_start_forces;  // 2.02.08
  r.setup_steps = kSetupSteps;                  // 2.02.03, 2.02.08
  r.specials_passive = specials_passive;
  r.specials_tank_as_regular = true;  // advisors are ordinary forces in the tanks
  r.charity_amount = charity_amount;
  r.charity_prevention_due = charity_prevention_due;
  r.takes_over_victory = takes_over_victory;
  r.predicts = true;
  r.worthless_as_karama = worthless_as_karama;
  r.battle_step = {kVoice, kVoice, voice_opens, voice_validate, voice_apply, voice_decisions, voice_legal};
  r.ship_step = {1u << ship::kAdvisor | 1u << ship::kWartime | 1u << ship::kIntrusion, ship_validate, ship_apply, ship_decisions,
                 ship_legal, ship_in_use};  // 2.02.05/11, 2.02.15, 2.02.17
  r.ship_phase_opens = ship_phase_opens;   // 2.02.17
  r.answers_shipment = answers_shipment;   // 2.02.05 / 2.02.11, 2.02.15
  r.answers_move = answers_move;           // 2.02.15
  r.ship_turn_ends = universal_stewards;   // 2.02.21
  r.check_shipment = check_shipment;       // 2.02.13
  r.moved_group = moved_group;             // 2.02.14, 2.02.20
  r.check_move_flip = check_move_flip;     // 2.02.16
  r.moving = moving;
  r.move_variants = move_variants;
  r.move_prompt = move_prompt;
  r.move_uses = move_uses;
  return r;
}

}  // namespace

constinit const FactionRules kBeneGesseritRules = make();

// The faction's entry in the owner table (core/rules/owners.h): no game
// events or modifiers yet; its abilities are reached through kRules' hooks.
constinit const Owner kBeneGesseritOwner{"bene_gesserit", OwnerKind::Faction, faction_seated<Faction::BeneGesserit>, {}, {}};

}  // namespace mentat::rules
