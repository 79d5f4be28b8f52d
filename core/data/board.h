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

// A set of locations as a 128-bit mask over location ids (bit i = location
// i). Used by the hot searches (movement paths, battle areas): cheap unions
// and intersections instead of table walks.
struct LocationSet {
  uint64_t w[2] = {0, 0};

  constexpr bool test(LocationId l) const { return ((w[l >> 6] >> (l & 63)) & 1u) != 0; }
  constexpr void set(LocationId l) { w[l >> 6] |= uint64_t{1} << (l & 63); }
  constexpr bool any() const { return (w[0] | w[1]) != 0; }
  constexpr bool intersects(const LocationSet& o) const { return ((w[0] & o.w[0]) | (w[1] & o.w[1])) != 0; }
  constexpr LocationSet& operator|=(const LocationSet& o) {
    w[0] |= o.w[0];
    w[1] |= o.w[1];
    return *this;
  }
  constexpr LocationSet operator|(const LocationSet& o) const { return {{w[0] | o.w[0], w[1] | o.w[1]}}; }
  constexpr LocationSet operator&(const LocationSet& o) const { return {{w[0] & o.w[0], w[1] & o.w[1]}}; }
  // Set difference: the locations of *this not in o.
  constexpr LocationSet minus(const LocationSet& o) const { return {{w[0] & ~o.w[0], w[1] & ~o.w[1]}}; }
  constexpr bool operator==(const LocationSet&) const = default;
  // Calls fn(LocationId) for every member, in increasing id order.
  template <class F>
  constexpr void for_each(F&& fn) const {
    for (int k = 0; k < 2; ++k)
      for (uint64_t m = w[k]; m != 0; m &= m - 1) fn(static_cast<LocationId>(k * 64 + __builtin_ctzll(m)));
  }
};

// The tables behind the inline accessors below (defined in board.cpp,
// constant-initialised: usable from any static initialiser).
namespace detail {
struct BoardTables {
  Territory territories[kNumTerritories];
  Location locations[kNumLocations];
  LocationSet neighbours[kNumLocations];        // location-level neighbours
  LocationSet same_territory[kNumLocations];    // neighbours in the same territory
  LocationSet other_territory[kNumLocations];   // neighbours in another territory
  LocationSet territory_pieces[kNumTerritories];
  LocationSet sector_pieces[kNumSectors];
  uint8_t crossings[kNumLocations][kNumLocations];  // see crossing_distance()
};
extern const BoardTables kBoard;
}  // namespace detail

inline const Territory& territory(TerritoryId id) { return detail::kBoard.territories[id]; }
inline const Location& location(LocationId id) { return detail::kBoard.locations[id]; }
inline TerritoryId territory_of(LocationId id) { return location(id).territory; }

// Location-level neighbours (symmetric, irreflexive), sorted by id.
std::span<const LocationId> neighbours(LocationId id);
inline bool are_neighbours(LocationId a, LocationId b) {
  return a < kNumLocations && b < kNumLocations && detail::kBoard.neighbours[a].test(b);
}

// The same relations as sets.
inline const LocationSet& neighbour_set(LocationId id) { return detail::kBoard.neighbours[id]; }
inline const LocationSet& same_territory_neighbours(LocationId id) { return detail::kBoard.same_territory[id]; }
inline const LocationSet& other_territory_neighbours(LocationId id) { return detail::kBoard.other_territory[id]; }
inline const LocationSet& territory_pieces(TerritoryId t) { return detail::kBoard.territory_pieces[t]; }
// The pieces in storm sector `sector` (0..17); the Polar Sink is in none.
inline const LocationSet& sector_pieces(int sector) { return detail::kBoard.sector_pieces[sector]; }

// The fewest territory boundaries crossed from a to b on the empty board
// (no storm, no occupancy): a lower bound of every movement path length.
inline int crossing_distance(LocationId a, LocationId b) { return detail::kBoard.crossings[a][b]; }

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
