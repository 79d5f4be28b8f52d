// The base-game board of GF9 Dune (2019): territories, their pieces by storm
// sector (locations) and the location-level neighbour relation.
//
// Contract: immutable tables compiled into the program. Every function is
// pure, allocation-free and thread-safe. Ids are dense and stable: they are
// stored in events and states, so never renumber them.
//
// Sector convention: sectors 0..17, sector 0 holds the Storm Start, numbers
// grow in the storm's direction (counterclockwise). The Polar Sink has no
// sector (kNoSector) and is never in storm.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/types.h"

namespace mentat::data {

inline constexpr int kNumTerritories = 42;
inline constexpr int kNumLocations = 86;
inline constexpr int kNumSectors = 18;
inline constexpr int8_t kNoSector = -1;

enum class TerritoryKind : uint8_t {
  Sand = 0,
  ProtectedSand = 1,  // Imperial Basin: sand, but protected from the storm
  Rock = 2,
  Stronghold = 3,
  PolarSink = 4,
};

struct Territory {
  std::string_view name;
  TerritoryKind kind;
  bool stronghold;
  bool storm_protected;   // printed protection (rock, strongholds, Imperial Basin, Polar Sink)
  bool protection_lost_after_family_atomics;  // Arrakeen, Carthag, Imperial Basin
  LocationId first_location;  // locations of a territory are contiguous ids
  uint8_t num_locations;
};

struct Location {
  std::string_view name;  // "Cielago North (East Sector)" or the territory name
  TerritoryId territory;
  int8_t sector;               // 0..17, kNoSector for the Polar Sink
  uint8_t spice_blow_amount;   // >0 only on the piece carrying a spice-blow icon
};

const Territory& territory(TerritoryId id);
const Location& location(LocationId id);
inline TerritoryId territory_of(LocationId id) { return location(id).territory; }

// Location-level neighbours (symmetric, irreflexive), sorted by id.
std::span<const LocationId> neighbours(LocationId id);
bool are_neighbours(LocationId a, LocationId b);

// Territory adjacency derived from the location relation.
bool territories_adjacent(TerritoryId a, TerritoryId b);

std::optional<TerritoryId> find_territory(std::string_view name);  // exact name
std::optional<LocationId> find_location(std::string_view name);    // exact name

// Frequently used ids.
TerritoryId polar_sink_territory();
LocationId polar_sink();
LocationId arrakeen();
LocationId carthag();
LocationId sietch_tabr();
LocationId tueks_sietch();
LocationId habbanya_sietch();
TerritoryId the_great_flat();
TerritoryId shield_wall();
TerritoryId imperial_basin();
std::span<const TerritoryId> strongholds();  // the five strongholds, by id

// Territories where the Fremen may send forces from reserves for free
// (The Great Flat and territories within two territories of it).
bool in_fremen_shipping_range(TerritoryId t);

}  // namespace mentat::data
