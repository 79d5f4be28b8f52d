// 1.06 Shipment and Movement. In storm order (1.06.01) the current seat
// ships once or passes (1.06.02, 1.06.03), then moves once or passes
// (1.06.05); then the next seat. Sub-steps live in GameState::step
// (ship::Step, core/rules/shipment_movement.h): Ship (Ship or Pass) and Move
// (Move or Pass) are this file's; the others are the factions' (hook
// ship_step, core/factions/faction_rules.h). A step with no legal choice but
// Pass is skipped. At the end of each seat's turn 1.06.07 (forces with the
// ally go to the tanks) applies, then the factions' ship_turn_ends.
//
// Where the factions change this phase (their files, through the hooks of
// faction_rules.h "1.06"):
//   turn order   holds_ship_turn / before_ship_turn (2.06.12 Guild timing,
//                guild.cpp), ship_turn_begins, ship_turn_ends (2.02.21
//                universal stewards, bene_gesserit.cpp)
//   phase start  the game event PhaseBegins (core/rules/owners.h: 2.01.07
//                Wormsign, atreides.cpp; 3.01.11.02 of 2.06.12, guild.cpp),
//                then the hook ship_phase_opens (2.02.17 wartime)
//   shipment     cost: modifier ShipmentCostQuery (core/rules/owners.h: the
//                Guild's half price 2.06.06 / 2.06.09, guild.cpp; a Karama's
//                Guild rates 3.01.11.03, cards.cpp);
//                ship_half_price (the ability a Karama cancels), ship_cross, ship_off_planet,
//                receives_shipment_payments (2.06.04-10, guild.cpp),
//                sends_from_reserves / check_send / sent / storm_migration
//                (2.04.03/05/17, fremen.cpp), check_shipment (2.02.13)
//   after it     shipment_made (1.14.05 the Guild's question, guild.cpp),
//                answers_shipment (2.02.15 intrusion, 2.02.05 / 2.02.11
//                spiritual advisors, bene_gesserit.cpp)
//   movement     range: modifier MovementRangeQuery (core/rules/owners.h:
//                2.04.06 fremen.cpp, the Planetologist leader_skills.cpp,
//                Kulon choam.cpp); movement_ability (2.04.06, fremen.cpp),
//                moved_group, check_move_flip, moving, move_variants,
//                move_prompt (2.02.14, 2.02.16, 2.02.20, bene_gesserit.cpp),
//                answers_move (2.02.15)
//   forces       specials_passive (2.02.12: special forces that do not fight
//                do not use ornithopters, move one territory, coexist with
//                the ally's forces, and count for the occupancy limit only
//                under RulingId::AdvisorOccupancy)
//
// Shipment: 1.06.03.01 cost, 1.06.03.02 bank, 1.06.03.04 storm, 1.06.03.05
// occupancy, 2.06.07 the off-planet cost. RulingId::GuildCrossShipPayment:
// who receives the ally's cross-ship payment. Movement: 1.06.05 one group
// from one territory, 1.06.05.03/.04 range and ornithopters
// (RulingId::OrnithopterTiming), 1.06.05.06/.07 storm, 1.06.05.09
// occupancy, 1.06.06 Polar Sink, 1.06.08 repositioning.
//
// Cards (core/rules/cards.cpp): 3.01.09 Hajr (ShipMoveState::hajr, one more
// Move), 3.01.11.03 Karama shipment at Guild rates to the bank
// (karama_shipment), 3.01.11.01/1.00.04 a KaramaCancel window before a
// shipping or movement ability marked ✷ is used (karama_window; the redo
// goes without it). 1.14.05: the shipment from reserves just made waits in
// ShipMoveState::last_* until the shipper moves or its turn ends (the
// Guild's power cancels it, guild.cpp). 3.01.11.02 prevented abilities
// (GameState::prevented, cards.cpp) are rejected with their reason and
// consumed at their next use opportunity: the shipping ones by the next
// shipment step, a prevented 2.06.04 by the next payment the receiver would
// get (it goes to the bank; ShipMoveState::last_paid_bank keeps 1.14.05's
// refund right), a prevented 2.04.06 by the next movement.
// 1.10.02.06 allies pay for each other's shipments: Ship.ally_pays of the
// cost comes from the ally's shield, within the allowance the ally set with
// AllyPermission (core/rules/deals.cpp; each payment uses it up), and goes
// where the shipper's own payment goes (bank, the receiver 2.06.04, ruling
// guild_cross_ship_payment). The receiver paying for its ally's shipment
// that pays it: ruling guild_ally_shipment_share, its share goes to the
// bank (as for its own shipments) or stays with it.
// Not implemented: cross-shipping from several sectors of one territory at
// once (Ship has a single `from`).
#include <algorithm>
#include <array>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/move_reach.h"
#include "core/rules/owners.h"
#include "core/rules/shipment_movement.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

using data::kNumLocations;

using ship::kMove;  // the phase's own sub-steps (core/rules/shipment_movement.h)
using ship::kShip;

// ---- small helpers -----------------------------------------------------------

bool has_ally(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  return a < kNumFactions && s.f[a].in_game;
}
bool is_stronghold_loc(LocationId l) { return data::territory(data::territory_of(l)).stronghold; }
std::string loc_name(LocationId l) { return std::string(data::location(l).name); }
std::string ter_name(TerritoryId t) { return std::string(data::territory(t).name); }

// The hooks of the faction (in the game) that owns the current sub-step
// (FactionRules::ship_step), or null: the phase's own step.
const FactionRules::ShipStep* faction_step(const GameState& s) {
  if (s.step == kShip || s.step == kMove || s.step >= 16) return nullptr;  // the phase's own (the common case)
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& st = faction_rules(static_cast<Faction>(fi)).ship_step;
    if ((st.steps >> s.step) & 1u && s.has(static_cast<Faction>(fi))) return &st;
  }
  return nullptr;
}

// Fighters (not advanced Bene Gesserit advisors) at a location.
int fighters_at(const GameState& s, Faction f, LocationId l) {
  return specials_fight(s, f) ? s.forces_in_location(f, l) : s.forces_at(f, l, 0);  // 2.02.12 (hook specials_passive)
}
int kind_in_territory(const GameState& s, Faction f, TerritoryId t, int kind) {
  const auto& ter = data::territory(t);
  int n = 0;
  for (int i = 0; i < ter.num_locations; ++i) n += s.forces_at(f, static_cast<LocationId>(ter.first_location + i), kind);
  return n;
}

// 1.06.05.04: forces (Bene Gesserit advisors excluded, 2.02.12) in Arrakeen or Carthag.
bool has_ornithopters(const GameState& s, Faction f) {
  return fighters_at(s, f, data::arrakeen()) > 0 || fighters_at(s, f, data::carthag()) > 0;
}

// Ruling advisor_occupancy: limit_applies counts advisors (occupancy_others)
// and subjects advisors entering a stronghold to the limit.
bool at_occupancy_limit(const GameState& s, Faction f, TerritoryId t) {
  return data::territory(t).stronghold && occupancy_others(s, f, t) >= 2;
}
bool advisors_limited(const GameState& s) { return s.rulings.is(RulingId::AdvisorOccupancy, 1); }

// ---- shipment ----------------------------------------------------------------

// The token a shipment may carry instead of forces (hook force_token: the
// Richese No-Field, in a game with the Richese), or null.
const FactionRules::ForceToken* shipping_token(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto& r = faction_rules(static_cast<Faction>(fi)); r.force_token.check_ship && s.has(static_cast<Faction>(fi)))
      return &r.force_token;
  return nullptr;
}
// Forces a shipment pays for: a token is priced as one force.
int priced_forces(const action::Ship& a) { return a.no_field != kNone8 ? 1 : a.forces + a.special; }

// Hooks ship_half_price / ship_cross (2.06.06 / 2.06.09, 2.06.05.02 / 2.06.10).
bool half_price_usable(const GameState& s, Faction f) {
  const Ability a = team_ability(s, f, &FactionRules::ship_half_price);
  return a != Ability::None && !ability_cancelled(s, f, a);  // 3.01.11.01 / 1.00.04 (cards.cpp)
}
bool may_cross_ship(const GameState& s, Faction f) {
  const Ability a = team_ability(s, f, &FactionRules::ship_cross);
  return a != Ability::None && !ability_cancelled(s, f, a);  // 3.01.11.02 (cards.cpp)
}

// 1.06.03.01: 1 spice a force into a stronghold, 2 elsewhere; the owners'
// answers to ShipmentCostQuery change it (core/rules/owners.h: 2.06.06 /
// 2.06.09 the Guild's half price, 3.01.11.03 a Karama's Guild rates).
int shipment_cost(const GameState& s, Faction f, LocationId to, int n) {
  const int printed = n * (is_stronghold_loc(to) ? 1 : 2);
  return modify(s, ShipmentCostQuery{f, to, n, printed}, printed);
}
// 3.01.11.01: a shipment that the half-price ability (hook ship_half_price: 2.06.06 / 2.06.09) makes cheaper.
bool uses_half_price(const GameState& s, Faction me, const action::Ship& a) {
  if (!half_price_usable(s, me) || karama_shipment(s, me) || a.to_reserves || faction_rules(me).sends_from_reserves || a.to >= kNumLocations)
    return false;
  const int full = priced_forces(a) * (is_stronghold_loc(a.to) ? 1 : 2);
  return shipment_cost(s, me, a.to, priced_forces(a)) < full;
}
int off_planet_cost(int n) { return (n + 1) / 2; }  // 2.06.07

