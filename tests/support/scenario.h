// Compact scenario building for rules tests.
//
//   GameState s = scenario::game({Faction::Atreides, Faction::Harkonnen});
//   scenario::play_until(s, Phase::Bidding);          // default choices
//   scenario::act(s, Faction::Atreides, scenario::bid(3));
//   auto r = scenario::rejected(s, Faction::Harkonnen, scenario::bid(99));
//
// act() REQUIREs that validate accepts the action, then applies it and checks
// the custody invariants, so every scenario also checks custody.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "core/engine.h"
#include "inspect/custody.h"

namespace scenario {

using namespace mentat;

inline GameState game(std::initializer_list<Faction> factions, bool advanced = false, uint64_t seed = 7,
                      Rulings rulings = Rulings::defaults()) {
  GameSetup g;
  g.seed = seed;
  g.factions = factions;
  g.advanced = advanced;
  g.rulings = rulings;
  REQUIRE_FALSE(check_setup(g).has_value());
  return create_game(g, nullptr);
}

inline Seat seat(const GameState& s, Faction f) { return s.seat_of(f); }

inline void act(GameState& s, Faction f, const Action& a) {
  auto rej = validate(s, s.seat_of(f), a);
  INFO("action " << action_kind_name(a.kind) << " by " << faction_name(f) << " rejected: " << (rej ? rej->reason : ""));
  REQUIRE_FALSE(rej.has_value());
  apply(s, s.seat_of(f), a, nullptr);
  auto v = inspect::check_invariants(s);
  INFO("invariant " << (v ? v->invariant + ": " + v->detail : ""));
  REQUIRE_FALSE(v.has_value());
}

inline Rejection rejected(const GameState& s, Faction f, const Action& a) {
  auto rej = validate(s, s.seat_of(f), a);
  REQUIRE(rej.has_value());
  return *rej;
}

// Plays one default action (see play_until).
inline void play_step(GameState& s) {
  uint8_t w = waiting_for(s);
  REQUIRE(w != 0);
  Seat who = static_cast<Seat>(__builtin_ctz(w));
  auto acts = legal_actions(s, who);
  REQUIRE_FALSE(acts.empty());
  Action chosen = acts.front();
  for (const auto& a : acts)
    if (a.kind == ActionKind::Pass) chosen = a;
  act(s, s.faction_at(who), chosen);
}

// Plays the first legal action of the lowest waiting seat (preferring Pass
// where offered) until the game reaches `phase` (of `turn`, when > 0).
inline void play_until(GameState& s, Phase phase, int turn = 0, int max_steps = 5000) {
  for (int i = 0; i < max_steps; ++i) {
    if (s.phase == phase && (turn == 0 || s.turn == turn)) return;
    if (s.phase == Phase::GameOver) break;
    play_step(s);
  }
  FAIL("did not reach phase " << phase_name(phase));
}

inline Action make(ActionKind k) {
  Action a;
  a.kind = k;
  return a;
}
inline Action pass() { return make(ActionKind::Pass); }
inline Action dial(int v) {
  Action a = make(ActionKind::DialStorm);
  a.value = static_cast<uint8_t>(v);
  return a;
}
inline Action bid(int amount, bool karama = false) {
  Action a = make(ActionKind::Bid);
  a.amount = static_cast<uint16_t>(amount);
  a.flag = karama;
  return a;
}
inline Action claim_charity() { return make(ActionKind::ClaimCharity); }
inline Action ship(LocationId to, int forces, int special = 0) {
  Action a = make(ActionKind::Ship);
  a.to = to;
  a.forces = static_cast<uint8_t>(forces);
  a.special = static_cast<uint8_t>(special);
  return a;
}
inline Action move(LocationId from, int forces, LocationId to, int special = 0) {
  Action a = make(ActionKind::Move);
  a.placements[0] = Placement{from, static_cast<uint8_t>(forces), static_cast<uint8_t>(special)};
  a.n_placements = 1;
  a.to = to;
  return a;
}
inline Action revive(int forces, int special = 0, uint8_t leader = kNone8) {
  Action a = make(ActionKind::Revive);
  a.forces = static_cast<uint8_t>(forces);
  a.special = static_cast<uint8_t>(special);
  a.card = leader;
  return a;
}
inline LocationId loc(const char* name) {
  auto l = data::find_location(name);
  REQUIRE(l.has_value());
  return *l;
}

}  // namespace scenario
