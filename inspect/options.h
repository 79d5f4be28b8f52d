// Labelled choices of a decision: what each of Decision::options means, in
// words and as the action fields it sets, plus the origins a movement may
// start from. What `mentat actions` prints, what `actions --json` and the
// views (events/view.fbs DecisionView.choices) carry, and what a client
// renders; the JSON shape is documented in docs/CLI.md ("Labelled choices").
//
// Contract: pure functions of the position; thread-safe. Only the asking
// seat's own decisions are labelled, so nothing here reveals more than
// decisions() does.
#pragma once

#include <string>
#include <vector>

#include "core/engine.h"

namespace mentat::inspect {

// One action field a choice sets: `field` is its path in the action JSON
// ("to", "leader", "from[].location", "keep[]"); `value` its id (factions:
// the enum's number; the name is in Choice::name).
struct ChoiceField {
  std::string field;
  int value = 0;
};

struct Choice {
  int option = -1;        // the raw Decision::options entry; -1 for origins
  std::string name;       // "Sietch Tabr", "Thufir Hawat", "Arrakeen against Harkonnen"
  std::string role;       // destination, origin, location, leader, traitor, cheap_hero,
                          // card, faction, battle, element, answer, voice_kind, kwisatz_haderach
  std::vector<ChoiceField> set;
  int forces = -1;        // origins: the seat's forces there (special forces in `special`)
  int special = -1;
  std::vector<int> to = {};  // Move origins: the destinations (options) a group from here may reach
};

// The labelled choices of `d`, one of decisions(s, seat).
std::vector<Choice> label_choices(const GameState& s, Seat seat, const Decision& d);

// "65 Sietch Tabr": the id and name of a choice as `mentat actions` prints it.
std::string choice_text(const Choice& c);

// The decisions of `seat` as JSON: {"version": V, "seat": S, "faction": key,
// "decisions": [{"kind", "prompt", "min", "max", "options": [...],
// "choices": [{"option", "name", "role", "set": [{"field", "value"}],
// "forces"?, "special"?, "to"?}]}]} (docs/CLI.md).
std::string decisions_json(const GameState& s, Seat seat);

}  // namespace mentat::inspect