// 2.06.04 (hook receives_shipment_payments): the faction in the game that
// receives other factions' shipment payments, or kNoFaction.
uint8_t shipment_receiver(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (faction_rules(static_cast<Faction>(fi)).receives_shipment_payments != Ability::None && s.has(static_cast<Faction>(fi)))
      return static_cast<uint8_t>(fi);
  return kNoFaction;
}

// Who receives shipment spice (2.06.04): the Guild when another faction ships.
SpiceAccount payee(const GameState& s, Faction shipper) {
  if (karama_shipment(s, shipper)) return bank();  // 3.01.11.03 (cards.cpp)
  const uint8_t guild = shipment_receiver(s);
  if (guild != kNoFaction && static_cast<uint8_t>(shipper) != guild) return shield(static_cast<Faction>(guild));
  return bank();
}

// 3.01.11.02 of 2.06.04: the next payment the Guild would receive for
// another faction's shipment goes to the bank (1.06.03.02); the prevention
// is consumed by that shipment.
SpiceAccount shipment_payee(GameState& s, SpiceAccount to) {
  const uint8_t guild = shipment_receiver(s);
  if (to.holder != SpiceHolder::Faction || guild == kNoFaction || to.index != guild) return to;
  const auto g = static_cast<Faction>(guild);
  const Ability payment = faction_rules(g).receives_shipment_payments;
  if (!ability_cancelled(s, g, payment)) return to;
  consume_prevention(s, g, payment);
  return bank();
}

enum class ShipKind { Normal, FremenSend, CrossShip, OffPlanet };
ShipKind ship_kind(Faction me, const action::Ship& a) {
  if (a.to_reserves) return ShipKind::OffPlanet;
  if (a.from != kNone8) return ShipKind::CrossShip;
  return faction_rules(me).sends_from_reserves ? ShipKind::FremenSend : ShipKind::Normal;  // 2.04.05
}

// Checks the destination of any shipment into the board.
std::optional<Rejection> check_destination(const GameState& s, Faction me, LocationId to, bool storm_ok) {
  const TerritoryId t = data::territory_of(to);
  if (s.in_storm(to) && !storm_ok)
    return reject(RejectCode::Storm, loc_name(to) + " is in the storm: no shipment into a sector in storm (1.06.03.04)");
  if (at_occupancy_limit(s, me, t))
    return reject(RejectCode::Occupancy, ter_name(t) + " already holds two other factions' forces (occupancy limit, 1.06.03.05)");
  return std::nullopt;
}

// The spice a shipment costs in all (0 for the Fremen's free sending).
int total_cost(const GameState& s, Faction me, const action::Ship& a) {
  const int n = priced_forces(a);
  switch (ship_kind(me, a)) {
    case ShipKind::OffPlanet: return off_planet_cost(n);
    case ShipKind::FremenSend: return 0;
    case ShipKind::CrossShip:
    case ShipKind::Normal: return a.to < kNumLocations ? shipment_cost(s, me, a.to, n) : 0;
  }
  return 0;
}

// 1.10.02.06: how much of its spice the ally lets `me` use now.
int ally_allowance(const GameState& s, Faction me) {
  if (!has_ally(s, me)) return 0;
  const auto& ally = s.f[s.of(me).ally];
  return std::min<int>(ally.spice, ally.permit_ship);
}

// Checks Ship.ally_pays (the shipper pays the rest of the cost).
std::optional<Rejection> check_ally_payment(const GameState& s, Faction me, const action::Ship& a) {
  if (a.ally_pays == 0) return std::nullopt;
  if (!has_ally(s, me)) return reject(RejectCode::IllegalChoice, "you have no ally to pay for your shipment (1.10.02.06)");
  const int cost = total_cost(s, me, a);
  if (a.ally_pays > cost)
    return reject(RejectCode::IllegalChoice, "your ally may pay at most the shipment's cost, " + std::to_string(cost) + " spice (1.10.02.06)");
  const auto& ally = s.f[s.of(me).ally];
  if (a.ally_pays > ally.permit_ship)
    return reject(RejectCode::IllegalChoice, "your ally allows only " + std::to_string(ally.permit_ship) +
                                                 " spice for your shipments (AllyPermission, 1.10.02.06)");
  if (a.ally_pays > ally.spice) return reject(RejectCode::NotEnoughSpice, "your ally holds only " + std::to_string(ally.spice) + " spice");
  return std::nullopt;
}

// "N" or "N with your ally's share of M" (fs.spice already includes the share).
std::string with_ally(int spice, int share) {
  return share ? std::to_string(spice) + " with your ally's " + std::to_string(share) + " (1.10.02.06)" : std::to_string(spice);
}

// The rules of a shipment, whoever's turn it is.
std::optional<Rejection> check_ship(const GameState& s, Faction me, const action::Ship& a) {
  if (auto r = check_ally_payment(s, me, a)) return r;
  // The shipper's spice plus the ally's (checked) share must cover the cost.
  FactionState fs = s.of(me);
  fs.spice = static_cast<uint16_t>(fs.spice + a.ally_pays);
  if (a.no_field != kNone8) {  // a token instead of forces (hook force_token), priced as one force
    const auto* token = shipping_token(s);
    if (!token) return reject(RejectCode::IllegalChoice, "there are No-Field tokens only in a game with the Richese (CHOAM & Richese)");
    if (a.forces || a.special || a.from != kNone8 || a.to_reserves || a.advisors)
      return reject(RejectCode::IllegalChoice, "a No-Field shipment carries the token alone, from off-planet (forces, special, from, to_reserves and advisors stay unset)");
    if (faction_rules(me).sends_from_reserves)
      return reject(RejectCode::IllegalChoice, "the Fremen do not ship from off-planet (2.04.05): no No-Field shipment for them");
    if (a.to >= kNumLocations) return reject(RejectCode::Malformed, "unknown destination");
    if (auto r = check_destination(s, me, a.to, false)) return r;
    if (auto r = token->check_ship(s, me, a)) return r;
    const int cost = shipment_cost(s, me, a.to, 1);
    if (cost > fs.spice)
      return reject(RejectCode::NotEnoughSpice, "this No-Field shipment costs " + std::to_string(cost) + " spice (one force's) and you have " + with_ally(fs.spice, a.ally_pays));
    return std::nullopt;
  }
  const int n = a.forces + a.special;
  if (n == 0) return reject(RejectCode::Malformed, "a shipment must carry at least one force");
  if (a.advisors) return reject(RejectCode::IllegalChoice, "forces are always shipped as fighters (2.02.13); advisors only come with Spiritual Advisors");
  const ShipKind kind = ship_kind(me, a);
  if (kind == ShipKind::OffPlanet || kind == ShipKind::CrossShip) {
    if (a.from >= kNumLocations) return reject(RejectCode::Malformed, "unknown location to ship from");
    if (kind == ShipKind::OffPlanet && faction_rules(me).ship_off_planet == Ability::None)
      return reject(RejectCode::IllegalChoice, "only the Spacing Guild may ship forces from the board back to reserves (1.06.04, 2.06.05.03)");
    if (auto why = ability_blocked(s, me, kind == ShipKind::OffPlanet ? faction_rules(me).ship_off_planet
                                                                       : team_ability(s, me, &FactionRules::ship_cross)))
      return reject(RejectCode::IllegalChoice, *why);
    if (kind == ShipKind::CrossShip && !may_cross_ship(s, me))
      return reject(RejectCode::IllegalChoice, "only the Spacing Guild and its ally may ship from one territory to another (2.06.05.02, 2.06.10)");
    if (a.forces > s.forces_at(me, a.from, 0) || a.special > s.forces_at(me, a.from, 1))
      return reject(RejectCode::IllegalChoice, "you do not have those forces in " + loc_name(a.from));
    if (a.special && faction_rules(me).force_token.destroyed)  // the Richese No-Field moves, never ships, on the board
      return reject(RejectCode::IllegalChoice, "a No-Field token on the board is not shipped again; it moves as a force");
    if (s.in_storm(a.from))
      return reject(RejectCode::Storm, loc_name(a.from) + " is in the storm: no shipment out of a sector in storm (1.06.03.04)");
    if (kind == ShipKind::OffPlanet) {
      const int cost = off_planet_cost(n);
      if (cost > fs.spice)
        return reject(RejectCode::NotEnoughSpice, "shipping " + std::to_string(n) + " forces back to reserves costs " + std::to_string(cost) + " spice and you have " + with_ally(fs.spice, a.ally_pays));
      return std::nullopt;
    }
    if (a.to >= kNumLocations) return reject(RejectCode::Malformed, "unknown destination");
    if (data::territory_of(a.to) == data::territory_of(a.from))
      return reject(RejectCode::IllegalChoice, "a cross-shipment goes to another territory (2.06.05.02); use movement to reposition");
    if (auto r = check_destination(s, me, a.to, false)) return r;
    const int cost = shipment_cost(s, me, a.to, n);
    if (cost > fs.spice)
      return reject(RejectCode::NotEnoughSpice, "this shipment costs " + std::to_string(cost) + " spice and you have " + with_ally(fs.spice, a.ally_pays));
    return std::nullopt;
  }
  // From reserves.
  if (a.to >= kNumLocations) return reject(RejectCode::Malformed, "unknown destination");
  if (a.forces > fs.reserves[0] || a.special > fs.reserves[1])
    return reject(RejectCode::IllegalChoice, "you have only " + std::to_string(fs.reserves[0]) + " regular and " + std::to_string(fs.reserves[1]) + " special forces in reserve");
  if (kind == ShipKind::FremenSend) return faction_rules(me).check_send(s, a);  // 2.04.05
  if (auto r = check_destination(s, me, a.to, false)) return r;
  if (const auto h = faction_rules(me).check_shipment)  // 2.02.13
    if (auto r = h(s, a)) return r;
  const int cost = shipment_cost(s, me, a.to, n);
  if (cost > fs.spice)
    return reject(RejectCode::NotEnoughSpice, "this shipment costs " + std::to_string(cost) + " spice and you have " + with_ally(fs.spice, a.ally_pays));
  return std::nullopt;
}

