// Components of the GF9 Dune (2019) base game: treachery deck, spice deck,
// leaders (and the traitor deck, one card per leader), faction setup.
//
// Contract: immutable tables compiled into the program; pure, thread-safe.
// Ids are dense and stable (stored in events and states).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/types.h"

namespace mentat::data {

// ---- Treachery cards -------------------------------------------------------

inline constexpr int kNumTreacheryCards = 33;

enum class TreacheryKind : uint8_t {
  Baliset, Chaumas, Chaumurky, CheapHero, CheapHeroine, Crysknife, EllacaDrug,
  FamilyAtomics, GomJabbar, Hajr, JubbaCloak, Karama, Kulon, LaLaLa, Lasgun,
  MaulaPistol, Shield, SlipTip, Snooper, Stunner, TleilaxuGhola, TripToGamont,
  Truthtrance, WeatherControl,
};
inline constexpr int kNumTreacheryKinds = 24;

enum class TreacheryCategory : uint8_t {
  WeaponProjectile, WeaponPoison, WeaponLasgun, DefenseProjectile,
  DefensePoison, Special, Worthless,
};

struct TreacheryCard {
  TreacheryKind kind;
  std::string_view name;  // "Cheap Heroine", "Trip to Gamont", ...
  TreacheryCategory category;
};

// Ids 0..32 in kind order (Baliset 0, Chaumas 1, ..., Cheap Hero 3 and 4, ...).
const TreacheryCard& treachery_card(TreacheryId id);
std::string_view treachery_kind_name(TreacheryKind k);
int treachery_kind_count(TreacheryKind k);  // copies in the base deck
inline bool is_weapon(TreacheryCategory c) {
  return c == TreacheryCategory::WeaponProjectile || c == TreacheryCategory::WeaponPoison ||
         c == TreacheryCategory::WeaponLasgun;
}
inline bool is_defense(TreacheryCategory c) {
  return c == TreacheryCategory::DefenseProjectile || c == TreacheryCategory::DefensePoison;
}

// ---- Spice deck -------------------------------------------------------------

inline constexpr int kNumSpiceCards = 21;  // 15 territory cards + 6 Shai-Hulud

struct SpiceCard {
  bool shai_hulud;
  LocationId location;  // piece carrying the spice-blow icon (territory cards only)
  uint8_t amount;       // 0 for Shai-Hulud
};
// Ids 0..14: territory cards in territory-name order; 15..20: Shai-Hulud.
const SpiceCard& spice_card(SpiceCardId id);
std::string spice_card_name(SpiceCardId id);

// ---- Leaders and traitors ---------------------------------------------------

inline constexpr int kLeadersPerFaction = 5;
inline constexpr int kNumLeaders = kNumFactions * kLeadersPerFaction;  // 30

struct Leader {
  std::string_view name;
  Faction faction;
  uint8_t strength;
};
// LeaderId = faction * 5 + index; within a faction, the order of the reference
// list (strongest first).
const Leader& leader(LeaderId id);
inline LeaderId leader_id(Faction f, int index) {
  return static_cast<LeaderId>(static_cast<int>(f) * kLeadersPerFaction + index);
}
std::optional<LeaderId> find_leader(std::string_view name);

// ---- Faction setup (rules 0.12, 0.13 and each faction's 2.xx.01-02) --------

struct StartingForces {
  std::string_view territory;  // empty when the faction has none on the planet
  uint8_t forces;
};

struct FactionSetup {
  Faction faction;
  uint8_t starting_spice;
  uint8_t forces_total;        // 20 for every base faction, special forces included
  uint8_t special_forces;      // Fedaykin 3, Sardaukar 5, else 0
  uint8_t forces_on_planet;    // placed at setup (Fremen: distributed by choice)
  uint8_t free_revival;
  uint8_t hand_limit;
  uint8_t starting_treachery_cards;
  uint8_t traitors_kept;
  std::string_view special_force_name;  // "Fedaykin", "Sardaukar" or empty
};
const FactionSetup& faction_setup(Faction f);

// The fixed starting location of a faction's forces, if it has one
// (Atreides: Arrakeen, Harkonnen: Carthag, Guild: Tuek's Sietch,
// Bene Gesserit basic game: Polar Sink). Fremen and Emperor: none.
std::optional<LocationId> fixed_start_location(Faction f);
// Territories among which the Fremen distribute their 10 starting forces,
// in this order: Sietch Tabr, False Wall South, False Wall West.
std::span<const TerritoryId> fremen_start_territories();

}  // namespace mentat::data
