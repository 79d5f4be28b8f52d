// 1.06 Shipment and Movement. In storm order (1.06.01) the current seat
// ships once or passes (1.06.02, 1.06.03), then moves once or passes
// (1.06.05); then the next seat. Sub-steps live in GameState::step:
//
//   Ship        the current seat: Ship or Pass
//   Advisor     the Bene Gesserit answer another faction's shipment from
//               off-planet (2.02.05 / 2.02.11): SendSpiritualAdvisor or Pass
//   Move        the current seat: Move or Pass
//   GuildTiming advanced Guild (2.06.12): before each other seat's turn the
//               Guild says whether it takes its own turn now (GuildTiming
//               now=true) or waits (now=false or Pass); when every other
//               seat is done the Guild takes its turn.
//   Wartime     advanced Bene Gesserit, once at the start of the phase
//               (2.02.17): Flip{a location} flips all advisors of that
//               territory to fighters; repeat, then Pass.
//   Intrusion   advanced Bene Gesserit, right after a non-allied faction's
//               forces entered a territory where they have fighters
//               (2.02.15): Flip{that territory} turns them into advisors, or
//               Pass; then the interrupted turn resumes.
//
// A step with no legal choice but Pass is skipped. At the end of each seat's
// turn 1.06.07 (forces with the ally go to the tanks) and, advanced, 2.02.21
// (advisors alone flip to fighters) apply.
//
// Shipment: 1.06.03.01 cost, 1.06.03.02 bank / 2.06.04 the Guild, 1.06.03.04
// storm, 1.06.03.05 occupancy; Fremen sending 2.04.03/2.04.05 (and 2.04.17
// storm migration, advanced; RulingId::FremenMigrationLoss); Guild 2.06.05.02
// cross-ship, 2.06.05.03 and 2.06.07 off-planet, 2.06.06 half price; Guild
// ally 2.06.09 and 2.06.10 (RulingId::GuildCrossShipPayment: who receives
// the ally's cross-ship payment); Bene Gesserit 2.02.13 fighters only.
// Advisors and the occupancy limit: RulingId::AdvisorOccupancy (2.02.12 vs
// 1.06.05.09), RulingId::WartimeOccupancy (2.02.17 vs 2.02.16).
// Movement: 1.06.05 one group from one territory, 1.06.05.03/.04 range and
// ornithopters (RulingId::OrnithopterTiming), 2.04.06 Fremen 2, 1.06.05.06/
// .07 storm, 1.06.05.09 occupancy, 1.06.06 Polar Sink, 1.06.08 repositioning,
// Bene Gesserit advanced 2.02.14 enlistment and 2.02.20 adaptive force.
//
// Cards (core/rules/cards.cpp): 3.01.09 Hajr (ShipMoveState::hajr, one more
// Move), 3.01.11.03 Karama shipment at Guild rates to the bank
// (karama_shipment), 3.01.11.01/1.00.04 a KaramaCancel window before the
// Guild's half price is used (karama_window; the redo goes at full price).
// 1.14.05 the Guild's Karama power cancels a shipment from reserves just
// made (ShipMoveState::last_*): the forces go back to reserves and the spice
// paid comes back (from the bank or the Guild; an ally's share to the ally). Under ruling karama_windows =
// all_other_seats the Guild is asked right after each other faction's
// shipment from reserves whenever, by public information, it could use the
// power (step GuildKarama: PlayCard or Pass); under none it plays it on its
// own initiative at the shipper's movement step, before the shipper moves.
// Ruling guild_karama_reship: the shipper ships again, or not.
// 3.01.11.02 prevented abilities (GameState::prevented, cards.cpp) are
// rejected with their reason and consumed at their next use opportunity.
// The automatic ones: a prevented 2.06.04 sends the next shipment payment
// the Guild would receive to the bank (ShipMoveState::last_paid_bank keeps
// 1.14.05's refund right); a prevented 2.01.07 skips the next look.
// 3.01.11.01: a Fremen move that needs two territories (2.04.06, not with
// ornithopters) opens a KaramaCancel window (karama_window); cancelled, the
// Fremen retake the movement with a range of one. So do the Bene Gesserit's
// flips (ruling karama_windows = all_other_seats): a move with Take Up Arms
// (2.02.16; cancelled, the move is retaken without the flip), each Wartime
// flip (2.02.17) and the Intrusion flip (2.02.15; cancelled, only Pass is
// left for that step).
// 1.10.02.06 allies pay for each other's shipments: Ship.ally_pays (Action::
// amount2) of the cost comes from the ally's shield, within the allowance
// the ally set with AllyPermission (core/rules/deals.cpp; each payment uses
// it up), and goes where the shipper's own payment goes (bank, the Guild
// 2.06.04, ruling guild_cross_ship_payment). The Guild paying for its ally's
// shipment that pays the Guild: ruling guild_ally_shipment_share, its share
// goes to the bank (as for the Guild's own shipments) or stays with the Guild.
// 2.02.16 Take Up Arms (advanced): Move.flip (Action::flag) turns advisors
// moving into a territory occupied by another faction, where the Bene
// Gesserit have no forces, into fighters; the occupancy limit then applies as
// to fighters (whatever ruling advisor_occupancy says), and so does 2.02.18
// (no flip with the ally present); a prevented Take Up Arms (3.01.11.02) is
// rejected and used up by the next move that could have flipped. A
// prevented 2.06.12: the next phase has no GuildTiming step (the Guild goes
// in storm order, ShipMoveState::guild_timing_off). 2.01.07 Wormsign (advanced): when the
// phase begins, before anyone ships, the Atreides look at the top card of the
// spice deck (GameState::wormsign_*, shown in the Atreides' view only,
// inspect/view.cpp).
// Not implemented: cross-shipping from several sectors of one territory at
// once (Ship has a single `from`).
#include <algorithm>
#include <array>

#include "core/factions/faction_rules.h"
#include "core/rules/move_reach.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

using data::kNumLocations;

enum Step : uint8_t { kShip = 0, kAdvisor = 1, kMove = 2, kGuildTiming = 3, kWartime = 4, kIntrusion = 5, kGuildKarama = 6 };
constexpr uint8_t kResumeEndTurn = 0xFE;  // ShipMoveState::resume after a movement

