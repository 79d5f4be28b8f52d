// Basic identifiers shared by every layer of Mentat.
//
// Contract: plain value types and constexpr helpers only; no allocation, no
// global state. Safe to use from any thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace mentat {

// The six base factions. The numeric value is stable: it is stored in events
// and in the canonical state encoding. Expansion factions will be appended.
enum class Faction : uint8_t {
  Atreides = 0,
  BeneGesserit = 1,
  Emperor = 2,
  Fremen = 3,
  Harkonnen = 4,
  Guild = 5,
};
inline constexpr int kNumFactions = 6;
inline constexpr uint8_t kNoFaction = 0xFF;

// A seat is the index of a player in the game (0..num_seats-1), in the order
// of the player circles around the board starting from the circle nearest the
// Storm Start sector, counterclockwise (the storm's direction).
using Seat = int8_t;
inline constexpr Seat kNoSeat = -1;
inline constexpr int kMaxSeats = 6;

std::string_view faction_name(Faction f);        // "Atreides", "Bene Gesserit", ...
std::string_view faction_key(Faction f);         // "atreides", "bene_gesserit", ...
bool parse_faction(std::string_view text, Faction* out);  // accepts name or key, case-insensitive

// Index helpers used by the component tables.
using TerritoryId = uint8_t;
using LocationId = uint8_t;
using LeaderId = uint8_t;    // faction * 5 + index, 0..29 for the base game
using TreacheryId = uint8_t; // 0..32 for the base deck
using SpiceCardId = uint8_t; // 0..20 for the base deck
using TraitorId = uint8_t;   // one traitor card per leader: TraitorId == LeaderId

inline constexpr uint8_t kNone8 = 0xFF;

}  // namespace mentat