// Candidate shipments (a superset of the legal ones, filtered by the caller).
// `full` adds the large variants (all forces, the most affordable). Calls
// emit(const action::Ship&) for each, in a fixed order, until it returns true;
// returns whether it stopped early.
template <class Emit>
bool visit_ship_candidates(const GameState& s, Faction me, bool full, Emit&& emit) {
  const auto& fs = s.of(me);
  action::Ship a;
  auto make = [&a](LocationId to, int reg, int spec) -> const action::Ship& {
    a.to = to;
    a.forces = static_cast<uint8_t>(reg);
    a.special = static_cast<uint8_t>(spec);
    return a;
  };
  if (fs.reserves[0] + fs.reserves[1] > 0) {
    for (int l = 0; l < kNumLocations; ++l) {
      const auto to = static_cast<LocationId>(l);
      if (emit(fs.reserves[0] ? make(to, 1, 0) : make(to, 0, 1))) return true;
      if (!full) continue;
      if (fs.reserves[0] + fs.reserves[1] > 1 && emit(make(to, fs.reserves[0], fs.reserves[1]))) return true;
      // The largest affordable shipment of regular forces, if the full one is not.
      if (!faction_rules(me).sends_from_reserves && fs.reserves[0] > 1) {
        int n = fs.reserves[0];
        while (n > 1 && shipment_cost(s, me, to, n) > fs.spice) --n;
        if (n > 1 && n < fs.reserves[0] && emit(make(to, n, 0))) return true;
      }
    }
  }
  if (const auto* token = shipping_token(s)) {  // a No-Field token instead of forces
    for (uint8_t v : kNoFieldValues) {
      action::Ship t;
      t.no_field = v;
      if (token->check_ship(s, me, t)) continue;
      for (int l = 0; l < kNumLocations; ++l) {
        t.to = static_cast<LocationId>(l);
        if (emit(static_cast<const action::Ship&>(t))) return true;
      }
    }
  }
  const bool cross = may_cross_ship(s, me), off = faction_rules(me).ship_off_planet != Ability::None;
  if (!cross && !off) return false;
  for (int l = 0; l < kNumLocations; ++l) {
    const auto from = static_cast<LocationId>(l);
    const int reg = s.forces_at(me, from, 0), spec = s.forces_at(me, from, 1);
    if (reg + spec == 0) continue;
    auto variants = [&](LocationId to, bool off_planet) {
      a.to = to;
      a.to_reserves = off_planet;
      a.from = from;
      a.forces = static_cast<uint8_t>(reg ? 1 : 0);
      a.special = static_cast<uint8_t>(reg ? 0 : 1);
      if (emit(static_cast<const action::Ship&>(a))) return true;
      if (full && reg + spec > 1) {
        a.forces = static_cast<uint8_t>(reg);
        a.special = static_cast<uint8_t>(spec);
        if (emit(static_cast<const action::Ship&>(a))) return true;
      }
      return false;
    };
    if (off && variants(kNone8, true)) return true;
    if (cross)
      for (int t = 0; t < kNumLocations; ++t)
        if (variants(static_cast<LocationId>(t), false)) return true;
  }
  return false;
}

void ship_candidates(const GameState& s, Faction me, bool full, std::vector<action::Ship>& out) {
  visit_ship_candidates(s, me, full, [&](const action::Ship& a) {
    out.push_back(a);
    return false;
  });
}

// Cheap tests for candidates check_ship surely rejects (each one of its
// rejections, without building the sentence): into the storm (1.06.03.04),
// beyond the spice behind the shield and the ally's allowance (1.06.03.01,
// 2.06.07, 1.10.02.06), outside the
// Fremen range (2.04.05). Keep in step with check_ship.
bool surely_rejected_ship(const GameState& s, Faction me, const action::Ship& a) {
  const int n = priced_forces(a);
  const int can_pay = s.of(me).spice + ally_allowance(s, me);  // 1.10.02.06: the ally may pay a share
  switch (ship_kind(me, a)) {
    case ShipKind::OffPlanet: return off_planet_cost(n) > can_pay;
    case ShipKind::FremenSend: return !data::in_fremen_shipping_range(data::territory_of(a.to));
    case ShipKind::CrossShip:
    case ShipKind::Normal:
      return s.in_storm(a.to) || shipment_cost(s, me, a.to, n) > can_pay;
  }
  return false;
}

// A candidate as it is legal: paid alone, or (1.10.02.06) with the ally
// paying the shortfall within its allowance. False when neither is legal.
bool legal_ship(const GameState& s, Faction me, action::Ship& a) {
  if (!check_ship(s, me, a)) return true;
  const int need = total_cost(s, me, a) - s.of(me).spice;
  if (need <= 0 || need > ally_allowance(s, me)) return false;
  a.ally_pays = static_cast<uint16_t>(need);
  return !check_ship(s, me, a);
}

bool any_ship(const GameState& s, Faction me) {
  return visit_ship_candidates(s, me, false, [&](const action::Ship& a) {
    action::Ship b = a;
    return !surely_rejected_ship(s, me, b) && legal_ship(s, me, b);
  });
}

// ---- movement ----------------------------------------------------------------

using ship::GroupType;
// What the moved group becomes (hook moved_group: 2.02.14 / 2.02.20).
GroupType moved_group(const GameState& s, Faction me, const action::Move& a) {
  const auto h = faction_rules(me).moved_group;
  return h ? h(s, a) : GroupType::Keep;
}

// Movement range in territories (1.06.05.03/.04): 1, or 3 with
// ornithopters; a group of special forces that do not fight (2.02.12) never
// uses ornithopters. The owners' answers to MovementRangeQuery change it
// (core/rules/owners.h: the faction's range, a skill's band, a card's bonus).
// `skill_bonus`: whether a leader skill's band may apply to this group
// (MovementRangeQuery::skill_bonus); `unused`: the range without that ability.
int move_range(const GameState& s, Faction me, bool group_has_advisors, bool skill_bonus = true, Ability unused = Ability::None) {
  if (group_has_advisors && !specials_fight(s, me))
    return modify(s, MovementRangeQuery{me, RangeBasis::PassiveGroup, skill_bonus, unused}, 1);
  const bool orn = s.rulings.is(RulingId::OrnithopterTiming, 0) ? has_ornithopters(s, me) : s.shipmove.ornithopters != 0;
  return modify(s, MovementRangeQuery{me, RangeBasis::Ordinary, skill_bonus, unused}, orn ? 3 : 1);
}

// Breadth-first search over territory pieces, one territory boundary per
// level: the number of territory boundaries crossed to reach `to` from the
// sources, or -1. Blocked pieces (storm 1.06.05.06, strongholds at the
// occupancy limit 1.06.05.09 other than the home territory) are never entered.
int path_length(const GameState& s, Faction me, const action::Move& a, bool storm, bool occupancy) {
  const TerritoryId home = data::territory_of(a.from[0].location);
  data::LocationSet blocked;
  if (storm && s.storm_sector >= 0 && s.storm_sector < data::kNumSectors) blocked = data::sector_pieces(s.storm_sector);
  if (occupancy)
    for (TerritoryId t : data::strongholds())
      if (t != home && at_occupancy_limit(s, me, t)) blocked |= data::territory_pieces(t);
  data::LocationSet seen, frontier;
  for (int i = 0; i < a.from.size(); ++i) frontier.set(a.from[i].location);
  for (int d = 0; frontier.any(); ++d) {
    // Close the level over moves within a territory (no boundary crossed).
    seen |= frontier;
    data::LocationSet grow = frontier;
    while (grow.any()) {
      data::LocationSet next;
      grow.for_each([&](LocationId u) { next |= data::same_territory_neighbours(u); });
      grow = next.minus(blocked).minus(seen);
      seen |= grow;
      frontier |= grow;
    }
    if (frontier.test(a.to)) return d;
    data::LocationSet next;
    frontier.for_each([&](LocationId u) { next |= data::other_territory_neighbours(u); });
    frontier = next.minus(blocked).minus(seen);
  }
  return -1;
}