// ---- small helpers -----------------------------------------------------------

bool has_ally(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  return a < kNumFactions && s.f[a].in_game;
}
bool allied_with(const GameState& s, Faction f, Faction g) { return has_ally(s, f) && s.of(f).ally == static_cast<uint8_t>(g); }
bool bg_advanced(const GameState& s, Faction f) { return f == Faction::BeneGesserit && s.advanced; }
bool is_stronghold_loc(LocationId l) { return data::territory(data::territory_of(l)).stronghold; }
std::string loc_name(LocationId l) { return std::string(data::location(l).name); }
std::string ter_name(TerritoryId t) { return std::string(data::territory(t).name); }

bool guild_timing_applies(const GameState& s) {
  return s.advanced && s.has(Faction::Guild) && !s.guild.shipmove.timing_off;  // 3.01.11.02
}
// 3.01.11.01: a Karama cancelled the Guild's turn out of order (the Guild is asked again, Pass only).
bool guild_timing_cancelled(const GameState& s) {
  return s.cancelled_ability == static_cast<uint8_t>(Ability::GuildTiming) && s.cancelled_faction == static_cast<uint8_t>(Faction::Guild);
}

// Fighters (not advanced Bene Gesserit advisors) at a location.
int fighters_at(const GameState& s, Faction f, LocationId l) {
  return bg_advanced(s, f) ? s.forces_at(f, l, 0) : s.forces_in_location(f, l);
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

// Hooks ship_half_price / ship_cross (2.06.06 / 2.06.09, 2.06.05.02 / 2.06.10).
bool guild_rates(const GameState& s, Faction f) {
  const Ability a = team_ability(s, f, &FactionRules::ship_half_price);
  return a != Ability::None && !ability_cancelled(s, f, a);  // 3.01.11.01 / 1.00.04 (cards.cpp)
}
bool may_cross_ship(const GameState& s, Faction f) {
  const Ability a = team_ability(s, f, &FactionRules::ship_cross);
  return a != Ability::None && !ability_cancelled(s, f, a);  // 3.01.11.02 (cards.cpp)
}

int shipment_cost(const GameState& s, Faction f, LocationId to, int n) {
  int cost = n * (is_stronghold_loc(to) ? 1 : 2);  // 1.06.03.01
  if (guild_rates(s, f) || karama_shipment(s, f)) cost = (cost + 1) / 2;  // 2.06.06 / 3.01.11.03     // 2.06.06: half, rounded up
  return cost;
}
// 3.01.11.01: a shipment that the Guild's half price (2.06.06 / 2.06.09) makes cheaper.
bool uses_half_price(const GameState& s, Faction me, const action::Ship& a) {
  if (!guild_rates(s, me) || karama_shipment(s, me) || a.to_reserves || faction_rules(me).sends_from_reserves || a.to >= kNumLocations)
    return false;
  const int full = (a.forces + a.special) * (is_stronghold_loc(a.to) ? 1 : 2);
  return shipment_cost(s, me, a.to, a.forces + a.special) < full;
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
  const int n = a.forces + a.special;
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
  if (bg_advanced(s, me) && kind_in_territory(s, me, data::territory_of(a.to), 1) > 0)
    return reject(RejectCode::IllegalChoice, "fighters may not be shipped to a territory where you have advisors (2.02.13)");
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
  const int n = a.forces + a.special;
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

// 2.02.14 / 2.02.20 (advanced Bene Gesserit): what the moved group becomes.
enum class GroupType { Keep, Fighters, Advisors };
GroupType bg_group_type(const GameState& s, Faction me, const action::Move& a) {
  if (!bg_advanced(s, me)) return GroupType::Keep;
  const TerritoryId t = data::territory_of(a.to);
  int fighters = kind_in_territory(s, me, t, 0), advisors = kind_in_territory(s, me, t, 1);
  if (data::territory_of(a.from[0].location) == t) {  // repositioning: the group itself does not count
    for (int i = 0; i < a.from.size(); ++i) {
      fighters -= a.from[i].forces;
      advisors -= a.from[i].special;
    }
  }
  if (fighters > 0) return GroupType::Fighters;  // 2.02.20
  if (advisors > 0) return GroupType::Advisors;  // 2.02.20
  bool occupied = false;
  for (int o = 0; o < kNumFactions; ++o)
    if (o != static_cast<int>(me) && s.f[o].in_game && s.forces_in_territory(static_cast<Faction>(o), t) > 0) occupied = true;
  if (!occupied) return GroupType::Fighters;  // 2.02.14 enlistment
  return GroupType::Keep;
}

// Movement range in territories (1.06.05.03/.04, 2.04.06).
int move_range(const GameState& s, Faction me, bool group_has_advisors) {
  if (bg_advanced(s, me) && group_has_advisors) return 1;  // 2.02.12: advisors never use ornithopters
  const auto& fr = faction_rules(me);  // 2.04.06 (3.01.11.02: not when prevented)
  int r = fr.movement_ability != Ability::None && !ability_cancelled(s, me, fr.movement_ability) ? fr.movement_range : 1;
  const bool orn = s.rulings.is(RulingId::OrnithopterTiming, 0) ? has_ornithopters(s, me) : s.shipmove.ornithopters != 0;
  if (orn) r = std::max(r, 3);
  return r;
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

std::optional<Rejection> check_move(const GameState& s, Faction me, const action::Move& a) {
  if (a.from.size() == 0 || a.from.size() > kMaxPlacements) return reject(RejectCode::Malformed, "a movement names the forces it moves (1..12 placements)");
  if (a.to >= kNumLocations) return reject(RejectCode::Malformed, "unknown destination");
  int total = 0, advisors = 0;
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
    if (bg_advanced(s, me)) advisors += p.special;
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
  const GroupType type = bg_group_type(s, me, a);
  const TerritoryId to_t = data::territory_of(a.to);
  if (a.flip) {  // 2.02.16 Take Up Arms
    if (!bg_advanced(s, me))
      return reject(RejectCode::IllegalChoice, "only the Bene Gesserit (advanced) flip advisors to fighters as they move (2.02.16)");
    if (auto why = ability_blocked(s, me, Ability::BgTakeUpArms)) return reject(RejectCode::IllegalChoice, *why);
    if (advisors == 0) return reject(RejectCode::IllegalChoice, "the moving group has no advisors to flip (2.02.16)");
    if (to_t == from_t) return reject(RejectCode::IllegalChoice, "Take Up Arms needs a move into another territory (2.02.16)");
    if (type == GroupType::Advisors)
      return reject(RejectCode::IllegalChoice, "you already have advisors in " + ter_name(to_t) + ": the group joins them as advisors (2.02.16, 2.02.20)");
    if (type == GroupType::Fighters)
      return reject(RejectCode::IllegalChoice, "the group becomes fighters in " + ter_name(to_t) + " anyway (2.02.14 / 2.02.20): no flip to ask for");
    if (has_ally(s, me) && s.forces_in_territory(static_cast<Faction>(s.of(me).ally), to_t) > 0)
      return reject(RejectCode::IllegalChoice, "advisors cannot flip to fighters with your ally present (2.02.18)");
  }
  const bool ends_as_advisors =
      bg_advanced(s, me) && !a.flip && (type == GroupType::Advisors || (type == GroupType::Keep && advisors == total));
  const bool limited = !ends_as_advisors || advisors_limited(s);  // ruling advisor_occupancy; 2.02.16 fighters: the limit
  if (limited && to_t != from_t && at_occupancy_limit(s, me, to_t))
    return reject(RejectCode::Occupancy, ter_name(to_t) + " already holds two other factions' forces (occupancy limit, 1.06.05.09)");
  const int range = move_range(s, me, advisors > 0);
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

// 2.04.06: does this (valid) Fremen move need the two-territory movement?
// Not when ornithopters give them three (1.06.05.03/.04).
bool uses_fremen_movement(const GameState& s, Faction me, const action::Move& a) {
  if (faction_rules(me).movement_ability == Ability::None || a.from.size() == 0) return false;
  const bool orn = s.rulings.is(RulingId::OrnithopterTiming, 0) ? has_ornithopters(s, me) : s.shipmove.ornithopters != 0;
  return !orn && path_length(s, me, a, true, true) > 1;
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
  return false;
}

// Candidate movements (a superset of the legal ones, filtered by the caller),
// in a fixed order; `full` adds whole groups. Same protocol as above.
template <class Emit>
bool visit_move_candidates(const GameState& s, Faction me, bool full, Emit&& emit) {
  // Destinations check_move rejects whatever the group are left out: in storm
  // (1.06.05.06) or farther than the widest range even on an empty board.
  const int widest = move_range(s, me, false);
  action::Move a, one;
  return visit_move_groups(s, me, [&](const action::Move& g) {
    if (!full && g.from.size() > 1) return false;
    a = g;
    one = g;
    const auto& p = g.from[0];
    one.from = {Placement{p.location, static_cast<uint8_t>(p.forces ? 1 : 0), static_cast<uint8_t>(p.forces ? 0 : 1)}};
    for (int l = 0; l < kNumLocations; ++l) {
      if (s.in_storm(static_cast<LocationId>(l))) continue;
      int nearest = 1000;
      for (const auto& q : g.from) nearest = std::min(nearest, data::crossing_distance(q.location, static_cast<LocationId>(l)));
      if (nearest > widest) continue;
      a.to = one.to = static_cast<LocationId>(l);
      if (full && emit(static_cast<const action::Move&>(a))) return true;
      // A single force from the first piece.
      if ((!full || p.forces + p.special > 1 || g.from.size() > 1) && emit(static_cast<const action::Move&>(one))) return true;
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

// 2.02.16: each candidate that moves advisors may also take up arms.
void add_flip_candidates(const GameState& s, Faction me, std::vector<action::Move>& c) {
  if (!bg_advanced(s, me)) return;
  const size_t n = c.size();
  for (size_t i = 0; i < n; ++i) {
    action::Move a = c[i];
    a.flip = true;
    if (!check_move(s, me, a)) c.push_back(a);
  }
}

bool any_move(const GameState& s, Faction me) {
  return visit_move_candidates(s, me, false, [&](const action::Move& a) { return !check_move(s, me, a); });
}

// ---- Bene Gesserit spiritual advisors ------------------------------------------

bool bg_may_send_advisor_to(const GameState& s, LocationId to) {
  // 2.02.11: an advisor to the shipment's location when no fighters are in that territory
  // (and, ruling advisor_occupancy=limit_applies, not into a stronghold at the limit).
  return s.advanced && to == s.bene_gesserit.shipmove.advisor_to && to != data::polar_sink() &&
         kind_in_territory(s, Faction::BeneGesserit, data::territory_of(to), 0) == 0 &&
         !(advisors_limited(s) && at_occupancy_limit(s, Faction::BeneGesserit, data::territory_of(to)));
}

// 2.02.17 WARTIME (with 2.02.18 peacetime, 2.02.19 stormed in, and the
// occupancy limit): why the advisors of territory t cannot flip to fighters.
std::optional<std::string> wartime_blocked(const GameState& s, TerritoryId t) {
  const Faction bg = Faction::BeneGesserit;
  const auto& ter = data::territory(t);
  int flippable = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto l = static_cast<LocationId>(ter.first_location + i);
    if (!s.in_storm(l)) flippable += s.forces_at(bg, l, 1);
  }
  if (kind_in_territory(s, bg, t, 1) == 0) return "you have no advisors in " + ter_name(t);
  if (flippable == 0) return "advisors under storm cannot flip to fighters (2.02.19)";
  if (has_ally(s, bg) && s.forces_in_territory(static_cast<Faction>(s.of(bg).ally), t) > 0)
    return "advisors cannot flip to fighters with your ally present (2.02.18)";
  if (s.rulings.is(RulingId::WartimeOccupancy, 0) && at_occupancy_limit(s, bg, t))  // ruling wartime_occupancy
    return ter_name(t) + " already holds two other factions' forces (occupancy limit)";
  return std::nullopt;
}

std::vector<LocationId> wartime_options(const GameState& s) {
  std::vector<LocationId> out;
  if (!s.advanced || !s.has(Faction::BeneGesserit)) return out;
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto tid = static_cast<TerritoryId>(t);
    if (kind_in_territory(s, Faction::BeneGesserit, tid, 1) == 0) continue;  // no advisors: wartime_blocked's first case
    if (wartime_blocked(s, tid)) continue;
    const auto& ter = data::territory(tid);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      if (s.forces_at(Faction::BeneGesserit, l, 1) && !s.in_storm(l)) {
        out.push_back(l);
        break;
      }
    }
  }
  return out;
}

void flip_territory(GameState& s, TerritoryId t, int from_kind, bool skip_storm) {
  const Faction bg = Faction::BeneGesserit;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto l = static_cast<LocationId>(ter.first_location + i);
    if (skip_storm && s.in_storm(l)) continue;
    const int to_kind = 1 - from_kind;
    s.forces_at(bg, l, to_kind) = static_cast<uint8_t>(s.forces_at(bg, l, to_kind) + s.forces_at(bg, l, from_kind));
    s.forces_at(bg, l, from_kind) = 0;
  }
}

// 2.02.15 INTRUSION: a non-allied faction's forces entered `to` where the
// Bene Gesserit have fighters.
bool intrusion(const GameState& s, Faction mover, LocationId to) {
  if (!s.advanced || !s.has(Faction::BeneGesserit) || mover == Faction::BeneGesserit) return false;
  if (allied_with(s, mover, Faction::BeneGesserit)) return false;
  return kind_in_territory(s, Faction::BeneGesserit, data::territory_of(to), 0) > 0;
}

// ---- turn sequence --------------------------------------------------------------

void begin_turn(Ctx& c, Seat seat);
void advance(Ctx& c);

// 2.02.21 (advanced): advisors alone in a territory flip to fighters
// (not under storm, 2.02.19).
void universal_stewards(GameState& s) {
  if (!s.advanced || !s.has(Faction::BeneGesserit)) return;
  const Faction bg = Faction::BeneGesserit;
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto tid = static_cast<TerritoryId>(t);
    if (kind_in_territory(s, bg, tid, 1) == 0) continue;
    bool alone = true;
    for (Seat seat = 0; seat < s.num_seats && alone; ++seat)  // the seated factions
      if (const Faction o = s.faction_at(seat); o != bg && s.forces_in_territory(o, tid) > 0) alone = false;
    if (!alone) continue;
    const auto& ter = data::territory(tid);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto l = static_cast<LocationId>(ter.first_location + i);
      if (s.in_storm(l)) continue;
      s.forces_at(bg, l, 0) = static_cast<uint8_t>(s.forces_at(bg, l, 0) + s.forces_at(bg, l, 1));
      s.forces_at(bg, l, 1) = 0;
    }
  }
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
      const int reg = s.forces_at(me, l, 0), spec = bg_advanced(s, me) ? 0 : s.forces_at(me, l, 1);
      if (reg + spec) forces_to_tanks(s, me, l, reg, spec);
    }
  }
}

