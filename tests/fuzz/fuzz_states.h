// Fixed game states for the fuzz targets: a few positions of one seeded
// game (setup, early, mid-game) reached by seeded random legal play, the
// same on every run.
#pragma once

#include <vector>

#include "core/engine.h"
#include "support/random_play.h"

namespace fuzzsupport {

inline const std::vector<mentat::GameState>& fixed_states() {
  static const std::vector<mentat::GameState> states = [] {
    using namespace mentat;
    std::vector<GameState> out;
    for (const bool advanced : {false, true}) {
      GameSetup g;
      g.seed = advanced ? 77 : 7;
      g.advanced = advanced;
      g.max_turns = 3;
      g.factions = {Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit, Faction::Fremen,
                    Faction::Emperor, Faction::Guild};
      GameState s = create_game(g, nullptr);
      out.push_back(s);
      std::string why;
      for (const int steps : {25, 120, 400}) {
        testplay::play(s, 1234 + steps, steps, {}, &why);
        out.push_back(s);
      }
    }
    return out;
  }();
  return states;
}

}  // namespace fuzzsupport