// A group with the faction's token (a concealed No-Field marker: hook force_token.moved).
bool moves_token(Faction me, const action::Move& a) {
  if (!faction_rules(me).force_token.moved) return false;
  for (int i = 0; i < a.from.size(); ++i)
    if (a.from[i].special) return true;
  return false;
}
// Ruling planetologist_no_field = forces_only: the Planetologist's band is not for a group with the marker.
bool skill_moves_token(const GameState& s, Faction me, const action::Move& a) {
  return !s.rulings.is(RulingId::PlanetologistNoField, 1) || !moves_token(me, a);
}

// One group from one territory; `plus_one`: the Planetologist's +1 range may
// apply; `stance`: what the group becomes on arrival when it is one group of a
// gather (the whole movement's, moved_group of the gather), else its own.
std::optional<Rejection> check_one_move(const GameState& s, Faction me, const action::Move& a, bool plus_one,
                                        const GroupType* stance = nullptr) {
  if (a.from.size() == 0 || a.from.size() > kMaxPlacements) return reject(RejectCode::Malformed, "a movement names the forces it moves (1..12 placements)");
  if (a.to >= kNumLocations) return reject(RejectCode::Malformed, "unknown destination");
  int total = 0, advisors = 0;  // advisors: special forces that do not fight (2.02.12, hook specials_passive)
  const bool passive = !specials_fight(s, me);
  const TerritoryId from_t = a.from[0].location < kNumLocations ? data::territory_of(a.from[0].location) : 0;
  for (int i = 0; i < a.from.size(); ++i) {
    const auto& p = a.from[i];
    if (p.location >= kNumLocations) return reject(RejectCode::Malformed, "unknown location to move from");
    if (p.forces + p.special == 0) return reject(RejectCode::Malformed, "each placement moves at least one force");
    for (int j = 0; j < i; ++j)
      if (a.from[j].location == p.location) return reject(RejectCode::Malformed, "a location is named twice");
    if (data::territory_of(p.location) != from_t)
      return reject(RejectCode::IllegalChoice, "a movement takes one group from one territory (1.06.05)");
    if (p.location == a.to) return reject(RejectCode::IllegalChoice, "forces already in " + loc_name(a.to) + " cannot move there");
    if (p.forces > s.forces_at(me, p.location, 0) || p.special > s.forces_at(me, p.location, 1))
      return reject(RejectCode::IllegalChoice, "you do not have those forces in " + loc_name(p.location));
    if (s.in_storm(p.location))
      return reject(RejectCode::Storm, loc_name(p.location) + " is in the storm: no force may move out of it (1.06.05.06)");
    total += p.forces + p.special;
    if (passive) advisors += p.special;
  }
  if (s.in_storm(a.to)) return reject(RejectCode::Storm, loc_name(a.to) + " is in the storm: no force may move into it (1.06.05.06)");
  // 1.06.05: pieces of one territory move together only when not separated by the storm.
  if (a.from.size() > 1) {
    std::array<bool, kNumLocations> seen{};
    std::vector<LocationId> stack{a.from[0].location};
    seen[a.from[0].location] = true;
    while (!stack.empty()) {
      const LocationId u = stack.back();
      stack.pop_back();
      for (LocationId v : data::neighbours(u))
        if (!seen[v] && data::territory_of(v) == from_t && !s.in_storm(v)) {
          seen[v] = true;
          stack.push_back(v);
        }
    }
    for (int i = 1; i < a.from.size(); ++i)
      if (!seen[a.from[i].location])
        return reject(RejectCode::Storm, "forces in " + ter_name(from_t) + " separated by the storm cannot move as one group (1.06.05)");
  }
  const GroupType type = stance ? *stance : moved_group(s, me, a);
  const TerritoryId to_t = data::territory_of(a.to);
  if (to_t != from_t)  // a territory a faction's ability closes (CHOAM's Baliset)
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).move_blocked; h && s.has(static_cast<Faction>(fi)))
        if (auto why = h(s, me, to_t); !why.empty()) return reject(RejectCode::IllegalChoice, why);
  if (a.flip) {  // Move.flip: the faction's hook check_move_flip (2.02.16 Take Up Arms)
    const auto h = faction_rules(me).check_move_flip;
    if (!h) return reject(RejectCode::IllegalChoice, "only the Bene Gesserit (advanced) flip advisors to fighters as they move (2.02.16)");
    if (auto r = h(s, a, advisors, type)) return r;
  }
  const bool ends_as_advisors =
      passive && !a.flip && (type == GroupType::Advisors || (type == GroupType::Keep && advisors == total));
  const bool limited = !ends_as_advisors || advisors_limited(s);  // ruling advisor_occupancy; 2.02.16 fighters: the limit
  if (limited && to_t != from_t && at_occupancy_limit(s, me, to_t))
    return reject(RejectCode::Occupancy, ter_name(to_t) + " already holds two other factions' forces (occupancy limit, 1.06.05.09)");
  int range = move_range(s, me, advisors > 0, plus_one && skill_moves_token(s, me, a));
  if (auto r = ornithopter_check(s, me, a, advisors > 0, &range)) return r;  // the Ornithopter card (core/cards/ornithopter.cpp)
  const int d = path_length(s, me, a, true, limited);
  if (d >= 0 && d <= range) return std::nullopt;
  const int d_no_storm = path_length(s, me, a, false, limited);
  if (d_no_storm >= 0 && d_no_storm <= range)
    return reject(RejectCode::Storm, "the storm blocks every path from " + ter_name(from_t) + " to " + loc_name(a.to) + " within " + std::to_string(range) + " territories (1.06.05.06)");
  const int d_free = path_length(s, me, a, false, false);
  const auto& fr = faction_rules(me);  // 2.04.06 prevented or cancelled by a Karama
  if (fr.movement_ability != Ability::None && range < fr.movement_range && d >= 0 && d <= fr.movement_range)
    if (auto why = ability_blocked(s, me, fr.movement_ability)) return reject(RejectCode::IllegalChoice, *why);
  if (d_free >= 0 && d_free <= range)
    return reject(RejectCode::Occupancy, "strongholds at the occupancy limit block every path to " + loc_name(a.to) + " (1.06.05.09)");
  return reject(RejectCode::IllegalChoice, loc_name(a.to) + " is " + std::to_string(d_free) + " territories from " + ter_name(from_t) +
                                               "; you may move " + std::to_string(range) + " (1.06.05.03/.04)");
}

// The Planetologist's gather (core/cards/leader_skills.cpp): a Move whose
// placements lie in two territories is two groups to one destination in one
// movement; false when they lie in one territory. parts[0] holds the first
// placement's territory.
bool gather_parts(const action::Move& a, action::Move parts[2], int* territories) {
  *territories = 0;
  if (a.from.size() == 0 || a.from[0].location >= kNumLocations) return false;
  const TerritoryId first = data::territory_of(a.from[0].location);
  TerritoryId second = kNone8;
  parts[0] = parts[1] = a;
  parts[0].from.clear();
  parts[1].from.clear();
  *territories = 1;
  for (int i = 0; i < a.from.size(); ++i) {
    const auto& p = a.from[i];
    if (p.location >= kNumLocations) return false;
    const TerritoryId t = data::territory_of(p.location);
    if (t == first) {
      parts[0].from.push_back(p);
      continue;
    }
    if (second == kNone8) second = t;
    if (t != second) {
      *territories = 3;
      return true;
    }
    parts[1].from.push_back(p);
  }
  *territories = second == kNone8 ? 1 : 2;
  return second != kNone8;
}

// The gather (core/cards/leader_skills.cpp; the Planetologist contract in
// docs/cards/leader-skills.md): each group is checked as a movement of its
// own, with its ordinary range (ruling planetologist_exclusive = both: with
// the +1 too) and the Ornithopter card's mode (1: both groups up to three, one
// card movement; 2: the gather is one of the card's two movements). Advisors
// may come: each group with advisors moves as advisors do (2.02.12), and the
// stance on arrival is the whole movement's (2.02.14 / 2.02.20: one stance per
// territory); where it would be mixed (no Bene Gesserit group there and
// another faction present) the gather must take up arms (Move.flip, 2.02.16;
// under karama_windows = all_other_seats its Karama window opens before
// either group moves). Rulings planetologist_no_field, _ornithopter and
// _mixed_gather name the contract's provisional compositions.
std::optional<Rejection> check_move(const GameState& s, Faction me, const action::Move& a) {
  action::Move parts[2];
  int territories = 0;
  if (!gather_parts(a, parts, &territories)) return check_one_move(s, me, a, true);
  if (!planetologist_may_gather(s, me))
    return reject(RejectCode::IllegalChoice, "a movement takes one group from one territory (1.06.05); only the Planetologist gathers from two");
  if (territories > 2) return reject(RejectCode::IllegalChoice, "the Planetologist gathers forces from exactly two territories");
  if ((a.ornithopter || s.shipmove.orn_to != kNone8) && s.rulings.is(RulingId::PlanetologistOrnithopter, 1))
    return reject(RejectCode::IllegalChoice, "the Ornithopter card moves one group per movement: no gather with it (ruling planetologist_ornithopter)");
  if (!skill_moves_token(s, me, a))
    return reject(RejectCode::IllegalChoice, "a concealed marker is no origin of the Planetologist's gather (ruling planetologist_no_field)");
  const bool both = s.rulings.is(RulingId::PlanetologistExclusive, 1);
  const GroupType stance = moved_group(s, me, a);  // the whole movement's (apply_move's)
  int kinds[2] = {0, 0};  // forces arriving of each kind, before their stance on arrival
  for (auto& part : parts) {
    int advisors = 0;
    for (const auto& p : part.from) {
      kinds[0] += p.forces;
      kinds[1] += p.special;
      advisors += p.special;
    }
    if (specials_fight(s, me) || advisors == 0) part.flip = false;  // Move.flip concerns the groups with advisors
    if (auto r = check_one_move(s, me, part, both, &stance)) return r;
  }
  if (specials_fight(s, me) || kinds[0] == 0 || kinds[1] == 0) {
    if (a.flip && (specials_fight(s, me) || kinds[1] == 0))
      return reject(RejectCode::IllegalChoice, "the moving groups have no advisors to flip (2.02.16)");
    return std::nullopt;
  }
  // Fighters and advisors together: one stance on arrival (ruling planetologist_mixed_gather where it is not settled).
  if (stance == GroupType::Keep && s.rulings.is(RulingId::PlanetologistMixedGather, 1))
    return reject(RejectCode::IllegalChoice, "fighters and advisors gathered into " + ter_name(data::territory_of(a.to)) +
                                                 ", where another faction is and you have no forces: no stance settles it (ruling planetologist_mixed_gather)");
  if (!a.flip && stance == GroupType::Keep)
    return reject(RejectCode::IllegalChoice, "fighters and advisors gathered into " + ter_name(data::territory_of(a.to)) +
                                                 ", where another faction is and you have no forces, arrive as fighters: take up arms (flip, 2.02.16)");
  return std::nullopt;
}

