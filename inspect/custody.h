// Custody: where every physical component is, and the invariants over it.
//
// Contract: pure functions of a GameState; thread-safe.
//  * enumerate_custody() lists every treachery card, spice card, traitor card,
//    leader and storm card the state holds, once per place it appears in, and
//    the components of the game's modules (core/state.h "module sections"):
//    cards in the played-card zone, the Richese cache, No-Field tokens,
//    leader skill cards and Advanced Stronghold Cards.
//  * check_invariants() returns the first violated invariant (name and
//    detail), or nullopt: each component exactly once, forces per faction
//    constant (20), spice conserved (bank + shields + bribes + board); the
//    module components (invariants "custody", "no_field", "skills",
//    "stronghold_cards"), and "module": the sections of a module the game
//    does not use are empty (a base game never holds a card in the played
//    zone).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/state.h"

namespace mentat::inspect {

// Stable order (replay/diff.cpp groups by it). NoFieldToken ids are token
// indices (value kNoFieldValues[id]); LeaderSkill ids 0..13; StrongholdCard 0..5.
enum class Component : uint8_t { Treachery, Spice, Traitor, Leader, StormCard, NoFieldToken, LeaderSkill, StrongholdCard };
inline constexpr int kNumComponentKinds = 8;
std::string_view component_name(Component c);

struct CustodyEntry {
  Component kind;
  uint8_t id;
  std::string zone;  // "deck", "discard", "hand:atreides", "tanks", ...
};

std::vector<CustodyEntry> enumerate_custody(const GameState& s);
// Human name of a component ("Shield #19", "Thufir Hawat", "Broken Land (8)").
std::string component_label(Component c, uint8_t id);

struct Violation {
  std::string invariant;  // "custody", "forces", "spice"
  std::string detail;
};
std::optional<Violation> check_invariants(const GameState& s);
// A described position (GameSetup::start, events/position.h): where it
// starts (check_start), the invariants of the position itself and of the
// game's first state (create_game: once a phase start's opening steps ran),
// and that this first state waits for someone with a legal action; the first
// violation ("position" for the start and the waiting), its detail prefixed
// with where it was found.
std::optional<Violation> check_position(const GameSetup& setup);

}  // namespace mentat::inspect