void end_turn(Ctx& c) {
  auto& s = c.s;
  const Seat seat = s.shipmove.current;
  s.shipmove.last_to = kNone8;
  ally_constraint(s, s.faction_at(seat));
  universal_stewards(s);
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
  s.guild.shipmove.asked = 0;
  s.shipmove.current = seat;
  s.shipmove.ornithopters = has_ornithopters(s, me) ? 1 : 0;
  s.step = kShip;
  s.waiting = bit(seat);
  if (!any_ship(s, me)) to_move_step(c);
}

bool guild_has_options(const GameState& s) { return any_ship(s, Faction::Guild) || any_move(s, Faction::Guild); }

void advance(Ctx& c) {
  auto& s = c.s;
  const auto order = order_from_first(s);
  const bool timing = guild_timing_applies(s);
  const Seat guild = timing ? s.seat_of(Faction::Guild) : kNoSeat;
  Seat next = kNoSeat;
  for (Seat seat : order)
    if (!has_bit(s.shipmove.done, seat) && seat != guild) {
      next = seat;
      break;
    }
  if (timing && !has_bit(s.shipmove.done, guild)) {
    if (next == kNoSeat) {
      begin_turn(c, guild);
    } else if (!guild_has_options(s)) {
      begin_turn(c, next);  // nothing to decide yet (spice paid to the Guild may change that)
    } else {
      // 2.06.12: the Guild may go now, ahead of `next`, or wait.
      s.shipmove.current = next;
      s.step = kGuildTiming;
      s.waiting = bit(guild);
    }
    return;
  }
  if (next == kNoSeat) {
    s.shipmove.current = kNoSeat;
    universal_stewards(s);
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
  // 3.01.11.02 of 2.06.12 (the Guild goes in storm order), 2.01.07 Wormsign.
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).shipment_movement_begins;
    if (h && s.has(static_cast<Faction>(fi))) h(s);
  }
  if (!wartime_options(s).empty()) {  // 2.02.17: before shipment and movement
    s.step = kWartime;
    s.waiting = bit(s.seat_of(Faction::BeneGesserit));
    return;
  }
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
  switch (s.step) {
    case kShip:
      if (auto r = expect(ActionKind::Ship, "ship (Ship) or pass the shipment (Pass)")) return r;
      return a.kind() == ActionKind::Pass ? std::nullopt : check_ship(s, me, a.as<action::Ship>());
    case kMove:
      if (auto r = expect(ActionKind::Move, "move (Move) or pass the movement (Pass)")) return r;
      return a.kind() == ActionKind::Pass ? std::nullopt : check_move(s, me, a.as<action::Move>());
    case kAdvisor:
      if (auto r = expect(ActionKind::SendSpiritualAdvisor, "the Bene Gesserit may send a spiritual advisor (SendSpiritualAdvisor) or pass")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (auto why = ability_blocked(s, me, Ability::BgSpiritualAdvisor)) return reject(RejectCode::IllegalChoice, *why);
      if (const LocationId to = a.as<action::SendSpiritualAdvisor>().to; to == data::polar_sink() || bg_may_send_advisor_to(s, to))
        return std::nullopt;
      if (s.advanced && a.as<action::SendSpiritualAdvisor>().to == s.bene_gesserit.shipmove.advisor_to)
        return reject(RejectCode::IllegalChoice, "an advisor may follow the shipment only where you have no fighters (2.02.11); send a fighter to the Polar Sink instead");
      return reject(RejectCode::IllegalChoice, s.advanced ? "a spiritual advisor goes to the Polar Sink or, as an advisor, to " + loc_name(s.bene_gesserit.shipmove.advisor_to) + " (2.02.05, 2.02.11)"
                                                          : std::string("a spiritual advisor goes to the Polar Sink (2.02.05)"));
    case kGuildTiming:
      if (auto r = expect(ActionKind::GuildTiming, "the Guild decides whether to ship and move now (GuildTiming) or later")) return r;
      if (a.kind() == ActionKind::GuildTiming && guild_timing_cancelled(s))
        return reject(RejectCode::IllegalChoice, "a Karama cancelled the Guild's timing (3.01.11.01): the Guild goes in storm order (Pass)");
      return std::nullopt;
    case kWartime:
      if (auto r = expect(ActionKind::Flip, "the Bene Gesserit may flip advisors to fighters (Flip) or pass (2.02.17)")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (a.as<action::Flip>().location >= kNumLocations) return reject(RejectCode::Malformed, "unknown location");
      if (auto why = ability_blocked(s, me, Ability::BgWartime)) return reject(RejectCode::IllegalChoice, *why);
      if (auto why = wartime_blocked(s, data::territory_of(a.as<action::Flip>().location))) return reject(RejectCode::IllegalChoice, *why);
      return std::nullopt;
    case kGuildKarama:
      if (a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Guild may cancel this shipment with its Karama power (PlayCard, 1.14.05) or let it stand (Pass)");
      return std::nullopt;
    case kIntrusion:
      if (auto r = expect(ActionKind::Flip, "the Bene Gesserit may flip their fighters to advisors (Flip) or pass (2.02.15)")) return r;
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (auto why = ability_blocked(s, me, Ability::BgIntrusion)) return reject(RejectCode::IllegalChoice, *why);
      if (const LocationId at = a.as<action::Flip>().location;
          at >= kNumLocations || data::territory_of(at) != data::territory_of(s.bene_gesserit.shipmove.advisor_to))
        return reject(RejectCode::IllegalChoice, "only the fighters in " + ter_name(data::territory_of(s.bene_gesserit.shipmove.advisor_to)) + " may flip now (2.02.15)");
      return std::nullopt;
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
  const int n = a.forces + a.special;
  const ShipKind kind = ship_kind(me, a);
  switch (kind) {
    case ShipKind::OffPlanet:
      pay_ally_share(s, me, a, bank());
      transfer_spice(s, shield(me), bank(), own_share(s, me, a, off_planet_cost(n)));  // 2.06.07
      s.forces_at(me, a.from, 0) = static_cast<uint8_t>(s.forces_at(me, a.from, 0) - a.forces);
      s.forces_at(me, a.from, 1) = static_cast<uint8_t>(s.forces_at(me, a.from, 1) - a.special);
      fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] + a.forces);
      fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] + a.special);
      break;
    case ShipKind::CrossShip:
      // Ruling guild_cross_ship_payment: the ally's cross-shipment pays the Guild (2.06.04) or the bank.
    {
      const SpiceAccount to = shipment_payee(s, s.rulings.is(RulingId::GuildCrossShipPayment, 1) ? bank() : payee(s, me));
      pay_ally_share(s, me, a, to);
      transfer_spice(s, shield(me), to, own_share(s, me, a, shipment_cost(s, me, a.to, n)));
    }
      s.forces_at(me, a.from, 0) = static_cast<uint8_t>(s.forces_at(me, a.from, 0) - a.forces);
      s.forces_at(me, a.from, 1) = static_cast<uint8_t>(s.forces_at(me, a.from, 1) - a.special);
      s.forces_at(me, a.to, 0) = static_cast<uint8_t>(s.forces_at(me, a.to, 0) + a.forces);
      s.forces_at(me, a.to, 1) = static_cast<uint8_t>(s.forces_at(me, a.to, 1) + a.special);
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
      fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - a.forces);
      fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] - a.special);
      s.forces_at(me, a.to, 0) = static_cast<uint8_t>(s.forces_at(me, a.to, 0) + a.forces);
      s.forces_at(me, a.to, 1) = static_cast<uint8_t>(s.forces_at(me, a.to, 1) + a.special);
      if (kind == ShipKind::FremenSend) faction_rules(me).sent(s, a);  // 2.04.17
      break;
    }
  }
  fs.shipped = 1;
  // Ruling karama_automatic_use = next_occasion: any other faction's shipment is 2.06.04's occasion.
  if (const uint8_t guild = shipment_receiver(s);
      guild != kNoFaction && static_cast<uint8_t>(me) != guild && prevention_at_next_occasion(s))
    consume_prevention(s, static_cast<Faction>(guild), faction_rules(static_cast<Faction>(guild)).receives_shipment_payments);
}