// 3.01.11.01: does this (valid) move need the mover's movement ability
// (hook movement_ability: 2.04.06)? Only when the path is longer than the
// range without it, every other range rule counted (ornithopters 1.06.05.04,
// a skill's band: `plus_one` as check_one_move reads it). Ruling
// movement_ability_window = beyond_one (the engine before rules version 6):
// any move of two or more territories without ornithopters.
bool uses_movement_ability(const GameState& s, Faction me, const action::Move& a, bool plus_one = true) {
  const Ability ability = faction_rules(me).movement_ability;
  if (ability == Ability::None || a.from.size() == 0 || a.ornithopter == 1) return false;
  action::Move parts[2];
  int territories = 0;
  if (gather_parts(a, parts, &territories)) {  // the Planetologist's gather: either group
    const bool both = s.rulings.is(RulingId::PlanetologistExclusive, 1);
    return uses_movement_ability(s, me, parts[0], both) || uses_movement_ability(s, me, parts[1], both);
  }
  int advisors = 0;
  for (const auto& p : a.from) advisors += p.special;
  const bool band = plus_one && skill_moves_token(s, me, a) && s.rulings.is(RulingId::MovementAbilityWindow, 0);
  return path_length(s, me, a, true, true) > move_range(s, me, advisors > 0, band, ability);
}

// Groups a faction may move: each piece alone, and every piece of a
// territory together. Calls emit(const action::Move&) for each until it returns
// true; returns whether it stopped early.
template <class Emit>
bool visit_move_groups(const GameState& s, Faction me, Emit&& emit) {
  action::Move one, all;
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto& ter = data::territory(static_cast<TerritoryId>(t));
    all.from.clear();
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      const int reg = s.forces_at(me, l, 0), spec = s.forces_at(me, l, 1);
      if (reg + spec == 0 || s.in_storm(l)) continue;
      one.from = {Placement{l, static_cast<uint8_t>(reg), static_cast<uint8_t>(spec)}};
      if (emit(static_cast<const action::Move&>(one))) return true;
      all.from.push_back(one.from[0]);
    }
    if (all.from.size() > 1 && emit(static_cast<const action::Move&>(all))) return true;
  }
  // The Planetologist's gather (core/cards/leader_skills.cpp): the whole groups of two territories, among the four largest.
  if (!planetologist_may_gather(s, me)) return false;
  std::vector<std::pair<int, action::Move>> groups;
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto& ter = data::territory(static_cast<TerritoryId>(t));
    action::Move g;
    int n = 0;
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      const int reg = s.forces_at(me, l, 0), spec = s.forces_at(me, l, 1);  // advisors too (check_move)
      if (reg + spec == 0 || s.in_storm(l)) continue;
      g.from.push_back(Placement{l, static_cast<uint8_t>(reg), static_cast<uint8_t>(spec)});
      n += reg + spec;
    }
    if (n > 0) groups.push_back({n, g});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  if (groups.size() > 4) groups.resize(4);
  for (size_t i = 0; i < groups.size(); ++i)
    for (size_t j = i + 1; j < groups.size(); ++j) {
      action::Move both = groups[i].second;
      if (both.from.size() + groups[j].second.from.size() > kMaxPlacements) continue;
      for (const auto& p : groups[j].second.from) both.from.push_back(p);
      if (emit(static_cast<const action::Move&>(both))) return true;
    }
  return false;
}

// Candidate movements (a superset of the legal ones, filtered by the caller),
// in a fixed order; `full` adds whole groups. Same protocol as above.
template <class Emit>
bool visit_move_candidates(const GameState& s, Faction me, bool full, Emit&& emit) {
  // Destinations check_move rejects whatever the group are left out: in storm
  // (1.06.05.06) or farther than the widest range even on an empty board.
  const int normal = move_range(s, me, false);
  const bool card = ornithopter_usable(s, me);  // the Ornithopter card: mode 1 beyond the normal range, mode 2 within it
  const int widest = card ? std::max(normal, 4) : normal;
  action::Move a, one, trimmed;
  int territories = 0;
  return visit_move_groups(s, me, [&](const action::Move& g0) {
    const action::Move* gp = &g0;
    if (s.shipmove.orn_to != kNone8) {  // the second group: without the forces that arrived with the first
      trimmed = g0;
      trimmed.from.clear();
      for (const auto& q : g0.from) {
        Placement r = q;
        if (q.location == s.shipmove.orn_to) {
          r.forces = static_cast<uint8_t>(std::max(0, q.forces - s.shipmove.orn_arrived[0]));
          r.special = static_cast<uint8_t>(std::max(0, q.special - s.shipmove.orn_arrived[1]));
        }
        if (r.forces + r.special) trimmed.from.push_back(r);
      }
      if (trimmed.from.size() == 0) return false;
      gp = &trimmed;
    }
    const action::Move& g = *gp;
    if (!full && g.from.size() > 1) return false;
    a = g;
    one = g;
    const auto& p = g.from[0];
    one.from = {Placement{p.location, static_cast<uint8_t>(p.forces ? 1 : 0), static_cast<uint8_t>(p.forces ? 0 : 1)}};
    action::Move parts[2];
    const bool gather = gather_parts(g, parts, &territories);
    for (int l = 0; l < kNumLocations; ++l) {
      if (s.in_storm(static_cast<LocationId>(l))) continue;
      int nearest = 1000;  // a gather: its farther group's
      if (gather) {
        int n2[2] = {1000, 1000};
        for (int k = 0; k < 2; ++k)
          for (const auto& q : parts[k].from) n2[k] = std::min(n2[k], data::crossing_distance(q.location, static_cast<LocationId>(l)));
        nearest = std::max(n2[0], n2[1]);
      } else {
        for (const auto& q : g.from) nearest = std::min(nearest, data::crossing_distance(q.location, static_cast<LocationId>(l)));
      }
      if (nearest > (gather && !card ? normal : widest)) continue;
      a.to = one.to = static_cast<LocationId>(l);
      if (gather) {  // each group with its own range: every mode the card allows (no single force: its piece's own group has it)
        for (uint8_t mode = 0; mode < (card ? 3 : 1); ++mode) {
          a.ornithopter = mode;
          if (emit(static_cast<const action::Move&>(a))) return true;
        }
        continue;
      }
      const uint8_t modes[2] = {static_cast<uint8_t>(nearest <= normal ? 0 : 1), static_cast<uint8_t>(nearest <= normal ? 2 : 255)};
      for (int m = 0; m < (card ? 2 : 1); ++m) {
        if (modes[m] == 255 || (!card && modes[m] != 0)) continue;
        a.ornithopter = one.ornithopter = modes[m];
        if (full && emit(static_cast<const action::Move&>(a))) return true;
        // A single force from the first piece.
        if ((!full || p.forces + p.special > 1 || g.from.size() > 1) && emit(static_cast<const action::Move&>(one))) return true;
      }
    }
    return false;
  });
}

void move_candidates(const GameState& s, Faction me, bool full, std::vector<action::Move>& out) {
  visit_move_candidates(s, me, full, [&](const action::Move& a) {
    out.push_back(a);
    return false;
  });
}

bool any_move(const GameState& s, Faction me) {
  return visit_move_candidates(s, me, false, [&](const action::Move& a) { return !check_move(s, me, a); });
}

// ---- turn sequence --------------------------------------------------------------

void begin_turn(Ctx& c, Seat seat);
void advance(Ctx& c);

// Each seat's turn ends, and the phase (hook ship_turn_ends: 2.02.21).
void turn_ends(GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).ship_turn_ends; h && s.has(static_cast<Faction>(fi))) h(s);
}

