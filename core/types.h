// Basic identifiers shared by every layer of Mentat.
//
// Contract: plain value types and constexpr helpers only; no allocation, no
// global state. Safe to use from any thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace mentat {

// The twelve factions: the six of the base game, then the six of GF9's
// expansions (Ixians & Tleilaxu, CHOAM & Richese, Ecaz & Moritani). The
// numeric value is stable: it is stored in events and in the canonical state
// encoding; new factions are appended, never renumbered. Which factions may
// sit in a game is decided by its modules (core/data/modules.h); whether their
// rules are implemented by data::faction_rules_implemented.
enum class Faction : uint8_t {
  Atreides = 0,
  BeneGesserit = 1,
  Emperor = 2,
  Fremen = 3,
  Harkonnen = 4,
  Guild = 5,
  Ixians = 6,
  Tleilaxu = 7,
  Choam = 8,
  Richese = 9,
  Ecaz = 10,
  Moritani = 11,
};
inline constexpr int kNumFactions = 12;
inline constexpr int kNumBaseFactions = 6;  // Atreides..Guild
inline constexpr uint8_t kNoFaction = 0xFF;

// A set of factions, bit i = Faction i (winners, alliances made in a Nexus,
// abilities prevented per faction, ...). Every per-faction set uses this
// alias, so widening it is one edit.
using FactionMask = uint16_t;
static_assert(kNumFactions <= 16, "FactionMask must hold every faction");
constexpr FactionMask faction_bit(Faction f) { return static_cast<FactionMask>(1u << static_cast<int>(f)); }
constexpr FactionMask faction_bit(uint8_t f) { return static_cast<FactionMask>(1u << f); }

// A seat is the index of a player in the game (0..num_seats-1), in the order
// of the player circles around the board starting from the circle nearest the
// Storm Start sector, counterclockwise (the storm's direction).
using Seat = int8_t;
inline constexpr Seat kNoSeat = -1;
inline constexpr int kMaxSeats = 6;

std::string_view faction_name(Faction f);        // "Atreides", "Bene Gesserit", ..., "CHOAM"
std::string_view faction_key(Faction f);         // "atreides", "bene_gesserit", ..., "choam"
bool parse_faction(std::string_view text, Faction* out);  // accepts name or key, case-insensitive

// Index helpers used by the component tables.
using TerritoryId = uint8_t;
using LocationId = uint8_t;
using LeaderId = uint8_t;    // see core/data/components.h (leader id scheme): 0..29 base, 30..59 expansion factions, 60.. extra
using TreacheryId = uint8_t; // 0..32 the base deck, 33.. the expansion card sets (core/data/components.h)
using SpiceCardId = uint8_t; // 0..20 for the base deck
using TraitorId = uint8_t;   // one traitor card per leader: TraitorId == LeaderId

inline constexpr uint8_t kNone8 = 0xFF;

}  // namespace mentat