// 3.01.11.02: a prevented 2.02.16 is used up by the Bene Gesserit's next move
// that could have taken up arms (the same move with flip would be legal).
void consume_take_up_arms(GameState& s, Faction me, const action::Move& a) {
  if (me != Faction::BeneGesserit || !ability_cancelled(s, me, Ability::BgTakeUpArms)) return;
  if (prevention_at_next_occasion(s)) {  // ruling karama_automatic_use: any move
    consume_prevention(s, me, Ability::BgTakeUpArms);
    return;
  }
  GameState free = s;
  consume_prevention(free, me, Ability::BgTakeUpArms);
  action::Move flip = a;
  flip.flip = true;
  if (!check_move(free, me, flip)) consume_prevention(s, me, Ability::BgTakeUpArms);
}

void apply_move(GameState& s, Faction me, const action::Move& a) {
  consume_take_up_arms(s, me, a);
  const GroupType type = a.flip ? GroupType::Fighters : bg_group_type(s, me, a);  // 2.02.16
  int reg = 0, spec = 0;
  for (int i = 0; i < a.from.size(); ++i) {
    const auto& p = a.from[i];
    s.forces_at(me, p.location, 0) = static_cast<uint8_t>(s.forces_at(me, p.location, 0) - p.forces);
    s.forces_at(me, p.location, 1) = static_cast<uint8_t>(s.forces_at(me, p.location, 1) - p.special);
    reg += p.forces;
    spec += p.special;
  }
  if (type == GroupType::Fighters) {
    reg += spec;
    spec = 0;
  } else if (type == GroupType::Advisors) {
    spec += reg;
    reg = 0;
  }
  s.forces_at(me, a.to, 0) = static_cast<uint8_t>(s.forces_at(me, a.to, 0) + reg);
  s.forces_at(me, a.to, 1) = static_cast<uint8_t>(s.forces_at(me, a.to, 1) + spec);
  s.of(me).moved = 1;
  s.shipmove.last_to = kNone8;  // 1.14.05: the shipment can no longer be cancelled
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

// What follows a shipment (or the pass): 2.02.15 intrusion, 2.02.05 spiritual advisors, then the movement step.
void after_shipment(Ctx& c, Faction me, const Action& a) {
  auto& s = c.s;
  // 2.02.05: the Bene Gesserit may answer another faction's shipment from off-planet.
  bool advisors = from_off_planet(me, a) && me != Faction::BeneGesserit && s.has(Faction::BeneGesserit) &&
                  s.of(Faction::BeneGesserit).reserves[0] > 0;
  if (advisors && ability_cancelled(s, Faction::BeneGesserit, Ability::BgSpiritualAdvisor)) {  // 3.01.11.02
    consume_prevention(s, Faction::BeneGesserit, Ability::BgSpiritualAdvisor);
    advisors = false;
  }
  const auto* ship = a.get_if<action::Ship>();
  if (ship && !ship->to_reserves && intrusion(s, me, ship->to)) {
    s.bene_gesserit.shipmove.advisor_to = ship->to;
    s.bene_gesserit.shipmove.resume = advisors ? kAdvisor : kMove;
    s.step = kIntrusion;
    s.waiting = bit(s.seat_of(Faction::BeneGesserit));
    return;
  }
  if (advisors) {  // from_off_planet: a Ship
    s.bene_gesserit.shipmove.advisor_to = ship->to;
    s.step = kAdvisor;
    s.waiting = bit(s.seat_of(Faction::BeneGesserit));
    return;
  }
  to_move_step(c);
}

// 3.01.11.02: a shipment step is the use opportunity of every shipping
// ability (each faction's ship_* and storm_migration hooks) `me` may have.
void consume_shipping_preventions(GameState& s, Faction me) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& r = faction_rules(static_cast<Faction>(fi));
    for (Ability ab : {r.ship_half_price, r.ship_cross, r.ship_off_planet, r.storm_migration})
      if (ab != Ability::None) consume_prevention(s, me, ab);
  }
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
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
      }
      if (ship) apply_ship(s, me, *ship);
      // 3.01.11.02: this shipment step was the use opportunity of the shipping abilities.
      consume_shipping_preventions(s, me);
      // 1.14.05 (ruling karama_windows = all_other_seats): the Guild is asked whether it cancels this shipment.
      if (a.kind() == ActionKind::Ship && s.shipmove.last_to != kNone8 && me != Faction::Guild && karama_windows_ask(s) &&
          karama_power_possible(s, Faction::Guild)) {
        s.guild.shipmove.asked = 1;
        s.step = kGuildKarama;
        s.waiting = bit(s.seat_of(Faction::Guild));
        return;
      }
      after_shipment(c, me, a);
      return;
    }
    case kGuildKarama:  // the Guild let the shipment stand
      after_shipment(c, s.faction_at(s.shipmove.current), recorded_shipment(s));
      return;
    case kAdvisor:
      // 3.01.11.01: a Karama may cancel the spiritual advisor as it is sent (cards.cpp).
      if (a.kind() == ActionKind::SendSpiritualAdvisor && karama_window(c, seat, Ability::BgSpiritualAdvisor, a)) return;
      consume_prevention(s, Faction::BeneGesserit, Ability::BgSpiritualAdvisor);
      if (a.kind() == ActionKind::SendSpiritualAdvisor) {
        auto& bg = s.of(Faction::BeneGesserit);
        const LocationId to = a.as<action::SendSpiritualAdvisor>().to;
        const int kind = to == data::polar_sink() ? 0 : 1;  // fighter to the Polar Sink, else an advisor
        bg.reserves[0] = static_cast<uint8_t>(bg.reserves[0] - 1);
        s.forces_at(Faction::BeneGesserit, to, kind) = static_cast<uint8_t>(s.forces_at(Faction::BeneGesserit, to, kind) + 1);
      }
      to_move_step(c);
      return;
    case kMove: {
      // 3.01.11.01: a Karama may cancel the Fremen two-territory movement as it is used (cards.cpp;
      // the placements wait in GameState::pending_move_*).
      const auto* move = a.get_if<action::Move>();
      if (move && uses_fremen_movement(s, me, *move) && karama_window(c, seat, Ability::FremenMovement, a)) return;
      // ... and the Bene Gesserit's Take Up Arms (2.02.16) as the flipping move is made.
      if (move && move->flip && karama_window(c, seat, Ability::BgTakeUpArms, a)) return;
      if (const Ability mv = faction_rules(me).movement_ability; mv != Ability::None)
        consume_prevention(s, me, mv);  // 3.01.11.02: this movement was its use opportunity
      if (move) {
        apply_move(s, me, *move);
        if (intrusion(s, me, move->to)) {
          s.bene_gesserit.shipmove.advisor_to = move->to;
          s.bene_gesserit.shipmove.resume = kResumeEndTurn;
          s.step = kIntrusion;
          s.waiting = bit(s.seat_of(Faction::BeneGesserit));
          return;
        }
      }
      if (move && take_hajr_move(s)) {  // 3.01.09 Hajr: one more movement (cards.cpp)
        to_move_step(c);
        return;
      }
      end_turn(c);
      return;
    }
    case kWartime:
      if (const auto* flip = a.get_if<action::Flip>()) {
        if (karama_window(c, seat, Ability::BgWartime, a)) return;  // 3.01.11.01: each flip is a use
        flip_territory(s, data::territory_of(flip->location), 1, true);
        if (!wartime_options(s).empty()) return;  // more territories may flip
      }
      consume_prevention(s, Faction::BeneGesserit, Ability::BgWartime);  // 3.01.11.02: its use opportunity
      advance(c);
      return;
    case kIntrusion:
      if (a.kind() == ActionKind::Flip && karama_window(c, seat, Ability::BgIntrusion, a)) return;  // 3.01.11.01
      consume_prevention(s, Faction::BeneGesserit, Ability::BgIntrusion);  // 3.01.11.02: its use opportunity
      if (const auto* flip = a.get_if<action::Flip>()) flip_territory(s, data::territory_of(flip->location), 0, false);
      if (s.bene_gesserit.shipmove.resume == kAdvisor) {
        s.step = kAdvisor;
        s.waiting = bit(s.seat_of(Faction::BeneGesserit));
      } else if (s.bene_gesserit.shipmove.resume == kMove || take_hajr_move(s)) {  // 3.01.09 Hajr
        to_move_step(c);
      } else {
        end_turn(c);
      }
      return;
    case kGuildTiming: {
      const Seat next = s.shipmove.current;
      const auto* timing = a.get_if<action::GuildTiming>();
      // 3.01.11.01: a Karama may cancel the Guild's turn out of order as it is taken (cards.cpp);
      // cancelled, the Guild goes in storm order for the rest of the phase.
      if (timing && timing->now && karama_window(c, seat, Ability::GuildTiming, a)) return;
      if (guild_timing_cancelled(s)) {
        s.guild.shipmove.timing_off = 1;
        consume_prevention(s, Faction::Guild, Ability::GuildTiming);
        advance(c);
        return;
      }
      if (timing && timing->now) {
        begin_turn(c, seat);
        return;
      }
      // Waiting past its own place in storm order is the holding pattern (2.06.12.03).
      const auto order = order_from_first(s);
      const auto pos = [&](Seat x) { return std::find(order.begin(), order.end(), x) - order.begin(); };
      if (pos(seat) < pos(next)) s.guild.shipmove.delayed = 1;
      begin_turn(c, next);
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
  switch (s.step) {
    case kShip: {
      std::vector<action::Ship> c;
      ship_candidates(s, me, false, c);
      Decision d{ActionKind::Ship, "", 1, s.of(me).reserves[0] + s.of(me).reserves[1], {}};
      if (faction_rules(me).sends_from_reserves)  // 2.04.05
        d.prompt = "Send forces from reserves for free to The Great Flat or a territory within two of it";
      else
        d.prompt = "Ship forces from reserves: 1 spice per force into a stronghold, 2 elsewhere";
      if (guild_rates(s, me)) d.prompt += " (half price)";
      if (may_cross_ship(s, me)) d.prompt += "; or cross-ship from one territory to another";
      if (faction_rules(me).ship_off_planet != Ability::None)  // 2.06.05.03
        d.prompt += "; or ship from the board back to reserves (1 spice per 2 forces)";
      if (ally_allowance(s, me) > 0) d.prompt += "; your ally may pay up to " + std::to_string(ally_allowance(s, me)) + " (ally_pays, 1.10.02.06)";
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
    case kAdvisor: {
      if (ability_cancelled(s, Faction::BeneGesserit, Ability::BgSpiritualAdvisor)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Send no spiritual advisor (a Karama stopped it)", 0, 0, {}});
        break;
      }
      Decision d{ActionKind::SendSpiritualAdvisor, "Send one force free from reserves to the Polar Sink (Spiritual Advisors)", 1, 1, {data::polar_sink()}};
      if (bg_may_send_advisor_to(s, s.bene_gesserit.shipmove.advisor_to)) {
        d.prompt += ", or an advisor to " + loc_name(s.bene_gesserit.shipmove.advisor_to);
        d.options.push_back(s.bene_gesserit.shipmove.advisor_to);
      }
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Send no spiritual advisor", 0, 0, {}});
      break;
    }
    case kMove: {
      std::vector<action::Move> c;
      move_candidates(s, me, false, c);
      Decision d{ActionKind::Move, "Move one group from one territory (range " + std::to_string(move_range(s, me, false)) + ")", 1, 0, {}};
      if (bg_advanced(s, me)) d.prompt += "; advisors moving into a territory another faction occupies may take up arms (flip, 2.02.16)";
      for (const auto& a : c)
        if (!check_move(s, me, a) && std::find(d.options.begin(), d.options.end(), a.to) == d.options.end()) d.options.push_back(a.to);
      std::sort(d.options.begin(), d.options.end());
      d.max = largest_movable_group(s, me, d.options);
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Do not move this turn", 0, 0, {}});
      break;
    }
    case kWartime: {
      if (auto why = ability_blocked(s, Faction::BeneGesserit, Ability::BgWartime)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Flip no (more) advisors: " + *why, 0, 0, {}});
        break;
      }
      Decision d{ActionKind::Flip, "Wartime: flip all your advisors in a territory to fighters (2.02.17)", 0, 0, {}};
      for (auto l : wartime_options(s)) d.options.push_back(l);
      out.push_back(d);
      out.push_back(Decision{ActionKind::Pass, "Flip no (more) advisors", 0, 0, {}});
      break;
    }
    case kIntrusion:
      if (auto why = ability_blocked(s, Faction::BeneGesserit, Ability::BgIntrusion)) {  // 3.01.11.01/.02
        out.push_back(Decision{ActionKind::Pass, "Keep them as fighters: " + *why, 0, 0, {}});
        break;
      }
      out.push_back(Decision{ActionKind::Flip, "Intrusion: flip your fighters in " + ter_name(data::territory_of(s.bene_gesserit.shipmove.advisor_to)) + " to advisors (2.02.15)",
                             0, 0, {s.bene_gesserit.shipmove.advisor_to}});
      out.push_back(Decision{ActionKind::Pass, "Keep them as fighters", 0, 0, {}});
      break;
    case kGuildKarama:
      out.push_back(Decision{ActionKind::Pass,
                             "Let " + std::string(faction_name(s.faction_at(s.shipmove.current))) +
                                 "'s shipment stand (or cancel it with your Karama power: PlayCard, 1.14.05)",
                             0, 0, {}});
      break;
    case kGuildTiming:
      if (guild_timing_cancelled(s)) {
        out.push_back(Decision{ActionKind::Pass, "Go in storm order: a Karama cancelled the Guild's timing (3.01.11.01)", 0, 0, {}});
        break;
      }
      out.push_back(Decision{ActionKind::GuildTiming,
                             "Take your shipment and movement now, before " + std::string(faction_name(s.faction_at(s.shipmove.current))) + " (2.06.12)",
                             0, 1, {}});
      out.push_back(Decision{ActionKind::Pass, "Wait", 0, 0, {}});
      break;
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Faction me = s.faction_at(seat);
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
      std::vector<action::Move> ok;
      for (const auto& a : c)
        if (!check_move(s, me, a)) ok.push_back(a);
      add_flip_candidates(s, me, ok);
      out.insert(out.end(), ok.begin(), ok.end());
      break;
    }
    case kAdvisor: {
      if (ability_cancelled(s, Faction::BeneGesserit, Ability::BgSpiritualAdvisor)) break;  // 3.01.11.01/.02
      action::SendSpiritualAdvisor a;
      a.to = data::polar_sink();
      out.push_back(a);
      if (bg_may_send_advisor_to(s, s.bene_gesserit.shipmove.advisor_to)) {
        a.to = s.bene_gesserit.shipmove.advisor_to;
        out.push_back(a);
      }
      break;
    }
    case kGuildTiming: {
      if (guild_timing_cancelled(s)) break;  // 3.01.11.01: Pass only
      action::GuildTiming a;
      a.now = true;
      out.push_back(a);
      a.now = false;
      out.push_back(a);
      break;
    }
    case kWartime:
      for (auto l : wartime_options(s)) {
        if (ability_cancelled(s, Faction::BeneGesserit, Ability::BgWartime)) break;  // 3.01.11.02
        action::Flip a;
        a.location = l;
        out.push_back(a);
      }
      break;
    case kIntrusion: {
      if (ability_cancelled(s, Faction::BeneGesserit, Ability::BgIntrusion)) break;  // 3.01.11.02
      action::Flip a;
      a.location = s.bene_gesserit.shipmove.advisor_to;
      out.push_back(a);
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

std::optional<Rejection> check_guild_cancel(const GameState& s, Faction target) {
  if (!s.has(target)) return reject(RejectCode::Malformed, "that faction is not in the game");
  if (target == Faction::Guild) return reject(RejectCode::IllegalChoice, "the Guild cancels another player's shipment (1.14.05)");
  const auto& m = s.shipmove;
  if (m.current < 0 || s.faction_at(m.current) != target || m.last_to == kNone8)
    return reject(RejectCode::IllegalChoice, std::string(faction_name(target)) +
                                                 " have no off-planet shipment to cancel now: the power cancels a shipment from reserves "
                                                 "just made, before that player moves (1.14.05)");
  if (s.step != kGuildKarama && s.step != kMove)
    return reject(RejectCode::WrongPhase, "wait until the Bene Gesserit have answered the shipment (1.00.05)");
  const SpiceAccount from = payee(s, target);
  const int held = from.holder == SpiceHolder::Bank ? static_cast<int>(std::min<int64_t>(s.bank, 65535)) : s.of(static_cast<Faction>(from.index)).spice;
  const int owed = m.last_cost + (m.last_ally_bank ? 0 : m.last_ally_paid);
  if (held < owed)
    return reject(RejectCode::NotEnoughSpice, "the Guild no longer holds the " + std::to_string(owed) + " spice the shipment paid, to refund it");
  return std::nullopt;
}

void guild_cancel_shipment(Ctx& c) {
  auto& s = c.s;
  auto& m = s.shipmove;
  const Faction me = s.faction_at(m.current);
  auto& fs = s.of(me);
  const int reg = std::min<int>(m.last_forces, s.forces_at(me, m.last_to, 0));
  const int spec = std::min<int>(m.last_special, s.forces_at(me, m.last_to, 1));
  s.forces_at(me, m.last_to, 0) = static_cast<uint8_t>(s.forces_at(me, m.last_to, 0) - reg);
  s.forces_at(me, m.last_to, 1) = static_cast<uint8_t>(s.forces_at(me, m.last_to, 1) - spec);
  fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] + reg);
  fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] + spec);
  transfer_spice(s, m.last_paid_bank ? bank() : payee(s, me), shield(me), m.last_cost);
  if (m.last_ally_paid && has_ally(s, me))  // 1.10.02.06: the ally's share goes back to the ally
    transfer_spice(s, m.last_ally_bank ? bank() : payee(s, me), shield(static_cast<Faction>(fs.ally)), m.last_ally_paid);
  m.last_to = kNone8;
  m.last_cost = 0;
  m.last_ally_paid = 0;
  m.last_ally_bank = 0;
  m.last_paid_bank = 0;
  if (s.rulings.is(RulingId::GuildKaramaReship, 1)) {  // the shipper may ship again
    fs.shipped = 0;
    s.step = kShip;
    s.waiting = bit(m.current);
    return;
  }
  to_move_step(c);  // the cancelled shipment was this turn's shipment (1.06.02)
}

namespace {
// 1.00.05: the phase's ability steps.
const char* ability_in_use(const GameState& s) {
  switch (s.step) {
    case kAdvisor: return "the Bene Gesserit's Spiritual Advisors (2.02.05)";
    case kGuildTiming: return "the Guild's timing (2.06.12)";
    case kWartime: return "the Bene Gesserit's Wartime (2.02.17)";
    case kIntrusion: return "the Bene Gesserit's Intrusion (2.02.15)";
    default: return nullptr;
  }
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