// 1.06.07 / 1.10.02.07: forces sharing a territory (not the Polar Sink) with
// the ally's forces go to the tanks. Advisors coexist (2.02.12).
void ally_constraint(GameState& s, Faction me) {
  if (!has_ally(s, me)) return;
  const auto ally = static_cast<Faction>(s.of(me).ally);
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto tid = static_cast<TerritoryId>(t);
    if (tid == data::polar_sink_territory() || !occupies(s, ally, tid)) continue;
    const auto& ter = data::territory(tid);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      const int reg = s.forces_at(me, l, 0), spec = specials_fight(s, me) ? s.forces_at(me, l, 1) : 0;
      if (reg + spec) forces_to_tanks(s, me, l, reg, spec);
    }
  }
}

void end_turn(Ctx& c) {
  auto& s = c.s;
  const Seat seat = s.shipmove.current;
  s.shipmove.last_to = kNone8;
  ornithopter_turn_ends(s);  // an unused second group ends with the turn
  ally_constraint(s, s.faction_at(seat));
  turn_ends(s);
  s.shipmove.done |= bit(seat);
  advance(c);
}

void to_move_step(Ctx& c) {
  auto& s = c.s;
  s.step = kMove;
  s.waiting = bit(s.shipmove.current);
  if (!any_move(s, s.faction_at(s.shipmove.current))) end_turn(c);
}

void begin_turn(Ctx& c, Seat seat) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  card_turn_begins(s);  // Hajr, Karama shipment and cancellation end with the turn (cards.cpp)
  s.shipmove.last_to = kNone8;
  for (int fi = 0; fi < kNumFactions; ++fi)  // 1.14.05: the Guild's question is per turn
    if (const auto h = faction_rules(static_cast<Faction>(fi)).ship_turn_begins; h && s.has(static_cast<Faction>(fi))) h(s);
  s.shipmove.current = seat;
  s.shipmove.ornithopters = has_ornithopters(s, me) ? 1 : 0;
  s.step = kShip;
  s.waiting = bit(seat);
  if (!any_ship(s, me)) to_move_step(c);
}

void advance(Ctx& c) {
  auto& s = c.s;
  const auto order = order_from_first(s);
  // A seat a faction takes out of storm order (hook holds_ship_turn, 2.06.12).
  Seat held = kNoSeat;
  const FactionRules* holder = nullptr;
  for (int fi = 0; fi < kNumFactions && held == kNoSeat; ++fi) {
    const auto& r = faction_rules(static_cast<Faction>(fi));
    if (r.holds_ship_turn && s.has(static_cast<Faction>(fi))) {
      held = r.holds_ship_turn(s);
      holder = &r;
    }
  }
  // A Juice of Sapho (core/cards/juice_of_sapho.cpp): its player goes first,
  // before the Guild may step in, or last, after the Guild's held turn too.
  const Seat juice_first = juice_seat(s, kJuiceFirst), juice_last = juice_seat(s, kJuiceLast);
  if (juice_first != kNoSeat && s.shipmove.done == 0) {
    begin_turn(c, juice_first);
    return;
  }
  Seat next = kNoSeat;
  for (Seat seat : order)
    if (!has_bit(s.shipmove.done, seat) && seat != held && seat != juice_last) {
      next = seat;
      break;
    }
  if (next == kNoSeat && juice_last != kNoSeat && juice_last != held && !has_bit(s.shipmove.done, juice_last) &&
      (held == kNoSeat || has_bit(s.shipmove.done, held))) {
    begin_turn(c, juice_last);
    return;
  }
  if (held != kNoSeat && !has_bit(s.shipmove.done, held)) {
    if (next == kNoSeat)
      begin_turn(c, held);
    else if (!holder->before_ship_turn || !holder->before_ship_turn(c, next))
      begin_turn(c, next);
    return;
  }
  if (next == kNoSeat) {
    s.shipmove.current = kNoSeat;
    turn_ends(s);
    enter_phase(c, Phase::Battle);
    return;
  }
  begin_turn(c, next);
}

// ---- phase interface ----------------------------------------------------------

void enter(Ctx& c) {
  auto& s = c.s;
  clear_shipmove_scratch(s);
  for (auto& fs : s.f) fs.shipped = fs.moved = 0;
  // The owners' phase start (PhaseBegins, core/rules/owners.h): 3.01.11.02 of 2.06.12 (the Guild goes
  // in storm order), 2.01.07 Wormsign.
  raise(s, PhaseBegins{Phase::ShipmentMovement});
  // A faction asked before anyone ships (hook ship_phase_opens: 2.02.17).
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).ship_phase_opens; h && s.has(static_cast<Faction>(fi)) && h(s)) return;
  advance(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  switch (a.kind()) {
    case ActionKind::Ship:
    case ActionKind::Move:
    case ActionKind::SendSpiritualAdvisor:
    case ActionKind::GuildTiming:
    case ActionKind::Flip:
    case ActionKind::Pass: break;
    default:
      return reject(RejectCode::WrongPhase, "the Shipment and Movement phase takes Ship, Move, SendSpiritualAdvisor, GuildTiming, Flip or Pass");
  }
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "it is not this seat's turn to ship or move");
  const Faction me = s.faction_at(seat);
  const auto expect = [&](ActionKind k, const char* what) -> std::optional<Rejection> {
    if (a.kind() == k || a.kind() == ActionKind::Pass) return std::nullopt;
    return reject(RejectCode::WrongPhase, std::string("now ") + what);
  };
  if (const auto* st = faction_step(s)) return st->validate(s, seat, a);
  switch (s.step) {
    case kShip:
      if (auto r = expect(ActionKind::Ship, "ship (Ship) or pass the shipment (Pass)")) return r;
      return a.kind() == ActionKind::Pass ? std::nullopt : check_ship(s, me, a.as<action::Ship>());
    case kMove:
      if (auto r = expect(ActionKind::Move, "move (Move) or pass the movement (Pass)")) return r;
      return a.kind() == ActionKind::Pass ? std::nullopt : check_move(s, me, a.as<action::Move>());
  }
  return reject(RejectCode::WrongPhase, "no shipment or movement decision is pending");
}

// 1.10.02.06: the ally's share of the shipment goes where the shipper's
// payment goes (`to`), except that the Guild's own spice goes to the bank.
// What the ally's share of a shipment moved: `part` spice from the ally's
// shield, to the bank or to the shipment's payee (0 when nothing moved,
// e.g. the Guild keeping its own share under guild_ally_shipment_share).
struct AllyShare {
  int part = 0;
  bool to_bank = false;
};
AllyShare pay_ally_share(GameState& s, Faction me, const action::Ship& a, SpiceAccount to) {
  if (a.ally_pays == 0 || !has_ally(s, me)) return {};
  const auto ally = static_cast<Faction>(s.of(me).ally);
  auto& af = s.of(ally);
  const int part = std::min<int>({a.ally_pays, af.spice, af.permit_ship});
  if (part <= 0) return {};
  // The Guild paying its ally's shipment that pays the Guild: ruling guild_ally_shipment_share.
  const bool to_payer = to.holder == SpiceHolder::Faction && to.index == static_cast<uint8_t>(ally);
  if (to_payer && s.rulings.is(RulingId::GuildAllyShipmentShare, 0)) to = bank();
  af.permit_ship = static_cast<uint16_t>(af.permit_ship - part);
  if (to_payer && !s.rulings.is(RulingId::GuildAllyShipmentShare, 0)) return {};
  transfer_spice(s, shield(ally), to, part);
  return {part, to.holder == SpiceHolder::Bank};
}
// The shipper's own share (total apply: never more than it holds).
int own_share(const GameState& s, Faction me, const action::Ship& a, int cost) {
  return std::clamp<int>(cost - a.ally_pays, 0, s.of(me).spice);
}

