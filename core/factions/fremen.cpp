// The Fremen's abilities (2.04) that the phases reach through the hook table
// (core/factions/faction_rules.h); docs/ARCHITECTURE.md. The worms (2.04.07/10/15,
// the rides of 2.04.08) and the 1.14.03 sandworm reach the Spice Blow
// through the hooks worm_revealed, worm_appears, worm_spares, blow_ends and
// blow_step (core/rules/spice_blow.cpp).
#include <algorithm>
#include <utility>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Fremen;
constexpr int kRange = 2;  // 2.04.06: two territories

// ---- 0.xx setup (setup.cpp asks): 2.04.13 the storm deck, 2.04.02 the placement ----

// 2.04.13: the advanced Fremen storm deck (cards 1..6), shuffled at setup.
void setup_decks(Ctx& c) {
  auto& s = c.s;
  if (!s.advanced) return;
  for (uint8_t v = 1; v <= 6; ++v) s.fremen.storm_deck.push(v);
  shuffle_pile(c, s.fremen.storm_deck, DrawKind::ShuffleStormDeck);
}

// 2.04.02: 10 forces among Sietch Tabr, False Wall South and False Wall West.
bool placement_asks(const GameState& s) { return s.of(kMe).reserves[0] + s.of(kMe).reserves[1] == 20; }

