// A seeded random legal-action player over an in-memory game, for property
// and determinism tests. Uses the project's Rng only.
#pragma once

#include <functional>

#include "core/engine.h"

namespace testplay {

using namespace mentat;

struct Step {
  Seat seat;
  Action action;
  DrawLog draws;
};

// Plays until the game ends or max_steps; calls on_step after each action.
// Returns false (with *why) if a waited-for seat has no legal action or a
// legal action is rejected.
inline bool play(GameState& s, uint64_t seed, int max_steps, const std::function<void(const GameState&, const Step&)>& on_step,
                 std::string* why) {
  Rng rng = Rng::from_seed(seed);
  for (int i = 0; i < max_steps; ++i) {
    const uint8_t w = waiting_for(s);
    if (w == 0) return true;
    Seat seats[kMaxSeats];
    int n = 0;
    for (Seat x = 0; x < s.num_seats; ++x)
      if ((w >> x) & 1u) seats[n++] = x;
    const Seat who = seats[rng.below(static_cast<uint32_t>(n))];
    auto acts = legal_actions(s, who);
    if (acts.empty()) {
      *why = "seat " + std::to_string(who) + " is waited for but has no legal action at version " + std::to_string(s.version);
      return false;
    }
    Step st{who, acts[rng.below(static_cast<uint32_t>(acts.size()))], {}};
    if (auto rej = validate(s, who, st.action)) {
      *why = std::string("legal action ") + std::string(action_kind_name(st.action.kind())) + " rejected: " + rej->reason;
      return false;
    }
    apply(s, who, st.action, &st.draws);
    if (on_step) on_step(s, st);
  }
  return true;
}

// Factions for a game: `players` of the six, chosen and ordered by the seed
// (and `salt`, so that two suites can draw different line-ups from one seed).
inline GameSetup setup_for(uint64_t seed, int players, bool advanced, uint64_t salt = 1) {
  GameSetup g;
  g.seed = seed;
  g.advanced = advanced;
  Rng r = Rng::from_seed(seed * 7919 + salt);
  uint8_t all[kNumBaseFactions] = {0, 1, 2, 3, 4, 5};
  r.shuffle(std::span<uint8_t>(all, kNumBaseFactions));
  for (int i = 0; i < players; ++i) g.factions.push_back(static_cast<Faction>(all[i]));
  return g;
}

}  // namespace testplay