void apply_ship(GameState& s, Faction me, const action::Ship& a) {
  auto& fs = s.of(me);
  const int n = priced_forces(a);
  const ShipKind kind = ship_kind(me, a);
  switch (kind) {
    case ShipKind::OffPlanet:
      pay_ally_share(s, me, a, bank());
      transfer_spice(s, shield(me), bank(), own_share(s, me, a, off_planet_cost(n)));  // 2.06.07
      move_forces(s, me, at(a.from), reserves_zone(), a.forces, a.special, ForceCause::OffPlanet);
      break;
    case ShipKind::CrossShip:
      // Ruling guild_cross_ship_payment: the ally's cross-shipment pays the Guild (2.06.04) or the bank.
    {
      const SpiceAccount to = shipment_payee(s, s.rulings.is(RulingId::GuildCrossShipPayment, 1) ? bank() : payee(s, me));
      pay_ally_share(s, me, a, to);
      transfer_spice(s, shield(me), to, own_share(s, me, a, shipment_cost(s, me, a.to, n)));
    }
      move_forces(s, me, at(a.from), at(a.to), a.forces, a.special, ForceCause::Shipment);
      break;
    case ShipKind::Normal:
    case ShipKind::FremenSend: {
      if (kind == ShipKind::Normal) {
        const SpiceAccount to = shipment_payee(s, payee(s, me));
        const AllyShare ally_part = pay_ally_share(s, me, a, to);
        const int cost = own_share(s, me, a, shipment_cost(s, me, a.to, n));
        transfer_spice(s, shield(me), to, cost);
        s.shipmove.last_paid_bank = to.holder == SpiceHolder::Bank ? 1 : 0;
        // 1.14.05: an off-planet shipment the Guild may still cancel.
        s.shipmove.last_to = a.to;
        s.shipmove.last_forces = a.forces;
        s.shipmove.last_special = a.special;
        s.shipmove.last_cost = static_cast<uint16_t>(cost);
        s.shipmove.last_ally_paid = static_cast<uint16_t>(ally_part.part);
        s.shipmove.last_ally_bank = ally_part.to_bank ? 1 : 0;
      }
      // The Smuggler's front band (core/cards/leader_skills.cpp): one more force, free, into an empty territory.
      const int smuggled = kind == ShipKind::Normal ? smuggler_extra_force(s, me, a.to, a.forces) : 0;
      if (smuggled) s.shipmove.last_forces = static_cast<uint8_t>(s.shipmove.last_forces + smuggled);  // 1.14.05 takes it back too
      move_forces(s, me, reserves_zone(), at(a.to), a.forces + smuggled, a.special, ForceCause::Shipment);
      if (kind == ShipKind::FremenSend) faction_rules(me).sent(s, a);  // 2.04.17
      if (a.no_field != kNone8) {  // the token arrives (hook force_token); 1.14.05 takes back what it became too
        const auto [reg, spec] = shipping_token(s)->ship(s, me, a);
        s.shipmove.last_forces = static_cast<uint8_t>(s.shipmove.last_forces + reg);
        s.shipmove.last_special = static_cast<uint8_t>(s.shipmove.last_special + spec);
      }
      break;
    }
  }
  fs.shipped = 1;
  // Ruling karama_automatic_use = next_occasion: any other faction's shipment is 2.06.04's occasion.
  if (const uint8_t guild = shipment_receiver(s);
      guild != kNoFaction && static_cast<uint8_t>(me) != guild && prevention_at_next_occasion(s))
    consume_prevention(s, static_cast<Faction>(guild), faction_rules(static_cast<Faction>(guild)).receives_shipment_payments);
}

void apply_move(GameState& s, Faction me, const action::Move& a) {
  if (const auto h = faction_rules(me).moving) h(s, a);  // 3.01.11.02 of 2.02.16
  const GroupType type = a.flip ? GroupType::Fighters : moved_group(s, me, a);  // 2.02.16
  const ArriveAs as = type == GroupType::Fighters   ? ArriveAs::Regular
                     : type == GroupType::Advisors ? ArriveAs::Special
                                                   : ArriveAs::Same;
  for (int i = 0; i < a.from.size(); ++i)
    move_forces(s, me, at(a.from[i].location), at(a.to), a.from[i].forces, a.from[i].special, ForceCause::Movement, as);
  if (const auto h = faction_rules(me).force_token.moved)  // the faction's token moves as a force (the No-Field)
    for (int i = 0; i < a.from.size(); ++i)
      if (a.from[i].special) h(s, a.from[i].location, a.to);
  s.of(me).moved = 1;
  s.shipmove.last_to = kNone8;  // 1.14.05: the shipment can no longer be cancelled
}

// The Sandmaster's front band for each group of the (valid) move `a`: its range is the
// movement's (the Ornithopter card's 3 included), at least the path it needs.
void sandmaster_collects(GameState& s, Faction me, const action::Move& a) {
  if (!skill_in_front(s, me, data::LeaderSkill::Sandmaster)) return;
  action::Move parts[2];
  int territories = 0;
  const bool gather = gather_parts(a, parts, &territories);
  for (int i = 0; i < (gather ? 2 : 1); ++i) {
    const action::Move& g = gather ? parts[i] : a;
    bool advisors = false;  // a group with advisors moves 1 (2.02.12)
    for (int k = 0; k < g.from.size(); ++k) advisors = advisors || (g.from[k].special && !specials_fight(s, me));
    int range = move_range(s, me, advisors, (!gather || s.rulings.is(RulingId::PlanetologistExclusive, 1)) && skill_moves_token(s, me, g));
    if (g.ornithopter == 1) range = std::max(range, 3);
    range = std::max(range, path_length(s, me, g, true, true));
    sandmaster_moved(s, me, data::territory_of(g.from[0].location), data::territory_of(g.to), range);
  }
}

bool from_off_planet(Faction me, const Action& a) {
  const auto* ship = a.get_if<action::Ship>();
  return ship && ship_kind(me, *ship) == ShipKind::Normal;
}

// The shipment recorded for 1.14.05, as its Ship action.
Action recorded_shipment(const GameState& s) {
  action::Ship a;
  a.to = s.shipmove.last_to;
  a.forces = s.shipmove.last_forces;
  a.special = s.shipmove.last_special;
  return a;
}

// What follows a shipment (or the pass): the factions' answers (hook
// answers_shipment: 2.02.15 intrusion, 2.02.05 spiritual advisors), then the movement step.
void after_shipment(Ctx& c, Faction me, const Action& a) {
  auto& s = c.s;
  const auto* ship = a.get_if<action::Ship>();
  const bool off_planet = from_off_planet(me, a);
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).answers_shipment; h && s.has(static_cast<Faction>(fi)) && h(s, me, ship, off_planet))
      return;
  to_move_step(c);
}

// 3.01.11.02: a shipment step is the use opportunity of every shipping
// ability (each faction's ship_* and storm_migration hooks) `me` may have.
void consume_shipping_preventions(GameState& s, Faction me) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& r = faction_rules(static_cast<Faction>(fi));
    for (Ability ab : {r.ship_half_price, r.ship_cross, r.ship_off_planet, r.storm_migration, r.force_token.ability})
      if (ab != Ability::None) consume_prevention(s, me, ab);
  }
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  if (const auto* st = faction_step(s)) {
    st->apply(c, seat, a);
    return;
  }
  switch (s.step) {
    case kShip: {
      // 3.01.11.01: a Karama may cancel the Guild's half price (2.06.06 / 2.06.09) as it is used (cards.cpp).
      const auto* ship = a.get_if<action::Ship>();
      if (ship && uses_half_price(s, me, *ship) &&
          karama_window(c, seat, team_ability(s, me, &FactionRules::ship_half_price), a))
        return;
      // The other shipping abilities marked ✷ (ruling karama_windows = all_other_seats), in Ability order.
      if (ship) {
        const ShipKind k = ship_kind(me, *ship);
        if (k == ShipKind::CrossShip && karama_window(c, seat, team_ability(s, me, &FactionRules::ship_cross), a)) return;
        if (k == ShipKind::OffPlanet && karama_window(c, seat, faction_rules(me).ship_off_planet, a)) return;
        if (k == ShipKind::FremenSend && s.in_storm(ship->to) && karama_window(c, seat, faction_rules(me).storm_migration, a))
          return;
        if (ship->no_field != kNone8 && karama_window(c, seat, shipping_token(s)->ability, a)) return;  // the No-Field shipment
      }
      if (ship) apply_ship(s, me, *ship);
      // 3.01.11.02: this shipment step was the use opportunity of the shipping abilities.
      consume_shipping_preventions(s, me);
      // A faction asked about the shipment first (hook shipment_made: 1.14.05 the Guild).
      if (ship)
        for (int fi = 0; fi < kNumFactions; ++fi)
          if (const auto h = faction_rules(static_cast<Faction>(fi)).shipment_made; h && s.has(static_cast<Faction>(fi)) && h(s, me, *ship))
            return;
      after_shipment(c, me, a);
      return;
    }
    case kMove: {
      // 3.01.11.01: a Karama may cancel the Fremen two-territory movement as it is used (cards.cpp;
      // the placements wait in GameState::pending_move_*).
      const auto* move = a.get_if<action::Move>();
      if (move && uses_movement_ability(s, me, *move) && karama_window(c, seat, faction_rules(me).movement_ability, a)) return;
      // ... and the ability the move itself uses (hook move_uses: 2.02.16 Take Up Arms).
      if (const auto h = faction_rules(me).move_uses; move && h)
        if (const Ability used = h(s, *move); used != Ability::None && karama_window(c, seat, used, a)) return;
      if (const Ability mv = faction_rules(me).movement_ability; mv != Ability::None)
        consume_prevention(s, me, mv);  // 3.01.11.02: this movement was its use opportunity
      if (move) {
        const uint8_t before_at_to[2] = {s.forces_at(me, move->to, 0), s.forces_at(me, move->to, 1)};
        sandmaster_collects(s, me, *move);  // Leader Skills (core/cards/leader_skills.cpp)
        apply_move(s, me, *move);
        ornithopter_moved(s, me, *move, before_at_to);  // the Ornithopter card's custody and second group
        for (int fi = 0; fi < kNumFactions; ++fi)  // hook answers_move: 2.02.15 intrusion
          if (const auto h = faction_rules(static_cast<Faction>(fi)).answers_move; h && s.has(static_cast<Faction>(fi)) && h(s, me, *move))
            return;
      }
      ship::after_move(c, move != nullptr);  // 3.01.09 Hajr: one more movement (cards.cpp), or the turn ends
      return;
    }
  }
}

