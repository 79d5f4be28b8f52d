// Shared steps of the expansion factions' tests (tests/test_choam.cpp,
// tests/test_richese.cpp): a faction that sits only with its module, a hand
// emptied, and the self-play check over mixed faction sets.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "bots/selfplay.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "support/scenario.h"

namespace scenario {

// Checks every seat's projection and the observer's (nothing hidden from it changes its view).
inline void check_projections(const GameState& s) {
  for (Seat x = 0; x < s.num_seats; ++x) {
    auto why = inspect::check_projection(s, inspect::Viewer::of(x), inspect::build_view);
    INFO("seat " << x << ": " << (why ? *why : ""));
    CHECK_FALSE(why.has_value());
  }
  CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::observer(), inspect::build_view).has_value());
}

// Moves a card of the Richese cache into f's hand (sold already: from
// another hand or the discard pile); returns its id.
inline uint8_t from_cache(GameState& s, Faction f, data::TreacheryKind kind) {
  for (int i = 0; i < s.richese.cache.n; ++i)
    if (data::treachery_card(s.richese.cache.ids[i]).kind == kind) {
      const uint8_t id = s.richese.cache.ids[i];
      s.richese.cache.remove(id);
      s.of(f).hand.push(id);
      return id;
    }
  // Sold already (a cache lot of an earlier Bidding phase): from another hand or the discard pile.
  for (int id = data::kNumTreacheryCards; id < data::kNumAllTreacheryCards; ++id) {
    if (data::treachery_card(static_cast<uint8_t>(id)).kind != kind || data::treachery_card(static_cast<uint8_t>(id)).set != data::CardSet::Richese) continue;
    bool found = s.treachery_discard.remove(static_cast<uint8_t>(id));
    for (int fi = 0; fi < kNumFactions && !found; ++fi) found = s.f[fi].hand.remove(static_cast<uint8_t>(id));
    if (!found) continue;
    s.of(f).hand.push(static_cast<uint8_t>(id));
    return static_cast<uint8_t>(id);
  }
  FAIL("no such card in the cache");
  return kNone8;
}

// Lets an open Semuta Drug window (core/cards/semuta_drug.cpp) pass: every
// asked seat declines. Returns whether one was open.
inline bool let_semuta_pass(GameState& s) {
  if (s.window_depth == 0 || s.windows[s.window_depth - 1].kind != WindowKind::SemutaTake) return false;
  const int depth = s.window_depth;
  for (Seat x = 0; x < s.num_seats && s.window_depth == depth; ++x)
    if ((s.waiting >> x) & 1u) scenario::act(s, s.faction_at(x), scenario::respond(false));
  return true;
}

// Empties f's hand into the discard pile.
inline void empty_hand(GameState& s, Faction f) {
  auto& h = s.of(f).hand;
  while (!h.empty()) s.treachery_discard.push(h.pop());
}

// `f` and `other` are refused without `modules` and accepted with them, and
// the game reaches its second turn with custody intact.
inline void plays_with_module(Faction f, Faction other, data::ModuleSet modules) {
  GameSetup g;
  g.seed = 3;
  g.factions = {f, other};
  CHECK(check_setup(g).has_value());  // without the module: refused
  g.modules = modules;
  REQUIRE_FALSE(check_setup(g).has_value());
  GameState s = create_game(g, nullptr);
  play_until(s, Phase::Storm, 2);
  check_custody(s);
}

// Self-play over `sets`, basic and advanced, every profile rotated over the
// seats: every game ends without a rejected action, the invariants checked
// after every event (and every seat's view for the sets in `projection`,
// a mask over the sets' indices). `on_step` sees each state after an action.
inline void selfplay_sets(const std::vector<std::vector<Faction>>& sets, data::ModuleSet modules, uint64_t seed, uint64_t bot_seed,
                          const std::function<void(const GameState&, const bots::Step&)>& on_step, unsigned projection = 0,
                          const Rulings& rulings = Rulings::defaults()) {
  for (size_t i = 0; i < sets.size(); ++i) {
    for (bool advanced : {false, true}) {
      bots::GameSpec spec;
      spec.setup.seed = seed + i;
      spec.setup.factions = sets[i];
      spec.setup.advanced = advanced;
      spec.setup.modules = modules;
      spec.setup.rulings = rulings;
      spec.bot_seed = bot_seed + i;
      spec.projection = ((projection >> i) & 1u) != 0;
      for (size_t k = 0; k < sets[i].size(); ++k) spec.profiles.push_back(static_cast<bots::Profile>((k + i) % bots::kNumProfiles));
      const auto r = bots::play_in_memory(spec, on_step);
      INFO("set " << i << " advanced " << advanced << ": " << r.error << " at " << r.version);
      CHECK(r.ok);
    }
  }
}

}  // namespace scenario