std::optional<Rejection> placement_validate(const GameState& s, const Action& a) {
  if (a.kind() != ActionKind::PlaceForces) return reject(RejectCode::WrongPhase, "the Fremen must place their 10 starting forces (PlaceForces)");
  int total = 0, special = 0;
  for (const auto& p : a.as<action::PlaceForces>().placements) {
    if (p.location >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown location");
    bool ok = false;
    for (auto t : data::fremen_start_territories()) ok |= data::territory_of(p.location) == t;
    if (!ok) return reject(RejectCode::IllegalChoice, std::string(data::location(p.location).name) + " is not Sietch Tabr, False Wall South or False Wall West");
    total += p.forces + p.special;
    special += p.special;
  }
  if (total != 10) return reject(RejectCode::IllegalChoice, "the Fremen place exactly 10 forces, not " + std::to_string(total));
  if (special > s.of(kMe).reserves[1]) return reject(RejectCode::IllegalChoice, "only 3 Fedaykin exist");
  return std::nullopt;
}

void placement_apply(GameState& s, const Action& a) {
  for (const auto& p : a.as<action::PlaceForces>().placements)
    move_forces(s, kMe, reserves_zone(), at(p.location), p.forces, p.special, ForceCause::Setup);
}

void placement_decisions(const GameState&, std::vector<Decision>& out) {
  Decision d{ActionKind::PlaceForces, "Distribute 10 forces among Sietch Tabr, False Wall South and False Wall West", 10, 10, {}};
  for (auto t : data::fremen_start_territories()) {
    const auto& ter = data::territory(t);
    for (int i = 0; i < ter.num_locations; ++i) d.options.push_back(static_cast<uint16_t>(ter.first_location + i));
  }
  out.push_back(d);
}

// A few representative distributions over the three territories.
void placement_legal(const GameState&, std::vector<Action>& out) {
  const LocationId tabr = data::sietch_tabr();
  const auto fws = data::territory(data::fremen_start_territories()[1]).first_location;
  const auto fww = data::territory(data::fremen_start_territories()[2]).first_location;
  const uint8_t splits[][3] = {{10, 0, 0}, {4, 3, 3}, {0, 10, 0}, {0, 0, 10}, {5, 5, 0}};
  for (const auto& sp : splits) {
    action::PlaceForces a;
    const LocationId locs[3] = {tabr, static_cast<LocationId>(fws), static_cast<LocationId>(fww)};
    for (int i = 0; i < 3; ++i)
      if (sp[i]) a.placements.push_back(Placement{locs[i], sp[i], 0});
    out.push_back(a);
  }
}

constexpr FactionRules::SetupDecision kSetupSteps[] = {
    {SetupStep::FremenPlacement, placement_asks, placement_validate, placement_apply, placement_decisions, placement_legal},
};

// 2.04.13 (advanced): the Fremen storm deck moves the storm from turn 2 on
// (the card drawn at the end of the previous Storm phase).
int deals_storm_card(const GameState& s) { return s.advanced ? s.fremen.storm_card : -1; }

// 2.04.16 (advanced): the storm destroys half the Fremen forces it catches,
// rounded up, once per stay. 3.01.11.02: a prevented 2.04.16 is used up by
// the next storm movement catching Fremen forces, which destroys them all.
bool storm_catches(GameState& s, LocationId loc, int reg, int spec) {
  const bool half_losses = s.advanced && !ability_cancelled(s, kMe, Ability::FremenStormLosses);
  if (!half_losses) {
    forces_to_tanks(s, kMe, loc, reg, spec);
    return s.advanced != 0;
  }
  if (s.fremen.storm_losses_taken[loc]) return false;
  const int lose = (reg + spec + 1) / 2;
  const int lose_reg = std::min(reg, lose);
  forces_to_tanks(s, kMe, loc, lose_reg, lose - lose_reg);
  s.fremen.storm_losses_taken[loc] = 1;
  return false;
}

void storm_moved(GameState& s, bool prevented_used) {
  if (prevented_used || (s.advanced && prevention_at_next_occasion(s)))  // ruling karama_automatic_use
    consume_prevention(s, kMe, Ability::FremenStormLosses);
  // A half loss only protects forces while the storm stays on them.
  for (int l = 0; l < data::kNumLocations; ++l)
    if (!s.in_storm(static_cast<LocationId>(l))) s.fremen.storm_losses_taken[l] = 0;
}

// 2.04.13: the Fremen draw the face-down storm card for the next turn.
void storm_phase_ends(Ctx& c) {
  auto& s = c.s;
  if (!s.advanced) return;
  if (s.fremen.storm_card != 0) s.fremen.storm_deck.push(s.fremen.storm_card);
  s.fremen.storm_card = 0;
  shuffle_pile(c, s.fremen.storm_deck, DrawKind::ShuffleStormDeck);
  s.fremen.storm_card = s.fremen.storm_deck.pop();
  c.record(DrawKind::StormCard, s.fremen.storm_card);
  // 2.04.14 / 3.01.11.02: a prevented look is this card's.
  s.fremen.storm_card_hidden = 0;
  if (ability_cancelled(s, kMe, Ability::FremenStormCard)) {
    s.fremen.storm_card_hidden = 1;
    consume_prevention(s, kMe, Ability::FremenStormCard);
  }
}

// 2.04.09 special victory (with the Guild in the game: no other faction
// in Sietch Tabr and Habbanya Ridge Sietch, no Harkonnen, Atreides,
// Emperor or (CHOAM & Richese) Richese in Tuek's Sietch), before the Guild's default win (2.06.08);
// otherwise the Fremen default win when the Guild is not in the game (1.09.05),
// shared with their ally or not by ruling fremen_default_win (2.04.12).
constexpr uint8_t kDefaultWinAlone = 1;  // ruling FremenDefaultWin (core/rulings.cpp)
bool default_victory(const GameState& s, VictoryClaim* claim) {
  const auto tabr = data::territory_of(data::sietch_tabr());
  const auto habbanya = data::territory_of(data::habbanya_sietch());
  const auto tuek = data::territory_of(data::tueks_sietch());
  bool ok = other_factions_in(s, kMe, tabr) == 0 && other_factions_in(s, kMe, habbanya) == 0;
  for (auto f : {Faction::Harkonnen, Faction::Atreides, Faction::Emperor, Faction::Richese})  // the Richese: CHOAM & Richese
    if (s.has(f) && occupies(s, f, tuek)) ok = false;
  if (s.has(Faction::Guild) && ok) *claim = VictoryClaim{0, team_of(s, kMe), kFremenSpecial};
  else if (s.rulings.is(RulingId::FremenDefaultWin, kDefaultWinAlone)) *claim = VictoryClaim{2, faction_bit(kMe), kFremenDefault};
  else *claim = VictoryClaim{2, team_of(s, kMe), kFremenDefault};
  return true;
}

// 2.04.18 (advanced): Fedaykin count as two forces in battle (modifier EliteWorthQuery).
int fedaykin_worth(const GameState&, const EliteWorthQuery& q, int worth) { return q.faction == kMe ? 2 : worth; }

// ---- 2.04.05 / 2.04.17 sending, 2.04.06 movement (shipment_movement.cpp) ----

// 2.04.05: the Fremen send reserves free to The Great Flat or within two
// territories of it; 2.04.17 (advanced) into the storm too (✷).
std::optional<Rejection> check_send(const GameState& s, const action::Ship& a) {
  const std::string loc(data::location(a.to).name);
  if (!data::in_fremen_shipping_range(data::territory_of(a.to)))
    return reject(RejectCode::IllegalChoice, "the Fremen send forces only to The Great Flat or a territory within two of it (2.04.05)");
  if (s.in_storm(a.to) && !s.advanced)
    return reject(RejectCode::Storm, loc + " is in the storm: the Fremen may not send forces into it (2.04.05; storm migration is advanced, 2.04.17)");
  if (s.in_storm(a.to))
    if (auto why = ability_blocked(s, kMe, Ability::FremenStormMigration)) return reject(RejectCode::Storm, *why);
  return check_ship_destination(s, kMe, a.to, s.advanced);  // 2.04.17 storm migration
}

// 2.04.17: storm migration at half loss, regular forces first; rounded up
// (2.04.16) or down by ruling fremen_migration_loss.
void sent(GameState& s, const action::Ship& a) {
  if (!s.in_storm(a.to)) return;
  const int n = a.forces + a.special;
  const int lose = s.rulings.is(RulingId::FremenMigrationLoss, 1) ? n / 2 : (n + 1) / 2;
  const int lose_reg = std::min<int>(a.forces, lose);
  forces_to_tanks(s, kMe, a.to, lose_reg, lose - lose_reg);
  s.fremen.storm_losses_taken[a.to] = 1;
}

// ---- 1.02 Spice Blow: 2.04.07 / 2.04.10 / 2.04.15, the rides of 2.04.08 (spice_blow.cpp asks) ----
// 2.04.07 their forces are not devoured; 2.04.10 they decide whether their
// ally is protected (Respond{accept}) whenever their ally has forces where a
// worm appears (ruling fremen_ally_protection: or the ally is always
// protected, unasked); 2.04.15 advanced: every worm after the first of the
// phase (ruling fremen_extra_worms: or of its pile) may be placed by them in
// any sand territory (WormRide{to}, or Pass to let it appear where the cards
// say); a placed worm destroys the spice there too, or only the forces
// (ruling placed_worm_spice, spice_blow.cpp). 2.04.08 Beast of Burden happens
// upon conclusion of the Nexus (after_nexus below): the worms' territories
// are recorded in FremenState::blow.rides.
// 3.01.11.02: a prevented 2.04.07 is used up by the first worm that finds
// Fremen forces (they are devoured like anyone's); a prevented 2.04.10 by the
// first worm that finds the ally's forces (not protected, not asked).

// The Fremen's sub-steps of the Spice Blow (GameState::step; 0 is the phase's).
enum BlowStep : uint8_t {
  kPlaceWorm = 1,          // 2.04.15 the Fremen may place this worm (WormRide{to} or Pass)
  kProtectAlly = 2,        // 2.04.10 the Fremen decide whether their ally is devoured (Respond)
  kProtectAllyPlaced = 3,  // the same, for a worm the Fremen placed (2.04.15, ruling placed_worm_spice)
  kFremenKarama = 4,       // 1.14.03 the Fremen may place their Karama sandworm (PlayCard) or Pass
};
constexpr uint8_t kBlowing = 0;           // spice_blow.cpp's own step
constexpr uint8_t kExtraWormsPerPile = 1; // ruling FremenExtraWorms
constexpr uint8_t kAlwaysProtect = 1;     // ruling FremenAllyProtection

bool protect_step(uint8_t step) { return step == kProtectAlly || step == kProtectAllyPlaced; }

bool is_sand(TerritoryId t) {
  const auto k = data::territory(t).kind;
  return k == data::TerritoryKind::Sand || k == data::TerritoryKind::ProtectedSand;
}

bool ally_protectable(const GameState& s, TerritoryId t) {
  const uint8_t ally = s.of(kMe).ally;
  if (ally >= kNumFactions || !s.has(static_cast<Faction>(ally))) return false;
  return s.forces_in_territory(static_cast<Faction>(ally), t) > 0;
}

// 2.04.15: the Fremen place every worm after the first of the phase
// (ruling fremen_extra_worms per_phase) or of its pile (per_pile).
bool worm_revealed(GameState& s) {
  if (!s.advanced) return false;
  if (!(s.rulings.is(RulingId::FremenExtraWorms, kExtraWormsPerPile) ? s.blow.pile_worms > 1 : s.blow.worms > 1)) return false;
  s.step = kPlaceWorm;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

// 2.04.10: asked whether their ally's forces in t are protected.
bool worm_appears(GameState& s, TerritoryId t, bool placed, bool* protect) {
  if (!ally_protectable(s, t) || ability_cancelled(s, kMe, Ability::FremenAllyProtection)) return false;
  if (s.rulings.is(RulingId::FremenAllyProtection, kAlwaysProtect)) {
    *protect = true;
    return false;
  }
  s.fremen.blow.territory = t;
  s.step = placed ? kProtectAllyPlaced : kProtectAlly;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

// 2.04.07 / 2.04.10 (and their preventions), 2.04.08 the ride recorded.
FactionMask worm_spares(GameState& s, TerritoryId t, bool protect_ally) {
  bool spare_fremen = true;
  const bool any_worm = prevention_at_next_occasion(s);  // ruling karama_automatic_use: every worm is the occasion
  if ((any_worm || s.forces_in_territory(kMe, t) > 0) && ability_cancelled(s, kMe, Ability::FremenShaiHulud)) {
    spare_fremen = false;
    consume_prevention(s, kMe, Ability::FremenShaiHulud);
  }
  if ((any_worm || ally_protectable(s, t)) && ability_cancelled(s, kMe, Ability::FremenAllyProtection)) {
    protect_ally = false;
    consume_prevention(s, kMe, Ability::FremenAllyProtection);
  }
  FactionMask spared = spare_fremen ? faction_bit(kMe) : 0;
  const uint8_t ally = s.of(kMe).ally;
  if (protect_ally && ally < kNumFactions) spared |= faction_bit(ally);
  // 2.04.08: the Fremen may ride this worm upon conclusion of the Nexus.
  if (s.fremen.blow.n_rides < static_cast<int>(sizeof(s.fremen.blow.rides))) s.fremen.blow.rides[s.fremen.blow.n_rides++] = t;
  return spared;
}

// 1.14.03 (ruling karama_windows = all_other_seats): at the end of each blow
// after turn 1 the Fremen are asked, on public information only.
bool blow_ends(GameState& s) {
  if (!s.fremen.blow.karama_asked && s.turn > 1 && karama_windows_ask(s) && karama_power_possible(s, kMe)) {
    s.fremen.blow.karama_asked = 1;
    s.step = kFremenKarama;
    s.waiting = bit(s.seat_of(kMe));
    return true;
  }
  s.fremen.blow.territory = 0;
  return false;
}

std::optional<Rejection> blow_validate(const GameState& s, const Action& a) {
  if (s.step == kPlaceWorm) {
    if (a.kind() == ActionKind::Pass) return std::nullopt;
    if (a.kind() != ActionKind::WormRide)
      return reject(RejectCode::WrongPhase, "place the sandworm (WormRide with a location in a sand territory) or Pass (2.04.15)");
    if (auto why = ability_blocked(s, kMe, Ability::FremenWormPlacement)) return reject(RejectCode::IllegalChoice, *why);
    const LocationId to = a.as<action::WormRide>().to;
    if (to >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown location");
    if (!is_sand(data::territory_of(to)))
      return reject(RejectCode::IllegalChoice, std::string(data::territory(data::territory_of(to)).name) + " is not a sand territory (2.04.15)");
    return std::nullopt;
  }
  if (s.step == kFremenKarama) {
    if (a.kind() != ActionKind::Pass)
      return reject(RejectCode::WrongPhase, "place your sandworm with your Karama power (PlayCard, 1.14.03) or Pass");
    return std::nullopt;
  }
  if (a.kind() != ActionKind::Respond)  // protect_step
    return reject(RejectCode::WrongPhase, "answer whether your ally is protected from the sandworm (Respond: accept=true protects, accept=false does not, 2.04.10)");
  return std::nullopt;
}

void blow_apply(Ctx& c, const Action& a) {
  auto& s = c.s;
  if (s.step == kPlaceWorm) {
    // 3.01.11.01: a Karama may cancel the placement as it is made (cards.cpp; ruling karama_windows).
    if (a.kind() == ActionKind::WormRide) {
      s.waiting = bit(s.seat_of(kMe));  // the decision a window interrupts (spice_blow.cpp's apply cleared it)
      if (karama_window(c, s.seat_of(kMe), Ability::FremenWormPlacement, a)) return;
      s.waiting = 0;
    }
    consume_prevention(s, kMe, Ability::FremenWormPlacement);  // 3.01.11.02: its use opportunity
    s.step = kBlowing;
    const bool go_on =
        a.kind() == ActionKind::WormRide ? spice_blow_worm_appears(c, data::territory_of(a.as<action::WormRide>().to), true) : spice_blow_worm_from_pile(c);
    if (go_on) spice_blow_run(c);
    return;
  }
  if (s.step == kFremenKarama) {  // Pass
    spice_blow_run(c);
    return;
  }
  spice_blow_devour(s, s.fremen.blow.territory, a.as<action::Respond>().accept, s.step == kProtectAllyPlaced);  // protect_step
  s.fremen.blow.territory = 0;
  spice_blow_run(c);
}

void blow_decisions(const GameState& s, std::vector<Decision>& out) {
  if (s.step == kPlaceWorm) {
    if (auto why = ability_blocked(s, kMe, Ability::FremenWormPlacement)) {  // 3.01.11.01/.02
      out.push_back(Decision{ActionKind::Pass, "Let the sandworm appear in " + spice_blow_worm_place(s) + ": " + *why, 0, 0, {},
                             Topic::WormAppears, WindowKind::None, kNoFaction, 0, -1, spice_blow_worm_territory(s)});
      return;
    }
    Decision d{ActionKind::WormRide, "Place the additional sandworm in any sand territory (2.04.15)", 0, 0, {}};
    for (int t = 0; t < data::kNumTerritories; ++t)
      if (is_sand(static_cast<TerritoryId>(t))) d.options.push_back(data::territory(static_cast<TerritoryId>(t)).first_location);
    out.push_back(d);
    out.push_back(Decision{ActionKind::Pass, "Let the sandworm appear in " + spice_blow_worm_place(s), 0, 0, {}, Topic::WormAppears,
                           WindowKind::None, kNoFaction, 0, -1, spice_blow_worm_territory(s)});
  } else if (s.step == kFremenKarama) {
    out.push_back(Decision{ActionKind::Pass, "Do not place your sandworm with your Karama power this turn (1.14.03)", 0, 0, {}});
  } else if (protect_step(s.step)) {
    out.push_back(Decision{ActionKind::Respond,
                           "A sandworm appears in " + std::string(data::territory(s.fremen.blow.territory).name) +
                               ": protect your ally's forces there, or let them be devoured (2.04.10)",
                           0, 1, {}, Topic::ProtectAllyFromWorm});
  }
}

void blow_legal(const GameState& s, std::vector<Action>& out) {
  if (s.step == kPlaceWorm) {
    for (int t = 0; t < data::kNumTerritories && !ability_cancelled(s, kMe, Ability::FremenWormPlacement); ++t) {
      if (!is_sand(static_cast<TerritoryId>(t))) continue;
      out.push_back(action::WormRide{.to = data::territory(static_cast<TerritoryId>(t)).first_location});
    }
    out.push_back(action::Pass{});
  } else if (s.step == kFremenKarama) {
    out.push_back(action::Pass{});
  } else if (protect_step(s.step)) {
    for (bool accept : {true, false}) out.push_back(action::Respond{.accept = accept});
  }
}

// ---- 2.04.08 Beast of Burden: the worm rides upon conclusion of the Nexus (nexus.cpp) ----
// For each worm of the spice blow (SpiceBlowState::rides, in order) where the
// Fremen have forces outside the storm, they may WormRide{to} (all those
// forces; WormRide.forces/special, when not both zero, choose how many
// regular/Fedaykin ride) to any territory without their ally's forces, not
// in storm, within the occupancy limit, or Pass.

// Fremen forces (regular, special) in territory t outside the storm.
std::pair<int, int> ridable(const GameState& s, TerritoryId t) {
  const auto& ter = data::territory(t);
  int reg = 0, spec = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.in_storm(loc)) continue;
    reg += s.forces_at(kMe, loc, 0);
    spec += s.forces_at(kMe, loc, 1);
  }
  return {reg, spec};
}

TerritoryId ride_from(const GameState& s) { return s.fremen.blow.rides[s.fremen.blow.ride_index]; }

// The next ride with forces to carry (true: asked), or the rides are over.
bool next_ride(GameState& s) {
  s.waiting = 0;
  while (s.fremen.blow.ride_index < s.fremen.blow.n_rides) {
    auto [reg, spec] = ridable(s, ride_from(s));
    if (reg + spec > 0) {
      s.waiting = bit(s.seat_of(kMe));
      return true;
    }
    ++s.fremen.blow.ride_index;
  }
  s.fremen.blow.n_rides = 0;
  s.fremen.blow.ride_index = 0;
  for (auto& r : s.fremen.blow.rides) r = 0;
  return false;
}

bool rides_begin(GameState& s) {
  s.fremen.blow.ride_index = 0;
  return next_ride(s);
}

std::optional<Rejection> validate_ride(const GameState& s, const Action& a) {
  if (a.kind() == ActionKind::Pass) return std::nullopt;
  if (a.kind() != ActionKind::WormRide)
    return reject(RejectCode::WrongPhase, "ride the sandworm (WormRide) or Pass (2.04.08)");
  const auto& ride = a.as<action::WormRide>();
  if (ride.to >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown destination location");
  const TerritoryId from = ride_from(s);
  const TerritoryId dest = data::territory_of(ride.to);
  if (dest == from) return reject(RejectCode::IllegalChoice, "the sandworm must carry the forces to another territory");
  if (s.in_storm(ride.to)) return reject(RejectCode::Storm, std::string(data::location(ride.to).name) + " is in the storm");
  const uint8_t ally = ally_in_game(s, kMe);
  if (ally != kNoFaction && s.forces_in_territory(static_cast<Faction>(ally), dest) > 0)
    return reject(RejectCode::IllegalChoice, "the Fremen may not ride into a territory holding their ally's forces (2.04.08)");
  if (data::territory(dest).stronghold && occupancy_others(s, kMe, dest) >= 2)
    return reject(RejectCode::Occupancy, std::string(data::territory(dest).name) + " is already occupied by two other factions");
  auto [reg, spec] = ridable(s, from);
  if (ride.forces > reg || ride.special > spec)
    return reject(RejectCode::IllegalChoice, "only " + std::to_string(reg) + " forces and " + std::to_string(spec) +
                                                 " Fedaykin outside the storm can ride from " + std::string(data::territory(from).name));
  return std::nullopt;
}

bool apply_ride(GameState& s, const Action& a) {
  if (const auto* ride = a.get_if<action::WormRide>()) {
    const TerritoryId from = ride_from(s);
    auto [reg_all, spec_all] = ridable(s, from);
    int reg = ride->forces, spec = ride->special;
    if (reg == 0 && spec == 0) {
      reg = reg_all;
      spec = spec_all;
    }
    const auto& ter = data::territory(from);
    for (int i = 0; i < ter.num_locations && reg + spec > 0; ++i) {
      const auto loc = static_cast<LocationId>(ter.first_location + i);
      if (s.in_storm(loc)) continue;
      for (int k = 0; k < 2; ++k) {
        int& want = k == 0 ? reg : spec;
        const int n = std::min<int>(want, s.forces_at(kMe, loc, k));
        if (n > 0) move_forces(s, kMe, at(loc), at(ride->to), k == 0 ? n : 0, k == 1 ? n : 0, ForceCause::Movement);
        want -= n;
      }
    }
  }
  ++s.fremen.blow.ride_index;
  return next_ride(s);
}

void ride_legal(const GameState& s, std::vector<Action>& out) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    action::WormRide a;
    a.to = static_cast<LocationId>(l);
    if (!validate_ride(s, a)) out.push_back(a);
  }
  action::Pass pass;
  out.push_back(pass);
}

void ride_decisions(const GameState& s, std::vector<Decision>& out) {
  const TerritoryId from = ride_from(s);
  auto [reg, spec] = ridable(s, from);
  Decision d{ActionKind::WormRide,
             "Ride the sandworm from " + std::string(data::territory(from).name) + " with up to " + std::to_string(reg) +
                 " forces and " + std::to_string(spec) + " Fedaykin (2.04.08)",
             0, reg + spec, {}};
  std::vector<Action> acts;
  ride_legal(s, acts);
  for (const auto& a : acts)
    if (const auto* ride = a.get_if<action::WormRide>()) d.options.push_back(ride->to);
  out.push_back(d);
  out.push_back(Decision{ActionKind::Pass, "Do not ride the sandworm", 0, 0, {}});
}

// ---- 2.04.11 the ally's free revival (revival.cpp) ----

constexpr uint8_t kGrantPrevented = 2;  // GameState::revival_fremen_grant: 3.01.11.02 this turn

bool has_ally(const GameState& s) {
  const uint8_t a = s.of(kMe).ally;
  return a < kNumFactions && s.f[a].in_game;
}
const FactionState& ally(const GameState& s) { return s.f[s.of(kMe).ally]; }

// 2.04.11 "at your discretion": does the Fremen's ally have a free revival of 3 this turn?
int ally_free_revival(const GameState& s) {
  if (s.fremen.revival_grant == kGrantPrevented) return 0;  // 3.01.11.02
  return s.rulings.is(RulingId::FremenAllyRevival, 0) || s.fremen.revival_grant != 0 ? 3 : 0;
}
// The modifier FreeRevivalQuery, order 0 (core/rules/owners.h): the ally's
// free revival is the larger of its own and the grant.
int ally_revival(const GameState& s, const FreeRevivalQuery& q, int n) {
  const uint8_t ally = ally_in_game(s, kMe);
  return ally == static_cast<uint8_t>(q.faction) ? std::max(n, ally_free_revival(s)) : n;
}

// 3.01.11.02: a prevented 2.04.11 is used up by the ally's next Revival phase
// with forces in the tanks (its free revival is its own this turn). Ruling
// fremen_ally_revival=fremen_decides: the Fremen are asked when their ally
// has forces in the tanks.
bool revival_begins(GameState& s) {
  s.fremen.revival_grant = 0;
  if (!has_ally(s)) return false;
  if (ability_cancelled(s, kMe, Ability::FremenAllyRevival)) {
    if (ally(s).tanks[0] + ally(s).tanks[1] > 0 || prevention_at_next_occasion(s)) {  // ruling karama_automatic_use
      s.fremen.revival_grant = kGrantPrevented;
      consume_prevention(s, kMe, Ability::FremenAllyRevival);
    }
  }
  if (!s.rulings.is(RulingId::FremenAllyRevival, 1)) return false;
  return ally(s).tanks[0] + ally(s).tanks[1] > 0 && s.fremen.revival_grant != kGrantPrevented;
}

void revival_grant_answer(GameState& s, bool accept) { s.fremen.revival_grant = accept ? 1 : 0; }
void revival_ends(GameState& s) { s.fremen.revival_grant = 0; }

// ---- 1.14.03 Karama power: place a sandworm (spice_blow.cpp devours) ----
// After turn 1 the Fremen place their sandworm in any sand territory
// (PlayCard Karama, target = a location there, value bit 0 = protect the
// ally, 2.04.10), a normal Shai-Hulud that devours (ruling placed_worm_spice)
// and, in the Spice Blow, causes a Nexus (1.02.06). Ruling karama_windows =
// all_other_seats: at the end of each blow after turn 1 the Fremen are asked
// (step kFremenKarama: PlayCard or Pass) whenever, by public information,
// they could use the power (blow_ends); under none they may place it only
// while a Nexus is in progress (nexus.cpp phase).

std::optional<Rejection> karama_check(const GameState& s, Faction, const Action& a) {
  if (s.turn <= 1) return reject(RejectCode::WrongPhase, "the Fremen Karama sandworm is placed after turn 1 (1.14.03)");
  const bool blow = s.phase == Phase::SpiceBlow && s.step == kFremenKarama;
  const bool nexus = s.phase == Phase::Nexus && s.waiting != 0;
  if (!blow && !nexus)
    return reject(RejectCode::WrongPhase, s.phase == Phase::SpiceBlow || s.phase == Phase::Nexus
                                              ? "the Fremen place their Karama sandworm when asked at the end of the spice blow, or during a Nexus (1.14.03)"
                                              : "the Fremen Karama power is used during the Spice Blow and Nexus phase (1.14.03)");
  const uint8_t to = a.as<action::PlayCard>().target;
  if (to >= data::kNumLocations) return reject(RejectCode::Malformed, "name a location of the sand territory for the sandworm (target)");
  if (!is_sand(data::territory_of(to)))
    return reject(RejectCode::IllegalChoice, std::string(data::territory(data::territory_of(to)).name) + " is not a sand territory (1.14.03)");
  return std::nullopt;
}
void karama_apply(Ctx& c, Seat, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  const TerritoryId t = data::territory_of(play.target);
  const bool protect = ally_protectable(c.s, t) &&
                       ((play.value & kKaramaProtectAlly) != 0 || c.s.rulings.is(RulingId::FremenAllyProtection, kAlwaysProtect));
  spice_blow_worm_placed(c, t, protect);
}
void karama_candidates(const GameState&, Faction, const Action& base, std::vector<Action>& out) {
  for (int tr = 0; tr < data::kNumTerritories; ++tr) {
    if (!is_sand(static_cast<TerritoryId>(tr))) continue;
    action::PlayCard w = base.as<action::PlayCard>();
    w.target = data::territory(static_cast<TerritoryId>(tr)).first_location;
    w.value = kKaramaProtectAlly;
    out.push_back(w);
  }
}

// 2.04.14: the Fremen see the next storm card, unless a Karama prevents it (3.01.11.02).
bool reveals(const GameState& s, Faction viewer, Secret what, int) {
  return what == Secret::StormCard && viewer == kMe && !s.fremen.storm_card_hidden;
}

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::FremenMovement, kMe, "2.04.06", "movement of two territories", ActionKind::Move},
    {Ability::FremenStormMigration, kMe, "2.04.17", "storm migration", ActionKind::Ship},
    {Ability::FremenWormPlacement, kMe, "2.04.15", "placing sandworms", ActionKind::WormRide},
    {Ability::FremenShaiHulud, kMe, "2.04.07", "Shai-Hulud", ActionKind::Pass},
    {Ability::FremenStormLosses, kMe, "2.04.16", "storm losses", ActionKind::Pass},
    {Ability::FremenAllyProtection, kMe, "2.04.10", "protecting the ally from sandworms", ActionKind::Pass},
    {Ability::FremenAllyRevival, kMe, "2.04.11", "the ally's free revival", ActionKind::Pass},
    {Ability::FremenFedaykin, kMe, "2.04.18", "Fedaykin", ActionKind::Pass},
    {Ability::FremenBattleHardened, kMe, "2.04.21", "battle hardened", ActionKind::Pass},
    {Ability::FremenStormCard, kMe, "2.04.14", "seeing the storm card", ActionKind::Pass},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.setup_decks = setup_decks;   // 2.04.13
  r.setup_steps = kSetupSteps;   // 2.04.02
  r.deals_storm_card = deals_storm_card;
  r.storm_catches = storm_catches;
  r.storm_moved = storm_moved;
  r.storm_phase_ends = storm_phase_ends;
  r.keeps_secrets = 1u << static_cast<int>(Secret::StormCard);
  r.reveals = reveals;
  r.default_victory = default_victory;
  r.elite_ability = Ability::FremenFedaykin;
  r.battle_hardened = Ability::FremenBattleHardened;  // 2.04.21
  r.one_special_revival = true;  // 2.04.20
  r.revival_begins = revival_begins;
  r.revival_grant = {"the Fremen are deciding their ally's free revival first (2.04.11)",
                     "answer whether your ally's free revival is 3 this turn (2.04.11)",
                     "Grant your ally a free revival of 3 this turn, or not (2.04.11)"};
  r.revival_grant_answer = revival_grant_answer;
  r.revival_ends = revival_ends;
  r.sends_from_reserves = true;  // 2.04.05
  r.check_send = check_send;
  r.sent = sent;
  r.storm_migration = Ability::FremenStormMigration;
  r.movement_range = kRange;  // 2.04.06
  r.movement_ability = Ability::FremenMovement;
  r.worm_revealed = worm_revealed;  // 2.04.15
  r.worm_appears = worm_appears;    // 2.04.10
  r.worm_spares = worm_spares;      // 2.04.07, 2.04.10, 2.04.08
  r.blow_ends = blow_ends;          // 1.14.03
  r.blow_step = {kPlaceWorm, kFremenKarama, blow_validate, blow_apply, blow_decisions, blow_legal,
                 "only the Fremen decide anything during the spice blow, and only when a sandworm asks for it"};
  r.after_nexus = {rides_begin, validate_ride, apply_ride, ride_decisions, ride_legal,
                   "only the Fremen may ride the sandworm now"};
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or place your sandworm in a sand territory, protecting your ally's forces there if you like (1.14.03)"};
  return r;
}

}  // namespace

constinit const FactionRules kFremenRules = make();

// ---- the owner (core/rules/owners.h) ----------------------------------------

namespace {
// 2.04.06: the Fremen move two territories (an ordinary group; ornithopters
// give three all the same, 1.06.05.04), unless a Karama cancels or prevents
// it (3.01.11.01 / .02). The modifier MovementRangeQuery, order 0.
int fremen_range(const GameState& s, const MovementRangeQuery& q, int range) {
  if (q.mover != kMe || q.basis != RangeBasis::Ordinary || q.unused == Ability::FremenMovement ||
      ability_cancelled(s, kMe, Ability::FremenMovement))
    return range;
  return std::max(range, kRange);
}
constexpr ModifierAnswer kAnswers[] = {answer<MovementRangeQuery, fremen_range>(0), answer<FreeRevivalQuery, ally_revival>(0),
                                       answer<EliteWorthQuery, fedaykin_worth>(0)};
}  // namespace

constinit const Owner kFremenOwner{"fremen", OwnerKind::Faction, faction_seated<Faction::Fremen>, {}, kAnswers};

}  // namespace mentat::rules