// The Ship decision's range: the most forces from reserves one shipment to
// one of `destinations` may carry, paid by the shipper and the ally's
// allowance (1.06.03.01, 2.06.06, 1.10.02.06; the Fremen send for free).
int most_shippable(const GameState& s, Faction me, const std::vector<uint16_t>& destinations) {
  const auto& fs = s.of(me);
  const int reserves = fs.reserves[0] + fs.reserves[1];
  if (faction_rules(me).sends_from_reserves) return destinations.empty() ? 0 : reserves;
  const int can_pay = fs.spice + ally_allowance(s, me);
  int best = 0;
  for (const uint16_t to : destinations) {
    int n = reserves;
    while (n > best && shipment_cost(s, me, static_cast<LocationId>(to), n) > can_pay) --n;
    best = std::max(best, n);
  }
  return best;
}

// The Move decision's range: the largest group (1.06.05) that may move to
// one of `destinations`, the places a single force of some group may reach.
int largest_movable_group(const GameState& s, Faction me, const std::vector<uint16_t>& destinations) {
  std::vector<std::pair<int, action::Move>> groups;
  visit_move_groups(s, me, [&](const action::Move& g) {
    int n = 0;
    for (const auto& p : g.from) n += p.forces + p.special;
    groups.emplace_back(n, g);
    return false;
  });
  std::stable_sort(groups.begin(), groups.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (auto& [n, g] : groups)
    for (const uint16_t to : destinations) {
      g.to = static_cast<LocationId>(to);
      if (!check_move(s, me, g)) return n;
    }
  return 0;
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Faction me = s.faction_at(seat);
  if (const auto* st = faction_step(s)) {
    st->decisions(s, seat, out);
    return;
  }
  switch (s.step) {
    case kShip: {
      std::vector<action::Ship> c;
      ship_candidates(s, me, false, c);
      Decision d{ActionKind::Ship, "", 1, s.of(me).reserves[0] + s.of(me).reserves[1], {}};
      if (faction_rules(me).sends_from_reserves)  // 2.04.05
        d.prompt = "Send forces from reserves for free to The Great Flat or a territory within two of it";
      else
        d.prompt = "Ship forces from reserves: 1 spice per force into a stronghold, 2 elsewhere";
      if (half_price_usable(s, me)) {
        d.prompt += " (half price)";
        d.topic = Topic::HalfPriceShipment;
      }
      if (may_cross_ship(s, me)) d.prompt += "; or cross-ship from one territory to another";
      if (faction_rules(me).ship_off_planet != Ability::None)  // 2.06.05.03
        d.prompt += "; or ship from the board back to reserves (1 spice per 2 forces)";
      if (ally_allowance(s, me) > 0) d.prompt += "; your ally may pay up to " + std::to_string(ally_allowance(s, me)) + " of the cost (1.10.02.06)";
      for (auto& a : c)
        if (a.to != kNone8 && !surely_rejected_ship(s, me, a) && legal_ship(s, me, a) &&
            std::find(d.options.begin(), d.options.end(), a.to) == d.options.end())
          d.options.push_back(a.to);
      std::sort(d.options.begin(), d.options.end());
      d.max = most_shippable(s, me, d.options);
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Do not ship this turn", 0, 0, {}});
      break;
    }
    case kMove: {
      std::vector<action::Move> c;
      move_candidates(s, me, false, c);
      Decision d{ActionKind::Move, "Move one group from one territory (range " + std::to_string(move_range(s, me, false)) + ")" +
                                       (planetologist_may_gather(s, me) ? ", or, the Planetologist's gather, the groups of two territories to one destination" : ""),
                 1, 0, {}};
      if (const auto h = faction_rules(me).move_prompt) d.prompt += h(s);  // 2.02.16
      for (const auto& a : c)
        if (!check_move(s, me, a) && std::find(d.options.begin(), d.options.end(), a.to) == d.options.end()) d.options.push_back(a.to);
      std::sort(d.options.begin(), d.options.end());
      d.max = largest_movable_group(s, me, d.options);
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Do not move this turn", 0, 0, {}});
      break;
    }
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Faction me = s.faction_at(seat);
  if (const auto* st = faction_step(s)) {
    st->legal(s, seat, out);
    out.push_back(action::Pass{});
    return;
  }
  switch (s.step) {
    case kShip: {
      std::vector<action::Ship> c;
      ship_candidates(s, me, true, c);
      for (auto& a : c)
        if (!surely_rejected_ship(s, me, a) && legal_ship(s, me, a)) out.push_back(a);
      break;
    }
    case kMove: {
      std::vector<action::Move> c;
      move_candidates(s, me, true, c);
      std::vector<action::Move> ok, gathers;  // gathers: the illegal ones, legal perhaps with a flip
      action::Move parts[2];
      int territories = 0;
      for (const auto& a : c)
        if (!check_move(s, me, a))
          ok.push_back(a);
        else if (gather_parts(a, parts, &territories))
          gathers.push_back(a);
      if (const auto h = faction_rules(me).move_variants) {  // 2.02.16: the legal moves' flips, then the gathers'
        const size_t n = ok.size();
        ok.insert(ok.end(), gathers.begin(), gathers.end());
        h(s, ok);
        ok.erase(ok.begin() + static_cast<std::ptrdiff_t>(n), ok.begin() + static_cast<std::ptrdiff_t>(n + gathers.size()));
      }
      out.insert(out.end(), ok.begin(), ok.end());
      break;
    }
  }
  action::Pass pass;
  out.push_back(pass);
}

}  // namespace

void move_reach(const GameState& s, Seat seat, std::vector<uint16_t>& out) {
  if (seat < 0 || seat >= s.num_seats || s.phase != Phase::ShipmentMovement || window_open(s) || !has_bit(s.waiting, seat) ||
      s.step != kMove)
    return;
  const Faction me = s.faction_at(seat);
  // legal() lists, per single piece, its whole group and one force of it to
  // each candidate destination; whole territories and flips add no other
  // origin and destination (a territory's single force is its first
  // piece's, a flip repeats a legal move). One legal move per pair is enough.
  const int widest = move_range(s, me, false);
  visit_move_groups(s, me, [&](const action::Move& g) {
    if (g.from.size() != 1) return false;
    const auto& p = g.from[0];
    action::Move all = g, one = g;
    one.from[0] = Placement{p.location, static_cast<uint8_t>(p.forces ? 1 : 0), static_cast<uint8_t>(p.forces ? 0 : 1)};
    for (int l = 0; l < kNumLocations; ++l) {
      const auto to = static_cast<LocationId>(l);
      if (s.in_storm(to) || data::crossing_distance(p.location, to) > widest) continue;
      all.to = one.to = to;
      if (!check_move(s, me, all) || (p.forces + p.special > 1 && !check_move(s, me, one)))
        out.push_back(static_cast<uint16_t>(p.location << 8 | to));
    }
    return false;
  });
}

namespace ship {
// The phase's steps for the factions' hooks (core/rules/shipment_movement.h).
void begin_turn(Ctx& c, Seat seat) { rules::begin_turn(c, seat); }
void advance(Ctx& c) { rules::advance(c); }
void to_move_step(Ctx& c) { rules::to_move_step(c); }
void after_move(Ctx& c, bool moved) {
  // The Ornithopter's second group (core/cards/ornithopter.cpp), then 3.01.09 Hajr's one more movement (cards.cpp):
  // under ruling ornithopter_hajr = any_move both may be pending, and the second group does not use up Hajr's.
  if (moved && (ornithopter_second_group(c.s) || take_hajr_move(c.s)))
    rules::to_move_step(c);
  else
    end_turn(c);
}
void shipment_stands(Ctx& c) { after_shipment(c, c.s.faction_at(c.s.shipmove.current), recorded_shipment(c.s)); }
bool has_options(const GameState& s, Faction f) { return any_ship(s, f) || any_move(s, f); }
SpiceAccount payee(const GameState& s, Faction shipper) { return rules::payee(s, shipper); }
int kind_in_territory(const GameState& s, Faction f, TerritoryId t, int kind) { return rules::kind_in_territory(s, f, t, kind); }
std::optional<Rejection> check_move(const GameState& s, Faction me, const action::Move& a) { return rules::check_move(s, me, a); }
bool at_occupancy_limit(const GameState& s, Faction f, TerritoryId t) { return rules::at_occupancy_limit(s, f, t); }
std::optional<Rejection> check_token_cancel(const GameState& s) {
  const auto* token = shipping_token(s);
  return token && token->check_cancel ? token->check_cancel(s) : std::nullopt;
}
void token_shipment_cancelled(GameState& s) {
  if (const auto* token = shipping_token(s); token && token->cancelled) token->cancelled(s);
}
}  // namespace ship

namespace {
// 1.00.05: the phase's ability steps.
const char* ability_in_use(const GameState& s) {
  const auto* st = faction_step(s);  // the phase's own steps are no ability's
  return st && st->in_use ? st->in_use(s) : nullptr;
}
}  // namespace

const PhaseRules& shipment_movement_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal, ability_in_use};
  return r;
}

std::optional<Rejection> check_ship_destination(const GameState& s, Faction me, LocationId to, bool storm_ok) {
  return check_destination(s, me, to, storm_ok);
}

}  // namespace mentat::rules
