// Structural difference between two positions.
//
// Contract: pure; thread-safe. The diff is grouped the way an adjudicator
// reads a position: custody moves of each component, forces per faction per
// place, spice per holder, leaders, phase and pending decisions, rulings, and
// any other field (by its canonical name from core/state_fields.inc).
#pragma once

#include <string>
#include <vector>

#include "core/state.h"

namespace mentat::replay {

struct DiffEntry {
  std::string group;   // "custody", "forces", "spice", "leaders", "phase", "rulings", "other"
  std::string what;    // "Shield #19", "atreides forces in Arrakeen", "spice behind harkonnen's shield"
  std::string before;  // value in A
  std::string after;   // value in B
};

std::vector<DiffEntry> diff_states(const GameState& a, const GameState& b);
std::string diff_to_text(const std::vector<DiffEntry>& d);
std::string diff_to_json(const std::vector<DiffEntry>& d);

// Canonical encoding of `s` with its rulings replaced by `like`'s, so that two
// positions can be compared apart from the rulings they were played under.
std::string encode_without_rulings(const GameState& s, const GameState& like);

}  // namespace mentat::replay
